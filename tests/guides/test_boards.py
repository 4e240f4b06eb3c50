"""Boards by any of their names (perfgate.boards) and `python -m perfgate criteria <board> --json`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from perfgate import boards, criteria, custom
from perfgate.errors import UnknownBoard
from perfgate.model import FIELDS

TEN = [
    "am43xx_gpevm", "am574x_idk", "am62xx_lp_sk", "am62xx_sk", "am62xxsip_sk",
    "am64xx_evm", "j7200_evm", "j721e_idk_gw", "j721s2_evm", "j784s4_evm",
]  # fmt: skip


def perfgate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "perfgate", *args], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("name", "board"),
    [
        ("am62xx_sk", "am62xx_sk"),
        ("am62xx_sk-fs", "am62xx_sk"),
        ("am62xx-sk", "am62xx_sk"),
        ("AM62XX-SK", "am62xx_sk"),
        (" am62xx_sk ", "am62xx_sk"),
        ("j721e-idk-gw", "j721e_idk_gw"),
        ("j721e_idk_gw", "j721e_idk_gw"),
        ("j721e-idk-gw-fs", "j721e_idk_gw"),
        ("am574x-idk", "am574x_idk"),
        ("am43xx-gpevm", "am43xx_gpevm"),
        ("am62xxsip_sk-fs", "am62xxsip_sk"),
        ("am57xx-idk", "am574x_idk"),  # a profile alias
    ],
)
def test_any_name_resolves(name: str, board: str):
    assert boards.resolve(name) == board


def test_the_ten_guide_boards_are_known():
    assert set(TEN) <= set(boards.known())
    for b in TEN:
        assert criteria.suites_of(b), b


@pytest.mark.parametrize("name", ["am62xx_skk", "j721e", "", "   "])
def test_unknown_board_lists_the_known_ones(name: str):
    with pytest.raises(UnknownBoard) as e:
        boards.resolve(name)
    for b in TEN:
        assert b in str(e.value)


def test_criteria_json_for_an_alias():
    r = perfgate("criteria", "j721e-idk-gw", "--release", "09.01.00", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert len(data) == len(criteria.load("j721e_idk_gw", release="09.01.00")) == 443
    assert all(set(d) == set(FIELDS) for d in data)
    assert {d["board"] for d in data} == {"j721e_idk_gw"}
    assert {d["release"] for d in data} == {"09.01.00"}
    lat = next(d for d in data if d["name"] == "lat_tcp (us)")
    assert (lat["value"], lat["unit"], lat["direction"], lat["suite"]) == (0.79, "us", "lower", "lmbench")


def test_criteria_json_default_is_the_newest_release_and_says_so():
    r = perfgate("criteria", "j721e_idk_gw", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert len(data) == 537 and {d["release"] for d in data} == {"11.02"}
    assert "release 11.02 (the newest that publishes numbers for the board)" in r.stderr


def test_criteria_two_releases_mix_newest_wins_per_criterion():
    r = perfgate("criteria", "j7200_evm", "--release", "09.01.00,11.02", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)

    def once(release: str) -> set[tuple[str, str, str]]:  # the rows and columns a release prints in one table only
        seen = Counter((c.suite, c.row, c.metric) for c in criteria.load("j7200_evm", release=release))
        return {k for k, n in seen.items() if n == 1}

    both = once("09.01.00") & once("11.02")  # the same row and column (the tables were retitled between releases)
    assert len(both) > 100
    assert {d["release"] for d in data if (d["suite"], d["row"], d["metric"]) in both} == {"11.02"}  # newer wins
    assert {d["release"] for d in data if d["suite"] == "pcie_eth"} == {"09.01.00"}  # only 09.01.00 publishes it
    assert len(data) < len(criteria.load("j7200_evm", release="09.01.00")) + len(
        criteria.load("j7200_evm", release="11.02")
    )
    assert len({(d["suite"], d["name"].casefold()) for d in data}) == len(data)
    assert "releases 11.02 (" in r.stderr and "09.01.00 (" in r.stderr and "newest wins per criterion" in r.stderr


def test_criteria_unknown_release_exits_2_listing_the_board_s_releases():
    r = perfgate("criteria", "j7200_evm", "--release", "10.99", "--json")
    assert r.returncode == 2
    assert "RELEASE 10.99: j7200_evm has no such release; its releases: 11.02, 09.01.00" in r.stderr


def test_criteria_json_one_suite():
    r = perfgate("criteria", "am62xx_sk-fs", "--release", "10.00", "--suite", "dhrystone", "--json")
    assert r.returncode == 0, r.stderr
    rows = {d["name"]: d for d in json.loads(r.stdout)}
    assert set(rows) == {"cpu_clock (MHz)", "dhrystone_per_mhz (DMIPS/MHz)", "dhrystone_per_second (DhrystoneP)"}
    assert rows["cpu_clock (MHz)"]["direction"] == "match"


def test_criteria_unknown_board_exits_2_listing_the_known():
    r = perfgate("criteria", "am99xx", "--json")
    assert r.returncode == 2
    assert "unknown board 'am99xx'" in r.stderr and "am62xx_sk" in r.stderr and "j784s4_evm" in r.stderr
    assert r.stdout == ""


def test_a_release_chosen_alone_or_mixed_keeps_every_one_of_its_criteria():
    """RELEASE:<r> judges exactly r's files (and the board's own criteria, variables/custom/); a mix keeps every
    criterion of its newest release, even rows that differ only in case (am62xx_lp_sk 10.00 boot_time:
    `Kernel boot time test ...` and `kernel boot time test ...`)."""
    for board in boards.known():
        found = criteria.releases(board)
        for release in found:
            ids = sorted(c.id for c in criteria.load(board, release=release))
            assert sorted(c.id for c in criteria.released(board, release).criteria) == ids, (board, release)
            own = sorted(c.id for c in custom.criteria(board))  # the board's own criteria, whatever the release
            assert sorted(c.id for c in criteria.select(board, release).criteria) == sorted(ids + own), (board, release)
        if len(found) > 1:
            mixed = {(c.release, c.id) for c in criteria.select(board, ",".join(found)).criteria}
            assert {(found[0], c.id) for c in criteria.load(board, release=found[0])} <= mixed, board
    assert len(criteria.select("am62xx_lp_sk", "10.00").by_suite()["boot_time"]) == 3
