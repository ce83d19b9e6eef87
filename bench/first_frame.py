"""The window's first picture, cold (empty cache folder) against warm, in one run.

    python bench/first_frame.py [--repeat 5]

Each row is a new process running `python main.py` (the window, under SDL's dummy video driver)
until its first frame is drawn, then stopping it: CPU time (process_time, the process's own
threads; imports and Python's start-up included) and wall time from the start of the process.
- cold: a new, empty cache folder (XIANGSHE_CACHE): nothing parsed or compiled before, as on a
  newcomer's first `python main.py`; the window opens on the first stages it compiled, and the
  rest compile in a worker thread once that frame is up (viz.model.progressive);
- warm: the same folder after the whole rite was compiled into it: the kept compile is loaded.
Also, cold: how long until the whole rite is ready in the window (the worker's compile done),
in wall time. Target: the cold first frame ≤ 1.5× the warm one in CPU time.
And a one-shot command, `python main.py shot --at 1`, in a new process likewise: cold (an
empty cache folder: only the first stages, reaching t = 1, are compiled) against warm (the
folder after the whole rite was compiled into it); CPU time of the child process (getrusage).
Target: cold ≤ 1.5× warm.
Prints a table and writes JSON to bench/results/.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402

# In the child: time the window's first draw (and, --whole, the rest's compile), then leave.
CHILD = """
import os, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
os.environ["SDL_VIDEODRIVER"] = "dummy"
from viz.app import window
real_draw, real_poll = window.App.draw, window.App.poll
def draw(self, surface):
    out = real_draw(self, surface)
    if not getattr(self, "_bench_first", False):
        self._bench_first = True
        print("first", time.process_time(), time.perf_counter() - t0, flush=True)
        if not {whole}:
            os._exit(0)
    return out
def poll(self, dt):
    real_poll(self, dt)
    if getattr(self, "_bench_first", False) and self.progressive is None:
        print("whole", time.process_time(), time.perf_counter() - t0, flush=True)
        os._exit(0)
window.App.draw, window.App.poll = draw, poll
from viz.cli.main import main
main(["play"])
"""


def run(cache: str, whole: bool = False) -> dict[str, tuple[float, float]]:
    env = {**os.environ, "XIANGSHE_CACHE": cache, "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), whole=whole)],
                         capture_output=True, text=True, env=env, timeout=300, check=False)
    got = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in ("first", "whole"):
            got[parts[0]] = (float(parts[1]), float(parts[2]))
    if "first" not in got:
        raise SystemExit(f"the window drew nothing:\n{out.stderr[-2000:]}")
    return got


def shot(cache: str, out: str) -> tuple[float, float]:
    """(CPU, wall) seconds of a new process running `main.py shot --at 1`."""
    import time

    env = {**os.environ, "XIANGSHE_CACHE": cache, "SDL_AUDIODRIVER": "dummy",
           "SDL_VIDEODRIVER": "dummy"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    got = subprocess.run([sys.executable, str(ROOT / "main.py"), "shot", "--at", "1", "-o", out,
                          "--force"], capture_output=True, text=True, env=env, timeout=300,
                         check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if got.returncode != 0:
        raise SystemExit(f"shot failed:\n{got.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def compile_whole(cache: str) -> None:
    env = {**os.environ, "XIANGSHE_CACHE": cache, "SDL_AUDIODRIVER": "dummy"}
    subprocess.run([sys.executable, str(ROOT / "main.py"), "state", "--at", "1"],
                   capture_output=True, env=env, timeout=600, check=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    cold, warm, whole = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.repeat):  # by turns, so a spell of other work slows both alike
            got = run(str(Path(tmp) / f"cold-{i}"), whole=True)
            cold.append(got["first"])
            whole.append(got.get("whole", (float("nan"), float("nan"))))
            warm.append(run(str(Path(tmp) / f"cold-{i}"))["first"])  # now compiled, kept
        shot_cold, shot_warm = [], []
        for i in range(args.repeat):
            cache, png = str(Path(tmp) / f"shot-{i}"), str(Path(tmp) / "shot.png")
            shot_cold.append(shot(cache, png))
            compile_whole(cache)
            shot_warm.append(shot(cache, png))
    rows = []

    def row(name: str, xs: list[tuple[float, float]]) -> None:
        cpu = statistics.median(x[0] for x in xs)
        wall = statistics.median(x[1] for x in xs)
        rows.append({"row": name, "cpu_median_s": cpu, "wall_median_s": wall, "n": len(xs)})
        print(f"  {name:<44} {cpu * 1e3:8.0f} ms CPU  {wall * 1e3:8.0f} ms wall")

    print(f"the window's first frame (median of {args.repeat} new processes each)")
    row("cold: empty cache, first frame", cold)
    row("warm: compiled before, first frame", warm)
    row("cold: the whole rite ready in the window", whole)
    print(f"`shot --at 1` (median of {args.repeat} new processes each)")
    row("cold: empty cache, shot --at 1", shot_cold)
    row("warm: compiled before, shot --at 1", shot_warm)
    ratio = rows[0]["cpu_median_s"] / rows[1]["cpu_median_s"]
    wall_ratio = rows[0]["wall_median_s"] / rows[1]["wall_median_s"]
    shot_ratio = rows[3]["cpu_median_s"] / rows[4]["cpu_median_s"]
    print(f"\n  cold / warm first frame: {ratio:.2f}x CPU, {wall_ratio:.2f}x wall "
          f"(target ≤ 1.5x CPU)")
    print(f"  cold / warm shot --at 1: {shot_ratio:.2f}x CPU (target ≤ 1.5x)")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    path = next_free_name(out, "first_frame", ".json")
    atomic_write_text(path, json.dumps({
        "python": platform.python_version(), "machine": platform.machine(),
        "rows": rows, "cold_over_warm_cpu": ratio, "cold_over_warm_wall": wall_ratio,
        "shot_cold_over_warm_cpu": shot_ratio},
        ensure_ascii=False, indent=2))
    print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
