"""The farm library for Robot Framework: take a board (a labgrid place) from a labgrid coordinator, power it, find
its console and SSH, give it back. resources/farm.resource imports it; a user suite takes a board the way the gate
does (perfgate.farm.lease: a guard process beside the run, a bounded wait with progress on the console).

    Reserve Place    board=am62xx_sk    coordinator=lab-host:20408
    Power Cycle Place
    ${url}    Get Place Console          # rfc2217://<exporter host>:<ser2net port>?ign_set_control
    ${host}    ${port}    Get Place Console Address    # for Robot's Telnet library
    Release Place

Several places can be held at once: each keyword takes `place=` (default: the last one reserved). Every place still
held when the library goes out of scope (end of the run, also after robot's Ctrl-C) is released.
"""

from __future__ import annotations

from pathlib import Path

from robot.api import logger
from robot.api.deco import keyword, library
from robot.libraries.BuiltIn import BuiltIn

from perfgate import __version__
from perfgate.board.lab_labgrid import TAG_KEY, TAG_VALUE
from perfgate.farm.client import FarmError
from perfgate.farm.lease import Lease, take


def _say(message: str) -> None:
    logger.info(message)
    logger.console(f"perfgate: {message}")


def _output_dir() -> Path | None:
    try:
        return Path(BuiltIn().get_variable_value("${OUTPUT_DIR}"))
    except Exception:  # outside a Robot run
        return None


@library(scope="GLOBAL", version=__version__, auto_keywords=False)
class Farm:
    ROBOT_LISTENER_API_VERSION = 3

    def __init__(self, coordinator: str = "", wait: float = 600.0) -> None:
        """`coordinator`: HOST:PORT (empty: LG_COORDINATOR, else 127.0.0.1:20408); `wait`: the longest wait for a
        free place, in seconds."""
        self.coordinator = coordinator
        self.wait = wait
        self.leases: dict[str, Lease] = {}
        self.current = ""
        self.ROBOT_LIBRARY_LISTENER = self

    def _lease(self, place: str) -> Lease:
        name = place or self.current
        if name not in self.leases:
            held = ", ".join(self.leases) or "none"
            raise AssertionError(f"no labgrid place {name or '(none reserved)'} is held by this run (held: {held})")
        return self.leases[name]

    # -------------------------------------------------------------------------------------- take/give
    @keyword
    def reserve_place(self, *tags: str, place: str = "", coordinator: str = "", wait: float | None = None,
                      power_delay: float = 2.0) -> str:  # fmt: skip
        """Reserve a place whose tags match every `key=value` in `tags` (and named `place`, when given), wait for it
        at most `wait` seconds (progress on the console), acquire it and return its name. The place's name is also
        set as ${LABGRID_PLACE} (suite scope) and written to the suite's metadata."""
        filters: dict[str, str] = {}
        for tag in tags:
            key, sep, value = str(tag).partition("=")
            if not sep or not TAG_KEY.fullmatch(key) or not TAG_VALUE.fullmatch(value):
                raise AssertionError(f"Reserve Place: {tag!r} is not a labgrid tag filter key=value (key: lower-case "
                                     "letters, digits, _; value: no spaces or =)")  # fmt: skip
            filters[key] = value
        if place:
            if not TAG_VALUE.fullmatch(place):
                raise AssertionError(f"Reserve Place: {place!r} is not a place name")
            filters["name"] = place
        if not filters:
            raise AssertionError("Reserve Place: give tag filters (board=am62xx_sk) or place=<name>")
        limit = self.wait if wait is None else float(wait)
        if limit <= 0:
            raise AssertionError(f"Reserve Place: wait must be above 0 seconds, not {wait}")
        try:
            lease = take(coordinator or self.coordinator, filters, limit, power_delay=power_delay, say=_say,
                         log_dir=_output_dir())  # fmt: skip
        except FarmError as e:
            raise AssertionError(f"Reserve Place: {e}") from None
        name = lease.place.name
        self.leases[name] = lease
        self.current = name
        bi = BuiltIn()
        bi.set_suite_variable("${LABGRID_PLACE}", name)
        bi.set_suite_metadata("Labgrid Place", lease.place.describe(), append=True)
        return name

    @keyword
    def release_place(self, place: str = "") -> None:
        """Release the place (default: the last reserved) and cancel its reservation."""
        lease = self._lease(place)
        del self.leases[lease.place.name]
        if self.current == lease.place.name:
            self.current = next(reversed(self.leases), "")
        try:
            done = lease.give_back()
        except FarmError as e:
            raise AssertionError(f"Release Place {lease.place.name}: {e} (its guard gives it back when this run "
                                 "ends)") from None  # fmt: skip
        for line in done:
            _say(line)

    @keyword
    def release_all_places(self) -> None:
        """Release every place this run holds (a suite teardown's keyword)."""
        errors = []
        for name in list(self.leases):
            try:
                self.release_place(name)
            except AssertionError as e:
                errors.append(str(e))
        if errors:
            raise AssertionError("; ".join(errors))

    def _close(self) -> None:
        """The library goes out of scope (the run ends): give back what a suite forgot."""
        for name in list(self.leases):
            try:
                self.release_place(name)
            except AssertionError as e:
                logger.error(str(e))

    # -------------------------------------------------------------------------------------- power
    @keyword
    def power_on_place(self, place: str = "") -> None:
        """Switch the place's power on (labgrid's driver for its power resource)."""
        self._lease(place).power().on()

    @keyword
    def power_off_place(self, place: str = "") -> None:
        """Switch the place's power off (labgrid's driver for its power resource)."""
        self._lease(place).power().off()

    @keyword
    def power_cycle_place(self, place: str = "") -> None:
        """Off, the lab's `power_delay` (labgrid's default 2 s), on."""
        self._lease(place).power().cycle()

    @keyword
    def get_place_power(self, place: str = "") -> str:
        """`on` or `off`, as the power resource reports it."""
        return "on" if self._lease(place).power().get() else "off"

    # -------------------------------------------------------------------------------------- resources
    @keyword
    def get_place_console(self, place: str = "") -> str:
        """The console as a pyserial URL (rfc2217://host:port?ign_set_control; perfgate's console opens it)."""
        return self._lease(place).place.serial_url()

    @keyword
    def get_place_console_address(self, place: str = "") -> tuple[str, int]:
        """The console's host and TCP port (ser2net's telnet/RFC 2217 accepter): Robot's Telnet library opens it.
        (SerialLibrary cannot: it always sets a write timeout, which pyserial's rfc2217:// refuses.)"""
        lease = self._lease(place)
        lease.place.serial_url()  # fails with the reason when the place has no usable console
        params = lease.place.resource("NetworkSerialPort")["params"]
        return params["host"], int(params["port"])

    @keyword
    def get_place_baud(self, place: str = "") -> int:
        """The baud rate of the place's serial console (its NetworkSerialPort's `speed`, else 115200)."""
        return self._lease(place).place.baud()

    @keyword
    def get_place_ssh(self, place: str = "") -> dict:
        """The place's NetworkService: {address, port, user}; fails when the place has none."""
        lease = self._lease(place)
        ssh = lease.place.ssh()
        if ssh is None:
            raise AssertionError(f"place {lease.place.name} has no NetworkService (its resources: "
                                 f"{', '.join(lease.place.resources)})")  # fmt: skip
        return ssh

    @keyword
    def get_place_tags(self, place: str = "") -> dict:
        """The place's tags in the coordinator (e.g. {board: am62xx_sk}) as a dictionary."""
        return dict(self._lease(place).place.tags)
