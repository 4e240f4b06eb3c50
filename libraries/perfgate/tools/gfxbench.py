"""GFXBench (Kishonti's command-line test framework, `testfw_app ... --test_id <id>`): the JSON result document it
prints at the end of a run, `{"results": [{"test_id": ..., "score": ..., "gfx_result": {"fps": ...}, ...}]}`.

Metrics: `score` and `fps` (the guides' Score and Fps columns) of the run's test, and `<test_id> score` /
`<test_id> fps` for every result in the document. The format is reconstructed (no GFXBench here): see
tests/fixtures/gfxbench/PROVENANCE.md.
"""

from __future__ import annotations

import json

from perfgate.errors import ParseError
from perfgate.tools.card import Card

DECODER = json.JSONDecoder()


def _documents(text: str) -> list[tuple[int, dict]]:
    docs = []
    i = text.find("{")
    while i >= 0:
        try:
            obj, end = DECODER.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            docs.append((text.count("\n", 0, i) + 1, obj))
        i = text.find("{", end)
    return docs


def parse(text: str, command: str | None = None) -> dict[str, float]:
    out: dict[str, float] = {}
    for line, doc in _documents(text):
        results = doc.get("results")
        if not isinstance(results, list):
            continue
        for r in results:
            if not isinstance(r, dict):
                continue
            tid = str(r.get("test_id", ""))
            if str(r.get("status", "OK")).upper() not in ("OK", "SUCCESS"):
                raise ParseError(f"gfxbench: test {tid} ended with status {r.get('status')!r}", line=line)
            if isinstance(r.get("score"), int | float):
                out[f"{tid} score"] = float(r["score"])
                out.setdefault("score", float(r["score"]))
            fps = (r.get("gfx_result") or {}).get("fps")
            if isinstance(fps, int | float):
                out[f"{tid} fps"] = float(fps)
                out.setdefault("fps", float(fps))
    if not out:
        raise ParseError("gfxbench: no JSON result document with results[].score / gfx_result.fps", line=1)
    return out


CARD = Card("gfxbench", parse)
