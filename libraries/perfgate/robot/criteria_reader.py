"""A suite's criteria file as the expansion reads it (perfgate/robot/expand.py).

The file is found without anything having run before the suite: in the run's copy (`${CRITERIA_DIR}`, set by
`Open Run`) when the gate is open, else in the committed thresholds of `${BOARD}`. So a suite file runs alone
(`robot -v BOARD:am62xx_sk suites/system/stream.robot`) and `--dryrun` expands the real criteria of the board,
each named as the guide names it; an unknown or missing BOARD is an error naming the variable.

Every criterion is tagged with its id (`robot -i 'am62xx_sk.stream.*'`) and with `needs:<peripheral>` for each
peripheral its workload declares (`robot -e needs:display`), beside the tags of its threshold row.
"""

from __future__ import annotations

from pathlib import Path

from robot.libraries.BuiltIn import BuiltIn

from perfgate import boards, criteria
from perfgate.errors import PerfgateError


def board_csv(board: str, release: str | None, suite: str) -> str:
    """A suite's threshold file as the gate would judge it: the board's release (RELEASE, default the newest)."""
    selection = criteria.select(boards.resolve(board), release)
    return criteria.render(selection.by_suite().get(suite, []))


def criteria_csv(name: str) -> str:
    """The threshold file `name` (e.g. stream.csv) of this run, or of ${BOARD} and ${RELEASE} when no run is open."""
    variables = BuiltIn()
    run_copy = variables.get_variable_value("${CRITERIA_DIR}")
    if run_copy:
        path = Path(str(run_copy)) / name
        return path.read_text(encoding="utf-8") if path.is_file() else ""
    board = str(variables.get_variable_value("${BOARD}") or "").strip()
    if not board:
        raise PerfgateError("BOARD is not set: run with -v BOARD:<board> (python -m perfgate boards lists them)")
    release = variables.get_variable_value("${RELEASE}")
    return board_csv(board, str(release) if release else None, Path(name).stem)


def extra_tags(tags: list[str], cid: str | None, needs: list[str]) -> list[str]:
    """A criterion's tags: its threshold row's, its id, and `needs:<peripheral>` for what its workload needs."""
    return [*tags, *([cid] if cid else []), *(f"needs:{n}" for n in needs)]


def robot_name(name: str) -> str:
    """A criterion's name as a test name Robot shows unchanged: Robot unescapes test names when it runs them, so
    the backslash of a guide's `(MB\\s)` is doubled."""
    return name.replace("\\", "\\\\")


def criteria_problem(suite) -> str:
    """Why a suite's criteria could not be read (BOARD unset or unknown, RELEASE unknown, a bad file)."""
    try:
        criteria_csv(f"{Path(str(suite.source)).stem}.csv")
    except (PerfgateError, OSError) as e:
        return str(e)
    return "they could not be read (see the errors above)"
