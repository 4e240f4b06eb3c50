"""kind: lava labs without a server: the lab's `lava:` mapping (errors name file, key and line), the job the gate
renders, and the log read back byte for byte (a real LAVA 2023.01 job log, tests/fixtures/lava/PROVENANCE.md).
The real server's tests are in test_lava_real.py."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from perfgate.board.lab import load
from perfgate.board.traits import no_console_reason, no_uboot_reason
from perfgate.errors import DataError
from perfgate.lava import job as jobdef
from perfgate.lava import log as joblog
from perfgate.lava import settings as lava_settings
from perfgate.lava.client import JobState, failure
from perfgate.lava.session import JobFailed, Planned, Session
from perfgate.workloads.boot_time import WORKLOAD as BOOT_TIME
from testpaths import FIXTURES

LAVA_FIXTURES = FIXTURES / "lava"
TOKEN = "80e1a9698571"  # the nonce of the fixture job (job-definition-two-commands.yaml)
FIRST = "printf 'a\\tb\\r\\n\\x01x'; echo err >&2; exit 3"

LAB = """\
name: lkft
kind: lava
lava:
  server: https://lava.example.org/
  user: ci-bot
  token_env: PERFGATE_TEST_LAVA_TOKEN
  device_type: qemu
  tags: [perf]
  context: {arch: arm64}
  deploy:
    to: tmpfs
    images:
      kernel: {image_arg: "-kernel {kernel}", url: "https://images.example.org/Image"}
  boot: {method: qemu, media: tmpfs, prompts: ["# "]}
  timeouts: {queue: 60, job: 900}
  max_jobs: 3
tester: {address: 10.0.2.2}
has: [ethernet]
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "lkft.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_lava_lab_loads_with_its_xmlrpc_endpoint_and_skips_what_needs_the_console(tmp_path):
    lab = load(str(write(tmp_path, LAB)), "qemu_arm64")
    s = lava_settings.settings(lab)
    assert s.server == "https://lava.example.org/RPC2"  # the web UI's base: the XML-RPC endpoint beside it
    assert s.job_url(12) == "https://lava.example.org/scheduler/job/12"
    assert s.timeouts["queue"] == 60 and s.max_jobs == 3 and s.tags == ["perf"]
    assert not lab.virtual  # a LAVA lab may hold real boards: hardware unless it says so
    assert "LAVA lab https://lava.example.org/RPC2, device type qemu: hardware" in lab.banner()
    from perfgate.board.lab import board_profile

    profile = board_profile("qemu_arm64", lab)
    assert "LAVA owns the board" in (no_uboot_reason(profile) or "")
    assert "LAVA owns the board" in (no_console_reason(profile) or "")
    assert "LAVA owns the board" in (BOOT_TIME.applicable([], profile, lab.data) or "")


@pytest.mark.parametrize(
    ("old", "new", "message", "line"),
    [
        ("server: https://lava.example.org/", "server: lava.example.org", "lava.server: must be the LAVA server", 4),
        ("server: https://lava.example.org/", "server: https://bot:secret@lava.example.org/", "must not carry", 4),
        ("  token_env: PERFGATE_TEST_LAVA_TOKEN\n", "  token_env: PERFGATE_TEST_LAVA_TOKEN\n  token: abc\n",
         "lava.token: never put the token in the lab file", 7),
        ("device_type: qemu", "device_type: 'qemu; reboot'", "lava.device_type: must be a LAVA device type name", 7),
        ("  boot: {method: qemu, media: tmpfs, prompts: [\"# \"]}", "  boot: {media: tmpfs}",
         "lava.boot: must be LAVA's boot action", 14),
        ("timeouts: {queue: 60, job: 900}", "timeouts: {queue: 60s}", "lava.timeouts.queue: must be", 15),
        ("timeouts: {queue: 60, job: 900}", "timeouts: {wait: 60}", "lava.timeouts.wait: unknown timeout", 15),
        ("max_jobs: 3", "max_jobs: 0", "lava.max_jobs: must be a whole number of jobs", 16),
        ("tester: {address: 10.0.2.2}", "tester: {address: 10.0.2.2}\nserial: {port: /dev/ttyUSB0}",
         "serial: a lava lab's console is LAVA's", 18),
    ],
)  # fmt: skip
def test_bad_lava_settings_name_the_file_key_and_line(tmp_path, old, new, message, line):
    p = write(tmp_path, LAB.replace(old, new, 1))
    with pytest.raises(DataError) as e:
        load(str(p), "qemu_arm64")
    assert message in str(e.value)
    assert str(e.value).startswith(f"{p}:{line}: "), str(e.value)


def test_the_token_comes_from_the_environment_or_lavacli_identity_never_the_file(tmp_path, monkeypatch):
    lab = load(str(write(tmp_path, LAB)), "qemu_arm64")
    s = lava_settings.settings(lab)
    monkeypatch.delenv("PERFGATE_TEST_LAVA_TOKEN", raising=False)
    with pytest.raises(
        DataError, match=r"lava\.token_env: the environment variable PERFGATE_TEST_LAVA_TOKEN is not set"
    ):
        s.token()
    monkeypatch.setenv("PERFGATE_TEST_LAVA_TOKEN", "s3cret")
    assert s.token() == "s3cret"
    ident = tmp_path / "lavacli.yaml"
    ident.write_text("lkft: {uri: 'https://lava.example.org/RPC2', username: ci-bot, token: from-lavacli}\n")
    text = LAB.replace("token_env: PERFGATE_TEST_LAVA_TOKEN", f"identity: lkft\n  identity_file: {ident}")
    s = lava_settings.settings(load(str(write(tmp_path, text)), "qemu_arm64"))
    assert s.token() == "from-lavacli"
    s.identity = "other"
    with pytest.raises(DataError, match="has no identity 'other' with a token"):
        s.token()


def test_the_rendered_job_is_the_labs_actions_and_one_inline_test(tmp_path):
    s = lava_settings.settings(load(str(write(tmp_path, LAB)), "qemu_arm64"))
    cmds = [jobdef.Command(1, "openssl speed -evp 'aes-128-cbc'", 300), jobdef.Command(2, "echo $HOME; uname -a", 30)]
    job = yaml.safe_load(jobdef.render(s, cmds, "abc123", board="qemu_arm64", suites="openssl"))
    assert (
        job["device_type"] == "qemu" and job["tags"] == ["perf"] and job["job_name"] == "perfgate qemu_arm64: openssl"
    )
    assert [next(iter(a)) for a in job["actions"]] == ["deploy", "boot", "test"]
    assert job["actions"][0]["deploy"]["images"]["kernel"]["url"] == "https://images.example.org/Image"
    assert job["timeouts"]["job"] == {"seconds": 900}
    steps = job["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"]
    assert steps[0].startswith("pgrun() {")
    assert [shlex.split(step)[3] for step in steps[1:]] == [c.command for c in cmds]  # quoted, whole
    assert job["actions"][2]["test"]["timeout"] == {"seconds": 300 + 30 + 120}


def test_the_helper_delimits_the_output_byte_for_byte_under_set_e(tmp_path):
    """The step's shell function, run here by dash under `set -e` as LAVA's run.sh does (lava-test-case stubbed)."""
    stub = tmp_path / "lava-test-case"
    stub.write_text('#!/bin/sh\necho "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$1 RESULT=$3>"\n')
    stub.chmod(0o755)
    first = FIRST.replace("\\x01", "\\001")  # dash's printf knows octal escapes only (busybox's knows both)
    script = "set -e\n" + jobdef.helper("feed42") + "\n" + jobdef.step(jobdef.Command(1, first, 10)) + "\necho after\n"
    p = subprocess.run(["sh", "-c", script], capture_output=True, env={"PATH": f"{tmp_path}:/usr/bin:/bin"},
                       check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    lines = p.stdout.decode().splitlines()
    assert lines[-1] == "after" and "RESULT=fail" in lines[-2]  # the command's exit 3 did not end the script
    out = joblog.outputs([{"lvl": "target", "msg": line} for line in lines], "feed42")[1]
    assert out.rc == 3 and out.complete and out.data == b"a\tb\r\n\x01xerr\n"


def test_a_real_job_log_gives_each_output_back_byte_for_byte():
    log = joblog.entries((LAVA_FIXTURES / "job-log-two-commands.yaml").read_bytes())
    assert len(log) > 400 and joblog.lines(log)
    outs = joblog.outputs(log, TOKEN)
    assert outs[1].text == "a\tb\r\n\x01xerr\n" and outs[1].rc == 3 and outs[1].complete
    assert outs[2].text.startswith("Linux perfgate-qemu 6.1.0-56-arm64 ") and outs[2].rc == 0
    # the same line as LAVA's console log shows it has lost the carriage return and the control character
    assert "a\tb\r\n\x01x" not in "\n".join(joblog.lines(log))
    assert joblog.running(log, TOKEN) is None and joblog.stage(log) == "finalize"
    assert joblog.outputs(log, "000000000000") == {}  # another job's nonce matches nothing
    definition = (LAVA_FIXTURES / "job-definition-two-commands.yaml").read_text()
    assert "pgrun 1 600 " in definition and TOKEN in definition


def test_a_damaged_output_is_an_error_not_a_different_output():
    log = joblog.entries((LAVA_FIXTURES / "job-log-two-commands.yaml").read_bytes())
    prefix = f"PERFGATE:{TOKEN}:2:"
    first = next(e for e in log if isinstance(e.get("msg"), str) and e["msg"].startswith(prefix))
    first["msg"] = prefix + first["msg"][len(prefix) + 4 :]  # a garbled line: 3 bytes of output lost, still base64
    out = joblog.outputs(log, TOKEN)[2]
    assert not out.complete and "SHA-256 differs" in out.problem and out.text == ""


def test_a_failed_job_names_lavas_error_type_and_message():
    results = joblog.entries((LAVA_FIXTURES / "job-results-bad-image-url.yaml").read_text())
    reason = failure(results, JobState(14, "Finished", "Incomplete"))
    assert reason.startswith("Job: Invalid job data:") and "/nonexistent/perfgate/initramfs.cpio.gz" in reason
    assert failure([], JobState(15, "Finished", "Canceled", failure_comment="")) == "the job ended Canceled"


class FakeClient:
    """Stands in for the server only to count jobs: each job 'runs' by echoing its commands through the real
    helper under sh, and its log is what LAVA would keep of that console (one entry per line)."""

    def __init__(self, tmp_path: Path, health: str = "Complete") -> None:
        stub = tmp_path / "lava-test-case"
        stub.write_text("#!/bin/sh\n")
        stub.chmod(0o755)
        self.path = f"{tmp_path}:/usr/bin:/bin"
        self.definitions: list[str] = []
        self.health = health

    def submit(self, definition: str) -> list[int]:
        self.definitions.append(definition)
        return [len(self.definitions)]

    def state(self, job_id: int) -> JobState:
        return JobState(job_id, "Finished", self.health, "qemu01")

    def queue_position(self, job_id: int) -> None:
        return None

    def logs(self, job_id: int, start: int = 0) -> tuple[bool, list[dict]]:
        job = yaml.safe_load(self.definitions[job_id - 1])
        steps = job["actions"][-1]["test"]["definitions"][0]["repository"]["run"]["steps"]
        script = "set -e\n" + "\n".join(steps)
        if self.health != "Complete":
            script = "\n".join(script.splitlines()[:-1])  # the job stopped before its last command
        out = subprocess.run(["sh", "-c", script], capture_output=True, text=True, env={"PATH": self.path},
                             check=True).stdout  # fmt: skip
        return True, [{"lvl": "target", "msg": line} for line in out.splitlines()][start:]

    def results(self, job_id: int) -> list[dict]:
        return [{"suite": "lava", "name": "job", "metadata": {"error_type": "Infrastructure",
                                                               "error_msg": "qemu exited"}}]  # fmt: skip


def session(tmp_path: Path, client: FakeClient) -> Session:
    s = lava_settings.settings(load(str(write(tmp_path, LAB)), "qemu_arm64"))
    s.poll = 0.01
    return Session(s, client, board="qemu_arm64", say=lambda _m: None)  # type: ignore[arg-type]


def test_one_job_for_the_plan_a_follow_up_per_round_and_the_budget(tmp_path):
    c = FakeClient(tmp_path)
    sess = session(tmp_path, c)
    plan = [Planned("a", "echo one"), Planned("a", "echo two"), Planned("b", "echo one"), Planned("b", "echo three")]
    sess.start(plan)
    assert len(c.definitions) == 1 and c.definitions[0].count("pgrun 3 ") == 1  # `echo one` runs once
    for cmd in ("echo one", "echo two", "echo one", "echo three"):  # both suites read `echo one`
        assert sess.run(cmd) == cmd[5:] + "\n"
    assert len(c.definitions) == 1
    assert sess.run("echo two") == "two\n"  # asked again: suite a's round in one follow-up job
    assert len(c.definitions) == 2 and "echo one" in c.definitions[1]
    assert sess.run("echo one") == "one\n" and len(c.definitions) == 2  # served from that job
    assert sess.run("echo four") == "four\n" and len(c.definitions) == 3  # no plan foresaw it
    with pytest.raises(JobFailed, match=r"job budget is used up \(3 jobs: lava\.max_jobs"):
        sess.run("echo five")
    assert sess.summary()["jobs_used"] == 3


def test_an_incomplete_job_keeps_what_it_finished_and_fails_the_rest_with_lavas_reason(tmp_path):
    c = FakeClient(tmp_path, "Incomplete")
    sess = session(tmp_path, c)
    sess.start([Planned("a", "echo one"), Planned("a", "echo two")])
    assert sess.run("echo one") == "one\n"
    with pytest.raises(JobFailed, match=r"LAVA job 1 \(https://lava.example.org/scheduler/job/1\) ended Incomplete: "
                                        r"Infrastructure: qemu exited"):  # fmt: skip
        sess.run("echo two")
    with pytest.raises(JobFailed):  # asked again: not another job for a command its job failed
        sess.run("echo two")
    assert len(c.definitions) == 1


# ------------------------------------------------------------------------- issue 32: the criteria's values in LAVA

LAVA_SHELL = Path("/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell")  # Debian's lava-dispatcher
PARSE = """\
import json, sys
from lava_dispatcher.actions.test.shell import handle_testcase
from lava_dispatcher.connection import SignalMatch
out = []
for line in sys.stdin:
    line = line.strip()
    assert line.startswith("<LAVA_SIGNAL_TESTCASE ") and line.endswith(">"), line
    out.append(SignalMatch().match(handle_testcase(line[len("<LAVA_SIGNAL_TESTCASE "):-1].split())))
print(json.dumps(out))
"""


def entry(cid: str, verdict: str, measured: float | None, unit: str) -> dict:
    return {"id": cid, "verdict": verdict, "measured": measured, "unit": unit}


ENTRIES = [
    entry("qemu_arm64.openssl.openssl-performance.aes-128-cbc-1024.perf", "pass", 412345.67, "KB/s"),
    entry("qemu_arm64.rt_latency.cyclictest.max-latency.perf", "fail", 182.0, "us"),
    entry("qemu_arm64.mmcsd.fio.write.perf", "warn", 40.5, "MB/s (1M blocks)"),
    entry("qemu_arm64.boot_time.boot.linux.perf", "skip", None, "s"),
    entry("qemu_arm64.ethernet.iperf3.tcp-rx.perf", "inconclusive", 1.25e-05, "Mbit/s"),
    entry("qemu_arm64." + "very-long-table-name." * 8 + "perf", "pass", 3.0, "ms"),
]


def test_each_criterion_is_a_lava_test_case_with_its_value_and_unit(tmp_path):
    """The results job's steps are LAVA's `lava-test-case <name> --result R --measurement V --units U`, run here
    through LAVA's own lava-test-case script and read back by LAVA's own signal parser (Debian's lava-dispatcher):
    each criterion's result, value and unit arrive as LAVA stores them. Before, the job's test cases were
    `perfgate-<n>` pass/fail by exit status, with no measurement."""
    if not (LAVA_SHELL / "lava-test-case").exists():
        pytest.skip("needs lava-dispatcher (./setup.sh --tests installs it)")
    s = lava_settings.settings(load(str(write(tmp_path, LAB)), "qemu_arm64"))
    job = yaml.safe_load(jobdef.render_results(s, ENTRIES, board="qemu_arm64"))
    assert [next(iter(a)) for a in job["actions"]] == ["deploy", "boot", "test"]  # LAVA boots the board for it
    definition = job["actions"][2]["test"]["definitions"][0]
    assert definition["name"] == "perfgate-criteria"
    steps = definition["repository"]["run"]["steps"]
    assert len(steps) == len(ENTRIES)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("lava-test-case", "lava-common-functions"):
        script = bin_dir / name
        script.write_text("#!/bin/sh\n" + (LAVA_SHELL / name).read_text(encoding="utf-8"), encoding="utf-8")
        script.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LAVA_RESULT_DIR": str(tmp_path / "results")}
    p = subprocess.run(["sh", "-c", "set -e\n" + "\n".join(steps)], capture_output=True, text=True, env=env,
                       check=False)  # fmt: skip
    assert p.returncode == 0, p.stderr
    parsed = subprocess.run(["/usr/bin/python3", "-c", PARSE], input=p.stdout, capture_output=True, text=True,
                            check=False)  # fmt: skip
    assert parsed.returncode == 0, parsed.stderr
    cases = json.loads(parsed.stdout)
    assert [(c["test_case_id"], c["result"], c.get("measurement"), c.get("units")) for c in cases[:5]] == [
        ("openssl.openssl-performance.aes-128-cbc-1024.perf", "pass", 412345.67, "KB/s"),
        ("rt_latency.cyclictest.max-latency.perf", "fail", 182.0, "us"),
        ("mmcsd.fio.write.perf", "pass", 40.5, "MB/s_(1M_blocks)"),  # warn: passed, with a warning
        ("boot_time.boot.linux.perf", "skip", None, None),  # not measured: its result, no number
        ("ethernet.iperf3.tcp-rx.perf", "unknown", 1.25e-05, "Mbit/s"),
    ]
    long = cases[5]["test_case_id"]
    assert len(long) == 100 and long == jobdef.case_name(ENTRIES[5]["id"], "qemu_arm64"), long  # LAVA keeps 100
    assert (tmp_path / "results" / "results" / "mmcsd.fio.write.perf" / "measurement").read_text() == "40.5\n"


def test_the_results_job_runs_last_outside_the_budget_and_can_be_turned_off(tmp_path):
    c = FakeClient(tmp_path)
    sess = session(tmp_path, c)
    sess.start([Planned("a", "echo one")])
    assert sess.run("echo one") == "one\n"
    rec = sess.report(ENTRIES[:2])
    assert rec is not None and rec.health == "Complete" and len(c.definitions) == 2
    assert "lava-test-case openssl.openssl-performance.aes-128-cbc-1024.perf --result pass --measurement " \
           "412345.67 --units KB/s" in c.definitions[1]  # fmt: skip
    assert sess.summary()["jobs_used"] == 1 and len(sess.summary()["jobs"]) == 2  # it measures nothing
    assert sess.report([]) is None and len(c.definitions) == 2
    lab = LAB.replace("  max_jobs: 3\n", "  max_jobs: 3\n  report: false\n")
    assert not lava_settings.settings(load(str(write(tmp_path, lab)), "qemu_arm64")).report
    with pytest.raises(DataError, match=r"lava.report: must be true or false"):
        load(str(write(tmp_path, LAB.replace("  max_jobs: 3\n", "  max_jobs: 3\n  report: maybe\n"))), "qemu_arm64")
