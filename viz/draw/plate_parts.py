"""A stage's plates: a stage of more than MAX_MOVES numbered moves is split into several
(`Part`s), cut between phases of the text (`stage_parts`)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from viz.draw import trails as trails_mod

MAX_MOVES = 25  # numbered moves a stage plate holds; a busier stage is split into parts


@dataclass(frozen=True)
class Part:
    """A stage plate: the stage, the steps whose moves it draws and numbers (first..last), and
    which of the stage's plates it is (number of `of`). Its moment is the end of step `last`."""

    stage: int
    first: int
    last: int
    number: int = 1
    of: int = 1

    def moment(self, timeline) -> float:
        """When the plate is drawn (closing): the end of its last step."""
        return timeline.steps[self.last].t1 if timeline.steps else 0.0


def stage_parts(timeline, stage: int, corpus=None, limit: int = MAX_MOVES) -> list[Part]:
    """A stage's plates: one when it has at most `limit` numbered moves (a number for each step
    in which someone walks), else as few parts as hold them, cut between steps near equal
    shares, where the text's clause changes if one does close by (a phase of the rite), each
    part running up to the next one's first move. Every step belongs to one part."""
    s = timeline.stages[stage]
    steps = list(range(s.first_step, s.last_step + 1))
    whole = [Part(stage, s.first_step, s.last_step)]
    if not steps:
        return whole
    moving = sorted({g.step for g in trails_mod.legs(timeline, steps)})
    n = math.ceil(len(moving) / limit) if moving else 1
    if n <= 1:
        return whole

    def clause(k: int):
        st = timeline.steps[k]
        cl = corpus.clause_at(st.span[0]) if corpus is not None else None
        return cl.id if cl is not None else st.cite

    cuts, prev = [], 0
    for j in range(1, n):
        ideal = round(j * len(moving) / n)
        fits = [c for c in range(prev + 1, len(moving))
                if c - prev <= limit and len(moving) - c <= limit * (n - j)]
        c = min(fits, key=lambda c: (abs(c - ideal) > 3 or clause(moving[c - 1])
                                     == clause(moving[c]), abs(c - ideal), c))
        cuts.append(c)
        prev = c
    firsts = [s.first_step] + [moving[c] for c in cuts]
    lasts = [k - 1 for k in firsts[1:]] + [s.last_step]
    return [Part(stage, a, b, i + 1, n) for i, (a, b) in enumerate(zip(firsts, lasts))]
