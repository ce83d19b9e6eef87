"""The rite script: its structure checked by JSON Schema, its meaning by us, patterns expanded."""
from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

from viz import ASSETS
from viz.errors import Collector, InputError, Loc, Problem
from viz.yamlsrc import YList, YMap, load_file, load_text, locate

SCHEMA_PATH = ASSETS / "rites" / "script.schema.json"
DIRS = {"北": 0.0, "東北": 45.0, "東": 90.0, "東南": 135.0, "南": 180.0, "西南": 225.0,
        "西": 270.0, "西北": 315.0}
MAX_PATTERN_DEPTH = 8


@dataclass(frozen=True)
class Settings:
    walk_speed: float = 4.0
    stair_step: float = 0.7
    turn: float = 0.4
    spacing: float = 3.0
    brisk_speed: float = 6.5  # 尺/s, about 1.5 m/s: faster than this looks like running
    gestures: Mapping[str, float] = field(default_factory=lambda: {
        "拜": 2.5, "揖": 1.0, "坐": 1.0, "興": 0.8, "立": 0.3, "say": 2.5, "take": 1.0,
        "put": 1.0, "give": 1.2, "enter": 0.5, "exit": 0.5, "shoot": 1.2})


@dataclass(frozen=True)
class Actor:
    id: str
    name: str
    party: str
    label: str
    note: str
    loc: Loc


@dataclass(frozen=True)
class PlaceRef:
    """A spot: a named place or an actor's position, optionally offset (side+dist, or dx/dy)."""

    loc: Loc
    place: str | None = None
    actor: str | None = None
    side: float | None = None  # degrees, 0 = north
    dist: float = 3.0
    dx: float = 0.0
    dy: float = 0.0


@dataclass(frozen=True)
class Prop:
    id: str
    name: str
    kind: str
    at: PlaceRef | None
    held_by: str | None
    loc: Loc
    absent: bool = False


@dataclass(frozen=True)
class PropPlacement:
    """Where a prop is when a stage opens: set down, in someone's hands, or not yet brought."""

    prop: str
    at: PlaceRef | None  # neither at nor held_by nor absent: brought in where it was declared
    held_by: str | None
    absent: bool
    loc: Loc


@dataclass(frozen=True)
class Formation:
    facing: float  # degrees the row faces
    senior: float  # degrees of the direction the senior end lies toward
    text: str


@dataclass(frozen=True)
class Action:
    verb: str
    args: Mapping[str, Any]
    loc: Loc


@dataclass(frozen=True)
class Step:
    cite: str
    span: tuple[int, int]
    actions: tuple[Action, ...]
    dur: float | None
    note: str
    reading: str
    loc: Loc
    pattern: str = ""


@dataclass(frozen=True)
class Placement:
    who: tuple[str, ...]
    at: PlaceRef
    face: float | None
    formation: Formation | None
    spacing: float | None
    posture: str
    holding: tuple[str, ...]
    absent: bool
    cite: str
    loc: Loc


@dataclass(frozen=True)
class Stage:
    name: str
    section: str
    setup: tuple[Placement | PropPlacement, ...]
    steps: tuple[Step, ...]
    loc: Loc
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Script:
    file: str
    rite: str
    settings: Settings
    cast: tuple[Actor, ...]
    props: tuple[Prop, ...]
    stages: tuple[Stage, ...]
    warnings: tuple[Problem, ...] = ()


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _schema_message(err: jsonschema.ValidationError) -> str:
    """A shorter, more useful wording of jsonschema's messages."""
    path = "/".join(str(p) for p in err.absolute_path)
    where = f" at {path}" if path else ""
    if err.validator == "additionalProperties":
        return f"unexpected key{where}: {err.message.split('(')[-1].rstrip(')')}"
    if err.validator in ("oneOf", "anyOf") and err.context:
        best = jsonschema.exceptions.best_match(err.context)
        return f"{best.message}{where}"
    if err.validator == "maxProperties" and isinstance(err.instance, dict):
        return f"an action holds exactly one verb, found {', '.join(map(str, err.instance))}{where}"
    return f"{err.message}{where}"


def check_structure(doc: Any, name: str) -> list[Problem]:
    if not isinstance(doc, YMap):
        return [Problem(getattr(doc, "loc", Loc(name, 1, 1)), "a rite script is a YAML mapping "
                        "with cast: and stages:")]
    out = []
    for err in sorted(_validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        out.append(Problem(locate(doc, list(err.absolute_path), doc.loc), _schema_message(err)))
    return out


def _suggest(word: str, known) -> str:
    close = difflib.get_close_matches(str(word), list(known), n=3, cutoff=0.3)
    return f"; did you mean {' or '.join(close)}?" if close else ""


class _Reader:
    """Turns checked YAML into the model, reporting every problem of meaning with its place."""

    def __init__(self, doc: YMap, name: str, layout, corpus, out: Collector):
        self.doc, self.name, self.layout, self.corpus, self.out = doc, name, layout, corpus, out
        self.actor_ids: set[str] = {a["id"] for a in doc.get("cast", [])}
        self.prop_ids: set[str] = {p["id"] for p in doc.get("props", []) or []}
        self.bad_patterns: set[str] = set()
        self.patterns: YMap = doc.get("patterns") or YMap()
        if not hasattr(self.patterns, "loc"):
            self.patterns.loc, self.patterns.key_locs, self.patterns.value_locs = doc.loc, {}, {}

    # ---- values ----
    def actor(self, v: Any, loc: Loc) -> str | None:
        if v not in self.actor_ids:
            self.out.error(loc, f"unknown actor {v!r}{_suggest(v, self.actor_ids)}")
            return None
        return v

    def who(self, v: Any, loc: Loc) -> tuple[str, ...]:
        items = [v] if isinstance(v, str) else list(v)
        locs = [loc] * len(items) if isinstance(v, str) else [v.loc_of(i) for i in range(len(v))]
        got = tuple(a for a, lc in zip(items, locs) if self.actor(a, lc))
        seen = set()
        for a, lc in zip(items, locs):
            if a in seen:
                self.out.error(lc, f"actor {a!r} named twice")
            seen.add(a)
        return got

    def prop(self, v: Any, loc: Loc) -> str | None:
        if v not in self.prop_ids:
            self.out.error(loc, f"unknown prop {v!r}{_suggest(v, self.prop_ids)}")
            return None
        return v

    def place(self, v: Any, loc: Loc) -> PlaceRef | None:
        if isinstance(v, str):
            if v not in self.layout.places:
                self.out.error(loc, f"unknown place {v!r}{_suggest(v, self.layout.places)}")
                return None
            return PlaceRef(loc, place=v)
        if not isinstance(v, Mapping):
            self.out.error(loc, "expected a place name or {place: …, side: …, dist: …}")
            return None
        if ("place" in v) == ("actor" in v):
            self.out.error(loc, "a place mapping needs exactly one of place: or actor:")
            return None
        if "place" in v and v["place"] not in self.layout.places:
            self.out.error(v.loc_of("place") if isinstance(v, YMap) else loc,
                           f"unknown place {v['place']!r}{_suggest(v['place'], self.layout.places)}")
            return None
        if "actor" in v and not self.actor(v["actor"], v.loc_of("actor")):
            return None
        side = direction(v["side"]) if "side" in v else None
        return PlaceRef(loc, place=v.get("place"), actor=v.get("actor"), side=side,
                        dist=float(v.get("dist", 3.0)), dx=float(v.get("dx", 0.0)),
                        dy=float(v.get("dy", 0.0)))

    def vias(self, vs: list, loc: Loc) -> tuple[PlaceRef | None, ...]:
        """Places to pass, in order; a named way of the text (鉤楹內, 由楹外 …) stands for its places."""
        ways = getattr(self.layout, "ways", {})
        out: list[PlaceRef | None] = []
        for x in vs:
            if isinstance(x, str) and x in ways and x not in self.layout.places:
                out += [PlaceRef(loc, place=p) for p in ways[x]]
            else:
                out.append(self.place(x, loc))
        return tuple(out)

    # ---- cast, props ----
    def cast(self) -> tuple[Actor, ...]:
        out, seen = [], set()
        for i, a in enumerate(self.doc["cast"]):
            if a["id"] in seen:
                self.out.error(a.loc_of("id"), f"actor id {a['id']!r} used twice")
            seen.add(a["id"])
            out.append(Actor(a["id"], a["name"], a["party"], a["label"], a.get("note", ""),
                             self.doc["cast"].loc_of(i)))
        return tuple(out)

    def props(self) -> tuple[Prop, ...]:
        out, seen = [], set()
        for i, p in enumerate(self.doc.get("props") or []):
            loc = self.doc["props"].loc_of(i)
            if p["id"] in seen or p["id"] in self.actor_ids:
                self.out.error(p.loc_of("id"), f"id {p['id']!r} used twice")
            seen.add(p["id"])
            if ("at" in p) == ("held_by" in p):
                self.out.error(loc, f"prop {p['id']!r} needs exactly one of at: or held_by:")
            at = self.place(p["at"], p.loc_of("at")) if "at" in p else None
            held = self.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
            out.append(Prop(p["id"], p["name"], p["kind"], at, held, loc,
                            bool(p.get("absent", False))))
        return tuple(out)

    # ---- patterns ----
    def check_patterns(self) -> None:
        for name, pat in self.patterns.items():
            params = pat.get("params") or YMap()
            declared = set(params.keys())
            for k, spec in params.items():
                if isinstance(spec, YMap) and "default" in spec and not self.check_param(
                        name, k, spec["type"], spec["default"], spec.loc_of("default")):
                    self.bad_patterns.add(name)
            for used, loc in _param_uses(pat.get("steps"), self.patterns.loc_of(name)):
                if used not in declared:
                    self.bad_patterns.add(name)
                    self.out.error(loc, f"pattern {name!r} uses ${used}, which is not among its "
                                        f"params ({', '.join(sorted(declared)) or 'none'})")

    def bind(self, step: YMap, depth: int) -> list[tuple[YMap, dict, str]] | None:
        """Expand `use:` into the pattern's steps with arguments bound; None on error."""
        name, loc = step["use"], step.loc_of("use")
        if name not in self.patterns:
            self.out.error(loc, f"unknown pattern {name!r}{_suggest(name, self.patterns)}")
            return None
        if depth > MAX_PATTERN_DEPTH:
            self.out.error(loc, f"pattern {name!r} uses patterns more than {MAX_PATTERN_DEPTH} "
                                "deep (does it use itself?)")
            return None
        if name in self.bad_patterns:
            return None  # already reported where the pattern is defined
        pat = self.patterns[name]
        params = pat.get("params") or {}
        given = step.get("with") or YMap()
        wloc = step.loc_of("with") if "with" in step else loc
        ok = True
        for k in given:
            if k not in params:
                self.out.error(given.key_loc(k) if isinstance(given, YMap) else wloc,
                               f"pattern {name!r} has no parameter {k!r}; it takes "
                               f"{', '.join(params) or 'none'}")
                ok = False
        env = {}
        for k, spec in params.items():
            ptype, default = (spec, None) if isinstance(spec, str) else (spec["type"],
                                                                         spec.get("default"))
            has_default = not isinstance(spec, str) and "default" in spec
            if k in given:
                vloc = given.loc_of(k) if isinstance(given, YMap) else wloc
                ok &= self.check_param(name, k, ptype, given[k], vloc)
                env[k] = given[k]
            elif has_default:
                env[k] = default
            else:
                self.out.error(wloc, f"pattern {name!r} needs parameter {k!r} ({ptype})")
                ok = False
        return [(s, env, name) for s in pat["steps"]] if ok else None

    def check_param(self, pat: str, k: str, ptype: str, v: Any, loc: Loc) -> bool:
        n = len(self.out.errors)
        bad = None
        if ptype == "actor":
            if isinstance(v, str):
                self.actor(v, loc)
            else:
                bad = "an actor id"
        elif ptype == "actors":
            if isinstance(v, (str, list)):
                self.who(v, loc)
            else:
                bad = "an actor id or a list of them"
        elif ptype == "place":
            self.place(v, loc)
        elif ptype == "prop":
            if isinstance(v, str):
                self.prop(v, loc)
            else:
                bad = "a prop id"
        elif ptype == "int" and (not isinstance(v, int) or isinstance(v, bool)):
            bad = "a whole number"
        elif ptype == "number" and (not isinstance(v, (int, float)) or isinstance(v, bool)):
            bad = "a number"
        elif ptype == "text" and not isinstance(v, str):
            bad = "text"
        elif ptype == "dir" and (not isinstance(v, str) or v.removesuffix("面") not in DIRS):
            bad = "a direction (北 東北 東 東南 南 西南 西 西北)"
        if bad:
            self.out.error(loc, f"parameter {k!r} of pattern {pat!r}: expected {bad}, "
                                f"found {v!r}")
        return bad is None and len(self.out.errors) == n

    # ---- steps ----
    def actions(self, acts: YList, env: dict, ctx: str) -> tuple[Action, ...]:
        out = []
        for i, a in enumerate(acts):
            verb = next(iter(a))
            loc = acts.loc_of(i)
            args = _subst(a[verb], env)
            src = a[verb] if isinstance(a[verb], YMap) else YMap()
            n = len(self.out.problems)
            parsed = self.action_args(verb, args, src, loc)
            if ctx:
                self.out.problems[n:] = [Problem(p.loc, f"{p.message} ({ctx})", p.warning)
                                         for p in self.out.problems[n:]]
            if parsed is not None:
                out.append(Action(verb, parsed, loc))
        return tuple(out)

    def action_args(self, verb: str, a: Mapping, src: YMap, loc: Loc) -> dict | None:
        def at(k):
            return src.loc_of(k) if k in src else loc
        r: dict[str, Any] = {}
        for k, v in a.items():
            if verb == "give" and k == "to":
                r[k] = self.actor(v, at(k))
            elif k == "who":
                r[k] = self.who(v, at(k)) if verb in ("move", "face", "posture", "enter",
                                                      "exit", "wait") else (self.actor(v, at(k)),)
            elif k in ("to", "at", "from", "toward"):
                if k == "from" and isinstance(v, str) and v in self.actor_ids:
                    r[k] = PlaceRef(at(k), actor=v)
                else:
                    r[k] = self.place(v, at(k))
            elif k == "via":
                r[k] = self.vias(v if isinstance(v, list) else [v], at(k))
            elif k in ("face", "dir"):
                r[k] = direction(v)
            elif k == "formation":
                r[k] = formation(v)
                if r[k].facing % 180 == r[k].senior % 180:
                    self.out.error(at(k), f"formation {v}: the senior end must lie across the "
                                          "facing (東面北上, 南面東上 …)")
            elif k == "prop":
                r[k] = self.prop(v, at(k))
            elif k in ("count", "dur", "spacing", "speed"):
                if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
                    self.out.error(at(k), f"{k}: expected a non-negative number, found {v!r}")
                    return None
                r[k] = float(v)
            else:
                r[k] = v
        if verb == "face" and ("dir" in a) == ("toward" in a):
            self.out.error(loc, "face needs exactly one of dir: or toward:")
        if verb in ("move", "face", "enter", "posture", "exit") and not r.get("who"):
            return None
        return r

    def step(self, s: YMap, loc: Loc, cite: str, span, env: dict, pattern: str,
             depth: int) -> list[Step]:
        if "use" in s:
            bound = self.bind(_subst(s, env) if env else s, depth)
            if bound is None:
                return []
            out = []
            for ps, penv, pname in bound:
                out += self.step(ps, loc, cite, span, penv, pname, depth + 1)
            if "dur" in s and out:
                total = float(s["dur"])
                out = [Step(x.cite, x.span, x.actions, total / len(out), x.note, x.reading,
                            x.loc, x.pattern) for x in out]
            return out
        ctx = f"in pattern {pattern!r}" if pattern else ""
        dur = _subst(s.get("dur"), env)
        return [Step(cite, span, self.actions(s["do"], env, ctx),
                     float(dur) if dur is not None else None, s.get("note", ""),
                     s.get("reading", "鄭"), loc, pattern)]

    def prop_placements(self, p: YMap, loc: Loc) -> list[PropPlacement]:
        if sum(k in p for k in ("at", "held_by", "absent")) > 1:
            self.out.error(loc, "a prop in a setup takes at most one of at:, held_by:, absent:")
        ids = [p["prop"]] if isinstance(p["prop"], str) else list(p["prop"])
        at = self.place(p["at"], p.loc_of("at")) if "at" in p else None
        held = self.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
        return [PropPlacement(pid, at, held, bool(p.get("absent", False)), loc)
                for pid in ids if self.prop(pid, p.loc_of("prop"))]

    def placement(self, p: YMap, loc: Loc) -> Placement:
        who = self.who(p["who"], p.loc_of("who"))
        held = tuple(x for x in (p.get("holding") or []) if self.prop(x, p.loc_of("holding")))
        cite = p.get("cite", "")
        if cite and self.corpus is not None and not _find_cite(self.corpus, cite, 0, None):
            self.out.error(p.loc_of("cite"), f"cite not found in the text: {cite!r}")
        return Placement(who, self.place(p["at"], p.loc_of("at")),
                         direction(p["face"]) if "face" in p else None,
                         formation(p["formation"]) if "formation" in p else None,
                         float(p["spacing"]) if "spacing" in p else None,
                         p.get("posture", "立"), held, bool(p.get("absent", False)), cite, loc)

    def stage(self, st: YMap, loc: Loc) -> Stage:
        section = st.get("section", st["name"])
        sec = self.corpus.section_named(section) if self.corpus is not None else None
        lo, hi = (sec.start, sec.end) if sec else (0, None)
        if self.corpus is not None and sec is None:
            names = [s.name for s in self.corpus.sections]
            self.out.error(st.loc_of("section" if "section" in st else "name"),
                           f"no section of the text is named {section!r}{_suggest(section, names)}"
                           "; give section: NAME")
        setup: list[Placement | PropPlacement] = []
        for i, p in enumerate(st.get("setup") or []):
            loc_i = st["setup"].loc_of(i)
            if "prop" in p:
                setup += self.prop_placements(p, loc_i)
            else:
                setup.append(self.placement(p, loc_i))
        steps: list[Step] = []
        cursor = lo
        for i, s in enumerate(st["steps"]):
            sloc = st["steps"].loc_of(i)
            span = self.cite_span(s["cite"], s.loc_of("cite"), cursor, lo, hi)
            if span[1] > span[0]:
                cursor = span[0] + 1
            steps += self.step(s, sloc, s["cite"], span, {}, "", 0)
        labels = st.get("labels") or YMap()
        for k in labels:
            self.actor(k, labels.key_loc(k))
        return Stage(st["name"], section, tuple(setup), tuple(steps), loc, dict(labels))

    def cite_span(self, cite: str, loc: Loc, cursor: int, lo: int, hi) -> tuple[int, int]:
        if self.corpus is None:
            return (0, 0)
        for a, b, warn in ((cursor, hi, False), (lo, hi, False), (0, None, True)):
            span = _find_cite(self.corpus, cite, a, b)
            if span:
                if warn and hi is not None:
                    self.out.warn(loc, f"cite {cite!r} is not in this stage's section; found at "
                                       f"{self.corpus.page_at(span[0])}")
                return span
        self.out.error(loc, f"cite not found in the text: {cite!r} (variants such as 賔/賓 "
                            "count as equal; use … between fragments of a long passage)")
        return (0, 0)


def _find_cite(corpus, cite: str, start: int, end) -> tuple[int, int] | None:
    """Span of a cite, fragments split by … found in order; None if absent."""
    frags = [f for f in re.split(r"…+|\.\.\.", cite) if f.strip()]
    if not frags:
        return None
    pos, first = start, None
    for f in frags:
        f = f.strip()
        hits = corpus.find(f, pos, end)
        if not hits:
            return None
        first = hits[0] if first is None else first
        pos = hits[0] + len(f)
    return (first, pos)


def _param_uses(node: Any, loc: Loc):
    if isinstance(node, str):
        for m in re.finditer(r"^\$([A-Za-z_]\w*)$", node):
            yield m.group(1), loc
    elif isinstance(node, YMap):
        for k, v in node.items():
            yield from _param_uses(v, node.loc_of(k))
    elif isinstance(node, YList):
        for i, v in enumerate(node):
            yield from _param_uses(v, node.loc_of(i))


def _subst(node: Any, env: dict) -> Any:
    """Replace $name values by the bound arguments, keeping source locations of the rest."""
    if not env:
        return node
    if isinstance(node, str) and node.startswith("$") and node[1:] in env:
        return env[node[1:]]
    if isinstance(node, YMap):
        m = YMap((k, _subst(v, env)) for k, v in node.items())
        m.loc, m.key_locs, m.value_locs = node.loc, node.key_locs, node.value_locs
        return m
    if isinstance(node, YList):
        lst = YList()
        for v in node:
            s = _subst(v, env)
            # a list parameter spliced into a who-list stays one flat list
            lst.extend(s) if isinstance(s, list) and isinstance(v, str) else lst.append(s)
        lst.loc, lst.item_locs = node.loc, node.item_locs + [node.loc] * max(0, len(lst) - len(node))
        return lst
    return node


def direction(v: Any) -> float | None:
    return DIRS.get(str(v).removesuffix("面"))


def formation(v: str) -> Formation:
    m = re.fullmatch(r"(北|東|南|西)面(北|東|南|西)上", v)
    return Formation(DIRS[m.group(1)], DIRS[m.group(2)], v)


def settings_from(doc: YMap) -> Settings:
    s = doc.get("settings") or {}
    base = Settings()
    gestures = dict(base.gestures)
    gestures.update(s.get("gestures") or {})
    return Settings(**{k: float(s[k]) for k in ("walk_speed", "stair_step", "turn", "spacing",
                                                "brisk_speed") if k in s}, gestures=gestures)


def read_script(doc: Any, name: str, layout, corpus) -> Script:
    """Check a parsed script and build the model; raises InputError listing every problem."""
    problems = check_structure(doc, name)
    if problems:
        raise InputError(problems)
    out = Collector()
    r = _Reader(doc, name, layout, corpus, out)
    cast, props = r.cast(), r.props()
    r.check_patterns()
    stages = tuple(r.stage(st, doc["stages"].loc_of(i)) for i, st in enumerate(doc["stages"]))
    out.raise_if_errors()
    return Script(name, doc.get("rite", ""), settings_from(doc), cast, props, stages,
                  tuple(out.warnings))


def load_script(path: str | Path, layout, corpus) -> Script:
    return read_script(load_file(path), str(path), layout, corpus)


def parse_script(text: str, layout, corpus, name: str = "<script>") -> Script:
    return read_script(load_text(text, name), name, layout, corpus)
