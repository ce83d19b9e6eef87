"""What the archers wear, and their bows: 袒, 決, 遂 and the 扑 in the belt per person; 張 or 弛 per bow;
and the worn things (caps and clothes put on and taken off: don, doff).

`Wardrobe` keeps, for each person, whether his left arm is bared (袒; 襲 covers it), whether he
wears the thumb-ring (決) and the arm-guard (遂, called 拾 when not shooting: 説決拾), and whether the
扑 he holds is stuck in his belt (搢扑; 去扑 takes it out, and so does its leaving his hands); and for
each bow whether it is strung (張) or unstrung (弛). It owns that state (worn, strung) and writes
it to the track as two step channels: "dress" (owners: actors; columns 袒 決 遂 扑, 0 or 1) and
"bow" (owners: props; 張 = 1, 弛 = 2, 0 for a thing that is not a bow). Bows start strung: the
text unstrings only the losers' (執弛弓, 注: 言不能用之也), and a bow shot with is strung.

Worn things are props declared with worn: 首, 身 or 足. The wardrobe owns who wears each
(wearer) and writes the "wear" step channel (owners: props; columns wearer, worn, hands, start,
end): while it goes on (don) or comes off (doff) hands is the person from or to whose hands it
moves, between start and end; worn says it is on the wearer. A thing worn is in nobody's hands:
the props channel's holder is WORN_ON and it is not drawn as a prop. `don` and `doff` below are
functions of the compile's context (they check, time and write through the context and here).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from viz.base.errors import Collector, Loc
from viz.model.compile.keyframes import Track
from viz.model.compile.world import World
from viz.model.dress import BOW_STATES, SPOTS, WORN, doff_conflict, don_conflict, dress_words
from viz.model.script.nodes import Action, Script
from viz.model.timeline import SET_DOWN, WORN_ON
from viz.model.verbs import HAND_REACH, REACH

if TYPE_CHECKING:
    from viz.model.compile.context import Ctx

DRESS = 1.2  # s: putting on or taking off one thing (袒, 決, 遂, 拾 …), when settings say none
DON, DOFF = 2.0, 1.5  # s: putting a worn thing on (加冠), taking it off, when settings say none


class Wardrobe:
    def __init__(self, script: Script, track: Track, world: World, out: Collector):
        """Nothing worn, every bow strung: the first rows of the dress and bow channels. It
        writes rows through the track, reads who holds what in the world, warns to out."""
        self.script, self.cfg, self.out = script, script.settings, out
        self.track, self.world = track, world
        n = len(script.cast)
        self.worn = np.zeros((n, len(WORN)), np.int64)
        self.strung = np.array([BOW_STATES["張"] if p.kind == "弓" else 0 for p in script.props],
                               np.int64)
        for a in range(n):
            track.dress(a, 0.0, [0] * len(WORN))
        for p, v in enumerate(self.strung):
            if v:
                track.bow(p, 0.0, int(v))
        # worn things: who wears each (-1: nobody); the "wear" channel's first rows
        self.wearer = np.full(len(script.props), -1, np.int64)
        for p, prop in enumerate(script.props):
            if prop.worn:
                track.wear(p, 0.0, -1, False, -1, 0.0, 0.0)

    def dress(self, a: int, t: float, words: str, bow: str | None = None,
              loc: Loc | None = None) -> float:
        """Put on or take off what the words say (袒決遂, 襲, 説決拾, 搢扑 …) from t; with bow, the
        bows he holds become 張 or 弛. It takes time (issue 26): settings.gestures.dress seconds
        for each thing put on or off, twice that to string or unstring a bow; what he wears
        changes when he is done, and the time returned is then."""
        changes = dress_words(words) or []
        holder = self.world.holder
        t0 = t
        t += self.cfg.gestures.get("dress", DRESS) * (len(changes) + (2 if bow else 0))
        if t > t0:  # he is busy dressing: not a wait (viz/query/waits.py)
            self.track.event(t0, t, "dress", a, words or f"弓{bow}", {})
        for col, v in changes:
            if col == "扑" and v and not any(self.script.props[p].kind == "扑"
                                            for p in np.nonzero(holder == a)[0]):
                self.out.warn(loc, f"{self.script.cast[a].name} holds no 扑 to put in his belt (搢扑)")
                continue
            self.worn[a, WORN.index(col)] = v
        self.track.dress(a, t, self.worn[a])
        if bow is not None:
            bows = [int(p) for p in np.nonzero(holder == a)[0] if self.strung[p]]
            if not bows:
                self.out.warn(loc, f"{self.script.cast[a].name} holds no bow to be {bow}")
            for p in bows:
                self.strung[p] = BOW_STATES[bow]
                self.track.bow(p, t, BOW_STATES[bow])
        return t

    def let_go(self, p: int, a: int, t: float) -> None:
        """A 扑 leaving its holder's hands leaves his belt too (去扑，倚於西階之西)."""
        k = WORN.index("扑")
        if self.script.props[p].kind == "扑" and self.worn[a, k]:
            self.worn[a, k] = 0
            self.track.dress(a, t, self.worn[a])

    # ---- worn things ----
    def on(self, a: int, spot: str, but: int = -1) -> list[tuple[str, str]]:
        """(kind, name) of each thing a wears at spot (but that one)."""
        props = self.script.props
        return [(props[q].kind, props[q].name) for q in np.nonzero(self.wearer == a)[0]
                if props[q].worn == spot and q != but]

    def put_on(self, p: int, a: int, hands: int, t0: float, t1: float) -> None:
        """p goes from hands' hands onto a between t0 and t1, and is worn from t1."""
        self.track.wear(p, t0, a, False, hands, t0, t1)
        self.track.wear(p, t1, a, True, -1, t1, t1)
        self.wearer[p] = a

    def take_off(self, p: int, hands: int, t0: float, t1: float) -> None:
        """p comes off its wearer into hands' hands between t0 and t1."""
        a = int(self.wearer[p])
        self.track.wear(p, t0, a, True, hands, t0, t1)
        self.track.wear(p, t1, -1, False, -1, t1, t1)
        self.wearer[p] = -1

    def wear_now(self, p: int, a: int, t: float) -> None:
        """a wears p from t, at once (worn_by: in the cast)."""
        self.track.wear(p, t, a, True, -1, t, t)
        self.wearer[p] = a

    def moved(self, p: int, t: float) -> None:
        """A worn thing put somewhere else (a setup, a take): nobody wears it from t."""
        if self.wearer[p] >= 0:
            self.wearer[p] = -1
            self.track.wear(p, t, -1, False, -1, t, t)


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


def don(c: Ctx, act: Action, busy: dict) -> float:
    """who puts the worn thing on (or by: puts it on him, 加冠, 設纚), from by's hands, or from
    where it lies within reach: it moves from the hands to where it is worn over the action's
    time (settings.gestures.don, 2 s), and after it he wears it and nobody holds it."""
    p, a, b = _who(c, act)
    w, wd = c.world, c.wardrobe
    prop = c.script.props[p]
    who, thing = _names(c, a, p)
    hands = _names(c, b, p)[0]
    t0 = max(busy.get(a, 0.0), busy.get(b, 0.0))
    problem = None
    if wd.wearer[p] >= 0:
        problem = f"{thing} is worn already, by {_names(c, int(wd.wearer[p]), p)[0]}: doff it first"
    elif b != a and _far(c, a, b) > HAND_REACH:
        problem = (f"by: {hands} is {_far(c, a, b):.1f} 尺 from {who} (reach {HAND_REACH:g} 尺): "
                   f"expected him within reach to put the {prop.name} on him")
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
    c.track.event(t0, t1, "dress", a, f"{SPOTS[prop.worn]}{prop.name}", {"don": prop.id})
    wd.put_on(p, a, b, t0, t1)
    c.set_prop(p, t1, WORN_ON, w.pos[a], visible=False)
    busy[a] = busy[b] = t1
    return t1


def doff(c: Ctx, act: Action, busy: dict) -> float:
    """The worn thing comes off who into by's hands (or his own), over the action's time
    (settings.gestures.doff, 1.5 s); with to:, it is then set down there."""
    p, a, b = _who(c, act)
    w, wd = c.world, c.wardrobe
    prop = c.script.props[p]
    who, thing = _names(c, a, p)
    hands = _names(c, b, p)[0]
    t0 = max(busy.get(a, 0.0), busy.get(b, 0.0))
    problem = None
    if wd.wearer[p] != a:
        problem = (f"{who} does not wear {thing}" + (
            f" (it is worn by {_names(c, int(wd.wearer[p]), p)[0]})" if wd.wearer[p] >= 0
            else "") + ": expected a thing he wears (don it first)")
    elif b != a and _far(c, a, b) > HAND_REACH:
        problem = (f"by: {hands} is {_far(c, a, b):.1f} 尺 from {who} (reach {HAND_REACH:g} 尺): "
                   f"expected him within reach to take the {prop.name} off him")
    else:
        problem = doff_conflict(prop.kind, prop.name, prop.worn, wd.on(a, prop.worn, p))
    if problem:
        c.out.error(act.loc, f"doff: {problem}")
        return t0
    t1 = t0 + c.cfg.gestures.get("doff", DOFF)
    c.track.event(t0, t1, "dress", a, f"脫{prop.name}", {"doff": prop.id})
    wd.take_off(p, b, t0, t1)
    if act.args.get("to") is not None:
        spot = c.xy(act.args["to"], act.loc)
        c.reach_check(act, b, spot, "set it down at")
        c.set_prop(p, t1, SET_DOWN, spot)
    else:
        c.set_prop(p, t1, b, w.pos[b])
    busy[a] = busy[b] = t1
    return t1
