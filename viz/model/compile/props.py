"""Things set out (設, 徹) and props taken up: where a thing is, who holds what, and who can reach it.

Functions of the compile's context (context.py): they read the world (c.world: the things shown,
the props' holders and places), write through the context's primitives and the track, and walk
(取矢: gather) through motion.py.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from viz.model.compile.motion import walk
from viz.model.script.nodes import Action
from viz.model.timeline import SET_DOWN
from viz.model.verbs import REACH

if TYPE_CHECKING:
    from viz.model.compile.context import Ctx


# ---- things set out ----
def show_things(c: Ctx, act: Action, busy: dict, shown: bool) -> float:
    who = [c.ai[w] for w in act.args.get("who", ())]
    t = c.start(busy, who) + (c.cfg.gestures["set" if shown else "clear"] if who else 0.0)
    for name in act.args["thing"]:
        if who:
            spot = thing_spot(c, name, who[0])
            if spot is not None:
                reach_check(c, act, who[0], spot, "set out" if shown else "take away")
        if c.world.shown[name] == shown:
            c.out.warn(act.loc, f"{name} is {'already' if shown else 'not'} set out")
        c.track.thing(c.ti[name], t, shown)
        c.world.show(name, shown)
    for a in who:
        busy[a] = t
    return t


def thing_spot(c: Ctx, name: str, a: int) -> np.ndarray | None:
    """The middle of a feature (for a thing in several parts, the part nearest a)."""
    pts = [np.asarray(f.points, float).mean(axis=0)
           for f in getattr(c.layout, "features", ()) if f.name == name]
    pos = c.world.pos
    return min(pts, key=lambda q: float(np.hypot(*(q - pos[a])))) if pts else None


# ---- props taken up ----
def gather(c: Ctx, act: Action, a: int, members: list[int], busy: dict) -> float:
    """Walk to each piece in turn, nearest first, and pick it up (取矢): of a bundle some of
    whose arrows were shot, only those lying where they fell (not the ones still set down
    unshot, as the 衆賔's at the 堂西); of any other, every piece set down."""
    w = c.world
    t = busy.get(a, 0.0)
    left = [p for p in members if w.holder[p] == SET_DOWN]
    if any(p in w.loosed for p in left):
        left = [p for p in left if p in w.loosed]
    while left:
        p = min(left, key=lambda q: float(np.hypot(*(w.prop_xy[q] - w.pos[a]))))
        spot = w.prop_xy[p]
        if float(np.hypot(*(spot - w.pos[a]))) > REACH * 0.8:
            d = spot - w.pos[a]
            goal = spot - d / max(float(np.hypot(*d)), 1e-9) * 1.0
            t = walk(c, a, t, goal, [], c.cfg.walk_speed, act.loc)
        here = [q for q in left if float(np.hypot(*(w.prop_xy[q] - w.pos[a]))) <= REACH]
        t += 0.6
        for q in here:
            c.set_prop(q, t, a, w.pos[a])
        left = [q for q in left if q not in here]
    busy[a] = t
    return t


def some(c: Ctx, members: list[int], a: int, giver: int | None, n: int) -> list[int]:
    """n of a bundle: from the giver's hands, else those lying nearest a not yet held."""
    w = c.world
    if giver is not None:
        return [p for p in members if w.holder[p] == giver][:n]
    free = [p for p in members if w.holder[p] == SET_DOWN]
    free.sort(key=lambda q: float(np.hypot(*(w.prop_xy[q] - w.pos[a]))))
    return free[:n]


# ---- checks used by verbs ----
def holder_check(c: Ctx, act: Action, p: int, a: int | None, what: str) -> None:
    h = c.world.holder[p]
    prop = c.script.props[p]
    if a is None and h >= 0:
        c.out.warn(act.loc, f"{prop.name} ({prop.id}) is in {c.script.cast[h].name}'s "
                   f"hands, not set down, to {what}")
    elif a is not None and h != a:
        c.out.warn(act.loc, f"{c.script.cast[a].name} does not hold {prop.name} "
                   f"({prop.id}) to {what}")


def reach_check(c: Ctx, act: Action, a: int, spot: np.ndarray, what: str,
                limit: float = REACH) -> None:
    d = float(np.hypot(*(np.asarray(spot) - c.world.pos[a])))
    if d > limit:
        c.out.warn(act.loc, f"{c.script.cast[a].name} cannot {what} {d:.1f} 尺 away "
                   f"(reach {limit:g} 尺): walk there first")
