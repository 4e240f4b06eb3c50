"""One card per tool (perfgate.tools.card): the lists that were kept by hand are read from the cards, and what the
cards do not hold (planned seconds, chapters) is checked against them."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import perfgate.tools as tools_pkg
from perfgate import paths, tools
from perfgate.datafile import load_mapping
from perfgate.decision import budget
from perfgate.errors import DataError
from perfgate.report import html
from perfgate.sim import answers
from perfgate.tools.card import Card


def test_every_tool_module_has_its_card_and_the_tool_list_is_the_cards():
    modules = [m.name for m in pkgutil.iter_modules(tools_pkg.__path__) if m.name not in tools.NOT_TOOLS]
    assert sorted(c.replace("-", "_") for c in tools.TOOLS) == sorted(modules)
    for name in modules:
        card = importlib.import_module(f"perfgate.tools.{name}").CARD
        assert isinstance(card, Card) and card.parse.__module__ == f"perfgate.tools.{name}"
    assert "stress-ng" in tools.TOOLS and tools.card("stress-ng").binaries == ("stress-ng",)


def test_the_sims_binaries_are_the_cards_but_for_support_programs():
    assert {b: t for b, t in tools.binaries().items() if b not in answers.SUPPORT} == answers.KNOWN_BINARIES
    assert answers.KNOWN_BINARIES["glmark2-es2-wayland"] == "glmark2" and "stress-ng" not in answers.KNOWN_BINARIES


def test_budget_seconds_are_by_tool_card(tmp_path):
    b = budget.load()
    assert set(b.seconds) <= set(tools.TOOLS)
    text = budget.data_path().read_text(encoding="utf-8").replace("  openssl: 20\n", "  opensll: 20\n")
    bad = tmp_path / "budget.yaml"
    bad.write_text(text, encoding="utf-8")
    line = text.splitlines().index("  opensll: 20") + 1
    with pytest.raises(DataError, match=rf"budget.yaml:{line}: seconds.opensll: no such tool \(tools: alsa, "):
        budget.load(path=bad)


def test_the_reports_chapters_are_the_suites_folders_in_sections_order():
    chapters = html.chapters()
    data = load_mapping(paths.variables() / "sections.yaml")["chapters"]
    assert chapters == list(data) and chapters[:3] == ["system", "boot", "uboot"] and chapters[-1] == "custom"
    folders = {p.name for p in (paths.root() / "suites").iterdir() if p.is_dir()}
    assert folders == set(chapters)
    for chapter, suites in data.items():
        assert {Path(p).stem for p in (paths.root() / "suites" / chapter).glob("*.robot")} == set(suites)
    order = [c for c, _ in html.group([{"chapter": "custom", "suite": "custom"}, {"chapter": "ipc", "suite": "x"},
                                        {"chapter": "system", "suite": "y"}])]  # fmt: skip
    assert order == ["system", "ipc", "custom"]
