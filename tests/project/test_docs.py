"""The documentation is reachable where perfgate is (issue 32, item 7): `perfgate docs [topic]` lists and prints
docs/ from a checkout (an installed package: tests/project/test_install.py), and the README `perfgate init` writes sends
the user to a document that describes every key of a lab file.

Before: docs/ was not in the wheel, there was no `perfgate docs`, and the init README pointed at
docs/custom-board.md, which describes no lab key."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from perfgate.board.lab import LAB_KEYS
from perfgate.board.lab_labgrid import KEYS as LABGRID_KEYS
from perfgate.lava.settings import KEYS as LAVA_KEYS
from testpaths import ROOT


def perfgate(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfgate", *args], capture_output=True, text=True, timeout=60,
                          check=False, cwd=cwd)  # fmt: skip


def documented(text: str, key: str) -> bool:
    """`key` is named as a key in the document: `key:`, `key` in backquotes, or `{key,` in a flow mapping."""
    return re.search(rf"(?<![\w.-]){re.escape(key)}(?:: |`|:`|:\n)", text) is not None


def test_perfgate_docs_lists_and_prints_the_topics(tmp_path: Path) -> None:
    p = perfgate("docs", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    for topic in ("labs", "lava", "squad", "ci", "custom-board", "architecture"):
        assert re.search(rf"^{topic}\s+\S.*\({re.escape(str(ROOT / 'docs' / topic))}\.md\)$", p.stdout, re.M), p.stdout
    p = perfgate("docs", "labs", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == (ROOT / "docs" / "labs.md").read_text(encoding="utf-8")
    p = perfgate("docs", "lava.md", "--path", cwd=tmp_path)
    assert p.stdout.strip() == str(ROOT / "docs" / "lava.md")
    p = perfgate("docs", "lavaa", cwd=tmp_path)
    assert p.returncode == 2 and "no topic 'lavaa'; topics: architecture, ci, custom-board, labs, lava" in p.stderr


def test_the_labs_document_describes_every_lab_key() -> None:
    text = (ROOT / "docs" / "labs.md").read_text(encoding="utf-8")
    missing = [k for k in sorted(LAB_KEYS) if not documented(text, k)]
    assert not missing, f"docs/labs.md does not describe: {missing}"
    for key in ("port", "baud", "password_env", "address", "key", "known_hosts", "host_keys", *LABGRID_KEYS):
        assert documented(text, key), key
    lava = (ROOT / "docs" / "lava.md").read_text(encoding="utf-8")  # labs.md sends the lava keys there
    assert "docs/lava.md" in text
    assert not [k for k in LAVA_KEYS if not documented(lava, k)], [k for k in LAVA_KEYS if not documented(lava, k)]


def test_the_readme_init_writes_points_at_the_lab_keys(tmp_path: Path) -> None:
    p = perfgate("init", "bench-9", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    readme = (tmp_path / "bench-9" / "README.md").read_text(encoding="utf-8")
    docs = re.findall(r"docs/([\w-]+)\.md", readme)
    assert docs, readme
    for name in docs:
        text = (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
        assert not [k for k in LAB_KEYS if not documented(text, k)], f"docs/{name}.md does not describe lab keys"
    assert "`perfgate docs labs`" in readme
