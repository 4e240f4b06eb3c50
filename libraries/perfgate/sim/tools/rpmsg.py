"""What `rpmsg_char_benchmark` prints on the simulated board: the renderer for perfgate.tools.rpmsg's parser.

The lines and their order are the tool's format strings (../shared/reference/tool-outputs.md). When the command
prints histogram.txt after the run (`cat histogram.txt`), its `<us> , <count>` lines follow, consistent with the
printed average (integer division of the histogram sum by n) and worst case."""

from __future__ import annotations

import random
import re

from perfgate.tools.rpmsg import KEY_AVG, KEY_MAX


def _option(command: str, flag: str, default: int) -> int:
    m = re.search(rf"(?:^|\s){flag}\s*(\d+)", command)
    return int(m.group(1)) if m else default


def render(command: str, values: dict[str, float], rng: random.Random) -> str:
    rproc = _option(command, "-r", 0)
    n = _option(command, "-n", 100)
    avg = max(1, round(values.get(KEY_AVG, 40.0)))
    worst = max(avg, round(values.get(KEY_MAX, avg * 4.0)))
    pid = rng.randint(300, 4000)
    dev = f"rpmsg-char-{rproc}-{pid}"
    # n - 1 round trips at the average and one at the worst case: the printed average is the histogram's
    hist = {avg: n - 1, worst: 1} if n > 1 and worst != avg else {avg: n}
    total = sum(us * c for us, c in hist.items())
    secs = max(1, round(total / 1e6 + 0.5))
    out = [
        f"Created endpt device {dev}, fd = 3 port = 1025",
        f"Exchanging {n} messages with rpmsg device {dev} on rproc id {rproc} ...",
        "",
        "",
        f"Communicated {n} messages successfully on {dev}",
        "",
        f"Total execution time for the test: {secs} seconds",
        f"Average round-trip latency: {total // n}",
        f"Worst-case round-trip latency: {worst}",
        "Histogram data at histogram.txt",
        "TEST STATUS: PASSED",
    ]
    if re.search(r"\bcat\s+histogram\.txt", command):
        out += [f"{us} , {count}" for us, count in sorted(hist.items())]
    return "\n".join(out) + "\n"
