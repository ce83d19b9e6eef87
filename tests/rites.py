"""A trimmed copy of the bundled rite for tests that compile, edit or damage one: sections
first…last (they follow on from 01, so no gap is needed) and only the pattern files they use."""
from __future__ import annotations

import json
import re
import shutil
from functools import lru_cache
from pathlib import Path

import yaml

from viz import ASSETS, DEFAULT_SCRIPT


def _uses(node) -> set[str]:
    """The patterns a parsed YAML node names with `use:`."""
    if isinstance(node, dict):
        found = {node["use"]} if isinstance(node.get("use"), str) else set()
        return found.union(*(_uses(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_uses(v) for v in node))
    return set()


@lru_cache(maxsize=None)
def _parsed(text: str):
    """A YAML text parsed, by libyaml where PyYAML has it, once a process: trimmed() reads
    every section and pattern file of the bundled rite (in pure Python that was 4.6 s of CPU a
    copy, more than compiling the copy). Callers only read what it gives."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506


def _yaml(path: Path):
    return _parsed(path.read_text(encoding="utf-8"))


def copy_bundled(folder: Path) -> Path:
    """A copy of the bundled rite's folder at `folder` (its manifest names the bundled text,
    hall and library by name, so the copy finds them wherever it is)."""
    shutil.copytree(DEFAULT_SCRIPT, folder)
    return folder


def trimmed(folder: Path, first: int, last: int) -> Path:
    """A copy of the bundled rite that plays sections first…last only (they follow on, so no
    gap is needed), with only the pattern files they use: a test that compiles it takes
    seconds, not the whole rite's minute. The cast and props the dropped sections declare are
    declared in the last kept one instead (absent until brought, as there), for the patterns
    that name them."""
    copy_bundled(folder)
    man = folder / "manifest.yaml"
    text = man.read_text(encoding="utf-8")
    names = re.findall(r"^  - (sections/(\d\d)-\S+\.yaml)$", text, re.M)
    kept = [n for n, k in names if first <= int(k) <= last]
    assert len(kept) == last - first + 1, names
    docs = {n: _yaml(folder / n) for n, _ in names}
    defined = {f"{where}/{f.name}": _yaml(f)["patterns"]
               for where, d in (("assets/patterns", ASSETS / "patterns"),
                                ("patterns", folder / "patterns"))
               for f in sorted(d.glob("*.yaml"))}
    used, todo = set(), _uses([docs[n] for n in kept])
    while todo:
        used |= todo
        todo = _uses([p[u] for p in defined.values() for u in todo if u in p]) - used
    files = [f for f, p in defined.items() if used & set(p)]
    text, n = re.subn(r"^patterns: \[library, patterns\].*$",
                      lambda m: f"patterns: [{', '.join(files)}]", text, count=1, flags=re.M)
    assert n == 1, "the manifest no longer reads the library and its patterns folder"
    head = text[:text.index("\nsections:\n")]
    man.write_text(head + "\nsections:\n" + "".join(f"  - {n}\n" for n in kept), encoding="utf-8")
    last_file = folder / kept[-1]
    text = last_file.read_text(encoding="utf-8")
    for key in ("cast", "props"):
        items = [i for n, _ in names if n not in kept for i in docs[n].get(key) or []]
        lines = "".join(f"  - {json.dumps(i, ensure_ascii=False)}\n" for i in items)
        if not items:
            continue
        if re.search(rf"^{key}:\n", text, re.M):
            text = re.sub(rf"^{key}:\n", lambda m, lines=lines: m.group(0) + lines, text, count=1,
                          flags=re.M)
        else:
            text = text.rstrip("\n") + f"\n{key}:\n" + lines
    last_file.write_text(text, encoding="utf-8")
    return folder
