"""The rite script read: a checked document → the model (Script), every problem with its place.

Reader(_Steps) is the last of the reader's parts (scope.py … steps.py) and owns no state of its
own: stage reads one stage (its setup, scoring, steps and rules), setting the cast part's scoring
as it opens; gap, placement, prop_placements and cite_span read its parts. read_script runs a
Reader over a document (its structure checked here, unless read_document did so file by file);
load_script reads a rite folder, its manifest or a one-file script (source.py), parse_script a
text. Imports viz.base, viz.model.scenario, viz.model.verbs and the script's other modules.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from viz.base.errors import Collector, InputError, Loc, clip
from viz.base.yamlsrc import YMap, load_text
from viz.model.script.like import resolve_likes
from viz.model.script.nodes import (
    Placement,
    PropPlacement,
    Rule,
    Script,
    Settings,
    Stage,
    Step,
    ThingPlacement,
    direction,
)
from viz.model.script.scope import _suggest
from viz.model.script.source import _check_numbers, check_structure, read_document
from viz.model.script.steps import _Steps, find_cite
from viz.model.verbs import Key


class Reader(_Steps):
    """Turns checked YAML into the model, reporting every problem of meaning with its place."""

    def prop_placements(self, p: YMap, loc: Loc) -> list[PropPlacement]:
        if sum(k in p for k in ("at", "held_by", "absent")) > 1:
            self.out.error(loc, "a prop in a setup takes at most one of at:, held_by:, absent:")
        ids = [p["prop"]] if isinstance(p["prop"], str) else list(p["prop"])
        at = self.place(p["at"], p.loc_of("at")) if "at" in p else None
        held = self.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
        return [PropPlacement(m, at, held, bool(p.get("absent", False)), loc)
                for pid in ids if self.prop(pid, p.loc_of("prop"))
                for m in self.prop_members(pid)]

    def setup_cite(self, p: YMap) -> None:
        """A setup item's cite: (a person's, a prop's or a thing's; cast in this scenario or
        not) is sought in the whole text like a step's: words not in it are an error."""
        cite = p.get("cite", "") if isinstance(p, YMap) else ""
        if cite and self.corpus is not None and not find_cite(self.corpus, cite, 0, None):
            self.out.error(p.loc_of("cite"), f"cite not found in the text: {clip(cite)}")

    def placement(self, p: YMap, loc: Loc) -> Placement | None:
        who = self.who(p["who"], p.loc_of("who"))
        held = tuple(m for x in (p.get("holding") or []) if self.prop(x, p.loc_of("holding"))
                     for m in self.prop_members(x))
        cite = p.get("cite", "")  # checked by setup_cite, as every setup item's
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
        if "out_of_order" in st:  # played here, told elsewhere: outside the text's order
            if sec is not None:
                self.elsewhere.add(sec.index)
            return ""
        skipped = ([n for n in range(prev_sec.index + 1, sec.index) if n not in self.elsewhere]
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
            self.setup_cite(p)
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
        last = None  # where the last step enacted begins in steps (a step together: with it)
        cursor = lo
        for i, s in enumerate(st["steps"]):
            sloc = st["steps"].loc_of(i)
            if "section" in s:  # enacting a clause of another section, where the rite says
                other = self.section_of(s["section"])
                if other is None and self.corpus is not None:
                    self.out.error(s.loc_of("section"), f"no section of the text is named "
                                                        f"{clip(s['section'])}")
                span = (self.cite_span(s["cite"], s.loc_of("cite"), other.start, other.start,
                                       other.end) if other is not None else (0, 0))
            else:
                span = self.cite_span(s["cite"], s.loc_of("cite"), cursor, lo, hi)
                if span[1] > span[0] and lo <= span[0] and (hi is None or span[0] < hi):
                    cursor = span[0]
            if "when" in s and not self.step_when(s):
                continue
            new: list[Step] = []
            if "each" in s:
                group = s["each"] if isinstance(s["each"], str) else s["each"].get("group")
                per: list[list[Step]] = []
                for env in self.members_of(s["each"], s.loc_of("each")) or ():
                    got = self.step(s, sloc, s["cite"], span, env, "", 0)
                    if not any(k in self.patterns for k in DRINKING):  # no drinking patterns:
                        loser = (env.get("負", env["each"])  # each step over the losers
                                 if group in ("不勝耦", "不勝者") else None)
                    else:
                        loser = (_drinker(s, env) if group in ("不勝耦", "不勝者", "勝者")
                                 else None)
                    if got and loser and self.results:
                        got[0] = replace(got[0], drinks=(loser, self.results[-1].round))
                    per.append([replace(x, rep=int(env.get("i", 0))) for x in got])
                if isinstance(s["each"], YMap) and s["each"].get("together") is True:
                    new = self.together(per, s["each"].key_loc("together"), "members'")
                else:
                    new = [x for got in per for x in got]
            else:
                new = self.step(s, sloc, s["cite"], span, {}, "", 0)
            if s.get("together") is True and new:  # at the same time as the step before
                if last is None or steps[last].cite != s["cite"]:
                    self.out.error(s.key_loc("together"), "together: runs a step at the same time "
                                   "as the step before it, which must cite the same words; "
                                   + ("there is none in this stage" if last is None else
                                      f"it cites {clip(steps[last].cite)}"))
                    steps += new
                else:
                    steps[last:] = self.together([steps[last:], new], s.key_loc("together"))
            elif new:
                last = len(steps)
                steps += new
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
        span = find_cite(self.corpus, cite, cursor, hi)
        if span:
            return span
        span = find_cite(self.corpus, cite, lo, hi)
        if span:
            self.out.warn(loc, f"cite {clip(cite)} is found only before the previous step's "
                               "words in this section: steps run in the text's order")
            return span
        span = find_cite(self.corpus, cite, 0, None)
        if span:
            run = self.corpus.run_at(span[0])
            if hi is not None and not (run is not None and run.kind == "記"):  # a 記 is cited
                # where what it tells happens
                self.out.warn(loc, f"cite {clip(cite)} is not in this stage's section; found at "
                                   f"{self.corpus.page_at(span[0])}")
            return span
        self.out.error(loc, f"cite not found in the text: {clip(cite)} (variants such as 賔/賓 "
                            "count as equal; use … between fragments of a long passage)")
        return (0, 0)


def _range(ns: list[int]) -> str:
    return f"{ns[0]}–{ns[-1]}" if len(ns) > 1 else str(ns[0]) if ns else ""


def settings_from(doc: YMap) -> Settings:
    s = doc.get("settings") or {}
    base = Settings()
    gestures = dict(base.gestures)
    gestures.update(s.get("gestures") or {})
    return Settings(**{k: float(s[k]) for k in ("walk_speed", "stair_step", "turn", "spacing",
                                                "brisk_speed") if k in s}, gestures=gestures)


class PrefixShort(InputError):
    """A prefix (read_script upto=) names ids that no file it read casts: a later one may."""

    def __init__(self, problems, unknown: frozenset[str]):
        super().__init__(problems)
        self.unknown = unknown


def read_script(doc: Any, name: str, layout, corpus, readings: Sequence[str] = (),
                files: Sequence[str] = (), checked: bool = False,
                sets: Sequence[tuple[str, str]] = (), seed: int | None = None,
                upto: int | None = None) -> Script:
    """Check a parsed script and build the model; raises InputError listing every problem.
    checked: the structure was checked already, file by file (read_document). upto: only the
    first so many stages (a prefix: what a window shows while the rest compiles; the stages
    before the last are as the whole script has them)."""
    out = Collector()
    out.problems.extend(getattr(doc, "source_warnings", ()))
    if not checked:
        problems = check_structure(doc, name)
        if problems:
            raise InputError(problems)
        _check_numbers(doc, out)
        out.raise_if_errors()
    doc, other_files = resolve_likes(doc, out)
    if other_files:
        files = [*(files or (name,)), *other_files]
    out.raise_if_errors()
    r = Reader(doc, layout, corpus, out, tuple(readings), sets, seed)
    cast, props = r.cast(), r.props()
    if upto is None:  # a prefix's patterns may name who a later stage casts
        r.check_patterns()
    r.reserve_stages(doc["stages"], upto)
    stages: list[Stage] = []
    prev_sec = None
    seen: dict[str, Loc] = {}
    total = getattr(doc["stages"], "total", len(doc["stages"]))
    for i, st in enumerate(doc["stages"]):
        if upto is not None and i >= upto:
            break
        stage, sec = r.stage(st, doc["stages"].loc_of(i), i, prev_sec)
        if stage.name in seen:
            out.warn(st.loc_of("name"), f"a second stage named {clip(stage.name)} (the first is "
                                        f"at {seen[stage.name]}): --stage NAME reaches only the "
                                        "first")
        seen.setdefault(stage.name, st.loc_of("name"))
        if "out_of_order" not in st:
            prev_sec = sec or prev_sec
        stages.append(stage)
    if upto is not None and out.errors and r.unknown and len(stages) < total:
        raise PrefixShort(out.errors, frozenset(r.unknown))
    out.raise_if_errors()
    set_out = r.thing_names(doc.get("set_out") or [], doc.loc_of("set_out")
                            if "set_out" in doc else doc.loc)
    return Script(name, doc.get("rite", ""), settings_from(doc), cast, props, tuple(stages),
                  tuple(out.warnings), tuple(sorted(r.script_readings)), tuple(files) or (name,),
                  dict(r.values), r.seed, dict(r.sides), dict(r.skills), tuple(r.shots),
                  tuple(r.results), set_out, total)


def load_script(spec, layout, corpus, readings: Sequence[str] = (),
                sets: Sequence[tuple[str, str]] = (), seed: int | None = None,
                upto: int | None = None) -> Script:
    """The rite a viz.model.spec.RiteSpec names (its script: a rite folder, its manifest, or a
    one-file script), under its readings and scenario; upto: its first so many stages. The
    spec is opened here and nowhere before. A script path stands for a spec of it, with
    readings, sets and seed."""
    from viz.model.spec import RiteSpec

    if isinstance(spec, RiteSpec):
        path, readings = spec.script, spec.readings
        sets, seed = spec.scenario.sets, spec.scenario.seed
    else:
        path = spec
    doc, files = read_document(path, upto)
    return read_script(doc, str(path), layout, corpus, readings, files, checked=True, sets=sets,
                       seed=seed, upto=upto)


def parse_script(text: str, layout, corpus, name: str = "<script>",
                 readings: Sequence[str] = ()) -> Script:
    return read_script(load_text(text, name), name, layout, corpus, readings)


# the patterns in which a loser drinks the 射爵, and the parameter naming him: the score's "who
# drank" comes from these steps, in the order they are enacted (特升飲 included). A rite that
# defines none of them tags every step repeated over the losers (each: 不勝耦 / 不勝者).
DRINKING = {"不勝者飲": "l", "首耦升飲": "l", "耦升飲": "l", "特升飲": "l", "尊者飲射爵": "who"}


def _drinker(s, env) -> str | None:
    """The loser a step of 飲不勝者 has drink, or None if the step is not his drinking."""
    param = DRINKING.get(s.get("use"))
    w = (s.get("with") or {}).get(param) if param else None
    if isinstance(w, str) and w.startswith("$"):
        return env.get(w[1:])
    return w if isinstance(w, str) else None
