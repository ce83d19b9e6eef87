"""Stages like others (如初, 如賔禮): a stage's like: resolved into steps, before the reader.

resolve_likes rewrites a document's stages in place: a stage with `like: {stage, rite, actors,
places, props, cites, cite, steps}` takes the steps of an earlier stage of this rite (or of any
stage of another rite, by its folder, a bundled folder's name or its rite: name) with its actor
ids, place names and prop ids re-bound, the words of its cites replaced (or all of them made
one: cite:, the 如初 clause), some steps overridden or dropped (a range "A-B" drops A to B), and
its own steps (if any) after them. The copies keep the locations of the
steps they copy. Returns the other rites' files, so a change to them is noticed. Imports viz,
viz.base and source.py.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from viz import ASSETS
from viz.base.errors import Collector, InputError, Loc, clip, shorten
from viz.base.yamlsrc import YList, YMap, is_file, load_file

# keys whose text is words, not ids or places: never re-bound (a cite only by cites:)
WORDS = ("note", "doc", "reading", "text")
CITES = ("cite", "start")
MAX_DEPTH = 4


def _ymap(items: list[tuple[Any, Any]], like: YMap) -> YMap:
    m = YMap(items)
    m.loc = like.loc
    m.key_locs = {k: like.key_locs.get(k, like.loc) for k, _ in items}
    m.value_locs = {k: like.value_locs.get(k, like.loc) for k, _ in items}
    return m


def _ylist(items: list, locs: list, loc: Loc) -> YList:
    out = YList(items)
    out.loc, out.item_locs = loc, locs
    return out


def rebind(node: Any, names: dict, cites: dict, key: Any = None) -> Any:
    """A copy of node with ids and places in names re-bound and cites' words replaced."""
    if isinstance(node, str):
        if key in CITES:
            for old, new in cites.items():
                node = node.replace(old, new)
            return node
        return node if key in WORDS else names.get(node, node)
    if isinstance(node, YMap):
        return _ymap([(k, rebind(v, names, cites, k)) for k, v in node.items()], node)
    if isinstance(node, YList):
        return _ylist([rebind(v, names, cites, key) for v in node], list(node.item_locs),
                      node.loc)
    return node


def _other_rite(name: str, base: Path) -> Path | str | None:
    """A rite named by a path inside this rite's folder (relative to the manifest), a bundled
    folder's name, or the rite: of a bundled manifest; a path that leads out of the folder is
    refused (the reason, a str)."""
    from viz.model import bundled

    here = base / name
    if os.path.lexists(here) or os.path.isabs(name) or ".." in Path(name).parts:
        rites = {m.parent.name: m.parent
                 for m in sorted((ASSETS / "rites").glob("*/manifest.yaml"))}
        why = bundled.outside(base, name, rites, "rite")
        if why is not None and not is_file(ASSETS / "rites" / name / "manifest.yaml"):
            return why
    for p in (here, ASSETS / "rites" / name):
        if is_file(p / "manifest.yaml") or is_file(p):
            return _shown(Path(os.path.normpath(p)))
    for m in sorted((ASSETS / "rites").glob("*/manifest.yaml")):
        try:
            doc = load_file(m)
        except InputError:
            continue
        if isinstance(doc, dict) and doc.get("rite") == name:
            return _shown(m.parent)
    return None


def _shown(p: Path) -> Path:
    """A bundled rite's folder as the rite's own files are named: relative when under the
    current folder, so what a step's place prints (state's "script", coverage) does not depend
    on where the project was cloned."""
    try:
        rel = os.path.relpath(p)
    except ValueError:  # another drive on Windows
        return p
    return p if rel.startswith("..") else Path(rel)


def _span(n: Any, count: int) -> tuple[int, int] | None:
    """The steps a like:'s steps: key names, first and last (from 1): N or "A-B" (A ≤ B); None if
    it names no steps of count."""
    if isinstance(n, int) and not isinstance(n, bool):
        a = b = n
    elif isinstance(n, str) and n.count("-") == 1 and all(
            p.strip().isascii() and p.strip().isdigit() for p in n.split("-")):
        a, b = (int(p) for p in n.split("-"))
    else:
        return None
    return (a, b) if 1 <= a <= b <= count else None


def _rite_id(path: Path) -> str:
    """One name per rite, whichever way it was reached: its folder (a manifest's), or its file."""
    p = Path(os.path.realpath(path))
    return str(p.parent if p.name == "manifest.yaml" else p)


def resolve_likes(doc: Any, out: Collector, depth: int = 0,
                  chain: tuple[tuple[str, str], ...] = ()) -> tuple[Any, list[str]]:
    """The document with every stage's like: resolved (a new document, if any stage has one: the
    parsed files may be cached and are not changed); problems to out; and the other rites'
    files read. chain: the rites being resolved that reach this one ((id, name) each): a like:
    that reaches back to one of them is a cycle, an error at the like: that closes it."""
    from viz.model.script.source import read_document  # source reads a rite; like reads another

    stages = doc.get("stages") if isinstance(doc, YMap) else None
    if not isinstance(stages, YList) or not any(isinstance(st, YMap) and "like" in st
                                                for st in stages):
        return doc, []
    base = Path(doc.loc.file).parent
    if not chain:
        me = Path(doc.loc.file)
        chain = ((_rite_id(me), str(doc.get("rite") or me.parent.name)),)
    files: list[str] = []
    others: dict[str, dict] = {}
    earlier: dict[Any, YMap] = {}
    new = _ylist(list(stages), list(stages.item_locs), stages.loc)
    if hasattr(stages, "total"):
        new.total = stages.total
    for i, st in enumerate(new):
        if isinstance(st, YMap) and "like" in st:
            got = _like(st, earlier, others, base, out, files, depth, read_document, chain)
            if got is None:
                continue
            new[i] = st = got
        if isinstance(st, YMap):
            earlier.setdefault(st.get("name"), st)
            if "section" in st:
                earlier.setdefault(st["section"], st)
    copy = _ymap(list(doc.items()), doc)
    copy["stages"] = new
    for k in ("source_warnings",):
        if hasattr(doc, k):
            setattr(copy, k, getattr(doc, k))
    return copy, files


def _like(st: YMap, earlier: dict, others: dict, base: Path, out: Collector, files: list,
          depth: int, read_document, chain: tuple[tuple[str, str], ...]) -> YMap | None:
    """The stage with its like: resolved (the stage it names found, its steps copied), or None
    when that fails (the problem to out)."""
    lk = st["like"]
    lloc = st.loc_of("like")
    if isinstance(lk, str):
        lk = YMap(stage=lk)
        lk.loc, lk.key_locs, lk.value_locs = lloc, {}, {"stage": lloc}
    pool, where = earlier, "earlier in this rite"
    if "rite" in lk:
        rname = lk["rite"]
        if rname not in others:
            got = _other_stages(lk, base, out, depth, read_document, chain)
            if got is None:
                return None
            others[rname], ofiles = got
            files += ofiles
        pool, where = others[rname], f"in the rite {rname}"
    target = pool.get(lk["stage"])
    if target is None:
        known = "、".join(str(k) for k in pool if isinstance(k, str)) or "none"
        out.error(lk.loc_of("stage"), f"like: no stage {clip(lk['stage'])} {where}; known: "
                                      f"{shorten(known)}")
        return None
    if not isinstance(target.get("steps"), YList):  # its own like: failed, reported there
        out.error(lk.loc_of("stage"), f"like: the stage {clip(lk['stage'])} {where} has no "
                                      "steps to copy (its own like: is unresolved)")
        return None
    all_steps = _copied_steps(st, lk, target["steps"], out)
    if all_steps is None:
        return None
    items = [(k, v) for k, v in st.items() if k not in ("like", "steps")]
    got = _ymap([*items, ("steps", all_steps)], st)
    got.value_locs["steps"] = all_steps.loc
    return got


def _other_stages(lk: YMap, base: Path, out: Collector, depth: int, read_document,
                  chain: tuple[tuple[str, str], ...]) -> tuple[dict, list[str]] | None:
    """Another rite's stages, by name and by section (the first of each), its own like:s
    resolved, and the files it was read from; None when it cannot be reached (not found, a
    cycle, too deep, or unreadable: the problem to out)."""
    rname = lk["rite"]
    path = _other_rite(str(rname), base)
    if isinstance(path, str):
        out.error(lk.loc_of("rite"), f"like: rite: {path}")
        return None
    if path is None:
        out.error(lk.loc_of("rite"), f"like: no rite {clip(rname)} (a folder inside "
                                     "the rite's, a bundled rite's folder or its rite: "
                                     "name)")
        return None
    ids = [i for i, _ in chain]
    if _rite_id(path) in ids:
        loop = [n for _, n in chain[ids.index(_rite_id(path)):]] + [str(rname)]
        out.error(lk.loc_of("rite"), f"like: {{rite: {clip(rname)}}} comes back to a rite "
                                     f"it is read from: {' → '.join(loop)} (a cycle of "
                                     "like:s; a stage of this rite is named without "
                                     "rite:)")
        return None
    if depth >= MAX_DEPTH:
        out.error(lk.loc_of("rite"), f"like: rites reach through each other more than "
                                     f"{MAX_DEPTH} deep")
        return None
    try:
        odoc, ofiles = read_document(path)
    except InputError as e:
        out.problems.extend(e.problems)
        return None
    odoc, ofrom = resolve_likes(odoc, out, depth + 1, (*chain, (_rite_id(path), str(rname))))
    return ({k: s for s in reversed(odoc["stages"]) if isinstance(s, YMap)
             for k in (s.get("name"), s.get("section")) if k is not None}, [*ofiles, *ofrom])


def _copied_steps(st: YMap, lk: YMap, src: YList, out: Collector) -> YList | None:
    """The steps a like: gives its stage: the named stage's (src) re-bound, with like:'s steps:
    overriding or dropping some, then the stage's own; None when they are wrong or none are
    left (the problem to out)."""
    lloc = st.loc_of("like")
    names = {**(lk.get("actors") or {}), **(lk.get("places") or {}), **(lk.get("props") or {})}
    cites = dict(lk.get("cites") or {})
    steps = [rebind(s, names, cites) for s in src]
    if "cite" in lk:  # 如初: every copied step cites this stage's own words, in one line
        for s in steps:
            if isinstance(s, YMap):
                s["cite"] = lk["cite"]
                s.value_locs["cite"] = lk.loc_of("cite")
                s.pop("section", None)  # the clause is this stage's, not the model step's
    locs = list(src.item_locs)
    over = lk.get("steps") or YMap()
    for n in over:
        span = _span(n, len(steps))
        if span is None:
            out.error(over.key_loc(n) if isinstance(over, YMap) else lloc,
                      f"like: steps: {clip(n)} is not a step of {clip(lk['stage'])} nor a range "
                      f"of them like 2-5 (1 to {len(steps)})")
            return None
        if span[0] != span[1] and over[n] is not None:
            out.error(over.key_loc(n) if isinstance(over, YMap) else lloc,
                      f"like: steps: a range ({clip(n)}) only drops steps: its value must be "
                      "null")
            return None
        for k in range(span[0], span[1] + 1):
            steps[k - 1] = over[n]
            if over[n] is not None:
                locs[k - 1] = over.loc_of(n)
    kept = [(s, lc) for s, lc in zip(steps, locs) if s is not None]
    own = st.get("steps") or []
    all_steps = _ylist([s for s, _ in kept] + list(own),
                       [lc for _, lc in kept] + list(getattr(own, "item_locs", [])),
                       st.loc_of("steps") if "steps" in st else lloc)
    if not all_steps:
        out.error(lloc, f"like: {clip(lk['stage'])} leaves this stage no steps")
        return None
    return all_steps
