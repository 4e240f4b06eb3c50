"""The U-Boot driver: catch the autoboot countdown, reach the U-Boot prompt, run a command there, boot, reset.

It only talks to a console (perfgate.board.console.ConsoleDriver) with the board's traits (perfgate.board.traits):
no power, no retries, no state. A wait that runs out raises ConsoleTimeout (an AssertionError) with what was awaited.
U-Boot that starts again while a command runs (its autoboot line shows: a watchdog, a brown-out, a reset by hand) is
stopped at its prompt again and reported as UBootRestarted: whatever the command's setup did (`sf probe`, `mmc dev`)
is gone, which the strategy must know.
"""

from __future__ import annotations

import time

from perfgate.board.console import ConsoleDriver, ConsoleTimeout, Match
from perfgate.board.traits import Traits


def garbage_note(text: str) -> str:
    """A hint when the console shows bytes that are not text (line noise, a wrong baud rate)."""
    bad = text.count("\ufffd")
    return f"; the console shows {bad} undecodable bytes (line noise or a wrong baud rate?)" if bad >= 3 else ""


# what U-Boot's command line prints for a Ctrl-C typed at its prompt, before a new prompt (`=> <INTERRUPT>`: seen on
# Debian's U-Boot 2023.01 in the QEMU board, tests/board/test_board_qemu.py)
INTERRUPTED = "<INTERRUPT>"


class UBootRestarted(AssertionError):
    """U-Boot started again (its autoboot line showed) while the gate waited for its prompt; the driver stopped
    the autoboot again, so U-Boot is at a fresh prompt: nothing typed before counts any more."""


class UBootDriver:
    def __init__(self, console: ConsoleDriver, traits: Traits) -> None:
        self.console = console
        self.traits = traits
        self._autoboot_at: int | None = None  # console offset of the last autoboot line seen

    def wait_autoboot(self, since: int, timeout: float, silence: float | None = None, kernel: bool = False) -> Match:
        """Wait for one of the board's autoboot strings (`Hit any key to stop autoboot`, `Press SPACE to abort
        autoboot`...), however the countdown after it is redrawn (CR and ESC[K, backspaces: gone from the text).
        `kernel`: the kernel's start marker ends the wait too (Match.index 1): U-Boot ran and autobooted, though
        its autoboot line did not show as such (line noise garbled it)."""
        names = " or ".join(repr(a) for a in self.traits.autoboot)
        patterns = [self.traits.autoboot_re()] + ([self.traits.kernel_start_re()] if kernel else [])
        m = self.console.expect(patterns, timeout, what=f"the U-Boot autoboot prompt ({names})", since=since,
                                fail=self.traits.fail_patterns(), silence=silence)  # fmt: skip
        if m.index == 0:
            self._seen(m)
        return m

    def _seen(self, m: Match) -> None:
        self._autoboot_at = m.start

    @property
    def autoboot_line(self) -> str:
        """The console line of the last autoboot match, as far as it has come (the key it names may follow the
        matched text: `autoboot in 1 seconds (stop with 'd')`); "" when none was seen."""
        if self._autoboot_at is None:
            return ""
        text = self.console.text()
        start = text.rfind("\n", 0, self._autoboot_at) + 1
        end = text.find("\n", self._autoboot_at)
        return text[start : end if end >= 0 else len(text)]

    def interrupt(self, timeout: float) -> None:
        """After the autoboot line: type the interrupt key until the U-Boot prompt shows."""
        prompt = self.traits.uboot_prompt_re()
        key, why = self.traits.interrupt_for(self.autoboot_line)
        deadline = time.monotonic() + timeout
        after = self.console.mark()
        while True:
            self.console.write(key)
            try:
                self.console.expect(prompt, 0.5, what="the U-Boot prompt", since=after)
                break
            except ConsoleTimeout:
                if time.monotonic() > deadline:
                    raise ConsoleTimeout(f"typed {key!r} ({why}) after the autoboot prompt "
                                         f"{self.autoboot_line.strip()!r} but no U-Boot prompt "
                                         f"{self.traits.uboot_prompt!r} within {timeout:g} s") from None  # fmt: skip
        self.console.quiet(0.1, 1.0)
        self.console.consume()

    def command(self, command: str, timeout: float) -> str:
        """Type a command at the U-Boot prompt; return what it printed up to the next prompt. UBootRestarted when
        U-Boot started again meanwhile (caught at its prompt again)."""
        since = self.console.sendline(command)
        try:
            m = self.console.expect([self.traits.uboot_prompt_re(), self.traits.autoboot_re()], timeout,
                                    what=f"the U-Boot prompt after `{command}`", since=since)  # fmt: skip
        except ConsoleTimeout as e:
            noise = garbage_note(self.console.text(since))
            raise ConsoleTimeout(f"U-Boot did not answer `{command}` within {timeout:g} s (no prompt "
                                 f"{self.traits.uboot_prompt!r}){noise}: {e}") from None  # fmt: skip
        if m.index == 1:
            self._seen(m)
            self._restarted(f"during `{command}`", m.text, timeout)
        text = self.console.text(since, m.start)
        first = text.find("\n")
        return text[first + 1 :] if first >= 0 else ""

    def resync(self, since: int, timeout: float, tries: int = 3) -> None:
        """After a prompt that never came (line noise garbled it, or the command is still busy): type Ctrl-C, as a
        person at the console would, and wait for U-Boot's answer: `<INTERRUPT>` and a new prompt when it sits at
        its prompt (either one will do: noise may garble the other); up to `tries` times, `timeout` s each.
        ConsoleTimeout when U-Boot does not answer; UBootRestarted when the console since `since` shows that it
        started again (a Ctrl-C stops an autoboot countdown too)."""
        answers = [self.traits.uboot_prompt_re(), INTERRUPTED]
        for _ in range(tries):
            after = self.console.mark()
            self.console.write("\x03")  # no line end: an empty line would repeat U-Boot's last (repeatable) command
            try:
                self.console.expect(answers, timeout, what="U-Boot's answer to Ctrl-C", since=after)
                break
            except ConsoleTimeout as e:
                last = e
        else:
            raise ConsoleTimeout(f"U-Boot did not answer Ctrl-C ({tries} times, {timeout:g} s each): {last}")
        self.console.quiet(0.2, 2.0)  # a late prompt of the busy command must not answer the next one
        self.console.consume()
        started = self.traits.autoboot_re().search(self.console.text(since))
        if started:
            raise UBootRestarted(f"U-Boot started again (its autoboot line `{started.group(0)}` showed) and is at "
                                 "a fresh prompt")  # fmt: skip

    def _restarted(self, when: str, line: str, timeout: float) -> None:
        """U-Boot's autoboot line showed while a command ran: stop the autoboot again, then say so."""
        self.interrupt(timeout)
        raise UBootRestarted(f"U-Boot started again {when} (its autoboot line `{line}` showed); the autoboot was "
                             "stopped at a fresh prompt")  # fmt: skip

    def boot(self) -> int:
        """Type the boot command; returns the console offset from which the kernel is read."""
        return self.console.sendline(self.traits.boot_command)

    def reset(self) -> None:
        self.console.sendline(self.traits.reset_command)
