"""The reader's steps: a step's variant chosen, its pattern expanded, its actions read by verb.

Steps is handed the scope, the refs, the patterns and the fates, and owns script_readings
(every reading the steps' variants name). step turns one step of a stage into Steps (several
where it uses a pattern, whose steps' when:s are read here); variant picks its body for the
chosen readings; parts shares out the words a pattern's steps enact; together merges
expansions that run at the same time (each: {together: true}, a step's together:); actions and
action_args read each action by its verb (viz/model/verbs.py, REGISTRY), an arrow shot or a
count going to the fates; expects reads the step's expect:. find_cite finds a cite's words.
Imports viz.base, viz.model.verbs and the script's nodes, scope, refs, patterns and fates.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from viz.base.errors import Loc, Problem, clip
from viz.base.yamlsrc import YList, YMap
from viz.model.script.fates import Fates
from viz.model.script.nodes import Action, Expect, Step, direction, reading_matches
from viz.model.script.patterns import Patterns, _subst, param_when
from viz.model.script.refs import MAIN, Refs, find_cite  # noqa: F401 (find_cite, MAIN: here too)
from viz.model.script.scope import Scope
from viz.model.verbs import REGISTRY


class Steps:
    """Steps and their actions, patterns expanded."""

    def __init__(self, scope: Scope, refs: Refs, patterns: Patterns, fates: Fates) -> None:
        self.scope, self.refs, self.patterns, self.fates = scope, refs, patterns, fates
        self.out, self.corpus = scope.out, scope.corpus
        self.script_readings: set[str] = set()

    def actions(self, acts: YList, env: dict, ctx: str) -> tuple[Action, ...]:
        out = []
        for i, a in enumerate(acts):
            verb = next(iter(a))
            loc = acts.loc_of(i)
            args = _subst(a[verb], env)
            src = a[verb] if isinstance(a[verb], YMap) else YMap()
            if self.patterns.leftover_params(args, loc, ctx):
                continue
            n = len(self.out.problems)
            parsed = self.action_args(verb, args, src, loc)
            if ctx:
                self.out.problems[n:] = [Problem(p.loc, f"{p.message} (in {ctx})", p.warning)
                                         for p in self.out.problems[n:]]
            if parsed is not None:
                if verb == "shoot" and "at" not in parsed:
                    self.fates.loose(parsed, loc)
                elif verb == "count":
                    self.fates.count(parsed, loc)
                out.append(Action(verb, parsed, loc))
        return tuple(out)

    def action_args(self, verb: str, a: Mapping, src: YMap, loc: Loc) -> dict | None:
        v = REGISTRY[verb]
        keys = v.all_keys()
        r: dict[str, Any] = {}
        ok = True
        for k, val in a.items():
            if k == "after" and val and all(isinstance(x, str) and x in self.scope.uncast
                                            for x in ([val] if isinstance(val, str) else val)):
                continue  # after someone not cast in this scenario: nobody to wait for
            got = self.refs.read_key(keys[k], k, val, src.loc_of(k) if k in src else loc)
            if got is None:
                ok = False
            else:
                r[k] = got
        v.check(r if ok else dict(a), lambda m: self.out.error(loc, m))
        return r if ok else None

    def step(self, s: YMap, loc: Loc, cite: str, span, env: dict, pattern: str, depth: int,
             reading: str = "鄭", said: bool = True) -> list[Step]:
        """One step of a stage (or of a pattern) as Steps. span: the words it enacts; a pattern's
        step with `cite:` enacts only that part of them (found within span; all of them when they
        do not hold it), and those after it the same part until another says; `said: false`
        marks a move the text does not say."""
        self.patterns.count_step(loc)
        body = s
        if not pattern:
            body, reading = self.variant(s)
        said = said and s.get("said", True) is not False
        if "use" in body:
            if isinstance(body["use"], str):
                self.patterns.reserve(body["use"], body.loc_of("use"))
            bound = self.patterns.bind(_subst(body, env) if env else body, depth)
            if bound is None:
                return []
            out = []
            kept = []
            for ps, penv, pname in bound:
                if "when" in ps:
                    held = param_when(ps["when"], penv)
                    if not (self.fates.step_when(ps, self.scope) if held is None else held):
                        continue  # an optional part left out
                kept.append((ps, penv, pname))
            self.patterns.enter(body["use"], body.loc_of("use"))
            for (ps, penv, pname), part in zip(kept, self.parts(kept, span)):
                out += self.step(ps, loc, cite, part, penv, pname, depth + 1, reading, said)
            self.patterns.leave()
            note = body.get("note", "") or s.get("note", "")
            if note:  # the citing step's note, on those of the pattern's steps without their own
                out = [x if x.note else replace(x, note=note) for x in out]
            if "dur" in body and out:
                total = self.refs.number(_subst(body["dur"], env), body.loc_of("dur"), "dur", 0, 3600)
                if total is not None:
                    out = [replace(x, dur=total / len(out)) for x in out]
            ex = (self.expects(_subst(s["expect"], env), s.loc_of("expect")) if "expect" in s
                  else ())
            if ex and out:  # checked when the pattern's last step has ended
                out[-1] = replace(out[-1], expect=out[-1].expect + ex)
            return out
        ctx = f"pattern {pattern!r}, used at {loc}" if pattern else ""
        dur = None
        if "dur" in body:
            raw = _subst(body["dur"], env)
            if not self.patterns.leftover_params(raw, body.loc_of("dur"), ctx):
                dur = self.refs.number(raw, body.loc_of("dur"), "dur", 0, 3600)
        note = body.get("note", "") if body is not s else s.get("note", "")
        if body is not s and not note:
            note = s.get("note", "")
        return [Step(cite, span, self.actions(body["do"], env, ctx), dur, note, reading, loc,
                     pattern, self.expects(_subst(s.get("expect"), env), s.loc_of("expect")
                                           if "expect" in s else loc), said=said)]

    def together(self, parts: list[list[Step]], loc: Loc, whose: str = "") -> list[Step]:
        """Expansions that run at the same time (each: {together: true}, or a step's together:
        with the step before): the k-th step of every part merged into one step, whose actions
        start together; each part's own order (one person at a time, after:) still holds. For
        members (whose: "members'"), a person in two parts is an error at loc (he would do two
        things at once); a step together with the one before may name someone that one names:
        his actions in it follow his own there."""
        parts = [p for p in parts if p]
        seen: dict[str, int] = {}
        for n, p in enumerate(parts if whose else ()):
            for who in sorted({w for s in p for a in s.actions for w in _actors(a)}):
                if seen.setdefault(who, n) != n:
                    self.out.error(loc, f"together: {clip(who)} is in two {whose} steps; one "
                                        "person does one thing at a time, so they cannot run "
                                        "at the same time")
                    return [s for p in parts for s in p]
        out = []
        for k in range(max((len(p) for p in parts), default=0)):
            row = [p[k] for p in parts if len(p) > k]
            first = row[0]
            if len({s.said for s in row}) > 1 or sum(s.drinks is not None for s in row) > 1:
                self.out.error(loc, f"together: the steps at {first.loc} cannot be merged: "
                                    + ("some say the text's words and some are unsaid moves"
                                       if len({s.said for s in row}) > 1 else
                                       "two of them begin a loser's drinking"))
                return [s for p in parts for s in p]
            durs = [s.dur for s in row if s.dur is not None]
            notes = list(dict.fromkeys(s.note for s in row if s.note))
            out.append(replace(
                first, span=(min(s.span[0] for s in row), max(s.span[1] for s in row)),
                actions=tuple(a for s in row for a in s.actions),
                dur=max(durs) if len(durs) == len(row) else None, note=" ".join(notes),
                expect=tuple(e for s in row for e in s.expect),
                drinks=next((s.drinks for s in row if s.drinks), None),
                rep=first.rep if all(s.rep == first.rep for s in row) else 0))
        return out

    def parts(self, bound, span) -> list[tuple[int, int]]:
        """The part of the using step's words (span) each of a pattern's steps enacts. A step
        with `cite:` begins its part where those words hold it (at its clause's beginning, unless
        the part before lies in that clause), and the part runs on to where the next begins (the
        last: to the end of span), so the parts share out all the words; a step without `cite:`,
        or whose `cite:` the words do not hold (降盥如主人之禮: the 主人's words are not here),
        enacts the part before it (the first: all of span up to the next part; where none is
        held, the pattern used under other words, 如初, every step enacts all of span)."""
        starts: list[int] = []
        start, found = span[0], None
        for ps, penv, _ in bound:
            if isinstance(ps, YMap) and "cite" in ps:
                got = self.part_of(_subst(ps["cite"], penv), span, found)
                if got is not None:
                    start, found = got
            starts.append(start)
        out = []
        for i, b in enumerate(starts):
            later = [x for x in starts[i + 1:] if x > b]
            out.append((b, min(later, default=span[1])))
        return out

    def part_of(self, words, span, prev: tuple[int, int] | None):
        """(start, found): where a pattern step's `cite:` is found in span (after the previous
        one found, else anywhere), and where its part begins: the beginning of its clause, unless
        the one found before lies in that clause; None when span does not hold it (or only in
        a 注 it encloses)."""
        if self.corpus is None or not isinstance(words, str):
            return None
        got = ((find_cite(self.corpus, words, prev[0], span[1]) if prev else None)
               or find_cite(self.corpus, words, span[0], span[1]))
        run = self.corpus.run_at(got[0]) if got is not None else None
        if run is None or run.kind not in ("經", "記"):
            return None  # only in a 注 the cited words enclose: not a part the text says
        first = self.corpus.clause_at(got[0])
        start = (first.start if first is not None and (prev is None or prev[1] <= first.start)
                 else got[0])
        return max(start, span[0]), got

    def variant(self, s: YMap) -> tuple[YMap, str]:
        """The step's body under the chosen readings: a variant that names one and carries
        actions replaces the step's own."""
        for v in s.get("variants") or ():
            self.script_readings.add(v["reading"])
        for v in s.get("variants") or ():
            if reading_matches(self.scope.readings, v["reading"]) and ("do" in v or "use" in v):
                return v, v["reading"]
        return s, s.get("reading", "鄭")

    def expects(self, items: Any, loc: Loc) -> tuple[Expect, ...]:
        out = []
        for i, e in enumerate(items or ()):
            eloc = items.loc_of(i) if isinstance(items, YList) else loc
            at = {k: e.loc_of(k) if k in e else eloc for k in ("who", "at", "within", "holding")}
            who = self.scope.who(e["who"], at["who"])
            place = self.refs.place(e["at"], at["at"]) if "at" in e else None
            within = self.refs.number(e.get("within", 1.0), at["within"], "within", 0, 1000)
            face = direction(e["face"]) if "face" in e else None
            holding = (tuple(p for p in e["holding"] if self.scope.prop(p, at["holding"]))
                       if "holding" in e else None)
            if who:
                out.append(Expect(who, eloc, place, within or 1.0, face, e.get("posture"),
                                  holding, e.get("present")))
        return tuple(out)




def _actors(a: Action) -> set[str]:
    """The people an action sets doing something: its who (and a give's receiver)."""
    out = set()
    for k in ("who", "to") if a.verb == "give" else ("who",):
        v = a.args.get(k)
        out |= {v} if isinstance(v, str) else {x for x in v or () if isinstance(x, str)}
    return out
