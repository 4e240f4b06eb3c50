"""perfgate.tools.boot: host-timestamped serial logs (grabserial -t -d format), as the guides define boot time."""

from __future__ import annotations

import random

import pytest

from perfgate.errors import ParseError
from perfgate.sim.tools import boot as sim_boot
from perfgate.tools import boot
from seed_releases import seed

LOG = """\
# perfgate boot capture: board=am62xx_lp_sk lab=sim variant=default cycles=2
# start: Starting kernel ...
# end: login:
# time-scale: 10
# cycle 1
[0:00:00.000000 0.000000] U-Boot SPL 2024.04
[0:00:00.300000 0.300000] Hit any key to stop autoboot:  0
[0:00:00.500000 0.200000] Starting kernel ...
[0:00:00.600000 0.100000] [    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd034]
[0:00:02.200000 1.600000] am62xx-lp-evm login: [    17.901234] random: crng init done
# cycle 2
[0:00:00.000000 0.000000] U-Boot SPL 2024.04
[0:00:00.500000 0.500000] Starting kernel ...
[0:00:02.300000 1.800000] am62xx-lp-evm login:
"""


def test_mean_min_max_and_scale():
    m = boot.parse(LOG)
    assert m["cycles"] == 2 and m["time scale"] == 10
    assert m["boot time min (sec)"] == 17.0  # 1.7 host seconds x 10, login prompt with a kernel message glued on
    assert m["boot time max (sec)"] == 18.0
    assert m["boot time (sec)"] == 17.5


def test_init_sh_prompt_ends_its_line():
    log = LOG.replace("# end: login:", "# end: # ").replace("# time-scale: 10\n", "")
    log = log.replace("am62xx-lp-evm login:", "/ #")
    log = log.replace("[0:00:00.600000 0.100000] [", "[0:00:00.600000 0.100000] MMC read: dev # 0 [")
    assert boot.parse(log)["boot time (sec)"] == 1.75


def test_broken_boots_are_parse_errors_with_the_cycle():
    with pytest.raises(ParseError, match=r"boot cycle 2: 'Starting kernel \.\.\.' but no 'login:'"):
        boot.parse(LOG.replace("[0:00:02.300000 1.800000] am62xx-lp-evm login:", "[0:00:02.3 1.8] Kernel panic"))
    with pytest.raises(ParseError, match="no timestamped lines"):
        boot.parse("Starting kernel ...\nlogin:\n")


def test_render_round_trips():
    text = sim_boot.render("boot-time default", {"boot time (sec)": 17.28, "cycles": 3}, random.Random(2))
    m = boot.parse(text)
    assert m["cycles"] == 3 and abs(m["boot time (sec)"] - 17.28) < 0.3


def test_boot_time_rows_map_to_their_variant():
    from perfgate import criteria
    from perfgate.workloads.boot_time import WORKLOAD, variant

    for board, n in (("am62xx_lp_sk", 3), ("j721e_idk_gw", 2), ("am43xx_gpevm", 1)):
        crits = criteria.load(board, "boot_time", release=seed(board))
        assert len(crits) == n
        assert sum(variant(c) == "init_sh" for c in crits) == (0 if board == "am43xx_gpevm" else 1)
        runs = WORKLOAD.plan(crits, {}, {})
        assert {cid for r in runs for ids in r.keys.values() for cid in ids} == {c.id for c in crits}
        assert all(r.where == "boot" for r in runs)
    assert criteria.load("am62xx_sk", "boot_time", release=seed("am62xx_sk")) == []  # am62xx_sk publishes no boot time
