"""Load + compile speed of the bundled rite and of one 20× the first script's size, in one run.

    python bench/load.py [--steps 1060] [--repeat 5] [--script FOLDER]

The first script (迎賔 and 誘射, 53 steps) is the unit: 20× it is 1,060 steps, about what the
37 sections will hold. That rite is simulated by a manifest listing the bundled section files
over and over until it has at least --steps steps (each listing compiled anew).
Rows, each a median over new processes (the first load a user waits for):
- cold: nothing cached (XIANGSHE_CACHE=off): every file parsed and checked, then compiled;
- parse cache only: the parsed files and planned walks kept, no compile kept (as after an edit
  of the compiler): parsed from the cache, compiled, and the compile written to the cache;
- compiled cache hit: nothing changed since the last run: the kept compile is loaded (its
  script is unpickled only when asked for: + script, as `check` and coverage ask);
and, in this process, warm: a second Rite (a compiled cache hit without Python's start-up).
--script: another rite folder (a copy of the bundled one while it is being edited).
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
from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402
from viz.base.yamlsrc import load_file  # noqa: E402
from viz.model.rite import Rite  # noqa: E402
from viz.text import load_corpus  # noqa: E402


def simulated(rite: Path, times: int, folder: Path) -> Path:
    """A manifest beside the rite's files that lists every section `times` times."""
    man = load_file(rite / "manifest.yaml")
    lines = [f"rite: {man['rite']} ×{times}", f"cast: {rite / man['cast']}",
             f"patterns: {rite / man['patterns']}", "sections:"]
    lines += [f"  - {rite / s}" for _ in range(times) for s in man["sections"]]
    path = folder / f"manifest-{times}x.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load_once(script: Path) -> tuple[float, int, float]:
    t = time.perf_counter()
    d = Rite(script, DEFAULT_LAYOUT, load_corpus()).get()
    return time.perf_counter() - t, len(d.timeline.steps), d.timeline.duration


NEW_PROCESS = """
import sys, time; sys.path.insert(0, {root!r})
import viz.model.compile.compiler, viz.model.layout, viz.model.script.reader  # Python's own start-up and imports are not timed
from viz.model.rite import Rite; from viz.text import load_corpus
c = load_corpus(); m = Rite({script!r}, {layout!r}, c)
t = time.perf_counter(); m.get(){touch}; print(time.perf_counter() - t)
"""


def forget_compiles(cache: str) -> None:
    """The compiled cache's entries removed; the parsed files and planned walks stay."""
    for f in [*Path(cache).glob("compiled-*.pickle"), *Path(cache).glob("rite-*.pickle")]:
        f.unlink()


def in_new_process(script: Path, cache: str, keep_compiles: bool = True,
                   with_script: bool = False) -> float:
    """One load in a new process; with_script: the script read too (a hit unpickles it only
    when asked: `check`, coverage and diff ask, the window does not)."""
    if not keep_compiles:
        forget_compiles(cache)
    env = {**os.environ, "XIANGSHE_CACHE": cache}
    code = NEW_PROCESS.format(root=str(ROOT), script=str(script), layout=str(DEFAULT_LAYOUT),
                              touch=".script.stages" if with_script else "")
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True, env=env).stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1060)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--script", type=Path, default=DEFAULT_SCRIPT,
                    help="the rite folder (default: the bundled one)")
    args = ap.parse_args()
    rows = []
    folder = args.script.resolve()
    os.environ["XIANGSHE_CACHE"] = "off"
    per_copy = len(Rite(folder, DEFAULT_LAYOUT).get().timeline.steps)
    times = -(-args.steps // per_copy)
    kept: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        label = "bundled" if folder == DEFAULT_SCRIPT.resolve() else folder.name
        scripts = {label: folder / "manifest.yaml"}
        if times > 1:  # the rite is shorter than --steps: a longer one simulated
            scripts["20× first"] = simulated(folder, times, Path(tmp))
        print("load + compile (one run; compare rows as ratios)")
        for name, script in list(scripts.items()):
            cache = str(Path(tmp) / f"cache-{len(kept)}")
            os.environ["XIANGSHE_CACHE"] = "off"
            try:
                cold = [in_new_process(script, "off") for _ in range(args.repeat)]
            except subprocess.CalledProcessError as e:
                print(f"  {name}: does not load, left out:\n{e.stderr[-600:]}")
                del scripts[name]
                continue
            in_new_process(script, cache)
            parsed = [in_new_process(script, cache, False) for _ in range(args.repeat)]
            hot = [in_new_process(script, cache) for _ in range(args.repeat)]
            hot_script = [in_new_process(script, cache, with_script=True)
                          for _ in range(args.repeat)]
            kept[name] = sum(f.stat().st_size for f in Path(cache).glob("compiled-*.pickle"))
            os.environ["XIANGSHE_CACHE"] = cache
            load_once(script)
            warm = [load_once(script) for _ in range(args.repeat)]
            steps, dur = warm[0][1], warm[0][2]
            for kind, xs in (("cold, new process", cold), ("parse cache only", parsed),
                             ("compiled cache hit", hot),
                             ("compiled cache hit + script", hot_script),
                             ("warm, same process", [w[0] for w in warm])):
                med = statistics.median(xs)
                rows.append({"row": f"{name} {kind}", "median_s": med, "min_s": min(xs),
                             "n": len(xs), "steps": steps, "rite_s": dur})
                print(f"  {name:>9} {kind:<28} {med * 1e3:9.1f} ms  (min {min(xs) * 1e3:.1f}; "
                      f"{steps} steps, {dur:.0f} s of rite)", flush=True)
    by = {r["row"]: r["median_s"] for r in rows}
    for kind in ("cold, new process", "parse cache only", "compiled cache hit",
                 "compiled cache hit + script", "warm, same process"):
        if "20× first" not in scripts:
            break
        print(f"  {kind}: 20× first / {label} = "
              f"{by['20× first ' + kind] / by[f'{label} {kind}']:.1f}")
    ratios = {}
    for name in scripts:
        hit = by[f"{name} compiled cache hit"]
        ratios[name] = {"cold / hit": by[f"{name} cold, new process"] / hit,
                        "parse cache only / hit": by[f"{name} parse cache only"] / hit,
                        "hit + script / hit": by[f"{name} compiled cache hit + script"] / hit,
                        "kept compile bytes": kept[name]}
        print(f"  {name}: cold / hit = {ratios[name]['cold / hit']:.1f}, parse cache only / "
              f"hit = {ratios[name]['parse cache only / hit']:.1f}, hit + script / hit = "
              f"{ratios[name]['hit + script / hit']:.1f}; the kept compile "
              f"{kept[name] / 1e6:.1f} MB")
    out = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "python": platform.python_version(),
           "machine": platform.machine(), "script": str(folder), "rows": rows, "medians": by,
           "ratios": ratios}
    path = next_free_name(ROOT / "bench" / "results", "load", ".json")
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=2))
    print(f"\nwrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
