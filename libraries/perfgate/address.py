"""Network addresses that go into commands (the board's, the tester's): an IP address or a host name, nothing else,
so that no lab value or console output can smuggle shell syntax into a command line."""

from __future__ import annotations

import ipaddress
import re

from perfgate.errors import DataError

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME = re.compile(rf"(?=.{{1,253}}$){_LABEL}(?:\.{_LABEL})*\.?")


def valid(value: object) -> bool:
    text = str(value).strip()
    if not text:
        return False
    try:
        ipaddress.ip_address(text)
        return True
    except ValueError:
        return bool(HOSTNAME.fullmatch(text))


def checked(value: object, what: str) -> str:
    """`value` when it is an IP address or a host name; a DataError naming `what` (where it came from) otherwise."""
    text = str(value).strip()
    if not valid(text):
        raise DataError(f"{what}: {text!r} is not an IP address or a host name")
    return text
