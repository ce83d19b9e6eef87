"""A rite package: what its manifest names besides the script (title, text, layout), and
`--rite NAME|PATH` resolved to one.

A bundled rite is a folder of assets/rites with a manifest.yaml; NAME is its `rite:` value
(鄉射禮) or its folder's name (xiangshe). PATH is a rite folder, its manifest, or a one-file
script. `text:` and `layout:` name a file inside the rite's folder (relative to the manifest)
or a bundled text or layout by name (viz.model.bundled: `text: 鄉射禮`, `layout: xu`); without
them a rite has the bundled 鄉射 text (assets/text/corpus.json) and the 州序 (layouts/xu.yaml).
Reads only these keys; the manifest's other keys are read, and checked, by viz.model.script.source.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from viz import ASSETS, DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.model import bundled as by_name
from viz.base.errors import InputError, Loc, Problem, clip
from viz.base.yamlsrc import YMap, is_dir, is_file, load_file
from viz.model.script.source import MANIFEST

RITES = ASSETS / "rites"


@dataclass(frozen=True)
class Package:
    """A rite as its manifest names it. text None: the bundled 鄉射 corpus."""

    name: str           # the manifest's rite: (else the folder's or file's name)
    title: str          # the manifest's title: (else the name)
    script: Path        # what the script reader is given: the folder, or a one-file script
    text: Path | None
    layout: Path
    font: Path | None = None      # the manifest's font: drawn with instead of the bundled font
    fallback: Path | None = None  # its fallback: for the characters the font lacks

    @property
    def folder_name(self) -> str:
        return self.script.name if self.script.is_dir() else self.script.stem


def of_script(path: str | Path) -> Package:
    """The package a script path belongs to: a rite folder or its manifest gives its manifest's
    keys; a one-file script its `rite:` (and the bundled text and hall)."""
    p = Path(path)
    manifest = p / MANIFEST if is_dir(p) else p
    script = p if is_dir(p) else (p.parent if p.name == MANIFEST else p)
    if not is_file(manifest):
        return Package(script.name, script.name, script, None, DEFAULT_LAYOUT)
    return _read(str(manifest.resolve()), manifest.stat().st_mtime_ns, str(script))


@lru_cache(maxsize=32)
def _read(manifest: str, _mtime: int, script: str) -> Package:
    """The package's keys from its manifest (cached while the file is unchanged). A text or
    layout that names no file is an error at its key; a manifest that does not parse gives the
    defaults, and the script's reader reports it where it reports the rest (check --watch
    waits for the mend)."""
    base = Path(manifest).parent
    fallback = Path(script).name if Path(script).is_dir() else Path(script).stem
    try:
        doc = load_file(manifest)
    except InputError:
        doc = None
    if not isinstance(doc, YMap):
        return Package(fallback, fallback, Path(script), None, DEFAULT_LAYOUT)
    name = _string(doc, "rite") or fallback
    title = _string(doc, "title") or name
    problems = []
    files: dict[str, Path | None] = {}
    fonts = {p.stem: p for p in sorted((ASSETS / "fonts").glob("*.[ot]tf"))}
    for key, want, names in (("text", "a corpus.json (or its folder)", by_name.texts()),
                             ("layout", "a layout file", by_name.layouts()),
                             ("font", "a font file (.otf, .ttf)", fonts),
                             ("fallback", "a font file (.otf, .ttf)", fonts)):
        rel = doc.get(key)
        if rel is None:
            files[key] = None
            continue
        f, why = by_name.locate(base, rel, names, key)
        ok = f is not None and (is_file(f) or (key == "text" and is_file(f / "corpus.json")))
        if why is not None:
            problems.append(Problem(doc.loc_of(key), f"{key}: {why}"))
        elif not ok:
            problems.append(Problem(doc.loc_of(key), f"{key}: expected {want} inside the rite's "
                                                     f"folder ({base}), or a bundled {key} by "
                                                     f"its name ({by_name.known(names)}); "
                                                     f"found {clip(rel)}"))
        files[key] = f.resolve() if ok else f
    if problems:
        raise InputError(problems)
    return Package(name, title, Path(script), files["text"], files["layout"] or DEFAULT_LAYOUT,
                   files["font"], files["fallback"])


def _string(doc: YMap, key: str) -> str | None:
    v = doc.get(key)
    return v.strip() if isinstance(v, str) and v.strip() else None


def bundled() -> list[Package]:
    """Every bundled rite (assets/rites/*/manifest.yaml), by folder name."""
    return [of_script(m.parent) for m in sorted(RITES.glob(f"*/{MANIFEST}"))]


def default() -> Package:
    """The bundled 鄉射禮, what every command plays without --rite or --script."""
    return of_script(DEFAULT_SCRIPT)


def find(spec: str) -> Package:
    """--rite NAME|PATH: a bundled rite by its rite: name, title or folder name (variant
    characters equal), else a path; InputError listing the bundled rites."""
    from viz.text.variants import normalize

    key = normalize(spec.strip())
    for pkg in bundled():
        if key in (normalize(pkg.name), normalize(pkg.title)) or \
                spec.strip().lower() == pkg.folder_name.lower():
            return pkg
    p = Path(spec)
    if is_dir(p) and is_file(p / MANIFEST) or is_file(p):
        return of_script(p)
    known = ", ".join(f"{pkg.name} ({pkg.folder_name})" for pkg in bundled())
    where = ("no rite folder (no manifest.yaml in it)" if is_dir(p) else
             "not a regular file (a FIFO, device or socket)" if os.path.exists(p) else "no such file")
    raise InputError(Problem(Loc("--rite", 1, 1),
                             f"{spec!r} is no bundled rite and {where}; expected one of: "
                             f"{known}, or a rite folder or its manifest.yaml"))
