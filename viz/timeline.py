"""The compiled rite: named keyframe channels and an event table, and sample(t), everyone at t."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

POSTURES = ("立", "坐", "拜", "揖")
SET_DOWN = -1  # a prop's holder when it lies somewhere
FLYING = -2  # … when it is in flight (an arrow)
INTERPS = ("step", "linear")
# the channels every timeline has; any other channel is sampled generically into Frame.values
STANDARD = ("motion", "posture", "presence", "props", "label")
SEGMENTS = 512  # segments (stretches between changes) whose slopes are kept for fast samples


# the "score" channel's owners: the round under way, the 算 laid right and left in it, and the
# music's beat and 終 (0 when no music is playing)
SCORE_OWNERS = ("round", "右", "左", "beat", "終")

@dataclass(frozen=True)
class ActorInfo:
    id: str
    name: str
    party: str
    label: str
    note: str = ""


@dataclass(frozen=True)
class PropInfo:
    id: str
    name: str
    kind: str
    bundle: str = ""  # the bundle this prop is one of (乘矢 → four 矢), or ""


@dataclass(frozen=True)
class StageSpan:
    index: int
    name: str
    section: str
    t0: float
    t1: float
    first_step: int
    last_step: int  # inclusive
    labels: tuple[str, ...] = ()  # each actor's label as the stage opens
    gap: str = ""  # the sections before this stage that are not enacted ("6–13"), if any


@dataclass(frozen=True)
class StepSpan:
    index: int
    stage: int
    t0: float
    t1: float
    cite: str
    span: tuple[int, int]  # offsets of the cited words in the corpus' plain text
    captions: tuple[str, ...]
    loc: str  # file:line:col of the step in the script
    pattern: str = ""  # the pattern this step came from, if any
    note: str = ""
    reading: str = "鄭"  # the reading this step follows (a variant's, when one was chosen)


@dataclass(frozen=True)
class Frame:
    """Everyone's state at one moment. Arrays are indexed like Timeline.actors / .props."""

    t: float
    stage: int
    step: int
    present: np.ndarray
    xy: np.ndarray
    facing: np.ndarray
    posture: np.ndarray
    phase: np.ndarray
    count: np.ndarray  # bows in the current gesture (再拜 = 2); 1 for a 揖; 0 otherwise
    moving: np.ndarray
    holding: tuple[tuple[str, ...], ...]
    prop_xy: np.ndarray
    prop_holder: np.ndarray
    prop_visible: np.ndarray
    captions: tuple[tuple[int, str], ...]
    labels: tuple[str, ...] = ()  # each actor's label at this moment (相 → 司正 → 司馬)
    values: Mapping[str, Mapping[str, np.ndarray]] = field(default_factory=dict)  # other channels
    events: tuple[Event, ...] = ()  # events live at t (calls, captions …)
    seated: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))  # kneeling (坐), also
    # while he bows or salutes from there (坐奠觶，拜)


@dataclass(frozen=True)
class Event:
    """Something that happens over [t0, t1): a caption, a call, a hit. actor -1 for nobody."""

    t0: float
    t1: float
    kind: str
    actor: int
    text: str
    data: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Channel:
    """Keyframes of many owners in one flat array, sorted by (owner, t), for one searchsorted.

    interp "step" holds each keyframe's values until the next; "linear" interpolates numeric
    values between an owner's consecutive keyframes. The sort keys owner × span + t are built
    once, so a look-up costs one searchsorted whatever the rite's length."""

    owner: np.ndarray  # (K,) int
    t: np.ndarray  # (K,) float
    values: dict[str, np.ndarray] = field(default_factory=dict)
    interp: str = "step"
    span: float = 1.0  # separates owners in the sort key: more than the rite's duration
    keys: np.ndarray = field(default_factory=lambda: np.zeros(0))
    owners: int = 0  # how many owners (actors, props, sides …) the channel has
    writer: np.ndarray = field(default_factory=lambda: np.zeros(0, int))  # step that wrote each

    def lookup(self, n_owners: int, t: float,
               closing: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Index of each owner's last keyframe at or before t, and whether it has one.
        closing = a step's index: keyframes at exactly t written by later steps are not yet
        applied (the state as that step, ending at t, left it, not as the next one begins)."""
        if not len(self.t):
            return np.zeros(n_owners, int), np.zeros(n_owners, bool)
        base = _owner_base(n_owners)
        i = self.keys.searchsorted(_query_base(n_owners, self.span) + t, side="right")
        i -= 1
        if closing is not None and len(self.writer):
            for _ in range(len(self.t)):  # a few keyframes at most share one owner and instant
                j = np.maximum(i, 0)
                later = (i >= 0) & (self.owner[j] == base) & (self.t[j] == t) & \
                    (self.writer[j] > closing)
                if not later.any():
                    break
                i = np.where(later, i - 1, i)
        before_all = i < 0
        np.maximum(i, 0, out=i)
        # an owner with no keyframe at or before t finds another owner's (or none at all)
        ok = (self.owner[i] == base) & ~before_all
        return i, ok

    def get(self, name: str, i: np.ndarray, ok: np.ndarray, default: float) -> np.ndarray:
        """values[name][i] where the owner has a keyframe, else the default (also when empty)."""
        v = self.values.get(name, ())
        if not len(v):
            return np.full(len(i), default, dtype=float)
        return np.where(ok, v[i], default)

    def sample(self, n_owners: int, t: float, closing: int | None = None) -> dict[str, np.ndarray]:
        """Every value of every owner at t, interpolated as the channel says."""
        i, ok = self.lookup(n_owners, t, closing)
        if self.interp == "step" or not len(self.t):
            return {k: self.get(k, i, ok, 0) for k in self.values}
        j = np.minimum(i + 1, len(self.t) - 1)
        nxt = ok & (j > i) & (self.owner[j] == self.owner[i])
        t0, t1 = self.t[i], self.t[j]
        with np.errstate(invalid="ignore", divide="ignore"):
            a = np.clip(np.where(nxt & (t1 > t0), (t - t0) / (t1 - t0), 0.0), 0.0, 1.0)
        return {k: np.where(ok, v[i] + a * (v[j] - v[i]) * nxt, 0.0) for k, v in self.values.items()}


_BASES: dict[int, np.ndarray] = {}
_QUERY: dict[tuple[int, float], np.ndarray] = {}


def _query_base(n: int, span: float) -> np.ndarray:
    """owner × span for every owner: the sort key of each owner's t = 0."""
    q = _QUERY.get((n, span))
    if q is None:
        q = _QUERY[(n, span)] = np.arange(n) * span
    return q


def _owner_base(n: int) -> np.ndarray:
    b = _BASES.get(n)
    if b is None:
        b = _BASES[n] = np.arange(n)
    return b


def build_channel(owner: Sequence[int], t: Sequence[float], interp: str = "step",
                  span: float = 1e6, owners: int | None = None, writer: Sequence[int] = (),
                  **values: Sequence) -> Channel:
    """Sort keyframes once into the flat layout sample() searches (later writes at equal t win).
    span must exceed every t; owners defaults to one more than the largest owner; writer is
    the step that wrote each keyframe (-1 before any), for closing samples."""
    if interp not in INTERPS:
        raise ValueError(f"interp must be one of {INTERPS}, not {interp!r}")
    o, tt = np.asarray(owner, dtype=np.int64), np.asarray(t, dtype=np.float64)
    order = np.lexsort((np.arange(len(tt)), tt, o))
    vals = {k: np.asarray(v)[order] if len(v) else np.asarray(v) for k, v in values.items()}
    o, tt = o[order], tt[order]
    n = owners if owners is not None else (int(o.max()) + 1 if len(o) else 0)
    w = np.asarray(writer, dtype=np.int64)[order] if len(writer) else np.zeros(0, np.int64)
    return Channel(o, tt, vals, interp, float(span), o * float(span) + tt, n, w)



_NONE = (np.inf, -np.inf, None)  # no segment sampled yet


class Timeline:
    """Arrays compiled once from a script; sample(t) reads them and never accumulates state.

    channels: "motion" (linear: x, y, face per actor), "posture" (step: code, end, count,
    seated),
    "presence" (step: present), "props" (step: holder, x, y, visible per prop; an arrow in
    flight moves straight to its next keyframe), "label" (step: index into label_names), and
    any others a compiler adds (tallies, beats …), each sampled into Frame.values by name.
    events: captions and other timed happenings, in order of t0."""

    thing_names: tuple[str, ...] = ()  # owners of the "things" channel (features set out)
    scoring: Mapping | None = None  # the compile's shots and results (score, state --json)

    def __init__(self, actors, props, stages, steps, channels: Mapping[str, Channel],
                 events: Sequence[Event], duration: float, label_names: Sequence[str] = ()):
        self.actors: tuple[ActorInfo, ...] = tuple(actors)
        self.props: tuple[PropInfo, ...] = tuple(props)
        self.stages: tuple[StageSpan, ...] = tuple(stages)
        self.steps: tuple[StepSpan, ...] = tuple(steps)
        self.duration = float(duration)
        self.channels: dict[str, Channel] = dict(channels)
        for name in STANDARD:
            self.channels.setdefault(name, build_channel([], []))
        self.events: tuple[Event, ...] = tuple(sorted(events, key=lambda e: (e.t0, e.t1)))
        self._ev_t0 = np.array([e.t0 for e in self.events], float)
        self._ev_t1 = np.array([e.t1 for e in self.events], float)
        # the longest event: those live at t began at most this long before it
        self._ev_long = float((self._ev_t1 - self._ev_t0).max()) if len(self.events) else 0.0
        self.label_names: tuple[str, ...] = tuple(label_names)
        # the standard channels' values packed into one table each, so a sample gathers once
        self._packed = {name: _pack(self.channels[name], cols) for name, cols in
                        (("motion", ("x", "y", "face")), ("posture", ("code", "end", "count",
                                                                      "seated")),
                         ("props", ("holder", "x", "y", "visible")))}
        # a label code per keyframe, or the actor's own label (index L + actor) before any
        self._labels = np.array([*self.label_names, *(a.label for a in self.actors)], object)
        self._prop_ids = [p.id for p in self.props]
        says = [e for e in self.events if e.kind == "say"]
        # the speech captions as arrays (t0, t1, actor) and a list (text), for whoever lists them
        self.captions = {"t0": np.array([e.t0 for e in says], float),
                         "t1": np.array([e.t1 for e in says], float),
                         "actor": np.array([e.actor for e in says], dtype=int),
                         "text": [e.text for e in says]}
        self._step_t0 = np.array([s.t0 for s in self.steps]) if self.steps else np.zeros(0)
        self._stage_t0 = np.array([s.t0 for s in self.stages]) if self.stages else np.zeros(0)
        self.actor_index = {a.id: i for i, a in enumerate(self.actors)}
        self.prop_index = {p.id: i for i, p in enumerate(self.props)}
        # Between two consecutive instants at which anything changes (a keyframe of any
        # channel, an event's start or end, a step's start), every value is constant or
        # linear in t. A segment's constants and slopes, worked out once from two samples, make
        # each further sample in it a few array operations: playback stays in one segment for
        # many frames. (Exact boundary instants and closing samples take the full path.)
        times = [c.t for c in self.channels.values()] + [self._ev_t0, self._ev_t1]
        times += [np.array([s.t0 for s in self.steps] + [s.t0 for s in self.stages]
                           + [0.0, self.duration])]
        self._breaks = np.unique(np.concatenate(times))
        self._segments: dict[int, tuple] = {}  # by index; -1: the one sampled last (a, b, seg)
        self._fast = all(c.interp == "step" for name, c in self.channels.items()
                         if name not in STANDARD)


    def step_at(self, t: float, closing: bool = False) -> int:
        """The last step begun at or before t (0 before the first); with closing, the last
        begun before t, i.e. the one that ends at t when t is a boundary."""
        side = "left" if closing else "right"
        return max(int(np.searchsorted(self._step_t0, t, side=side)) - 1, 0)

    def stage_at(self, t: float, closing: bool = False) -> int:
        side = "left" if closing else "right"
        return max(int(np.searchsorted(self._stage_t0, t, side=side)) - 1, 0)

    def events_at(self, t: float, closing: bool = False) -> tuple[Event, ...]:
        if not len(self._ev_t0):
            return ()
        # only those begun within the longest event's length before t can be live (events
        # are in order of t0): a look-up as long for a rite a hundred times longer
        lo = int(self._ev_t0.searchsorted(t - self._ev_long, side="left"))
        hi = int(self._ev_t0.searchsorted(t, side="right"))
        t0, t1 = self._ev_t0[lo:hi], self._ev_t1[lo:hi]
        live = (t0 < t) & (t <= t1) if closing else (t0 <= t) & (t < t1)
        return tuple(self.events[lo + k] for k in np.nonzero(live)[0])

    def sample(self, t: float, closing: bool = False) -> Frame:
        """Everyone's state at t. closing=True gives the state as the step ending at t left it
        (`--after TEXT`), not the first instant of the next step."""
        t = min(max(float(t), 0.0), self.duration)
        if closing or not self._fast:
            return self._full(t, closing)
        a, b, seg = self._segments.get(-1, _NONE)
        if not a < t < b:  # playing stays in one segment for many frames: no search then
            k = int(self._breaks.searchsorted(t, side="right")) - 1
            if k < 0 or k + 1 >= len(self._breaks) or not self._breaks[k] < t:
                return self._full(t, False)
            seg = self._segments.get(k)
            if seg is None:
                seg = self._segment(k)
            self._segments[-1] = (float(self._breaks[k]), float(self._breaks[k + 1]), seg)
        f, tb, motion, phase, props = seg
        dt = t - tb
        xyf = motion[0] + dt * motion[1]
        out = object.__new__(Frame)  # a copy of the segment's frame with what moves updated:
        out.__dict__.update(f.__dict__)  # dataclasses.replace would re-run every field's init
        out.__dict__.update(t=t, xy=xyf[:, :2], facing=np.mod(xyf[:, 2], 360.0),
                            phase=(phase[0] + dt * phase[1]).clip(0.0, 1.0),
                            prop_xy=props[0] + dt * props[1])
        return out

    def _segment(self, k: int) -> tuple:
        """Segment k's frame (constants), and the values and slopes of what moves in it."""
        a, b = float(self._breaks[k]), float(self._breaks[k + 1])
        tb, tc = a + (b - a) / 3, a + 2 * (b - a) / 3
        fb = self._full(tb, False, raw_facing=True)
        # at tc only what moves is needed: worked out as _full(tc) would, the rest skipped
        n, m = len(self.actors), len(self.props)
        xy_c, facing_c, _ = self._sample_motion(n, tc, None)
        phase_c = self._sample_posture(n, tc, None)[1]
        prop_xy_c = self._sample_props(m, tc, xy_c, None)[1]
        h = tc - tb

        def slope(vb: np.ndarray, vc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            return vb, (vc - vb) / h
        motion = slope(np.column_stack([fb.xy, fb.facing]), np.column_stack([xy_c, facing_c]))
        seg = (fb, tb, motion, slope(fb.phase, phase_c), slope(fb.prop_xy, prop_xy_c))
        if len(self._segments) >= SEGMENTS:
            self._segments.pop(next(iter(self._segments)))
        self._segments[k] = seg
        return seg

    def _full(self, t: float, closing: bool, raw_facing: bool = False) -> Frame:
        """sample(t) worked out from the channels, with no segment's help."""
        n, m = len(self.actors), len(self.props)
        ch = self.channels
        step = self.step_at(t, closing)
        cut = step if closing else None
        xy, facing, moving = self._sample_motion(n, t, cut)
        posture, phase, count, seated = self._sample_posture(n, t, cut)
        pi, pok = ch["presence"].lookup(n, t, cut)
        present = ch["presence"].get("present", pi, pok, 0).astype(bool)
        holder, prop_xy, visible = self._sample_props(m, t, xy, cut)
        hands: list = [()] * n
        for j in np.flatnonzero(holder >= 0).tolist():
            k = holder[j]
            hands[k] = (*hands[k], self._prop_ids[j])
        events = self.events_at(t, closing)
        caps = tuple((e.actor, e.text) for e in events if e.kind == "say")
        li, lok = ch["label"].lookup(n, t, cut)
        codes = ch["label"].get("label", li, lok, -1).astype(int)
        labels = tuple(self._labels[np.where(codes >= 0, codes, len(self.label_names)
                                              + _owner_base(n))].tolist())
        values = {name: c.sample(c.owners, t, cut) for name, c in ch.items()
                  if name not in STANDARD}
        if not raw_facing:
            facing = np.mod(facing, 360.0)
        return Frame(t, self.stage_at(t, closing), step, present, xy, facing,
                     posture, phase, count, moving, tuple(hands), prop_xy, holder,
                     visible & _held_visible(holder, present), caps, labels, values, events,
                     seated)

    def _sample_motion(self, n: int, t: float, closing: int | None):
        ch = self.channels["motion"]
        if not len(ch.t) or not n:
            return np.zeros((n, 2)), np.zeros(n), np.zeros(n, bool)
        i, ok = ch.lookup(n, t, closing)
        j = np.minimum(i + 1, len(ch.t) - 1)
        nxt = ok & (ch.owner[j] == ch.owner[i]) & (j > i)
        t0, t1 = ch.t[i], ch.t[j]
        span = np.where(nxt & (t1 > t0), t1 - t0, np.inf)
        a = np.minimum(np.maximum((t - t0) / span, 0.0), 1.0)
        v = self._packed["motion"]
        vi, vj = v[i], v[j]
        d = vj - vi
        cur = vi + a[:, None] * d
        moving = (a > 0) & (a < 1) & ((d[:, 0] != 0) | (d[:, 1] != 0))
        return cur[:, :2], cur[:, 2], moving  # facing unwrapped: turns stay continuous

    def _sample_posture(self, n: int, t: float, closing: int | None):
        ch = self.channels["posture"]
        if not len(ch.t) or not n:
            z = np.zeros(n, int)
            return z, np.zeros(n), z, np.zeros(n, bool)
        i, ok = ch.lookup(n, t, closing)
        v = self._packed["posture"][i]
        code = np.where(ok, v[:, 0], 0).astype(int)
        start, end = ch.t[i], v[:, 1]
        gesture = ok & (code >= 2) & (end > start)  # 拜 and 揖: timed, with a phase
        dur = np.where(gesture, end - start, np.inf)
        phase = np.minimum(np.maximum((t - start) / dur, 0.0), 1.0)
        count = np.where(gesture, v[:, 2], 0).astype(int)
        seated = (ok & (v[:, 3] != 0)) | (code == 1)
        return code, phase, count, seated

    def _sample_props(self, m: int, t: float, actor_xy: np.ndarray, closing: int | None):
        if not m:
            return np.zeros(0, int), np.zeros((0, 2)), np.zeros(0, bool)
        ch = self.channels["props"]
        if not len(ch.t):
            return np.full(m, SET_DOWN), np.zeros((m, 2)), np.zeros(m, bool)
        i, ok = ch.lookup(m, t, closing)
        v = self._packed["props"][i]
        holder = np.where(ok, v[:, 0], SET_DOWN).astype(int)
        visible = ok & (v[:, 3] != 0)
        at = v[:, 1:3].copy()
        held = holder >= 0
        at[held] = actor_xy[holder[held]]
        fly = ok & (holder == FLYING)
        if fly.any():  # an arrow in flight moves in a straight line to its next keyframe
            j = np.minimum(i + 1, len(ch.t) - 1)
            fly &= (j > i) & (ch.owner[j] == ch.owner[i])
            span = np.where(fly, ch.t[j] - ch.t[i], 1.0)
            a = np.clip((t - ch.t[i]) / np.where(span > 0, span, 1.0), 0, 1)[:, None]
            dest = self._packed["props"][j][:, 1:3]
            at[fly] = (at + a * (dest - at))[fly]
        return holder, at, visible

def _pack(ch: Channel, cols: tuple[str, ...]) -> np.ndarray:
    """(K, len(cols)) float table of a channel's values (absent columns are 0)."""
    k = len(ch.t)
    return np.stack([np.asarray(ch.values[c], float) if len(ch.values.get(c, ())) else
                     np.zeros(k) for c in cols], axis=1) if k else np.zeros((0, len(cols)))


def _held_visible(holder: np.ndarray, present: np.ndarray) -> np.ndarray:
    """A prop in the hands of someone who has left is not shown."""
    if not len(holder):
        return np.zeros(0, bool)
    return np.where(holder >= 0, present[np.clip(holder, 0, None)] if len(present) else False, True)
