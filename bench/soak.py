"""A long soak of the window, headless: the whole rite played at the highest speed, laps over,
with random keys, clicks, resizes, reading switches and reloads (good and broken texts, never
written to disk); prints frames drawn, frame times and memory, and writes JSON to bench/results/.

    python bench/soak.py [--laps 3] [--size 1920x1080] [--seed 1]

Memory is the process's resident set (what the window costs the machine, pygame's pixels
included), read every 100 frames: its peak, and how far the second half's peak rises over the
first half's, near zero when nothing piles up (it moves with resizes: the kept layers are
window-sized). The text cache's bytes are reported beside it. Exits 1 on any exception (after
printing it) and 2 when memory kept growing. tests/test_window.py has the short version.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT  # noqa: E402
from viz.app.window import SPEEDS, App  # noqa: E402
from viz.backends import pgdraw, pgprims  # noqa: E402
from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402
from viz.model.reload import Reloader  # noqa: E402

FPS = 60.0
GROWTH_LIMIT = 32 * 2**20  # bytes the second half's resident peak may rise before it is a leak
KEYS = (pygame.K_SPACE, pygame.K_RIGHT, pygame.K_LEFT, pygame.K_PAGEDOWN, pygame.K_PAGEUP,
        pygame.K_HOME, pygame.K_c, pygame.K_g, pygame.K_r, pygame.K_v, pygame.K_f, pygame.K_i,
        pygame.K_n, pygame.K_h, pygame.K_ESCAPE, pygame.K_PLUS, pygame.K_MINUS)
BROKEN = ("stages: [\n", "", None)  # a half-written file, an empty one, a deleted one


def rss() -> int:
    """The resident set in bytes (Linux /proc; elsewhere the peak from getrusage)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def key(k: int, shift: bool = False) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=pygame.KMOD_SHIFT if shift else 0,
                              unicode="", scancode=0)


def soak(laps: int, size: tuple[int, int], seed: int) -> dict:
    pygame.init()
    rng = np.random.default_rng(seed)
    reloader = Reloader(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    c = reloader.current
    section = next(f for f in c.script.files if f.endswith(".yaml") and "sections" in f)
    with tempfile.TemporaryDirectory() as shots:
        app = App(c.layout, c.timeline, c.corpus, size=size, shots_dir=shots, reloader=reloader)
        app._set(speed=SPEEDS[-1], playing=True)
        surface = pygame.Surface(size)
        covered, drawn, idle, events = 0.0, [], 0, 0
        memory: list[tuple[int, int]] = []  # (frame, bytes)
        frame = 0
        while covered < laps * app.timeline.duration:
            r = rng.random()
            if r < 0.02:
                k = KEYS[int(rng.integers(len(KEYS)))]
                app.handle(key(k, shift=bool(rng.random() < 0.2)))
                app.running = True  # Esc may quit; the soak goes on
                events += 1
            elif r < 0.03:
                pos = (float(rng.uniform(0, app.size[0])), float(rng.uniform(0, app.size[1])))
                app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
                app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
                events += 1
            elif r < 0.034:
                w, h = int(rng.integers(640, size[0] + 1)), int(rng.integers(400, size[1] + 1))
                if rng.random() < 0.5:
                    w, h = size
                app.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(w, h), w=w, h=h))
                surface = pygame.Surface((w, h))
                events += 1
            elif r < 0.036:
                app.reload({section: BROKEN[int(rng.integers(len(BROKEN)))]})
                app.reload()  # and the file as it is on disk again
                events += 1
            if not app.state.playing:
                app._set(playing=True, speed=SPEEDS[-1])
                if app.t >= app.timeline.duration:
                    app.seek(0.0)
            before = app.t
            app.update(1.0 / FPS)
            covered += max(app.t - before, 0.0)
            if app.needs_redraw():
                t0 = time.perf_counter()
                app.draw(surface)
                drawn.append(time.perf_counter() - t0)
            else:
                idle += 1
            frame += 1
            if frame % 100 == 0:
                memory.append((frame, rss()))
        memory.append((frame, rss()))
    first = [m for f, m in memory if f < frame / 2] or [memory[0][1]]
    second = [m for f, m in memory if f >= frame / 2]
    return {"frames": frame, "drawn": len(drawn), "not_redrawn": idle, "events": events,
            "rite_seconds": covered, "duration": app.timeline.duration,
            "frame_median_s": statistics.median(drawn),
            "frame_p95_s": float(np.percentile(drawn, 95)), "frame_max_s": max(drawn),
            "rss_first": memory[0][1], "rss_peak": max(m for _, m in memory),
            "rss_last": memory[-1][1], "rss_growth_second_half": max(second) - max(first),
            "text_cache_bytes": pgprims._cache.bytes, "text_cache_surfaces": len(pgprims._cache),
            "memory": memory}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--laps", type=int, default=3, help="times the whole rite is played through")
    ap.add_argument("--size", default="1920x1080", help="window size")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    started = time.perf_counter()
    try:
        out = soak(args.laps, size, args.seed)
    except Exception:
        traceback.print_exc()
        return 1
    mb = 2**20
    print(f"soak: {args.laps} laps of {out['duration']:.0f} s at ×{SPEEDS[-1]:g}, "
          f"{out['frames']} frames ({out['drawn']} drawn, {out['not_redrawn']} not redrawn), "
          f"{out['events']} keys/clicks/resizes/reloads, {time.perf_counter() - started:.0f} s")
    print(f"  frame median {out['frame_median_s'] * 1e3:.1f} ms, p95 "
          f"{out['frame_p95_s'] * 1e3:.1f} ms, max {out['frame_max_s'] * 1e3:.1f} ms")
    print(f"  memory (resident): first {out['rss_first'] / mb:.0f} MB, peak "
          f"{out['rss_peak'] / mb:.0f} MB, last {out['rss_last'] / mb:.0f} MB; the second half's "
          f"peak over the first's {out['rss_growth_second_half'] / mb:+.1f} MB; text cache "
          f"{out['text_cache_bytes'] / mb:.1f} MB in {out['text_cache_surfaces']} surfaces")
    out.update({"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "python": platform.python_version(),
                "pygame": pygame.version.ver, "size": list(size), "laps": args.laps,
                "seed": args.seed})
    path = next_free_name(ROOT / "bench" / "results", "soak", ".json")
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=2))
    print(f"wrote {path.relative_to(ROOT)}")
    return 2 if out["rss_growth_second_half"] > GROWTH_LIMIT else 0


if __name__ == "__main__":
    sys.exit(main())
