"""OpenSSL workload on the boards' imported criteria, answered the way the simulated board answers
(tests/workload_harness.py), parsed by the real openssl parser."""

from __future__ import annotations

import pytest

from perfgate import boards, criteria
from perfgate.workloads import openssl
from seed_releases import seed
from workload_harness import SIM_LAB, context

BOARDS = ["am43xx_gpevm", "am574x_idk", "am62xxsip_sk", "j721e_idk_gw", "j721s2_evm", "j784s4_evm"]


@pytest.mark.parametrize("board", BOARDS)
def test_every_criterion_measured_near_its_published_value(board: str) -> None:
    ctx = context(openssl.WORKLOAD, board, "openssl")
    assert ctx.criteria
    m = openssl.WORKLOAD.measure(ctx.criteria, ctx)
    for c in ctx.criteria:
        assert c.id in m.values, (c.name, m.missing.get(c.id))
        assert abs(m.values[c.id] - c.value) <= 0.1 * max(c.value, 1.0), (c.name, c.value, m.values[c.id])
    assert all(cmd.startswith("/usr/bin/time -v openssl speed -elapsed") for _, cmd in ctx.commands)


def test_one_command_per_algorithm_shortened_on_the_sim_only() -> None:
    crits = criteria.load("j721e_idk_gw", "openssl", release=seed("j721e_idk_gw"))
    profile = boards.profile("j721e_idk_gw")
    sim = openssl.WORKLOAD.plan(crits, profile, SIM_LAB)
    hw = openssl.WORKLOAD.plan(crits, profile, dict(SIM_LAB, kind="hardware"))
    assert len(sim) == len(hw) == 10
    assert all("-seconds 1" in r.command for r in sim)
    assert all("-seconds" not in r.command for r in hw)


def test_published_cpu_seconds_keep_the_default_run_length_and_des_uses_the_legacy_provider() -> None:
    crits = criteria.load("am574x_idk", "openssl", release=seed("am574x_idk"))
    runs = {r.label: r.command for r in openssl.WORKLOAD.plan(crits, boards.profile("am574x_idk"), SIM_LAB)}
    assert all("-seconds" not in c for c in runs.values())
    assert "-provider legacy" in runs["openssl-des-cbc"]


def test_guide_typo_alias() -> None:
    crits = [c for c in criteria.load("am43xx_gpevm", "openssl", release=seed("am43xx_gpevm")) if c.row == "sha386"]
    assert crits
    conf = openssl.settings({}, SIM_LAB)
    assert openssl.classify(crits[0], conf) == ("sha384", "cpu load (%)")


def test_missing_openssl_is_unavailable() -> None:
    ctx = context(openssl.WORKLOAD, "j784s4_evm", "openssl", missing_tools={"openssl"})
    m = openssl.WORKLOAD.measure(ctx.criteria, ctx)
    assert not m.values and len(m.unavailable) == len(ctx.criteria)


def test_without_gnu_time_throughput_is_still_measured() -> None:
    ctx = context(openssl.WORKLOAD, "j721s2_evm", "openssl", missing_tools={"/usr/bin/time"})
    m = openssl.WORKLOAD.measure(ctx.criteria, ctx)
    cpu = {c.id for c in ctx.criteria if c.metric == "CPU Load"}
    assert cpu and set(m.unavailable) == cpu
    assert "/usr/bin/time is not on the board" in next(iter(m.unavailable.values()))
    assert len(m.values) == len(ctx.criteria) - len(cpu)
    assert ctx.commands[-1][1].startswith("openssl speed -elapsed")


def test_a_command_without_elapsed_is_never_run() -> None:
    lab = dict(SIM_LAB, workloads={"openssl": {"command": "{time} -v {openssl} speed{seconds}{extra} -evp {alg}"}})
    ctx = context(openssl.WORKLOAD, "j721s2_evm", "openssl", lab=lab)
    m = openssl.WORKLOAD.measure(ctx.criteria, ctx)
    assert not ctx.commands and not m.values and set(m.missing) == {c.id for c in ctx.criteria}
    reason = next(iter(m.missing.values()))
    assert "lacks -elapsed" in reason and "crypto.yaml" in reason


def test_the_untimed_fallback_keeps_elapsed_too() -> None:
    lab = dict(SIM_LAB, workloads={"openssl": {"command_untimed": "{openssl} speed{seconds}{extra} -evp {alg}"}})
    ctx = context(openssl.WORKLOAD, "j721s2_evm", "openssl", lab=lab, missing_tools={"/usr/bin/time"})
    m = openssl.WORKLOAD.measure(ctx.criteria, ctx)
    assert not m.values
    assert all("lacks -elapsed" in r for r in m.missing.values())
    assert all("-elapsed" in cmd for _, cmd in ctx.commands)
