"""Console progress lines: the expected time of a command comes from the board's previous run (its raw/*/index.tsv,
written by the gate for every command), else the timeout is the only bound; a failure's reason is kept short."""

from __future__ import annotations

from pathlib import Path

from perfgate.report import progress


def test_the_last_run_that_ran_anything_times_the_next(tmp_path: Path) -> None:
    board = tmp_path / "am62xx_sk"
    (board / "20261122-100000" / "raw" / "stream").mkdir(parents=True)
    (board / "20261122-100000" / "raw" / "stream" / "index.tsv").write_text(
        "stream-1.txt\tshell\t3.250\tstream_c 2>&1\n"
    )
    (board / "20261122-110000").mkdir()  # a later run that died before running anything
    now = board / "20261122-120000"
    now.mkdir()
    previous = progress.previous_durations(now)
    assert previous == {("stream", "shell", "stream_c 2>&1"): 3.25}
    expected = progress.timings(now).command("stream", "shell", "stream_c 2>&1")
    line = progress.starting("stream", "shell", "stream_c 2>&1", 600, expected)
    assert line == ("perfgate: stream: board$ stream_c 2>&1  [expected ~3.2 s (as in the one earlier run that ran "
                    "it), at most 10 min]")  # fmt: skip
    assert "no earlier run" in progress.starting("lmbench", "uboot", "mmc read", 90, None)
    assert progress.previous_durations(board / "20261122-100000") == {}  # nothing before the first run


def test_done_and_failed() -> None:
    assert progress.finished("ethernet", 7200) == "perfgate: ethernet: done in 120 min"
    failed = progress.finished("alsa", 0.2, AssertionError("board gone: " + "x" * 500 + "\nsecond line"))
    assert failed.startswith("perfgate: alsa: FAILED after 0.2 s: board gone: ") and failed.endswith("...")
    assert len(failed) < 220 and "second line" not in failed


def _run(board: Path, name: str, suites: dict[str, list[tuple[str, float]]]) -> None:
    for suite, rows in suites.items():
        d = board / name / "raw" / suite
        d.mkdir(parents=True)
        lines = [f"{suite}-{i}.txt\tshell\t{seconds:.3f}\t{command}\n" for i, (command, seconds) in enumerate(rows)]
        (d / "index.tsv").write_text("".join(lines))


def test_a_chapter_run_does_not_hide_the_full_runs_times_and_the_median_of_runs_is_expected(tmp_path: Path) -> None:
    """After a full run, a `-i system` run: the next full run still times the network commands (by the full run),
    and a command several runs timed expects the median of them."""
    board = tmp_path / "am62xx_sk"
    iperf = [("iperf3 -c x", 3600.0), ("iperf3 -c x", 3000.0)]  # run twice: the suite took both
    _run(board, "20261120-100000", {"dhrystone": [("dhrystone 4e7", 10.0)], "ethernet": iperf})
    _run(board, "20261121-100000", {"dhrystone": [("dhrystone 4e7", 14.0), ("dhrystone 4e7", 13.0)]})
    _run(board, "20261122-100000", {"dhrystone": [("dhrystone 4e7", 30.0)]})
    now = board / "20261123-100000"
    now.mkdir()
    t = progress.timings(now)
    assert t.command("ethernet", "shell", "iperf3 -c x") == (3600.0, 1)  # a run's first run of the command
    assert t.command("dhrystone", "shell", "dhrystone 4e7") == (14.0, 3)  # the median of 30, 14 and 10
    assert t.suite("ethernet") == 6600.0 and t.suite("dhrystone") == 27.0  # median of the totals 30, 27, 10
    line = progress.starting("ethernet", "shell", "iperf3 -c x", 7200, t.command("ethernet", "shell", "iperf3 -c x"))
    assert "[expected ~60 min (as in the one earlier run that ran it), at most 120 min]" in line
    dhry = t.command("dhrystone", "shell", "dhrystone 4e7")
    assert "(median of 3 earlier runs)" in progress.starting("dhrystone", "shell", "dhrystone 4e7", 600, dhry)
    order = ["dhrystone", "stream", "ethernet"]
    assert progress.suite_line("dhrystone", order, 3, t) == (
        "perfgate: suite 1 of 3: dhrystone (3 criteria); ~110 min to the end of the run by the board's earlier runs "
        "(1 of the 3 suites never timed)")  # fmt: skip
    assert progress.suite_line("ethernet", order, 40, t).startswith("perfgate: suite 3 of 3: ethernet (40 criteria); "
                                                                    "~110 min to the end")  # fmt: skip
    first = board / "20261101-000000"
    first.mkdir()
    assert progress.suite_line("stream", order, 9, progress.timings(first)) == (
        "perfgate: suite 2 of 3: stream (9 criteria); no earlier run of the board to time the rest by"
    )
