"""Things set out (設, 徹) and props taken up: where a thing is, who holds what, and who can reach it.

_Props owns no state of its own: it reads and writes the things shown and the props' holders
through _Keyframes, and walks (取矢: gather) through _Motion.
"""
from __future__ import annotations

import numpy as np

from viz.model.compile.motion import _Motion
from viz.model.script.nodes import Action
from viz.model.timeline import SET_DOWN
from viz.model.verbs import REACH


class _Props(_Motion):
    # ---- things set out ----
    def show_things(self, act: Action, busy: dict, shown: bool) -> float:
        who = [self.ai[w] for w in act.args.get("who", ())]
        t = self.start(busy, who) + (self.cfg.gestures["set" if shown else "clear"] if who
                                      else 0.0)
        for name in act.args["thing"]:
            if who:
                spot = self.thing_spot(name, who[0])
                if spot is not None:
                    self.reach_check(act, who[0], spot, "set out" if shown else "take away")
            if self.shown[name] == shown:
                self.out.warn(act.loc, f"{name} is {'already' if shown else 'not'} set out")
            self.buf.things.append((self.ti[name], t, shown, self.w))
            self.shown[name] = shown
        for a in who:
            busy[a] = t
        return t

    def thing_spot(self, name: str, a: int) -> np.ndarray | None:
        """The middle of a feature (for a thing in several parts, the part nearest a)."""
        pts = [np.asarray(f.points, float).mean(axis=0)
               for f in getattr(self.layout, "features", ()) if f.name == name]
        return min(pts, key=lambda q: float(np.hypot(*(q - self.pos[a])))) if pts else None

    # ---- props taken up ----
    def gather(self, act: Action, a: int, members: list[int], busy: dict) -> float:
        """Walk to each piece in turn, nearest first, and pick it up (取矢): of a bundle some of
        whose arrows were shot, only those lying where they fell (not the ones still set down
        unshot, as the 衆賔's at the 堂西); of any other, every piece set down."""
        t = busy.get(a, 0.0)
        left = [p for p in members if self.holder[p] == SET_DOWN]
        if any(p in self.loosed for p in left):
            left = [p for p in left if p in self.loosed]
        while left:
            p = min(left, key=lambda q: float(np.hypot(*(self.prop_xy[q] - self.pos[a]))))
            spot = self.prop_xy[p]
            if float(np.hypot(*(spot - self.pos[a]))) > REACH * 0.8:
                d = spot - self.pos[a]
                goal = spot - d / max(float(np.hypot(*d)), 1e-9) * 1.0
                t = self.walk(a, t, goal, [], self.cfg.walk_speed, act.loc)
            here = [q for q in left if float(np.hypot(*(self.prop_xy[q] - self.pos[a]))) <= REACH]
            t += 0.6
            for q in here:
                self.set_prop(q, t, a, self.pos[a])
            left = [q for q in left if q not in here]
        busy[a] = t
        return t

    def some(self, members: list[int], a: int, giver: int | None, n: int) -> list[int]:
        """n of a bundle: from the giver's hands, else those lying nearest a not yet held."""
        if giver is not None:
            return [p for p in members if self.holder[p] == giver][:n]
        free = [p for p in members if self.holder[p] == SET_DOWN]
        free.sort(key=lambda q: float(np.hypot(*(self.prop_xy[q] - self.pos[a]))))
        return free[:n]

    # ---- checks used by verbs ----
    def holder_check(self, act: Action, p: int, a: int | None, what: str) -> None:
        h = self.holder[p]
        prop = self.s.props[p]
        if a is None and h >= 0:
            self.out.warn(act.loc, f"{prop.name} ({prop.id}) is in {self.s.cast[h].name}'s "
                                   f"hands, not set down, to {what}")
        elif a is not None and h != a:
            self.out.warn(act.loc, f"{self.s.cast[a].name} does not hold {prop.name} "
                                   f"({prop.id}) to {what}")

    def reach_check(self, act: Action, a: int, spot: np.ndarray, what: str,
                    limit: float = REACH) -> None:
        d = float(np.hypot(*(np.asarray(spot) - self.pos[a])))
        if d > limit:
            self.out.warn(act.loc, f"{self.s.cast[a].name} cannot {what} {d:.1f} 尺 away "
                                   f"(reach {limit:g} 尺): walk there first")
