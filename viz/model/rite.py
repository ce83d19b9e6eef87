"""The rite as loaded: layout, text and script compiled per reading, on demand, and cached.

`Rite(spec)` (a viz.model.spec.RiteSpec) knows every reading its files name (the layout's
variants and the script's step variants, plus 鄭, the default); `rite.get(readings)` loads and
compiles the rite under those readings the first time it is asked and returns the same
`Compiled` after, so a window can switch reading live.

A compile is also kept on disk (viz/base/cache.py, under the parse cache's folder; XIANGSHE_CACHE=off
turns it off), named by the script and layout paths, the readings, the scenario (--set,
--seed), the corpus and this program's model sources, and valid while every file the load
read has the same bytes: a rite loaded before comes back without its YAML being parsed.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from viz.base.errors import Collector, InputError, Loc, Problem
from viz.model.spec import DEFAULT_READING, RiteSpec



@dataclass(frozen=True)
class Compiled:
    layout: object
    corpus: object
    script: object
    timeline: object
    warnings: tuple
    readings: tuple[str, ...]

    @property
    def partial(self) -> tuple[int, int] | None:
        """(stages compiled, in all) for the rite's first stages alone (Rite.prefix), None for
        the whole rite."""
        n, total = len(self.timeline.stages), self.script.stages_total or 0
        return (n, total) if n < total else None


def load(spec: RiteSpec | str | Path, layout_path: str | Path | None = None,
         readings: Sequence[str] = (), sets: Sequence[tuple[str, str]] = (),
         seed: int | None = None) -> Compiled:
    """Layout, text and script → checked model → compiled timeline, under the spec's readings
    and scenario; InputError on any problem, a reading no file knows among them. Paths
    (script, layout, readings, --set pairs, seed) stand for RiteSpec.at(…) of them."""
    spec = _spec(spec, layout_path, readings, sets, seed)
    return Rite(spec).get(spec.readings)


def _spec(spec, layout_path, readings=(), sets=(), seed=None) -> RiteSpec:
    """A RiteSpec as given, or made of paths (a library caller's or a test's)."""
    if isinstance(spec, RiteSpec):
        return spec
    return RiteSpec.at(spec, layout_path, readings, sets, seed)


def rite_corpus(spec: RiteSpec | str | Path):
    """The text a rite names (its manifest's `text:`; else the bundled 鄉射 text)."""
    from viz.model.package import of_script
    from viz.text import load_corpus

    text = spec.package.text if isinstance(spec, RiteSpec) else of_script(spec).text
    return load_corpus(text)


class Rite:
    def __init__(self, spec: RiteSpec | str | Path, layout_path: str | Path | None = None,
                 corpus=None, sets: Sequence[tuple[str, str]] = (), seed: int | None = None):
        """spec: what to load (viz.model.spec.RiteSpec); a script path with layout_path, sets
        and seed stands for RiteSpec.at(…) of them. corpus: the text, when loaded already."""
        self.spec = _spec(spec, layout_path, (), sets, seed)
        self.corpus = corpus if corpus is not None else rite_corpus(self.spec)
        self._cache: dict[tuple[str, ...], Compiled] = {}
        self._layout = None  # the layout as its file has it, for the readings it knows
        self._layout_reads = None  # the bytes that layout was loaded from

    @property
    def script_path(self) -> str:
        return str(self.spec.script)

    @property
    def layout_path(self) -> str:
        return str(self.spec.layout)

    def _key(self, readings: Sequence[str] | None) -> tuple[str, ...]:
        """The readings besides 鄭 (None: the spec's)."""
        if readings is None:
            return self.spec.readings
        return tuple(r for r in readings if r != DEFAULT_READING)

    def default_layout(self):
        from viz.base.cache import Reads
        from viz.model.layout import load_layout

        if self._layout is None:
            self._layout_reads = Reads()
            with self._layout_reads.recording():  # a later get's compile depends on it too
                self._layout = load_layout(self.layout_path)
        return self._layout

    def known_readings(self) -> list[str]:
        """鄭, then every reading that moves something: the layout's place and obstacle
        variants, and the script's step variants that carry actions (a variant that is only a
        note is kept as data, not offered as a reading)."""
        from viz.model.script.source import read_document, script_readings

        doc, _ = read_document(self.script_path)
        names = [DEFAULT_READING, *self.default_layout().variant_readings,
                 *sorted(script_readings(doc))]
        # a variant two commentators agree on names both ("賈疏 (鄉飲酒), 敖繼公"): each is a
        # reading of its own (either chooses the variant: reading_matches)
        names = [part.strip() for n in names for part in re.split(r"[,，、]", n)]
        refused = self.refused_readings()
        return list(dict.fromkeys(n for n in names if n and n not in refused))

    def refused_readings(self) -> dict:
        """{reading: its located reason}: the readings the layout marks `refused:` (a variant it
        keeps as data that cannot be played with this rite; viz/model/refusal.py)."""
        from viz.model.refusal import refusals

        self.default_layout()  # a bad layout is reported by its loader first
        return refusals(self.layout_path)

    def check_readings(self, readings: Sequence[str]) -> None:
        """A reading no file knows is an error that lists the known ones; one the layout refuses
        is an error at its `refused:`, giving the reason."""
        if not readings:
            return
        refused, known = self.refused_readings(), self.known_readings()
        why = [p for r in readings if r != DEFAULT_READING and not any(r in k for k in known)
               for name, p in refused.items() if r in name]
        if why:
            raise InputError(why)
        bad = [r for r in readings if r != DEFAULT_READING and not any(r in k for k in known)]
        if bad:
            raise InputError([Problem(Loc("--reading", 0, 0),
                                      f"no file knows the reading {r!r}; known: "
                                      f"{'、'.join(known)}") for r in bad])

    def _disk_key(self, key: tuple[str, ...], corpus_hash: bytes) -> str:
        from viz.base import cache

        sc = self.spec.scenario
        return cache.digest(cache.program_salt(), self.script_path, self.layout_path, key,
                            sc.sets, sc.seed, corpus_hash)

    def get(self, readings: Sequence[str] | None = None, on_stage=None) -> Compiled:
        """The whole rite under these readings (None: the spec's), compiled once (kept here and
        on disk). on_stage: called after each stage when it compiles
        (viz.model.compile.compiler.Compiler.run)."""
        from viz.base import cache

        got = self.cached(readings)
        if got is not None:
            return got
        key = self._key(readings)
        corpus_hash = _corpus_hash(self.corpus)
        if corpus_hash is None or cache.cache_dir() is None:
            got = self._compile(key, on_stage=on_stage)
        else:
            kept = {"corpus": self.corpus}
            reads = cache.Reads()
            with reads.recording():
                got = self._compile(key, on_stage=on_stage)
            reads.merge(self._layout_reads)
            cache.store_compiled(self._disk_key(key, corpus_hash), reads, self._folder(),
                                 _Kept.pack(got, kept), kept)
        self._cache[key] = got
        return got

    def _folder(self) -> str | None:
        """The rite folder when the script is one (its manifest read first of the script)."""
        p = Path(self.script_path)
        if p.is_dir():
            return str(p)
        return str(p.parent) if p.name == "manifest.yaml" else None

    def cached(self, readings: Sequence[str] | None = None) -> Compiled | None:
        """The whole rite if it is compiled already (this object or the disk cache), else None;
        never compiles."""
        from viz.base import cache

        key = self._key(readings)
        if key in self._cache:
            return self._cache[key]
        corpus_hash = _corpus_hash(self.corpus)
        if corpus_hash is None or cache.cache_dir() is None:
            return None
        kept = {"corpus": self.corpus}
        got = _Kept.unpack(cache.load_compiled(self._disk_key(key, corpus_hash), kept), key, kept)
        if got is not None:
            self._cache[key] = got
        return got

    def prefix(self, readings: Sequence[str] | None = None, stages: int = 1) -> Compiled:
        """The first `stages` stages compiled (only their section files are read): what can be
        shown while the rest compiles. Every stage but the last is as the whole rite has it (the
        last may close a round of shooting that the next stage would carry on);
        compiled.script.stages_total says how many the whole rite has. Not kept on disk."""
        from viz.model.script.reader import PrefixShort

        key = self._key(readings)
        while True:
            try:
                return self._compile(key, upto=stages)
            except PrefixShort as e:
                # a stage names someone a later file casts (01 uses 02's 吏): read as far as that
                more = self._cast_in(stages, e.unknown)
                if more is None:
                    return self.get(readings)
                stages = more + 1
            except InputError:
                return self.get(readings)  # every file's problems, as a whole load gives them

    def _cast_in(self, start: int, ids: frozenset[str]) -> int | None:
        """The furthest section file from `start` on that is the first to declare one of ids
        (`id: X` in its text: a guess the reader then checks), None if one is declared in none."""
        import re

        from viz.base.yamlsrc import load_file, read_text
        from viz.model.bundled import outside
        from viz.model.script.source import MANIFEST

        p = Path(self.script_path)
        man = p / MANIFEST if p.is_dir() else p
        try:
            sections = list(load_file(man)["sections"])
            if any(not isinstance(rel, str) or outside(man.parent, rel) for rel in sections):
                return None  # the whole load refuses it, at its key
            texts = [read_text(man.parent / rel) for rel in sections[start:]]
        except (InputError, KeyError, TypeError):
            return None
        first = {}
        for i, text in enumerate(texts):
            for m in re.finditer(r"(?<![\w.])id:\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)", text):
                first.setdefault(m.group(1), start + i)
        if not all(x in first for x in ids):
            return None
        return max(first[x] for x in ids)

    def _compile(self, key: tuple[str, ...], upto: int | None = None,
                 on_stage=None) -> Compiled:
        from viz.model.compile.compiler import compile_script
        from viz.model.layout import load_layout
        from viz.model.script.reader import load_script

        self.check_readings(key)
        # the layout moves what its variants name; a reading only the script knows moves steps
        known = self.default_layout().variant_readings
        moved = tuple(r for r in key if any(r in k for k in known))
        layout = load_layout(self.layout_path, readings=moved) if moved else self.default_layout()
        script = load_script(self.spec.under(key), layout, self.corpus, upto=upto)
        out = Collector()
        timeline = compile_script(script, layout, out, on_stage)
        out.raise_if_errors()
        warnings = tuple(getattr(layout, "warnings", ())) + script.warnings + tuple(out.warnings)
        return Compiled(layout, self.corpus, script, timeline, warnings, key)


class _Kept(Compiled):
    """A Compiled from the cache. Its script (two thirds of the unpickling; read by `check`'s
    summary, coverage, diff and a reload's readings, not by the window or the plates) is
    unpickled when first asked for."""

    partial = None  # only whole rites are kept

    @property
    def script(self):
        d = self.__dict__
        if "_script" not in d:
            from viz.base import cache

            d["_script"] = cache.loads(d["_script_data"], d["_kept"])
        return d["_script"]

    @script.setter
    def script(self, value) -> None:  # the dataclass's __init__ (dataclasses.replace)
        self.__dict__["_script"] = value

    def __reduce__(self):
        return (Compiled, (self.layout, self.corpus, self.script, self.timeline, self.warnings,
                           self.readings))

    @staticmethod
    def pack(c: Compiled, kept: dict) -> tuple:
        from viz.base import cache

        return ("compiled-2", c.layout, c.timeline, c.warnings, c.readings,
                cache.dumps(c.script, kept))

    @classmethod
    def unpack(cls, packed, readings: tuple[str, ...], kept: dict) -> Compiled | None:
        """The Compiled of what pack gave (None for anything else: a damaged entry)."""
        if not (isinstance(packed, tuple) and len(packed) == 6 and packed[0] == "compiled-2"
                and packed[4] == readings and isinstance(packed[5], bytes)):
            return None
        _, layout, timeline, warnings, readings, data = packed
        got = object.__new__(cls)
        got.__dict__.update(layout=layout, corpus=kept["corpus"], timeline=timeline,
                            warnings=warnings, readings=readings, _script_data=data, _kept=kept)
        return got


_CORPUS_HASHES: dict[int, tuple[object, bytes | None]] = {}


def _corpus_hash(corpus) -> bytes | None:
    """What the compile sees of the corpus (the script's cites are found in it), once per
    corpus object: its file's bytes for a corpus loaded from a file (a rite's `text:`), else its
    pickle; None for one that does not pickle (its compiles are not kept)."""
    import hashlib
    import pickle

    from viz.text.corpus import source_of

    got = _CORPUS_HASHES.get(id(corpus))
    if got is not None and got[0] is corpus:
        return got[1]
    try:
        file = source_of(corpus)
        data = (file.read_bytes() if file is not None
                else pickle.dumps(corpus, protocol=pickle.HIGHEST_PROTOCOL))
        h = hashlib.sha256(data).digest()
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        h = None
    _CORPUS_HASHES[id(corpus)] = (corpus, h)
    return h
