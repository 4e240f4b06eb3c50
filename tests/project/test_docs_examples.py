"""Every example command in docs/ is run by a test (issue 32, item 7).

Before: docs/squad.md's own example (`perfgate publish squad results/am62xx_sk/latest`, after the README's first
command) failed: `results/am62xx_sk/latest` was read as a board named `results`.

The examples are read from the documents themselves (every command line of their ```sh blocks, continuation lines
joined): a command added to docs/ that no test runs fails `test_every_example_is_run_by_a_test`. Here they run as
written, in the order a reader would (the gate's runs first, then what reads them), with only what a document
leaves to the reader filled in: `<board>`/`$BOARD` am62xx_sk, `<lab>`/`$LAB`/`mylab` the simulated board, the
example servers a real SQUAD server on 127.0.0.1 (tests/squadserver.py), the example run names real runs made
here. ROBOT_OPTIONS (read by robot before its arguments) selects two suites and speeds the simulated board up, so
`robot ... suites/` runs as written in seconds. The few examples that take a QEMU board, three boards under pabot or
a reinstall name the test that runs them (ELSEWHERE), or why none can (NOT_RUN).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import squadserver
from testpaths import ROOT

DOCS = ROOT / "docs"
FAST = "--suite dhrystone --suite lmbench -v SIM_SPEED:20 -v BOOT_CYCLES:1 -v DURATION:1"

# examples another test runs (the start of the command -> that test), or that no test can run (-> why)
ELSEWHERE = {
    "./setup.sh": "tests/project/test_setup_script.py::test_the_gate_setup_installs_what_the_gate_needs_only",
    "pabot --no-pabotlib --processes 3 --ordering": (
        "tests/project/test_pabot.py::test_three_simulated_boards_with_pabot"
    ),
    "rebot ": "tests/report/test_report_robotfiles.py::test_under_pabot_no_log_is_written_so_rebot_writes_one",
    "robot -v BOARD:qemu_arm64 -v LAB:qemu suites/":
        "tests/qemu/test_qemu_gate.py::test_gate_passes_against_the_baseline_and_fails_a_tightened_one",
    "PERFGATE_ROOT=/tmp/tight robot":
        "tests/qemu/test_qemu_gate.py::test_gate_passes_against_the_baseline_and_fails_a_tightened_one",
    "python -m perfgate baseline results/qemu_arm64/":
        "tests/qemu/test_qemu_baseline.py::test_scratch_root_is_this_repository_with_the_new_thresholds",
    "python -m perfgate qemu build": "tests/qemu/test_qemu_image.py::",
}  # fmt: skip
NOT_RUN = {
    "python -m perfgate baseline --board": "records three whole-gate runs of a board no guide covers (the QEMU "
    "board: about 30 min); its thresholds are committed and tests/qemu/test_qemu_gate.py judges against them",
}


@dataclass(frozen=True)
class Example:
    doc: str
    line: int
    command: str

    def __str__(self) -> str:
        return f"{self.doc}:{self.line}: {self.command}"


def examples() -> list[Example]:
    """Every command line of the documents' sh blocks (comments, `export` and `status=$?` lines left out)."""
    out = []
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for block in re.finditer(r"```(?:sh|bash|shell)\n(.*?)```", text, re.S):
            first = text[: block.start()].count("\n") + 2
            lines = block.group(1).split("\n")
            i = 0
            while i < len(lines):
                start, command = i, lines[i]
                while command.rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    command = command.rstrip()[:-1] + " " + lines[i].strip()
                i += 1
                words = command.split("#", 1)[0].strip() if not command.lstrip().startswith("#") else ""
                if words and not words.startswith(("export ", "status=")):
                    out.append(Example(path.name, first + start, " ".join(command.split())))
    return out


def _where(example: Example) -> str | None:
    for table in (ELSEWHERE, NOT_RUN):
        for start, said in table.items():
            if example.command.startswith(start):
                return said
    return None


def test_every_example_is_run_by_a_test() -> None:
    found = examples()
    assert len(found) >= 20, found  # the documents' examples were read
    for example in found:
        said = _where(example)
        if said is None:
            assert _runnable(example.command), f"no test runs {example}"
        elif said.startswith("tests/"):
            file, _, name = said.partition("::")
            text = (ROOT / file).read_text(encoding="utf-8")
            assert not name or f"def {name}(" in text, f"{example}: no {said}"
            program = example.command.split()[2 if example.command.startswith("python") else 0]
            assert program.split("=")[0] in text or "qemu" in file, f"{example}: {said} does not run {program}"


def _runnable(command: str) -> bool:
    return command.startswith(("python -m perfgate ", "perfgate ", ".venv/bin/perfgate ", "robot ", ".venv/bin/robot "))


def _fill(command: str, server: squadserver.Server, runs: dict[str, str]) -> str:
    """The example as this test runs it: what the documents leave to the reader filled in, nothing else."""
    text = re.sub(r"\s\[[^\]]*\]", "", command)  # [--build 12.00.00]: optional, left out
    fill = {"$BOARD": "am62xx_sk", "<board>": "am62xx_sk", "$LAB": "sim", "<lab>": "sim", "LAB:mylab": "LAB:sim",
            "$SUITES": "suites/",
            "https://squad.example.org/ti-sdk/perfgate/": f"{server.url}/{server.group}/{server.project}/",
            "https://squad.example.org": server.url, "--group ti-sdk": f"--group {server.group}",
            "--project perfgate": f"--project {server.project}", **runs}  # fmt: skip
    for old, new in fill.items():
        text = text.replace(old, new)
    return text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    if not squadserver.installed():
        pytest.skip("SQUAD not installed (.venv-squad): ./setup.sh --tests installs it")
    s = squadserver.start(tmp_path_factory.mktemp("squad"))
    try:
        yield s
    finally:
        s.stop()


@pytest.mark.slow
@pytest.mark.squad
def test_the_examples_run_as_written(tmp_path: Path, server: squadserver.Server) -> None:
    work = tmp_path / "work"
    for name in ("suites", "resources", "variables", "libraries", "guides"):  # a checkout: the documents' paths
        work.mkdir(exist_ok=True)
        (work / name).symlink_to(ROOT / name)
    (work / ".venv").symlink_to(Path(sys.executable).parent.parent)  # .venv/bin/perfgate, python, robot: this one
    results = work / "results"
    path = f"{work / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"
    env = {**os.environ, "PATH": path, "PERFGATE_RESULTS": str(results), "ROBOT_OPTIONS": FAST,
           "SQUAD_TOKEN": server.token, "PYTHONPATH": str(ROOT / "libraries"), "PERFGATE_NO_COLLECT": "1"}  # fmt: skip
    env.pop("PERFGATE_ROOT", None)
    mine = [e for e in examples() if _where(e) is None]
    gates = [e for e in mine if e.command.startswith(("robot", ".venv/bin/robot"))]
    gates.sort(key=lambda e: "SQUAD:" not in e.command)  # the run that publishes itself first: latest is not
    readers = [e for e in mine if e not in gates]
    runs: dict[str, str] = {}

    def run(example: Example) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-c", _fill(example.command, server, runs)], cwd=work, env=env,
                              capture_output=True, text=True, timeout=600, check=False)  # fmt: skip

    for example in gates:
        p = run(example)
        assert p.returncode == 0, f"{example}\n{p.stdout[-3000:]}{p.stderr[-2000:]}"
    made = sorted((results / "virtual" / "am62xx_sk").glob("2*"))
    assert len(made) == len(gates) >= 3, made
    lp_gate = ["robot", "--outputdir", str(tmp_path / "lp"), "-v", "BOARD:am62xx_lp_sk", "suites/"]
    subprocess.run(lp_gate, cwd=work, env=env, capture_output=True, timeout=600, check=False)  # for `compare`
    (lp,) = sorted((results / "virtual" / "am62xx_lp_sk").glob("2*"))
    # the documents' dated run names: this test's runs (the first am62xx_sk run, the am62xx_lp_sk run)
    for example in readers:
        for name in re.findall(r"results/(\w+)/(\d{8}-\d{6})", example.command):
            runs[f"results/{name[0]}/{name[1]}"] = str(lp if name[0] == "am62xx_lp_sk" else made[0])
    for example in readers:
        p = run(example)
        ok = (0, 1) if " compare " in example.command else (0,)  # compare: 1 when something regressed (ci.md)
        assert p.returncode in ok and "Traceback" not in p.stderr, f"{example}\n{p.stdout[-3000:]}{p.stderr[-2000:]}"
        if example.command.startswith("python -m perfgate publish squad"):
            assert "published" in p.stdout, p.stdout
    squad = [e for e in readers if "publish squad" in e.command]
    assert squad and "results/am62xx_sk/latest" in squad[0].command  # the example issue 32 found failing
