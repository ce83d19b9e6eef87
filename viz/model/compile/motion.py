"""Motion: turning, gestures (拜 揖 坐 興) and walks along the planner's paths.

_Motion owns the legs planned on its layout (legs, their cache salt legs_salt, and new_legs: whether
this compile planned any, for `Compiler.timeline` to keep); the rest it reads and writes through
_Keyframes (pos, face, base, the step's buffer).
"""
from __future__ import annotations

import math

import numpy as np

from viz.base.errors import Collector, Loc
from viz.model.compile.keyframes import CODE, _Keyframes, unwrap_to
from viz.model.compile.legs import _legs_for
from viz.model.script.nodes import Action, Script, Way

CORNER_TURN = 0.25  # seconds to turn at a corner of a path


class _Motion(_Keyframes):
    def __init__(self, script: Script, layout, out: Collector | None = None):
        super().__init__(script, layout, out)
        self.legs, self.legs_salt = _legs_for(layout)
        self.new_legs = False

    def turn(self, a: int, t: float, deg: float, way: str | None = None) -> float:
        """Turn in place to deg: the short way round, or 右 (clockwise) / 左 (counter-clockwise)."""
        f = unwrap_to(self.face[a], deg)
        if way == "右" and f < self.face[a] - 1e-9:
            f += 360.0
        elif way == "左" and f > self.face[a] + 1e-9:
            f -= 360.0
        if abs(f - self.face[a]) < 1.0:
            # too small to turn for: stand exactly as told (a walk's last heading may be a few
            # tenths off), by correcting the keyframe he has just arrived at
            last = self.buf.motion[-1] if self.buf.motion else None
            if f != self.face[a] and last is not None and last[0] == a and last[1] == t:
                self.buf.motion[-1] = (*last[:4], f, *last[5:])
                self.face[a] = f
            return t
        self.hold(a, t)
        t += self.cfg.turn
        self.key(a, t, self.pos[a], f)
        return t

    def posture(self, a: int, t: float, kind: str, count: int) -> float:
        """From t: a gesture (拜 ×count, 揖) returns the person to how he was, seated or
        standing; 坐 and 興 (or 立) change it. Returns when it ends."""
        g = self.cfg.gestures
        if kind in ("拜", "揖"):
            n = count if kind == "拜" else 1
            d = g[kind] * n
            seated = self.base[a] == "坐"
            self.buf.posture.append((a, t, CODE[kind], t + d, n, seated, self.w))
            self.buf.posture.append((a, t + d, CODE[self.base[a]], t + d, 0, seated, self.w))
        else:
            d = g[kind]
            self.base[a] = "坐" if kind == "坐" else "立"
            self.buf.posture.append((a, t + d / 2, CODE[self.base[a]], t + d / 2, 0,
                                     self.base[a] == "坐", self.w))
        return t + d

    def move(self, act: Action, busy: dict) -> float:
        who = [self.ai[w] for w in act.args["who"]]
        face = act.args.get("face")
        form = act.args.get("formation")
        target = self.xy(act.args["to"], act.loc)
        spots = self.spots(act.args["who"], target, form, face, act.args.get("spacing"))
        final = form.facing if form else face
        speed = act.args.get("speed", self.cfg.walk_speed)
        if speed > self.cfg.brisk_speed:
            self.out.warn(act.loc, f"speed {speed:g} 尺/s is faster than a brisk walk "
                                   f"({self.cfg.brisk_speed:g} 尺/s)")
        for a in who:
            if self.base[a] == "坐":
                self.out.warn(act.loc, f"{self.s.cast[a].name} walks while seated (坐): "
                                       "興 first")
        self.check_destination(act, spots)
        t0 = self.start(busy, who)
        end = t0
        # a group walks in file: each follows the one before at the formation's spacing
        lag = (act.args.get("spacing") or self.cfg.spacing) / speed
        for k, (a, spot) in enumerate(zip(who, spots)):
            vias = self.via_points(act.args.get("via", ()), self.pos[a], spot, act.loc)
            if form is not None:
                # a formation keeps its shape through the places it passes: each walks his own
                # line beside the others', not through the one ahead who has stopped
                vias = [v + (spot - spots[0]) for v in vias]
            t = self.walk(a, t0 + k * lag, spot, vias, speed, act.loc)
            if final is not None:
                t = self.turn(a, t, final)
            busy[a] = t
            end = max(end, t)
        return end

    def via_points(self, vias, start: np.ndarray, goal: np.ndarray, loc: Loc) -> list[np.ndarray]:
        """The points to pass; a named way is walked from whichever end is nearer."""
        out: list[np.ndarray] = []
        prev = start
        for k, v in enumerate(vias):
            if isinstance(v, Way):
                pts = [self.xy(p, loc) for p in v.places]
                nxt = goal
                if k + 1 < len(vias) and not isinstance(vias[k + 1], Way):
                    nxt = self.xy(vias[k + 1], loc)
                fwd = np.hypot(*(pts[0] - prev)) + np.hypot(*(nxt - pts[-1]))
                back = np.hypot(*(pts[-1] - prev)) + np.hypot(*(nxt - pts[0]))
                out += pts if fwd <= back else pts[::-1]
            else:
                out.append(self.xy(v, loc))
            prev = out[-1]
        return out

    def check_destination(self, act: Action, spots: list[np.ndarray]) -> None:
        """Warn of a spot inside a wall: a place typed wrong, or a row that runs into one."""
        ref = act.args["to"]
        for o in getattr(self.layout, "obstacles", ()):
            if o.kind != "wall" or (ref.place is not None and ref.place == o.name):
                continue
            x0, y0, x1, y1 = o.rect
            for p in spots:
                if x0 < p[0] < x1 and y0 < p[1] < y1:
                    self.out.warn(act.loc, f"the move ends inside {o.name} (a wall) at "
                                           f"({p[0]:.1f}, {p[1]:.1f})")
                    return

    def leg(self, a, b, loc: Loc, who: str) -> tuple[list, bool, list, list, list]:
        """The planner's way from a to b as points, whether it crosses an obstacle, and for each
        segment the 等 it climbs, its length and its heading; remembered per layout, since the
        rite walks the same legs again and again (如初)."""
        cache = self.legs
        key = (round(float(a[0]), 4), round(float(a[1]), 4), round(float(b[0]), 4),
               round(float(b[1]), 4))
        hit = cache.get(key)
        if hit is None:
            try:
                arr = np.asarray(self.layout.route(np.asarray(a, float), np.asarray(b, float)),
                                 float)
            except ValueError as e:
                self.out.error(loc, f"{who} cannot walk from {self.layout.nearest_place(*a)} to "
                                    f"{self.layout.nearest_place(*b)}: {e}")
                arr = np.array([a, b], float)
            keep = np.r_[True, np.hypot(*np.diff(arr, axis=0).T) > 1e-6]
            pts = [(float(x), float(y)) for x, y in arr[keep]]
            segs = list(zip(pts, pts[1:]))
            blocked = any(self.layout.segment_blocked(p, q) for p, q in segs)
            steps = [self.layout.stair_steps(np.array([p, q])) for p, q in segs]
            lengths = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in segs]
            heads = [math.degrees(math.atan2(q[0] - p[0], q[1] - p[1])) % 360.0 for p, q in segs]
            hit = cache[key] = (pts, blocked, steps, lengths, heads)
            self.new_legs = True
        return hit

    def walk(self, a: int, t: float, goal: np.ndarray, vias, speed: float, loc: Loc) -> float:
        x0, y0 = float(self.pos[a][0]), float(self.pos[a][1])
        if math.hypot(goal[0] - x0, goal[1] - y0) < 0.05 and not vias:
            return t
        name = self.s.cast[a].name
        last = (x0, y0)
        segs: list[tuple[tuple[float, float], float, float, int]] = []  # (end, len, head, 等)
        for target in [*vias, goal]:
            pts, blocked, steps, lengths, heads = self.leg(last, target, loc, name)
            if blocked:
                self.out.warn(loc, f"{name}'s path from {self.layout.nearest_place(*pts[0])} to "
                                   f"{self.layout.nearest_place(*pts[-1])} passes through an "
                                   "obstacle")
            for q, n, d, h in zip(pts[1:], steps, lengths, heads):
                if math.hypot(q[0] - last[0], q[1] - last[1]) > 1e-6:
                    segs.append((q, d, h, n))
                    last = q
        self.hold(a, t)
        face, cur = float(self.face[a]), (x0, y0)
        for i, (q, d, h, n) in enumerate(segs):
            h = unwrap_to(face, h)
            if abs(h - face) > 1.0:
                t += self.cfg.turn if i == 0 else CORNER_TURN
                self.buf.motion.append((a, t, cur[0], cur[1], h, self.w))
                face = h
            t += d / speed + n * self.cfg.stair_step
            self.buf.motion.append((a, t, q[0], q[1], h, self.w))
            cur = q
        if segs:
            self.pos[a] = segs[-1][0]
            self.face[a] = face
        return t
