"""U-Boot at the `=> ` prompt: the environment, the commands the suites use, and storage timings that
reproduce the board's published U-Boot KB/s figures the way the guides compute them
(KB/s = size / 1024 / seconds, from `N bytes read in M ms` or `time: x seconds`)."""

from __future__ import annotations

import asyncio
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import replace

from perfgate.sim import values
from perfgate.sim.data import BoardData
from perfgate.sim.spread import Spread

SCSI_BLOCK = 4096  # UFS logical block
MMC_BLOCK = 512
KERNEL_BYTES = 21_234_176  # Image on the boot medium
DTB_BYTES = 62_171


class Boot(Exception):
    """`boot`/`booti` reached `Starting kernel ...` with this kernel command line."""

    def __init__(self, cmdline: str) -> None:
        super().__init__(cmdline)
        self.cmdline = cmdline


class Reset(Exception):
    """`reset` (or `reboot` from Linux): the board restarts from its first banner."""


def banner_version(data: BoardData) -> str:
    """The U-Boot version line; always says that the board is simulated."""
    version = str(data.uboot["version"]).strip()
    if "simulated" not in version.lower():
        version += f" (perfgate simulated {data.board})"
    return version


def default_env(data: BoardData) -> dict[str, str]:
    console = str(data.linux["console"])
    fdt = f"ti/k3-{data.board.split('_')[0]}.dtb"
    env = {
        "arch": "arm",
        "baudrate": "115200",
        "board": data.board.split("_")[0],
        "board_name": data.board,
        "bootdelay": str(data.uboot["bootdelay"]),
        "console": f"{console},115200n8",
        "loadaddr": "0x82000000",
        "kernel_addr_r": "0x82000000",
        "fdtaddr": "0x88000000",
        "fdt_addr_r": "0x88000000",
        "mmcdev": "1",
        "bootpart": "1:2",
        "bootdir": "/boot",
        "name_kern": "Image",
        "fdtfile": fdt,
        "optargs": "",
        "bootargs": f"console={console},115200n8 root=/dev/mmcblk1p2 rw rootfstype=ext4 rootwait",
        "loadimage": "load mmc ${bootpart} ${loadaddr} ${bootdir}/${name_kern}",
        "loadfdt": "load mmc ${bootpart} ${fdtaddr} ${bootdir}/dtb/${fdtfile}",
        "envboot": "mmc dev ${mmcdev}; echo SD/MMC found on device ${mmcdev}",
        "bootcmd_mmc": "run loadimage; run loadfdt; booti ${loadaddr} - ${fdtaddr}",
        "bootcmd": "run envboot; run bootcmd_mmc",
        "ver": banner_version(data),
    }
    for k, v in (data.uboot.get("env") or {}).items():
        env[str(k)] = str(v)
    return env


class UBoot:
    """One U-Boot session (from power-on to `boot` or `reset`). The saved environment survives resets."""

    saved_env: dict[str, str] | None = None  # class-level: `saveenv` persists across power cycles

    def __init__(self, data: BoardData, write: Callable[[str], None], speed: float, rng, spread: Spread,
                 sampler: values.Sampler | None = None) -> None:  # fmt: skip
        self.data = data
        self.sampler = sampler or values.Sampler(rng)
        self.write = write
        self.speed = speed
        self.rng = rng
        self.spread = spread
        self.env = dict(UBoot.saved_env) if UBoot.saved_env is not None else default_env(data)
        self.mmc_dev = 0
        self.sf_probed = False
        self.scsi_scanned = False
        self.files: dict[str, dict[str, int]] = {
            "mmcsd": {"tiboot3.bin": 298_457, "tispl.bin": 1_172_812, "u-boot.img": 1_326_499, "uEnv.txt": 412,
                      "boot/image": KERNEL_BYTES, f"boot/dtb/{self.env['fdtfile'].lower()}": DTB_BYTES},
            "emmc": {"boot/image": KERNEL_BYTES, f"boot/dtb/{self.env['fdtfile'].lower()}": DTB_BYTES},
            "ufs": {},
        }  # fmt: skip
        self._device_ms = 0.0  # simulated time spent in storage transfers by the current command

    # -- command lines -------------------------------------------------------------------------------------
    async def execute(self, line: str) -> bool:
        """Run one command line (`a; b`, `a && b`); True when the last command succeeded."""
        ok = True
        for part, op in _split(line):
            if op == "&&" and not ok:
                continue
            ok = await self.command(part)
        return ok

    def expand(self, text: str) -> str:
        return re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda m: self.env.get(m.group(1) or m.group(2), ""), text)

    async def command(self, text: str) -> bool:
        try:
            argv = shlex.split(self.expand(text))
        except ValueError:
            self.write("syntax error\n")
            return False
        if not argv:
            return True
        name, args = argv[0], argv[1:]
        handler = getattr(self, "cmd_" + name.replace("-", "_"), None)
        if name in ALIASES:
            handler = getattr(self, "cmd_" + ALIASES[name])
        if handler is None:
            self.write(f"Unknown command '{name}' - try 'help'\n")
            return False
        return bool(await handler(args))

    # -- environment ---------------------------------------------------------------------------------------
    async def cmd_version(self, args: list[str]) -> bool:
        self.write(
            f"\n{banner_version(self.data)}\n\naarch64-oe-linux-gcc (GCC) 13.3.0\nGNU ld (GNU Binutils) 2.42.0\n"
        )
        return True

    async def cmd_printenv(self, args: list[str]) -> bool:
        names = [a for a in args if not a.startswith("-")]
        if not names:
            for k in sorted(self.env):
                self.write(f"{k}={self.env[k]}\n")
            self.write(f"\nEnvironment size: {sum(len(k) + len(v) + 2 for k, v in self.env.items())}/126972 bytes\n")
            return True
        ok = True
        for n in names:
            if n in self.env:
                self.write(f"{n}={self.env[n]}\n")
            else:
                self.write(f'## Error: "{n}" not defined\n')
                ok = False
        return ok

    async def cmd_setenv(self, args: list[str]) -> bool:
        args = [a for a in args if a != "-f"]
        if not args:
            self.write("setenv - set environment variables\n\nUsage:\nsetenv name value ...\n")
            return False
        if len(args) == 1:
            self.env.pop(args[0], None)
        else:
            self.env[args[0]] = " ".join(args[1:])
        return True

    async def cmd_saveenv(self, args: list[str]) -> bool:
        self.write("Saving Environment to MMC... Writing to MMC(0)... OK\n")
        UBoot.saved_env = dict(self.env)
        return True

    async def cmd_env(self, args: list[str]) -> bool:
        sub, rest = (args[0], args[1:]) if args else ("", [])
        if sub in ("print", "printenv"):
            return await self.cmd_printenv(rest)
        if sub == "set":
            return await self.cmd_setenv(rest)
        if sub == "save":
            return await self.cmd_saveenv(rest)
        if sub == "default":
            self.env = default_env(self.data)
            self.write("## Resetting to default environment\n")
            return True
        self.write("env - environment handling commands\n")
        return False

    async def cmd_echo(self, args: list[str]) -> bool:
        self.write(" ".join(args) + "\n")
        return True

    async def cmd_help(self, args: list[str]) -> bool:
        for name in sorted({n[4:] for n in dir(self) if n.startswith("cmd_")} | set(ALIASES)):
            self.write(f"{name:<14}- {name} command (perfgate simulated)\n")
        return True

    async def cmd_sleep(self, args: list[str]) -> bool:
        await asyncio.sleep(float(args[0]) / self.speed if args else 0)
        return True

    async def cmd_true(self, args: list[str]) -> bool:
        return True

    async def cmd_false(self, args: list[str]) -> bool:
        return False

    async def cmd_time(self, args: list[str]) -> bool:
        """`time <cmd>`: the simulated duration (storage transfers at their published speed)."""
        if not args:
            self.write("time - run commands and summarize execution time\n")
            return False
        start = time.monotonic()
        self._device_ms = 0.0
        ok = await self.command(shlex.join(args))
        # A storage command takes its transfer time; the host's scheduling delays are not board time.
        board_ms = self._device_ms or (time.monotonic() - start) * 1000 * self.speed
        self.write(format_time(board_ms / 1000))
        return ok

    async def cmd_run(self, args: list[str]) -> bool:
        ok = True
        for name in args:
            if name not in self.env:
                self.write(f'## Error: "{name}" not defined\n')
                return False
            ok = await self.execute(self.env[name])
            if not ok:
                return False
        return ok

    async def cmd_boot(self, args: list[str]) -> bool:
        return await self.execute(self.env.get("bootcmd", ""))

    async def cmd_reset(self, args: list[str]) -> bool:
        self.write("resetting ...\n")
        raise Reset()

    async def cmd_booti(self, args: list[str]) -> bool:
        fdt = args[2] if len(args) > 2 else self.env.get("fdtaddr", "0x88000000")
        addr = fdt.removeprefix("0x")
        self.write(
            f"## Flattened Device Tree blob at {addr}\n   Booting using the fdt blob at 0x{addr}\n"
            f"Working FDT set to {addr}\n   Loading Device Tree to 000000008feeb000, end 000000008ffff2da ... OK\n"
            "Working FDT set to 8feeb000\n\n"
        )
        cmdline = self.env.get("bootargs", "")
        optargs = self.env.get("optargs", "").strip()
        if optargs and optargs not in cmdline:
            cmdline = f"{cmdline} {optargs}".strip()
        raise Boot(cmdline)

    # -- storage -------------------------------------------------------------------------------------------
    async def transfer(self, medium: str, op: str, size: int) -> int:
        """Spend the time a `size`-byte `op` takes on `medium` at the published KB/s; return milliseconds."""
        fig = self.data.storage_figure(medium, op, size)
        noise = replace(self.data.figure_noise(fig, self.spread), failed=0.0)  # a transfer that fails is another fault
        kbps = self.sampler.draw(fig.value, fig.direction, noise, (medium, op, fig.source))
        ms = max(1, round(size / 1024 / kbps * 1000)) if size else 0
        self._device_ms += ms
        await asyncio.sleep(ms / 1000 / self.speed)
        return ms

    async def cmd_mmc(self, args: list[str]) -> bool:
        sub = args[0] if args else ""
        medium = self.data.mmc_medium(self.mmc_dev)
        if sub == "dev":
            dev = int(args[1]) if len(args) > 1 else self.mmc_dev
            part = int(args[2]) if len(args) > 2 else 0
            if self.data.mmc_medium(dev) is None:
                self.write(f"MMC Device {dev} not found\nno mmc device at slot {dev:x}\n")
                return False
            self.mmc_dev = dev
            self.write(f"switch to partitions #{part}, OK\nmmc{dev}(part {part}) is current device\n")
            return True
        if sub == "rescan":
            return medium is not None
        if sub == "list":
            for dev in (0, 1):
                m = self.data.mmc_medium(dev)
                if m:
                    self.write(f"mmc@fa{dev}0000: {dev}{' (eMMC)' if m == 'emmc' else ' (SD)'}\n")
            return True
        if sub == "info":
            if medium is None:
                self.write("MMC Device not found\n")
                return False
            kind = "eMMC" if medium == "emmc" else "SD"
            self.write(
                f"Device: mmc@fa{self.mmc_dev}0000\nManufacturer ID: {'13' if kind == 'eMMC' else '3'}\n"
                f"OEM: 14e\nName: {'G1M15L' if kind == 'eMMC' else 'SC32G'}\nBus Speed: 200000000\n"
                f"Mode: {'HS200 (200MHz)' if kind == 'eMMC' else 'UHS SDR104 (208MHz)'}\n"
                f"Rd Block Len: 512\n{kind} version 5.1\nHigh Capacity: Yes\nCapacity: 29.1 GiB\nBus Width: 8-bit\n"
            )
            return True
        if sub == "part":
            self.write("\nPartition Map for MMC device 1  --   Partition Type: DOS\n\n")
            return True
        if sub in ("read", "write", "erase"):
            if medium is None:
                self.write("No MMC device available\n")
                return False
            try:
                blk, cnt = (_num(args[2]), _num(args[3])) if sub != "erase" else (_num(args[1]), _num(args[2]))
            except (IndexError, ValueError):
                self.write(f"Usage:\nmmc {sub} addr blk# cnt\n")
                return False
            verb = {"read": "read", "write": "written", "erase": "erased"}[sub]
            label = sub if sub != "erase" else "erase"
            self.write(f"\nMMC {label}: dev # {self.mmc_dev}, block # {blk}, count {cnt} ... ")
            await self.transfer(medium, "read" if sub == "read" else "write", cnt * MMC_BLOCK)
            self.write(f"{cnt} blocks {verb}: OK\n")
            return True
        self.write("mmc - MMC sub system\n\nUsage:\nmmc info | read | write | erase | rescan | part | dev | list\n")
        return False

    def _fs_medium(self, iface: str, devpart: str) -> str | None:
        if iface == "mmc":
            return self.data.mmc_medium(int(devpart.split(":")[0] or "0", 16))
        if iface in ("scsi", "ufs"):
            return "ufs"
        return None

    async def _load(self, args: list[str]) -> bool:
        if len(args) < 4:
            self.write("load - load binary file from a filesystem\n\nUsage:\nload <interface> [<dev[:part]> [<addr> "
                       "[<filename> [bytes [pos]]]]]\n")  # fmt: skip
            return False
        medium = self._fs_medium(args[0], args[1])
        name = args[3].lstrip("/").lower()
        if medium is None:
            self.write(
                f"** Bad device specification {args[0]} {args[1]} **\nCouldn't find partition {args[0]} {args[1]}\n"
            )
            return False
        size = self.files.get(medium, {}).get(name)
        if size is None:
            self.write(f"Failed to load '{args[3]}'\n")
            return False
        if len(args) > 4:
            size = min(size, _num(args[4])) if _num(args[4]) else size
        ms = await self.transfer(medium, "read", size)
        self.write(f"{size} bytes read in {ms} ms{rate(size, ms)}\n")
        self.env["filesize"] = f"{size:x}"
        return True

    async def _save(self, args: list[str]) -> bool:
        if len(args) < 5:
            self.write(
                "save - save file to a filesystem\n\nUsage:\n"
                "save <interface> <dev[:part]> <addr> <filename> bytes [pos]\n"
            )
            return False
        medium = self._fs_medium(args[0], args[1])
        if medium is None:
            self.write(f"** Bad device specification {args[0]} {args[1]} **\n")
            return False
        size = _num(args[4])
        ms = await self.transfer(medium, "write", size)
        self.files.setdefault(medium, {})[args[3].lstrip("/").lower()] = size
        self.write(f"{size} bytes written in {ms} ms{rate(size, ms)}\n")
        return True

    async def cmd_load(self, args: list[str]) -> bool:
        return await self._load(args)

    async def cmd_save(self, args: list[str]) -> bool:
        return await self._save(args)

    # -- SPI (OSPI/QSPI) flash -----------------------------------------------------------------------------
    async def cmd_sf(self, args: list[str]) -> bool:
        sub = args[0] if args else ""
        if sub == "probe":
            self.sf_probed = True
            self.write("SF: Detected mt35xu512aba with page size 256 Bytes, erase size 128 KiB, total 64 MiB\n")
            return True
        if sub not in ("read", "write", "erase", "update"):
            self.write("sf - SPI flash sub-system\n\nUsage:\nsf probe | read | write | erase | update\n")
            return False
        if not self.sf_probed:
            self.write("No SPI flash selected. Please run `sf probe'\n")
            return False
        try:
            off, length = (
                (_num(args[1]), _num(args[2].lstrip("+"))) if sub == "erase" else (_num(args[2]), _num(args[3]))
            )
        except (IndexError, ValueError):
            self.write(f"Usage:\nsf {sub} addr offset|partition len\n")
            return False
        if sub == "read":
            self.write(f"device 0 offset 0x{off:x}, size 0x{length:x}\n")
            await self.transfer("ospi", "read", length)
            self.write(f"SF: {length} bytes @ {off:#x} Read: OK\n")
        elif sub == "write":
            self.write(f"device 0 offset 0x{off:x}, size 0x{length:x}\n")
            await self.transfer("ospi", "write", length)
            self.write(f"SF: {length} bytes @ {off:#x} Written: OK\n")
        elif sub == "erase":
            self._device_ms += 1
            await asyncio.sleep(0.001)
            self.write(f"SF: {length} bytes @ {off:#x} Erased: OK\n")
        else:
            ms = await self.transfer("ospi", "write", length)
            speed = length * 1000 // ms if ms else length
            # U-Boot prints the milliseconds unpadded after the dot (`in 1.23s` for 1023 ms): kept verbatim
            self.write(f"{length} bytes written, 0 bytes skipped in {ms // 1000}.{ms % 1000}s, speed {speed} B/s\n")
        return True

    # -- UFS through SCSI ----------------------------------------------------------------------------------
    async def cmd_ufs(self, args: list[str]) -> bool:
        if args[:1] == ["init"]:
            return True
        self.write("ufs - UFS  sub system\n\nUsage:\nufs init [dev] - init UFS subsystem\n")
        return False

    async def cmd_scsi(self, args: list[str]) -> bool:
        sub = args[0] if args else ""
        if sub in ("scan", "reset", "rescan"):
            self.scsi_scanned = True
            self.write(
                "scanning bus for devices...\n  Device 0: (0:0) Vendor: SAMSUNG Prod.: KLUDG4UHDB-B2D1 Rev: 0800\n"
                "            Type: Hard Disk\n            Capacity: 30528.0 MB = 29.8 GB (7815168 x 4096)\n"
            )
            return True
        if sub in ("info", "device", "dev"):
            self.write("  Device 0: (0:0) Vendor: SAMSUNG Prod.: KLUDG4UHDB-B2D1 Rev: 0800\n")
            return True
        if sub in ("read", "write"):
            try:
                blk, cnt = _num(args[2]), _num(args[3])
            except (IndexError, ValueError):
                self.write(f"Usage:\nscsi {sub} addr blk# cnt\n")
                return False
            self.write(f"\nSCSI {sub}: device 0 block # {blk}, count {cnt} ... ")
            await self.transfer("ufs", sub, cnt * SCSI_BLOCK)
            self.write(f"{cnt} blocks {'read' if sub == 'read' else 'written'}: OK\n")
            return True
        self.write("scsi - SCSI sub-system\n\nUsage:\nscsi reset | info | scan | read | write\n")
        return False


ALIASES = {
    "bootd": "boot", "fatload": "load", "ext4load": "load", "fatwrite": "save", "ext4write": "save",
    "bootz": "booti", "bootm": "booti", "env_print": "printenv",
}  # fmt: skip


def _num(text: str) -> int:
    """U-Boot reads numbers as hex, with or without 0x."""
    return int(text, 16)


def _split(line: str) -> list[tuple[str, str]]:
    """`a; b && c` -> [(a, ;), (b, ;), (c, &&)]: each part with the operator before it."""
    parts: list[tuple[str, str]] = []
    buf, quote, op, i = [], "", ";", 0
    while i < len(line):
        ch = line[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ";" or line.startswith("&&", i):
            parts.append(("".join(buf).strip(), op))
            op = "&&" if ch == "&" else ";"
            buf = []
            i += 2 if ch == "&" else 1
            continue
        buf.append(ch)
        i += 1
    parts.append(("".join(buf).strip(), op))
    return [(p, o) for p, o in parts if p]


def print_size(size: int, suffix: str) -> str:
    """U-Boot's print_size(): `22.2 MiB/s`, `4 MiB/s`, `512 KiB/s`."""
    for i, c in enumerate("EPTGMK"):
        d = 10 * (6 - i)
        if size >> d:
            n, f = size >> d, size & ((1 << d) - 1)
            m = 0
            if f:
                m = (10 * f + (1 << (d - 1))) >> d
                if m >= 10:
                    m, n = m - 10, n + 1
            return f"{n}{'.' + str(m) if m else ''} {c}iB{suffix}"
    return f"{size} Bytes{suffix}"


def rate(size: int, ms: int) -> str:
    return f" ({print_size(size // ms * 1000, '/s')})" if ms > 0 else ""


def format_time(seconds: float) -> str:
    """U-Boot's `time` report: `\\ntime: 0.192 seconds` (minutes above 60 s)."""
    total_ms = round(seconds * 1000)
    minutes, rest = divmod(total_ms, 60000)
    lead = f" {minutes} minutes," if minutes else ""
    return f"\ntime:{lead} {rest // 1000}.{rest % 1000:03d} seconds\n"
