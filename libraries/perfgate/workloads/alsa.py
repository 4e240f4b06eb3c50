"""ALSA (suite alsa): capture and playback throughput (bits/s) and CPU load, one run per sampling rate and direction,
with the guides' settings (RW_INTERLEAVED, 2 channels, S16_LE, period size 64). The method (ltp-ddt's
alsa_perf_tests or timed arecord/aplay) and its commands are data: variables/workloads/audio.yaml."""

from __future__ import annotations

import re

from perfgate.model import Criterion
from perfgate.workloads.base import Context, Measurements, Run, Workload
from perfgate.workloads.peripherals import clean, fill, missing, number, settings

SUITE = "alsa"


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


class Alsa(Workload):
    suite = SUITE

    def applicable(self, criteria: list[Criterion], profile: dict, lab: dict) -> str | None:
        return missing(settings(SUITE, profile).get("requires"), profile, lab)

    def plan(self, criteria: list[Criterion], profile: dict, lab: dict) -> list[Run]:
        s = settings(SUITE, profile)
        method = s.get("method", "ltp-ddt")
        templates = s.get(method) or {}
        runs: dict[tuple[str, str], Run] = {}
        for c in criteria:
            d = direction(c, s)
            if d is None or d not in templates:
                continue
            r = rate(c)
            key = (d, r)
            if key not in runs:
                seconds = int(s.get("seconds", 10))
                values = {**s, "rate": r, "seconds": seconds, "frames": int(r) * seconds if r.isdigit() else 0}
                runs[key] = Run("alsa", fill(templates[d], values), timeout=seconds * 3 + 60, label=f"alsa-{d}-{r}")
            runs[key].keys.setdefault(metric_key(c), []).append(c.id)
        return list(runs.values())

    def measure(self, criteria: list[Criterion], ctx: Context) -> Measurements:
        s = settings(SUITE, ctx.profile)
        ctx.note(f"ALSA throughput and CPU load by {s.get('method', 'ltp-ddt')} ({s.get('seconds')} s per rate)")
        out = super().measure(criteria, ctx)
        planned = {cid for run in self.plan(criteria, ctx.profile, ctx.lab) for ids in run.keys.values() for cid in ids}
        for c in criteria:
            if c.id not in planned:
                out.missing[c.id] = (
                    f"table {c.table!r} is neither capture nor playback (variables/workloads/audio.yaml: alsa.tables)"
                )
        return out


WORKLOAD = Alsa()
