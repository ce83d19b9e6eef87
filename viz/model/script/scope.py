"""The reader's scope: its inputs, the scenario, and who and what the scenario casts.

Scope is the first of the reader's parts (reader.py's read_script builds it once the
document's structure is checked and its like:s resolved) and the value every later part is
handed. It holds the inputs (doc, layout, corpus, out, readings), the scenario (decl, values,
seed: --set and --seed resolved), who is cast (all_cast, uncast, actor_ids) and what props are
(all_props, prop_ids, bundles, unprops), and answers cast_when, actor, who, prop and
prop_members; the one thing it gathers as the reader asks is unknown, the ids named but cast
by no file read (a prefix reads on: PrefixShort).
Imports viz.base and viz.model.scenario.
"""
from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from viz.base.errors import Collector, Loc, clip
from viz.base.yamlsrc import YList, YMap
from viz.model import scenario


def _suggest(word: Any, known) -> str:
    close = difflib.get_close_matches(str(word), [str(k) for k in known], n=3, cutoff=0.3)
    return f"; did you mean {' or '.join(close)}?" if close else ""


class Scope:
    """The scenario, and the cast and props in it."""

    def __init__(self, doc: YMap, layout, corpus, out: Collector, readings: tuple[str, ...],
                 sets: Sequence[tuple[str, str]] = (), seed: int | None = None):
        self.doc, self.layout, self.corpus, self.out = doc, layout, corpus, out
        self.readings = readings
        self.decl = scenario.declared(doc)
        self.values, problems = scenario.resolve(self.decl, sets)
        for m in problems:
            out.error(Loc("--set", 1, 1), m)
        self.seed = scenario.DEFAULT_SEED if seed is None else int(seed)
        self.all_cast = list(doc.get("cast") or []) + [a for st in doc.get("stages") or []
                                                      if isinstance(st, Mapping)
                                                      for a in st.get("cast") or []]
        self.all_props = list(doc.get("props") or []) + [p for st in doc.get("stages") or []
                                                        if isinstance(st, Mapping)
                                                        for p in st.get("props") or []]
        self.uncast: set[str] = {a["id"] for a in self.all_cast if not self.cast_when(a)}
        self.actor_ids: set[str] = {a["id"] for a in self.all_cast} - self.uncast
        self.prop_ids: set[str] = set()
        self.bundles: dict[str, tuple[str, ...]] = {}
        self.unprops: set[str] = set()
        for p in self.all_props:
            if not self.cast_when(p) or p.get("held_by") in self.uncast or \
                    p.get("worn_by") in self.uncast:
                self.unprops.add(p["id"])
                continue
            if "count" in p:
                ids = tuple(f"{p['id']}.{k}" for k in range(1, int(p["count"]) + 1))
                self.bundles[p["id"]] = ids
                self.prop_ids.update(ids)
            else:
                self.prop_ids.add(p["id"])
        self.unknown: set[str] = set()  # ids named but cast nowhere read (a prefix reads on)

    def cast_when(self, item: Mapping) -> bool:
        """Does a cast entry, prop or setup item's `when:` hold (true without one)?"""
        w = item.get("when")
        if w is None:
            return True
        bad = scenario.check_when(w, self.decl)
        if bad:
            self.out.error(item.loc_of("when") if isinstance(item, YMap) else self.doc.loc, bad)
            return False
        return scenario.holds(w, self.values)

    def actor(self, v: Any, loc: Loc) -> str | None:
        if isinstance(v, str) and v in self.uncast:
            return None  # not cast in this scenario: drops out silently
        if not isinstance(v, str) or v not in self.actor_ids:
            if isinstance(v, str):
                self.unknown.add(v)
            self.out.error(loc, f"unknown actor {clip(v)}{_suggest(v, self.actor_ids)}")
            return None
        return v

    def who(self, v: Any, loc: Loc) -> tuple[str, ...]:
        items = [v] if isinstance(v, str) else list(v)
        locs = ([loc] * len(items) if not isinstance(v, YList)
                else [v.loc_of(i) for i in range(len(v))])
        got = tuple(a for a, lc in zip(items, locs) if self.actor(a, lc))
        seen = set()
        for a, lc in zip(items, locs):
            if isinstance(a, str) and a in seen:
                self.out.error(lc, f"actor {clip(a)} named twice")
            seen.add(a if isinstance(a, str) else None)
        return got

    def prop(self, v: Any, loc: Loc) -> str | None:
        if isinstance(v, str) and (v in self.unprops or v.split(".")[0] in self.unprops):
            return None  # not in this scenario (a prop of someone not cast)
        known = self.prop_ids | set(self.bundles)
        if not isinstance(v, str) or v not in known:
            if isinstance(v, str):
                self.unknown.add(v.split(".")[0])
            self.out.error(loc, f"unknown prop {clip(v)}{_suggest(v, known)}")
            return None
        return v

    def worn_prop(self, v: Any, loc: Loc) -> str | None:
        """A prop that is a worn thing (declared with worn: 首, 身 or 足): what don and doff
        take; an error located at v otherwise."""
        pid = self.prop(v, loc)
        if pid is None:
            return None
        decl = next((p for p in self.all_props if p["id"] == pid.split(".")[0]), None)
        if decl is not None and not decl.get("worn"):
            self.out.error(loc, f"{clip(pid)} ({decl.get('name', '')}) is not a worn thing: "
                                f"expected a prop declared with worn: 首, 身 or 足 (where it is "
                                f"worn) to put on or take off")
            return None
        return pid

    def prop_members(self, v: str) -> tuple[str, ...]:
        return self.bundles.get(v, (v,))
