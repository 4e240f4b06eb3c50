"""The host-load sampler of the QEMU A/B test (tests/hostload.py): a process the test started (its environment
marked) that runs as `qemu-system-*` is counted as the test's QEMU, for the CPU time it really took, and not as
another process's load. Fast: a child spinning 0.6 s of CPU time, whatever the host's load."""

from __future__ import annotations

import os
import subprocess
import sys

from hostload import HostLoad

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass\ntime.sleep(0.3)"


def test_the_tests_own_qemu_is_counted_for_its_cpu_time(tmp_path):
    load = HostLoad(str(tmp_path), period=0.1)
    load.start()
    argv = ["qemu-system-probe", "-c", SPIN]
    child = subprocess.Popen(argv, executable=sys.executable, env={**os.environ, **load.env})
    _, status, usage = os.wait4(child.pid, 0)
    load.stop()
    assert status == 0
    spun = usage.ru_utime + usage.ru_stime
    seen = sum(dt * board for dt, _, board in load.samples)
    # a process is counted from the sample that first sees it (0.1 s), until it exits (it sleeps 0.3 s after spinning)
    assert spun >= 0.6 and spun - 0.25 <= seen <= spun + 0.05, (spun, seen)
    others, samples = load.others_while_busy(0.0)
    assert samples and 0 <= others <= os.cpu_count()


def test_a_process_without_the_mark_is_not_the_tests(tmp_path):
    load = HostLoad(str(tmp_path), period=0.1)
    load.start()
    child = subprocess.Popen(["qemu-system-probe", "-c", SPIN], executable=sys.executable)
    child.wait()
    load.stop()
    assert child.returncode == 0 and not any(board for *_, board in load.samples)
