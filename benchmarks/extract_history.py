"""Extract every version of TI's performance guides from a clone of TexasInstruments/processor-sdk-doc.

    python benchmarks/extract_history.py GIT_DIR OUT_FOLDER

GIT_DIR is a clone (bare or not) of https://github.com/TexasInstruments/processor-sdk-doc. Every distinct
(path, content) of a file whose path holds `Performance_Guide`, in any commit of any branch
(`git log --all -- '*Performance_Guide*'`), is written once, named by the first commit that has it:
`<commit date>_<commit[:8]>__<path, / as __>.rst`, with OUT_FOLDER/manifest.json listing file, path, revision, date
and blob. The folder is what benchmarks/import_history.py and `perfgate guides history` read. It is large (about
500 versions, 16 MB): keep it outside the repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def git(git_dir: str, *args: str, stdin: str | None = None) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], input=stdin, capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    git_dir, out = sys.argv[1], Path(sys.argv[2])
    log = git(git_dir, "log", "--all", "--format=C %H %cI", "--name-only", "--", "*Performance_Guide*")
    items: list[tuple[str, str, str]] = []
    commit = date = ""
    for line in log.splitlines():
        if line.startswith("C "):
            _, commit, date = line.split()
        elif line.strip():
            items.append((commit, date, line.strip()))
    checks = git(git_dir, "cat-file", "--batch-check", stdin="".join(f"{c}:{p}\n" for c, _, p in items))
    present = [(c, d, p, line.split()[0]) for (c, d, p), line in zip(items, checks.splitlines(), strict=True)
               if not line.endswith("missing")]  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    seen: set[tuple[str, str]] = set()
    manifest = []
    for c, d, p, blob in sorted(present, key=lambda x: x[1]):  # oldest first: named by the first commit
        if (p, blob) in seen:
            continue
        seen.add((p, blob))
        slug = p.removeprefix("source/").replace("/", "__").removesuffix(".inc")
        name = f"{d[:10]}_{c[:8]}__{slug}"
        data = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "blob", blob], capture_output=True,
                              check=True).stdout  # fmt: skip
        (out / name).write_bytes(data)
        manifest.append({"file": name, "path": p, "revision": c, "date": d, "blob": blob})
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"{len(manifest)} versions of {len({m['path'] for m in manifest})} paths in {out}")
    return 0 if manifest else 1


if __name__ == "__main__":
    sys.exit(main())
