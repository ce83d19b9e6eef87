"""Compile a checked Script on a Layout into a Timeline of keyframe channels, once.

`Compiler` hands the stages over: the props' first places, each stage's setup, labels and
scoring, each step's actions through the verbs (viz/model/verbs.py, each handed the compile's
context, context.py), the step's keyframes made absolute, the checks, and the Timeline built from
the track's rows. The state as the rite goes has its owners (see viz/model/compile/__init__.py),
held by the context `c`; the Compiler owns only the spans of the stages and steps compiled so far
(done_stages, done_steps).
"""
from __future__ import annotations

from viz.base.errors import Collector
from viz.model.compile import checks, dress, motion, props
from viz.model.compile.context import Ctx
from viz.model.compile.keyframes import CODE
from viz.model.dress import WORN
from viz.model.script.nodes import Placement, PropPlacement, Script, Step, ThingPlacement
from viz.model.timeline import (
    SCORE_OWNERS,
    SET_DOWN,
    WORN_ON,
    ActorInfo,
    Event,
    PropInfo,
    StageSpan,
    StepSpan,
    Timeline,
)
from viz.model.verbs import REGISTRY

STAGE_GAP = 1.0  # seconds of stillness between stages, so a stage's end is its own final state
MIN_STEP = 0.3  # seconds: every step lasts long enough to be seen and stepped to


class Handed(Ctx):
    """The context as the verbs are handed it, their CompileContext: Ctx, with the functions of
    motion.py and props.py as its methods."""

    turn = motion.turn
    posture = motion.posture
    move = motion.move
    show_things = props.show_things
    gather = props.gather
    some = props.some
    holder_check = props.holder_check
    reach_check = props.reach_check
    don = dress.don
    doff = dress.doff


class Compiler:
    def __init__(self, script: Script, layout, out: Collector | None = None):
        self.c = Handed(script, layout, out)
        self.s, self.out = script, self.c.out  # what on_stage's callers read (progressive.py)
        self.done_stages: list[StageSpan] = []
        self.done_steps: list[StepSpan] = []

    # ---- the whole script ----
    def run(self, on_stage=None) -> Timeline:
        """The whole script's Timeline. on_stage(compiler, si), if given, is called after each
        stage is compiled: it may take a snapshot() of the stages so far (a window shows what is
        ready while the rest compiles)."""
        self.begin()
        for si in range(len(self.c.script.stages)):
            self.compile_stage(si)
            if on_stage is not None:
                on_stage(self, si)
        return self.timeline(self.done_stages, self.done_steps)

    def begin(self) -> None:
        """The props where they are declared; the things shown; the score at nought."""
        c = self.c
        for j, p in enumerate(c.script.props):
            if p.worn_by:  # worn from the start
                c.set_prop(j, 0.0, WORN_ON, (0.0, 0.0), False)
                c.wardrobe.wear_now(j, c.ai[p.worn_by], 0.0)
            elif p.held_by:
                c.set_prop(j, 0.0, c.ai[p.held_by], (0.0, 0.0), not p.absent)
            else:
                c.set_prop(j, 0.0, SET_DOWN, c.xy(p.at), not p.absent)
        for n in c.things:
            c.track.thing(c.ti[n], 0.0, c.world.shown[n])
        for owner in SCORE_OWNERS:
            c.track.score(owner, 0.0, 0)

    def compile_stage(self, si: int) -> None:
        """Stage si, after those before it: where the last one left everyone, unless it sets the
        scene anew."""
        c, stages, steps = self.c, self.done_stages, self.done_steps
        all_stages = c.script.stages
        stage = all_stages[si]
        if si:
            c.track.advance(STAGE_GAP)
        t0, first = c.track.t, len(steps)
        c.track.writing(first)
        if si == 0 or stage.gap:
            self.setup(stage.setup)
        for aid, text in stage.labels.items():
            c.set_label(c.ai[aid], c.track.t, text)
        c.range.open_scoring(stage.scoring, stage.loc)
        opening = tuple(c.world.labels)
        for step in stage.steps:
            steps.append(self.step(step, si, len(steps)))
        c.range.close_scoring(stage.scoring, all_stages[si + 1].scoring
                            if si + 1 < len(all_stages) else None, stage.loc)
        stages.append(StageSpan(si, stage.name, stage.section, t0, c.track.t, first,
                                len(steps) - 1, opening, stage.gap))

    def snapshot(self) -> Timeline:
        """The Timeline of the stages compiled so far (their steps and keyframes), without the
        end-of-compile checks; the compile goes on unchanged after it."""
        return self.timeline(list(self.done_stages), list(self.done_steps), final=False)

    def setup(self, placements: tuple[Placement | PropPlacement, ...]) -> None:
        c = self.c
        t = c.track.t
        for pl in placements:
            if isinstance(pl, PropPlacement):
                self.place_prop(pl)
                continue
            if isinstance(pl, ThingPlacement):
                for name in pl.things:
                    c.world.show(name, not pl.absent)
                    c.track.thing(c.ti[name], t, not pl.absent)
                continue
            idx = [c.ai[w] for w in pl.who]
            for a, spot in zip(idx, c.spots(pl.who, c.xy(pl.at, pl.loc), pl.formation,
                                            pl.face, pl.spacing)):
                face = pl.formation.facing if pl.formation else pl.face
                c.teleport(a, t, spot, face)
                c.set_presence(a, t, not pl.absent)
                c.world.set_base(a, pl.posture)
                c.track.posture(a, t, CODE[pl.posture], t, 0, pl.posture == "坐")
            for p in (c.pi[pid] for pid in pl.holding):
                c.set_prop(p, t, idx[0], c.world.pos[idx[0]])

    def place_prop(self, pl: PropPlacement) -> None:
        c = self.c
        p = c.pi[pl.prop]
        decl = c.script.props[p]
        held_by = pl.held_by or (decl.held_by if pl.at is None and not pl.absent else None)
        if held_by:
            a = c.ai[held_by]
            c.set_prop(p, c.track.t, a, c.world.pos[a])
        elif pl.absent:
            c.set_prop(p, c.track.t, SET_DOWN, c.world.prop_xy[p], visible=False)
        else:
            c.set_prop(p, c.track.t, SET_DOWN, c.xy(pl.at or decl.at, pl.loc))

    def step(self, step: Step, stage: int, index: int) -> StepSpan:
        c = self.c
        buf = c.track.open_step(index)
        busy: dict[int, float] = {}  # when each actor is free again within this step
        end = 0.0
        c.range.music_begins(step)
        for act in step.actions:
            after = act.args.get("after")
            if after:
                ready = max(busy.get(c.ai[b], 0.0) for b in after)
                for w in act.args.get("who", ()):
                    busy[c.ai[w]] = max(busy.get(c.ai[w], 0.0), ready)
            checks.check_present(c, act, step)
            end = max(end, REGISTRY[act.verb].compile(c, act, busy))
        natural = end
        dur = max(step.dur if step.dur is not None else natural, MIN_STEP)
        scale = dur / natural if natural > 0 and step.dur is not None else 1.0
        if scale < 1.0:
            checks.check_speed(c, step, buf, scale)
        c.range.step_done(c.track.t, scale)
        t0 = c.track.close_step(buf, scale, dur)
        if step.drinks and step.drinks[0] in c.ai:  # 飲不勝者: who drinks, for the score
            c.track.event(t0, c.track.t, "drink", c.ai[step.drinks[0]], "",
                          {"round": step.drinks[1]})
        checks.check_overlap(c, step, buf)
        checks.check_underfoot(c, step, buf)
        for ex in step.expect:
            checks.check_expect(c, ex)
        return StepSpan(index, stage, t0, c.track.t, step.cite, step.span,
                        tuple(e[4] for e in buf.events if e[2] == "say" and e[3] >= 0),
                        str(step.loc),
                        step.pattern, step.note, step.reading, step.said, step.rep)

    def check_boundaries(self, tl: Timeline) -> None:
        """Nobody and nothing jumps where one stage hands over to the next (checks.py)."""
        checks.check_boundaries(self.c, tl)

    # ---- arrays ----
    def timeline(self, stages, steps, final: bool = True) -> Timeline:
        c = self.c
        script, rng = c.script, c.range
        n, m = len(script.cast), len(script.props)
        channels = c.track.channels(n, m, len(c.things), WORN)
        events = [Event(a, b, k, w, s, d) for a, b, k, w, s, d in c.track.kf.events]
        if final:
            c.legs.keep()
        tl = Timeline(
            [ActorInfo(a.id, a.name, a.party, a.label, a.note, a.body) for a in script.cast],
            [PropInfo(p.id, p.name, p.kind, p.bundle, p.worn) for p in script.props],
            stages, steps, channels, events, c.track.t, c.track.label_names)
        scoring = {"seed": script.seed, "scenario": dict(script.scenario),
                   "sides": dict(script.sides), "skills": dict(script.skills),
                   "shots": rng.shot_log, "results": rng.results}
        if not final:  # the compile goes on appending to these
            scoring.update(shots=list(rng.shot_log), results=list(rng.results))
        # set on the Timeline after it is built (viz/model/timeline.py takes no such fields)
        tl.thing_names = tuple(c.things)
        tl.scoring = scoring
        if final:
            checks.check_boundaries(c, tl)
            checks.check_origins(c, tl)
        return tl


def compile_script(script: Script, layout, out: Collector | None = None,
                   on_stage=None) -> Timeline:
    """The one compile: a Timeline whose sample(t) is a look-up, never a replay. on_stage: see
    Compiler.run."""
    return Compiler(script, layout, out).run(on_stage)
