"""The reader's patterns: checked once where they are defined, expanded where a step uses one.

Patterns holds the refs (to check an argument: check_param) and owns patterns (the document's,
name → params and steps), bad_patterns (those whose error is reported already, and those that
use them), and the count of expansion against MAX_STEPS: made (steps made so far), uses (the
uses being expanded, outermost first) and the cost of each pattern. check_patterns (with
check_recursion) runs before the stages; reserve_stages counts them before any is read; bind
expands a step's use: with its arguments checked, enter and leave mark it being expanded (and
count_step and reserve count what it makes); _subst puts the arguments in, and leftover_params
reports a $name left standing.
Imports viz.base and the script's nodes, refs and scope.
"""
from __future__ import annotations

import math
import re
from typing import Any

from viz.base.errors import InputError, Loc, Problem, clip
from viz.base.yamlsrc import YList, YMap, leaves
from viz.model.script.nodes import direction
from viz.model.script.refs import Refs
from viz.model.script.scope import _suggest

MAX_PATTERN_DEPTH = 8
# Expansion — patterns using patterns, each:'s members, the stages a manifest lists — makes at
# most this many steps in one rite, counting each use of a pattern as a step too. The bundled
# 鄉射禮 makes 4,625 (1,893 steps once its uses are expanded) and reads in about a second, then
# compiles in about fifteen: a step costs ~0.3 ms to read and ~3 ms to compile, so the cap is about
# five bundled rites, not the "say 10⁵" (a rite of 10⁵ would take five minutes to compile,
# and a section listed 2,000 times would pass it). The reader counts the stages' steps before
# reading any (a pattern's size is known from its definition), and counts again as it makes them
# (each:'s repeats), and stops at the cap naming the chain of uses that got there; a short file
# that would expand to millions is refused in a second or two (docs/SCRIPT.md).
MAX_STEPS = 25_000
PARAM_RE = re.compile(r"^\$([A-Za-z_\u4e00-\u9fff][\w]*)$")
# a pattern step's when: on a parameter (an optional part): $name, or not $name
PARAM_WHEN_RE = re.compile(r"^\s*(not\s+)?\$([A-Za-z_\u4e00-\u9fff][\w]*)\s*$")


def _is_param(v: Any) -> bool:
    return isinstance(v, str) and bool(PARAM_RE.match(v))


class Patterns:
    """The definitions checked, a use bound to its arguments, the steps made counted."""

    def __init__(self, doc: YMap, refs: Refs) -> None:
        self.refs, self.out = refs, refs.out
        self.bad_patterns: set[str] = set()
        self.made = 0  # steps made so far by expansion (MAX_STEPS)
        self.uses: list[tuple[str, Loc]] = []  # the uses being expanded, outermost first
        self._costs: dict[str, int] = {}  # cost's memo
        self.patterns: YMap = doc.get("patterns") or YMap()
        if not hasattr(self.patterns, "loc"):
            self.patterns.loc, self.patterns.key_locs, self.patterns.value_locs = doc.loc, {}, {}

    def enter(self, name: str, loc: Loc) -> None:
        """A use of pattern `name` at loc is being expanded (the chain blow_up names)."""
        self.uses.append((name, loc))

    def leave(self) -> None:
        """The innermost use being expanded is done."""
        self.uses.pop()

    def count_step(self, loc: Loc) -> None:
        """One more step made; past MAX_STEPS the read stops here, naming the chain of uses."""
        self.made += 1
        if self.made > MAX_STEPS:
            self.blow_up(loc, self.uses)

    def reserve(self, name: str, loc: Loc) -> None:
        """Before a use of pattern `name` at loc is expanded: if the steps it makes (counted
        without its when:s, an upper bound) would pass MAX_STEPS, stop now, not after making
        them, naming the chain of uses from here down to the pattern whose repeats blew up."""
        if self.made + self.cost(name) > MAX_STEPS:
            self._chain_error(name, loc, self.uses)

    def _chain_error(self, name: str, loc: Loc, outer: list[tuple[str, Loc]]) -> None:
        down, at = [], name
        while True:  # the use inside `at` that makes the most, while it makes more than 1
            best = max(self._pattern_uses(at), key=lambda u: self.cost(u[0]), default=None)
            if best is None or self.cost(best[0]) <= 1:
                break
            down.append(best)
            at = best[0]
        self.blow_up(loc, [*outer, (name, loc), *down], f"; it would make {self.cost(name):,}")

    def reserve_stages(self, stages: Any, upto: int | None = None) -> None:
        """Before any stage is read: if the stages' steps, their uses expanded (when:s and
        each:'s repeats not counted, which the count as they are made catches), pass MAX_STEPS,
        stop at the step that crosses it: a use that makes a large part of the cap by itself is
        named with its chain of uses, else the stage. Reading a step costs up to a millisecond,
        so a manifest listing one section thousands of times is refused before it is read."""
        total = 0
        for i, st in enumerate(stages if isinstance(stages, YList) else ()):
            if upto is not None and i >= upto:
                break
            steps = st.get("steps") if isinstance(st, YMap) else None
            for s in steps if isinstance(steps, list) else ():
                use = s.get("use") if isinstance(s, YMap) else None
                c = self.cost(use) if isinstance(use, str) else 1
                if self.made + total + c <= MAX_STEPS:
                    total += c
                    continue
                if isinstance(use, str) and c > MAX_STEPS // 10:
                    self._chain_error(use, s.loc_of("use"), [])
                raise InputError([*self.out.errors[:20], Problem(stages.loc_of(i), (
                    f"the rite expands to more than {MAX_STEPS:,} steps (the cap) by its stage "
                    f"{i + 1} ({clip(st.get('name'))}) and is not read: its {i + 1} stages make "
                    f"{total + c:,} steps or more (a section listed over and over? patterns "
                    "repeating patterns?)"))])

    def cost(self, name: str) -> int:
        """The steps a use of pattern `name` makes as expanded (the use itself and every step of
        the pattern, its uses expanded), when: ignored; 1 for a pattern not expanded (unknown,
        bad or recursive: an error)."""
        memo = self._costs
        if name not in memo:
            memo[name] = 1  # while counting: a cycle (reported by check_recursion) counts 1
            if name in self.patterns and name not in self.bad_patterns:
                steps = self.patterns[name].get("steps") or ()
                memo[name] = 1 + sum(self.cost(s["use"]) if isinstance(s, YMap) and isinstance(
                    s.get("use"), str) else 1 for s in steps)
        return memo[name]

    def _pattern_uses(self, name: str) -> list[tuple[str, Loc]]:
        pat = self.patterns.get(name)
        return [(s["use"], s.loc_of("use")) for s in (pat.get("steps") or ()) if isinstance(s, YMap)
                and isinstance(s.get("use"), str)] if isinstance(pat, YMap) else []

    def blow_up(self, loc: Loc, uses: list[tuple[str, Loc]], more: str = "") -> None:
        if uses:
            why = "inside " + " → ".join(f"{clip(n)} (used at {lc})" for n, lc in uses) + more
            loc = uses[0][1]  # where the stage uses the first of them
        else:
            why = "its stages (sections listed over and over?) and each:s repeat too much"
        raise InputError([*self.out.errors[:20], Problem(loc, (
            f"the rite expands to more than {MAX_STEPS:,} steps (the cap) and is not read "
            f"further: {why}"))])

    def check_patterns(self) -> None:
        for name, pat in self.patterns.items():
            params = pat.get("params") or YMap()
            declared = set(params.keys())
            lacking = bool(self._missing(name))  # said once, at a use (_has_places)
            for k, spec in params.items():
                if lacking:
                    break
                if isinstance(spec, YMap) and spec.get("default") is not None and not self.check_param(
                        name, k, spec["type"], spec["default"], spec.loc_of("default")):
                    self.bad_patterns.add(name)
            for used, loc in dict.fromkeys([*_param_uses(pat.get("steps"),
                                                          self.patterns.loc_of(name)),
                                             *_when_uses(pat.get("steps"))]):
                if used not in declared:
                    self.bad_patterns.add(name)
                    self.out.error(loc, f"pattern {clip(name)} uses ${used}, which is not among "
                                        f"its params ({', '.join(sorted(map(str, declared))) or 'none'})")
        self.check_recursion()

    def check_recursion(self) -> None:
        """A pattern that uses itself, directly or through others: one error, at the pattern,
        with the chain of uses (not one per expansion, which multiplies)."""
        uses = {name: [(s["use"], s.loc_of("use")) for s in pat.get("steps") or []
                       if isinstance(s, YMap) and isinstance(s.get("use"), str)]
                for name, pat in self.patterns.items()}
        state: dict[str, int] = {}  # 1 on the stack, 2 done
        reported: set[frozenset] = set()

        def visit(name: str, chain: list[str]) -> None:
            state[name] = 1
            for used, loc in uses.get(name, ()):
                if state.get(used) == 1:
                    cycle = chain[chain.index(used):] + [used]
                    if frozenset(cycle) not in reported:
                        reported.add(frozenset(cycle))
                        self.out.error(loc, f"pattern {clip(used)} uses itself: "
                                            f"{' → '.join(cycle)}")
                    self.bad_patterns.update(cycle)
                elif used in uses and state.get(used) is None:
                    visit(used, [*chain, used])
            state[name] = 2

        for name in uses:
            if state.get(name) is None:
                visit(name, [name])
        # a pattern using a bad one is bad too (its error is reported where the bad one is)
        changed = True
        while changed:
            changed = False
            for name, us in uses.items():
                if name not in self.bad_patterns and any(u in self.bad_patterns for u, _ in us):
                    self.bad_patterns.add(name)
                    changed = True

    def bind(self, step: YMap, depth: int) -> list[tuple[YMap, dict, str]] | None:
        """Expand `use:` into the pattern's steps with arguments bound; None on error."""
        name, loc = step["use"], step.loc_of("use")
        if name not in self.patterns:
            self.out.error(loc, f"unknown pattern {clip(name)}{_suggest(name, self.patterns)}")
            return None
        if name in self.bad_patterns:
            return None  # already reported where the pattern is defined
        if depth > MAX_PATTERN_DEPTH:
            self.out.error(loc, f"pattern {clip(name)} uses patterns more than "
                                f"{MAX_PATTERN_DEPTH} deep")
            return None
        if not self._has_places(name, loc):
            return None
        pat = self.patterns[name]
        params = pat.get("params") or {}
        given = step.get("with") or YMap()
        wloc = step.loc_of("with") if "with" in step else loc
        ok = True
        for k in given:
            if k not in params:
                self.out.error(given.key_loc(k) if isinstance(given, YMap) else wloc,
                               f"pattern {clip(name)} has no parameter {clip(k)}; it takes "
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
                self.out.error(wloc, f"pattern {clip(name)} needs parameter {clip(k)} ({ptype})")
                ok = False
        return [(s, env, name) for s in pat["steps"]] if ok else None

    def _missing(self, name: str) -> list[tuple[int, str]]:
        """The places pattern `name`'s file lists (`places:`) that the layout lacks, indexed."""
        needs = getattr(self.patterns, "needs", {}).get(name)
        layout = self.refs.layout
        if not needs or layout is None:
            return []
        return [(i, p) for i, p in enumerate(needs) if p not in layout.places]

    def _has_places(self, name: str, loc: Loc) -> bool:
        """The places the pattern's file says its patterns need (`places:`, the drinking
        library's 洗, 尊, 西階上 …) are all in the layout; else one error at this use naming the
        pattern and each missing place, and the pattern is not expanded (its steps would only
        say the same again, inside the library)."""
        missing = self._missing(name)
        if not missing:
            return True
        needs, layout = self.patterns.needs[name], self.refs.layout
        self.bad_patterns.add(name)
        where = getattr(layout, "file", "the layout")
        self.out.error(loc, f"pattern {clip(name)} needs the place"
                            f"{'s' if len(missing) > 1 else ''} "
                            f"{'、'.join(p for _, p in missing)}, which the layout {where} does not "
                            f"define (the places its file lists at {needs.loc_of(missing[0][0])}; "
                            "expected them under the layout's places:)")
        return False

    def check_param(self, pat: str, k: str, ptype: str, v: Any, loc: Loc) -> bool:
        n = len(self.out.errors)
        bad = None
        if _is_param(v):
            bad = "a value (a $name has a value only inside a pattern that declares it)"
        elif ptype == "actor":
            if isinstance(v, str):
                self.refs.scope.actor(v, loc)
            else:
                bad = "an actor id"
        elif ptype == "actors":
            if isinstance(v, (str, list)):
                self.refs.scope.who(v, loc)
            else:
                bad = "an actor id or a list of them"
        elif ptype == "place":
            self.refs.place(v, loc)
        elif ptype == "prop":
            if isinstance(v, str):
                self.refs.scope.prop(v, loc)
            else:
                bad = "a prop id"
        elif ptype == "int" and (not isinstance(v, int) or isinstance(v, bool)):
            bad = "a whole number"
        elif ptype == "number" and (not isinstance(v, (int, float)) or isinstance(v, bool)
                                    or not math.isfinite(v)):
            bad = "a finite number"
        elif ptype == "text" and not isinstance(v, str):
            bad = "text"
        elif ptype == "flag" and not isinstance(v, bool):
            bad = "true or false"
        elif ptype == "dir" and direction(v) is None:
            bad = "a direction (北 東北 東 東南 南 西南 西 西北)"
        if bad:
            self.out.error(loc, f"parameter {clip(k)} of pattern {clip(pat)}: expected {bad}, "
                                f"found {clip(v)}")
        return bad is None and len(self.out.errors) == n

    def leftover_params(self, node: Any, loc: Loc, ctx: str) -> bool:
        """A $name still standing after expansion: outside any pattern it has no value."""
        found = False
        for used, lc in _param_uses(node, loc):
            where = (f"${used} is not among the params of the {ctx}" if ctx
                     else f"${used} is a pattern parameter; a stage's step has no parameters")
            self.out.error(lc, where)
            found = True
        return found


def param_when(w: Any, env: dict) -> bool | None:
    """A pattern step's when: on a parameter: does it hold? None if it names no parameter (a
    scenario setting, read as on a stage's step)."""
    m = PARAM_WHEN_RE.match(w) if isinstance(w, str) else None
    if m is None:
        return None
    v = env.get(m.group(2))
    given = v is not None and v is not False
    return given != bool(m.group(1))


def _when_uses(steps: Any):
    for s in steps or ():
        m = PARAM_WHEN_RE.match(s["when"]) if isinstance(s, YMap) and isinstance(
            s.get("when"), str) else None
        if m:
            yield m.group(2), s.loc_of("when")


def _param_uses(node: Any, loc: Loc):
    """Each $param a pattern's body names, with where it stands."""
    for v, at in leaves(node, loc, plain=True):
        m = PARAM_RE.match(v) if isinstance(v, str) else None
        if m:
            yield m.group(1), at


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
