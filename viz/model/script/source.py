"""A rite's source: its files found, parsed and checked against the schema, as one document.

A rite folder has a manifest (`manifest.yaml`) naming a cast file (settings, cast, props), the
pattern files and the section files in order (one stage each); a one-file script holds the
same keys in one mapping. read_document makes either into one document whose every node knows
its file, line and column, so errors name the right file; each file is checked against its own
part of the schema (check_structure) and its numbers for NaN and infinity, and kept by its bytes
in the parse cache (viz/base/cache.py). script_readings lists the readings a document's
variants name. No state but the caches of the validators and the schema's salt. Imports
viz.base and viz.model.schema; never the reader's meaning checks (scope … reader).
"""
from __future__ import annotations

import hashlib
import math
import os
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from viz.base.cache import cached
from viz.base.errors import Collector, InputError, Loc, Problem, clip
from viz.base.yamlsrc import YList, YMap, is_dir, is_file, load_file, load_text, locate, numbers
from viz.model import bundled
from viz.model.schema import file_schema, schema_text

MANIFEST = "manifest.yaml"


# ---------------------------------------------------------------------------- structure


@cache
def _validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(file_schema(kind))


@lru_cache(maxsize=1)
def _salt() -> bytes:
    """What a cached check depends on besides the file: this program's schema."""
    return hashlib.sha256(schema_text().encode()).digest()


def _extra_keys(err: jsonschema.ValidationError) -> list:
    props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
    inst = err.instance
    return [k for k in inst if k not in props] if isinstance(inst, dict) else []


def _schema_problem(doc: YMap, err: jsonschema.ValidationError) -> Problem:
    """A shorter, more useful wording of jsonschema's message, at the most precise place."""
    path = list(err.absolute_path)
    where = "/".join(str(p) for p in path)
    at = f" at {where}" if where else ""
    loc = locate(doc, path, doc.loc)
    inst = err.instance
    if err.validator == "additionalProperties":
        extra = _extra_keys(err)
        if extra and isinstance(inst, YMap):
            loc = inst.key_loc(extra[0])
        known = ", ".join(err.schema.get("properties", {}))
        return Problem(loc, f"unexpected key {clip(extra[0] if extra else '?')}{at}; expected "
                            f"one of: {known}")
    if err.validator == "maxProperties" and isinstance(inst, dict):
        return Problem(loc, f"an action holds exactly one verb, found {', '.join(map(str, inst))}"
                            f"{at}")
    if err.validator in ("oneOf", "not") and isinstance(inst, dict) and "do" in inst and \
            "use" in inst:
        return Problem(inst.key_loc("do") if isinstance(inst, YMap) else loc,
                       f"a step takes do: or use:, not both{at}")
    if err.validator == "oneOf" and isinstance(inst, dict):
        return Problem(loc, f"a step needs do: (actions) or use: (a pattern){at}")
    if err.validator in ("oneOf", "anyOf") and err.context:
        # prefer the branch of the instance's own type: a mapping's errors, not "not a string"
        ctx = [e for e in err.context if e.validator != "type"] or list(err.context)
        best = jsonschema.exceptions.best_match(ctx)
        return _schema_problem(doc, best) if list(best.absolute_path) else Problem(
            loc, f"{clip(best.message, 200)}{at}")
    return Problem(loc, f"{clip(err.message, 200)}{at}")


WHAT = {"script": "a rite script is a YAML mapping with cast: and stages: (or a rite folder's "
                  "manifest with sections:)",
        "cast": "a cast file is a YAML mapping with settings:, cast: and props:",
        "patterns": "a pattern file is a YAML mapping patterns: {NAME: …}",
        "stage": "a section file is a YAML mapping with name: and steps: (one stage)"}


def check_structure(doc: Any, name: str, kind: str = "script") -> list[Problem]:
    if not isinstance(doc, YMap):
        return [Problem(getattr(doc, "loc", Loc(name, 1, 1)), WHAT[kind])]
    errs = sorted(_validator(kind).iter_errors(doc),
                  key=lambda e: list(map(str, e.absolute_path)))
    return [_schema_problem(doc, e) for e in errs]


def _checked_file(path: str | Path, kind: str) -> tuple[Any, list[Problem]]:
    """A file parsed and its structure and numbers checked, from the cache when its bytes are."""
    def work(text: str, name: str) -> tuple[Any, list[Problem]]:
        try:
            doc = load_text(text, name)
        except InputError as e:
            return None, e.problems
        problems = check_structure(doc, name, kind)
        if not problems:
            out = Collector()
            _check_numbers(doc, out)
            problems = out.problems
        return doc, problems
    return cached(path, kind, _salt(), work)


def _check_numbers(doc: Any, out: Collector) -> None:
    """Every number finite: YAML's .nan and .inf pass a schema's type and range checks."""
    for v, loc in numbers(doc):
        if isinstance(v, float) and not math.isfinite(v):
            out.error(loc, f"expected a finite number, found {v}")


# ---------------------------------------------------------------------------- a rite folder

_MANIFEST_KEYS = {"rite": str, "title": str, "note": str, "text": str, "layout": str,
                  "cast": str, "patterns": (str, list), "sections": list}


def _read_manifest(path: Path, upto: int | None = None) -> tuple[YMap, tuple[str, ...]]:
    """A rite folder's manifest and the files it names → one document, every node located.
    upto: read only the first so many section files (the stages list's `total` says how many
    the manifest names), and only the pattern files they use (_wanted)."""
    man = _manifest(path)
    out = Collector()
    base = path.parent
    files = [str(path)]

    def load(rel: Any, loc: Loc, kind: str) -> Any:
        return _load(rel, loc, kind, base, out, files)

    doc = YMap()
    doc.loc, doc.key_locs, doc.value_locs = man.loc, {}, {}
    for k in ("rite", "note"):
        if k in man:
            doc[k] = man[k]
            doc.key_locs[k], doc.value_locs[k] = man.key_loc(k), man.loc_of(k)
    cast = load(man["cast"], man.loc_of("cast"), "cast")
    for k, v in (cast or {}).items():
        if k != "note":
            doc[k] = v
            doc.key_locs[k], doc.value_locs[k] = cast.key_loc(k), cast.loc_of(k)
    pfiles = _pattern_files(man, base, out)
    first = None
    if upto is not None:  # a prefix: its stages first, then only the pattern files they use
        first = [load(rel, man["sections"].loc_of(i), "stage")
                 for i, rel in enumerate(man["sections"][:upto])]
        pfiles = _wanted(pfiles, [st for st in first if st is not None], base)
    pats, warnings = _patterns_of(pfiles, man, load, out)
    if pfiles:
        doc["patterns"] = pats
        doc.key_locs["patterns"] = doc.value_locs["patterns"] = man.loc_of("patterns")
    stages = YList()
    stages.loc, stages.item_locs = man.loc_of("sections"), []
    stages.total = len(man["sections"])
    for i, rel in enumerate(man["sections"]):
        if upto is not None and i >= upto:
            break
        st = first[i] if first is not None else load(rel, man["sections"].loc_of(i), "stage")
        if st is not None:
            stages.append(st)
            stages.item_locs.append(getattr(st, "loc", man["sections"].loc_of(i)))
    doc["stages"] = stages
    doc.key_locs["stages"] = man.key_loc("sections")
    doc.value_locs["stages"] = man.loc_of("sections")
    out.raise_if_errors()
    doc.source_warnings = warnings
    return doc, tuple(files)


def _manifest(path: Path) -> YMap:
    """The manifest parsed, its keys and their kinds checked (InputError if any is wrong)."""
    man = load_file(path)
    if not isinstance(man, YMap):
        raise InputError(Problem(getattr(man, "loc", Loc(str(path), 1, 1)),
                                 "a manifest is a YAML mapping with cast: and sections:"))
    out = Collector()
    for k in man:
        if k not in _MANIFEST_KEYS:
            out.error(man.key_loc(k), f"unexpected key {clip(k)} in a manifest; expected one of: "
                                      f"{', '.join(_MANIFEST_KEYS)}")
        elif not isinstance(man[k], _MANIFEST_KEYS[k]):
            want = "a list of files" if k == "sections" else "a file name"
            out.error(man.loc_of(k), f"{k}: expected {want}")
    for k in ("cast", "sections"):
        if k not in man:
            out.error(man.loc, f"a manifest needs {k}:")
    out.raise_if_errors()
    return man


def _load(rel: Any, loc: Loc, kind: str, base: Path, out: Collector, files: list[str]) -> Any:
    """One file a manifest names (rel: beside it; a Path: found in a patterns folder, the rite's
    own or the library), parsed and checked, its path added to files; None when it is missing,
    outside the rite's folder or wrong (the problems to out)."""
    if not isinstance(rel, (str, Path)) or not str(rel):
        out.error(loc, f"expected a file name, found {clip(rel)}")
        return None
    if isinstance(rel, Path):  # found in a patterns folder: the rite's own, or the library
        p = rel
        if not (bundled.within(base, p) or bundled.within(bundled.LIBRARY, p)):
            out.error(loc, f"{kind}: {p.parent.name}/{p.name} leads out of the rite's folder "
                           f"({base.name}/): a package reads only its own files")
            return None
    else:
        why = bundled.outside(base, rel)
        if why is not None:
            out.error(loc, f"{kind}: {why}")
            return None
        p = base / rel
    if not is_file(p):
        what = "file or folder" if kind == "patterns" else "file"
        out.error(loc, f"no {what} {rel} beside the manifest ({base})")
        return None
    files.append(str(p))
    try:
        doc, problems = _checked_file(p, kind)
    except InputError as e:
        doc, problems = None, e.problems
    out.problems.extend(problems)
    return None if problems else doc


def _pattern_files(man: YMap, base: Path, out: Collector) -> list[tuple[str | Path, Loc, int]]:
    """The pattern files the manifest's patterns: names, each with the place of its entry and
    the entry's index: a file, or every .yaml of a folder, the rite's own or a library's."""
    spec = man.get("patterns")
    entries = ([(spec, man.loc_of("patterns"))] if isinstance(spec, str) else
               [(v, spec.loc_of(i)) for i, v in enumerate(spec)] if isinstance(spec, YList)
               else [])
    pfiles: list[tuple[str | Path, Loc, int]] = []
    for n, (rel, loc) in enumerate(entries):
        # the rite's own file or folder, or the shared library by name (`library`), wherever
        # the rite is copied
        libs = bundled.libraries()
        d, why = bundled.locate(base, rel, libs, "pattern library")
        if d is None:
            out.error(loc, f"patterns: {why}" if why else
                      f"patterns: no file or folder {clip(rel)} in the rite's folder ({base}), "
                      f"nor a bundled pattern library of that name ({bundled.known(libs)})")
        elif is_dir(d):
            pfiles += [(p, loc, n) for p in sorted(d.glob("*.yaml"))]
        else:
            pfiles.append((d, loc, n))
    return pfiles


def _patterns_of(pfiles: list, man: YMap, load, out: Collector) -> tuple[YMap, list[Problem]]:
    """The pattern files' patterns in one mapping, and the warnings: a name defined twice in
    one entry is an error; a later entry's (the rite's own) overrides an earlier's (a library's)
    with a warning."""
    pats = YMap()
    pats.loc, pats.key_locs, pats.value_locs = man.loc, {}, {}
    # name → the `places:` its file says its patterns need of the layout (viz.model.script
    # .patterns checks them at a use)
    pats.needs = {}
    entry_of: dict[str, int] = {}
    warnings: list[Problem] = []
    for rel, loc, n in pfiles:
        pd = load(rel, loc, "patterns")
        if pd is None:
            continue
        body = pd["patterns"]
        for name, p in body.items():
            if name in pats and entry_of[name] == n:
                out.error(body.key_loc(name), f"pattern {clip(name)} is defined twice (first at "
                                              f"{pats.key_loc(name)})")
                continue
            if name in pats:  # a later entry of the list (the rite's own) over a library's
                warnings.append(Problem(body.key_loc(name), f"pattern {clip(name)} overrides "
                                        f"the one at {pats.key_loc(name)}", warning=True))
                del pats[name]
            entry_of[name] = n
            pats[name] = p
            if pd.get("places"):
                pats.needs[name] = pd["places"]
            else:
                pats.needs.pop(name, None)
            pats.key_locs[name], pats.value_locs[name] = body.key_loc(name), body.loc_of(name)
    return pats, warnings


_USE = re.compile(r"""use:\s*["']?([^\s,"'}\]#]+)""")


def _uses(node: Any) -> set[str]:
    """The pattern names a parsed stage uses (use:), at any depth."""
    if isinstance(node, Mapping):
        got = {node["use"]} if isinstance(node.get("use"), str) else set()
        return got.union(*(_uses(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_uses(v) for v in node))
    return set()


def _wanted(pfiles: list, stages: list, base: Path) -> list:
    """A prefix's pattern files (issue 29: a one-shot command compiles only what it needs):
    those whose text holds, as a key, a name the stages use, or one that those files' patterns
    use in turn, found by scanning the text. A file defining a name that is used is never left
    out (a scan keeps more, never fewer); a file that cannot be scanned is kept, for load to
    report. A use the scan misses leaves the prefix short of a pattern: an error, and Rite.prefix
    loads the whole rite instead."""
    from viz.base.yamlsrc import read_text

    texts: list[str | None] = []
    for p, _, _ in pfiles:
        try:
            ok = isinstance(p, Path) and (bundled.within(base, p)
                                          or bundled.within(bundled.LIBRARY, p))
            texts.append(read_text(p) if ok else None)
        except InputError:
            texts.append(None)
    need, chosen = _uses(stages), set()
    while True:
        keys = re.compile(r"""(?m)^[ \t]*["']?(?:%s)["']?[ \t]*:""" % "|".join(
            re.escape(u) for u in sorted(need))) if need else None
        new = {k for k, t in enumerate(texts) if k not in chosen and (
            t is None or (keys is not None and keys.search(t)))}
        if not new:
            return [f for k, f in enumerate(pfiles) if k in chosen]
        chosen |= new
        for k in new:
            need |= set(_USE.findall(texts[k] or ""))


def read_document(path: str | Path, upto: int | None = None) -> tuple[Any, tuple[str, ...]]:
    """A script path (a rite folder, its manifest, or a one-file script) → (document, files).
    upto: a rite folder's first so many section files only (see _read_manifest)."""
    p = Path(path)
    if is_dir(p):
        m = p / MANIFEST
        if not m.is_file():
            raise InputError(Problem(Loc(str(p), 1, 1), f"a rite folder needs a {MANIFEST}"))
        return _read_manifest(m, upto)
    doc, problems = _checked_file(p, "script")
    if isinstance(doc, YMap) and "sections" in doc and "stages" not in doc:
        return _read_manifest(p, upto)
    if problems:
        raise InputError(problems)
    return doc, (str(p),)


def script_readings(doc: Any) -> set[str]:
    """Every reading a document's step variants name with actions of their own (do: or use:)."""
    out: set[str] = set()
    for st in (doc.get("stages") or []) if isinstance(doc, Mapping) else []:
        for s in (st.get("steps") or []) if isinstance(st, Mapping) else []:
            for v in (s.get("variants") or []) if isinstance(s, Mapping) else []:
                if isinstance(v, Mapping) and isinstance(v.get("reading"), str) and (
                        "do" in v or "use" in v):
                    out.add(v["reading"])
    return out
