"""Motion: turning, gestures (拜 揖 坐 興) and walks along the planner's paths.

Functions of the compile's context (context.py): each writes its keyframes through the track
(c.track) and tells the world (c.world) where the person now stands, how he faces, seated or
not; the legs come from c.legs (legs.py). Each returns when it ends, relative to the step.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from viz.base.errors import Loc
from viz.model.compile.keyframes import CODE, unwrap_to
from viz.model.script.nodes import Action, Way

if TYPE_CHECKING:
    from viz.model.compile.context import Ctx

CORNER_TURN = 0.25  # seconds to turn at a corner of a path


def turn(c: Ctx, a: int, t: float, deg: float, way: str | None = None) -> float:
    """Turn in place to deg: the short way round, or 右 (clockwise) / 左 (counter-clockwise)."""
    face = c.world.face[a]
    f = unwrap_to(face, deg)
    if way == "右" and f < face - 1e-9:
        f += 360.0
    elif way == "左" and f > face + 1e-9:
        f -= 360.0
    if abs(f - face) < 1.0:
        # too small to turn for: stand exactly as told (a walk's last heading may be a few
        # tenths off), by correcting the keyframe he has just arrived at
        if f != face and c.track.reface_last(a, t, f):
            c.world.turn_to(a, f)
        return t
    c.hold(a, t)
    t += c.cfg.turn
    c.key(a, t, c.world.pos[a], f)
    return t


def posture(c: Ctx, a: int, t: float, kind: str, count: int) -> float:
    """From t: a gesture (拜 ×count, 揖) returns the person to how he was, seated or
    standing; 坐 and 興 (or 立) change it. Returns when it ends."""
    g = c.cfg.gestures
    base = c.world.base
    if kind in ("拜", "揖"):
        n = count if kind == "拜" else 1
        d = g[kind] * n
        seated = base[a] == "坐"
        c.track.posture(a, t, CODE[kind], t + d, n, seated)
        c.track.posture(a, t + d, CODE[base[a]], t + d, 0, seated)
    else:
        d = g[kind]
        c.world.set_base(a, "坐" if kind == "坐" else "立")
        c.track.posture(a, t + d / 2, CODE[base[a]], t + d / 2, 0, base[a] == "坐")
    return t + d


def move(c: Ctx, act: Action, busy: dict) -> float:
    who = [c.ai[w] for w in act.args["who"]]
    face = act.args.get("face")
    form = act.args.get("formation")
    target = c.xy(act.args["to"], act.loc)
    spots = c.spots(act.args["who"], target, form, face, act.args.get("spacing"))
    final = form.facing if form else face
    speed = act.args.get("speed", c.cfg.walk_speed)
    if speed > c.cfg.brisk_speed:
        c.out.warn(act.loc, f"speed {speed:g} 尺/s is faster than a brisk walk "
                   f"({c.cfg.brisk_speed:g} 尺/s)")
    for a in who:
        if c.world.base[a] == "坐":
            c.out.warn(act.loc, f"{c.script.cast[a].name} walks while seated (坐): 興 first")
    check_destination(c, act, spots)
    t0 = c.start(busy, who)
    end = t0
    # a group walks in file: each follows the one before at the formation's spacing
    lag = (act.args.get("spacing") or c.cfg.spacing) / speed
    for k, (a, spot) in enumerate(zip(who, spots)):
        vias = via_points(c, act.args.get("via", ()), c.world.pos[a], spot, act.loc)
        if form is not None:
            # a formation keeps its shape through the places it passes: each walks his own
            # line beside the others', not through the one ahead who has stopped
            vias = [v + (spot - spots[0]) for v in vias]
        t = walk(c, a, t0 + k * lag, spot, vias, speed, act.loc)
        if final is not None:
            t = turn(c, a, t, final)
        busy[a] = t
        end = max(end, t)
    return end


def via_points(c: Ctx, vias, start: np.ndarray, goal: np.ndarray, loc: Loc) -> list[np.ndarray]:
    """The points to pass; a named way is walked from whichever end is nearer."""
    out: list[np.ndarray] = []
    prev = start
    for k, v in enumerate(vias):
        if isinstance(v, Way):
            pts = [c.xy(p, loc) for p in v.places]
            nxt = goal
            if k + 1 < len(vias) and not isinstance(vias[k + 1], Way):
                nxt = c.xy(vias[k + 1], loc)
            fwd = np.hypot(*(pts[0] - prev)) + np.hypot(*(nxt - pts[-1]))
            back = np.hypot(*(pts[-1] - prev)) + np.hypot(*(nxt - pts[0]))
            out += pts if fwd <= back else pts[::-1]
        else:
            out.append(c.xy(v, loc))
        prev = out[-1]
    return out


def check_destination(c: Ctx, act: Action, spots: list[np.ndarray]) -> None:
    """Warn of a spot inside a wall: a place typed wrong, or a row that runs into one."""
    ref = act.args["to"]
    for o in getattr(c.layout, "obstacles", ()):
        if o.kind != "wall" or (ref.place is not None and ref.place == o.name):
            continue
        x0, y0, x1, y1 = o.rect
        for p in spots:
            if x0 < p[0] < x1 and y0 < p[1] < y1:
                c.out.warn(act.loc, f"the move ends inside {o.name} (a wall) at "
                           f"({p[0]:.1f}, {p[1]:.1f})")
                return


def walk(c: Ctx, a: int, t: float, goal: np.ndarray, vias, speed: float, loc: Loc) -> float:
    x0, y0 = float(c.world.pos[a][0]), float(c.world.pos[a][1])
    if math.hypot(goal[0] - x0, goal[1] - y0) < 0.05 and not vias:
        return t
    name = c.script.cast[a].name
    last = (x0, y0)
    segs: list[tuple[tuple[float, float], float, float, int]] = []  # (end, len, head, 等)
    for target in [*vias, goal]:
        pts, blocked, steps, lengths, heads = c.legs.leg(last, target, loc, name, c.out)
        if blocked:
            c.out.warn(loc, f"{name}'s path from {c.layout.nearest_place(*pts[0])} to "
                       f"{c.layout.nearest_place(*pts[-1])} passes through an obstacle")
        for q, n, d, h in zip(pts[1:], steps, lengths, heads):
            if math.hypot(q[0] - last[0], q[1] - last[1]) > 1e-6:
                segs.append((q, d, h, n))
                last = q
    c.hold(a, t)
    face, cur = float(c.world.face[a]), (x0, y0)
    for i, (q, d, h, n) in enumerate(segs):
        h = unwrap_to(face, h)
        if abs(h - face) > 1.0:
            t += c.cfg.turn if i == 0 else CORNER_TURN
            c.track.motion(a, t, cur[0], cur[1], h)
            face = h
        t += d / speed + n * c.cfg.stair_step
        c.track.motion(a, t, q[0], q[1], h)
        cur = q
    if segs:
        c.world.stand(a, segs[-1][0], face)
    return t
