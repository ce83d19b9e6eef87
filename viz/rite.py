"""The rite as loaded: layout, text and script compiled per reading, on demand, and cached.

`Rite(script_path, layout_path)` knows every reading its files name (the layout's variants and
the script's step variants, plus 鄭, the default); `rite.get(readings)` loads and compiles the
rite under those readings the first time it is asked and returns the same `Compiled` after, so
a window can switch reading live.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from viz.errors import Collector, InputError, Loc, Problem

DEFAULT_READING = "鄭"


@dataclass(frozen=True)
class Compiled:
    layout: object
    corpus: object
    script: object
    timeline: object
    warnings: tuple
    readings: tuple[str, ...]


class Rite:
    def __init__(self, script_path: str | Path, layout_path: str | Path, corpus=None,
                 sets: Sequence[tuple[str, str]] = (), seed: int | None = None):
        from viz.text import load_corpus

        self.script_path, self.layout_path = str(script_path), str(layout_path)
        self.sets, self.seed = tuple(sets), seed  # the scenario (--set, --seed): one per Rite
        self.corpus = corpus if corpus is not None else load_corpus()
        self._cache: dict[tuple[str, ...], Compiled] = {}
        self._layout = None  # the layout as its file has it, for the readings it knows

    def default_layout(self):
        from viz.layout import load_layout

        if self._layout is None:
            self._layout = load_layout(self.layout_path)
        return self._layout

    def known_readings(self) -> list[str]:
        """鄭, then every reading that moves something: the layout's place and obstacle
        variants, and the script's step variants that carry actions (a variant that is only a
        note is kept as data, not offered as a reading)."""
        from viz.script import read_document, script_readings

        doc, _ = read_document(self.script_path)
        names = [DEFAULT_READING, *self.default_layout().variant_readings,
                 *sorted(script_readings(doc))]
        return list(dict.fromkeys(n for n in names if n))

    def check_readings(self, readings: Sequence[str]) -> None:
        """A reading no file knows is an error that lists the known ones."""
        if not readings:
            return
        known = self.known_readings()
        bad = [r for r in readings if r != DEFAULT_READING and not any(r in k for k in known)]
        if bad:
            raise InputError([Problem(Loc("--reading", 1, 1),
                                      f"no file knows the reading {r!r}; known: "
                                      f"{'、'.join(known)}") for r in bad])

    def get(self, readings: Sequence[str] = ()) -> Compiled:
        from viz.compile import compile_script
        from viz.layout import load_layout
        from viz.script import load_script

        key = tuple(r for r in readings if r != DEFAULT_READING)
        if key in self._cache:
            return self._cache[key]
        self.check_readings(key)
        # the layout moves what its variants name; a reading only the script knows moves steps
        known = self.default_layout().variant_readings
        moved = tuple(r for r in key if any(r in k for k in known))
        layout = load_layout(self.layout_path, readings=moved) if moved else self.default_layout()
        script = load_script(self.script_path, layout, self.corpus, key, self.sets, self.seed)
        out = Collector()
        timeline = compile_script(script, layout, out)
        out.raise_if_errors()
        warnings = tuple(getattr(layout, "warnings", ())) + script.warnings + tuple(out.warnings)
        got = Compiled(layout, self.corpus, script, timeline, warnings, key)
        self._cache[key] = got
        return got
