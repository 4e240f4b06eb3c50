"""DataDriver's reader for a suite's criteria: `Library  DataDriver  stream.csv  reader_class=<this>`.

The file is found without anything having run before the suite: in the run's copy (`${CRITERIA_DIR}`, set by
`Open Run`) when the gate is open, else in the committed thresholds of `${BOARD}`. So a suite file runs alone
(`robot -v BOARD:am62xx_sk suites/system/stream.robot`) and `--dryrun` expands the real criteria of the board,
each named as the guide names it; an unknown or missing BOARD is an error naming the variable.

Every criterion is tagged with its id (`robot -i 'am62xx_sk.stream.*'`) beside the tags of its threshold row.
"""

from __future__ import annotations

from pathlib import Path

from DataDriver.csv_reader import csv_reader
from robot.libraries.BuiltIn import BuiltIn

from perfgate import boards, criteria
from perfgate.errors import PerfgateError


def criteria_file(name: str) -> Path:
    """The threshold file `name` (e.g. stream.csv) of this run, or of ${BOARD} when no run is open."""
    variables = BuiltIn()
    run_copy = variables.get_variable_value("${CRITERIA_DIR}")
    if run_copy:
        return Path(str(run_copy)) / name
    board = str(variables.get_variable_value("${BOARD}") or "").strip()
    if not board:
        raise PerfgateError("BOARD is not set: run with -v BOARD:<board> (python -m perfgate boards lists them)")
    return criteria.board_dir(boards.resolve(board)) / name


class CriteriaReader(csv_reader):
    def get_data_from_source(self):
        path = criteria_file(Path(str(self.file)).name)
        if not path.is_file():  # the board publishes nothing for this suite: no tests
            return []
        self.file = str(path)
        super().get_data_from_source()
        id_column = self.header.index("${id}") if "${id}" in self.header else None
        for row in self.data_table:
            cid = row.arguments.get("${id}") if id_column is not None else None
            if cid:
                row.tags = [*(row.tags or []), cid]
        return self.data_table
