"""The labgrid coordinator through labgrid's own Python client (`labgrid.remote.client.ClientSession`, gRPC).

A gate takes a place the way `labgrid-client reserve --wait` and `labgrid-client -p +<token> acquire` do: it creates a
reservation with tag filters (a place's name is the tag `name`), waits (bounded) until the coordinator allocates a
place to it, acquires that place, and reads the place's resources (the NetworkSerialPort's host and port, the power
resource, a NetworkService for SSH). It gives the place back by releasing it and cancelling the reservation.

labgrid places have no lease: a place stays acquired until someone releases it. So that no board stays locked by a
dead gate, each gate's client names itself `<host>/<user>.perfgate-<pid>`: a guard process beside the gate releases
the place when the gate dies (perfgate.farm.guard), and every later gate on the same host first releases what a
gate that is no longer running left acquired (`sweep`).
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import os
import re
import socket
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import grpc
from labgrid.remote.client import ClientSession, ensure_event_loop
from labgrid.remote.common import Reservation, ReservationState
from labgrid.remote.generated import labgrid_coordinator_pb2 as pb
from labgrid.remote.generated import labgrid_coordinator_pb2_grpc

from perfgate.procs import alive

DEFAULT_ADDRESS = "127.0.0.1:20408"
CHANNEL_OPTIONS = [  # labgrid's client keepalive settings (labgrid.remote.client.ClientSession)
    ("grpc.keepalive_time_ms", 7500),
    ("grpc.keepalive_timeout_ms", 10000),
    ("grpc.http2.ping_timeout_ms", 10000),
    ("grpc.http2.max_pings_without_data", 0),
]
OWNER = re.compile(r"^(?P<host>[^/]+)/(?P<user>.*)\.perfgate-(?P<pid>\d+)$")


class FarmError(AssertionError):
    """The coordinator refused, did not answer in time, or has no place for us."""


def coordinator_address(address: str | None) -> str:
    """The lab's address, else LG_COORDINATOR, else labgrid's default (127.0.0.1:20408)."""
    return (address or "").strip() or os.environ.get("LG_COORDINATOR", "").strip() or DEFAULT_ADDRESS


def owner_name(pid: int | None = None) -> str:
    """`<host>/<user>.perfgate-<pid>`: who acquired a place, and whether that gate still runs (same host)."""
    return f"{socket.gethostname()}/{getpass.getuser()}.perfgate-{pid or os.getpid()}"


class _Session(ClientSession):
    """labgrid's client session under the name the gate gives it (`owner`, set before `start`)."""

    owner = "localhost/perfgate"

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        # gRPC shares one TCP connection between channels to the same target in a process, and the coordinator
        # tells clients apart by their connection: a second session in this process needs its own.
        options = [*CHANNEL_OPTIONS, ("grpc.use_local_subchannel_pool", 1)]
        self.channel = grpc.aio.insecure_channel(target=self.address, options=options)
        self.stub = labgrid_coordinator_pb2_grpc.CoordinatorStub(self.channel)

    def gethostname(self) -> str:
        return self.owner.split("/", 1)[0]

    def getuser(self) -> str:
        return self.owner.split("/", 1)[1]


@dataclass
class Place:
    """An acquired place: its name, the reservation that got it, and its resources by class."""

    name: str
    token: str
    coordinator: str
    owner: str
    tags: dict[str, str] = field(default_factory=dict)
    resources: dict[str, dict[str, Any]] = field(default_factory=dict)  # cls -> {name, params, exporter, group}
    waited: float = 0.0

    def resource(self, *classes: str) -> dict[str, Any] | None:
        for cls in classes:
            if cls in self.resources:
                return self.resources[cls]
        return None

    def console_address(self) -> tuple[str, int, bool]:
        """The NetworkSerialPort: (host, TCP port, RFC 2217?) - ser2net's telnet accepter, labgrid's default, speaks
        RFC 2217; `protocol: raw` is plain TCP."""
        r = self.resource("NetworkSerialPort")
        if r is None:
            raise FarmError(f"place {self.name} has no NetworkSerialPort (its resources: {', '.join(self.resources)})")
        p = r["params"]
        if not p.get("port"):
            raise FarmError(f"place {self.name}: the exporter has not started the console's ser2net (no port)")
        if (r.get("extra") or {}).get("proxy_required"):
            raise FarmError(f"place {self.name}: its console needs labgrid's SSH proxy (an isolated exporter), "
                            "which the gate does not set up: run the exporter without --isolated")  # fmt: skip
        return str(p["host"]), int(p["port"]), p.get("protocol", "rfc2217") != "raw"

    def serial_url(self) -> str:
        """The console as a pyserial URL: rfc2217://host:port?ign_set_control or socket://host:port."""
        host, port, rfc2217 = self.console_address()
        return f"rfc2217://{host}:{port}?ign_set_control" if rfc2217 else f"socket://{host}:{port}"

    def baud(self) -> int:
        r = self.resource("NetworkSerialPort")
        return int((r or {}).get("params", {}).get("speed") or 115200)

    def ssh(self) -> dict[str, Any] | None:
        r = self.resource("NetworkService")
        if r is None:
            return None
        p = r["params"]
        return {"address": p["address"], "port": int(p.get("port") or 22), "user": p.get("username")}

    def describe(self) -> str:
        tags = " ".join(f"{k}={v}" for k, v in sorted(self.tags.items()))
        return f"{self.name} on {self.coordinator} ({tags or 'no tags'}; reservation {self.token})"


def filters_text(filters: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(filters.items()))


class Farm:
    """One client session on a coordinator. Every call is bounded (`timeout` seconds)."""

    def __init__(self, address: str | None = None, *, timeout: float = 15.0, owner: str | None = None,
                 say: Callable[[str], None] = print) -> None:  # fmt: skip
        self.address = coordinator_address(address)
        self.timeout = timeout
        self.say = say
        self.loop = ensure_event_loop()  # labgrid's loop for this thread: gRPC's aio channel binds to it
        # labgrid stashes its loop once per thread; anything since (asyncio.run, another library) may
        # have unset the thread's current loop, and gRPC's channel asks asyncio for it, not labgrid.
        asyncio.set_event_loop(self.loop)
        self.owner = owner or owner_name()
        host, _, port = self.address.rpartition(":")
        target = self.address if port.isdigit() and host else f"{self.address}:20408"
        self.session = _Session(target, self.loop)
        self.session.owner = self.owner
        self._run(self.session.start(), "connect")

    # -- plumbing ----------------------------------------------------------------------------------
    def _run(self, coro: Coroutine, what: str, timeout: float | None = None) -> Any:
        try:
            return self.loop.run_until_complete(asyncio.wait_for(coro, timeout or self.timeout))
        except TimeoutError:
            raise FarmError(f"labgrid coordinator {self.address}: {what}: no answer within "
                            f"{timeout or self.timeout:g} s") from None  # fmt: skip
        except grpc.aio.AioRpcError as e:
            raise FarmError(f"labgrid coordinator {self.address}: {what}: {e.details()}") from None
        except Exception as e:  # labgrid's own errors (ServerError: could not connect...)
            if isinstance(e, FarmError) or type(e).__module__.startswith("robot."):
                raise  # robot's "Execution terminated by signal" (Ctrl-C) stays what it is
            raise FarmError(f"labgrid coordinator {self.address}: {what}: {e}") from None

    def sync(self) -> None:
        self._run(self.session.sync_with_coordinator(), "sync")
        if self.session.stopping.is_set():
            raise FarmError(f"labgrid coordinator {self.address}: the connection was lost")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(asyncio.wait_for(self.session.stop(), 5))
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(asyncio.wait_for(self.session.close(), 5))

    def __enter__(self) -> Farm:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the coordinator knows ----------------------------------------------------------------
    def places(self) -> dict[str, Any]:
        self.sync()
        return dict(self.session.places)

    def matching(self, filters: dict[str, str]) -> list[str]:
        """Places whose tags (and name, as the tag `name`) satisfy every filter, as the coordinator matches them."""
        out = []
        for name, place in self.places().items():
            tags = {**place.tags, "name": name}
            if all(tags.get(k) == v for k, v in filters.items()):
                out.append(name)
        return sorted(out)

    def reservations(self) -> list[Reservation]:
        r = self._run(self.session.stub.GetReservations(pb.GetReservationsRequest()), "list reservations")
        return [Reservation.from_pb2(x) for x in r.reservations]

    def resources_of(self, name: str) -> dict[str, dict[str, Any]]:
        """The acquired place's resources by class (the NetworkSerialPort, the power port, a NetworkService...)."""
        place = self.session.places.get(name)
        if place is None:
            raise FarmError(f"labgrid coordinator {self.address}: no place {name!r}")
        out: dict[str, dict[str, Any]] = {}
        for path in place.acquired_resources:
            exporter, group, _, rname = path
            try:
                entry = self.session.resources[exporter][group][rname]
            except KeyError:
                raise FarmError(f"place {name}: resource {'/'.join(path)} is gone (exporter {exporter} "
                                "disconnected?)") from None  # fmt: skip
            match = place.getmatch(path)
            out.setdefault(entry.cls, {
                "name": (match.rename if match and match.rename else rname), "exporter": exporter, "group": group,
                "params": dict(entry.args), "extra": dict(entry.extra or {}), "avail": entry.avail,
            })  # fmt: skip
        return out

    # -- taking a place ----------------------------------------------------------------------------
    def reserve(self, filters: dict[str, str], wait: float, progress_every: float = 10.0) -> tuple[str, str, float]:
        """Reserve a place matching `filters` and wait (at most `wait` s) until one is allocated to us; returns
        (token, place name, seconds waited). The reservation is cancelled when no place comes in time."""
        candidates = self.matching(filters)
        if not candidates:
            known = ", ".join(f"{n} ({filters_text(p.tags) or 'no tags'})" for n, p in sorted(self.places().items()))
            raise FarmError(f"labgrid coordinator {self.address}: no place matches {filters_text(filters)} "
                            f"(places: {known or 'none'})")  # fmt: skip
        request = pb.CreateReservationRequest(filters={"main": pb.Reservation.Filter(filter=filters)}, prio=0.0)
        response = self._run(self.session.stub.CreateReservation(request), "reserve")
        token = response.reservation.token
        try:
            return self._wait_allocated(token, filters, candidates, wait, progress_every)
        except BaseException:  # Ctrl-C (robot's second), our own timeout, a lost coordinator: leave no reservation
            with contextlib.suppress(Exception):
                self.cancel(token)
            raise

    def _wait_allocated(self, token: str, filters: dict[str, str], candidates: list[str], wait: float,
                        progress_every: float) -> tuple[str, str, float]:  # fmt: skip
        started = time.monotonic()
        next_note = started
        while True:
            r = self._run(self.session.stub.PollReservation(pb.PollReservationRequest(token=token)), "poll")
            res = Reservation.from_pb2(r.reservation)
            if res.state in (ReservationState.allocated, ReservationState.acquired):
                return token, res.allocations["main"][0], time.monotonic() - started
            if res.state is not ReservationState.waiting:
                raise FarmError(f"labgrid reservation {token} ({filters_text(filters)}) is {res.state.name}")
            waited = time.monotonic() - started
            if waited >= wait:
                busy = self._who(candidates)
                raise FarmError(f"no place matching {filters_text(filters)} became free within {wait:g} s on "
                                f"{self.address} ({busy}); reservation {token} cancelled")  # fmt: skip
            if time.monotonic() >= next_note:
                self.say(f"waiting for a place matching {filters_text(filters)} on {self.address}: "
                         f"{waited:.0f} s of at most {wait:g} s ({self._who(candidates)})")  # fmt: skip
                next_note += progress_every
            time.sleep(min(1.0, max(0.1, wait - waited)))

    def _who(self, names: list[str]) -> str:
        places = self.places()
        return "; ".join(f"{n} acquired by {places[n].acquired}" if places[n].acquired else f"{n} reserved"
                         for n in names if n in places) or "no place"  # fmt: skip

    def acquire(self, name: str, token: str, ready: float = 10.0, retry_for: float = 60.0) -> Place:
        """Acquire the place allocated to `token` and read its resources (waiting, bounded, for the exporter to
        start the console's ser2net).

        The coordinator refuses the acquire ("Failed to acquire resources") while a resource is not free on its
        exporter: just after the place's previous holder released it (the exporter's release update has not come
        in yet), or when a busy exporter host missed the coordinator's 10 s to hand a resource over (the
        coordinator frees that half-acquired resource in its next resource sync, every 15 s). The place stays
        allocated to our reservation, so the acquire is retried for `retry_for` s."""
        deadline = time.monotonic() + retry_for
        while True:
            try:
                self._run(self.session.stub.AcquirePlace(pb.AcquirePlaceRequest(placename=name)), f"acquire {name}")
                break
            except FarmError as e:
                if "Failed to acquire resources" not in str(e) or time.monotonic() > deadline:
                    raise
                self.say(f"{e}: the exporter has not handed them over yet; retrying (for at most {retry_for:g} s)")
                time.sleep(2)
                self._run(self.session.stub.PollReservation(pb.PollReservationRequest(token=token)), "poll")
        deadline = time.monotonic() + ready
        while True:
            self.sync()
            resources = self.resources_of(name)
            serial = resources.get("NetworkSerialPort")
            if serial is None or serial["params"].get("port") or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        tags = dict(self.session.places[name].tags)
        return Place(name, token, self.address, self.owner, tags, resources)

    def take(self, filters: dict[str, str], wait: float) -> Place:
        """Sweep what dead gates left, reserve (bounded wait), acquire."""
        self.sweep()
        token, name, waited = self.reserve(filters, wait)
        try:
            place = self.acquire(name, token)
        except BaseException:  # an error, robot's Ctrl-C: give back what the acquire may already have taken
            with contextlib.suppress(Exception):
                self.release(name)
            with contextlib.suppress(Exception):
                self.cancel(token)
            raise
        place.waited = waited
        return place

    # -- giving it back ----------------------------------------------------------------------------
    def release(self, name: str, owner: str | None = None) -> bool:
        """Release `name` if `owner` (default: us) still holds it; True when it was released."""
        owner = owner or self.owner
        place = self.places().get(name)
        if place is None or place.acquired != owner:
            return False
        request = pb.ReleasePlaceRequest(placename=name, fromuser=owner)
        self._run(self.session.stub.ReleasePlace(request), f"release {name}")
        return True

    def cancel(self, token: str) -> bool:
        try:
            self._run(self.session.stub.CancelReservation(pb.CancelReservationRequest(token=token)), "cancel")
        except FarmError as e:
            if "does not exist" in str(e):
                return False
            raise
        return True

    def give_back(self, place: Place) -> list[str]:
        done = []
        if self.release(place.name, place.owner):
            done.append(f"released {place.name}")
        if self.cancel(place.token):
            done.append(f"cancelled reservation {place.token}")
        return done

    def sweep(self) -> list[str]:
        """Release the places, and cancel the reservations, of perfgate gates on this host that no longer run
        (killed before their guard could act, or whose guard was killed too)."""
        here = socket.gethostname()
        done: list[str] = []
        held = {name: place.acquired for name, place in self.places().items()}  # the session updates its places
        for name, holder in sorted(held.items()):
            m = OWNER.match(holder or "")
            if m and m["host"] == here and not alive(int(m["pid"])) and self.release(name, holder):
                done.append(f"released {name} (left acquired by {holder}, which no longer runs)")
        for res in self.reservations():
            m = OWNER.match(res.owner)
            if m and m["host"] == here and not alive(int(m["pid"])) and self.cancel(res.token):
                done.append(f"cancelled reservation {res.token} of {res.owner}, which no longer runs")
        for line in done:
            self.say(line)
        return done
