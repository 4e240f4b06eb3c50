"""Applicability from data: a suite or a use-case row the board or the lab cannot run is skipped with the reason
(naming the data file and key), never failed and never guessed."""

from __future__ import annotations

from perfgate.workloads import capture, decode, display, glmark2, low_power, rt_latency
from peripheral_board import SIM_LAB, BoardContext, board_criteria

BARE = {"name": "bare", "has": ["ethernet", "usb"], "tester": {"address": "127.0.0.1"}, "power_meter": None}


def test_rt_use_cases_without_display_or_multimedia_are_skipped_per_row() -> None:
    crits = board_criteria("am574x_idk", "rt_latency")
    ctx = BoardContext("am574x_idk", rt_latency.WORKLOAD, crits, lab=dict(BARE))
    assert rt_latency.WORKLOAD.applicable(crits, ctx.profile, ctx.lab) is None
    m = rt_latency.WORKLOAD.measure(crits, ctx)
    skipped = {c.row: m.skipped[c.id] for c in crits if c.id in m.skipped}
    assert set(skipped) == {"L_PERF_SHIELD_SMP_GRAPHICS", "L_PERF_SHIELD_SMP_1080ENCDEC"}
    assert "lab 'bare' has no display (variables/labs/bare.yaml: has)" in skipped["L_PERF_SHIELD_SMP_GRAPHICS"]
    assert all(c.id in m.values for c in crits if c.row not in skipped)
    assert not m.missing


def test_rt_commands_shield_and_load() -> None:
    crits = [c for c in board_criteria("am574x_idk", "rt_latency") if c.row.endswith("STRESS_LOAD")]
    ctx = BoardContext("am574x_idk", rt_latency.WORKLOAD, crits, lab=dict(SIM_LAB))
    rt_latency.WORKLOAD.measure(crits, ctx)
    [(where, command)] = ctx.commands
    assert where == "shell"
    assert command.startswith("sh -c ")
    assert "/sys/fs/cgroup/cpuset/rt/tasks" in command and "stress-ng --cpu-method=all -c 2" in command
    assert "cyclictest -m -p80 -D60s -h400 -i200 -q -a1 -t1" in command
    assert any("guide: 4h" in n for n in ctx.notes)


def test_osadl_loop_count_is_stated() -> None:
    crits = [c for c in board_criteria("am574x_idk", "rt_latency") if c.table == "OSADL Test"]
    ctx = BoardContext("am574x_idk", rt_latency.WORKLOAD, crits, lab=dict(SIM_LAB))
    rt_latency.WORKLOAD.measure(crits, ctx)
    assert ctx.commands == [("shell", "cyclictest -l100000 -m -a0 -t1 -p99 -i200 -h400 -q")]
    assert any("100000 loops (the guide: 100000000)" in n for n in ctx.notes)


def test_suites_need_display_camera_power_meter() -> None:
    profile = BoardContext("am574x_idk", display.WORKLOAD, []).profile
    for w in (display.WORKLOAD, decode.WORKLOAD, glmark2.WORKLOAD):
        assert w.applicable([], profile, BARE) == "lab 'bare' has no display (variables/labs/bare.yaml: has)"
    assert capture.WORKLOAD.applicable([], profile, BARE) == (
        "lab 'bare' has no capture (variables/labs/bare.yaml: has)"
    )
    assert low_power.WORKLOAD.applicable([], profile, BARE) == (
        "lab 'bare' has no power meter (variables/labs/bare.yaml: power_meter)"
    )
    for w in (display.WORKLOAD, decode.WORKLOAD, glmark2.WORKLOAD, capture.WORKLOAD, low_power.WORKLOAD):
        assert w.applicable([], profile, SIM_LAB) is None


def test_board_without_gpu_skips_graphics() -> None:
    profile = BoardContext("am64xx_evm", glmark2.WORKLOAD, []).profile
    assert glmark2.WORKLOAD.applicable([], profile, SIM_LAB) == (
        "board am64xx_evm has no gpu (variables/boards/am64xx_evm.yaml: has)"
    )


def test_host_power_meter_waits_for_the_kernel_not_a_clock() -> None:
    """The host meter runs as it is (no `sleep N &&` guess), after the console showed the suspend, before the resume."""
    crits = board_criteria("am62xx_sk", "low_power")
    lab = {**SIM_LAB, "power_meter": "labgrid-client power-meter read"}
    ctx = BoardContext("am62xx_sk", low_power.WORKLOAD, crits, lab=lab)
    m = low_power.WORKLOAD.measure(crits, ctx)
    assert len(m.values) == len(crits)
    assert ctx.commands[0] == ("shell", "(dmesg -n 7; sleep 5; rtcwake -s 30 -m mem) > /dev/null 2>&1 &")
    assert ctx.commands[1:4] == [
        ("console", r"PM: suspend entry \(deep\) then printk: Suspending console\(s\)"),
        ("host", "labgrid-client power-meter read"),
        ("console", "PM: suspend exit"),
    ]
