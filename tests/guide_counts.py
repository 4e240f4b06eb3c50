"""A second, deliberately dumb count of the numbers each guide publishes per board.

It shares no code with perfgate.guides: csv-tables are counted with regular expressions over the raw lines
(every quoted cell under a board's column that starts with a digit, except the columns that are settings),
and the AM57x guide's flat lists and grid tables are counted from explicit expectations written down from
reading the guide (line ranges / rows x columns). The test compares these counts with
`python -m perfgate boards --json`.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

# csv-table columns that hold settings, by their header text (the guides print them next to the results)
SETTING_COLUMNS = ("UDP Datagram Size", "Rail voltage")
# columns of tables without a board prefix that are row keys, not results (besides the first column)
KEY_COLUMNS = ("Size (bytes)", "Message Size", "Rail voltage")

# Written down from reading each guide: its release (title or file name; RT-Linux guides are their own SDK).
RELEASES = {
    "linux-09.01.00-j7.rst": "09.01.00",
    "linux-10.00-am62x.rst": "10.00",
    "linux-11.02-am437x.rst": "11.02",
    "rt-linux-2017.05-am57x.rst": "2017.05-RT",
    "rt-linux-am64x.rst": "unstated-RT",
    "linux-11.01-am57x.rst": "11.01",
    "linux-11.01-am62ax.rst": "11.01",
    "linux-11.02-am335x.rst": "11.02",
    "linux-11.02-j7.rst": "11.02",
    "linux-12.00.00-am62x.rst": "12.00.00",
    "linux-12.00.00-am64x.rst": "12.00.00",
    "rt-linux-11.01-am62ax.rst": "11.01-RT",
    "rt-linux-11.02-am65x.rst": "11.02-RT",
    "rt-linux-12.00.00-am62x.rst": "12.00.00-RT",
    "rt-linux-12.00.00-am64x.rst": "12.00.00-RT",
}

# Tables whose columns name no board: whose numbers they are, from reading the guide (its Evaluation Modules
# table for the single-board guides; for the AM62x guide the note under the power tables, SK-AM62B-P1).
UNPREFIXED = {
    "linux-11.01-am62ax.rst": "am62axx_sk",
    "linux-12.00.00-am62x.rst": "am62xx_sk",
    "linux-12.00.00-am64x.rst": "am64xx_evm",
    "rt-linux-11.01-am62ax.rst": "am62axx_sk",
    "rt-linux-12.00.00-am64x.rst": "am64xx_evm",
}
# one EVM, two names (the AM64x RT 12.00.00 guide says am64xx-hsevm)
SAME_BOARD = {"am64xx_hsevm": "am64xx_evm"}

# rt-linux-2017.05-am57x.rst, counted by hand: (what, lines or rows x columns) -> numbers
AM57X_EXPECTED = {
    "lmbench": (277 - 54 + 1) // 2,  # name/value pairs, lines 54-277
    "dhrystone": 3,  # lines 285-290
    "whetstone": 1,
    "linpack": 1,
    "nbench": 9,  # lines 316-333
    "stream": 4,  # lines 341-348
    "rt_latency": 11 + 4,  # shielded use cases (lines 380-401) + OSADL Min/Avg/Max Latencies, Histogram Overflows
    "display": 1 + (573 - 504 + 1) // 2,  # LCD: one mode; HDMI: lines 504-573
    "glbenchmark": 6 * 1 + 3 * 1 + 1 * 2,  # Fps; triangles/sec; texel/sec + Fps (Test Number is a setting)
    "decode": 4 + 5 + 2 + 2 + 3 + 1,  # one Fps per resolution in each of the six decode lists
    "ethernet": 10 * 2,  # ten UDP lists: kpps and Mbits/s (packet_size is a setting); TCP table skipped
    "usb_msc": (3 + 3 + 2 + 2) * 2 + 2 * 1,  # XHCI host grid tables: rate + CPU load; slave read/write: rate
    "usb_eth": 2 * 4,  # CDC and RNDIS: four window sizes (Interval is a setting)
    "openssl": (1230 - 1119 + 1) // 2,  # name/value pairs, lines 1119-1230
    "ipsec": 3,
    "ospi": 4 * 4,  # QSPI UBIFS: 4 buffer sizes x 4 columns
    "emmc": 3 * 5 * 4,  # EXT4, EXT2, VFAT: 5 buffer sizes x 4 columns
    "mmcsd": 3 * 5 * 4,
}


def _board(header: str) -> str | None:
    m = re.match(r"^([A-Za-z0-9_-]+):\s", header)
    name = m.group(1) if m else (header if re.fullmatch(r"[a-z0-9_]+-fs", header) else None)
    if name is None:
        return None
    board = re.sub(r"[-_]fs$", "", name.lower()).replace("-", "_")
    return SAME_BOARD.get(board, board)


def count_csv_tables(text: str, unprefixed: str = "UNASSIGNED") -> Counter[str]:
    """Numbers per board in the guide's csv-tables, by regular expressions over the raw lines."""
    counts: Counter[str] = Counter()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(".. csv-table::"):
            i += 1
            continue
        i += 1
        while i < len(lines) and ":header:" not in lines[i]:
            i += 1
        header = re.findall(r'"([^"]*)"', lines[i])
        columns = {k: _board(h) for k, h in enumerate(header) if _board(h) and not any(s in h for s in SETTING_COLUMNS)}
        if not any(_board(h) for h in header):  # no board in any column: the guide's board, past the key columns
            columns = {k: unprefixed for k, h in enumerate(header) if k and not any(s in h for s in KEY_COLUMNS)}
        i += 1
        while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
            cells = re.findall(r'"([^"]*)"', lines[i])
            for k, cell in enumerate(cells):
                if k in columns and re.match(r"^\s*\d", cell):
                    counts[columns[k]] += 1
            i += 1
    return counts


def count_guide(path: Path) -> Counter[str]:
    if path.name == "rt-linux-2017.05-am57x.rst":
        return Counter({"am574x_idk": sum(AM57X_EXPECTED.values())})
    return count_csv_tables(path.read_text(encoding="utf-8"), UNPREFIXED.get(path.name, "UNASSIGNED"))
