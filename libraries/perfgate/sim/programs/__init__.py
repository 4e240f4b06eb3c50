"""The simulated board's programs, one module per program or per small family (perfgate.sim.programs.<module>):

- shell_builtins  true, false, echo, printf, cd, pwd, export, unset, env, wait, sh -c, exit
- system          uname, hostname, nproc, uptime, date, id, sleep, dmesg, reboot, poweroff
- files           cat, grep, head, tail, wc, ls, rm/mkdir/touch/..., and the board's /proc and /sys files
- which           command -v, which, type
- dd              dd
- net             ip, ethtool (answered by perfgate.sim.interfaces from the board and lab data)
- rtcwake         rtcwake (suspend until the RTC alarm)
- power           the power meter's reading of an awake board (an answer hook on the `power` tool)
- timing          what `time` and `time -v` print after the command they ran

Adding a program is one module here: its handlers with `@program("name")` (perfgate.sim.programs.base); `table()`
loads every module of this package. Workload tools (openssl, iperf3, fio...) are not programs: the board answers
them from the workloads' plans (perfgate.sim.answers), printed by perfgate.sim.tools.<tool>.
"""

from __future__ import annotations

import importlib
import pkgutil

from perfgate.sim.programs.base import ANSWER_HOOKS, PROGRAMS, AnswerHook, Handler

_loaded = False


def _load() -> None:
    global _loaded
    if not _loaded:
        for info in pkgutil.iter_modules(__path__):
            if info.name != "base":
                importlib.import_module(f"{__name__}.{info.name}")
        _loaded = True


def table() -> dict[str, Handler]:
    """Every program by name (the registry, filled by loading every module of this package)."""
    _load()
    return PROGRAMS


def answer_hooks() -> dict[str, AnswerHook]:
    _load()
    return ANSWER_HOOKS
