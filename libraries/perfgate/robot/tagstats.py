"""The criterion-id tags stay out of Robot's "Statistics by Tag" by default; selecting by id (`-i <id>`) still works.

Every criterion is tagged with its id (`am62xx_sk.stream.stream-benchmarks.add-mb-s.perf`) so that `robot -i` can
select one or a glob of them. Robot counts every tag in report.html's and log.html's "Statistics by Tag" and in
output.xml's statistics: 600 one-test tags there bury the chapter, suite, board and `needs:` tags it is for.

Why this mechanism. Robot excludes tags from the statistics only through `--tagstatexclude` (a suite file cannot set
it; Robot 7.5 reads no configuration file, only the ROBOT_OPTIONS environment variable, which is the user's). The
one reserved prefix Robot leaves out of the statistics on its own, `robot:`, is Robot's namespace for its own tags,
not ours. So the gate adds `--tagstatexclude <board>.*` for every board to the run's own settings, where
perfgate.robot.language finds them (the RobotSettings of the `robot` run parsing a gate suite file) before anything
runs: the tags stay on the tests (selection, log.html, output.xml, `rebot -i`), only the counting leaves them out.
Robot takes the statistics' configuration from those settings when it writes output.xml, log.html and report.html.

- A run that names tag statistics itself (`--tagstatinclude`) counts what it names: nothing is added.
- `rebot` (merging runs, pabot's merge) builds its statistics with its own options: give it
  `--tagstatexclude '<board>.*'` as the README's merge recipe does, or the ids are counted there.
"""

from __future__ import annotations

import contextlib

from perfgate import boards
from perfgate.errors import PerfgateError


def id_patterns(board: str | None = None) -> list[str]:
    """Robot tag patterns matching every criterion id: `<board>.*` for each known board (ids begin with the board's
    canonical name), and for BOARD's canonical name when it resolves."""
    names = set(boards.known())
    if board:
        with contextlib.suppress(PerfgateError):  # an unknown board stops the run elsewhere, with its own message
            names.add(boards.resolve(board))
    return [f"{b}.*" for b in sorted(names)]


def keep_ids_out_of_statistics(settings, board: str | None = None) -> list[str]:
    """Add the id patterns to a run's `--tagstatexclude` (its RobotSettings); returns the patterns added (none when
    the run names `--tagstatinclude`, or when they are there already)."""
    if settings["TagStatInclude"]:
        return []
    excluded = list(settings["TagStatExclude"])
    added = [p for p in id_patterns(board) if p not in excluded]
    settings["TagStatExclude"] = [*excluded, *added]
    return added
