"""What the compile hands a verb: the script and layout, and the owners of the compile's state.

`Ctx` is what the verbs' CompileContext (viz/model/verbs.py) is made of, as mypy hands its
checker to its helpers (the object handed is compiler.py's `Handed`: a Ctx with the functions of
motion.py and props.py as methods). It holds the script, layout, settings and warnings (out), the
look-ups by id (ai, pi, bundles, ti), and the four owners of the state — the world (world.py:
where everyone and everything is), the track (keyframes.py: the keyframe rows and the clock), the
range (shooting.py: the rounds, the music, the count) and the wardrobe (dress.py) — with the
planned legs (legs.py). It owns none of their state: each owner writes its own, and the
primitives here (teleport, set_prop …) write a keyframe through the track and tell the world.
The range and the wardrobe are handed the track, the world and where to warn; the verbs reach
them through on_beat, scored, count and dress here.
"""
from __future__ import annotations

import numpy as np

from viz.base.errors import Collector, Loc
from viz.model.compile.dress import Wardrobe
from viz.model.compile.keyframes import Track, heading, unit, unwrap_to
from viz.model.compile.legs import Legs
from viz.model.compile.shooting import Range
from viz.model.compile.world import World
from viz.model.script.nodes import Action, Formation, Music, PlaceRef, Script, Shot
from viz.model.timeline import WORN_ON


class Ctx:
    def __init__(self, script: Script, layout, out: Collector | None = None):
        self.script, self.layout = script, layout
        self.out = out or Collector()
        self.cfg = script.settings
        self.ai = {a.id: i for i, a in enumerate(script.cast)}
        self.pi = {p.id: i for i, p in enumerate(script.props)}
        bundles: dict[str, list[int]] = {}
        for j, p in enumerate(script.props):
            if p.bundle:
                bundles.setdefault(p.bundle, []).append(j)
        self.bundles = bundles
        # the things set out (the "things" channel's owners): every feature name of the layout
        self.things = sorted({f.name for f in getattr(layout, "features", ())})
        self.ti = {n: i for i, n in enumerate(self.things)}
        self.world = World(script, self.things)
        self.track = Track()
        self.wardrobe = Wardrobe(script, self.track, self.world, self.out)
        self.range = Range(script, self.track, self.world, self.out, self.ai, self.bundles,
                           self.set_prop)
        self.legs = Legs(layout)

    # ---- what verbs read of the state (its owners hold it) ----
    @property
    def pos(self) -> np.ndarray:
        return self.world.pos

    @property
    def face(self) -> np.ndarray:
        return self.world.face

    @property
    def holder(self) -> np.ndarray:
        return self.world.holder

    @property
    def visible(self) -> np.ndarray:
        return self.world.visible

    @property
    def tally(self) -> dict[str, int]:
        return self.range.tally

    # ---- places ----
    def xy(self, ref: PlaceRef, loc: Loc | None = None) -> np.ndarray:
        w = self.world
        if ref.place is not None:
            p = self.layout.places[ref.place]
            base = np.array([p.x, p.y], dtype=float)
        elif ref.actor is not None:
            a = self.ai[ref.actor]
            if not w.present[a]:
                self.out.warn(loc or ref.loc, f"{self.script.cast[a].name} ({ref.actor}) is not "
                              "present here: {actor: …} means where he was last")
            base = w.pos[a].copy()
        elif ref.mark is not None:
            if ref.mark not in w.marks:
                self.out.warn(loc or ref.loc, f"no spot is marked {ref.mark!r} yet (put: {{…, "
                              f"mark: {ref.mark}}} names one); taken as the origin")
            base = w.marks.get(ref.mark, np.zeros(2)).copy()
        else:
            base = self.prop_spot(self.members(ref.prop)[0])
        if ref.side is not None:
            base = base + ref.dist * unit(ref.side)
        return base + np.array([ref.dx, ref.dy])

    def prop_spot(self, p: int) -> np.ndarray:
        """Where a prop lies; if someone holds it, where it was last set down (奠於其所)."""
        return self.world.prop_xy[p].copy()

    def members(self, pid: str) -> list[int]:
        """A prop, or every member of a bundle."""
        return self.bundles.get(pid) or [self.pi[pid]]

    def heading_to(self, a: int, p: np.ndarray) -> float:
        return heading(self.world.pos[a], p)

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

    @staticmethod
    def start(busy: dict, who: list[int]) -> float:
        return max((busy.get(a, 0.0) for a in who), default=0.0)

    # ---- keyframe primitives: a row on the track, then the world told (times: the step's) ----
    def key(self, a: int, t: float, xy: np.ndarray, face: float) -> None:
        self.track.motion(a, t, float(xy[0]), float(xy[1]), face)
        self.world.stand(a, xy, face)

    def hold(self, a: int, t: float) -> None:
        """A keyframe where one already is: motion before t does not drift toward what follows."""
        pos = self.world.pos
        self.track.motion(a, t, float(pos[a][0]), float(pos[a][1]), self.world.face[a])

    def teleport(self, a: int, t: float, xy, face: float | None) -> None:
        """Appear somewhere at once: hold the old state up to t, then the new one from t."""
        w = self.world
        if w.placed[a]:
            self.hold(a, t)
        f = unwrap_to(w.face[a], face) if face is not None else w.face[a]
        self.key(a, t, np.asarray(xy, float), f)
        w.place(a)

    def set_presence(self, a: int, t: float, present: bool) -> None:
        self.track.presence(a, t, present)
        self.world.set_present(a, present)

    def set_prop(self, p: int, t: float, holder: int, xy, visible: bool = True) -> None:
        self.track.prop(p, t, holder, xy, visible)
        was = self.world.holder[p]
        if was >= 0 and was != holder:  # it leaves his hands (a 扑 leaves his belt too)
            self.wardrobe.let_go(p, int(was), t)
        if was == WORN_ON and holder != WORN_ON:  # a worn thing put elsewhere: worn no more
            self.wardrobe.moved(p, t)
        self.world.put_prop(p, holder, xy, visible)

    def set_label(self, a: int, t: float, text: str) -> None:
        self.track.label(a, t, text)
        self.world.relabel(a, text)

    def event(self, t0: float, t1: float, kind: str, a: int, text: str,
              data: dict | None = None) -> None:
        self.track.event(t0, t1, kind, a, text, data)

    def mark(self, name: str, xy) -> None:
        self.world.mark(name, xy)

    def loose(self, p: int) -> None:
        self.world.loose(p)

    # ---- the shooting and the dress: their owners' methods ----
    def on_beat(self, t: float, music: Music, on: bool, actor: str = "") -> float:
        return self.range.on_beat(t, music, on, actor)

    def scored(self, act: Action, shot: Shot, p: int, t0: float, t1: float, goal) -> float:
        return self.range.scored(act, shot, p, t0, t1, goal)

    def count(self, act: Action, a: int, busy: dict) -> float:
        return self.range.count(act, a, busy)

    def dress(self, a: int, t: float, words: str, bow: str | None = None,
              loc: Loc | None = None) -> float:
        return self.wardrobe.dress(a, t, words, bow, loc)
