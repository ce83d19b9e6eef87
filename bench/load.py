"""Load + compile speed of the bundled rite and of one 20× the first script's size, in one run.

    python bench/load.py [--steps 1060] [--repeat 5]

The first script (迎賔 and 誘射, 53 steps) is the unit: 20× it is 1,060 steps, about what the
37 sections will hold. That rite is simulated by a manifest listing the bundled section files
over and over until it has at least --steps steps (each listing compiled anew).
Rows, each a median over new processes (the first load a user waits for):
- cold: nothing cached (XIANGSHE_CACHE=off): every file parsed and checked;
- cached: the parse cache warm (as after the first run), so only unchanged files skip parsing;
and, in this process, warm: a second Rite (routes already planned, files cached).
Prints a table and writes JSON to bench/results/.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT  # noqa: E402
from viz.fileio import atomic_write_text, next_free_name  # noqa: E402
from viz.rite import Rite  # noqa: E402
from viz.yamlsrc import load_file  # noqa: E402


def simulated(times: int, folder: Path) -> Path:
    """A manifest beside the bundled files that lists every section `times` times."""
    man = load_file(DEFAULT_SCRIPT / "manifest.yaml")
    lines = [f"rite: {man['rite']} ×{times}", f"cast: {DEFAULT_SCRIPT / man['cast']}",
             f"patterns: {DEFAULT_SCRIPT / man['patterns']}", "sections:"]
    lines += [f"  - {DEFAULT_SCRIPT / s}" for _ in range(times) for s in man["sections"]]
    path = folder / f"manifest-{times}x.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load_once(script: Path) -> tuple[float, int, float]:
    t = time.perf_counter()
    d = Rite(script, DEFAULT_LAYOUT).get()
    return time.perf_counter() - t, len(d.timeline.steps), d.timeline.duration


NEW_PROCESS = """
import sys, time; sys.path.insert(0, {root!r})
import viz.compile, viz.layout, viz.script  # Python's own start-up and imports are not timed
from viz.rite import Rite; from viz.text import load_corpus
c = load_corpus(); m = Rite({script!r}, {layout!r}, c)
t = time.perf_counter(); m.get(); print(time.perf_counter() - t)
"""


def in_new_process(script: Path, cache: str) -> float:
    env = {**os.environ, "XIANGSHE_CACHE": cache}
    code = NEW_PROCESS.format(root=str(ROOT), script=str(script), layout=str(DEFAULT_LAYOUT))
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True, env=env).stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1060)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rows = []
    per_copy = len(Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT).get().timeline.steps)
    times = -(-args.steps // per_copy)
    with tempfile.TemporaryDirectory() as tmp:
        scripts = {"bundled": DEFAULT_SCRIPT / "manifest.yaml",
                   "20× first": simulated(times, Path(tmp))}
        cache = str(Path(tmp) / "cache")
        print("load + compile (one run; compare rows as ratios)")
        for name, script in scripts.items():
            cold = [in_new_process(script, "off") for _ in range(args.repeat)]
            in_new_process(script, cache)
            hot = [in_new_process(script, cache) for _ in range(args.repeat)]
            os.environ["XIANGSHE_CACHE"] = cache
            load_once(script)
            warm = [load_once(script) for _ in range(args.repeat)]
            steps, dur = warm[0][1], warm[0][2]
            for kind, xs in (("cold, new process", cold), ("cached, new process", hot),
                             ("warm, same process", [w[0] for w in warm])):
                med = statistics.median(xs)
                rows.append({"row": f"{name} {kind}", "median_s": med, "min_s": min(xs),
                             "n": len(xs), "steps": steps, "rite_s": dur})
                print(f"  {name:>9} {kind:<20} {med * 1e3:9.1f} ms  (min {min(xs) * 1e3:.1f}; "
                      f"{steps} steps, {dur:.0f} s of rite)", flush=True)
    by = {r["row"]: r["median_s"] for r in rows}
    for kind in ("cold, new process", "cached, new process", "warm, same process"):
        print(f"  {kind}: 20× first / bundled = "
              f"{by['20× first ' + kind] / by['bundled ' + kind]:.1f}")
    out = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "python": platform.python_version(),
           "machine": platform.machine(), "rows": rows, "medians": by}
    path = next_free_name(ROOT / "bench" / "results", "load", ".json")
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=2))
    print(f"\nwrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
