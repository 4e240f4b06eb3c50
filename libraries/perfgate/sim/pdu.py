"""A simulated network PDU for simulated boards: an HTTP server on 127.0.0.1 speaking the protocol of labgrid's
`rest` power model (labgrid/driver/power/rest.py: `GET <url>` answers `1` or `0`, `PUT <url>` with the body `1` or
`0` switches the outlet), one outlet per simulated board, each switching its board through the board's power socket
(the same switch as `python -m perfgate sim-power`). A labgrid exporter exports an outlet as

    NetworkPowerPort: {model: rest, host: "http://127.0.0.1:<port>/outlet/{index}", index: <n>}

and labgrid's NetworkPowerDriver then powers the board like any PDU.
"""

from __future__ import annotations

import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from perfgate.commands.sim_power import switch
from perfgate.errors import PerfgateError

PATH = re.compile(r"^/outlet/(\d+)/?$")


class Pdu(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, outlets: dict[int, Path], port: int = 0) -> None:
        self.outlets = outlets
        super().__init__(("127.0.0.1", port), Handler)

    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/outlet/{{index}}"


class Handler(BaseHTTPRequestHandler):
    server: Pdu

    def _outlet(self) -> Path | None:
        m = PATH.match(self.path)
        state = self.server.outlets.get(int(m.group(1))) if m else None
        if state is None:
            self._answer(404, f"no such outlet {self.path} (outlets: {sorted(self.server.outlets)})\n")
        return state

    def _answer(self, code: int, text: str) -> None:
        body = text.encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        state = self._outlet()
        if state is None:
            return
        try:
            self._answer(200, "0" if switch(state, "status") == "off" else "1")
        except PerfgateError as e:
            self._answer(503, f"{e}\n")

    def do_PUT(self) -> None:
        state = self._outlet()
        if state is None:
            return
        value = self.rfile.read(int(self.headers.get("Content-Length") or 0)).strip()
        if value not in (b"0", b"1"):
            self._answer(400, f"the body must be 0 or 1, not {value[:20]!r}\n")
            return
        try:
            switch(state, "on" if value == b"1" else "off")
            self._answer(200, value.decode())
        except PerfgateError as e:
            self._answer(503, f"{e}\n")

    def log_message(self, format: str, *args: object) -> None:
        print(f"sim-pdu: {self.address_string()} {format % args}", file=sys.stderr, flush=True)
