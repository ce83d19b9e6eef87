"""The compile's state as the rite goes, and the keyframe primitives every other part writes with.

_Keyframes owns: the script and layout (s, layout, out, cfg, ai, pi, bundles); each person's
pos, face, base (standing or seated), present, placed, labels; each prop's holder, prop_xy,
visible, and the arrows loosed; the spots marked by put (marks); the things set out (thing_names,
ti, shown); the keyframes (kf, the whole compile's; buf, where the primitives write: the step's
own while one is compiled), the compile's time t and the step writing, w. Keyframe times are
relative to the step (`Compiler.flush` makes them absolute). Its methods read and write only this.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from viz.base.errors import Collector, Loc
from viz.model.script.nodes import Formation, PlaceRef, Script
from viz.model.timeline import POSTURES, SCORE_OWNERS, SET_DOWN

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

    # every keyframe row ends with the index of the step that wrote it (-1: before any step),
    # so a closing sample leaves out what the next step writes at the same instant
    motion: list = field(default_factory=list)  # (actor, t, x, y, face, writer)
    posture: list = field(default_factory=list)  # (actor, t, code, end, count, seated, writer)
    presence: list = field(default_factory=list)  # (actor, t, present, writer)
    props: list = field(default_factory=list)  # (prop, t, holder, x, y, visible, writer)
    label: list = field(default_factory=list)  # (actor, t, label index, writer)
    events: list = field(default_factory=list)  # (t0, t1, kind, actor, text, data)
    things: list = field(default_factory=list)  # (thing, t, shown, writer)
    score: list = field(default_factory=list)  # (owner, t, value, writer): SCORE_OWNERS
    dress: list = field(default_factory=list)  # (actor, t, 袒, 決, 遂, 扑, writer): compile/dress
    bow: list = field(default_factory=list)  # (prop, t, 張 1 | 弛 2, writer)


class _Keyframes:
    def __init__(self, script: Script, layout, out: Collector | None = None):
        self.s, self.layout = script, layout
        self.out = out or Collector()
        self.cfg = script.settings
        self.ai = {a.id: i for i, a in enumerate(script.cast)}
        self.pi = {p.id: i for i, p in enumerate(script.props)}
        self.bundles: dict[str, list[int]] = {}
        for j, p in enumerate(script.props):
            if p.bundle:
                self.bundles.setdefault(p.bundle, []).append(j)
        n, m = len(script.cast), len(script.props)
        self.pos = np.zeros((n, 2))
        self.face = np.zeros(n)
        self.base = ["立"] * n  # standing or seated between gestures
        self.present = np.zeros(n, bool)
        self.placed = np.zeros(n, bool)
        self.holder = np.full(m, SET_DOWN)
        self.prop_xy = np.zeros((m, 2))  # where each lies, or was last set down when held
        self.visible = np.zeros(m, bool)  # in the scene (a prop not yet brought is not)
        self.loosed: set[int] = set()  # arrows shot and lying where they fell, not yet gathered
        self.labels = [a.label for a in script.cast]
        self.marks: dict[str, np.ndarray] = {}  # spots named by put: {…, mark: NAME}
        self.label_names: list[str] = []
        self.kf = _Buffer()
        self.buf = self.kf  # where the primitives write: the step's buffer while compiling one
        self.t = 0.0
        self.w = -1  # the step being compiled (setups: the stage's first step)
        # things set out: every feature name of the layout, shown unless the script sets it out
        self.thing_names = sorted({f.name for f in getattr(layout, "features", ())})
        self.ti = {n: i for i, n in enumerate(self.thing_names)}
        self.shown = {n: n not in script.set_out for n in self.thing_names}

    # ---- places ----
    def xy(self, ref: PlaceRef, loc: Loc | None = None) -> np.ndarray:
        if ref.place is not None:
            p = self.layout.places[ref.place]
            base = np.array([p.x, p.y], dtype=float)
        elif ref.actor is not None:
            a = self.ai[ref.actor]
            if not self.present[a]:
                self.out.warn(loc or ref.loc, f"{self.s.cast[a].name} ({ref.actor}) is not present "
                                              "here: {actor: …} means where he was last")
            base = self.pos[a].copy()
        elif ref.mark is not None:
            if ref.mark not in self.marks:
                self.out.warn(loc or ref.loc, f"no spot is marked {ref.mark!r} yet (put: {{…, "
                                              f"mark: {ref.mark}}} names one); taken as the origin")
            base = self.marks.get(ref.mark, np.zeros(2)).copy()
        else:
            base = self.prop_spot(self.members(ref.prop)[0])
        if ref.side is not None:
            base = base + ref.dist * unit(ref.side)
        return base + np.array([ref.dx, ref.dy])

    def prop_spot(self, p: int) -> np.ndarray:
        """Where a prop lies; if someone holds it, where it was last set down (奠於其所)."""
        return self.prop_xy[p].copy()

    def members(self, pid: str) -> list[int]:
        """A prop, or every member of a bundle."""
        return self.bundles.get(pid) or [self.pi[pid]]

    def heading_to(self, a: int, p: np.ndarray) -> float:
        return heading(self.pos[a], p)

    @staticmethod
    def unit(deg: float) -> np.ndarray:
        return unit(deg)

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

    # ---- keyframe primitives (times relative to the step) ----
    def key(self, a: int, t: float, xy: np.ndarray, face: float) -> None:
        self.buf.motion.append((a, t, float(xy[0]), float(xy[1]), face, self.w))
        self.pos[a], self.face[a] = xy, face

    def teleport(self, a: int, t: float, xy, face: float | None) -> None:
        """Appear somewhere at once: hold the old state up to t, then the new one from t."""
        if self.placed[a]:
            self.hold(a, t)
        f = unwrap_to(self.face[a], face) if face is not None else self.face[a]
        self.key(a, t, np.asarray(xy, float), f)
        self.placed[a] = True

    def hold(self, a: int, t: float) -> None:
        """A keyframe where one already is: motion before t does not drift toward what follows."""
        self.buf.motion.append((a, t, float(self.pos[a][0]), float(self.pos[a][1]), self.face[a],
                                self.w))

    def set_presence(self, a: int, t: float, present: bool) -> None:
        self.buf.presence.append((a, t, present, self.w))
        self.present[a] = present

    def set_prop(self, p: int, t: float, holder: int, xy, visible: bool = True) -> None:
        self.buf.props.append((p, t, holder, float(xy[0]), float(xy[1]), visible, self.w))
        if self.holder[p] >= 0 and self.holder[p] != holder:
            self.let_go(p, int(self.holder[p]), t)
        self.holder[p] = holder
        self.visible[p] = visible
        if holder == SET_DOWN:
            self.prop_xy[p] = xy
        elif holder >= 0:
            self.loosed.discard(p)

    def let_go(self, p: int, a: int, t: float) -> None:
        """Prop p leaves a's hands at t (compile/dress.py: a 扑 leaves his belt too)."""

    def set_label(self, a: int, t: float, text: str) -> None:
        if text not in self.label_names:
            self.label_names.append(text)
        self.buf.label.append((a, t, self.label_names.index(text), self.w))
        self.labels[a] = text

    def event(self, t0: float, t1: float, kind: str, a: int, text: str,
              data: dict | None = None) -> None:
        self.buf.events.append((t0, t1, kind, a, text, data or {}))

    def score_key(self, owner: str, t: float, value: float) -> None:
        self.buf.score.append((SCORE_OWNERS.index(owner), t, value, self.w))

    def start(self, busy: dict, who: list[int]) -> float:
        return max((busy.get(a, 0.0) for a in who), default=0.0)
