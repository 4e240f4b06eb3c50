"""Power through labgrid itself: the acquired place's power resource becomes a labgrid resource on a local target
and labgrid's driver for it switches the power (as `labgrid-client -p <place> power cycle` does, after the gate has
acquired the place)."""

from __future__ import annotations

from labgrid import Target
from labgrid.factory import target_factory

from perfgate.board.power import DriverPower, PowerError
from perfgate.farm.client import Place

# the power resources labgrid-client's `power` command knows, and their drivers (labgrid/remote/client.py)
DRIVERS = {
    "NetworkPowerPort": "NetworkPowerDriver",
    "PDUDaemonPort": "PDUDaemonDriver",
    "TasmotaPowerPort": "TasmotaPowerDriver",
    "NetworkUSBPowerPort": "USBPowerDriver",
    "NetworkSiSPMPowerPort": "SiSPMPowerDriver",
    "NetworkYKUSHPowerPort": "YKUSHPowerDriver",
}


class LabgridPower(DriverPower):
    """on/off/cycle of an acquired place, by labgrid's power driver for its power resource: a
    perfgate.board.power.PowerDriver, which the board strategy takes in place of the lab's `power`."""

    name = "labgrid"

    def __init__(self, place: Place, delay: float = 2.0) -> None:
        self.place = place
        found = next(((cls, place.resources[cls]) for cls in DRIVERS if cls in place.resources), None)
        if found is None:
            raise PowerError(
                f"place {place.name} has no power resource labgrid can switch "
                f"({', '.join(DRIVERS)}); its resources: {', '.join(place.resources) or 'none'}"
            )
        cls, entry = found
        self.resource_class = cls
        self.target = Target(place.name)
        resource = target_factory.make_resource(self.target, cls, entry["name"], dict(entry["params"]))
        resource.extra = entry.get("extra") or {}
        driver_cls = target_factory.class_from_string(DRIVERS[cls])
        kwargs = {"delay": float(delay)} if "delay" in {a.name for a in driver_cls.__attrs_attrs__} else {}
        self.driver = driver_cls(self.target, name=None, **kwargs)
        self.target.activate(self.driver)

    def where(self) -> str:
        return f"place {self.place.name} ({self.resource_class}, labgrid {type(self.driver).__name__})"

    def get(self) -> bool:
        try:
            return bool(self.driver.get())
        except Exception as e:
            raise PowerError(f"power state of place {self.place.name}: {type(e).__name__}: {e}") from None

    def close(self) -> None:
        self.target.deactivate_all_drivers()
