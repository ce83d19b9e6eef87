"""Putting worn things on and taking them off (the verbs don and doff): functions of the compile's
context (context.py), as props.py's are. They check (errors located at the action), time the
action, and write through the context's primitives (set_prop) and the wardrobe (dress.py), which
owns who wears what.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from viz.model.dress import SPOTS, doff_conflict, don_conflict
from viz.model.script.nodes import Action
from viz.model.timeline import SET_DOWN, WORN_ON
from viz.model.verbs import HAND_REACH, REACH

if TYPE_CHECKING:
    from viz.model.compile.context import Ctx

DON, DOFF = 2.0, 1.5  # s: putting a worn thing on (加冠), taking it off, when settings say none


def _who(c: Ctx, act: Action) -> tuple[int, int, int]:
    """The prop, the one it goes on or comes off, and whose hands (by:, else his own)."""
    a = c.ai[act.args["who"][0]]
    b = c.ai[act.args["by"]] if act.args.get("by") else a
    return c.pi[act.args["prop"]], a, b


def _far(c: Ctx, a: int, b: int) -> float:
    return float(np.hypot(*(c.world.pos[a] - c.world.pos[b])))


def _names(c: Ctx, a: int, p: int) -> tuple[str, str]:
    prop = c.script.props[p]
    return f"{c.script.cast[a].name} ({c.script.cast[a].id})", f"{prop.name} ({prop.id})"


def _begin(c: Ctx, act: Action, busy: dict) -> tuple[int, int, int, str, str, str, float]:
    """What don and doff both start from: the thing, the wearer, the one whose hands do it, their
    names as errors give them, and when both are free."""
    p, a, b = _who(c, act)
    who, thing = _names(c, a, p)
    return p, a, b, who, thing, _names(c, b, p)[0], max(busy.get(a, 0.0), busy.get(b, 0.0))


def _out_of_reach(c: Ctx, a: int, b: int) -> bool:
    return b != a and _far(c, a, b) > HAND_REACH


def _reach_problem(c: Ctx, a: int, b: int, who: str, hands: str, doing: str) -> str:
    return (f"by: {hands} is {_far(c, a, b):.1f} 尺 from {who} (reach {HAND_REACH:g} 尺): "
            f"expected him within reach to {doing}")


def don(c: Ctx, act: Action, busy: dict) -> float:
    """who puts the worn thing on (or by: puts it on him, 加冠, 設纚), from by's hands, or from
    where it lies within reach: it moves from the hands to where it is worn over the action's
    time (settings.gestures.don, 2 s), and after it he wears it and nobody holds it."""
    p, a, b, who, thing, hands, t0 = _begin(c, act, busy)
    w, wd, prop = c.world, c.wardrobe, c.script.props[p]
    problem = None
    if wd.wearer[p] >= 0:
        problem = f"{thing} is worn already, by {_names(c, int(wd.wearer[p]), p)[0]}: doff it first"
    elif _out_of_reach(c, a, b):
        problem = _reach_problem(c, a, b, who, hands, f"put the {prop.name} on him")
    elif w.holder[p] != b:
        lies = (w.holder[p] == SET_DOWN and w.visible[p]
                and float(np.hypot(*(w.prop_xy[p] - w.pos[b]))) <= REACH)
        if not lies:
            problem = (f"{hands} does not hold {thing}, nor does it lie within his reach "
                       f"({REACH:g} 尺): expected it in his hands to put it on")
    if problem is None:
        problem = don_conflict(prop.kind, prop.name, prop.worn, wd.on(a, prop.worn))
        if problem:
            problem = f"{who} {problem}"
    if problem:
        c.out.error(act.loc, f"don: {problem}")
        return t0
    if w.holder[p] != b:  # taken up where it lies
        c.set_prop(p, t0, b, w.pos[b])
    t1 = t0 + c.cfg.gestures.get("don", DON)
    c.track.event(t0, t1, "dress", a, f"{SPOTS[prop.worn]}{prop.name}", {"don": prop.id, "by": b})
    wd.put_on(p, a, b, t0, t1)
    c.set_prop(p, t1, WORN_ON, w.pos[a], visible=False)
    busy[a] = busy[b] = t1
    return t1


def doff(c: Ctx, act: Action, busy: dict) -> float:
    """The worn thing comes off who into by's hands (or his own), over the action's time
    (settings.gestures.doff, 1.5 s); with to:, it is then set down there."""
    p, a, b, who, thing, hands, t0 = _begin(c, act, busy)
    w, wd, prop = c.world, c.wardrobe, c.script.props[p]
    problem = None
    if wd.wearer[p] != a:
        problem = (f"{who} does not wear {thing}" + (
            f" (it is worn by {_names(c, int(wd.wearer[p]), p)[0]})" if wd.wearer[p] >= 0
            else "") + ": expected a thing he wears (don it first)")
    elif _out_of_reach(c, a, b):
        problem = _reach_problem(c, a, b, who, hands, f"take the {prop.name} off him")
    else:
        problem = doff_conflict(prop.kind, prop.name, prop.worn, wd.on(a, prop.worn, p))
    if problem:
        c.out.error(act.loc, f"doff: {problem}")
        return t0
    t1 = t0 + c.cfg.gestures.get("doff", DOFF)
    c.track.event(t0, t1, "dress", a, f"説{prop.name}", {"doff": prop.id, "by": b})
    wd.take_off(p, b, t0, t1)
    if act.args.get("to") is not None:
        spot = c.xy(act.args["to"], act.loc)
        c.reach_check(act, b, spot, "set it down at")
        c.set_prop(p, t1, SET_DOWN, spot)
    else:
        c.set_prop(p, t1, b, w.pos[b])
    busy[a] = busy[b] = t1
    return t1
