"""Crypto accelerator comparison (suite crypto_accel) on the SDK 12 guides' tables: one openssl command per
algorithm and column, answered the way the simulated board answers and parsed by the real openssl parser; a real
run of the ARM CE and ARM commands on this host; and the real trait of an engine that does not load (OpenSSL says
`Invalid engine`, then measures on the CPU and exits 0), which must never count as the accelerator's numbers."""

from __future__ import annotations

import shutil

import pytest

from perfgate import boards, criteria
from perfgate.datafile import merge
from perfgate.workloads import crypto_accel
from peripheral_board import HostContext
from testpaths import FIXTURES
from workload_harness import SIM_LAB, context

FIX = FIXTURES / "openssl"
CASES = [("am62xx_sk", "12.00.00"), ("am64xx_evm", "12.00.00")]


@pytest.mark.parametrize(("board", "release"), CASES)
def test_every_criterion_measured_near_its_published_value(board: str, release: str) -> None:
    ctx = context(crypto_accel.WORKLOAD, board, "crypto_accel", release=release)
    assert len(ctx.criteria) in (147, 135)
    m = crypto_accel.WORKLOAD.measure(ctx.criteria, ctx)
    for c in ctx.criteria:
        assert c.id in m.values, (c.name, m.missing.get(c.id))
        assert abs(m.values[c.id] - c.value) <= 0.1 * max(c.value, 1.0), (c.name, c.value, m.values[c.id])
    commands = [cmd for _, cmd in ctx.commands]
    assert len(commands) == 21  # 7 algorithms x 3 columns
    plain = [cmd for cmd in commands if cmd.startswith("/usr/bin/time -v openssl speed -elapsed")]
    assert len(plain) == 7  # the accelerator: the guide's own command (its OpenSSL tables are the accelerator's)
    assert sum(cmd.startswith("OPENSSL_CONF=/dev/null /usr/bin/time") for cmd in commands) == 7
    assert sum(cmd.startswith("OPENSSL_CONF=/dev/null OPENSSL_armcap=0 /usr/bin/time") for cmd in commands) == 7


def test_a_column_no_setting_names_is_the_reason() -> None:
    crits = criteria.load("am62xx_sk", "crypto_accel", release="12.00.00")
    conf = crypto_accel.settings(boards.profile("am62xx_sk"), SIM_LAB)
    conf["columns"] = [x for x in conf["columns"] if x["name"] != "arm"]
    c = next(c for c in crits if c.metric == "ARM (MB/s)")
    assert "no column" in str(crypto_accel.classify(c, conf))


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("openssl"), reason="needs openssl")
def test_columns_run_for_real_and_an_engine_that_does_not_load_is_rejected() -> None:
    crits = [c for c in criteria.load("am64xx_evm", "crypto_accel", release="12.00.00") if c.row.startswith("sha2-256")]
    assert len(crits) == 21  # 6 sizes x 3 columns + CPU usage x 3
    lab = dict(SIM_LAB, name="localhost", kind="qemu")  # `seconds: {qemu: 1}`: 1 s per block size
    ctx = HostContext("am64xx_evm", boards.profile("am64xx_evm"), lab)
    m = crypto_accel.WORKLOAD.measure(crits, ctx)
    assert all(m.values.get(c.id, 0) > 0 for c in crits), (m.missing, ctx.outputs)
    # a board whose image needs `-engine afalg`, on a host without a usable AF_ALG engine: OpenSSL says
    # `Invalid engine`, measures on the CPU and exits 0; the gate refuses those numbers for the accelerator
    afalg = {"workloads": {"crypto_accel": {"columns": [
        {"match": "^accelerator", "name": "accelerator", "engine": " -engine afalg", "env": ""}]}}}  # fmt: skip
    acc = [c for c in crits if c.metric.startswith("Accelerator")]
    ctx = HostContext("am64xx_evm", merge(boards.profile("am64xx_evm"), afalg), lab)  # type: ignore[arg-type]
    m = crypto_accel.WORKLOAD.measure(acc, ctx)
    assert not m.values
    for c in acc:
        assert "accelerator: openssl output rejected: openssl speed failed" in m.missing[c.id]
    assert "Invalid engine" in ctx.outputs[0]
    assert "Invalid engine" in (FIX / "engine-afalg-not-loaded-time-v.txt").read_text()


def test_a_column_command_without_elapsed_is_never_run() -> None:
    """A lab override that drops -elapsed from the accelerator comparison's command: openssl would report rates per
    CPU second of its own process (`infk` with a hardware engine), so nothing is run and every criterion says why."""
    drop = {"workloads": {"crypto_accel": {"command": "{env}{time} -v {openssl} speed{seconds}{engine} -evp {alg}"}}}
    ctx = context(crypto_accel.WORKLOAD, "am62xx_sk", "crypto_accel", release="12.00.00", lab=merge(SIM_LAB, drop))
    m = crypto_accel.WORKLOAD.measure(ctx.criteria, ctx)
    assert ctx.commands == [] and not m.values
    assert len(m.missing) == len(ctx.criteria)
    assert all("lacks -elapsed" in r and "crypto.yaml" in r for r in m.missing.values())
