"""How fast hostile inputs are refused (issue 28): prints a table and writes JSON to bench/results/.

    python bench/robust.py

Each row builds one of the issue's inputs on the toy rite of tests/test_package.py in a temporary
folder and runs `python main.py check` on it as a user would (a new process, no cache), recording
the exit code, the wall and CPU time and the peak memory of the child, and the first error line.
The issue asks that each is refused in at most a few seconds and a few hundred MB. Compare rows
as ratios; absolute numbers depend on the machine and on what else it runs.
"""
from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_package import chain, make_toy, toy_patterns  # noqa: E402

from viz.base.fileio import atomic_write_text, next_free_name  # noqa: E402


def _patterns(toy: Path, levels: int) -> list[str]:
    toy_patterns(toy, chain(levels), levels)
    return ["--rite", str(toy)]


def _repeated(toy: Path) -> list[str]:
    steps = "".join("  - cite: 賔拜辱\n    do: [{posture: {who: bin, is: 拜}}]\n"
                    for _ in range(20))
    (toy / "sections" / "02.yaml").write_text(f"name: 拜\nsection: 謀賔\nsteps:\n{steps}",
                                              encoding="utf-8")
    man = toy / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8") + "  - sections/02.yaml\n" * 2000,
                   encoding="utf-8")
    return ["--rite", str(toy)]


def _text(toy: Path, data: bytes) -> list[str]:
    (toy / "text" / "bad.json").write_bytes(data)
    man = toy / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8").replace("text: text/corpus.json",
                                                           "text: text/bad.json"),
                   encoding="utf-8")
    return ["--rite", str(toy)]


def _like_cycle(toy: Path) -> list[str]:
    other = make_toy(toy.parent / "other")
    for r, o in ((toy, "../other"), (other, "../toy")):
        (r / "sections" / "02.yaml").write_text(
            f"name: 再謀\nsection: 謀賔\nlike: {{rite: {o}, stage: 再謀}}\n", encoding="utf-8")
        man = r / "manifest.yaml"
        man.write_text(man.read_text(encoding="utf-8") + "  - sections/02.yaml\n",
                       encoding="utf-8")
    return ["--rite", str(toy)]


def _fifo(toy: Path) -> list[str]:
    os.mkfifo(toy / "pipe.yaml")
    return ["--rite", str(toy), "--layout", str(toy / "pipe.yaml")]


CASES = {
    "the toy rite as it is (for scale)": lambda toy: ["--rite", str(toy)],
    "patterns 6 deep, ten uses each (2.1 M steps)": lambda toy: _patterns(toy, 6),
    "patterns 5 deep, ten uses each (111 k steps)": lambda toy: _patterns(toy, 5),
    "a 20-step section listed 2,000 times": _repeated,
    "text: a password file": lambda toy: _text(toy, b"root:x:0:0:root:/r:/bin/sh\n"),
    "text: very deep JSON": lambda toy: _text(toy, b"[" * 200_000 + b"]" * 200_000),
    "like: A → B → A": _like_cycle,
    "--layout a FIFO": _fifo,
}


def run_case(name: str, build) -> dict:
    with tempfile.TemporaryDirectory(prefix="xiangshe-bench-") as d:
        toy = make_toy(Path(d) / "toy")
        args = build(toy)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            got = subprocess.run([sys.executable, str(ROOT / "main.py"), "check", *args],
                                 capture_output=True, text=True, timeout=600,
                                 env={**os.environ, "XIANGSHE_CACHE": "off",
                                      "SDL_VIDEODRIVER": "dummy"})
            code, text = got.returncode, got.stdout + got.stderr
        except subprocess.TimeoutExpired:
            code, text = None, "timed out after 600 s"
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return {"case": name, "exit": code, "wall_s": round(wall, 2),
            "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
            "peak_mb": round(after.ru_maxrss / 1024, 1), "first_line": first[:200]}


def main() -> int:
    rows = []
    print(f"{'case':48} {'exit':>4} {'wall s':>7} {'cpu s':>6} {'peak MB':>8}")
    for name, build in CASES.items():
        r = run_case(name, build)
        rows.append(r)
        print(f"{name:48} {str(r['exit']):>4} {r['wall_s']:7.2f} {r['cpu_s']:6.2f} "
              f"{r['peak_mb']:8.1f}")
    out = {"bench": "robust", "python": platform.python_version(), "rows": rows,
           "note": "peak_mb is the largest child so far (ru_maxrss of RUSAGE_CHILDREN)"}
    path = next_free_name(ROOT / "bench" / "results", "robust", ".json")
    atomic_write_text(path, json.dumps(out, ensure_ascii=False, indent=2))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
