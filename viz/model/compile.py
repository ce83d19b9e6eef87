"""Compile a checked Script on a Layout into a Timeline of keyframe channels, once.

The Compiler keeps everyone's state as the rite goes (where each person stands, facing,
seated or not, who holds what) and offers the primitives verbs compile with (walk, turn,
posture, set_prop, event …); each verb's own compile lives in viz/verbs.py. Stages follow on:
a stage begins where the last one left everyone, unless it declares a gap in the text and sets
the scene anew.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from viz.base.cache import load_blob, store_blob
from viz.base.errors import Collector, Loc
from viz.model.script.nodes import (
    Action,
    Expect,
    Formation,
    Placement,
    PlaceRef,
    PropPlacement,
    Script,
    Step,
    ThingPlacement,
    Way,
)
from viz.model.timeline import (
    FLYING,
    POSTURES,
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
from viz.model.verbs import REACH, REGISTRY

STAGE_GAP = 1.0  # seconds of stillness between stages, so a stage's end is its own final state
CORNER_TURN = 0.25  # seconds to turn at a corner of a path
OVERLAP = 1.2  # 尺: closer than this at rest is two people in one spot
MIN_STEP = 0.3  # seconds: every step lasts long enough to be seen and stepped to
JUMP = 0.5  # 尺: a move bigger than this across a stage boundary is a jump
CODE = {name: i for i, name in enumerate(POSTURES)}
SUAN = "suan"  # the bundle of 算 (記: 箭籌八十), laid one for each hit that counts
HAND = 8  # 算 taken at a time (釋獲者坐取中之八算; 興，執而俟 … 又取中之八算)
# per layout: (from, to) → (polyline, blocked?, 等 climbed per segment). The rite walks the same
# legs again and again (如初), and the planner is the costliest part of a compile.
_LEGS: dict = {}


def _legs_for(layout) -> tuple[dict, bytes | None]:
    """The legs already planned on this layout: in this process, or kept in the parse cache's
    folder from an earlier run (viz/cache.py), keyed by what the walks depend on."""
    key = _layout_key(layout)
    if key is None:
        return {}, None
    salt = repr(key).encode()
    if key not in _LEGS:
        _LEGS[key] = (load_blob("legs", salt) if salt is not None else None) or {}
    return _LEGS[key], salt


def _layout_key(layout) -> object:
    """What a layout's walks depend on: its obstacles, stairs and clearance (so each reading's
    layout, and a reload of the same file, share the planned legs); None for a layout that
    does not say (a test's open field): its legs are not kept."""
    obstacles = getattr(layout, "obstacles", None)
    if obstacles is None:
        return None
    return (tuple(o.rect for o in obstacles), tuple(s.rect for s in layout.stairs),
            layout.clearance)


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


class Compiler:
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
        self.legs, self.legs_salt = _legs_for(layout)
        self.new_legs = False
        self.label_names: list[str] = []
        self.kf = _Buffer()
        self.buf = self.kf  # where the primitives write: the step's buffer while compiling one
        self.t = 0.0
        self.w = -1  # the step being compiled (setups: the stage's first step)
        # things set out: every feature name of the layout, shown unless the script sets it out
        self.thing_names = sorted({f.name for f in getattr(layout, "features", ())})
        self.ti = {n: i for i, n in enumerate(self.thing_names)}
        self.shown = {n: n not in script.set_out for n in self.thing_names}
        self.tally = {"右": 0, "左": 0}
        self.round = 0
        self.music_t0: float | None = None  # when the current stage's music began
        self.shot_log: list[dict] = []
        self.results: list[dict] = []
        self.caller: str | None = None
        self.laid: dict[int, bool] = {}  # 算 laid in the round under way

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
        self.holder[p] = holder
        self.visible[p] = visible
        if holder == SET_DOWN:
            self.prop_xy[p] = xy
        elif holder >= 0:
            self.loosed.discard(p)

    def set_label(self, a: int, t: float, text: str) -> None:
        if text not in self.label_names:
            self.label_names.append(text)
        self.buf.label.append((a, t, self.label_names.index(text), self.w))
        self.labels[a] = text

    def event(self, t0: float, t1: float, kind: str, a: int, text: str,
              data: dict | None = None) -> None:
        self.buf.events.append((t0, t1, kind, a, text, data or {}))

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

    def score_key(self, owner: str, t: float, value: float) -> None:
        self.buf.score.append((SCORE_OWNERS.index(owner), t, value, self.w))

    # ---- the shooting ----
    def on_beat(self, t: float, music, on: bool) -> float:
        """The release moved to the drum's next beat (不鼓不釋), or half a beat off it."""
        if self.music_t0 is None:
            return t
        rel = self.t + t - self.music_t0
        k = math.ceil(rel / music.beat - 1e-9)
        at = k * music.beat + (0.0 if on else music.beat / 2)
        return at + self.music_t0 - self.t

    def scored(self, act: Action, shot, p: int, t0: float, t1: float, goal) -> float:
        """After an arrow lands: the 獲者's call and 旌 for a hit, and the 算 laid if it counts;
        returns when that is done."""
        caller = self.ai.get(self.caller, -1)
        entry = {"round": shot.round, "actor": shot.actor, "n": shot.n, "side": shot.side,
                 "hit": shot.hit, "on_beat": shot.on_beat, "tallied": False,
                 "prop": self.s.props[p].id, "x": float(goal[0]), "y": float(goal[1]),
                 "t_release": t0, "t_land": t1}  # relative; made absolute when flushed
        if shot.hit:
            words = "獲" if shot.on_beat else "獲 (不鼓不釋)"
            self.event(t1, t1 + 1.5, "call", caller, words,
                       {"shot": entry, "flag": "舉旌以宮，偃旌以商"})
            if caller >= 0:  # 唱獲, heard and shown as his words (獲者坐而獲，舉旌以宮)
                self.event(t1, t1 + 1.5, "say", caller, "獲")
        end = t1
        if shot.tallied and act.args.get("tally") in self.ai:
            scorer = self.ai[act.args["tally"]]
            entry["tallied"] = self.lay(act, scorer, shot.side, t1 + 1.0)
            end = t1 + 1.0
        self.event(t0, t1, "shot", self.ai[shot.actor], "", {"shot": entry})
        self.shot_log.append(entry)
        return end

    def lay(self, act: Action, a: int, side: str, t: float) -> bool:
        """The scorer lays one 算: 上射's to his right, 下射's to his left (his own, facing
        east: right is south). An empty hand first takes eight more from the 中."""
        suan = self.bundles.get(SUAN, [])
        held = [p for p in suan if self.holder[p] == a]
        if not held:
            near = [p for p in suan if self.holder[p] == SET_DOWN and not self.laid.get(p)
                    and float(np.hypot(*(self.prop_xy[p] - self.pos[a]))) <= REACH]
            for p in near[:HAND]:
                self.set_prop(p, t - 0.5, a, self.pos[a])
            held = near[:HAND]
        if not held:
            self.out.warn(act.loc, f"{self.s.cast[a].name} has no 算 to lay for this hit (take "
                                   "them from the 中 first: take: {prop: suan, count: 8})")
            return False
        k = self.tally[side]
        right = unit(self.face[a] + 90.0)
        side_v = right if side == "右" else -right
        ahead = unit(self.face[a])
        spot = (self.pos[a] + side_v * (1.2 + 0.35 * (k // 10)) + ahead * (0.8 + 0.25 * (k % 10)))
        self.set_prop(held[0], t, SET_DOWN, spot)
        self.laid[held[0]] = True
        self.tally[side] = k + 1
        self.score_key(side, t, k + 1)
        return True

    def count(self, act: Action, a: int, busy: dict) -> float:
        res = act.args["result"]
        laid = self.tally["右"] + self.tally["左"]
        t = busy.get(a, 0.0) + self.cfg.gestures["count"] + 0.4 * laid
        if (self.tally["右"], self.tally["左"]) != (res.right, res.left):
            self.out.warn(act.loc, f"the 算 laid ({self.tally['右']} right, {self.tally['左']} "
                                   f"left) are not the round's hits that count ({res.right}, "
                                   f"{res.left})")
        d = max(self.cfg.gestures["say"], 0.3 * len(res.announce))
        data = {"round": res.round, "右": res.right, "左": res.left, "announce": res.announce,
                "winner": res.winner}
        self.event(t, t + d, "say", a, res.announce)
        self.event(t, t + d, "count", a, res.announce, data)
        self.results.append(data)
        if self.round == res.round:  # counted: the round is over
            self.end_round(t + d)
        busy[a] = t + d
        return t + d

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

    def start(self, busy: dict, who: list[int]) -> float:
        return max((busy.get(a, 0.0) for a in who), default=0.0)

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

    def reach_check(self, act: Action, a: int, spot: np.ndarray, what: str) -> None:
        d = float(np.hypot(*(np.asarray(spot) - self.pos[a])))
        if d > REACH:
            self.out.warn(act.loc, f"{self.s.cast[a].name} cannot {what} {d:.1f} 尺 away "
                                   f"(reach {REACH:g} 尺): walk there first")

    # ---- the whole script ----
    def run(self) -> Timeline:
        self.initial_props()
        for n in self.thing_names:
            self.kf.things.append((self.ti[n], 0.0, self.shown[n], -1))
        for k in range(len(SCORE_OWNERS)):
            self.kf.score.append((k, 0.0, 0, -1))
        stages, steps = [], []
        all_stages = self.s.stages
        for si, stage in enumerate(all_stages):
            if si:
                self.t += STAGE_GAP
            t0, first = self.t, len(steps)
            self.w = first
            if si == 0 or stage.gap:
                self.setup(stage.setup)
            for aid, text in stage.labels.items():
                self.set_label(self.ai[aid], self.t, text)
            self.open_scoring(stage.scoring)
            opening = tuple(self.labels)
            for step in stage.steps:
                steps.append(self.step(step, si, len(steps)))
            self.close_scoring(stage.scoring, all_stages[si + 1].scoring
                               if si + 1 < len(all_stages) else None)
            stages.append(StageSpan(si, stage.name, stage.section, t0, self.t, first,
                                    len(steps) - 1, opening, stage.gap))
        return self.timeline(stages, steps)

    def open_scoring(self, sc) -> None:
        """A stage of a round: the round's number from its first stage, its music from now."""
        self.caller = sc.caller if sc is not None else None
        self.music_t0 = None
        if sc is None:
            return
        if sc.round != self.round:
            self.round = sc.round
            self.tally = {"右": 0, "左": 0}
            self.laid = {}
            for k, v in (("round", sc.round), ("右", 0), ("左", 0)):
                self.score_key(k, self.t, v)
        if sc.music is not None:
            self.music_t0 = self.t

    def close_scoring(self, sc, nxt) -> None:
        """The beats of the stage's music, and the round's end when the next stage is not of it."""
        if sc is None:
            return
        m = sc.music
        if m is not None and self.music_t0 is not None:
            total = m.ends * m.beats_per_end
            k = 0
            while k < total and self.music_t0 + k * m.beat < self.t:
                tb = self.music_t0 + k * m.beat
                self.score_key("beat", tb, k + 1)
                self.score_key("終", tb, 1 + k // m.beats_per_end)
                self.buf.events.append((tb, tb + 0.25, "beat", -1, m.piece,
                                        {"beat": k + 1, "終": 1 + k // m.beats_per_end}))
                k += 1
            end = min(self.t, self.music_t0 + total * m.beat)
            self.score_key("beat", end, 0)
            self.score_key("終", end, 0)
        # a round that counts stays under way until its count (視算, often in a stage with no
        # shooting); one that does not (獲而未釋獲) ends with its last stage of shooting
        if (nxt is None or nxt.round != sc.round) and sc.tally is None:
            self.end_round(self.t)

    def end_round(self, t: float) -> None:
        for k in ("round", "右", "左"):
            self.score_key(k, t, 0)
        self.round = 0

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
        for act in step.actions:
            after = act.args.get("after")
            if after:
                ready = max(busy.get(self.ai[b], 0.0) for b in after)
                for w in act.args.get("who", ()):
                    busy[self.ai[w]] = max(busy.get(self.ai[w], 0.0), ready)
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
        for ex in step.expect:
            self.check_expect(ex)
        return StepSpan(index, stage, t0, self.t, step.cite, step.span,
                        tuple(e[4] for e in buf.events if e[2] == "say" and e[3] >= 0),
                        str(step.loc),
                        step.pattern, step.note, step.reading)

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
        for a, b, k, w, s, d in buf.events:
            if k == "shot":
                d["shot"].update(t_release=T + a * scale, t_land=T + b * scale)
            elif k == "count":
                d["t"] = T + a * scale
            self.kf.events.append((T + a * scale, T + b * scale, k, w, s, d))

    # ---- warnings ----
    def check_expect(self, ex: Expect) -> None:
        for w in ex.who:
            a = self.ai[w]
            name = self.s.cast[a].name
            if ex.present is not None and bool(self.present[a]) != ex.present:
                self.out.warn(ex.loc, f"expected {name} {'present' if ex.present else 'gone'}")
            if ex.at is not None:
                goal = self.xy(ex.at, ex.loc)
                d = float(np.hypot(*(goal - self.pos[a])))
                if d > ex.within:
                    self.out.warn(ex.loc, f"expected {name} within {ex.within:g} 尺 of "
                                          f"({goal[0]:.1f}, {goal[1]:.1f}); he is {d:.1f} 尺 away, "
                                          f"at ({self.pos[a][0]:.1f}, {self.pos[a][1]:.1f})")
            if ex.face is not None and abs(unwrap_to(ex.face, self.face[a]) - ex.face) > 10:
                self.out.warn(ex.loc, f"expected {name} to face {ex.face:g}°, he faces "
                                      f"{self.face[a] % 360:.0f}°")
            if ex.posture is not None and self.base[a] != ex.posture:
                self.out.warn(ex.loc, f"expected {name} {ex.posture}, he is {self.base[a]}")
            if ex.holding is not None:
                held = {self.s.props[p].id for p in np.nonzero(self.holder == a)[0]}
                missing = [p for p in ex.holding if p not in held]
                if missing:
                    self.out.warn(ex.loc, f"expected {name} to hold {', '.join(missing)}")

    def check_speed(self, step: Step, buf: _Buffer, scale: float) -> None:
        by_actor: dict[int, list] = {}
        for a, t, x, y, *_ in buf.motion:
            by_actor.setdefault(a, []).append((t * scale, x, y))
        for a, ks in by_actor.items():
            for (t0, x0, y0), (t1, x1, y1) in zip(ks, ks[1:]):
                d = math.hypot(x1 - x0, y1 - y0)
                if t1 > t0 and d / (t1 - t0) > self.cfg.brisk_speed:
                    self.out.warn(step.loc, f"{self.s.cast[a].name} moves at "
                                            f"{d / (t1 - t0):.1f} 尺/s, faster than a brisk walk "
                                            f"({self.cfg.brisk_speed:g} 尺/s): dur is too short")
                    return

    def check_overlap(self, step: Step, buf: _Buffer) -> None:
        """Two people in one spot when the step ends: only those who moved or came in can have
        come to stand on someone."""
        moved = sorted({r[0] for r in buf.motion} | {r[0] for r in buf.presence})
        moved = [a for a in moved if self.present[a]]
        idx = np.nonzero(self.present)[0]
        if not moved or len(idx) < 2:
            return
        d = np.hypot(*(self.pos[moved][:, None, :] - self.pos[idx][None, :, :]).transpose(2, 0, 1))
        seen: set[tuple[int, int]] = set()
        for i, j in zip(*np.nonzero(d < OVERLAP)):
            a, b = sorted((moved[i], int(idx[j])))
            if a == b or (a, b) in seen:
                continue
            seen.add((a, b))
            x, y = self.s.cast[a], self.s.cast[b]
            self.out.warn(step.loc, f"{x.name} ({x.id}) and {y.name} ({y.id}) stand "
                                    f"{d[i, j]:.1f} 尺 apart at the end of this step")

    # ---- arrays ----
    def timeline(self, stages, steps) -> Timeline:
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
        }
        events = [Event(a, b, k, w, s, d) for a, b, k, w, s, d in self.kf.events]
        if self.new_legs and self.legs_salt is not None:
            store_blob("legs", self.legs_salt, self.legs)
        tl = Timeline(
            [ActorInfo(a.id, a.name, a.party, a.label, a.note) for a in self.s.cast],
            [PropInfo(p.id, p.name, p.kind, p.bundle) for p in self.s.props],
            stages, steps, channels, events, self.t, self.label_names)
        tl.thing_names = tuple(self.thing_names)
        tl.scoring = {"seed": self.s.seed, "scenario": dict(self.s.scenario),
                      "sides": dict(self.s.sides), "skills": dict(self.s.skills),
                      "shots": self.shot_log, "results": self.results}
        self.check_boundaries(tl)
        return tl

    def check_boundaries(self, tl: Timeline) -> None:
        """Nobody and nothing jumps where one stage hands over to the next, unless the next
        declares a gap in the text (and so may set the scene anew)."""
        for prev, st in zip(tl.stages, tl.stages[1:]):
            if st.gap:
                continue
            a, b = tl.sample(prev.t1, closing=True), tl.sample(st.t0)
            loc = self.s.stages[st.index].loc
            moved = np.hypot(*(a.xy - b.xy).T) > JUMP
            for i in np.nonzero((a.present != b.present) | ((a.present & b.present) & moved))[0]:
                self.out.warn(loc, f"{tl.actors[i].name} ({tl.actors[i].id}) jumps where "
                                   f"{prev.name} hands over to {st.name}")
            shown = a.prop_visible | b.prop_visible
            pm = (np.hypot(*(a.prop_xy - b.prop_xy).T) > JUMP) | (a.prop_visible != b.prop_visible)
            for j in np.nonzero(shown & pm & (b.prop_holder != FLYING))[0]:
                self.out.warn(loc, f"{tl.props[j].name} ({tl.props[j].id}) jumps where "
                                   f"{prev.name} hands over to {st.name}")


def _chan(rows: list, interp: str, span: float, owners: int, *names: str):
    """Rows (owner, t, *values, writer) → a channel."""
    if not rows:
        return build_channel([], [], interp, span, owners, **{k: [] for k in names})
    cols = list(zip(*rows))
    return build_channel(list(cols[0]), list(cols[1]), interp, span, owners, list(cols[-1]),
                         **{k: list(c) for k, c in zip(names, cols[2:-1])})


def compile_script(script: Script, layout, out: Collector | None = None) -> Timeline:
    """The one compile: a Timeline whose sample(t) is a look-up, never a replay."""
    return Compiler(script, layout, out).run()
