"""Speed of `atlas` on the bundled rite, cold (an empty compile cache) and warm: prints a table
and writes JSON to bench/results/.

    python bench/atlas.py [--runs N] [--against DIR]

Each run is `python main.py atlas -o DIR` in a fresh process (cold: XIANGSHE_CACHE pointed at
an empty folder; warm: at the folder the cold run filled), timed by wall clock and by the CPU
time of the process and its children. Then the same work is done once more in this process,
phase by phase, to say where the time goes and what two idle cores would take:

    compile     the rite compiled (cold only), with the first plates drawn meanwhile in a
                forked child (atlas.compile_drawing): the parent's CPU, and the child's
    after       pages, the index, and the plates left, in a pool of one process per core
    idle est.   start-up + max(compile, its child) + the parent's serial work after it + the
                pool's CPU shared by the cores: the wall time an idle machine would take

On a machine other work loads, the wall times grow and the CPU times much less: compare the
CPU columns and the estimate, and rows as ratios.

--against DIR: another checkout of the program (main's, say) timed in the same run, each of its
command runs right after this one's (same load, its own caches), and this one's CPU and wall as
ratios of its: how much a change saves, measured under the same conditions.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402


def _cpu(ru) -> float:
    return ru.ru_utime + ru.ru_stime


def run_command(out: Path, cache: Path, root: Path = ROOT) -> dict:
    """`main.py atlas -o out` in a fresh process (of the program in `root`): wall and CPU
    seconds (it and its children)."""
    env = dict(os.environ, XIANGSHE_CACHE=str(cache))
    before = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, str(root / "main.py"), "atlas", "-o", str(out)], env=env,
                   check=True, capture_output=True, cwd=root)
    wall = time.perf_counter() - t0
    return {"wall": wall, "cpu": _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - before}


def phases(out: Path, cache: Path) -> dict:
    """The command's work in this process, phase by phase (see the module's docstring)."""
    os.environ["XIANGSHE_CACHE"] = str(cache)
    t = time.process_time()
    from viz.cli.options import spec_of
    from viz.export import atlas

    spec = spec_of(argparse.Namespace())
    start = time.process_time() - t
    kids0 = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
    t = time.process_time()
    w = time.perf_counter()
    compiled, ahead = atlas.compile_drawing(spec)
    compile_cpu, compile_wall = time.process_time() - t, time.perf_counter() - w
    kids1 = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
    t = time.process_time()
    w = time.perf_counter()
    info = atlas.build_atlas(compiled, out, progress=False, ahead=ahead,
                             title=f"{spec.package.title}圖")
    after_cpu, after_wall = time.process_time() - t, time.perf_counter() - w
    kids2 = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
    cores = min(2, os.cpu_count() or 1)
    child = kids1 - kids0
    est = start + max(compile_cpu, child) + after_cpu + (kids2 - kids1) / cores
    return {"start_cpu": start, "compile_cpu": compile_cpu, "compile_wall": compile_wall,
            "ahead_cpu": child, "ahead_plates": len(ahead.drawn) if ahead else 0,
            "ahead_children": ahead.children if ahead else 0,
            "after_cpu": after_cpu, "after_wall": after_wall, "pool_cpu": kids2 - kids1,
            "plates": info.plates, "idle_estimate": est}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="command runs of each kind (default 1)")
    ap.add_argument("--against", metavar="DIR", help="another checkout timed in the same run "
                    "(its main.py), each run beside this one's; rows as ratios of its")
    ap.add_argument("--phase", choices=("cold", "warm"), help=argparse.SUPPRESS)
    ap.add_argument("--cache", help=argparse.SUPPRESS)
    args = ap.parse_args()
    other = Path(args.against).resolve() if args.against else None
    if other is not None and not (other / "main.py").is_file():
        ap.error(f"--against {args.against}: no main.py there")
    if args.phase:  # a fresh process for the in-process phases (imports counted, no state)
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(phases(Path(tmp) / "atlas", Path(args.cache))))
        return 0
    load = os.getloadavg()
    print(f"measuring on {os.cpu_count()} cores, load average "
          f"{', '.join(f'{v:.1f}' for v in load)} (compare CPU columns and ratios)")
    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for kind in ("cold", "warm"):
            for r in range(args.runs):
                cache = tmp / f"cache-{r}"
                if kind == "cold" and cache.exists():
                    raise SystemExit("cold run on a used cache")
                got = run_command(tmp / f"{kind}-{r}", cache)
                rows.setdefault(f"command {kind}", {"runs": []})["runs"].append(got)
                print(f"  command {kind:<5} run {r + 1}: wall {got['wall']:6.2f} s   "
                      f"CPU {got['cpu']:6.2f} s", flush=True)
                if other is None:
                    continue
                was = run_command(tmp / f"against-{kind}-{r}", tmp / f"against-cache-{r}", other)
                rows.setdefault(f"against {kind}", {"root": str(other), "runs": []})[
                    "runs"].append(was)
                print(f"  against {kind:<5} run {r + 1}: wall {was['wall']:6.2f} s   "
                      f"CPU {was['cpu']:6.2f} s   this / that: wall "
                      f"{got['wall'] / was['wall']:.2f}, CPU {got['cpu'] / was['cpu']:.2f}",
                      flush=True)
        for kind in ("cold", "warm"):
            cache = tmp / f"phase-cache-{kind}" if kind == "cold" else tmp / "phase-cache-cold"
            out = subprocess.run([sys.executable, __file__, "--phase", kind, "--cache",
                                  str(cache)], check=True, capture_output=True, text=True)
            got = json.loads(out.stdout.strip().splitlines()[-1])
            rows[f"phases {kind}"] = got
            print(f"  phases {kind:<5}: start {got['start_cpu']:.2f}  compile {got['compile_cpu']:.2f} "
                  f"(child {got['ahead_cpu']:.2f}, {got['ahead_plates']} plates in "
                  f"{got['ahead_children']} children)  after {got['after_cpu']:.2f}  "
                  f"pool {got['pool_cpu']:.2f}  CPU s  →  idle estimate {got['idle_estimate']:.2f} s",
                  flush=True)
    path = next_free_name(ROOT / "bench" / "results", "atlas", ".json")
    atomic_write_text(path, json.dumps({"machine": platform.platform(), "cores": os.cpu_count(),
                                        "load": load, "rows": rows}, indent=2) + "\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
