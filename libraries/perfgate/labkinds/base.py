"""The two interfaces of a lab kind, and the registry that finds them.

- `LabKind`: what a `kind:` in a lab file is. It validates its own section of the lab file (errors name the file,
  the key and its line, through `lab.error`), says what it adds to the board's profile and how the console names
  the lab, checks what it names on this host without touching hardware (`perfgate lab check`), and `start()`s:
  opens whatever the kind reaches the board through and returns an `Access`.
- `Access`: what the gate does with a started board, whichever kind gave it: run a command where it runs (shell,
  console, U-Boot, boot), the console, the board's and the tester's addresses, bring-up, reboot, close.

One module per kind in this package registers its class with `@register` (like labgrid's
`@target_factory.reg_driver`): `kind(name)` finds it by loading every module of the package once. The modules
import at most this module and the code they drive, never what dispatches to them (perfgate.board.lab).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from perfgate.errors import DataError, PerfgateError

PACKAGE = "perfgate.labkinds"
NOT_KINDS = ("base", "console")  # modules of the package that register no kind
_KINDS: dict[str, type[LabKind]] = {}
_loaded = False


class LabFile(Protocol):
    """What a lab kind reads of a lab (perfgate.board.labfile.Lab)."""

    name: str
    path: Path
    data: dict[str, Any]
    lines: dict[tuple, int]

    @property
    def kind(self) -> str: ...

    @property
    def virtual(self) -> bool: ...

    def error(self, message: str, *key: str | int) -> DataError: ...


@dataclass
class Opening:
    """What `LabKind.start` is given (by the run's session, perfgate.run.session.Session.start_lab): the lab, the
    board, the run's variables as the lab's templates see them (`board`, `lab`, `sim_speed`, `faults`, ...), where the
    transcript and the board's logs go, how to speak, and the run's recorder once the run is open."""

    lab: Any  # perfgate.board.labfile.Lab
    board: str
    profile: dict
    context: dict[str, Any]
    out_dir: Path
    say: Callable[[str], None] = print  # the console and the log
    log: Callable[[str], None] = print  # the log only
    ssh_library: Any = None  # the run's SSHLibrary instance (perfgate.board.ssh.ssh_library)
    recorder: Callable[[], Any] = lambda: None  # the run's RunRecorder (perfgate.report.recorder); None: no run open

    @property
    def transcript(self) -> Path:
        return self.out_dir / "serial.log"


class Access:
    """A started board. The kinds that reach the board through its console share perfgate.labkinds.console's
    ConsoleAccess; a kind that cannot do something (LAVA: U-Boot, the console) says why in an AssertionError."""

    name: str = ""
    lab: Any = None
    console: Any = None  # perfgate.board.console.ConsoleDriver, None when the kind gives the gate no console
    bring_up_error: str = ""
    reads_state: ClassVar[bool] = True  # the runner reads the board's state around each command (decision.validity)

    def unsupported(self, what: str) -> AssertionError:
        return AssertionError(f"{what}: LAB={getattr(self.lab, 'name', '?')} ({self.lab.kind}) cannot")

    # -- commands
    def run(self, command: str, timeout: float = 600.0, where: str = "shell") -> str:
        """Run `command` where it runs (shell, console, uboot, boot) and return its whole output; AssertionError on a
        timeout, ConnectionDropped on a disconnect, ToolMissing on exit status 127."""
        raise NotImplementedError

    def uboot(self, command: str, timeout: float = 120.0, setup: tuple[str, ...] = ()) -> str:
        raise self.unsupported("U-Boot")

    def prefetch(self, commands: list[tuple[str, float]]) -> None:
        """(command, timeout) pairs the runner asks for next: a kind that plans ahead (LAVA) runs them together."""

    # -- the console
    def console_mark(self) -> int:
        raise self.unsupported("console")

    def console_text(self, since: int) -> str:
        raise self.unsupported("console")

    def await_console(self, patterns: list[str], *, since: int, timeout: float, abort: list[str],
                      quiet: float = 0.0) -> int:  # fmt: skip
        raise self.unsupported("console")

    def strategy(self, what: str) -> AbstractContextManager[Any]:
        """A context manager giving the board strategy (perfgate.board.strategy.Board) for one step `what`, the
        console seen meanwhile logged; a kind without one refuses."""
        raise self.unsupported(what)

    # -- addresses
    def board_address(self) -> str:
        """The board's address as the tester sees it: known once, then reused."""
        raise NotImplementedError

    def learn_address(self) -> str:
        """The board's address, learned now where the kind can (from the console), logged."""
        return self.board_address()

    def tester_address(self) -> str:
        raise NotImplementedError

    # -- the board's life
    def bring_up(self) -> None:
        raise NotImplementedError

    def reboot(self) -> None:
        raise self.unsupported("reboot")

    def state(self) -> str:
        return "unknown"

    def close(self) -> None:
        """Give everything back: SSH, the console, the board process, a labgrid place, a LAVA session."""


class LabKind:
    """One kind of lab. Class attributes declare it; every method has the default of a lab with nothing of its own.

    `name`: the `kind:` value. `keys`: the lab-file keys of its own (a lab of another kind giving one is an error
    naming it). `takes`: what those keys say, for that error. `hardware`: its boards may be real (else every lab of
    the kind is virtual). `exclusive`: the gate takes the board lock (perfgate.board.boardlock) for it; kinds whose
    owner hands the board out (a labgrid place, LAVA) or that start their own board do not. `own_console`:
    `serial.port` names the console on this host. `order`: where error messages list it."""

    name: ClassVar[str]
    keys: ClassVar[tuple[str, ...]] = ()
    takes: ClassVar[str] = ""
    hardware: ClassVar[bool] = False
    exclusive: ClassVar[bool] = True
    own_console: ClassVar[bool] = True
    order: ClassVar[int] = 100  # where error messages list it among the kinds

    def validate(self, lab: LabFile) -> None:
        """Check the kind's own keys and fill what the kind gives instead (a serial port placeholder...)."""

    def profile(self, lab: LabFile) -> dict[str, Any]:
        """Overrides of the board's profile this kind implies (LAVA: no U-Boot prompt, no console)."""
        return {}

    def banner(self, lab: LabFile) -> str | None:
        """How the console and the report name the lab (None: `hardware lab (...)` or `virtual board`)."""
        return None

    def check(self, lab: LabFile, command_problem: Callable[[object], str | None],
              resolves: Callable[[str, tuple[str, ...]], None]) -> list[PerfgateError]:  # fmt: skip
        """What the kind names on this host, checked without hardware (nothing opened, powered or submitted):
        `command_problem(command)` says what is wrong with a command line, `resolves(host, key)` checks a host."""
        return []

    def start(self, opening: Opening) -> Access:
        raise NotImplementedError


def register(cls: type[LabKind]) -> type[LabKind]:
    """Class decorator: the kind `cls.name` is `cls` (one module per kind in this package)."""
    other = _KINDS.get(cls.name)
    if other is not None and other is not cls:
        raise ValueError(f"lab kind {cls.name!r} is registered twice: {other.__module__} and {cls.__module__}")
    _KINDS[cls.name] = cls
    return cls


def _load() -> None:
    global _loaded
    if not _loaded:
        package = importlib.import_module(PACKAGE)
        for info in pkgutil.iter_modules(package.__path__):
            if info.name not in NOT_KINDS:
                importlib.import_module(f"{PACKAGE}.{info.name}")
        _loaded = True


def kinds() -> dict[str, type[LabKind]]:
    """Every registered kind by name (loading this package's modules once)."""
    _load()
    return dict(sorted(_KINDS.items(), key=lambda item: (item[1].order, item[0])))


def kind(name: str) -> LabKind:
    """The kind `name`; KeyError for a name no module registers."""
    return kinds()[name]()


def names() -> tuple[str, ...]:
    return tuple(kinds())


def own_keys() -> set[str]:
    """The lab-file keys the kinds declare as their own."""
    return {k for cls in kinds().values() for k in cls.keys}
