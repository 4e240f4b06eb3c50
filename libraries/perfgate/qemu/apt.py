"""arm64 packages from Debian's archive with a private apt state.

Nothing touches the host's dpkg database or its apt configuration: lists, cache and sources live under the
build folder, the package status is /dev/null, and the architecture is forced to arm64.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

from perfgate.errors import PerfgateError

LISTS_MAX_AGE = 6 * 3600  # seconds before the private package lists are refreshed


class AptError(PerfgateError):
    """apt-get failed; the message carries its output."""


class PrivateApt:
    def __init__(self, state: Path, archive: tuple[str, ...], arch: str = "arm64") -> None:
        self.state = state
        self.archive = archive
        self.arch = arch
        self._shown: dict[str, dict[str, str]] = {}
        for d in ("lists/partial", "cache/archives/partial", "etc/sources.list.d", "etc/preferences.d"):
            (state / d).mkdir(parents=True, exist_ok=True)
        sources = state / "etc" / "sources.list"
        text = "\n".join(archive) + "\n"
        if not sources.exists() or sources.read_text(encoding="utf-8") != text:
            sources.write_text(text, encoding="utf-8")
            for f in (state / "lists").glob("*_*"):
                f.unlink()

    def options(self) -> list[str]:
        s = self.state
        opts = {
            "APT::Architecture": self.arch,
            "APT::Architectures::": self.arch,
            "Dir::State::Lists": s / "lists",
            "Dir::Cache": s / "cache",
            "Dir::State::status": "/dev/null",
            "Dir::Etc::SourceList": s / "etc" / "sources.list",
            "Dir::Etc::SourceParts": s / "etc" / "sources.list.d",
            "Dir::Etc::Preferences": "/dev/null",
            "Dir::Etc::PreferencesParts": s / "etc" / "preferences.d",
            "APT::Sandbox::User": "root",
            "Acquire::Retries": "3",
        }
        out: list[str] = []
        for k, v in opts.items():
            out += ["-o", f"{k}={v}"]
        return out

    def _run(self, tool: str, *args: str, cwd: Path | None = None, timeout: float = 600) -> str:
        cmd = [tool, *self.options(), *args]
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
        if p.returncode != 0:
            tail = (p.stderr or p.stdout).strip().splitlines()[-8:]
            raise AptError(f"`{tool} {' '.join(args)}` failed (exit {p.returncode}):\n  " + "\n  ".join(tail))
        return p.stdout

    def update(self, force: bool = False) -> bool:
        """Refresh the package lists when they are missing or older than LISTS_MAX_AGE. True if refreshed."""
        lists = [f for f in (self.state / "lists").glob("*_Packages*")]
        if lists and not force and time.time() - min(f.stat().st_mtime for f in lists) < LISTS_MAX_AGE:
            return False
        self._run("apt-get", "-q", "update")
        self._shown.clear()
        return True

    def show(self, packages: list[str]) -> dict[str, dict[str, str]]:
        """The candidate's control fields of each package, in one apt-cache call."""
        todo = [p for p in packages if p not in self._shown]
        if todo:
            out = self._run("apt-cache", "show", "--no-all-versions", *todo)
            for para in out.split("\n\n"):
                fields = dict(re.findall(r"^([A-Za-z-]+): (.*)$", para, re.M))
                if "Package" in fields:
                    self._shown.setdefault(fields["Package"], fields)
        missing = [p for p in packages if p not in self._shown]
        if missing:
            raise AptError(f"no {self.arch} package {', '.join(missing)} in the private lists")
        return {p: self._shown[p] for p in packages}

    def version(self, package: str) -> str:
        return self.show([package])[package]["Version"]

    def versions(self, packages: list[str]) -> dict[str, str]:
        return {p: f["Version"] for p, f in self.show(packages).items()}

    def depends(self, package: str) -> list[str]:
        depends = self.show([package])[package].get("Depends", "")
        return [re.split(r"[\s(]", d.strip())[0] for d in depends.split(",") if d.strip()]

    def download(self, packages: list[str], into: Path) -> dict[str, Path]:
        """Download the candidates of `packages` (reusing files already there); package -> .deb path."""
        into.mkdir(parents=True, exist_ok=True)
        wanted = self.versions(packages)
        result: dict[str, Path] = {}
        missing = []
        for p, v in wanted.items():
            found = _deb_file(into, p, v)
            if found:
                result[p] = found
            else:
                missing.append(p)
        if missing:
            self._run("apt-get", "-q", "download", *missing, cwd=into)
            for p in missing:
                found = _deb_file(into, p, wanted[p])
                if not found:
                    raise AptError(f"apt-get download {p} left no .deb for version {wanted[p]} in {into}")
                result[p] = found
        return result

    def source(self, package: str, into: Path) -> Path:
        """Download and unpack the source package; returns the unpacked tree."""
        into.mkdir(parents=True, exist_ok=True)
        version = self.version(package)
        upstream = version.split(":")[-1].rsplit("-", 1)[0]
        tree = into / f"{package}-{upstream}"
        if not tree.is_dir():
            self._run("apt-get", "-q", "source", package, cwd=into, timeout=900)
        if not tree.is_dir():
            raise AptError(f"apt-get source {package} did not unpack {tree}")
        return tree


def _deb_file(folder: Path, package: str, version: str) -> Path | None:
    quoted = version.replace(":", "%3a")
    for f in folder.glob(f"{package}_*.deb"):
        if f.name.startswith(f"{package}_{quoted}_") or f.name.startswith(f"{package}_{version}_"):
            return f
    return None


def extract(deb: Path, into: Path, only: list[str] | None = None) -> None:
    """Unpack a .deb into `into`; with `only`, just the members matching those tar wildcards (a pattern that
    matches nothing is not an error here: the caller checks for what it needs)."""
    into.mkdir(parents=True, exist_ok=True)
    if only is None:
        p = subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], capture_output=True, text=True, check=False)
    else:
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE)
        p = subprocess.run(
            ["tar", "-x", "-C", str(into), "--wildcards", *only],
            stdin=tar.stdout,
            capture_output=True,
            text=True,
            check=False,
        )
        tar.wait()
        errors = [e for e in p.stderr.splitlines() if "Not found in archive" not in e and "Exiting with" not in e]
        if p.returncode == 2 and not errors:
            return
    if p.returncode != 0:
        raise AptError(f"cannot unpack {deb.name}: {p.stderr.strip()}", deb)
