"""The rite script read: a checked document → the model (Script), every problem with its place.

The reader is a sequence of passes over explicit values, as read_script runs them:
  structure  the document checked against the schema (unless read_document did, file by file)
  like       resolve_likes (like.py): stages like others copied in, a new document
  scope      Scope (scope.py): the scenario resolved, who and what it casts; Refs read values
             against it, the layout and the text; Cast (cast.py) the groups, bodies and sides
  patterns   Patterns (patterns.py): the definitions checked, the rite's size counted
  stages     read_stages, stage by stage in the rite's order (read_stage): the section and the
             gap, the setup, then each step cited (the words it enacts, _cite), its when: read,
             expanded (each:, patterns, variants: Steps, steps.py) and built into Steps whose
             arrows and counts take their fates (Fates, fates.py) as they are read, a step
             together: merged; then the rules and labels. The fates are not a pass after the
             build: a when: 有勝 or an each: 不勝耦 reads the count before it, so they are
             decided in the rite's order, as the steps are read
Reader holds those parts, each owning its own state (Scope its unknown ids, Patterns its count
of steps made, Fates the scoring, shots and results, Steps the readings named), and is handed
to the stage passes; besides it they share only the Collector the problems go to (in the order
found, which the passes keep) and read_stages' set of sections enacted out of order. load_script reads a rite folder, its manifest or a
one-file script (source.py) under a RiteSpec, parse_script a text. Imports viz.base,
viz.model.verbs and the script's other modules.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from viz.base.errors import Collector, InputError, Loc, clip
from viz.base.yamlsrc import YMap, load_text
from viz.model.script.cast import Cast
from viz.model.script.fates import Fates
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
from viz.model.script.patterns import Patterns
from viz.model.script.refs import Refs
from viz.model.script.scope import Scope, _suggest
from viz.model.script.source import _check_numbers, check_structure, read_document
from viz.model.script.steps import MAIN, Steps, find_cite
from viz.model.verbs import Key


@dataclass(frozen=True)
class Reader:
    """The reader's parts, built in this order and handed to the stage passes."""

    scope: Scope
    refs: Refs
    cast: Cast
    patterns: Patterns
    fates: Fates
    steps: Steps

    @classmethod
    def of(cls, doc: YMap, layout, corpus, out: Collector, readings: tuple[str, ...],
           sets: Sequence[tuple[str, str]] = (), seed: int | None = None) -> Reader:
        scope = Scope(doc, layout, corpus, out, readings, sets, seed)
        refs = Refs(scope)
        patterns = Patterns(doc, refs)
        cast = Cast(scope, refs)
        fates = Fates(scope.seed, cast.sides, cast.skills, out)
        return cls(scope, refs, cast, patterns, fates, Steps(scope, refs, patterns, fates))

    @property
    def out(self) -> Collector:
        return self.scope.out


def read_script(doc: Any, name: str, layout, corpus, readings: Sequence[str] = (),
                files: Sequence[str] = (), checked: bool = False,
                sets: Sequence[tuple[str, str]] = (), seed: int | None = None,
                upto: int | None = None) -> Script:
    """Check a parsed script and build the model; raises InputError listing every problem.
    checked: the structure was checked already, file by file (read_document). upto: only the
    first so many stages (a prefix: what a window shows while the rest compiles; the stages
    before the last are as the whole script has them)."""
    out = _structure(doc, name, checked)
    doc, other_files = resolve_likes(doc, out)
    files = [*(files or (name,)), *other_files] if other_files else files
    out.raise_if_errors()
    r = Reader.of(doc, layout, corpus, out, tuple(readings), sets, seed)
    cast, props = r.cast.cast(), r.cast.props()
    if upto is None:  # a prefix's patterns may name who a later stage casts
        r.patterns.check_patterns()
    r.patterns.reserve_stages(doc["stages"], upto)
    stages = read_stages(r, doc["stages"], upto)
    return _script(r, doc, name, files, cast, props, stages)


def _structure(doc: Any, name: str, checked: bool) -> Collector:
    """The collector of the read's problems, the document's own warnings in it; unless checked,
    the document's structure and numbers checked first (InputError if they are wrong)."""
    out = Collector()
    out.problems.extend(getattr(doc, "source_warnings", ()))
    if not checked:
        problems = check_structure(doc, name)
        if problems:
            raise InputError(problems)
        _check_numbers(doc, out)
        out.raise_if_errors()
    return out


def _script(r: Reader, doc: YMap, name: str, files: Sequence[str], cast, props,
            stages: list[Stage]) -> Script:
    """The model, from what the passes read."""
    set_out = r.refs.thing_names(doc.get("set_out") or [], doc.loc_of("set_out")
                                 if "set_out" in doc else doc.loc)
    s, f = r.scope, r.fates
    return Script(name, doc.get("rite", ""), settings_from(doc), cast, props, tuple(stages),
                  tuple(r.out.warnings), tuple(sorted(r.steps.script_readings)),
                  tuple(files) or (name,), dict(s.values), s.seed, dict(r.cast.sides),
                  dict(r.cast.skills), tuple(f.shots), tuple(f.results), set_out,
                  getattr(doc["stages"], "total", len(doc["stages"])))


def read_stages(r: Reader, stages: Any, upto: int | None = None) -> list[Stage]:
    """The stages in the rite's order (the first upto of them), each read by read_stage; a
    stage named twice is a warning. Raises InputError on any problem (PrefixShort where a
    prefix names ids no file it read casts)."""
    out = r.out
    done: list[Stage] = []
    prev_sec = None
    seen: dict[str, Loc] = {}
    elsewhere: set[int] = set()  # sections enacted out of the text's order (out_of_order)
    total = getattr(stages, "total", len(stages))
    for i, st in enumerate(stages):
        if upto is not None and i >= upto:
            break
        stage, sec = read_stage(r, st, stages.loc_of(i), i, prev_sec, elsewhere)
        if stage.name in seen:
            out.warn(st.loc_of("name"), f"a second stage named {clip(stage.name)} (the first is "
                                        f"at {seen[stage.name]}): --stage NAME reaches only the "
                                        "first")
        seen.setdefault(stage.name, st.loc_of("name"))
        if "out_of_order" not in st:
            prev_sec = sec or prev_sec
        done.append(stage)
    if upto is not None and out.errors and r.scope.unknown and len(done) < total:
        raise PrefixShort(out.errors, frozenset(r.scope.unknown))
    out.raise_if_errors()
    return done


def read_stage(r: Reader, st: YMap, loc: Loc, index: int, prev_sec,
               elsewhere: set[int]) -> tuple[Stage, Any]:
    """One stage: the section it enacts and its gap, its setup, its scoring (the fates'
    from here), its steps, rules and labels → (the Stage, its section of the text or None)."""
    section = st.get("section", st["name"])
    sec = _section(r, st, section)
    gap = _gap(r, st, index, sec, prev_sec, elsewhere)
    placed: list[Rule] = []
    setup = _setup(r, st, index, gap, placed)
    scoring = r.cast.scoring_of(st.get("scoring"), st.loc_of("scoring") if "scoring" in st
                                else loc)
    r.fates.begin(scoring)
    lo, hi = (sec.start, sec.end) if sec else (0, None)
    steps = _steps(r, st, lo, hi, r.scope.cast_when(st))
    rules = tuple(Rule(x["cite"], _cite(r, x["cite"], x.loc_of("cite"), lo, lo, hi,
                                        _kinds(r, x)),
                       x.get("note", ""), st["rules"].loc_of(i))
                  for i, x in enumerate(st.get("rules") or ()))
    labels = st.get("labels") or YMap()
    for k in labels:
        r.scope.actor(k, labels.key_loc(k))
    return Stage(st["name"], str(section), tuple(setup), tuple(steps), loc,
                 {k: v for k, v in labels.items() if k in r.scope.actor_ids}, gap,
                 rules, scoring, sec.index if sec is not None else 0, tuple(placed)), sec


def _section(r: Reader, st: YMap, section: Any):
    """The section of the text a stage enacts (its section:, else its name), or None; with a
    text, none of that name is an error."""
    sec = r.refs.section_of(section)
    if r.scope.corpus is not None and sec is None:
        names = [s.name for s in r.scope.corpus.sections]
        r.out.error(st.loc_of("section" if "section" in st else "name"),
                    f"no section of the text is named {clip(section)}"
                    f"{_suggest(section, names)}; give section: NAME")
    return sec


def _gap(r: Reader, st: YMap, index: int, sec, prev_sec, elsewhere: set[int]) -> str:
    """The stage's declared gap, checked against the sections it really skips (those enacted
    out of order, elsewhere, not counted; an out_of_order stage adds its own there)."""
    out = r.out
    if "out_of_order" in st:  # played here, told elsewhere: outside the text's order
        if sec is not None:
            elsewhere.add(sec.index)
        return ""
    skipped = ([n for n in range(prev_sec.index + 1, sec.index) if n not in elsewhere]
               if sec is not None and prev_sec is not None else [])
    if sec is not None and prev_sec is not None and sec.index <= prev_sec.index:
        out.warn(st.loc_of("name"), f"this stage goes back in the text (section "
                                    f"{sec.index} after {prev_sec.index})")
    if sec is not None and (index == 0 or (prev_sec is not None
                                           and sec.index <= prev_sec.index)):
        skipped = list(range(1, sec.index))
    if "gap" not in st:
        if skipped and index > 0:
            out.warn(st.loc_of("name"), f"sections {_range(skipped)} come between this "
                                        "stage and the one before and are not enacted; "
                                        f"say so: gap: {{skips: {_range(skipped)}}}")
        return ""
    g = st["gap"]
    m = re.fullmatch(r"(\d+)(?:[–-](\d+))?", str(g["skips"]))
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if sec is not None and list(range(lo, hi + 1)) != skipped:
        said = _range(list(range(lo, hi + 1)))
        real = _range(skipped) if skipped else "none"
        out.error(g.loc_of("skips"), f"gap skips {said}, but the sections between this "
                                     f"stage and the one before are {real}")
    return _range(list(range(lo, hi + 1)))


def _setup(r: Reader, st: YMap, index: int, gap: str,
           placed: list | None = None) -> list[Placement | PropPlacement | ThingPlacement]:
    """Where a stage after a gap begins: its setup: items cast in this scenario, each cited
    (their cites, with their spans, to placed: coverage counts them)."""
    if st.get("setup") and index > 0 and not gap:
        r.out.error(st.key_loc("setup"), "setup: is allowed only where the text before "
                                         "this stage is not enacted (a gap: {skips: "
                                         "6–13}); otherwise a stage begins where the "
                                         "last one left everyone")
    setup: list[Placement | PropPlacement | ThingPlacement] = []
    for i, p in enumerate(st.get("setup") or []):
        loc_i = st["setup"].loc_of(i)
        span = _setup_cite(r, p)
        if not r.scope.cast_when(p):
            continue
        if span is not None and placed is not None and span[1] > span[0]:
            placed.append(Rule(p["cite"], span, "", loc_i))
        if "thing" in p:
            setup.append(ThingPlacement(r.refs.thing_names(p["thing"], p.loc_of("thing")),
                                        bool(p.get("absent", False)), loc_i))
        elif "prop" in p:
            setup += _prop_placements(r, p, loc_i)
        else:
            pl = _placement(r, p, loc_i)
            if pl is not None:
                setup.append(pl)
    return setup


def _steps(r: Reader, st: YMap, lo: int, hi, on: bool = True) -> list[Step]:
    """A stage's steps in order: each cited within the stage's words (lo … hi; a cursor keeps
    them in the text's order), its when: read, expanded (_each, or Steps.step) and built; a
    step together: merged with the one before. on: the stage's own when: holds (else every
    step is cited, as a check, and none enacted: the stage is empty in this scenario)."""
    steps: list[Step] = []
    last = None  # where the last step enacted begins in steps (a step together: with it)
    cursor = lo
    for i, s in enumerate(st.get("steps") or ()):  # none: a stage of rules: only
        sloc = st["steps"].loc_of(i)
        if "section" in s:  # enacting a clause of another section, where the rite says
            other = r.refs.section_of(s["section"])
            if other is None and r.scope.corpus is not None:
                r.out.error(s.loc_of("section"), f"no section of the text is named "
                                                 f"{clip(s['section'])}")
            span = (_cite(r, s["cite"], s.loc_of("cite"), other.start, other.start, other.end,
                          _kinds(r, s))
                    if other is not None else (0, 0))
        else:
            span = _cite(r, s["cite"], s.loc_of("cite"), cursor, lo, hi, _kinds(r, s))
            if span[1] > span[0] and lo <= span[0] and (hi is None or span[0] < hi):
                cursor = span[0]
        if not on or ("when" in s and not r.fates.step_when(s, r.scope)):
            continue
        new = _each(r, s, sloc, span) if "each" in s else r.steps.step(s, sloc, s["cite"], span,
                                                                       {}, "", 0)
        if s.get("together") is True and new:  # at the same time as the step before
            if last is None or steps[last].cite != s["cite"]:
                r.out.error(s.key_loc("together"), "together: runs a step at the same time "
                            "as the step before it, which must cite the same words; "
                            + ("there is none in this stage" if last is None else
                               f"it cites {clip(steps[last].cite)}"))
                steps += new
            else:
                steps[last:] = r.steps.together([steps[last:], new], s.key_loc("together"))
        elif new:
            last = len(steps)
            steps += new
    return steps


def _each(r: Reader, s: YMap, sloc: Loc, span: tuple[int, int]) -> list[Step]:
    """A step repeated over a group's members (each:), in turn or together; a loser's drinking
    tagged with the last count's round (who drinks: DRINKING)."""
    group = s["each"] if isinstance(s["each"], str) else s["each"].get("group")
    per: list[list[Step]] = []
    for env in r.cast.members_of(s["each"], s.loc_of("each"), r.fates.last) or ():
        got = r.steps.step(s, sloc, s["cite"], span, env, "", 0)
        if not any(k in r.patterns.patterns for k in DRINKING):  # no drinking patterns:
            loser = (env.get("負", env["each"])  # each step over the losers
                     if group in ("不勝耦", "不勝者") else None)
        else:
            loser = (_drinker(s, env) if group in ("不勝耦", "不勝者", "勝者")
                     else None)
        if got and loser and r.fates.results:
            got[0] = replace(got[0], drinks=(loser, r.fates.results[-1].round))
        per.append([replace(x, rep=int(env.get("i", 0))) for x in got])
    if isinstance(s["each"], YMap) and s["each"].get("together") is True:
        return r.steps.together(per, s["each"].key_loc("together"), "members'")
    return [x for got in per for x in got]


IN = {"經": ("經",), "記": ("記",), "注": ("注", "記注"), "記注": ("記注",), "引": ("引",),
      "按": ("按",)}  # in: NAME → the kinds of text a cite is sought in (注: the 記's too)


def _kinds(r: Reader, s: Any) -> tuple[str, ...] | None:
    """The kinds of text a step's (or rule's) cite is sought in: the 經 and 記 (MAIN), or what
    its `in:` names (注, 記注, 引, 按, 經, 記: one or a list); None when in: is wrong (reported)."""
    if not isinstance(s, YMap) or "in" not in s:
        return MAIN
    v = s["in"]
    names = [v] if isinstance(v, str) else v if isinstance(v, list) else None
    if not names or not all(isinstance(n, str) and n in IN for n in names):
        r.out.error(s.loc_of("in"), f"in: expected one of {' '.join(IN)} (the kinds of text a "
                                    f"cite is sought in) or a list of them, found {clip(v)}")
        return None
    return tuple(k for n in names for k in IN[n])


def _cite(r: Reader, cite: str, loc: Loc, cursor: int, lo: int, hi,
          kinds: tuple[str, ...] | None = MAIN) -> tuple[int, int]:
    """The words a step (or rule) cites, in the 經 and 記 unless it says otherwise (kinds, its
    in:): after the cursor in the stage's section (lo … hi), else before it (a warning), else
    anywhere in the text (a warning, unless in a 記); (0, 0) when not found (an error: words
    found only in the commentary say so) or without a text, or kinds is None (in: wrong)."""
    corpus, out = r.scope.corpus, r.out
    if corpus is None or kinds is None:
        return (0, 0)
    span = find_cite(corpus, cite, cursor, hi, kinds)
    if span:
        return span
    span = find_cite(corpus, cite, lo, hi, kinds)
    if span:
        out.warn(loc, f"cite {clip(cite)} is found only before the previous step's "
                      "words in this section: steps run in the text's order")
        return span
    span = find_cite(corpus, cite, 0, None, kinds)
    if span:
        run = corpus.run_at(span[0])
        if hi is not None and not (run is not None and run.kind == "記"):  # a 記 is cited
            # where what it tells happens
            out.warn(loc, f"cite {clip(cite)} is not in this stage's section; found at "
                          f"{corpus.page_at(span[0])}")
        return span
    elsewhere = find_cite(corpus, cite, 0, None)
    if elsewhere and kinds == MAIN:
        run = corpus.run_at(elsewhere[0])
        out.error(loc, f"cite {clip(cite)} is found only in the commentary "
                       f"({run.kind if run else '?'}) at {corpus.page_at(elsewhere[0])}, not in "
                       "the 經 or 記: a cite of the commentary says so, in: 注")
        return (0, 0)
    if kinds != MAIN:
        want = "、".join(dict.fromkeys(kinds))
        out.error(loc, f"cite not found in the {want}: {clip(cite)}"
                       + (f" (it is at {corpus.page_at(elsewhere[0])}, in the "
                          f"{corpus.run_at(elsewhere[0]).kind}: leave out in:)"
                          if elsewhere and corpus.run_at(elsewhere[0]) is not None else ""))
        return (0, 0)
    out.error(loc, f"cite not found in the text: {clip(cite)} (variants such as 賔/賓 "
                   "count as equal; use … between fragments of a long passage)")
    return (0, 0)


def _prop_placements(r: Reader, p: YMap, loc: Loc) -> list[PropPlacement]:
    if sum(k in p for k in ("at", "held_by", "absent", "worn_by")) > 1:
        r.out.error(loc, "a prop in a setup takes at most one of at:, held_by:, absent:, worn_by:")
    ids = [p["prop"]] if isinstance(p["prop"], str) else list(p["prop"])
    at = r.refs.place(p["at"], p.loc_of("at")) if "at" in p else None
    held = r.scope.actor(p["held_by"], p.loc_of("held_by")) if "held_by" in p else None
    worn = r.scope.actor(p["worn_by"], p.loc_of("worn_by")) if "worn_by" in p else None
    find = r.scope.worn_prop if "worn_by" in p else r.scope.prop  # worn_by: a worn thing
    return [PropPlacement(m, at, held, bool(p.get("absent", False)), loc, worn)
            for pid in ids if find(pid, p.loc_of("prop"))
            for m in r.scope.prop_members(pid)]


def _setup_cite(r: Reader, p: YMap) -> tuple[int, int] | None:
    """A setup item's cite: (a person's, a prop's or a thing's; cast in this scenario or
    not) is sought in the whole text like a step's, in the 經 and 記 unless its in: says
    otherwise: words not in it are an error. Its span, or None (no cite, or no text)."""
    cite = p.get("cite", "") if isinstance(p, YMap) else ""
    if cite and r.scope.corpus is not None:
        return _cite(r, cite, p.loc_of("cite"), 0, 0, None, _kinds(r, p))
    return None


def _placement(r: Reader, p: YMap, loc: Loc) -> Placement | None:
    who = r.scope.who(p["who"], p.loc_of("who"))
    held = tuple(m for x in (p.get("holding") or []) if r.scope.prop(x, p.loc_of("holding"))
                 for m in r.scope.prop_members(x))
    cite = p.get("cite", "")  # checked by _setup_cite, as every setup item's
    form = None
    if "formation" in p:
        form = r.refs.read_key(Key("formation", ""), "formation", p["formation"],
                               p.loc_of("formation"))
    spacing = (r.refs.number(p["spacing"], p.loc_of("spacing"), "spacing", 0, 100, True)
               if "spacing" in p else None)
    at = r.refs.place(p["at"], p.loc_of("at"))
    if at is None or not who:
        return None
    return Placement(who, at, direction(p["face"]) if "face" in p else None, form, spacing,
                     p.get("posture", "立"), held, bool(p.get("absent", False)), cite, loc)


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
