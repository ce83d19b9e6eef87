"""Issue 26, class 5: `check --strict` over every rite × every runnable reading × the scenario's
corners (each setting at its least and its most, crossed) × seeds 1 and 6. A reading the layout
refuses (`refused:`, with its cited reason) is not run; `refused()` names it and main prints why.

In process: one Rite per scenario, each reading compiled once from it; no subprocess, no
parallelism. Used by tests/test_grid.py (the slow tier) and `python -m viz.cli.grid`, which
prints one line per combination and the time.
"""
from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import SimpleNamespace

SEEDS = (1, 6)  # 6: a tie (左右鈞) in 鄉射's round 2


@dataclass(frozen=True)
class Cell:
    rite: str
    reading: str
    sets: tuple[tuple[str, str], ...]
    seed: int

    def __str__(self) -> str:
        sets = " ".join(f"--set {k}={v}" for k, v in self.sets)
        return f"--rite {self.rite} --reading {self.reading} {sets} --seed {self.seed}"


def corners(pkg) -> list[tuple[tuple[str, str], ...]]:
    """The scenario settings' least and most values, crossed (skill.* settings are not corners:
    they are the shooting model's, which the seeds vary)."""
    from viz.model.scenario import declared

    decl = {k: s for k, s in declared(_cast_doc(pkg)).items() if not k.startswith("skill.")}
    axes = [[(k, f"{s.lo:g}"), (k, f"{s.hi:g}")] for k, s in sorted(decl.items())]
    return [tuple(c) for c in itertools.product(*axes)]


def scenarios(pkg) -> list[tuple[tuple[tuple[str, str], ...], int]]:
    """(settings, seed) rows covering every pair of corner values (settings' least and most, the
    two seeds) at least once: greedy, from the full cross, most newly covered pairs first."""
    full = [(sets, seed) for sets, seed in itertools.product(corners(pkg), SEEDS)]

    def pairs(row) -> set:
        vals = list(row[0]) + [("seed", str(row[1]))]
        return {(a, b) for a, b in itertools.combinations(vals, 2)}

    want = set().union(*(pairs(r) for r in full)) if full else set()
    rows: list = []
    while want:
        best = max(full, key=lambda r: (len(pairs(r) & want), -full.index(r)))
        rows.append(best)
        want -= pairs(best)
    return rows or [((), seed) for seed in SEEDS]


def _cast_doc(pkg) -> dict:
    """The rite's cast file (its `scenario:`), as its manifest names it."""
    import yaml

    manifest = yaml.safe_load((pkg.script / "manifest.yaml").read_text(encoding="utf-8"))
    return yaml.safe_load((pkg.script / manifest["cast"]).read_text(encoding="utf-8"))


def cells(pkgs=None, keep=None) -> Iterator[tuple[object, Cell]]:
    """(package, cell) for the whole grid, rite by rite (keep: a test of a Cell, to run part)."""
    from viz.model.package import bundled
    from viz.model.rite import Rite

    for pkg in pkgs or bundled():
        readings = Rite(pkg.script, pkg.layout).known_readings()
        for sets, seed in scenarios(pkg):
            for reading in readings:
                cell = Cell(pkg.name, reading, sets, seed)
                if keep is None or keep(cell):
                    yield pkg, cell


def refused(pkgs=None) -> dict[tuple[str, str], str]:
    """{(rite, reading): its located reason}: the readings a rite's layout refuses (`refused:`,
    viz/model/refusal.py), which the grid does not run but names, with the reason."""
    from viz.model.package import bundled
    from viz.model.rite import Rite

    return {(pkg.name, r): str(p) for pkg in pkgs or bundled()
            for r, p in Rite(pkg.script, pkg.layout).refused_readings().items()}


def run(pkgs=None, out=None, keep=None) -> dict[Cell, list[str]]:
    """Each cell's strict problems (an empty list: it passes), compiling each combination once."""
    from viz.base.errors import InputError
    from viz.cli.rite import check_warnings
    from viz.model.rite import Rite
    from viz.query.faithful import wait_warnings

    got: dict[Cell, list[str]] = {}
    rites: dict[tuple, Rite] = {}
    for pkg, cell in cells(pkgs, keep):
        key = (str(pkg.script), cell.sets, cell.seed)
        if key not in rites:
            rites.clear()  # one scenario at a time: its readings share the Rite's layout
            rites[key] = Rite(pkg.script, pkg.layout, sets=cell.sets, seed=cell.seed)
        t0 = time.perf_counter()
        try:
            d = rites[key].get((cell.reading,))
            args = SimpleNamespace(script=str(pkg.script))
            ws = check_warnings(args, d) + tuple(wait_warnings(d.timeline, d.corpus))
            got[cell] = [f"{w.loc}: {w.message}" for w in ws]
        except InputError as e:
            got[cell] = [str(p) for p in e.problems]
        if out is not None:
            mark = "ok" if not got[cell] else f"{len(got[cell])} problem(s)"
            print(f"{time.perf_counter() - t0:6.1f} s  {cell}  {mark}", file=out, flush=True)
            for p in got[cell]:
                print(f"          {p}", file=out, flush=True)
    return got


def main() -> int:
    t0 = time.perf_counter()
    for (rite, reading), why in refused().items():
        print(f"refused  --rite {rite} --reading {reading}: {why}", flush=True)
    got = run(out=sys.stdout)
    bad = sum(1 for v in got.values() if v)
    print(f"{len(got)} combinations, {bad} failing, {time.perf_counter() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
