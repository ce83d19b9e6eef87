"""The reader's fates: the stage's scoring, each arrow's seeded fate and each count's outcome.

Fates is the one part of the reader whose state grows as the stages are read, and it alone
changes it: scoring (the stage's scoring:, handed to begin as each stage opens), shots (every
arrow loosed at the 侯, in order) and results (the last count of each round). loose gives an
arrow its fate and writes it into the shoot action's args (at:, shot, tally, music); count the
announcement (視算) into the count action's (result); last is the count a step's when: 有勝 or
each: 不勝耦 reads (step_when), as the steps are read in the rite's order.
Imports viz.base, viz.model.scenario and the script's nodes and scope.
"""
from __future__ import annotations

from collections.abc import Mapping

from viz.base.errors import Collector, Loc
from viz.model import scenario
from viz.model.script.nodes import PlaceRef, Result, Scoring, Shot
from viz.model.script.scope import Scope


class Fates:
    """The rounds of shooting as they are read: the stage's scoring, the shots, the counts."""

    OUTCOMES = ("有勝", "左右鈞")  # a step's `when:` on the last count (視算)

    def __init__(self, seed: int, sides: dict[str, str], skills: dict[str, float],
                 out: Collector) -> None:
        self.seed, self.sides, self.skills, self.out = seed, sides, skills, out
        self.scoring: Scoring | None = None
        self.shots: list[Shot] = []
        self.results: list[Result] = []

    def begin(self, scoring: Scoring | None) -> None:
        """A stage opens: its scoring (None: it shoots at nothing counted)."""
        self.scoring = scoring

    @property
    def last(self) -> Result | None:
        """The last count read, if any."""
        return self.results[-1] if self.results else None

    def step_when(self, item: Mapping, scope: Scope) -> bool:
        """A step's `when:`: a scenario setting as the scope's cast_when, or the last count's
        outcome: 有勝 (one side won) or 左右鈞 (even)."""
        w = item.get("when")
        if isinstance(w, str) and w.strip() in self.OUTCOMES:
            last = self.last
            if last is None:
                self.out.error(item.loc_of("when"), f"when: {w.strip()} needs a count (視算: "
                                                    "count:) before this step")
                return False
            return (last.winner is not None) == (w.strip() == "有勝")
        return scope.cast_when(item)

    def loose(self, args: dict, loc: Loc) -> None:
        """An arrow aimed at the 侯: the seeded model says whether it hits and where it lands."""
        sc = self.scoring
        if sc is None:
            self.out.error(loc, "shoot without at: aims at the 侯 and needs the stage's scoring: "
                                "{round: N} (or give at: a place)")
            args["at"] = PlaceRef(loc, place="侯")
            return
        who = args["who"][0]
        n = 1 + sum(1 for x in self.shots if x.round == sc.round and x.actor == who)
        skill = self.skills.get(who, scenario.DEFAULT_SKILL)
        hit, on_beat, dx, dy = scenario.loose(self.seed, who, sc.round, n, skill,
                                              sc.music is not None)
        tallied = hit and on_beat and sc.tally is not None
        shot = Shot(sc.round, who, n, self.sides.get(who), hit, on_beat, tallied)
        self.shots.append(shot)
        args["at"] = PlaceRef(loc, place="侯", dx=dx, dy=dy)
        args["shot"] = shot
        args["tally"] = sc.tally
        args["music"] = sc.music

    def count(self, args: dict, loc: Loc) -> None:
        """視算: the round's 算 laid right (上射) and left (下射) → the announcement."""
        sc = self.scoring
        rnd = sc.round if sc is not None else max((x.round for x in self.shots), default=0)
        laid = [x for x in self.shots if x.round == rnd and x.tallied]
        right = sum(1 for x in laid if x.side == "右")
        left = sum(1 for x in laid if x.side == "左")
        words, winner = scenario.announce(right, left)
        res = Result(rnd, right, left, words, winner)
        self.results = [r for r in self.results if r.round != rnd] + [res]
        args["result"] = res

