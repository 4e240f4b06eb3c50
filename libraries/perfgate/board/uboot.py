"""The U-Boot driver: catch the autoboot countdown, reach the U-Boot prompt, run a command there, boot, reset.

It only talks to a console (perfgate.board.console.ConsoleDriver) with the board's traits (perfgate.board.traits):
no power, no retries, no state. A wait that runs out raises ConsoleTimeout (an AssertionError) with what was awaited.
"""

from __future__ import annotations

import time

from perfgate.board.console import ConsoleDriver, ConsoleTimeout, Match
from perfgate.board.traits import Traits


def garbage_note(text: str) -> str:
    """A hint when the console shows bytes that are not text (line noise, a wrong baud rate)."""
    bad = text.count("\ufffd")
    return f"; the console shows {bad} undecodable bytes (line noise or a wrong baud rate?)" if bad >= 3 else ""


class UBootDriver:
    def __init__(self, console: ConsoleDriver, traits: Traits) -> None:
        self.console = console
        self.traits = traits

    def wait_autoboot(self, since: int, timeout: float, silence: float | None = None) -> Match:
        """Wait for one of the board's autoboot strings (`Hit any key to stop autoboot`, `Press SPACE to abort
        autoboot`...), however the countdown after it is redrawn (CR and ESC[K, backspaces: gone from the text)."""
        names = " or ".join(repr(a) for a in self.traits.autoboot)
        return self.console.expect(self.traits.autoboot_re(), timeout, what=f"the U-Boot autoboot prompt ({names})",
                                   since=since, fail=self.traits.fail_patterns(), silence=silence)  # fmt: skip

    def interrupt(self, timeout: float) -> None:
        """After the autoboot line: type the interrupt key until the U-Boot prompt shows."""
        prompt = self.traits.uboot_prompt_re()
        key = self.traits.interrupt
        deadline = time.monotonic() + timeout
        after = self.console.mark()
        while True:
            self.console.write(key)
            try:
                self.console.expect(prompt, 0.5, what="the U-Boot prompt", since=after)
                break
            except ConsoleTimeout:
                if time.monotonic() > deadline:
                    raise ConsoleTimeout(f"typed {key!r} after the autoboot prompt but no U-Boot prompt "
                                         f"{self.traits.uboot_prompt!r} within {timeout:g} s") from None  # fmt: skip
        self.console.quiet(0.1, 1.0)
        self.console.consume()

    def command(self, command: str, timeout: float) -> str:
        """Type a command at the U-Boot prompt; return what it printed up to the next prompt."""
        since = self.console.sendline(command)
        try:
            m = self.console.expect(self.traits.uboot_prompt_re(), timeout,
                                    what=f"the U-Boot prompt after `{command}`", since=since)  # fmt: skip
        except ConsoleTimeout as e:
            noise = garbage_note(self.console.text(since))
            raise ConsoleTimeout(f"U-Boot did not answer `{command}` within {timeout:g} s (no prompt "
                                 f"{self.traits.uboot_prompt!r}){noise}: {e}") from None  # fmt: skip
        text = self.console.text(since, m.start)
        first = text.find("\n")
        return text[first + 1 :] if first >= 0 else ""

    def boot(self) -> int:
        """Type the boot command; returns the console offset from which the kernel is read."""
        return self.console.sendline(self.traits.boot_command)

    def reset(self) -> None:
        self.console.sendline(self.traits.reset_command)
