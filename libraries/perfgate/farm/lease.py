"""A place taken for a gate run (or a user suite): the coordinator session, the acquired place, labgrid's power
driver for it, and the guard that gives it back if this process dies. `take()` and `Lease.give_back()` are the
two ends; the Robot libraries (perfgate.robot.board for the gate, perfgate.robot.farm for users) call them."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from perfgate.farm import guard
from perfgate.farm.client import Farm, FarmError, Place, filters_text
from perfgate.farm.power import LabgridPower


@dataclass
class Lease:
    farm: Farm
    place: Place
    guard: subprocess.Popen | None = None
    power_delay: float = 2.0
    _power: LabgridPower | None = field(default=None, repr=False)
    returned: bool = False

    @property
    def has_power(self) -> bool:
        from perfgate.farm.power import DRIVERS

        return any(cls in self.place.resources for cls in DRIVERS)

    def power(self) -> LabgridPower:
        """labgrid's power driver for the place's power resource (a perfgate.board.power.PowerDriver)."""
        if self._power is None:
            self._power = LabgridPower(self.place, self.power_delay)
        return self._power

    def give_back(self) -> list[str]:
        """Release the place and cancel the reservation (once), then stop the guard."""
        if self.returned:
            return []
        done: list[str] = []
        if self._power is not None:
            with contextlib.suppress(Exception):
                self._power.close()
        try:
            done = self.farm.give_back(self.place)
            self.returned = True
        finally:
            if self.returned:
                guard.stop(self.guard)
            self.farm.close()
        return done


def take(coordinator: str | None, filters: dict[str, str], wait: float, *, power_delay: float = 2.0,
         say: Callable[[str], None] = print, log_dir: Path | None = None, guarded: bool = True) -> Lease:  # fmt: skip
    """Start the guard, reserve (bounded wait, progress through `say`), acquire."""
    farm = Farm(coordinator, say=say)
    watcher = None
    try:
        if guarded:
            try:
                watcher = guard.start(farm.address, farm.owner, (log_dir / "farm-guard.log") if log_dir else None)
            except OSError as e:
                raise FarmError(f"could not start the farm guard: {e}") from None
        say(f"reserving a labgrid place matching {filters_text(filters)} on {farm.address} (waiting at most "
            f"{wait:g} s)")  # fmt: skip
        place = farm.take(filters, wait)
    except BaseException:
        try:  # nothing may stay held: only when that is sure does the guard go (else it acts when the gate dies)
            guard.give_back_all(farm, farm.owner)
            guard.stop(watcher)
        except Exception:  # the guard stays, and gives back what is held when the gate dies
            pass
        finally:
            farm.close()
        raise
    lease = Lease(farm, place, guard=watcher, power_delay=power_delay)
    waited = f" after waiting {place.waited:.0f} s" if place.waited >= 1 else ""
    say(f"acquired labgrid place {place.describe()}{waited}")
    return lease
