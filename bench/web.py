"""The web page (`main.py web`): its size, its load, its frame. Prints a table, writes JSON to
bench/results/.

    python bench/web.py [--frames 600] [--size 1366x768]

For each bundled rite: the page's bytes (and the font subset's share); load to first frame in
headless Chromium (navigation start to the end of the first draw, performance.now() in the
page, and the wall time to `ready` as Playwright sees it); at the busiest moment (the most
people and things drawn of a grid of moments), the median and 90th percentile of the page's
own draw call over N consecutive frames as played (t advancing 1/60 s a frame), beside a raw
limit timed in the same page: a frame that copies the plan from one bitmap and draws as many
plain sprites (one pre-drawn disc) as the page drew people and things. Ratios are what to
compare; absolute numbers depend on what else the machine runs.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
RAW = """([n, frames]) => {
  const cv = document.getElementById('map'), g = cv.getContext('2d');
  const plan = new OffscreenCanvas(cv.width, cv.height); plan.getContext('2d').drawImage(cv, 0, 0);
  const dot = new OffscreenCanvas(28, 28), d = dot.getContext('2d');
  d.fillStyle = 'rgb(150,36,30)'; d.beginPath(); d.arc(14, 14, 13, 0, 7); d.fill(); d.stroke();
  const out = [];
  for (let k = 0; k < frames; k++) {
    const a = performance.now();
    g.setTransform(1, 0, 0, 1, 0, 0); g.drawImage(plan, 0, 0);
    for (let i = 0; i < n; i++)
      g.drawImage(dot, (i * 37 + k) % (cv.width - 28), (i * 53) % (cv.height - 28));
    g.getImageData(0, 0, 1, 1);
    out.push(performance.now() - a);
  }
  return out;
}"""
PLAY = """([t, frames]) => {
  const out = [], g = document.getElementById('map').getContext('2d');
  for (let k = 0; k < frames; k++) {
    const a = performance.now();
    window.rite.frame(t + k / 60);
    g.getImageData(0, 0, 1, 1);
    out.push(performance.now() - a);
  }
  return out;
}"""


def busiest(tl) -> float:
    """The moment of a grid (every stage's middle and 400 more) at which the most people
    are present and things set out or held."""
    ts = np.r_[[s.t0 + (s.t1 - s.t0) / 2 for s in tl.stages], np.linspace(0, tl.duration, 400)]
    best, bt = -1, 0.0
    for t in ts.tolist():
        f = tl.sample(t)
        n = int(f.present.sum()) + int(f.prop_visible.sum())
        if n > best:
            best, bt = n, t
    return bt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--size", default="1366x768")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.split("x"))
    from playwright.sync_api import sync_playwright

    from viz.model import package
    from viz.model.rite import load
    from viz.export import web

    rows = []
    tmp = Path(tempfile.mkdtemp(prefix="web-bench-"))
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for pkg in package.bundled():
            d = load(pkg.script, pkg.layout)
            t0 = time.perf_counter()
            path, size = web.write_page(d, tmp / f"{pkg.folder_name}.html", pkg.title)
            build = time.perf_counter() - t0
            text = path.read_text("utf-8")
            i = text.find(";base64,")
            font = text.find(")", i) - i if i >= 0 else 0
            loads, firsts = [], []
            for _ in range(3):
                page = b.new_page(viewport={"width": w, "height": h})
                t0 = time.perf_counter()
                page.goto(path.as_uri())
                page.wait_for_function("document.documentElement.dataset.ready === '1'")
                loads.append(time.perf_counter() - t0)
                firsts.append(page.evaluate("window.rite.firstFrame"))
                page.close()
            page = b.new_page(viewport={"width": w, "height": h})
            page.goto(path.as_uri())
            page.wait_for_function("document.documentElement.dataset.ready === '1'")
            t = busiest(d.timeline)
            page.evaluate(f"window.rite.frame({t})")
            dr = page.evaluate("window.rite.drawn()")
            n = sum(len(v["people"]) + len(v["things"]) + sum(len(x["held"]) for x in v["people"])
                    for v in dr["views"].values())
            played = page.evaluate(PLAY, [t, args.frames])
            raw = page.evaluate(RAW, [n, args.frames])
            page.close()
            med, rawmed = statistics.median(played), statistics.median(raw)
            rows.append({"rite": pkg.name, "bytes": size, "font_bytes": font, "build_s": build,
                         "first_frame_ms": statistics.median(firsts),
                         "ready_wall_s": statistics.median(loads), "busiest_t": t,
                         "sprites": n, "frame_median_ms": med,
                         "frame_p90_ms": float(np.percentile(played, 90)),
                         "raw_median_ms": rawmed, "ratio": med / max(rawmed, 1e-6),
                         "frames": args.frames, "size": args.size})
        b.close()
    print(f"{'rite':8} {'MB':>5} {'font MB':>7} {'build s':>7} {'first ms':>8} {'ready s':>7} "
          f"{'busiest t':>9} {'n':>4} {'frame ms':>8} {'p90':>6} {'raw ms':>6} {'ratio':>5}")
    for r in rows:
        print(f"{r['rite']:8} {r['bytes'] / 1e6:5.2f} {r['font_bytes'] / 1e6:7.2f} "
              f"{r['build_s']:7.1f} {r['first_frame_ms']:8.0f} {r['ready_wall_s']:7.2f} "
              f"{r['busiest_t']:9.1f} {r['sprites']:4d} {r['frame_median_ms']:8.2f} "
              f"{r['frame_p90_ms']:6.2f} {r['raw_median_ms']:6.2f} {r['ratio']:5.1f}")
    out = next_free_name(ROOT / "bench" / "results", "web", ".json")
    atomic_write_text(out, json.dumps({"rows": rows}, ensure_ascii=False, indent=2))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
