"""Every parser against the capture corpus of issue 31: tests/fixtures/<tool>/corpus/<name>.txt (or .json), labelled
as tests/captures.py says (`# real: made here with <command>`: the real tool run on this machine, on 127.0.0.1; or
`# constructed: reproduces <trait> described in <source>`: written here to reproduce a trait a public output showed,
citing where, not copying it), beside <name>.yaml: the `tool`, the `command` when it matters, and what a careful
reader finds in the output (`expected`, every metric, written from the text, not from the parser) or the reason a
reader finds no single measurement in it (`refused`: part of the parser's message). Each capture is read right
(exactly the expected metrics) or refused with that reason. tests/fixtures/PUBLIC-OUTPUTS.md lists the public outputs
these traits were seen in and the corpus's counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from captures import capture
from perfgate import tools
from perfgate.errors import ParseError
from testpaths import FIXTURES

FIX = FIXTURES
RECORDS = sorted(FIX.glob("*/corpus/*.yaml"))
KEYS = {"tool", "command", "expected", "refused", "warns"}


def load(record: Path) -> dict[str, Any]:
    data = yaml.safe_load(record.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and set(data) <= KEYS, f"{record}: keys {sorted(set(data) - KEYS)} unknown"
    assert data["tool"] == record.parent.parent.name, f"{record}: tool is not the directory's"
    assert ("expected" in data) != ("refused" in data), f"{record}: give exactly one of expected/refused"
    return data


def output(record: Path) -> str:
    [path] = [p for p in record.parent.glob(record.stem + ".*") if p.suffix in (".txt", ".json")]
    return capture(path)  # checks the `# real: made here with` / `# constructed: reproduces` label


def test_the_corpus_is_there() -> None:
    """Every capture has its record and every record its capture; the real and the constructed are both there."""
    captures = {p.with_suffix("") for p in FIX.glob("*/corpus/*") if p.suffix != ".yaml"}
    assert captures == {p.with_suffix("") for p in RECORDS}, "a capture without its record, or a record without it"
    firsts = [next(FIX.glob(f"*/corpus/{p.stem}.[tj]*")).read_text(encoding="utf-8").split("\n", 1)[0] for p in RECORDS]
    assert sum(f.startswith("# real: made here with ") for f in firsts) >= 15
    assert sum(f.startswith("# constructed: reproduces ") for f in firsts) >= 7


@pytest.mark.parametrize("record", RECORDS, ids=[f"{p.parent.parent.name}/{p.stem}" for p in RECORDS])
def test_read_right_or_refused_with_the_reason(record: Path) -> None:
    data = load(record)
    text = output(record)
    tool, command = data["tool"], data.get("command")
    if "refused" in data:
        with pytest.raises(ParseError) as e:
            tools.parse(tool, text, command)
        assert data["refused"].lower() in str(e.value).lower(), f"{record}: refused for another reason: {e.value}"
        return
    got = tools.parse(tool, text, command)
    expected = {k: float(v) for k, v in data["expected"].items()}
    assert sorted(got) == sorted(expected), f"{record}: metrics differ"
    for k, v in expected.items():
        assert got[k] == pytest.approx(v, rel=1e-9, abs=1e-9), f"{record}: {k}"
    said = " ".join(tools.warnings(tool, text, command))
    if "warns" in data:
        assert data["warns"] in said, f"{record}: no warning about {data['warns']!r}: {said!r}"
    else:
        assert not said, f"{record}: unexpected warning {said!r}"
