"""The plain `robot -v BOARD:<b> suites/` is enough (issue 23, 2): `-t`, `-i`, `--rerunfailed` (also over the
directory after a one-file run), xunit classnames that carry the board, an unknown board said first and alone, and
the README's rerun-and-merge recipe merging whatever the rerun's outcome. Before, `-t` and `--rerunfailed` exited
252 without `--prerunmodifier perfgate.robot.expand.Criteria`, and the README's `robot ... && rebot --merge`
skipped the merge when the rerun failed.

Dry runs: selection and naming happen before anything runs (a real rerun is in test_robot_workflows). A dry run
with LAB:nosuchlab fails every test (perfgate.robot.preflight), which gives a first run with failures in a second."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from robot.api import ExecutionResult

import calibrated
from perfgate import criteria

ROOT = Path(__file__).resolve().parents[2]
SELECTION = criteria.select("am62xx_sk")
STREAM = sorted(c.name for c in SELECTION.by_suite()["stream"])
LMBENCH = SELECTION.by_suite()["lmbench"][0].name
STREAM_FILE = ROOT / "suites" / "system" / "stream.robot"


def robot(tmp: Path, out: str, *args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, Path]:
    argv = [sys.executable, "-m", "robot", "--outputdir", str(tmp / out), "--console", "dotted", *args]
    environ = {k: v for k, v in os.environ.items() if k != "ROBOT_OPTIONS"}
    environ.update({"PERFGATE_RESULTS": str(tmp / "results"), "PERFGATE_NO_COLLECT": "1", **(env or {})})
    calibrated.seed_for(Path(environ["PERFGATE_RESULTS"]), args)  # a calibrated quiet board (tests/calibrated.py)
    p = subprocess.run(argv, cwd=tmp, env=environ, capture_output=True, text=True, timeout=300, check=False)
    return p, tmp / out / "output.xml"


def names_in(output: Path) -> dict[str, str]:
    return {t.name: t.status for t in ExecutionResult(str(output)).suite.all_tests}


def test_t_and_i_select_criteria_without_any_option(tmp_path: Path) -> None:
    p, output = robot(tmp_path, "t", "--dryrun", "--xunit", "xunit.xml", "-v", "BOARD:am62xx-sk", "-t", STREAM[1],
                      "-t", LMBENCH, str(ROOT / "suites"))  # fmt: skip
    assert p.returncode == 0, p.stdout + p.stderr
    assert sorted(names_in(output)) == sorted([STREAM[1], LMBENCH])
    assert ExecutionResult(str(output)).suite.name == "am62xx_sk"
    xunit = (tmp_path / "t" / "xunit.xml").read_text(encoding="utf-8")
    assert set(re.findall(r'classname="([^"]*)"', xunit)) == {"am62xx_sk.System.Stream", "am62xx_sk.System.Lmbench"}
    p, output = robot(tmp_path, "i", "--dryrun", "-v", "BOARD:am62xx_sk", "-i", "am62xx_sk.stream.*", str(STREAM_FILE))
    assert p.returncode == 0, p.stdout + p.stderr
    assert sorted(names_in(output)) == STREAM
    assert ExecutionResult(str(output)).suite.name == "am62xx_sk · Stream"


def test_the_modifier_given_as_well_expands_once(tmp_path: Path) -> None:
    p, output = robot(tmp_path, "m", "--dryrun", "--prerunmodifier", "perfgate.robot.expand.Criteria",
                      "-v", "BOARD:am62xx_sk", "-t", STREAM[0], str(ROOT / "suites"))  # fmt: skip
    assert p.returncode == 0, p.stdout + p.stderr
    assert list(names_in(output)) == [STREAM[0]]


def test_a_missing_board_is_said_first_and_alone(tmp_path: Path) -> None:
    p, output = robot(tmp_path, "none", "--dryrun", str(STREAM_FILE))
    assert p.returncode == 252
    assert (p.stdout + p.stderr).startswith("[ ERROR ] perfgate: BOARD is not set: run with -v BOARD:<board>")
    assert "DataDriver" not in p.stdout + p.stderr and not output.exists()


# every STREAM row 30 % worse on the (calibrated, quiet) simulated board: each criterion's test FAILs by its own name
# (a bad lab no longer does: a dry run says the lab's problems once, in one check test)
DEGRADED = ("-v", "FAULTS:degrade:am62xx_sk.stream.*:30", "-v", "SIM_SPEED:20")


def test_rerunning_the_directory_after_one_file_run(tmp_path: Path) -> None:
    first, output = robot(tmp_path, "run1", "-v", "BOARD:am62xx_sk", *DEGRADED, str(STREAM_FILE))
    assert first.returncode == len(STREAM), first.stdout
    again, output2 = robot(tmp_path, "run2", "--dryrun", "-v", "BOARD:am62xx_sk", "-R", str(output),
                           str(ROOT / "suites"))  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert names_in(output2) == dict.fromkeys(STREAM, "PASS")
    back, output3 = robot(tmp_path, "run3", "-v", "BOARD:am62xx_sk", *DEGRADED, "-s", "Stream", str(ROOT / "suites"))
    assert back.returncode == len(STREAM)
    again, output4 = robot(tmp_path, "run4", "--dryrun", "-v", "BOARD:am62xx_sk", "-R", str(output3), str(STREAM_FILE))
    assert again.returncode == 0, again.stdout + again.stderr
    assert names_in(output4) == dict.fromkeys(STREAM, "PASS")


def readme_recipe() -> str:
    """The README's rerun-and-merge commands, as a user copies them."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "--rerunfailed run1/output.xml" in line)
    block = []
    for line in lines[start:]:
        block.append(line.split("  #")[0].rstrip())
        if not line.rstrip().endswith("\\"):
            break
    return "\n".join(block)


def test_the_readmes_rerun_recipe_merges_whatever_the_reruns_outcome(tmp_path: Path) -> None:
    recipe = readme_recipe()
    assert "rebot --merge" in recipe, recipe
    run1, _ = robot(tmp_path, "run1", "-v", "BOARD:am62xx_sk", *DEGRADED, "-s", "Stream", str(ROOT / "suites"))
    assert run1.returncode == len(STREAM)
    (tmp_path / "suites").symlink_to(ROOT / "suites")
    env = {**os.environ, "ROBOT_OPTIONS": " ".join([*DEGRADED, "--console", "dotted"]), "PERFGATE_NO_COLLECT": "1",
           "PERFGATE_RESULTS": str(tmp_path / "results")}  # the rerun fails again  # fmt: skip
    p = subprocess.run(["bash", "-c", recipe], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                       check=False)  # fmt: skip
    merged = tmp_path / "merged.xml"
    assert merged.is_file(), p.stdout + p.stderr + recipe
    suite = ExecutionResult(str(merged)).suite
    assert sorted(t.name for t in suite.all_tests) == STREAM
    assert all("Test has been re-executed and results merged" in t.message for t in suite.all_tests)
    assert p.returncode == len(STREAM)  # the merged result's failures: the recipe never hides them
