"""The fault spec: `degrade:<criterion id glob>:<percent>,uboot-hang,kernel-panic,no-login,ssh-drop:<tool>,
garbage,missing-tool:<tool>` (comma-separated; `--faults` or Robot's `-v FAULTS:`), and the conditions that make a
sample INVALID (perfgate.sim.condition): `invalid-run:<tool>` (the tool's first run fails as the real tool fails),
`throttle:<tool>` (the board throttles during its first run), `link:<Mb/s>` (the link renegotiates at that speed
during the first run of a network tool), `governor:<governor>` (the CPU governor holds the clock during the first
run of each tool); each with `:all`, every run instead of the first."""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from perfgate.errors import DataError

FLAGS = ("uboot-hang", "kernel-panic", "no-login", "garbage")
WITH_TOOL = ("ssh-drop", "missing-tool")
CONDITIONS = ("invalid-run", "throttle", "link", "governor")  # (what, every run) in Faults.conditions
SYNTAX = (
    "degrade:<criterion id glob>:<percent>, uboot-hang, kernel-panic, no-login, ssh-drop:<tool>, garbage, "
    "missing-tool:<tool>, invalid-run:<tool>[:all], throttle:<tool>[:all], link:<Mb/s>[:all], "
    "governor:<governor>[:all]"
)


@dataclass
class Faults:
    degrade: list[tuple[str, float]] = field(default_factory=list)  # (id glob, percent worse)
    uboot_hang: bool = False
    kernel_panic: bool = False
    no_login: bool = False
    garbage: bool = False
    ssh_drop: set[str] = field(default_factory=set)  # tools whose SSH session is dropped mid-output
    missing_tool: set[str] = field(default_factory=set)  # tools whose binaries are "not found"
    # invalid-run, throttle, link, governor -> (tool / Mb/s / governor, every run: True; the first only: False)
    conditions: dict[str, tuple[str, bool]] = field(default_factory=dict)
    fired: set[str] = field(default_factory=set)  # the first-run conditions that happened already (kind:tool)

    def degradation(self, criterion_id: str) -> float:
        """Percent by which this criterion is made worse (the first matching glob wins), 0 when none."""
        for glob, pct in self.degrade:
            if fnmatchcase(criterion_id, glob):
                return pct
        return 0.0

    def describe(self) -> list[str]:
        out = [f"degrade:{g}:{p:g}" for g, p in self.degrade]
        out += [name for name in FLAGS if getattr(self, name.replace("-", "_"))]
        out += [f"ssh-drop:{t}" for t in sorted(self.ssh_drop)]
        out += [f"missing-tool:{t}" for t in sorted(self.missing_tool)]
        out += [f"{k}:{what}" + (":all" if every else "") for k, (what, every) in self.conditions.items()]
        return out


def parse(spec: str | None, source: str = "--faults") -> Faults:
    """Parse a fault spec; anything unknown is a DataError naming where the spec came from."""
    faults = Faults()
    if not spec or not spec.strip() or spec.strip().lower() in ("none", "${none}"):
        return faults
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            continue
        kind, _, rest = item.partition(":")
        kind = kind.strip().lower()
        if kind == "degrade":
            glob, sep, pct = rest.rpartition(":")
            if not sep or not glob:
                raise DataError(f"fault {item!r}: expected degrade:<criterion id glob>:<percent>", source)
            try:
                value = float(pct.strip().rstrip("%"))
            except ValueError:
                raise DataError(f"fault {item!r}: percent {pct!r} is not a number", source) from None
            if not 0 < value < 100:
                raise DataError(f"fault {item!r}: percent must be between 0 and 100", source)
            faults.degrade.append((glob.strip(), value))
        elif kind in FLAGS:
            if rest:
                raise DataError(f"fault {item!r}: {kind} takes no argument", source)
            setattr(faults, kind.replace("-", "_"), True)
        elif kind in CONDITIONS:
            what, _, every = rest.strip().partition(":")
            if not what or every not in ("", "all"):
                raise DataError(f"fault {item!r}: expected {kind}:<{'Mb/s' if kind == 'link' else 'tool'}>[:all]",
                                source)  # fmt: skip
            if kind == "link" and not (what.isdigit() and int(what) > 0):
                raise DataError(f"fault {item!r}: the link speed {what!r} is not a whole number of Mb/s", source)
            faults.conditions[kind] = (what.strip(), every == "all")
        elif kind in WITH_TOOL:
            if not rest.strip():
                raise DataError(f"fault {item!r}: expected {kind}:<tool>", source)
            getattr(faults, kind.replace("-", "_")).add(rest.strip())
        else:
            raise DataError(f"unknown fault {item!r}; faults are: {SYNTAX}", source)
    return faults
