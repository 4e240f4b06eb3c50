"""Where links in Robot's log are relative to, for every library that writes one (evidence files, the serial
transcript, comparison.html): perfgate.report.robotfiles rewrites them for the run directory's copies from the
base recorded in run.json (`link_base`), so they all must use this one."""

from __future__ import annotations

from pathlib import Path

from robot.libraries.BuiltIn import BuiltIn


def _var(name: str) -> object:
    return BuiltIn().get_variable_value("${" + name + "}")


def link_base() -> Path:
    """The directory links in the log are relative to: the log's, else the output's. Under pabot, where the
    merged log is written: the --outputdir that holds pabot_results/<n>/[<m>/]output.xml."""
    for name in ("LOG FILE", "OUTPUT FILE"):
        value = _var(name)
        if value and str(value).upper() != "NONE":
            base = Path(str(value)).parent
            if _var("PABOTQUEUEINDEX") is not None:
                merged = next((p.parent for p in base.resolve().parents if p.name == "pabot_results"), None)
                if base.resolve().name != "pabot_results" and merged is not None:
                    return merged
            return base
    return Path.cwd()
