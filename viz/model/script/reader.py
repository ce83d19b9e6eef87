"""The rite script: a folder (or one file) read, its structure checked by schema, its meaning by us.

A rite folder has a manifest (`manifest.yaml`) naming a cast file (settings, cast, props), the
pattern files and the section files in order (one stage each); a one-file script holds the
same keys in one mapping. Both become one document whose every node knows its file, line and
column, so errors name the right file. Patterns are expanded here; verbs' keys are read by
their kinds (viz/verbs.py); a step's variant for a chosen reading replaces its actions.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from viz.base.errors import Collector, InputError, Loc, Problem, clip
from viz.base.yamlsrc import YList, YMap, load_text
from viz.model.script.cast import _Cast
from viz.model.script.nodes import (
    Action,
    Expect,
    Placement,
    PropPlacement,
    Rule,
    Script,
    Settings,
    Stage,
    Step,
    ThingPlacement,
    direction,
    reading_matches,
)
from viz.model.script.patterns import _Patterns, _subst
from viz.model.script.scope import _suggest
from viz.model.script.source import _check_numbers, check_structure, read_document
from viz.model.verbs import REGISTRY, Key


class _Reader(_Cast, _Patterns):
    """Turns checked YAML into the model, reporting every problem of meaning with its place."""

    def __init__(self, doc: YMap, layout, corpus, out: Collector, readings: tuple[str, ...],
                 sets: Sequence[tuple[str, str]] = (), seed: int | None = None):
        super().__init__(doc, layout, corpus, out, readings, sets, seed)
        self.script_readings: set[str] = set()

    def actions(self, acts: YList, env: dict, ctx: str) -> tuple[Action, ...]:
        out = []
        for i, a in enumerate(acts):
            verb = next(iter(a))
            loc = acts.loc_of(i)
            args = _subst(a[verb], env)
            src = a[verb] if isinstance(a[verb], YMap) else YMap()
            if self.leftover_params(args, loc, ctx):
                continue
            n = len(self.out.problems)
            parsed = self.action_args(verb, args, src, loc)
            if ctx:
                self.out.problems[n:] = [Problem(p.loc, f"{p.message} (in {ctx})", p.warning)
                                         for p in self.out.problems[n:]]
            if parsed is not None:
                if verb == "shoot" and "at" not in parsed:
                    self.loose(parsed, loc)
                elif verb == "count":
                    self.count(parsed, loc)
                out.append(Action(verb, parsed, loc))
        return tuple(out)

    def action_args(self, verb: str, a: Mapping, src: YMap, loc: Loc) -> dict | None:
        v = REGISTRY[verb]
        keys = v.all_keys()
        r: dict[str, Any] = {}
        ok = True
        for k, val in a.items():
            if k == "after" and val and all(isinstance(x, str) and x in self.uncast
                                            for x in ([val] if isinstance(val, str) else val)):
                continue  # after someone not cast in this scenario: nobody to wait for
            got = self.read_key(keys[k], k, val, src.loc_of(k) if k in src else loc)
            if got is None:
                ok = False
            else:
                r[k] = got
        v.check(r if ok else dict(a), lambda m: self.out.error(loc, m))
        return r if ok else None

    def step(self, s: YMap, loc: Loc, cite: str, span, env: dict, pattern: str, depth: int,
             reading: str = "鄭") -> list[Step]:
        body = s
        if not pattern:
            body, reading = self.variant(s)
        if "use" in body:
            bound = self.bind(_subst(body, env) if env else body, depth)
            if bound is None:
                return []
            out = []
            for ps, penv, pname in bound:
                out += self.step(ps, loc, cite, span, penv, pname, depth + 1, reading)
            if "dur" in body and out:
                total = self.number(_subst(body["dur"], env), body.loc_of("dur"), "dur", 0, 3600)
                if total is not None:
                    out = [Step(x.cite, x.span, x.actions, total / len(out), x.note, x.reading,
                                x.loc, x.pattern, x.expect) for x in out]
            ex = self.expects(s.get("expect"), s.loc_of("expect")) if "expect" in s else ()
            if ex and out:  # checked when the pattern's last step has ended
                last = out[-1]
                out[-1] = Step(last.cite, last.span, last.actions, last.dur, last.note,
                               last.reading, last.loc, last.pattern, last.expect + ex)
            return out
        ctx = f"pattern {pattern!r}, used at {loc}" if pattern else ""
        dur = None
        if "dur" in body:
            raw = _subst(body["dur"], env)
            if not self.leftover_params(raw, body.loc_of("dur"), ctx):
                dur = self.number(raw, body.loc_of("dur"), "dur", 0, 3600)
        note = body.get("note", "") if body is not s else s.get("note", "")
        if body is not s and not note:
            note = s.get("note", "")
        return [Step(cite, span, self.actions(body["do"], env, ctx), dur, note, reading, loc,
                     pattern, self.expects(s.get("expect"), s.loc_of("expect")
                                           if "expect" in s else loc))]

    def variant(self, s: YMap) -> tuple[YMap, str]:
        """The step's body under the chosen readings: a variant that names one and carries
        actions replaces the step's own."""
        for v in s.get("variants") or ():
            self.script_readings.add(v["reading"])
        for v in s.get("variants") or ():
            if reading_matches(self.readings, v["reading"]) and ("do" in v or "use" in v):
                return v, v["reading"]
        return s, s.get("reading", "鄭")

    def expects(self, items: Any, loc: Loc) -> tuple[Expect, ...]:
        out = []
        for i, e in enumerate(items or ()):
            eloc = items.loc_of(i) if isinstance(items, YList) else loc
            at = {k: e.loc_of(k) if k in e else eloc for k in ("who", "at", "within", "holding")}
            who = self.who(e["who"], at["who"])
            place = self.place(e["at"], at["at"]) if "at" in e else None
            within = self.number(e.get("within", 1.0), at["within"], "within", 0, 1000)
            face = direction(e["face"]) if "face" in e else None
            holding = (tuple(p for p in e["holding"] if self.prop(p, at["holding"]))
                       if "holding" in e else None)
            if who:
                out.append(Expect(who, eloc, place, within or 1.0, face, e.get("posture"),
                                  holding, e.get("present")))
        return tuple(out)

    def prop_placements(self, p: YMap, loc: Loc) -> list[PropPlacement]:
        if sum(k in p for k in ("at", "held_by", "absent")) > 1:
            self.out.error(loc, "a prop in a setup takes at most one of at:, held_by:, absent:")
        ids = [p["prop"]] if isinstance(p["prop"], str) else list(p["prop"])
        at = self.place(p["at"], p.loc_of("at")) if "at" in p else None
        held = self.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
        return [PropPlacement(m, at, held, bool(p.get("absent", False)), loc)
                for pid in ids if self.prop(pid, p.loc_of("prop"))
                for m in self.prop_members(pid)]

    def placement(self, p: YMap, loc: Loc) -> Placement | None:
        who = self.who(p["who"], p.loc_of("who"))
        held = tuple(m for x in (p.get("holding") or []) if self.prop(x, p.loc_of("holding"))
                     for m in self.prop_members(x))
        cite = p.get("cite", "")
        if cite and self.corpus is not None and not _find_cite(self.corpus, cite, 0, None):
            self.out.error(p.loc_of("cite"), f"cite not found in the text: {clip(cite)}")
        form = None
        if "formation" in p:
            form = self.read_key(Key("formation", ""), "formation", p["formation"],
                                 p.loc_of("formation"))
        spacing = (self.number(p["spacing"], p.loc_of("spacing"), "spacing", 0, 100, True)
                   if "spacing" in p else None)
        at = self.place(p["at"], p.loc_of("at"))
        if at is None or not who:
            return None
        return Placement(who, at, direction(p["face"]) if "face" in p else None, form, spacing,
                         p.get("posture", "立"), held, bool(p.get("absent", False)), cite, loc)

    def gap(self, st: YMap, index: int, sec, prev_sec) -> str:
        """The stage's declared gap, checked against the sections it really skips."""
        skipped = (list(range(prev_sec.index + 1, sec.index))
                   if sec is not None and prev_sec is not None else [])
        if sec is not None and prev_sec is not None and sec.index <= prev_sec.index:
            self.out.warn(st.loc_of("name"), f"this stage goes back in the text (section "
                                             f"{sec.index} after {prev_sec.index})")
        if sec is not None and (index == 0 or (prev_sec is not None
                                               and sec.index <= prev_sec.index)):
            skipped = list(range(1, sec.index))
        if "gap" not in st:
            if skipped and index > 0:
                self.out.warn(st.loc_of("name"), f"sections {_range(skipped)} come between this "
                                                 "stage and the one before and are not enacted; "
                                                 f"say so: gap: {{skips: {_range(skipped)}}}")
            return ""
        g = st["gap"]
        m = re.fullmatch(r"(\d+)(?:[–-](\d+))?", str(g["skips"]))
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if sec is not None and list(range(lo, hi + 1)) != skipped:
            said = _range(list(range(lo, hi + 1)))
            real = _range(skipped) if skipped else "none"
            self.out.error(g.loc_of("skips"), f"gap skips {said}, but the sections between this "
                                              f"stage and the one before are {real}")
        return _range(list(range(lo, hi + 1)))

    def stage(self, st: YMap, loc: Loc, index: int, prev_sec) -> tuple[Stage, Any]:
        section = st.get("section", st["name"])
        sec = self.section_of(section)
        lo, hi = (sec.start, sec.end) if sec else (0, None)
        if self.corpus is not None and sec is None:
            names = [s.name for s in self.corpus.sections]
            self.out.error(st.loc_of("section" if "section" in st else "name"),
                           f"no section of the text is named {clip(section)}"
                           f"{_suggest(section, names)}; give section: NAME")
        gap = self.gap(st, index, sec, prev_sec)
        if st.get("setup") and index > 0 and not gap:
            self.out.error(st.key_loc("setup"), "setup: is allowed only where the text before "
                                                "this stage is not enacted (a gap: {skips: "
                                                "6–13}); otherwise a stage begins where the "
                                                "last one left everyone")
        setup: list[Placement | PropPlacement | ThingPlacement] = []
        for i, p in enumerate(st.get("setup") or []):
            loc_i = st["setup"].loc_of(i)
            if not self.cast_when(p):
                continue
            if "thing" in p:
                setup.append(ThingPlacement(self.thing_names(p["thing"], p.loc_of("thing")),
                                            bool(p.get("absent", False)), loc_i))
            elif "prop" in p:
                setup += self.prop_placements(p, loc_i)
            else:
                pl = self.placement(p, loc_i)
                if pl is not None:
                    setup.append(pl)
        self.scoring = self.scoring_of(st.get("scoring"), st.loc_of("scoring")
                                       if "scoring" in st else loc)
        steps: list[Step] = []
        cursor = lo
        for i, s in enumerate(st["steps"]):
            sloc = st["steps"].loc_of(i)
            span = self.cite_span(s["cite"], s.loc_of("cite"), cursor, lo, hi)
            if span[1] > span[0]:
                cursor = span[0]
            if "when" in s and not self.step_when(s):
                continue
            if "each" in s:
                group = s["each"] if isinstance(s["each"], str) else s["each"].get("group")
                for env in self.members_of(s["each"], s.loc_of("each")) or ():
                    got = self.step(s, sloc, s["cite"], span, env, "", 0)
                    if got and group in ("不勝耦", "不勝者") and self.results:
                        loser = env.get("負", env["each"])
                        got[0] = replace(got[0], drinks=(loser, self.results[-1].round))
                    steps += got
            else:
                steps += self.step(s, sloc, s["cite"], span, {}, "", 0)
        rules = []
        for i, r in enumerate(st.get("rules") or ()):
            rspan = self.cite_span(r["cite"], r.loc_of("cite"), lo, lo, hi)
            rules.append(Rule(r["cite"], rspan, r.get("note", ""), st["rules"].loc_of(i)))
        labels = st.get("labels") or YMap()
        for k in labels:
            self.actor(k, labels.key_loc(k))
        return Stage(st["name"], str(section), tuple(setup), tuple(steps), loc,
                     {k: v for k, v in labels.items() if k in self.actor_ids}, gap,
                     tuple(rules), self.scoring, sec.index if sec is not None else 0), sec

    def cite_span(self, cite: str, loc: Loc, cursor: int, lo: int, hi) -> tuple[int, int]:
        if self.corpus is None:
            return (0, 0)
        span = _find_cite(self.corpus, cite, cursor, hi)
        if span:
            return span
        span = _find_cite(self.corpus, cite, lo, hi)
        if span:
            self.out.warn(loc, f"cite {clip(cite)} is found only before the previous step's "
                               "words in this section: steps run in the text's order")
            return span
        span = _find_cite(self.corpus, cite, 0, None)
        if span:
            if hi is not None:
                self.out.warn(loc, f"cite {clip(cite)} is not in this stage's section; found at "
                                   f"{self.corpus.page_at(span[0])}")
            return span
        self.out.error(loc, f"cite not found in the text: {clip(cite)} (variants such as 賔/賓 "
                            "count as equal; use … between fragments of a long passage)")
        return (0, 0)


def _range(ns: list[int]) -> str:
    return f"{ns[0]}–{ns[-1]}" if len(ns) > 1 else str(ns[0]) if ns else ""


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


def settings_from(doc: YMap) -> Settings:
    s = doc.get("settings") or {}
    base = Settings()
    gestures = dict(base.gestures)
    gestures.update(s.get("gestures") or {})
    return Settings(**{k: float(s[k]) for k in ("walk_speed", "stair_step", "turn", "spacing",
                                                "brisk_speed") if k in s}, gestures=gestures)


def read_script(doc: Any, name: str, layout, corpus, readings: Sequence[str] = (),
                files: Sequence[str] = (), checked: bool = False,
                sets: Sequence[tuple[str, str]] = (), seed: int | None = None) -> Script:
    """Check a parsed script and build the model; raises InputError listing every problem.
    checked: the structure was checked already, file by file (read_document)."""
    out = Collector()
    if not checked:
        problems = check_structure(doc, name)
        if problems:
            raise InputError(problems)
        _check_numbers(doc, out)
        out.raise_if_errors()
    r = _Reader(doc, layout, corpus, out, tuple(readings), sets, seed)
    cast, props = r.cast(), r.props()
    r.check_patterns()
    stages: list[Stage] = []
    prev_sec = None
    seen: dict[str, Loc] = {}
    for i, st in enumerate(doc["stages"]):
        stage, sec = r.stage(st, doc["stages"].loc_of(i), i, prev_sec)
        if stage.name in seen:
            out.warn(st.loc_of("name"), f"a second stage named {clip(stage.name)} (the first is "
                                        f"at {seen[stage.name]}): --stage NAME reaches only the "
                                        "first")
        seen.setdefault(stage.name, st.loc_of("name"))
        prev_sec = sec or prev_sec
        stages.append(stage)
    out.raise_if_errors()
    set_out = r.thing_names(doc.get("set_out") or [], doc.loc_of("set_out")
                            if "set_out" in doc else doc.loc)
    return Script(name, doc.get("rite", ""), settings_from(doc), cast, props, tuple(stages),
                  tuple(out.warnings), tuple(sorted(r.script_readings)), tuple(files) or (name,),
                  dict(r.values), r.seed, dict(r.sides), dict(r.skills), tuple(r.shots),
                  tuple(r.results), set_out)


def load_script(path: str | Path, layout, corpus, readings: Sequence[str] = (),
                sets: Sequence[tuple[str, str]] = (), seed: int | None = None) -> Script:
    """A rite folder, its manifest, or a one-file script."""
    doc, files = read_document(path)
    return read_script(doc, str(path), layout, corpus, readings, files, checked=True, sets=sets,
                       seed=seed)


def parse_script(text: str, layout, corpus, name: str = "<script>",
                 readings: Sequence[str] = ()) -> Script:
    return read_script(load_text(text, name), name, layout, corpus, readings)
