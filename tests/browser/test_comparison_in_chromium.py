"""comparison.html as a person sees it: Debian's chromium, headless, renders a full synthetic am62xx_sk run, and a
constructed run with every verdict kind, limited criteria and a history (perfgate.report.sample).

The screenshots are kept in results/browser/ (comparison.png, every-verdict.png: look at them); the tests read them
structurally: where the elements are (measured in the page by a probe script added to a copy of it), which colour the
pixels of a failed and of an inconclusive verdict have. Skipped when chromium is not installed.
"""

from __future__ import annotations

import itertools
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
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--force-device-scale-factor=1"]  # fmt: skip

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
    shutil.rmtree(out / "am62xx_sk", ignore_errors=True)
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
    assert re.search(r'<button type="button" data-filter="fail" class="f-fail active">', dom)
    assert 'data-filter="fail"' in re.search(r"<body[^>]*>", dom).group(0)


# ------------------------------------------------------------------------------ failures first, in the browser
RANK = {"fail": 0, "not-measured": 1, "inconclusive": 2, "warn": 3, "pass": 4, "skip": 5}
WIDTH, HEIGHT = 1280, 2600
PROBE = """<script>
(function () {
  function box(el) { var r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; }
  function rows(sel, root) {
    return Array.prototype.map.call((root || document).querySelectorAll(sel), function (tr) {
      return {verdict: tr.dataset.verdict, row: box(tr), badge: box(tr.querySelector("td.verdict span")),
              hidden: tr.hidden || tr.closest("section").hidden};
    });
  }
  var out = {attention: rows("#attention tbody tr"),
             first_suite: rows("tbody tr", document.querySelector("section.suite")),
             suite_rows: rows("section.suite tbody tr"), limited_rows: rows("section.suite tbody tr[data-limited]"),
             sections: {}, banner: box(document.getElementById("virtual-banner"))};
  ["attention", "limited", "by-suite"].forEach(function (id) { out.sections[id] = box(document.getElementById(id)); });
  var pre = document.createElement("pre");
  pre.id = "probe"; pre.hidden = true; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


@pytest.fixture(scope="module")
def every_verdict() -> Path:
    """The constructed run's comparison.html, and a copy of it with the probe (measures, changes nothing shown)."""
    out = paths.root() / "results" / "browser" / "every-verdict"
    shutil.rmtree(out, ignore_errors=True)
    run_dir = out / "am62xx_sk" / "20261122-080000"
    meta = {"board": "am62xx_sk", "lab": "sim", "virtual": True, "guide": "linux-10.00-am62x.rst", "release": "10.00",
            "command": "robot -v BOARD:am62xx_sk suites/"}  # fmt: skip
    sample.record_every_verdict_run(run_dir, json.loads(CRITERIA.read_text(encoding="utf-8")), meta)
    page = run_dir / "comparison.html"
    text = page.read_text(encoding="utf-8")
    (run_dir / "probe.html").write_text(text.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    return page


def _probe(page: Path, query: str = "") -> dict:
    p = _chromium(f"--window-size={WIDTH},{HEIGHT}", "--dump-dom", (page.parent / "probe.html").as_uri() + query)
    m = re.search(r'<pre id="probe" hidden="">(.*?)</pre>', p.stdout, re.S)
    assert m, p.stderr[-2000:]
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def _colour(img, box: dict) -> tuple[float, float, float]:
    """The badge's own colour: the mean of its pixels that are not its white text."""
    x0, y0 = int(box["x"]) + 2, int(box["y"]) + 2
    px = img[y0 : y0 + int(box["h"]) - 4, x0 : x0 + int(box["w"]) - 4, :3].reshape(-1, 3)
    px = px[px.min(axis=1) < 0.85]
    assert len(px), box
    r, g, b = px.mean(axis=0)
    return float(r), float(g), float(b)


def _background(img, box: dict) -> tuple[float, float, float]:
    """A row's background: its most frequent pixel colour."""
    import numpy as np

    px = img[int(box["y"]) + 1 : int(box["y"] + box["h"]) - 1, int(box["x"]) : int(box["x"] + box["w"]), :3]
    values, n = np.unique((px.reshape(-1, 3) * 255).round().astype(int), axis=0, return_counts=True)
    r, g, b = values[n.argmax()] / 255
    return float(r), float(g), float(b)


def test_failures_open_the_page_in_chromium(every_verdict: Path) -> None:
    probe = _probe(every_verdict)
    shot = paths.root() / "results" / "browser" / "every-verdict.png"
    p = _chromium(
        f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}", (every_verdict.parent / "probe.html").as_uri()
    )
    assert shot.exists(), p.stderr[-2000:]
    img = imread(shot)
    assert img.shape[:2] == (HEIGHT, WIDTH)

    # where things are: the banner on top, then the failing criteria, the limited ones, then the suites
    sec = probe["sections"]
    assert probe["banner"]["y"] == 0 and sec["attention"]["y"] < 800  # on the first screen, without scrolling
    assert sec["attention"]["y"] < sec["limited"]["y"] < sec["by-suite"]["y"]
    attention = [r["verdict"] for r in probe["attention"]]
    assert attention[0] == "fail" and attention == sorted(attention, key=RANK.__getitem__)
    assert {"fail", "not-measured", "inconclusive"} == set(attention)
    assert all(a["row"]["y"] < b["row"]["y"] for a, b in itertools.pairwise(probe["attention"]))
    first = [r["verdict"] for r in probe["first_suite"]]
    assert first[0] == "fail" and first == sorted(first, key=RANK.__getitem__)

    # the colours: a failed verdict red, an inconclusive one blue, each row's background alike
    fails = [r for r in probe["attention"] if r["verdict"] == "fail" and r["badge"]["y"] + 20 < HEIGHT]
    undecided = [r for r in probe["attention"] if r["verdict"] == "inconclusive" and r["badge"]["y"] + 20 < HEIGHT]
    assert fails and undecided, "the screenshot is too short to hold both"
    for r in fails[:3]:
        red, green, blue = _colour(img, r["badge"])
        assert red > 0.6 and green < 0.35 and blue < 0.35, (red, green, blue)
    for r in undecided[:3]:
        red, green, blue = _colour(img, r["badge"])
        assert blue > 0.55 and red < 0.3 and blue > green + 0.2, (red, green, blue)
    rows = {r["verdict"]: r for r in probe["suite_rows"] if r["row"]["y"] + r["row"]["h"] < HEIGHT}
    if "fail" in rows and "inconclusive" in rows:
        fr, fg, fb = _background(img, rows["fail"]["row"])
        ir, ig, ib = _background(img, rows["inconclusive"]["row"])
        assert fr > fb and ib > ir, ((fr, fg, fb), (ir, ig, ib))


def test_the_filters_keep_failed_inconclusive_and_limited_apart(every_verdict: Path) -> None:
    for query, wanted in (("fail", {"fail", "not-measured"}), ("inconclusive", {"inconclusive"})):
        probe = _probe(every_verdict, f"?filter={query}")
        shown = {r["verdict"] for r in probe["suite_rows"] if not r["hidden"]}
        assert shown == wanted, (query, shown)
    probe = _probe(every_verdict, "?filter=limited")
    shown = [r for r in probe["suite_rows"] if not r["hidden"]]
    assert len(shown) == len(probe["limited_rows"]) == 2 and all(not r["hidden"] for r in probe["limited_rows"])
