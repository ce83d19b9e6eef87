"""The reader's references: numbers, places, ways, things, sections, an action's keys by kind.

Refs holds the scope and owns no state of its own: it reads a value against the layout (place,
vias, thing_names), the text (section_of), the cast (through the scope's actor, who and prop)
or a range (number), and one key of an action by its kind (read_key, after
viz/model/verbs.Key), reporting what is wrong with its place.
Imports viz.base, viz.model.verbs (Key) and the script's nodes and scope.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from viz.base.errors import Loc, clip
from viz.base.yamlsrc import YList, YMap
from viz.model.script.nodes import PlaceRef, Way, direction, formation
from viz.model.script.scope import Scope, _suggest
from viz.model.verbs import Key

MAX_OFFSET = 2000.0  # 尺: no offset in a hall and its range is larger


class Refs:
    """Values and references read and checked, each with its place."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.out, self.layout, self.corpus = scope.out, scope.layout, scope.corpus

    def number(self, v: Any, loc: Loc, what: str, lo: float | None = None,
               hi: float | None = None, open_lo: bool = False) -> float | None:
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
            self.out.error(loc, f"{what}: expected a finite number, found {clip(v)}")
            return None
        if lo is not None and (v <= lo if open_lo else v < lo):
            self.out.error(loc, f"{what}: expected a number {'>' if open_lo else '≥'} {lo:g}, "
                                f"found {v:g}")
            return None
        if hi is not None and v > hi:
            self.out.error(loc, f"{what}: expected at most {hi:g}, found {v:g}")
            return None
        return float(v)

    def place(self, v: Any, loc: Loc) -> PlaceRef | None:
        if isinstance(v, str):
            if v not in self.layout.places:
                self.out.error(loc, f"unknown place {clip(v)}{_suggest(v, self.layout.places)}")
                return None
            return PlaceRef(loc, place=v)
        if not isinstance(v, Mapping):
            self.out.error(loc, "expected a place name or {place: …, side: …, dist: …}")
            return None

        def at(k: str) -> Loc:
            return v.loc_of(k) if isinstance(v, YMap) and k in v else loc
        if sum(k in v for k in ("place", "actor", "prop", "mark")) != 1:
            self.out.error(loc, "a place mapping needs exactly one of place:, actor:, prop: or "
                                "mark:")
            return None
        if "mark" in v and not (isinstance(v["mark"], str) and v["mark"]):
            self.out.error(at("mark"), f"mark: expected a name, found {clip(v['mark'])}")
            return None
        if "place" in v and v["place"] not in self.layout.places:
            self.out.error(at("place"), f"unknown place {clip(v['place'])}"
                                        f"{_suggest(v['place'], self.layout.places)}")
            return None
        if "actor" in v and not self.scope.actor(v["actor"], at("actor")):
            return None
        if "prop" in v and not self.scope.prop(v["prop"], at("prop")):
            return None
        nums = {}
        for k, default in (("dist", 3.0), ("dx", 0.0), ("dy", 0.0)):
            if k in v:
                got = self.number(v[k], at(k), k, -MAX_OFFSET, MAX_OFFSET)
                if got is None:
                    return None
                nums[k] = got
            else:
                nums[k] = default
        side = None
        if "side" in v:
            side = direction(v["side"])
            if side is None:
                self.out.error(at("side"), f"side: expected a direction (北 東北 東 …), found "
                                           f"{clip(v['side'])}")
                return None
        return PlaceRef(loc, place=v.get("place"), actor=v.get("actor"), prop=v.get("prop"),
                        mark=v.get("mark"), side=side, **nums)

    def vias(self, vs: Any, loc: Loc) -> tuple[PlaceRef | Way, ...]:
        """Places to pass, in order; a named way of the text (鉤楹內, 由楹内 …) is a Way."""
        ways = getattr(self.layout, "ways", {})
        out: list[PlaceRef | Way] = []
        items = vs if isinstance(vs, list) else [vs]
        locs = ([vs.loc_of(i) for i in range(len(vs))] if isinstance(vs, YList)
                else [loc] * len(items))
        for x, lc in zip(items, locs):
            if isinstance(x, str) and x in ways and x not in self.layout.places:
                out.append(Way(x, tuple(PlaceRef(lc, place=p) for p in ways[x])))
            else:
                ref = self.place(x, lc)
                if ref is not None:
                    out.append(ref)
        return tuple(out)

    def read_key(self, spec: Key, k: str, v: Any, loc: Loc) -> Any:
        """One key of an action, read by its kind; None when it is wrong (already reported)."""
        kind = spec.kind
        if kind == "who":
            return self.scope.who(v, loc) or None
        if kind == "actor":
            return self.scope.actor(v, loc)
        if kind == "one":
            a = self.scope.actor(v, loc) if isinstance(v, str) else None
            if a is None and not isinstance(v, str):
                self.out.error(loc, f"{k}: one actor id, found {clip(v)}")
            return (a,) if a else None
        if kind == "place":
            if k == "from" and isinstance(v, str) and v in self.scope.actor_ids:
                return PlaceRef(loc, actor=v)
            return self.place(v, loc)
        if kind == "via":
            return self.vias(v, loc)
        if kind == "prop":
            return self.scope.prop(v, loc)
        if kind == "worn":  # a worn thing (don, doff)
            return self.scope.worn_prop(v, loc)
        if kind == "thing":
            return self.thing_names(v, loc) or None
        if kind == "flag":
            if v is not True:
                self.out.error(loc, f"{k}: expected true, found {clip(v)}")
                return None
            return True
        if kind == "dir":
            d = direction(v)
            if d is None:
                self.out.error(loc, f"{k}: expected a direction, found {clip(v)}")
            return d
        if kind == "formation":
            f = formation(v)
            if f is None:
                self.out.error(loc, f"{k}: expected X面Y上 (東面北上 …), found {clip(v)}")
            elif f.facing % 180 == f.senior % 180:
                self.out.error(loc, f"formation {v}: the senior end must lie across the facing "
                                    "(東面北上, 南面東上 …)")
                return None
            return f
        if kind == "number":
            return self.number(v, loc, k, spec.lo, spec.hi, spec.open_lo)
        if kind == "count":
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= (spec.hi or 99):
                self.out.error(loc, f"{k}: expected a whole number from 1 to {spec.hi or 99:g}, "
                                    f"found {clip(v)}")
                return None
            return v
        if kind == "posture":
            if v not in ("立", "坐", "興", "拜", "揖"):
                self.out.error(loc, f"{k}: expected one of 立 坐 興 拜 揖, found {clip(v)}")
                return None
            return v
        if not isinstance(v, str) or not v:
            self.out.error(loc, f"{k}: expected text, found {clip(v)}")
            return None
        return v

    def section_of(self, section: Any):
        if self.corpus is None:
            return None
        if isinstance(section, int):
            return next((x for x in self.corpus.sections if x.index == section), None)
        return self.corpus.section_named(section)

    def thing_names(self, v: Any, loc: Loc) -> tuple[str, ...]:
        names = [v] if isinstance(v, str) else list(v or ())
        known = {f.name for f in getattr(self.layout, "features", ())}
        for n in names:
            if n not in known:
                self.out.error(loc, f"unknown thing {clip(n)}: expected a feature of the layout"
                                    f"{_suggest(n, known)}")
        return tuple(n for n in names if n in known)
