"""The CI examples (ci/Jenkinsfile, ci/.gitlab-ci.yml) parse, and every command they run exists and succeeds on the
simulated board (issue 23 item 7).

Each pipeline's commands run as its CI server would run them (Jenkins: every `sh` step with `sh -xe`, its parameters'
defaults and its `environment` in the environment; GitLab: before_script then script in one `bash` with
`set -eo pipefail`, its `variables`), in a workspace that holds the repository's files (symlinks) and nothing else,
on a short selection (SUITES: one suite file, dhrystone). `./setup.sh` is the one command not run: it would apt-get
and pip install into the shared virtualenv; its argument-checked equivalent is run instead (`bash -n`, executable,
every option the pipeline passes known to it). Then the verdict gates the pipeline: the same gate command with a
degraded board (ROBOT_OPTIONS=-v FAULTS:degrade:*:30, which robot reads before its own arguments) exits non-zero,
and the files the pipeline archives and reports (xunit, results/) are there either way. About 30 s."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

import groovy
from testpaths import ROOT

pytestmark = pytest.mark.slow

REPO = ROOT
JENKINSFILE = REPO / "ci" / "Jenkinsfile"
GITLAB = REPO / "ci" / ".gitlab-ci.yml"
ONE_SUITE = "suites/system/dhrystone.robot"
DEGRADED = "-v FAULTS:degrade:*:30"
WORKSPACE_FILES = ("suites", "resources", "variables", "libraries", "guides", "setup.sh", "requirements.txt",
                   "pyproject.toml", ".venv")  # fmt: skip


def workspace(tmp: Path) -> Path:
    """A CI checkout: the repository's files, symlinked, and nothing of a previous run."""
    ws = tmp / "workspace"
    ws.mkdir(parents=True)
    for name in WORKSPACE_FILES:
        (ws / name).symlink_to(REPO / name)
    return ws


def base_env() -> dict[str, str]:
    drop = ("PERFGATE_ROOT", "PERFGATE_GUIDES", "PERFGATE_RESULTS", "ROBOT_OPTIONS", "BOARD", "LAB", "SUITES")
    return {k: v for k, v in os.environ.items() if k not in drop}


def setup_equivalent(command: str, ws: Path) -> str:
    """`./setup.sh [options]` -> a command that checks it without installing anything."""
    words = shlex.split(command)
    assert words[0] == "./setup.sh", command
    assert os.access(ws / "setup.sh", os.X_OK), "setup.sh is not executable"
    known = set(re.findall(r'"\$\{1:-\}" = "(--[a-z-]+)"', (ws / "setup.sh").read_text(encoding="utf-8")))
    for option in words[1:]:
        assert option in known, f"setup.sh does not know {option} (it knows {sorted(known)})"
    return "bash -n ./setup.sh"


def run_shell(argv: list[str], script: str, ws: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*argv, script], cwd=ws, env=env, capture_output=True, text=True, timeout=600, check=False)


def gate_failed(ws: Path, outputdir: str) -> int:
    root = ET.parse(ws / outputdir / "xunit.xml").getroot()
    return int(root.get("failures", "0"))


# ---------------------------------------------------------------------------------------------------------- Jenkins


def test_jenkinsfile_parses():
    toks = groovy.tokens(JENKINSFILE.read_text(encoding="utf-8"))
    groovy.check_brackets(toks)
    assert toks[0].text == "pipeline" and toks[1].text == "{"
    for part in ("agent", "stages", "post"):
        assert groovy.block(toks, part), f"no {part} block"
    steps = groovy.sh_steps(toks)
    assert [s.text.split()[0] for s in steps] == ["./setup.sh", ".venv/bin/perfgate", ".venv/bin/perfgate",
                                                  ".venv/bin/robot"]  # fmt: skip
    assert not [s.line for s in steps if s.interpolated], "sh steps are single-quoted: the shell expands, not Groovy"
    assert set(groovy.string_parameters(toks)) == {"BOARD", "LAB", "SUITES"}


def test_the_groovy_reader_catches_what_jenkins_would_refuse():
    with pytest.raises(groovy.GroovyError, match="never closed"):
        groovy.check_brackets(groovy.tokens("pipeline { stages { }"))
    with pytest.raises(groovy.GroovyError, match="unterminated string"):
        groovy.tokens("sh 'echo\\'")
    with pytest.raises(groovy.GroovyError, match="not a string literal"):
        groovy.sh_steps(groovy.tokens("sh cmd"))
    toks = groovy.tokens("sh '''\n  a \\\n b\n'''  // x 'y'\nsh(script: \"echo ${X}\")")
    steps = groovy.sh_steps(toks)
    assert [s.text for s in steps] == ["\n  a  b\n", "echo ${X}"] and steps[1].interpolated


def jenkins_run(tmp: Path, robot_options: str = "") -> tuple[Path, list[subprocess.CompletedProcess[str]]]:
    toks = groovy.tokens(JENKINSFILE.read_text(encoding="utf-8"))
    ws = workspace(tmp)
    env = base_env() | groovy.string_parameters(toks) | {"SUITES": ONE_SUITE, "WORKSPACE": str(ws)}
    for name, value in groovy.environment(toks).items():  # "${WORKSPACE}/results": Groovy's env lookup
        env[name] = re.sub(r"\$\{(?:env\.)?(\w+)\}", lambda m: env[m.group(1)], value.text)
    if robot_options:
        env["ROBOT_OPTIONS"] = robot_options
    done = []
    for step in groovy.sh_steps(toks):
        script = step.text.strip()
        if script.startswith("./setup.sh"):
            script = setup_equivalent(script, ws)
        p = run_shell(["/bin/sh", "-xe", "-c"], script, ws, env)
        done.append(p)
        if p.returncode != 0:  # Jenkins stops at the first failing step; post { always } still runs
            break
    return ws, done


def test_jenkins_pipeline_runs_on_the_sim_and_the_verdict_gates_it(tmp_path):
    toks = groovy.tokens(JENKINSFILE.read_text(encoding="utf-8"))
    post = groovy.block(toks, "post")
    ws, steps = jenkins_run(tmp_path / "pass")
    assert len(steps) == 4 and all(p.returncode == 0 for p in steps), steps[-1].stdout[-3000:] + steps[-1].stderr
    assert "am62xx_sk" in (ws / "boards.txt").read_text(encoding="utf-8")
    (junit,) = groovy.named_strings(post, "testResults")
    assert (ws / junit).is_file() and gate_failed(ws, "robot-output") == 0
    (archive,) = groovy.named_strings(post, "artifacts")
    for pattern in archive.split(","):
        assert list(ws.glob(pattern.strip())), f"archiveArtifacts {pattern.strip()!r} matches nothing"
    assert list((ws / "results" / "virtual" / "am62xx_sk").glob("*/metrics.json"))

    ws, steps = jenkins_run(tmp_path / "fail", robot_options=DEGRADED)
    assert steps[-1].returncode != 0 and len(steps) == 4, "a failing gate must fail the Gate stage"
    assert (ws / junit).is_file() and gate_failed(ws, "robot-output") > 0


# ----------------------------------------------------------------------------------------------------------- GitLab


def gitlab() -> dict:
    return yaml.safe_load(GITLAB.read_text(encoding="utf-8"))


def jobs(config: dict) -> dict[str, dict]:
    reserved = {"stages", "variables", "default", "include", "workflow", "image", "services", "cache"}
    return {k: v for k, v in config.items() if k not in reserved and not k.startswith(".")}


def test_gitlab_ci_parses():
    config = gitlab()
    assert config["stages"] == ["gate"]
    job = next(iter(jobs(config).values()))
    assert job["stage"] in config["stages"]
    for key in ("before_script", "script"):
        assert isinstance(job[key], list) and all(isinstance(line, str) for line in job[key]), key
    assert job["artifacts"]["when"] == "always"
    assert set(config["variables"]) >= {"BOARD", "LAB", "SUITES", "PERFGATE_RESULTS"}


def gitlab_run(tmp: Path, robot_options: str = "") -> tuple[Path, dict, subprocess.CompletedProcess[str]]:
    config = gitlab()
    ws = workspace(tmp)
    env = base_env() | {"CI_PROJECT_DIR": str(ws)}
    for name, value in {**config["variables"], "SUITES": ONE_SUITE}.items():  # GitLab expands $VAR in variables
        env[name] = re.sub(r"\$\{?(\w+)\}?", lambda m: env.get(m.group(1), ""), str(value))
    if robot_options:
        env["ROBOT_OPTIONS"] = robot_options
    (job,) = jobs(config).values()
    lines = [setup_equivalent(line, ws) if line.startswith("./setup.sh") else line
             for line in job.get("before_script", []) + job["script"]]  # fmt: skip
    script = "set -eo pipefail\n" + "\n".join(lines)
    return ws, job, run_shell(["bash", "-c"], script, ws, env)


def test_gitlab_job_runs_on_the_sim_and_the_verdict_gates_it(tmp_path):
    ws, job, p = gitlab_run(tmp_path / "pass")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "am62xx_sk" in (ws / "boards.txt").read_text(encoding="utf-8")
    assert (ws / job["artifacts"]["reports"]["junit"]).is_file() and gate_failed(ws, "robot-output") == 0
    for path in job["artifacts"]["paths"]:
        assert (ws / path).exists(), f"artifacts.paths {path!r} does not exist after the job"
    assert list((ws / "results" / "virtual" / "am62xx_sk").glob("*/metrics.json"))

    ws, job, p = gitlab_run(tmp_path / "fail", robot_options=DEGRADED)
    assert p.returncode != 0, "a failing gate must fail the job"
    assert (ws / job["artifacts"]["reports"]["junit"]).is_file() and gate_failed(ws, "robot-output") > 0
