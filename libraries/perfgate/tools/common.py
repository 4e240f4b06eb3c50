"""What several parsers share: the terminal escape sequences a serial console adds (busybox ash asks for the cursor
position at each prompt), and the metric names of the network tools (netperf, iperf, iperf3), which the network
workloads read whichever tool produced them."""

from __future__ import annotations

import re

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

THROUGHPUT = "throughput (Mbits/sec)"
CPU = "cpu load (%)"
LOSS = "packet loss (%)"
KPPS = "packets per second (kPPS)"
DGRAM = "datagram size (bytes)"
