"""`kind: labgrid`: a place on a labgrid coordinator (perfgate.farm). The lab's `labgrid:` mapping is checked by
perfgate.board.lab_labgrid; `start` reserves a matching place (bounded wait, progress on the console), acquires it,
and takes the console (its NetworkSerialPort), the power (labgrid's driver) and, unless the lab names one, the SSH
address from its resources. Closing gives the place back (its guard, or the next gate's sweep, does when this
process dies)."""

from __future__ import annotations

from collections.abc import Callable

from perfgate.board import lab_labgrid
from perfgate.errors import PerfgateError
from perfgate.labkinds.base import LabFile, Opening, register
from perfgate.labkinds.console import ConsoleKind, Reach


@register
class Labgrid(ConsoleKind):
    name = "labgrid"
    keys = ("labgrid",)
    takes = "takes its board from a labgrid coordinator"
    hardware = True
    exclusive = False  # the coordinator hands the place to one gate
    own_console = False
    order = 3

    def validate(self, lab: LabFile) -> None:
        lab_labgrid.validate(lab)

    def check(self, lab: LabFile, command_problem: Callable[[object], str | None],
              resolves: Callable[[str, tuple[str, ...]], None]) -> list[PerfgateError]:  # fmt: skip
        coordinator = (lab.data.get("labgrid") or {}).get("coordinator")
        if isinstance(coordinator, str):  # HOST:PORT ([v6]:PORT)
            host = coordinator.rsplit(":", 1)[0].strip("[]") if ":" in coordinator else coordinator
            resolves(host, ("labgrid", "coordinator"))
        return []

    def reach(self, opening: Opening) -> Reach:
        from robot.api import logger
        from robot.libraries.BuiltIn import BuiltIn

        from perfgate.board.console import Console
        from perfgate.farm.lease import take

        lab = opening.lab
        lg = lab_labgrid.settings(lab)
        try:
            lease = take(lg.get("coordinator"), lab_labgrid.filters(lab, opening.board), lg["wait"],
                         power_delay=lg["power_delay"], say=opening.say, log_dir=opening.out_dir)  # fmt: skip
        except AssertionError as e:
            raise AssertionError(f"LAB={lab.name}: {e}") from None

        def give_back() -> None:
            try:
                for line in lease.give_back():
                    opening.say(line)
            except AssertionError as e:
                logger.error(f"could not give the labgrid place back: {e} (its guard, or the next gate, will)")

        place = lease.place
        ssh = place.ssh()
        if ssh and ("ssh",) not in lab.lines:
            lab.data["ssh"] = {**lab.data.get("ssh", {}), "address": ssh["address"], "port": ssh["port"]}
        bi = BuiltIn()
        bi.set_suite_metadata("Labgrid Place", place.describe(), top=True)
        bi.set_global_variable("${LABGRID_PLACE}", place.name)
        logger.info(f"labgrid place {place.describe()}: resources {place.resources}")

        def console(serial: dict) -> Console:  # the place's NetworkSerialPort, where its exporter's ser2net listens
            host, port, rfc2217 = place.console_address()
            return Console.from_host_port(host, port, place.baud(), opening.transcript, rfc2217)

        return Reach(console=console, power=lease.power if lease.has_power else None, closers=[give_back])
