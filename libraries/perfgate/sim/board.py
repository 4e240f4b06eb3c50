"""The simulated board's life: off -> SPL/U-Boot banner -> autoboot countdown -> `=> ` prompt or autoboot ->
`Starting kernel ...` -> timestamped kernel log -> login prompt (or the init=/bin/sh shell) -> shell.

Boot time (from `Starting kernel ...` to the prompt) follows the board's published boot-time criteria divided by
the speed factor, so the gate measures them back (times the speed). Faults change the path: uboot-hang,
kernel-panic, no-login, garbage (see perfgate.sim.faults)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

from perfgate.sim import kernel
from perfgate.sim.console import Console, LineReader
from perfgate.sim.data import BoardData
from perfgate.sim.shell import Board as Shared
from perfgate.sim.shell import Exit, PowerOff, Reboot, Session, Sink
from perfgate.sim.spread import Spread
from perfgate.sim.spread import load as load_spread
from perfgate.sim.sshd import SshServer
from perfgate.sim.uboot import Boot, Reset, UBoot

SPL_S = 1.2  # board seconds from power-on to U-Boot proper (SPL, ATF, authentication)
UBOOT_S = 0.6  # U-Boot proper up to the autoboot countdown
MIN_TICK = 0.2  # host seconds per autoboot countdown step, whatever the speed (a person could still hit a key)
SHUTDOWN = (
    "[  OK  ] Stopped target Multi-User System.",
    "[  OK  ] Stopped Network Configuration.",
    "[  OK  ] Reached target System Shutdown.",
    "[  OK  ] Reached target Late Shutdown Services.",
)


SUSPEND_SETTLE_S = 0.5  # real seconds from the last suspend line to the rails reading the mode (board.suspend)


class SimBoard:
    def __init__(self, data: BoardData, shared: Shared, console: Console, ssh: SshServer, speed: float,
                 rng: random.Random, spread: Spread | None = None) -> None:  # fmt: skip
        self.data = data
        self.shared = shared
        self.console = console
        self.ssh = ssh
        self.speed = speed
        self.rng = rng
        self.spread = (spread or load_spread()).excluding(data.published)
        self.state = "off"
        self.boots = 0
        self._task: asyncio.Task | None = None
        self._mode = "ignore"  # ignore | early | countdown | lines
        self._key = asyncio.Event()
        self._lines: asyncio.Queue[str] = asyncio.Queue()
        self._reader = LineReader(self.console.write)
        self._command: asyncio.Task | None = None
        self._late: asyncio.Task | None = None
        self._wake = asyncio.Event()
        console.on_input = self._on_input
        console.garbage = data.faults.garbage
        shared.suspend = self.suspend

    # -- power ---------------------------------------------------------------------------------------------
    def power_on(self) -> None:
        if self._task is not None and not self._task.done():
            return
        self.console.powered = True
        self.state = "on"
        self.shared.answers.sampler.boot()  # a fresh boot: every class strays its own way this time
        self._task = asyncio.create_task(self._life())

    async def power_off(self) -> None:
        for t in (self._command, self._late, self._task):
            if t is not None and not t.done():
                t.cancel()
                with contextlib.suppress(BaseException):
                    await t
        self._task = self._command = self._late = None
        for job in list(self.shared.jobs):  # background jobs die with the board
            job.cancel()
        self.shared.asleep = None
        await self.ssh.stop()
        self.console.powered = False
        self.console.flush()
        self._set_mode("ignore")
        self.state = "off"

    async def cycle(self) -> None:
        await self.power_off()
        await asyncio.sleep(0.05)
        self.power_on()

    def reboot_soon(self) -> None:
        """`reboot` over SSH: restart from the banner (after this command's answer has gone out)."""
        asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(self._restart()))

    def poweroff_soon(self) -> None:
        asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(self.power_off()))

    async def _restart(self) -> None:
        await self.power_off()
        self.power_on()

    # -- input ---------------------------------------------------------------------------------------------
    def _set_mode(self, mode: str) -> None:
        self._mode = mode
        if mode != "lines":
            self._reader.reset()
        if mode in ("early", "ignore"):
            self._key.clear()
            while not self._lines.empty():
                self._lines.get_nowait()

    def _on_input(self, data: bytes) -> None:
        if self.shared.asleep is not None:
            self._wake.set()  # the UART is a wake-up source; the key itself is lost
            return
        if self._mode in ("early", "countdown"):
            self._key.set()  # a key typed before or during the countdown stops autoboot
        elif self._mode == "lines":
            for line in self._reader.feed(data):
                if line == LineReader.INTR and self._command is not None and not self._command.done():
                    self._command.cancel()
                else:
                    self._lines.put_nowait(line)

    async def _line(self) -> str:
        return await self._lines.get()

    # -- timing --------------------------------------------------------------------------------------------
    async def _board_sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.speed)

    def say(self, text: str) -> None:
        self.console.write(text)

    # -- suspend to RAM -------------------------------------------------------------------------------------
    async def suspend(self, word: str, alarm: float | None) -> None:
        """`echo mem > /sys/power/state` (or rtcwake): the kernel's suspend messages on the console as it goes down,
        asleep until the RTC alarm (`alarm` board seconds, at most the shell's longest wait) or a key on the
        console, then what the kernel logged meanwhile and its resume. The writer returns when the board is awake,
        as the real write does. The SSH server and the INA read-out keep answering meanwhile (the lab data's
        `power_meter: board`: sensors another core reads); the rails read the mode's values only while asleep.
        An unknown state word is refused (the kernel's EINVAL): nothing happens."""
        label = kernel.MEM_SLEEP.get(word)
        if label is None or self.shared.asleep is not None:
            return
        t0 = time.monotonic()
        up = (t0 - self.shared.booted_at) * self.speed
        for dt, text in kernel.suspend_entry_lines(label):
            await self._suspend_line(t0, up, dt, text)
        await self.console.drain()
        # freezing tasks and suspending devices takes a real board a few hundred ms whatever the sim's speed: a
        # reading taken at `PM: suspend entry` reads the awake board, however slow the host that reads it
        await asyncio.sleep(SUSPEND_SETTLE_S)
        self.shared.asleep = label
        self._wake.clear()
        try:
            limit = min(alarm / self.speed, self.shared.max_wait) if alarm else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), limit)
        finally:
            self.shared.asleep = None
        t0 = time.monotonic()
        for dt, text in kernel.suspend_exit_lines(int(self.data.profile.get("cpus") or 2)):
            await self._suspend_line(t0, up, dt, text)

    async def _suspend_line(self, t0: float, up: float, dt: float, text: str) -> None:
        await self._at(t0, dt)
        line = f"{kernel.stamp(up + dt)} {text}"
        self.shared.dmesg.append(line)
        self.say(line + "\n")

    # -- life ----------------------------------------------------------------------------------------------
    async def _life(self) -> None:
        while True:
            try:
                cmdline = await self._uboot()
                await self._linux(cmdline)
                return
            except Reset:
                if self._late is not None:
                    self._late.cancel()  # the last boot's kernel has nothing more to say
                await self.ssh.stop()
                self._set_mode("ignore")
                await self._board_sleep(0.2)

    async def _hang(self, state: str) -> None:
        self.state = state
        self._set_mode("ignore")
        await asyncio.Future()  # until power off

    async def _uboot(self) -> str:
        self.boots += 1
        self.state = "spl"
        self._set_mode("early")
        spl = kernel.spl_banner(self.data)
        for line in spl:
            self.say(line + "\n")
            await self._board_sleep(SPL_S / len(spl))
        self.state = "uboot-banner"
        banner = kernel.uboot_banner(self.data)
        for line in banner:
            self.say(line + "\n")
            await self._board_sleep(UBOOT_S / len(banner))
        interrupted = await self._countdown()
        if self.data.faults.uboot_hang:
            if interrupted:
                self.say(str(self.data.uboot["prompt"]))
            await self._hang("uboot-hung")
        ub = UBoot(self.data, self.say, self.speed, self.rng, self.spread, self.shared.answers.sampler)
        if not interrupted:
            self.state = "autoboot"
            self._set_mode("ignore")
            try:
                await ub.execute(ub.env.get("bootcmd", "boot"))
            except Boot as b:
                return self._starting(b.cmdline)
        return await self._prompt(ub)

    async def _countdown(self) -> bool:
        """`Hit any key to stop autoboot:  2 `; True when a key stopped it (also one typed before it began)."""
        self.state = "countdown"
        delay = int(self.data.uboot.get("bootdelay", 2))
        tick = max(1.0 / self.speed, MIN_TICK)
        self._set_mode("countdown")
        self.say(f"{self.data.uboot['autoboot']}: {delay:2d} ")
        if not self._key.is_set():
            for remaining in range(delay, 0, -1):
                try:
                    await asyncio.wait_for(self._key.wait(), tick)
                    break
                except TimeoutError:
                    self.say(f"\b\b\b{remaining - 1:2d} ")
            else:
                self.say("\n")
                return False
        self.say("\b\b\b 0 \n")
        return True

    async def _prompt(self, ub: UBoot) -> str:
        self.state = "uboot"
        self._set_mode("lines")
        prompt = str(self.data.uboot["prompt"])
        while True:
            self.say(prompt)
            line = await self._line()
            if line == LineReader.INTR:
                self.say("<INTERRUPT>\n")
                continue
            try:
                await ub.execute(line)
            except Boot as b:
                return self._starting(b.cmdline)

    def _starting(self, cmdline: str) -> str:
        self._set_mode("ignore")
        self.say(f"{self.data.linux['kernel_start']}\n\n")
        return cmdline

    async def _linux(self, cmdline: str) -> None:
        await self.console.drain()
        t0 = time.monotonic()
        self.state = "kernel"
        faults = self.data.faults
        init_sh = str(self.data.linux["init_sh_bootargs"]) in cmdline
        fig = self.data.boot_figure("init_sh" if init_sh else "default")
        noise = self.data.figure_noise(fig, self.spread)
        total = self.shared.answers.sampler.draw(fig.value, "lower", noise, fig.source)
        sh_time = self.data.boot_figure("init_sh").value
        k_end = total * 0.97 if init_sh else min(sh_time, total * 0.35)
        lines = kernel.kernel_lines(self.data, cmdline)
        if faults.kernel_panic:
            lines = lines[: int(len(lines) * 0.6)]
        self.shared.dmesg = []
        for i, text in enumerate(lines):
            t = k_end * (i + 1) / (len(lines) + 1)
            await self._emit_kernel(t0, t, text)
        if faults.kernel_panic:
            t = k_end * 0.62
            for text in kernel.panic_lines(self.data):
                await self._emit_kernel(t0, t, text)
                t += 0.0003
            await self._hang("panic")
        init = "/bin/sh" if init_sh else "/sbin/init"
        await self._emit_kernel(t0, k_end, kernel.init_line(init))
        self.shared.booted_at = t0
        if init_sh:
            await self._at(t0, total - 0.01)
            self.say("/bin/sh: 0: can't access tty; job control turned off\n")
            await self._at(t0, total)
            self.state = "init_sh"
            await self._shell(str(self.data.linux["sh_prompt"]), login=False)
            return
        userspace = kernel.systemd_lines(self.data)
        if faults.no_login:  # the serial getty never starts
            userspace = [
                t for t in userspace if not any(w in t for w in ("Serial Getty", "Login Prompts", "Multi-User"))
            ]
        for i, text in enumerate(userspace):
            await self._at(t0, k_end + (total - k_end) * 0.95 * (i + 1) / len(userspace))
            self.say(text + "\n")
        if faults.no_login:
            for text in kernel.getty_failure(self.data):
                self.say(text + "\n")
            await self._hang("no-login")
        self.say(kernel.login_banner(self.data))
        await self._at(t0, total)
        self.state = "login"
        if self.data.network:
            await self.ssh.start()
        self._late = asyncio.create_task(self._late_messages(t0, total))
        await self._shell(str(self.data.linux["prompt"]), login=True)

    async def _at(self, t0: float, board_t: float) -> None:
        """Wait until `board_t` board seconds after t0 (and until what was said before has gone out)."""
        await self.console.drain()
        delay = t0 + board_t / self.speed - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)

    async def _emit_kernel(self, t0: float, t: float, text: str) -> None:
        await self._at(t0, t)
        line = f"{kernel.stamp(t)} {text}"
        self.shared.dmesg.append(line)
        self.say(line + "\n")

    async def _late_messages(self, t0: float, total: float) -> None:
        """0-2 kernel messages a little after the login prompt: they land wherever the console is."""
        t = total
        for text in kernel.late_lines()[: self.rng.randint(0, 2)]:
            t += self.rng.uniform(0.5, 3.0)
            await self._at(t0, t)
            line = f"{kernel.stamp(t)} {text}"
            self.shared.dmesg.append(line)
            self.say(line + "\n")

    # -- login and the serial shell ------------------------------------------------------------------------
    async def _login(self) -> None:
        host, login_prompt = self.data.hostname, str(self.data.linux["login_prompt"])
        password = self.data.linux.get("password")
        while True:
            self.state = "login"
            self.say(f"{host} {login_prompt} ")
            self._set_mode("lines")
            user = await self._line()
            if user == LineReader.INTR or not user.strip():
                self.say("\n")
                continue
            ok = user.strip() == str(self.data.linux["user"])
            if password:
                self.say(str(self.data.linux.get("password_prompt") or "Password:") + " ")
                self._reader.echo_on = False
                typed = await self._line()
                self._reader.echo_on = True
                self.say("\n")
                ok = ok and typed == str(password)
            if ok:
                return
            await self._board_sleep(2.0)
            self.say("\nLogin incorrect\n")

    async def _shell(self, prompt: str, login: bool) -> None:
        while True:
            if login:
                await self._login()
            self.state = "shell" if login else "init_sh"
            session = Session(self.shared, Sink(self._serial_write, "serial"), interactive=True)
            self._set_mode("lines")
            while True:
                self.say(prompt)
                line = await self._line()
                if line == LineReader.INTR:
                    self.say("^C\n")
                    continue
                self._command = asyncio.create_task(session.run(line))
                await asyncio.wait({self._command})
                task, self._command = self._command, None
                if task.cancelled():
                    self.say("^C\n")
                    continue
                exc = task.exception()
                if isinstance(exc, Exit):
                    break
                if isinstance(exc, Reboot):
                    await self._shutdown("Restarting system")
                    raise Reset()
                if isinstance(exc, PowerOff):
                    await self._shutdown("Power down")
                    asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self.power_off()))
                    await asyncio.Future()
                if exc is not None:
                    self.say(f"sh: internal error of the simulated board: {type(exc).__name__}: {exc}\n")
            if not login:
                self.say("Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000\n")
                await self._hang("panic")

    async def _serial_write(self, text: str, err: bool) -> None:
        self.say(text)
        await asyncio.sleep(0)

    async def _shutdown(self, how: str) -> None:
        self._set_mode("ignore")
        await self.ssh.stop()
        for text in SHUTDOWN:
            self.say(text + "\n")
            await self._board_sleep(0.1)
        up = (time.monotonic() - self.shared.booted_at) * self.speed
        self.say(f"{kernel.stamp(up)} reboot: {how}\n")
        await self.console.drain()
