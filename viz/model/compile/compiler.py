"""Compile a checked Script on a Layout into a Timeline of keyframe channels, once.

The Compiler keeps everyone's state as the rite goes (where each person stands, facing,
seated or not, who holds what) and offers the primitives verbs compile with (walk, turn,
posture, set_prop, event …); each verb's own compile lives in viz/model/verbs.py, handed the
Compiler as its CompileContext. Stages follow on: a stage begins where the last one left everyone,
unless it declares a gap in the text and sets the scene anew.

The Compiler is made of its parts (see viz/model/compile/__init__.py); this one is the stage
hand-over: the props' first places, each stage's setup, labels and scoring, each step's actions
through the verbs, the step's keyframes made absolute (flush), and the Timeline built from them.
It owns no state beyond its parts'.
"""
from __future__ import annotations

from viz.base.cache import store_blob
from viz.base.errors import Collector
from viz.model.compile.checks import _Checks
from viz.model.compile.dress import WORN, _Dress
from viz.model.compile.keyframes import CODE, _Buffer
from viz.model.compile.props import _Props
from viz.model.compile.shooting import _Shooting
from viz.model.script.nodes import Placement, PropPlacement, Script, Step, ThingPlacement
from viz.model.timeline import (
    SCORE_OWNERS,
    SET_DOWN,
    ActorInfo,
    Event,
    PropInfo,
    StageSpan,
    StepSpan,
    Timeline,
    build_channel,
)
from viz.model.verbs import REGISTRY

STAGE_GAP = 1.0  # seconds of stillness between stages, so a stage's end is its own final state
MIN_STEP = 0.3  # seconds: every step lasts long enough to be seen and stepped to


class Compiler(_Dress, _Props, _Shooting, _Checks):
    # ---- the whole script ----
    def run(self, on_stage=None) -> Timeline:
        """The whole script's Timeline. on_stage(compiler, si), if given, is called after each
        stage is compiled: it may take a snapshot() of the stages so far (a window shows what is
        ready while the rest compiles)."""
        self.begin()
        for si in range(len(self.s.stages)):
            self.compile_stage(si)
            if on_stage is not None:
                on_stage(self, si)
        return self.timeline(self.done_stages, self.done_steps)

    def begin(self) -> None:
        self.initial_props()
        for n in self.thing_names:
            self.kf.things.append((self.ti[n], 0.0, self.shown[n], -1))
        for k in range(len(SCORE_OWNERS)):
            self.kf.score.append((k, 0.0, 0, -1))
        self.done_stages: list[StageSpan] = []
        self.done_steps: list[StepSpan] = []

    def compile_stage(self, si: int) -> None:
        """Stage si, after those before it: where the last one left everyone, unless it sets the
        scene anew."""
        stages, steps, all_stages = self.done_stages, self.done_steps, self.s.stages
        stage = all_stages[si]
        if si:
            self.t += STAGE_GAP
        t0, first = self.t, len(steps)
        self.w = first
        if si == 0 or stage.gap:
            self.setup(stage.setup)
        for aid, text in stage.labels.items():
            self.set_label(self.ai[aid], self.t, text)
        self.open_scoring(stage.scoring, stage.loc)
        opening = tuple(self.labels)
        for step in stage.steps:
            steps.append(self.step(step, si, len(steps)))
        self.close_scoring(stage.scoring, all_stages[si + 1].scoring
                           if si + 1 < len(all_stages) else None, stage.loc)
        stages.append(StageSpan(si, stage.name, stage.section, t0, self.t, first,
                                len(steps) - 1, opening, stage.gap))

    def snapshot(self) -> Timeline:
        """The Timeline of the stages compiled so far (their steps and keyframes), without the
        end-of-compile checks; the compile goes on unchanged after it."""
        return self.timeline(list(self.done_stages), list(self.done_steps), final=False)

    def initial_props(self) -> None:
        for j, p in enumerate(self.s.props):
            if p.held_by:
                self.set_prop(j, 0.0, self.ai[p.held_by], (0.0, 0.0), not p.absent)
            else:
                self.set_prop(j, 0.0, SET_DOWN, self.xy(p.at), not p.absent)

    def setup(self, placements: tuple[Placement | PropPlacement, ...]) -> None:
        for pl in placements:
            if isinstance(pl, PropPlacement):
                self.place_prop(pl)
                continue
            if isinstance(pl, ThingPlacement):
                for name in pl.things:
                    self.shown[name] = not pl.absent
                    self.kf.things.append((self.ti[name], self.t, not pl.absent, self.w))
                continue
            idx = [self.ai[w] for w in pl.who]
            for a, spot in zip(idx, self.spots(pl.who, self.xy(pl.at, pl.loc), pl.formation,
                                               pl.face, pl.spacing)):
                face = pl.formation.facing if pl.formation else pl.face
                self.teleport(a, self.t, spot, face)
                self.set_presence(a, self.t, not pl.absent)
                self.base[a] = pl.posture
                self.kf.posture.append((a, self.t, CODE[pl.posture], self.t, 0,
                                        pl.posture == "坐", self.w))
            for p in (self.pi[pid] for pid in pl.holding):
                self.set_prop(p, self.t, idx[0], self.pos[idx[0]])

    def place_prop(self, pl: PropPlacement) -> None:
        p = self.pi[pl.prop]
        decl = self.s.props[p]
        held_by = pl.held_by or (decl.held_by if pl.at is None and not pl.absent else None)
        if held_by:
            a = self.ai[held_by]
            self.set_prop(p, self.t, a, self.pos[a])
        elif pl.absent:
            self.set_prop(p, self.t, SET_DOWN, self.prop_xy[p], visible=False)
        else:
            self.set_prop(p, self.t, SET_DOWN, self.xy(pl.at or decl.at, pl.loc))

    def step(self, step: Step, stage: int, index: int) -> StepSpan:
        self.buf = buf = _Buffer()
        self.w = index
        busy: dict[int, float] = {}  # when each actor is free again within this step
        end = 0.0
        self.music_begins(step)
        for act in step.actions:
            after = act.args.get("after")
            if after:
                ready = max(busy.get(self.ai[b], 0.0) for b in after)
                for w in act.args.get("who", ()):
                    busy[self.ai[w]] = max(busy.get(self.ai[w], 0.0), ready)
            self.check_present(act, step)
            end = max(end, REGISTRY[act.verb].compile(self, act, busy))
        natural = end
        dur = max(step.dur if step.dur is not None else natural, MIN_STEP)
        scale = dur / natural if natural > 0 and step.dur is not None else 1.0
        if scale < 1.0:
            self.check_speed(step, buf, scale)
        self.buf = self.kf
        self.flush(buf, scale)
        t0, self.t = self.t, self.t + dur
        if step.drinks and step.drinks[0] in self.ai:  # 飲不勝者: who drinks, for the score
            self.kf.events.append((t0, self.t, "drink", self.ai[step.drinks[0]], "",
                                   {"round": step.drinks[1]}))
        self.check_overlap(step, buf)
        self.check_underfoot(step, buf)
        for ex in step.expect:
            self.check_expect(ex)
        return StepSpan(index, stage, t0, self.t, step.cite, step.span,
                        tuple(e[4] for e in buf.events if e[2] == "say" and e[3] >= 0),
                        str(step.loc),
                        step.pattern, step.note, step.reading, step.said, step.rep)

    def flush(self, buf: _Buffer, scale: float) -> None:
        T = self.t
        self.kf.motion += [(a, T + t * scale, *rest) for a, t, *rest in buf.motion]
        self.kf.posture += [(a, T + t * scale, c, T + e * scale, n, st, w)
                            for a, t, c, e, n, st, w in buf.posture]
        self.kf.presence += [(a, T + t * scale, *rest) for a, t, *rest in buf.presence]
        self.kf.props += [(p, T + t * scale, *rest) for p, t, *rest in buf.props]
        self.kf.label += [(a, T + t * scale, *rest) for a, t, *rest in buf.label]
        self.kf.things += [(a, T + t * scale, *rest) for a, t, *rest in buf.things]
        self.kf.score += [(a, T + t * scale, *rest) for a, t, *rest in buf.score]
        self.kf.dress += [(a, T + t * scale, *rest) for a, t, *rest in buf.dress]
        self.kf.bow += [(p, T + t * scale, *rest) for p, t, *rest in buf.bow]
        for a, b, k, w, s, d in buf.events:
            if k == "shot":
                d["shot"].update(t_release=T + a * scale, t_land=T + b * scale)
            elif k == "count":
                d["t"] = T + a * scale
            self.kf.events.append((T + a * scale, T + b * scale, k, w, s, d))

    # ---- arrays ----
    def timeline(self, stages, steps, final: bool = True) -> Timeline:
        n, m = len(self.s.cast), len(self.s.props)
        motion = list(self.kf.motion)
        first = {}
        for k in motion:
            first.setdefault(k[0], k)
        for a in range(n):
            # before its first placement an actor rests where it will first appear
            k = first.get(a, (a, 0.0, 0.0, 0.0, 0.0))
            motion.insert(0, (a, 0.0, k[2], k[3], k[4], -1))
        pres = [(a, 0.0, False, -1) for a in range(n)] + self.kf.presence
        post = [(a, 0.0, 0, 0.0, 0, False, -1) for a in range(n)] + self.kf.posture
        span = self.t + 10.0
        channels = {
            "motion": _chan(motion, "linear", span, n, "x", "y", "face"),
            "posture": _chan(post, "step", span, n, "code", "end", "count", "seated"),
            "presence": _chan(pres, "step", span, n, "present"),
            "props": _chan(self.kf.props, "step", span, m, "holder", "x", "y", "visible"),
            "label": _chan(self.kf.label, "step", span, n, "label"),
            "things": _chan(self.kf.things, "step", span, len(self.thing_names), "shown"),
            "score": _chan(self.kf.score, "step", span, len(SCORE_OWNERS), "value"),
            "dress": _chan(self.kf.dress, "step", span, n, *WORN),
            "bow": _chan(self.kf.bow, "step", span, m, "state"),
        }
        events = [Event(a, b, k, w, s, d) for a, b, k, w, s, d in self.kf.events]
        if final and self.new_legs and self.legs_salt is not None:
            store_blob("legs", self.legs_salt, self.legs)
        tl = Timeline(
            [ActorInfo(a.id, a.name, a.party, a.label, a.note, a.body) for a in self.s.cast],
            [PropInfo(p.id, p.name, p.kind, p.bundle) for p in self.s.props],
            stages, steps, channels, events, self.t, self.label_names)
        tl.thing_names = tuple(self.thing_names)
        tl.scoring = {"seed": self.s.seed, "scenario": dict(self.s.scenario),
                      "sides": dict(self.s.sides), "skills": dict(self.s.skills),
                      "shots": self.shot_log, "results": self.results}
        if not final:  # the compile goes on appending to these
            tl.scoring.update(shots=list(self.shot_log), results=list(self.results))
        if final:
            self.check_boundaries(tl)
            self.check_origins(tl)
        return tl


def _chan(rows: list, interp: str, span: float, owners: int, *names: str):
    """Rows (owner, t, *values, writer) → a channel."""
    if not rows:
        return build_channel([], [], interp, span, owners, **{k: [] for k in names})
    cols = list(zip(*rows))
    return build_channel(list(cols[0]), list(cols[1]), interp, span, owners, list(cols[-1]),
                         **{k: list(c) for k, c in zip(names, cols[2:-1])})


def compile_script(script: Script, layout, out: Collector | None = None,
                   on_stage=None) -> Timeline:
    """The one compile: a Timeline whose sample(t) is a look-up, never a replay. on_stage: see
    Compiler.run."""
    return Compiler(script, layout, out).run(on_stage)
