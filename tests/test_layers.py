"""The layers of viz/, read from the source: every import (top level, inside functions, under
TYPE_CHECKING) goes down the order base < text < model < query < draw < backends < export < app
< cli, never in a circle; nothing imports the command line; nothing below the window imports it;
nothing below the back ends imports pygame; a package's __init__ imports nothing."""
from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VIZ = ROOT / "viz"
LAYERS = ("base", "text", "model", "query", "draw", "backends", "export", "app", "cli")
# packages whose __init__ may import (text re-exports its corpus API)
INIT_IMPORTS = {"viz", "viz.text"}


def _name(f: Path) -> str:
    parts = f.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=None)
def _tree(f: Path) -> ast.Module:
    """f parsed, once for the module's tests (they only read the tree)."""
    return ast.parse(f.read_text(encoding="utf-8"))


def _imports(f: Path, mod: str, known: set[str]) -> set[str]:
    """The modules of viz/ that f imports: `import a.b`, `from a import b` (b a module or a name),
    relative imports resolved, wherever they stand in the file."""
    out: set[str] = set()
    is_pkg = f.name == "__init__.py"
    for n in ast.walk(_tree(f)):
        if isinstance(n, ast.Import):
            for a in n.names:
                out.add(a.name)
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                pkg = mod.split(".") if is_pkg else mod.split(".")[:-1]
                pkg = pkg[: len(pkg) - (n.level - 1)]
                base = ".".join([*pkg, *([n.module] if n.module else [])])
            else:
                base = n.module or ""
            for a in n.names:
                sub = f"{base}.{a.name}"
                out.add(sub if sub in known else base)
    # `import viz.a.b` also runs viz.a's __init__, but that imports nothing (tested below)
    return {d for d in out if d in known and d != mod}


def graph(root: Path = VIZ) -> dict[str, set[str]]:
    files = {_name(f): f for f in root.rglob("*.py")}
    known = set(files)
    return {m: _imports(f, m, known) for m, f in files.items()}


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1 on the stack, 2 done
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(g.get(m, ())):
            if state.get(d) == 1:
                return [*stack[stack.index(d):], d]
            if d not in state and (found := visit(d)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(g):
        if m not in state and (found := visit(m)):
            return found
    return None


def rank(mod: str) -> int:
    """viz itself (ROOT, ASSETS, defaults) is below everything; a module straight under viz/
    belongs to no layer and is an error."""
    if mod == "viz":
        return -1
    layer = mod.split(".")[1]
    if layer not in LAYERS:
        raise AssertionError(f"{mod}: every module belongs to a layer: {', '.join(LAYERS)}")
    return LAYERS.index(layer)


def upward(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports that go up the layers (a module importing a higher layer)."""
    return sorted((m, d) for m, ds in g.items() for d in ds if rank(d) > rank(m))


@pytest.fixture(scope="module")
def viz_graph() -> dict[str, set[str]]:
    """graph() of viz/, read once for the module (each read parses every file)."""
    return graph()


@pytest.fixture
def g(viz_graph) -> dict[str, set[str]]:
    """A copy of the graph for one test, which may plant an import in it."""
    return {m: set(ds) for m, ds in viz_graph.items()}


def test_every_module_is_in_a_layer(g):
    for m in g:
        rank(m)


def test_no_circle(g):
    assert find_cycle(g) is None


def test_a_planted_circle_is_found(g):
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    g["viz.base.errors"] = g["viz.base.errors"] | {"viz.model.rite"}  # rite → … → errors
    cycle = find_cycle(g)
    assert cycle and cycle[0] == cycle[-1] and "viz.base.errors" in cycle


def test_a_planted_circle_in_the_source_is_found(tmp_path):
    """The graph is read from files: an import inside a function, under TYPE_CHECKING, or
    relative counts as well as one at the top."""
    pkg = tmp_path / "viz"
    (pkg / "model").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "model" / "__init__.py").write_text('"""doc"""\n')
    (pkg / "model" / "a.py").write_text("def f():\n    from viz.model import b\n")
    (pkg / "model" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import X\n")
    (pkg / "model" / "c.py").write_text("import viz.model.a\nX = 1\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        g = graph(pkg)
    finally:
        ROOT = saved
    assert find_cycle(g) == ["viz.model.a", "viz.model.b", "viz.model.c", "viz.model.a"]


def test_the_flow_goes_one_way(g):
    """No module imports a layer above its own: nothing but the command line imports viz.cli,
    nothing below the window imports viz.app, the composer never imports a back end."""
    assert upward(g) == []


def test_an_upward_import_is_found(g):
    g["viz.draw.scene"] = g["viz.draw.scene"] | {"viz.backends.pgdraw"}
    g["viz.model.rite"] = g["viz.model.rite"] | {"viz.cli.options"}
    assert upward(g) == [("viz.draw.scene", "viz.backends.pgdraw"),
                         ("viz.model.rite", "viz.cli.options")]


def test_package_inits_import_nothing():
    """A package's __init__ is its docstring: what lives there and what it may import."""
    for f in VIZ.rglob("__init__.py"):
        mod = _name(f)
        tree = _tree(f)
        assert ast.get_docstring(tree), f"{f}: say what lives here and what it may import"
        if mod in INIT_IMPORTS:
            continue
        imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert not imports, f"{f} imports: importing a sibling runs it, hiding circles"


BELOW_THE_BACK_ENDS = ["base", "text", "model", "query", "draw"]


@pytest.fixture(scope="module")
def pygame_after(viz_graph) -> dict[str, list[str]]:
    """In one fresh Python, the modules of each layer below the back ends imported in turn, from
    the bottom: layer → the pygame modules loaded once it was (or its import error). A layer
    that loads pygame shows it first; those below it were imported before and did not."""
    mods = {layer: sorted(m for m in viz_graph if m.split(".")[1:2] == [layer])
            for layer in BELOW_THE_BACK_ENDS}
    code = ("import importlib, json, sys, traceback\n"
            f"out = {{}}\nfor layer, mods in {mods!r}.items():\n"
            "    try:\n        for m in mods:\n            importlib.import_module(m)\n"
            "    except Exception:\n        out[layer] = traceback.format_exc()\n"
            "        continue\n"
            "    out[layer] = sorted(m for m in sys.modules if m.split('.')[0] == 'pygame')\n"
            "print(json.dumps(out))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])  # (after pygame's greeting, if it came)


@pytest.mark.parametrize("layer", BELOW_THE_BACK_ENDS)
def test_below_the_back_ends_nothing_imports_pygame(layer, pygame_after):
    """Every module of the layers below the back ends imports without pygame."""
    assert pygame_after[layer] == [], (layer, pygame_after[layer])


MAX_CLASS_LINES = 400


def test_no_class_holds_more_than_a_part_of_the_program():
    """A class over about 400 lines does several things: split it by what they are (the reader,
    the compiler and the window were split so, into parts that are handed to each other)."""
    big = []
    for f in VIZ.rglob("*.py"):
        for n in ast.walk(_tree(f)):
            if isinstance(n, ast.ClassDef) and n.end_lineno - n.lineno + 1 > MAX_CLASS_LINES:
                big.append(f"{f.relative_to(ROOT)}:{n.lineno} {n.name} "
                           f"({n.end_lineno - n.lineno + 1} lines)")
    assert big == []
