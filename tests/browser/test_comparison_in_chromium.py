"""comparison.html as a person sees it: Debian's chromium, headless, renders a full synthetic am62xx_sk run.

The screenshot is kept in results/browser/comparison.png (look at it). Skipped when chromium is not installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from matplotlib.image import imread

from perfgate import paths
from perfgate.report import html, sample

CHROMIUM = shutil.which("chromium") or (Path("/usr/bin/chromium") if Path("/usr/bin/chromium").exists() else None)
CRITERIA = Path(__file__).parents[1] / "fixtures" / "report" / "am62xx_sk-criteria.json"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian package chromium)")


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="perfgate-chromium-") as profile:
        return subprocess.run(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip


@pytest.fixture(scope="module")
def page() -> Path:
    out = paths.root() / "results" / "browser"
    shutil.rmtree(out, ignore_errors=True)
    run_dir = out / "am62xx_sk" / "20261122-080000"
    meta = {"board": "am62xx_sk", "lab": "sim", "virtual": True, "guide": "linux-10.00-am62x.rst", "release": "10.00",
            "command": "robot -v BOARD:am62xx_sk suites/"}  # fmt: skip
    return sample.record_run(run_dir, json.loads(CRITERIA.read_text(encoding="utf-8")), meta).finish({})


def test_screenshot_shows_the_virtual_banner_and_charts(page: Path) -> None:
    shot = paths.root() / "results" / "browser" / "comparison.png"
    p = _chromium("--window-size=1280,1600", "--hide-scrollbars", f"--screenshot={shot}", page.as_uri())
    assert shot.exists(), p.stderr[-2000:]
    img = imread(shot)  # floats 0..1, rows x columns x RGB(A)
    assert img.shape[0] == 1600 and img.shape[1] == 1280
    top = img[5:60, :, :3]
    red, green, blue = (top[..., i].mean() for i in range(3))
    assert red > 0.7 and green < 0.4 and blue < 0.2, (
        f"no red/orange banner at the top ({red:.2f} {green:.2f} {blue:.2f})"
    )
    body = img[600:1600, :, :3]
    assert (body.std(axis=(0, 1)) > 0.05).all(), "the page below the banner is blank"


def test_rendered_dom_with_the_failure_filter(page: Path) -> None:
    p = _chromium("--dump-dom", page.as_uri() + "?filter=fail")
    dom = p.stdout
    assert "<title>" + html.VIRTUAL_BANNER in dom, p.stderr[-2000:]
    entries = json.loads((page.parent / "metrics.json").read_text())
    assert len(re.findall(r'<figure class="chart"[^>]*><svg', dom)) == len({e["suite"] for e in entries})
    rows = re.findall(r'<tr class="row-[\w-]+" data-verdict="([\w-]+)" data-id="[^"]+"( hidden="")?>', dom)
    assert len(rows) == len(entries)
    shown = [v for v, hidden in rows if not hidden]
    assert shown and set(shown) <= {"fail", "not-measured"}
    assert len(shown) == sum(e["verdict"] in ("fail", "not-measured") for e in entries)
    assert re.search(r'<button type="button" data-filter="fail" class="active">', dom)
    assert 'data-filter="fail"' in re.search(r"<body[^>]*>", dom).group(0)
