"""What the board prints from power-on to the login prompt: boot loader banners, the timestamped kernel log,
systemd's lines, and the panic of the `kernel-panic` fault. Text only; board.py decides when each line goes out."""

from __future__ import annotations

from perfgate.sim.data import BoardData
from perfgate.sim.uboot import banner_version


def stamp(t: float) -> str:
    """A kernel timestamp, `[    1.234567]`."""
    return f"[{int(t):5d}.{round((t % 1) * 1e6) % 1000000:06d}]"


def soc_model(data: BoardData) -> str:
    desc = str(data.profile.get("description") or "")
    return f"Texas Instruments {data.profile['soc']} ({desc.split(',')[0]})" if desc else data.profile["soc"]


def spl_banner(data: BoardData) -> list[str]:
    """Printed before U-Boot proper: the SPL stages (about a second on a K3 board)."""
    v = banner_version(data)
    spl = v.replace("U-Boot", "U-Boot SPL", 1)
    return [
        "",
        spl,
        "SYSFW ABI: 4.0 (firmware rev 0x000a '10.0.8--v10.00.08 (Fiery Fox)')",
        "SPL initial stack usage: 13392 bytes",
        "Trying to boot from MMC2",
        "Authentication passed",
        "Authentication passed",
        "Loading Environment from nowhere... OK",
        "Starting ATF on ARM64 core...",
        "",
        "NOTICE:  BL31: v2.10.0(release):v2.10.0-dirty",
        "NOTICE:  BL31: Built : 10:22:11, Jan  1 2024",
        "",
        spl,
        "SYSFW ABI: 4.0 (firmware rev 0x000a '10.0.8--v10.00.08 (Fiery Fox)')",
        "Trying to boot from MMC2",
        "Authentication passed",
        "",
    ]


def uboot_banner(data: BoardData) -> list[str]:
    """U-Boot proper, up to (not including) the autoboot countdown."""
    cpus = int(data.profile.get("cpus") or 2)
    return [
        "",
        "",
        banner_version(data),
        "",
        f"SoC:   {data.profile['soc']} SR1.0 HS-FS",
        f"Model: {soc_model(data)} [perfgate simulated board: {data.board}]",
        "DRAM:  2 GiB",
        f"Core:  {40 + 4 * cpus} devices, 31 uclasses, devicetree: separate",
        "MMC:   mmc@fa10000: 0, mmc@fa00000: 1",
        "Loading Environment from nowhere... OK",
        "In:    serial@2800000",
        "Out:   serial@2800000",
        "Err:   serial@2800000",
        "Net:   eth0: ethernet@8000000port@1",
    ]


def kernel_lines(data: BoardData, cmdline: str) -> list[str]:
    """The kernel's messages up to handing over to init (without timestamps)."""
    cpus = int(data.profile.get("cpus") or 2)
    release = data.linux["kernel_release"]
    model = soc_model(data)
    lines = [
        "Booting Linux on physical CPU 0x0000000000 [0x410fd034]",
        f"Linux version {release} (perfgate simulated {data.board}) (aarch64-oe-linux-gcc (GCC) 13.3.0, "
        "GNU ld (GNU Binutils) 2.42.0) #1 SMP PREEMPT Thu Jan  1 00:00:00 UTC 2024",
        "KASLR disabled due to lack of seed",
        f"Machine model: {model}",
        "earlycon: ns16550a0 at MMIO32 0x0000000002800000 (options '')",
        "printk: bootconsole [ns16550a0] enabled",
        "efi: UEFI not found.",
        "Reserved memory: created DMA memory pool at 0x000000009c800000, size 3 MiB",
        "Zone ranges:",
        "  DMA      [mem 0x0000000080000000-0x00000000ffffffff]",
        "psci: probing for conduit method from DT.",
        "psci: PSCIv1.1 detected in firmware.",
        "percpu: Embedded 22 pages/cpu s50984 r8192 d30936 u90112",
        "Detected VIPT I-cache on CPU0",
        f"Kernel command line: {cmdline}",
        "Dentry cache hash table entries: 262144 (order: 9, 2097152 bytes, linear)",
        "Memory: 1897772K/2064384K available (11456K kernel code, 1236K rwdata, 3712K rodata, 1984K init)",
        f"SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs={cpus}, Nodes=1",
        "rcu: Preemptible hierarchical RCU implementation.",
        "NR_IRQS: 64, nr_irqs: 64, preallocated irqs: 0",
        "GICv3: GIC: Using split EOI/Deactivate mode",
        "arch_timer: cp15 timer(s) running at 200.00MHz (phys).",
        "sched_clock: 56 bits at 200MHz, resolution 5ns, wraps every 4398046511102ns",
        "Console: colour dummy device 80x25",
        "Calibrating delay loop (skipped), value calculated using timer frequency.. 400.00 BogoMIPS (lpj=800000)",
        "pid_max: default: 32768 minimum: 301",
        "rcu: Hierarchical SRCU implementation.",
        "smp: Bringing up secondary CPUs ...",
    ]
    lines += [f"CPU{i}: Booted secondary processor 0x000000000{i} [0x410fd034]" for i in range(1, cpus)]
    lines += [
        f"smp: Brought up 1 node, {cpus} CPUs",
        f"SMP: Total of {cpus} processors activated.",
        "devtmpfs: initialized",
        "clocksource: jiffies: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 7645041785100000 ns",
        "NET: Registered PF_NETLINK/PF_ROUTE protocol family",
        "DMA: preallocated 256 KiB GFP_KERNEL pool for atomic allocations",
        "ti-sci 44043000.system-controller: ABI: 4.0 (firmware rev 0x000a '10.0.8--v10.00.08 (Fiery Fox)')",
        "SCSI subsystem initialized",
        "clocksource: Switched to clocksource arch_sys_counter",
        "NET: Registered PF_INET protocol family",
        "Trying to unpack rootfs image as initramfs...",
        "workingset: timestamp_bits=46 max_order=19 bucket_order=0",
        "io scheduler mq-deadline registered",
        "Serial: 8250/16550 driver, 12 ports, IRQ sharing enabled",
        "2800000.serial: ttyS2 at MMIO 0x2800000 (irq = 230, base_baud = 3000000) is a 8250",
        f"printk: console [{data.linux['console']}] enabled",
        "printk: bootconsole [ns16550a0] disabled",
        "loop: module loaded",
        "davinci_mdio 8000f00.mdio: davinci mdio revision 9.7, bus freq 1000000",
        "am65-cpsw-nuss 8000000.ethernet: initializing am65 cpsw nuss version 0x6BA01103, cpsw version 0x6BA81103",
        "mmc0: CQHCI version 5.10",
        "sdhci-am654 fa00000.mmc: Got CD GPIO",
        "mmc0: SDHCI controller on fa10000.mmc [fa10000.mmc] using ADMA 64-bit",
        "mmc1: SDHCI controller on fa00000.mmc [fa00000.mmc] using ADMA 64-bit",
        "mmc0: Command Queue Engine enabled",
        "mmc0: new HS200 MMC card at address 0001",
        "mmcblk0: mmc0:0001 G1M15L 29.6 GiB",
        "mmc1: new ultra high speed SDR104 SDHC card at address aaaa",
        "mmcblk1: mmc1:aaaa SC32G 29.7 GiB",
        " mmcblk1: p1 p2",
        "EXT4-fs (mmcblk1p2): mounted filesystem with ordered data mode. Quota mode: none.",
        "VFS: Mounted root (ext4 filesystem) on device 179:98.",
        "devtmpfs: mounted",
        "Freeing unused kernel memory: 1984K",
    ]
    return lines


def init_line(init: str) -> str:
    return f"Run {init} as init process"


def systemd_lines(data: BoardData) -> list[str]:
    """Userspace start (no kernel timestamps: systemd writes these to the console itself)."""
    host = data.hostname
    return [
        "",
        "systemd[1]: System time before build time, advancing clock.",
        "systemd[1]: systemd 255.4^ running in system mode (+PAM -AUDIT -SELINUX -APPARMOR +IMA -SMACK +SECCOMP)",
        "systemd[1]: Detected architecture arm64.",
        "",
        "Welcome to Arago 2024.04 (perfgate simulated board)!",
        "",
        f"systemd[1]: Hostname set to <{host}>.",
        "[  OK  ] Created slice Slice /system/getty.",
        "[  OK  ] Created slice Slice /system/serial-getty.",
        "[  OK  ] Started Dispatch Password Requests to Console Directory Watch.",
        "[  OK  ] Reached target Path Units.",
        "[  OK  ] Reached target Swaps.",
        "[  OK  ] Listening on Journal Socket.",
        "[  OK  ] Listening on udev Control Socket.",
        "         Mounting Temporary Directory /tmp...",
        "         Starting Journal Service...",
        "         Starting Load Kernel Modules...",
        "[  OK  ] Mounted Temporary Directory /tmp.",
        "[  OK  ] Finished Load Kernel Modules.",
        "[  OK  ] Started Journal Service.",
        "         Starting Rule-based Manager for Device Events and Files...",
        "[  OK  ] Started Rule-based Manager for Device Events and Files.",
        "[  OK  ] Reached target Local File Systems.",
        "[  OK  ] Reached target System Initialization.",
        "[  OK  ] Started Daily Cleanup of Temporary Directories.",
        "[  OK  ] Reached target Timer Units.",
        "[  OK  ] Listening on D-Bus System Message Bus Socket.",
        "[  OK  ] Listening on dropbear.socket.",
        "[  OK  ] Reached target Socket Units.",
        "[  OK  ] Reached target Basic System.",
        "         Starting Network Configuration...",
        "[  OK  ] Started Network Configuration.",
        "[  OK  ] Reached target Network.",
        "         Starting Permit User Sessions...",
        "[  OK  ] Finished Permit User Sessions.",
        "[  OK  ] Started Getty on tty1.",
        f"[  OK  ] Started Serial Getty on {data.linux['console']}.",
        "[  OK  ] Reached target Login Prompts.",
        "[  OK  ] Reached target Multi-User System.",
    ]


def getty_failure(data: BoardData) -> list[str]:
    """Fault `no-login`: userspace comes up but the serial getty never starts."""
    console = data.linux["console"]
    return [
        f"[FAILED] Failed to start Serial Getty on {console}.",
        f"See 'systemctl status serial-getty@{console}.service' for details.",
        "[  OK  ] Reached target Multi-User System.",
    ]


def login_banner(data: BoardData) -> str:
    host = data.hostname
    return (
        "\n _____                    _____           _         _   \n"
        "|  _  |___ ___ ___ ___   |  _  |___ ___  |_|___ ___| |_ \n"
        "|     |  _| .'| . | . |  |   __|  _| . | | | -_|  _|  _|\n"
        "|__|__|_| |__,|_  |___|  |__|  |_| |___|_| |___|___|_|  \n"
        "              |___|                    |___|            \n\n"
        f"Arago Project {host} -{data.linux['console']}  (perfgate simulated board: {data.board})\n\n"
        f"Arago 2024.04 {host} {data.linux['console']}\n\n"
    )


def panic_lines(data: BoardData) -> list[str]:
    """Fault `kernel-panic`: the root file system cannot be mounted."""
    release = data.linux["kernel_release"]
    reason = "VFS: Unable to mount root fs on unknown-block(179,98)"
    return [
        'VFS: Cannot open root device "/dev/mmcblk1p2" or unknown-block(179,98): error -5',
        'Please append a correct "root=" boot option; here are the available partitions:',
        f"Kernel panic - not syncing: {reason}",
        f"CPU: 0 PID: 1 Comm: swapper/0 Not tainted {release} #1",
        f"Hardware name: {soc_model(data)} (DT)",
        "Call trace:",
        " dump_backtrace+0x98/0xf8",
        " show_stack+0x20/0x38",
        " dump_stack_lvl+0x48/0x60",
        " dump_stack+0x18/0x28",
        " panic+0x328/0x388",
        " mount_root_generic+0x24c/0x2f0",
        " prepare_namespace+0x78/0x240",
        " kernel_init_freeable+0x2b4/0x2e8",
        " kernel_init+0x2c/0x1f8",
        " ret_from_fork+0x10/0x20",
        "SMP: stopping secondary CPUs",
        "Kernel Offset: disabled",
        "CPU features: 0x0,00000000,00000000,1000400b",
        "Memory Limit: none",
        f"---[ end Kernel panic - not syncing: {reason} ]---",
    ]


def late_lines() -> list[str]:
    """Kernel messages that reach the console after the login prompt (they land in the middle of a shell)."""
    return [
        "platform 30200000.dss: deferred probe pending",
        "remoteproc remoteproc0: powering up 5000000.m4fss",
        "remoteproc remoteproc0: Booting fw image am62-mcu-m4f0_0-fw, size 55100",
    ]


# The kernel's suspend-to-RAM messages, as (seconds after the write to /sys/power/state, text): Linux 6.x's
# kernel/power/suspend.c (`PM: suspend entry (deep)`, `PM: suspend exit`), kernel/power/process.c (the freezer) and
# kernel/printk/printk.c (`printk: Suspending console(s) ...`, the last line the console shows before the board
# sleeps). The entry and the resume's last lines are checked against a real kernel's (tests/fixtures/power/
# suspend-s2idle-qemu-arm64-6.1-real.txt); the CPU hot-unplug lines of a deep sleep (logged while the console
# sleeps, so printed after the wake-up) are constructed.
MEM_SLEEP = {"mem": "deep", "standby": "shallow", "freeze": "s2idle", "deep": "deep", "shallow": "shallow",
             "s2idle": "s2idle"}  # fmt: skip


def suspend_entry_lines(label: str) -> list[tuple[float, str]]:
    return [
        (0.0, f"PM: suspend entry ({label})"),
        (0.004, "Filesystems sync: 0.004 seconds"),
        (0.006, "Freezing user space processes"),
        (0.009, "Freezing user space processes completed (elapsed 0.003 seconds)"),
        (0.009, "OOM killer disabled."),
        (0.009, "Freezing remaining freezable tasks"),
        (0.011, "Freezing remaining freezable tasks completed (elapsed 0.002 seconds)"),
        (0.012, "printk: Suspending console(s) (use no_console_suspend to debug)"),
    ]


def suspend_exit_lines(cpus: int) -> list[tuple[float, str]]:
    """After the wake-up: what was logged while the console slept, then the resume (times after the entry)."""
    down = [(0.05 + 0.002 * i, f"psci: CPU{i} killed (polled 0 ms)") for i in range(1, cpus)]
    up = [(0.09 + 0.002 * i, f"CPU{i}: Booted secondary processor 0x000000000{i} [0x410fd034]") for i in range(1, cpus)]
    return [
        (0.048, "Disabling non-boot CPUs ..."),
        *down,
        (0.088, "Enabling non-boot CPUs ..."),
        *up,
        (0.21, "OOM killer enabled."),
        (0.21, "Restarting tasks ... done."),
        (0.212, "random: crng reseeded on system resumption"),
        (0.215, "PM: suspend exit"),
    ]
