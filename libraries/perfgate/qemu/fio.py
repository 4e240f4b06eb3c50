"""A static arm64 fio cross-built from Debian's fio source.

Debian's arm64 fio links ≈80 MB of libraries (ceph, gluster, rdma) and would overflow a 512 MB guest's initramfs;
`./configure --build-static --disable-native --cc=aarch64-linux-gnu-gcc` gives a 2.4 MB binary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from perfgate.errors import PerfgateError


class FioBuildError(PerfgateError):
    """The cross build of fio failed; the message names the step and the log file."""


def build(tree: Path, configure: tuple[str, ...], log: Path) -> Path:
    """Configure and build fio in `tree`; returns the static binary. Output goes to `log`."""
    binary = tree / "fio"
    env = {**os.environ, "LC_ALL": "C"}
    jobs = str(max(1, min(4, os.cpu_count() or 1)))
    with log.open("w", encoding="utf-8") as out:
        for step in (["./configure", *configure], ["make", f"-j{jobs}", "fio"]):
            out.write(f"$ {' '.join(step)}\n")
            out.flush()
            p = subprocess.run(step, cwd=tree, stdout=out, stderr=subprocess.STDOUT, env=env, check=False)
            if p.returncode != 0:
                raise FioBuildError(f"`{' '.join(step)}` failed (exit {p.returncode}); see the log", log)
    if not binary.exists():
        raise FioBuildError("make finished but left no fio binary", log)
    return binary


def install(binary: Path, dest: Path, strip: str = "aarch64-linux-gnu-strip") -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(binary, dest)
    if shutil.which(strip):
        subprocess.run([strip, str(dest)], check=True, capture_output=True)
