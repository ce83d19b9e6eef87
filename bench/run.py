"""Speed of the pipeline, measured in one run: prints a table and writes JSON to bench/results/.

    python bench/run.py [--frames N]

Rows: load+compile the bundled rite; one sample(t); one composed frame (every layer's display
list); one full window frame drawn headless (plans from the layer cache, as when playing); the
same frame with every layer drawn (as `shot` does); and, for scale, pygame drawing as many
primitives as a composed frame holds, raw (filled circles) — the floor our frame sits on.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT  # noqa: E402
from viz.cli import load_all  # noqa: E402
from viz.fileio import atomic_write_text, next_free_name  # noqa: E402


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=120, help="frames to draw per row")
    args = ap.parse_args()
    import pygame

    from viz.app import App
    from viz.draw import pgdraw
    from viz.draw.compose import Model, View, compose

    rows = []

    def row(name: str, samples: list[float], per: str) -> None:
        med = statistics.median(samples)
        rows.append({"row": name, "median_s": med, "min_s": min(samples), "n": len(samples),
                     "per": per})
        print(f"  {name:<38} {med * 1e3:10.3f} ms  (min {min(samples) * 1e3:.3f}, "
              f"n={len(samples)}, per {per})", flush=True)

    print("measuring (one run; compare rows as ratios, not across machines)")
    row("load + compile the bundled rite", timed(lambda: load_all(DEFAULT_SCRIPT, DEFAULT_LAYOUT),
                                                 5), "rite")
    d = load_all(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    tl = d.timeline
    names = sorted(d.layout.places)
    pairs = iter([(d.layout.place_xy(a), d.layout.place_xy(b))
                  for a in names for b in names[::5]] * 2)
    row("route between two places", timed(lambda: d.layout.route(*next(pairs)), 500), "call")
    ts = np.random.default_rng(1).uniform(0, tl.duration, 2000)
    it = iter(np.tile(ts, 4))
    row("sample(t)", timed(lambda: tl.sample(next(it)), 2000), "call")
    size = (1280, 800)
    model = pgdraw.with_font(Model(d.layout, tl, d.corpus))
    moments = iter(np.tile(np.linspace(0, tl.duration, args.frames), 3))
    for s in tl.stages:  # each stage's extent is measured once per model, not per frame
        compose(model, View(), size, s.t0)
    row("compose (every layer)", timed(lambda: compose(model, View(), size, next(moments)),
                                       args.frames), "frame")
    n_prims = sum(len(la.prims) for la in compose(model, View(), size, tl.duration / 2).layers)
    app = App(d.layout, tl, d.corpus, size=size)
    surf = pygame.Surface(app.size)
    app.draw(surf)  # warm the plan layers and glyph cache, as a playing window has

    def one_frame():
        app.seek(next(moments))
        app.draw(surf)
    row("window frame 1280x800 (headless)", timed(one_frame, args.frames), "frame")

    def uncached():
        pgdraw.draw_layers(surf, compose(model, View(), size, next(moments)).layers)
    row("frame, every layer drawn (as shot)", timed(uncached, args.frames), "frame")
    rng = np.random.default_rng(2)
    pts = rng.uniform(0, 800, (n_prims, 2)).astype(int)

    def raw():
        surf.fill((250, 246, 238))
        for x, y in pts:
            pygame.draw.circle(surf, (120, 30, 30), (int(x), int(y)), 6)
    row(f"raw pygame: fill + {n_prims} circles", timed(raw, args.frames), "frame")
    by = {r["row"].split(" (")[0]: r["median_s"] for r in rows}
    frame_s, raw_s, sample_s = (by[k] for k in ("window frame 1280x800", "raw pygame: fill + "
                                                  f"{n_prims} circles", "sample(t)"))
    print(f"\n  window frame = {frame_s / raw_s:.1f} × the raw draw of as many primitives; "
          f"{1 / frame_s:.0f} frames/s possible; sample(t) is {sample_s / frame_s * 100:.2f}% "
          "of a frame")
    out = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "python": platform.python_version(),
           "pygame": pygame.version.ver, "numpy": np.__version__, "machine": platform.machine(),
           "actors": len(tl.actors), "steps": len(tl.steps), "primitives": n_prims,
           "rows": rows, "medians": by}
    path = next_free_name(ROOT / "bench" / "results", "bench", ".json")
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=2))
    print(f"\nwrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
