"""Speed of the exports, in one run: prints a table and writes JSON to bench/results/.

    python bench/export.py [--frames N] [--steps]

Rows: the window's frame from the composer (1280x800, plans from the layer cache, as when
playing), for scale; plates per second (render_plate → PNG and SVG, one after the other, at
every stage's end); the atlas of every stage plate (processes, as `atlas` runs it, with the
CPU time its workers took; with --steps also the atlas of every step); and the video at
720p, 30 frames/s, of the first and the last stage: frames rendered and encoded per second
of wall time, and the CPU time per frame of drawing (compose + pgdraw + pixels out, this
process) and of encoding (ffmpeg), which says what an idle machine would do when the wall
times are spoilt by other work.
Compare rows as ratios; absolute numbers depend on the machine and on what else it runs.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
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

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT  # noqa: E402
from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402
from viz.cli.options import load_all  # noqa: E402


def _cpu(a, b) -> float:
    return (b.ru_utime - a.ru_utime) + (b.ru_stime - a.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300, help="video frames per row (default "
                                                            "300: 10 s of the rite)")
    ap.add_argument("--steps", action="store_true", help="also time the atlas of every step")
    args = ap.parse_args()
    import pygame

    from viz.backends import pgdraw
    from viz.draw.compose import Model, View, compose
    from viz.export.atlas import build_atlas
    from viz.export.plate import render_plate
    from viz.export.video import render_video

    d = load_all(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    tl = d.timeline
    rows: dict[str, dict] = {}

    def row(name: str, value: float, unit: str, **more) -> None:
        rows[name] = {"value": value, "unit": unit, **more}
        extra = "".join(f"  {k}={v:.3g}" if isinstance(v, float) else f"  {k}={v}"
                        for k, v in more.items())
        print(f"  {name:<40} {value:10.2f} {unit}{extra}", flush=True)

    print(f"measuring on {os.cpu_count()} cores, load average "
          f"{', '.join(f'{v:.1f}' for v in os.getloadavg())} (compare rows as ratios)")

    size = (1280, 800)
    model = pgdraw.with_font(Model(d.layout, tl, d.corpus))
    surf = pygame.Surface(size)
    cache = pgdraw.LayerCache()
    ts = np.linspace(0, tl.duration, 240)
    pgdraw.draw_layers(surf, compose(model, View(), size, 0.0).layers, cache)  # warm
    times = []
    for t in ts:
        t0 = time.perf_counter()
        pgdraw.draw_layers(surf, compose(model, View(), size, float(t)).layers, cache)
        times.append(time.perf_counter() - t0)
    frame = statistics.median(times)
    row("window frame 1280x800 (composer, median)", frame * 1e3, "ms",
        per_s=1 / frame)

    moments = [(s.t1, True) for s in tl.stages]
    render_plate(d, *moments[0])  # warm the font cache and the stage framing, as a run would
    t0 = time.perf_counter()
    for t, closing in moments:
        render_plate(d, t, closing)
    plate_s = (time.perf_counter() - t0) / len(moments)
    row("plate (PNG + SVG), one process", 1 / plate_s, "plates/s", ms_each=plate_s * 1e3)

    with tempfile.TemporaryDirectory(prefix="bench-export-") as tmp:
        # the workers' CPU time beside the wall time: on a machine busy with other work the
        # wall time says little, the CPU time (shared by the two workers) what it would take
        ff0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        info = build_atlas(d, Path(tmp) / "stages", progress=False)
        ff1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        row(f"atlas: {info.plates} stage plates", info.total_seconds, "s",
            plates_per_s=info.plates / info.seconds, workers_cpu_s=_cpu(ff0, ff1))
        if args.steps:
            info = build_atlas(d, Path(tmp) / "steps", steps=True, progress=False)
            row(f"atlas --steps: {info.plates} step plates", info.total_seconds, "s",
                plates_per_s=info.plates / info.seconds)
        fps = 30.0
        # the first stage's frames are light; the last stage's carry the most names to place
        for label, stage in (("first stage", tl.stages[0]), ("last stage", tl.stages[-1])):
            t_to = min(stage.t1, stage.t0 + (args.frames - 1) / fps)
            me0, ff0 = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                        resource.RUSAGE_CHILDREN))
            v = render_video(d.layout, tl, d.corpus, Path(tmp) / "v.mp4", t_from=stage.t0,
                             t_to=t_to, fps=fps, size=(1280, 720), progress=False,
                             overwrite=True)
            me1, ff1 = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                        resource.RUSAGE_CHILDREN))
            # CPU time per frame does not depend on what else the machine runs, unlike wall
            # time: drawing and encoding overlap, so an idle machine with a core for each
            # manages about 1000 / max(draw, encode) frames/s
            draw_ms = _cpu(me0, me1) / v.frames * 1e3
            enc_ms = _cpu(ff0, ff1) / v.frames * 1e3
            row(f"video 720p {label}: rendered + encoded", v.rate, "frames/s", frames=v.frames,
                mb=(Path(tmp) / "v.mp4").stat().st_size / 1e6)
            row(f"video 720p {label}: CPU per frame", draw_ms, "ms drawing",
                encode_ms=enc_ms, idle_fps=1e3 / max(draw_ms, enc_ms))

    out = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "python": platform.python_version(),
           "pygame": pygame.version.ver, "numpy": np.__version__, "machine": platform.machine(),
           "cores": os.cpu_count(), "load": list(os.getloadavg()), "stages": len(tl.stages),
           "steps": len(tl.steps), "rows": rows}
    path = next_free_name(ROOT / "bench" / "results", "export", ".json")
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=2))
    print(f"\nwrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
