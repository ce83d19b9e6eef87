"""Compile a checked Script on a Layout into a Timeline of keyframe arrays, once."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from viz.errors import Collector, Loc
from viz.script import Action, Formation, Placement, PlaceRef, PropPlacement, Script, Step
from viz.timeline import POSTURES, ActorInfo, PropInfo, StageSpan, StepSpan, Timeline, build_channel

STAGE_GAP = 1.0  # seconds of stillness between stages, so a stage's end is its own final state
CORNER_TURN = 0.25  # seconds to turn at a corner of a path
ARROW_SPEED = 200.0  # 尺/s: 300 尺 in 1.5 s
OVERLAP = 1.2  # 尺: closer than this at rest is two people in one spot
HELD = -1
FLYING = -2
CODE = {name: i for i, name in enumerate(POSTURES)}


def unit(deg: float) -> np.ndarray:
    """The unit vector of a facing: 0 = north (+y), 90 = east (+x)."""
    r = math.radians(deg)
    return np.array([math.sin(r), math.cos(r)])


def heading(a: np.ndarray, b: np.ndarray) -> float:
    d = b - a
    return math.degrees(math.atan2(d[0], d[1])) % 360.0


def unwrap_to(prev: float, deg: float) -> float:
    """The angle equal to deg (mod 360) nearest to prev, so turns take the short way."""
    return prev + ((deg - prev + 180.0) % 360.0 - 180.0)


@dataclass
class _Buffer:
    """Keyframes of one step, times relative to the step's start (so a `dur` can rescale them)."""

    motion: list = field(default_factory=list)  # (actor, t, x, y, face)
    posture: list = field(default_factory=list)  # (actor, t, code, end, count)
    presence: list = field(default_factory=list)  # (actor, t, present)
    props: list = field(default_factory=list)  # (prop, t, holder, x, y, visible)
    captions: list = field(default_factory=list)  # (t0, t1, actor, text)


class Compiler:
    def __init__(self, script: Script, layout, out: Collector | None = None):
        self.s, self.layout = script, layout
        self.out = out or Collector()
        self.cfg = script.settings
        self.ai = {a.id: i for i, a in enumerate(script.cast)}
        self.pi = {p.id: i for i, p in enumerate(script.props)}
        n, m = len(script.cast), len(script.props)
        self.pos = np.zeros((n, 2))
        self.face = np.zeros(n)
        self.base = ["立"] * n  # standing or seated between gestures
        self.present = np.zeros(n, bool)
        self.placed = np.zeros(n, bool)
        self.holder = np.full(m, HELD)
        self.prop_xy = np.zeros((m, 2))
        self.kf = _Buffer()
        self.t = 0.0

    # ---- places ----
    def xy(self, ref: PlaceRef) -> np.ndarray:
        if ref.place is not None:
            p = self.layout.places[ref.place]
            base = np.array([p.x, p.y], dtype=float)
        else:
            base = self.pos[self.ai[ref.actor]].copy()
        if ref.side is not None:
            base = base + ref.dist * unit(ref.side)
        return base + np.array([ref.dx, ref.dy])

    def spots(self, who, anchor: np.ndarray, form: Formation | None, face: float | None,
              spacing: float | None) -> list[np.ndarray]:
        """Where each of a group stands: a formation's row, senior first, at the anchor."""
        gap = spacing or self.cfg.spacing
        if form is not None:
            step = -unit(form.senior) * gap
            return [anchor + k * step for k in range(len(who))]
        if len(who) == 1:
            return [anchor]
        across = unit((face if face is not None else 180.0) + 90.0) * gap
        mid = (len(who) - 1) / 2
        return [anchor + (k - mid) * across for k in range(len(who))]

    # ---- keyframes ----
    def key(self, buf: _Buffer, a: int, t: float, xy: np.ndarray, face: float) -> None:
        buf.motion.append((a, t, float(xy[0]), float(xy[1]), face))
        self.pos[a], self.face[a] = xy, face

    def teleport(self, buf: _Buffer, a: int, t: float, xy, face: float | None) -> None:
        """Appear somewhere at once: hold the old state up to t, then the new one from t."""
        if self.placed[a]:
            buf.motion.append((a, t, float(self.pos[a][0]), float(self.pos[a][1]), self.face[a]))
        f = unwrap_to(self.face[a], face) if face is not None else self.face[a]
        self.key(buf, a, t, np.asarray(xy, float), f)
        self.placed[a] = True

    def set_presence(self, buf: _Buffer, a: int, t: float, present: bool) -> None:
        buf.presence.append((a, t, present))
        self.present[a] = present

    def set_prop(self, buf: _Buffer, p: int, t: float, holder: int, xy,
                 visible: bool = True) -> None:
        buf.props.append((p, t, holder, float(xy[0]), float(xy[1]), visible))
        self.holder[p], self.prop_xy[p] = holder, xy

    # ---- the whole script ----
    def run(self) -> Timeline:
        self.initial_props()
        stages, steps = [], []
        for si, stage in enumerate(self.s.stages):
            if si:
                self.t += STAGE_GAP
            t0, first = self.t, len(steps)
            self.setup(stage.setup)
            for step in stage.steps:
                steps.append(self.step(step, si, len(steps)))
            labels = tuple(stage.labels.get(a.id, a.label) for a in self.s.cast)
            stages.append(StageSpan(si, stage.name, stage.section, t0, self.t, first,
                                    len(steps) - 1, labels))
        return self.timeline(stages, steps)

    def initial_props(self) -> None:
        for j, p in enumerate(self.s.props):
            if p.held_by:
                self.set_prop(self.kf, j, 0.0, self.ai[p.held_by], (0.0, 0.0), not p.absent)
            else:
                self.set_prop(self.kf, j, 0.0, HELD, self.xy(p.at), not p.absent)

    def setup(self, placements: tuple[Placement | PropPlacement, ...]) -> None:
        for pl in placements:
            if isinstance(pl, PropPlacement):
                self.place_prop(pl)
                continue
            idx = [self.ai[w] for w in pl.who]
            for a, spot in zip(idx, self.spots(pl.who, self.xy(pl.at), pl.formation,
                                               pl.face, pl.spacing)):
                face = pl.formation.facing if pl.formation else pl.face
                self.teleport(self.kf, a, self.t, spot, face)
                self.set_presence(self.kf, a, self.t, not pl.absent)
                self.base[a] = pl.posture
                self.kf.posture.append((a, self.t, CODE[pl.posture], self.t, 0))
            for pid in pl.holding:
                self.set_prop(self.kf, self.pi[pid], self.t, idx[0], self.pos[idx[0]])

    def place_prop(self, pl: PropPlacement) -> None:
        p = self.pi[pl.prop]
        decl = self.s.props[p]
        held_by = pl.held_by or (decl.held_by if pl.at is None and not pl.absent else None)
        if held_by:
            a = self.ai[held_by]
            self.set_prop(self.kf, p, self.t, a, self.pos[a])
        elif pl.absent:
            self.set_prop(self.kf, p, self.t, HELD, self.prop_xy[p], visible=False)
        else:
            self.set_prop(self.kf, p, self.t, HELD, self.xy(pl.at or decl.at))

    def step(self, step: Step, stage: int, index: int) -> StepSpan:
        buf = _Buffer()
        busy: dict[int, float] = {}  # when each actor is free again within this step
        end = 0.0
        for act in step.actions:
            end = max(end, getattr(self, "do_" + act.verb)(buf, act, busy))
        natural = end
        dur = step.dur if step.dur is not None else natural
        scale = dur / natural if natural > 0 and step.dur is not None else 1.0
        if scale < 1.0:
            self.check_speed(step, buf, scale)
        self.flush(buf, scale)
        t0, self.t = self.t, self.t + dur
        self.check_overlap(step)
        return StepSpan(index, stage, t0, self.t, step.cite, step.span,
                        tuple(c[3] for c in buf.captions), str(step.loc), step.pattern, step.note)

    def flush(self, buf: _Buffer, scale: float) -> None:
        T = self.t
        self.kf.motion += [(a, T + t * scale, x, y, f) for a, t, x, y, f in buf.motion]
        self.kf.posture += [(a, T + t * scale, c, T + e * scale, n)
                            for a, t, c, e, n in buf.posture]
        self.kf.presence += [(a, T + t * scale, p) for a, t, p in buf.presence]
        self.kf.props += [(p, T + t * scale, h, x, y, v) for p, t, h, x, y, v in buf.props]
        self.kf.captions += [(T + a * scale, T + b * scale, w, s) for a, b, w, s in buf.captions]

    # ---- actions: each returns the time (relative to the step) at which it ends ----
    def start(self, busy: dict, who: list[int]) -> float:
        return max((busy.get(a, 0.0) for a in who), default=0.0)

    def do_wait(self, buf, act: Action, busy) -> float:
        """A pause; with `who`, only those wait, so their next actions in the step start later."""
        who = [self.ai[w] for w in act.args.get("who", ())]
        end = self.start(busy, who) + act.args["dur"]
        for a in who:
            busy[a] = end
        return end

    def do_move(self, buf, act: Action, busy) -> float:
        who = [self.ai[w] for w in act.args["who"]]
        face = act.args.get("face")
        form = act.args.get("formation")
        target = self.xy(act.args["to"])
        spots = self.spots(act.args["who"], target, form, face, act.args.get("spacing"))
        final = form.facing if form else face
        vias = [self.xy(v) for v in act.args.get("via", ())]
        speed = act.args.get("speed", self.cfg.walk_speed)
        if speed > self.cfg.brisk_speed:
            self.out.warn(act.loc, f"speed {speed:g} 尺/s is faster than a brisk walk "
                                   f"({self.cfg.brisk_speed:g} 尺/s)")
        t0 = self.start(busy, who)
        end = t0
        # a group walks in file: each follows the one before at the formation's spacing
        lag = (act.args.get("spacing") or self.cfg.spacing) / speed
        for k, (a, spot) in enumerate(zip(who, spots)):
            t = self.walk(buf, a, t0 + k * lag, spot, vias, speed, act.loc)
            if final is not None:
                t = self.turn(buf, a, t, final)
            busy[a] = t
            end = max(end, t)
        return end

    def walk(self, buf, a: int, t: float, goal: np.ndarray, vias, speed: float,
             loc: Loc) -> float:
        p0 = self.pos[a].copy()
        if np.hypot(*(goal - p0)) < 0.05 and not vias:
            return t
        pts = [p0]
        for target in [*vias, goal]:
            leg = self.layout.route(pts[-1], target)
            pts.extend(np.asarray(leg, float)[1:])
        path = [pts[0]] + [p for p, q in zip(pts[1:], pts) if np.hypot(*(p - q)) > 1e-6]
        for p, q in zip(path, path[1:]):
            if self.layout.segment_blocked(p, q):
                self.out.warn(loc, f"{self.s.cast[a].name}'s path from "
                                   f"{self.layout.nearest_place(*p)} to "
                                   f"{self.layout.nearest_place(*q)} passes through an obstacle")
                break
        buf.motion.append((a, t, float(p0[0]), float(p0[1]), self.face[a]))
        for i, (p, q) in enumerate(zip(path, path[1:])):
            h = unwrap_to(self.face[a], heading(p, q))
            if abs(h - self.face[a]) > 1.0:
                t += self.cfg.turn if i == 0 else CORNER_TURN
                self.key(buf, a, t, p, h)
            seg = np.array([p, q])
            t += float(np.hypot(*(q - p))) / speed
            t += self.layout.stair_steps(seg) * self.cfg.stair_step
            self.key(buf, a, t, q, h)
        return t

    def turn(self, buf, a: int, t: float, deg: float) -> float:
        f = unwrap_to(self.face[a], deg)
        if abs(f - self.face[a]) < 1.0:
            return t
        buf.motion.append((a, t, float(self.pos[a][0]), float(self.pos[a][1]), self.face[a]))
        t += self.cfg.turn
        self.key(buf, a, t, self.pos[a], f)
        return t

    def do_face(self, buf, act: Action, busy) -> float:
        end = 0.0
        for w in act.args["who"]:
            a = self.ai[w]
            t = busy.get(a, 0.0)
            toward = act.args.get("toward")
            deg = act.args["dir"] if toward is None else heading(self.pos[a], self.xy(toward))
            busy[a] = t = self.turn(buf, a, t, deg)
            end = max(end, t)
        return end

    def do_posture(self, buf, act: Action, busy) -> float:
        kind = act.args["is"]
        g = self.cfg.gestures
        end = 0.0
        for w in act.args["who"]:
            a = self.ai[w]
            t = busy.get(a, 0.0)
            if kind in ("拜", "揖"):
                n = int(act.args.get("count", 1.0)) if kind == "拜" else 1
                d = g[kind] * n
                buf.posture.append((a, t, CODE[kind], t + d, n))
                self.base[a] = "立"
                buf.posture.append((a, t + d, CODE["立"], t + d, 0))
            else:
                d = g[kind]
                self.base[a] = "坐" if kind == "坐" else "立"
                buf.posture.append((a, t + d / 2, CODE[self.base[a]], t + d / 2, 0))
            busy[a] = t + d
            end = max(end, t + d)
        return end

    def _holder_check(self, act: Action, p: int, a: int | None, what: str) -> None:
        h = self.holder[p]
        if a is None and h >= 0:
            self.out.warn(act.loc, f"{self.s.props[p].name} ({self.s.props[p].id}) is in "
                                   f"{self.s.cast[h].name}'s hands, not set down, to {what}")
        elif a is not None and h != a:
            self.out.warn(act.loc, f"{self.s.cast[a].name} does not hold "
                                   f"{self.s.props[p].name} ({self.s.props[p].id}) to {what}")

    def do_take(self, buf, act: Action, busy) -> float:
        a, p = self.ai[act.args["who"][0]], self.pi[act.args["prop"]]
        src = act.args.get("from")
        giver = self.ai[src.actor] if src is not None and src.actor and src.place is None else None
        self._holder_check(act, p, giver, "take it")
        t = busy.get(a, 0.0) + self.cfg.gestures["take"]
        if giver is not None:
            busy[giver] = max(busy.get(giver, 0.0), t)
        self.set_prop(buf, p, t, a, self.pos[a])
        busy[a] = t
        return t

    def do_put(self, buf, act: Action, busy) -> float:
        a, p = self.ai[act.args["who"][0]], self.pi[act.args["prop"]]
        self._holder_check(act, p, a, "set it down")
        t = busy.get(a, 0.0) + self.cfg.gestures["put"]
        spot = self.xy(act.args["at"]) if "at" in act.args else self.pos[a] + unit(self.face[a])
        self.set_prop(buf, p, t, HELD, spot)
        busy[a] = t
        return t

    def do_give(self, buf, act: Action, busy) -> float:
        a, b, p = self.ai[act.args["who"][0]], self.ai[act.args["to"]], self.pi[act.args["prop"]]
        self._holder_check(act, p, a, "hand it over")
        t = max(busy.get(a, 0.0), busy.get(b, 0.0)) + self.cfg.gestures["give"]
        self.set_prop(buf, p, t, b, self.pos[b])
        busy[a] = busy[b] = t
        return t

    def do_shoot(self, buf, act: Action, busy) -> float:
        a, p = self.ai[act.args["who"][0]], self.pi[act.args["prop"]]
        self._holder_check(act, p, a, "shoot it")
        t = busy.get(a, 0.0) + self.cfg.gestures["shoot"]
        goal = self.xy(act.args["at"])
        self.set_prop(buf, p, t, FLYING, self.pos[a])
        t_hit = t + float(np.hypot(*(goal - self.pos[a]))) / ARROW_SPEED
        self.set_prop(buf, p, t_hit, HELD, goal)
        busy[a] = t
        return t_hit

    def do_say(self, buf, act: Action, busy) -> float:
        a = self.ai[act.args["who"][0]]
        t = busy.get(a, 0.0)
        text = act.args["text"]
        d = max(self.cfg.gestures["say"], 0.3 * len(text))
        buf.captions.append((t, t + d, a, text))
        busy[a] = t + d
        return t + d

    def do_enter(self, buf, act: Action, busy) -> float:
        who = act.args["who"]
        form, face = act.args.get("formation"), act.args.get("face")
        t = self.start(busy, [self.ai[w] for w in who])
        spots = self.spots(who, self.xy(act.args["at"]), form, face, act.args.get("spacing"))
        for w, spot in zip(who, spots):
            a = self.ai[w]
            self.teleport(buf, a, t, spot, form.facing if form else face)
            self.set_presence(buf, a, t, True)
            busy[a] = t + self.cfg.gestures["enter"]
        return t + self.cfg.gestures["enter"]

    def do_exit(self, buf, act: Action, busy) -> float:
        end = 0.0
        for w in act.args["who"]:
            a = self.ai[w]
            t = busy.get(a, 0.0) + self.cfg.gestures["exit"]
            self.set_presence(buf, a, t, False)
            busy[a] = t
            end = max(end, t)
        return end

    # ---- warnings ----
    def check_speed(self, step: Step, buf: _Buffer, scale: float) -> None:
        by_actor: dict[int, list] = {}
        for a, t, x, y, _ in buf.motion:
            by_actor.setdefault(a, []).append((t * scale, x, y))
        for a, ks in by_actor.items():
            for (t0, x0, y0), (t1, x1, y1) in zip(ks, ks[1:]):
                d = math.hypot(x1 - x0, y1 - y0)
                if t1 > t0 and d / (t1 - t0) > self.cfg.brisk_speed:
                    self.out.warn(step.loc, f"{self.s.cast[a].name} moves at "
                                            f"{d / (t1 - t0):.1f} 尺/s, faster than a brisk walk "
                                            f"({self.cfg.brisk_speed:g} 尺/s): dur is too short")
                    return

    def check_overlap(self, step: Step) -> None:
        idx = np.nonzero(self.present)[0]
        if len(idx) < 2:
            return
        d = np.hypot(*(self.pos[idx, None, :] - self.pos[None, idx, :]).transpose(2, 0, 1))
        iu = np.triu_indices(len(idx), 1)
        for i, j in zip(*iu):
            if d[i, j] < OVERLAP:
                a, b = self.s.cast[idx[i]], self.s.cast[idx[j]]
                self.out.warn(step.loc, f"{a.name} ({a.id}) and {b.name} ({b.id}) stand "
                                        f"{d[i, j]:.1f} 尺 apart at the end of this step")

    # ---- arrays ----
    def timeline(self, stages, steps) -> Timeline:
        n = len(self.s.cast)
        motion = list(self.kf.motion)
        first = {}
        for k in motion:
            first.setdefault(k[0], k)
        for a in range(n):
            # before its first placement an actor rests where it will first appear
            k = first.get(a, (a, 0.0, 0.0, 0.0, 0.0))
            motion.insert(0, (a, 0.0, k[2], k[3], k[4]))
        pres = [(a, 0.0, False) for a in range(n)] + self.kf.presence
        post = [(a, 0.0, 0, 0.0, 0) for a in range(n)] + self.kf.posture
        cap = self.kf.captions
        return Timeline(
            [ActorInfo(a.id, a.name, a.party, a.label, a.note) for a in self.s.cast],
            [PropInfo(p.id, p.name, p.kind) for p in self.s.props],
            stages, steps,
            _chan(motion, "x", "y", "face"),
            _chan(post, "code", "end", "count"),
            _chan(pres, "present"),
            _chan(self.kf.props, "holder", "x", "y", "visible"),
            {"t0": np.array([c[0] for c in cap]), "t1": np.array([c[1] for c in cap]),
             "actor": np.array([c[2] for c in cap], dtype=int), "text": [c[3] for c in cap]},
            self.t)


def _chan(rows: list, *names: str):
    if not rows:
        return build_channel([], [], **{k: [] for k in names})
    cols = list(zip(*rows))
    return build_channel(list(cols[0]), list(cols[1]),
                         **{k: list(c) for k, c in zip(names, cols[2:])})


def compile_script(script: Script, layout, out: Collector | None = None) -> Timeline:
    """The one compile: a Timeline whose sample(t) is a look-up, never a replay."""
    return Compiler(script, layout, out).run()
