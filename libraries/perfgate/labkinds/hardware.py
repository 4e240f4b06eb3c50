"""`kind: hardware`: a lab of one's own. The lab file names the serial port (a device or a pyserial URL), the power
commands (or none: a soft reboot; manual: the operator) and SSH; everything is the console kind's default."""

from __future__ import annotations

from perfgate.labkinds.base import register
from perfgate.labkinds.console import ConsoleKind


@register
class Hardware(ConsoleKind):
    name = "hardware"
    hardware = True
    order = 2
