"""The compile's state has owners (viz/model/compile/__init__.py): only an owner writes its own state.

A static read of viz/model/compile/*.py and viz/model/verbs.py. An owner is a class of the compile
package with methods; its state is every attribute its methods assign on self. A record (a class
with no methods, as the track's row buffer) belongs to the owners that build it. A write is an
assignment (plain, annotated, augmented) to an attribute or through a subscript, a del, a setattr,
or a mutating method call (append, update, pop …) on an attribute; its chain of attributes is read
through simple aliases (`w = c.world; w.pos[a] = …`, `rows = self.track.rows; rows.append(…)`).
A write whose chain names another owner's state outside that owner's methods is an offence. Also:
no class in viz/model inherits from more than one project class, none of the compile's classes
delegates with __getattr__, and the package's __init__ imports nothing.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILE = ROOT / "viz" / "model" / "compile"
MUTATORS = frozenset({
    "append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault",
    "add", "discard", "sort", "reverse", "fill", "resize", "itemset", "put", "appendleft",
    "extendleft", "popleft", "difference_update", "intersection_update",
    "symmetric_difference_update", "__setitem__", "__delitem__", "__setattr__"})


def _chain(node: ast.AST) -> tuple[str | None, list[str]]:
    """The root name and the attributes of an expression like a.b[k].c (the root None when it
    is a call or anything else)."""
    attrs: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript | ast.Starred):
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id, attrs[::-1]
        else:
            return None, attrs[::-1]


def _is_chain(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute | ast.Subscript) and _chain(node)[0] is not None


def _classes(trees: dict[str, ast.Module]) -> tuple[dict[str, set[str]], set[str]]:
    """attribute name → the owner classes whose state it is; the owner classes' names."""
    defs = [c for t in trees.values() for c in ast.walk(t) if isinstance(c, ast.ClassDef)]
    owners = {c.name for c in defs if any(isinstance(b, ast.FunctionDef) for b in c.body)}
    owned: dict[str, set[str]] = {}
    for c in defs:
        if c.name not in owners:
            continue
        for n in ast.walk(c):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and \
                    isinstance(n.value, ast.Name) and n.value.id == "self":
                owned.setdefault(n.attr, set()).add(c.name)
    for rec in (c for c in defs if c.name not in owners):  # records: their builders' state
        builders = {c.name for c in defs if c.name in owners and any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == rec.name
            for n in ast.walk(c))} or {rec.name}
        for n in rec.body:
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                owned.setdefault(n.target.id, set()).update(builders)
    return owned, owners


def _aliases(fn: ast.AST) -> dict[str, list[tuple[str | None, list[str]]]]:
    """name → the chains it is bound to in fn (every binding, so a write through it is checked
    against each), resolved through other aliases."""
    raw: dict[str, list[ast.AST]] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign | ast.AnnAssign) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for tg in targets:
                pairs = (zip(tg.elts, n.value.elts) if isinstance(tg, ast.Tuple)
                         and isinstance(n.value, ast.Tuple) else [(tg, n.value)])
                for name, value in pairs:
                    if isinstance(name, ast.Name) and (_is_chain(value)
                                                       or isinstance(value, ast.Name)):
                        raw.setdefault(name.id, []).append(value)
    out: dict[str, list[tuple[str | None, list[str]]]] = {}

    def resolve(expr: ast.AST, seen: frozenset) -> list[tuple[str | None, list[str]]]:
        root, attrs = _chain(expr)
        if root in raw and root not in seen:
            return [(r, a + attrs) for v in raw[root] for r, a in resolve(v, seen | {root})]
        return [(root, attrs)]

    for name, values in raw.items():
        out[name] = [c for v in values for c in resolve(v, frozenset({name}))]
    return out


def _writes(fn: ast.AST):
    """(line, what, target expression) for each write in fn."""
    def targets(t: ast.AST):
        if isinstance(t, ast.Tuple | ast.List):
            for e in t.elts:
                yield from targets(e)
        elif isinstance(t, ast.Attribute | ast.Subscript | ast.Starred):
            yield t

    for n in ast.walk(fn):
        if isinstance(n, ast.Assign):
            for tg in n.targets:
                for t in targets(tg):
                    yield n.lineno, "assigns", t
        elif isinstance(n, ast.AnnAssign | ast.AugAssign):
            for t in targets(n.target):
                yield n.lineno, "assigns", t
        elif isinstance(n, ast.Delete):
            for tg in n.targets:
                for t in targets(tg):
                    yield n.lineno, "deletes", t
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                n.func.attr in MUTATORS:
            yield n.lineno, f".{n.func.attr}()", n.func.value
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and \
                n.func.id in ("setattr", "delattr") and len(n.args) >= 2:
            name = n.args[1].value if isinstance(n.args[1], ast.Constant) else "?"
            yield n.lineno, n.func.id, ast.Attribute(n.args[0], str(name), ast.Store())


def _functions(tree: ast.Module):
    """(enclosing class name or None, function) for each top-level function and method."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield None, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    yield node.name, item


def offences(sources: dict[str, str], owners_from: set[str] | None = None) -> list[str]:
    """Each write to another owner's state, as 'file:line: Class.method writes Owner's attr
    (how)'. sources: file name → text; the owners are the classes of owners_from (default:
    every file)."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    owned, _ = _classes({k: v for k, v in trees.items()
                         if owners_from is None or k in owners_from})
    found = []
    for name, tree in trees.items():
        for cls, fn in _functions(tree):
            aliases = _aliases(fn)
            for line, how, target in _writes(fn):
                root, attrs = _chain(target)
                chains = [(r, a + attrs) for r, a in aliases[root]] if root in aliases \
                    else [(root, attrs)]
                for _, path in chains:
                    # the state written is the last owned attribute: c.world.pos[a] = … writes
                    # the world's pos, not the context's world
                    attr = next((a for a in reversed(path) if a in owned), None)
                    whose = owned.get(attr, set())
                    if whose and cls not in whose:
                        found.append(f"{name}:{line}: {cls or ''}.{fn.name} writes "
                                     f"{'/'.join(sorted(whose))}'s {attr} ({how})")
    return sorted(set(found))


def _compile_sources() -> dict[str, str]:
    files = sorted(COMPILE.glob("*.py")) + [ROOT / "viz" / "model" / "verbs.py"]
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in files}


def test_only_an_owner_writes_its_state():
    sources = _compile_sources()
    owners = {k for k in sources if k.startswith("viz/model/compile/")}
    assert offences(sources, owners) == []
    owned, classes = _classes({k: ast.parse(v) for k, v in sources.items() if k in owners})
    # the owners the compile is built of, and the state the review named for each
    assert {"World", "Track", "Range", "Wardrobe", "Legs", "Ctx", "Compiler"} <= classes
    for attr, owner in (("pos", "World"), ("holder", "World"), ("marks", "World"),
                        ("loosed", "World"), ("shown", "World"), ("kf", "Track"),
                        ("buf", "Track"), ("t", "Track"), ("motion", "Track"),
                        ("tally", "Range"), ("shot_log", "Range"), ("worn", "Wardrobe"),
                        ("strung", "Wardrobe"), ("planned", "Legs")):
        assert owned[attr] == {owner}, attr


def _offences(text: str) -> list[str]:
    return [o.split(": ", 1)[1] for o in offences({"m.py": textwrap.dedent(text)})]


OWNERS = """
    class World:
        def __init__(self):
            self.pos = []
            self.marks = {}
        def mark(self, name, xy):
            self.marks[name] = xy
    class Track:
        def __init__(self):
            self.rows = []
            self.t = 0.0
        def row(self, r):
            self.rows.append(r)
            self.t += 1
"""


def test_an_owner_writing_its_own_state_is_no_offence():
    assert _offences(OWNERS + """
    def ok(ctx):
        ctx.world.mark("x", (0, 0))
        ctx.track.row(1)
        local = []
        local.append(ctx.world.pos[0])
        d = {}
        d["k"] = ctx.track.t
    """) == []


def test_each_kind_of_write_to_another_owners_state_is_caught():
    got = _offences(OWNERS + """
    class Ctx:
        def __init__(self):
            self.world = World()
            self.track = Track()
        def meddle(self, a):
            self.world.pos[a] = (1, 2)
            self.track.t += 1.0
            del self.world.marks["x"]
            self.track.rows.extend([1])
            setattr(self.world, "pos", [])
    def meddle(c):
        c.world.marks.update(x=1)
        c.track.rows = []
    """)
    assert sorted(got) == [
        ".meddle writes Track's rows (assigns)",
        ".meddle writes World's marks (.update())",
        "Ctx.meddle writes Track's rows (.extend())",
        "Ctx.meddle writes Track's t (assigns)",
        "Ctx.meddle writes World's marks (deletes)",
        "Ctx.meddle writes World's pos (assigns)",
        "Ctx.meddle writes World's pos (setattr)",
    ], got


def test_a_write_through_an_alias_is_caught():
    got = _offences(OWNERS + """
    class Ctx:
        def __init__(self):
            self.world = World()
            self.track = Track()
        def via(self):
            rows = self.track.rows
            rows.append(1)
    def via(ctx):
        w = ctx.world
        p = w.pos
        p[0] = (0, 0)
        a, b = ctx.world.marks, 1
        a.clear()
    """)
    assert sorted(got) == [".via writes World's marks (.clear())",
                   ".via writes World's pos (assigns)",
                   "Ctx.via writes Track's rows (.append())"], got


def test_a_record_belongs_to_whoever_builds_it():
    got = _offences("""
    class Rows:
        motion: list
    class Track:
        def __init__(self):
            self.buf = Rows()
        def row(self, r):
            self.buf.motion.append(r)
    def meddle(buf):
        buf.motion.append(1)
    """)
    assert got == [".meddle writes Track's motion (.append())"], got


def _project_bases(tree: ast.Module, project: set[str]) -> dict[str, list[str]]:
    """class name → its bases that are project classes (defined in this module, or imported
    from viz)."""
    local = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    imported = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                and (n.module or "").startswith("viz") for a in n.names}
    modules = {a.asname or a.name.split(".")[0] for n in ast.walk(tree)
               if isinstance(n, ast.Import) for a in n.names if a.name.startswith("viz")} | {
        a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
        and (n.module or "").startswith("viz") for a in n.names}
    out = {}
    for c in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        mine = []
        for b in c.bases:
            if isinstance(b, ast.Name) and (b.id in local or b.id in imported & project):
                mine.append(b.id)
            elif isinstance(b, ast.Attribute) and _chain(b)[0] in modules and b.attr in project:
                mine.append(b.attr)
        out[c.name] = mine
    return out


def _project_classes() -> set[str]:
    return {n.name for p in (ROOT / "viz").rglob("*.py")
            for n in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(n, ast.ClassDef)}


def test_no_class_in_the_model_inherits_from_two_project_classes():
    project = _project_classes()
    two = {f"{p.relative_to(ROOT)}: {c}({', '.join(bs)})"
           for p in sorted((ROOT / "viz" / "model").rglob("*.py"))
           for c, bs in _project_bases(ast.parse(p.read_text(encoding="utf-8")), project).items()
           if len(bs) > 1}
    assert two == set(), sorted(two)  # the reader's mixins went with the passes
    # the check sees a mixin stack for what it is
    snippet = ast.parse("from viz.model.x import _A, _B\nclass C(_A, _B, object): pass\n")
    assert _project_bases(snippet, {"_A", "_B"}) == {"C": ["_A", "_B"]}


def test_the_compile_delegates_nothing_and_its_init_imports_nothing():
    for p in COMPILE.glob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                    and n.name in ("__getattr__", "__getattribute__")], p.name
    init = COMPILE / "__init__.py"
    assert not [n for n in ast.parse(init.read_text("utf-8")).body
                if isinstance(n, ast.Import | ast.ImportFrom)]
