"""ALSA (suite alsa): capture and playback throughput (bits/s) and CPU load, one run per sampling rate and direction,
with the guides' settings (RW_INTERLEAVED, 2 channels, S16_LE, period size 64). The method (ltp-ddt's
alsa_perf_tests or timed arecord/aplay) and its commands are data: variables/workloads/audio.yaml."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.peripherals import RowWorkload, clean, fill, number


def metric_key(c: Criterion) -> str:
    text = clean(f"{c.metric} {c.unit}")
    return "cpu load (%)" if "cpu" in text or c.unit.strip() == "%" else "throughput (bits/sec)"


def direction(c: Criterion, s: dict) -> str | None:
    for name, pattern in (s.get("tables") or {}).items():
        if re.search(pattern, c.table or "") or re.search(pattern, c.name or ""):
            return name
    return None


def rate(c: Criterion) -> str:
    m = re.search(r"\d+", c.row)
    return number(m.group(0)) if m else c.row


class Alsa(RowWorkload):
    suite = "alsa"
    tool = "alsa"

    def params(self, c: Criterion, s: dict) -> dict[str, str] | None:
        d = direction(c, s)
        if d is None or d not in _templates(s):
            return None
        return {"direction": d, "rate": rate(c)}

    def command(self, s: dict, p: dict[str, str]) -> str:
        seconds = _seconds(s)
        frames = int(p["rate"]) * seconds if p["rate"].isdigit() else 0
        return fill(_templates(s)[p["direction"]], {**s, "rate": p["rate"], "seconds": seconds, "frames": frames})

    def run_timeout(self, s: dict, p: dict[str, str]) -> float:
        return _seconds(s) * 3 + 60

    def unmapped(self, c: Criterion, s: dict) -> str:
        return f"table {c.table!r} is neither capture nor playback (variables/workloads/audio.yaml: alsa.tables)"

    def key(self, c: Criterion) -> str:
        return metric_key(c)

    def label(self, c: Criterion, p: dict[str, str]) -> str:
        return f"alsa-{p['direction']}-{p['rate']}"

    def note_for(self, s: dict) -> str:
        return f"ALSA throughput and CPU load by {s.get('method', 'ltp-ddt')} ({s.get('seconds')} s per rate)"


def _templates(s: dict) -> dict:
    return s.get(s.get("method", "ltp-ddt")) or {}


def _seconds(s: dict) -> int:
    return int(s.get("seconds", 10))


WORKLOAD = Alsa()
