"""Packaging hook (the metadata is in pyproject.toml). A wheel or sdist carries the gate's data as perfgate/share/:
suites/, resources/, variables/, guides/ and docs/ (perfgate.paths finds them there when no checkout is around the
package), and declares requirements.txt's pins (the gate's; the tests' own are in requirements-tests.txt) as its
dependencies, so the two never drift apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SHARED = ("suites", "resources", "variables", "guides", "docs")  # perfgate.paths.SHARED


def runtime_requirements() -> list[str]:
    out = []
    for line in (HERE / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip().lower().startswith("# development"):
            break
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            out.append(line)
    return out


class BuildPyWithShare(build_py):
    """build_py, then the gate's data copied into the built package (not for an editable install, which reads the
    checkout itself)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        share = Path(self.build_lib) / "perfgate" / "share"
        for name in SHARED:
            if (share / name).exists():
                shutil.rmtree(share / name)
            shutil.copytree(HERE / name, share / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(install_requires=runtime_requirements(), cmdclass={"build_py": BuildPyWithShare})
