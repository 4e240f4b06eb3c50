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
    line = progress.starting("stream", "shell", "stream_c 2>&1", 600, previous[("stream", "shell", "stream_c 2>&1")])
    assert line == "perfgate: stream: board$ stream_c 2>&1  [expected ~3.2 s (as in the last run), at most 10 min]"
    assert "no earlier run" in progress.starting("lmbench", "uboot", "mmc read", 90, None)
    assert progress.previous_durations(board / "20261122-100000") == {}  # nothing before the first run


def test_done_and_failed() -> None:
    assert progress.finished("ethernet", 7200) == "perfgate: ethernet: done in 120 min"
    failed = progress.finished("alsa", 0.2, AssertionError("board gone: " + "x" * 500 + "\nsecond line"))
    assert failed.startswith("perfgate: alsa: FAILED after 0.2 s: board gone: ") and failed.endswith("...")
    assert len(failed) < 220 and "second line" not in failed
