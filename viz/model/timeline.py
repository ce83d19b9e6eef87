"""The compiled rite: named keyframe channels and an event table, and sample(t), everyone at t."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

POSTURES = ("立", "坐", "拜", "揖")
SET_DOWN = -1  # a prop's holder when it lies somewhere
FLYING = -2  # … when it is in flight (an arrow)
WORN_ON = -3  # … when someone wears it (the "wear" channel says who; not drawn as a prop)
INTERPS = ("step", "linear")
# the channels every timeline has; any other channel is sampled generically into Frame.values
STANDARD = ("motion", "posture", "presence", "props", "label")
FLOAT_COLS = ("T", "S0", "S1", "S2", "A0", "A1", "A2", "W")
CHECKPOINT = 8  # sample(t) starts from each owner's rows as they stood every 2**8 changes
REFRESH = 4  # … and every 2**(8 + 4) changes a copy of every owner's current row is made


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
    body: str = ""  # the cast's bodies: (三耦, 衆賔, 工 …); drawing only, not in state --json


@dataclass(frozen=True)
class PropInfo:
    id: str
    name: str
    kind: str
    bundle: str = ""  # the bundle this prop is one of (乘矢 → four 矢), or ""
    worn: str = ""  # where it is worn (首 身 足) when it is a worn thing (don, doff), or ""


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
    said: bool = True  # False: a move the text does not say; it enacts no clause (span: the
    # citing step's words, for the panel)
    rep: int = 0  # the member's number when the citing step repeats (each:), else 0


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



_NONE = (np.inf, -np.inf, None)  # no stretch sampled yet


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
        # sample(t) reads everyone's state from a few tables built here (_direct_tables): each
        # owner's keyframe current at t is found by one search over every channel's changes in
        # order of time, from a checkpoint; what moves is worked out from that keyframe's slope.
        # Between two changes the rows found stay current: playing reuses them.
        self._current: tuple = _NONE  # (from, to, (frame, rows)): the stretch sampled last
        self._fast = all(c.interp == "step" for name, c in self.channels.items()
                         if name not in STANDARD)
        self._direct = _direct_tables(self) if self._fast else None

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
        if closing or self._direct is None:
            return self._full(t, closing)
        lo, hi, seg = self._current
        if not lo < t < hi:  # playing stays between two changes for many frames
            return self._sample_direct(t)
        f, rows = seg  # the rows found there are still current: only what moves is new
        out = object.__new__(Frame)  # a copy of that frame with what moves updated:
        out.__dict__.update(f.__dict__)  # dataclasses.replace would re-run every field's init
        out.__dict__.update(_moved(*rows, t))
        return out

    def _sample_direct(self, t: float) -> Frame:
        """sample(t) from the tables of _direct_tables: each owner's row current at t (a
        checkpoint, moved on by the changes since), each table gathered once; what moves is a
        row's value plus its slope times the time since its keyframe."""
        d = self._direct
        ev_t = d["ev_t"]
        k = int(ev_t.searchsorted(t, side="right"))  # changes at or before t
        c = k >> CHECKPOINT
        i = d["checkpoints"][c].copy()
        s = c << CHECKPOINT
        if k > s:  # an owner's rows grow with time: his current one is the largest applied
            np.maximum.at(i, d["ev_owner"][s:k], d["ev_row"][s:k])
        n, m = len(self.actors), len(self.props)
        nf, ni, nb, no = d["owners"]
        # one row per owner of motion, props and posture (see _direct_tables), as columns
        g = d["float"].take(i[:nf], axis=0).T.copy()
        gi = g[2:8, n:].astype(np.int64)  # props: holder, src, visibility; posture: code …
        src = gi[4, :m]  # where a prop's x, y come from: its holder's or its own
        bools = d["bool"].take(i[ni:nb])  # present, then True and False (a prop's visibility)
        objs = d["object"].take(i[nb:no]).tolist()  # labels, hands, (events, captions), step,
        # stage
        values = {name: ({col: gi[row, lo:hi] if row >= 0 else np.zeros(hi - lo)
                          for col, row in cols} if lo >= 0 else
                         self.channels[name].sample(self.channels[name].owners, t))
                  for name, lo, hi, cols in d["values"]}
        events, caps = objs[2 * n]
        nm = n + m
        rows = (g[0], g[1:4], g[4:7], src, n, nm)  # whole rows: contiguous
        out = object.__new__(Frame)
        out.__dict__.update(
            _moved(*rows, t), stage=objs[2 * n + 2], step=objs[2 * n + 1],
            present=bools[:n], posture=gi[0, m:m + n], count=gi[1, m:m + n],
            moving=g[7, :n] < t,
            holding=tuple(objs[n:2 * n]), prop_holder=gi[1, :m],
            prop_visible=bools.take(gi[5, :m]), captions=caps, labels=tuple(objs[:n]),
            values=values, events=events, seated=gi[3, m:m + n] != 0)
        lo, hi = ev_t[k - 1:k + 1].tolist() if 0 < k < len(ev_t) else (
            float(ev_t[k - 1]) if k else -np.inf, float(ev_t[k]) if k < len(ev_t) else np.inf)
        if lo < t:  # the rows stay current until the next change: kept for playing on
            self._current = (lo, hi, (out, rows))
        return out

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

def _moved(t0: np.ndarray, slope: np.ndarray, value: np.ndarray, src: np.ndarray, n: int,
           nm: int, t: float) -> dict:
    """What moves, at t, from the float rows current at t (motion, props, posture: see
    _sample_direct): value + slope × the time since the keyframe, the same way whether the
    rows were found for this sample or kept from one before it."""
    cur = value + (t - t0) * slope
    return {"t": t, "xy": cur[:2, :n].T, "facing": np.mod(cur[2, :n], 360.0),
            "phase": np.minimum(cur[0, nm:nm + n], 1.0),
            "prop_xy": cur[:2, :nm].take(src, axis=1).T}


def _objects(items: Sequence) -> np.ndarray:
    """A 1-d object array of these items (tuples stay items, not rows)."""
    out = np.empty(len(items), object)
    for k, v in enumerate(items):
        out[k] = v
    return out


def _before_first(ch: Channel, owners: int) -> np.ndarray:
    """The row lookup() falls on for an owner with no keyframe yet at t: the last row of an
    owner before him (or row 0). Its step values are not his (ok is False), but motion and
    props read its x, y as they stand, and posture its t."""
    return np.maximum(ch.owner.searchsorted(np.arange(owners), side="left") - 1, 0)


def _next_row(ch: Channel) -> tuple[np.ndarray, np.ndarray]:
    """Each row's next row and whether that is the same owner's next keyframe."""
    k = np.arange(len(ch.t))
    j = np.minimum(k + 1, max(len(ch.t) - 1, 0))
    return j, (j > k) & (ch.owner[j] == ch.owner)


def _hands(tl: Timeline, holder: np.ndarray, n: int, m: int) -> tuple[list, list, list]:
    """What each actor holds (Frame.holding) as a step channel of its own: his tuple of prop
    ids from each instant it changes. → keyframe t, actor, tuple."""
    ch = tl.channels["props"]
    keep = (ch.owner >= 0) & (ch.owner < m)
    o, t, h = ch.owner[keep], ch.t[keep], holder[keep]
    if not len(o):
        return [], [], []
    last = np.r_[(o[1:] != o[:-1]) | (t[1:] != t[:-1]), True]  # the row in effect at t
    o, t, h = o[last], t[last], h[last]
    prev = np.r_[SET_DOWN, h[:-1]]
    prev[np.r_[True, o[1:] != o[:-1]]] = SET_DOWN
    chg = (h != prev) & ((h >= 0) | (prev >= 0))
    order = np.argsort(t[chg], kind="stable")
    held: list[set[int]] = [set() for _ in range(n)]
    seen: dict[tuple, tuple] = {}
    out_t, out_a, out_v = [], [], []
    ids = tl._prop_ids

    def flush(at: float, touched: set[int]) -> None:
        for a in sorted(touched):
            v = tuple(ids[j] for j in sorted(held[a]))
            out_t.append(at), out_a.append(a), out_v.append(seen.setdefault(v, v))
    at, touched = None, set()
    for tk, p, hk, pk in zip(*(x[chg][order].tolist() for x in (t, o, h, prev))):
        if tk != at:
            if touched:
                flush(at, touched)
            at, touched = tk, set()
        if pk >= 0:
            held[pk].discard(p)
            touched.add(pk)
        if hk >= 0:
            held[hk].add(p)
            touched.add(hk)
    if touched:
        flush(at, touched)
    return out_t, out_a, out_v


def _live_events(tl: Timeline) -> tuple[list, list]:
    """The events live at t (t0 <= t < t1) and their captions, from each instant they change.
    → instants, (events, captions) pairs."""
    t0, t1 = tl._ev_t0.tolist(), tl._ev_t1.tolist()
    out_t, out_v = [], []
    active: set[int] = set()
    p, last = 0, ()
    for u in np.unique(np.r_[tl._ev_t0, tl._ev_t1]).tolist():
        while p < len(t0) and t0[p] <= u:
            active.add(p)
            p += 1
        active = {j for j in active if t1[j] > u}
        live = tuple(sorted(active))
        if live != last:
            evs = tuple(tl.events[j] for j in live)
            out_t.append(u)
            out_v.append((evs, tuple((e.actor, e.text) for e in evs if e.kind == "say")))
            last = live
    return out_t, out_v


def _direct_tables(tl: Timeline) -> dict | None:
    """The tables sample(t) reads (see _sample_direct), or None where it would not give what
    _full gives (no actors; keys that do not keep owners apart; a holder or label out of
    range; steps not in order of time): sample() then works everything out by _full.

    Three tables, each with owners of its own (global owner numbers follow on: floats, bools,
    objects), each owner's rows in order of time after one row per owner for "no keyframe
    yet": floats, 64 bytes a row (FLOAT_COLS: t0, slope ×3, value ×3, W) for motion (x, y,
    facing; W: the t after which he walks), props (x, y; S2 holder, A2 where its x, y come
    from, W where its visibility comes from), posture (a bow's phase; S1 code, S2 count, A1
    seated) and the other step channels (their int values in S1 …); bools (present, then True
    and False); objects (labels, what each holds, the events live and their captions, step,
    stage). The changes: (t, owner, row) of every keyframe in order of time; checkpoints:
    every owner's row after every 2**CHECKPOINT changes."""
    n, m = len(tl.actors), len(tl.props)
    holder = tl._packed["props"][:, 0].astype(int)
    lab = tl.channels["label"]
    codes = (np.asarray(lab.values["label"]).astype(int) if len(lab.values.get("label", ()))
             else np.full(len(lab.t), -1))
    if not _direct_fits(tl, holder, codes):
        return None
    fparts = [_motion_part(tl), _props_part(tl, holder), _posture_part(tl)]
    more, values, slow, nf = _value_parts(tl, n + m + n)
    fparts += more
    ni = nf
    # bools: present, then two owners that never change, True and False
    pres = tl.channels["presence"]
    pv = (np.asarray(pres.values["present"]) != 0 if len(pres.values.get("present", ()))
          else np.zeros(len(pres.t), bool))
    bparts = [(ni, (np.r_[np.zeros(n, bool), True, False],), pres.t, pres.owner, (pv,),
               _mine(pres, n))]
    nb = ni + n + 2
    oparts = _object_parts(tl, nb, holder, codes, slow)
    no = nb + 2 * n + 3 + len(slow)
    t, own, row, tables, checkpoints = _changes([fparts, bparts, oparts], no)
    return {"ev_t": t, "ev_owner": own, "ev_row": row, "checkpoints": checkpoints,
            "owners": (nf, ni, nb, no), "float": _aligned(tables[0]), "bool": tables[1],
            "object": tables[2], "values": values}


def _direct_fits(tl: Timeline, holder: np.ndarray, codes: np.ndarray) -> bool:
    """Would the direct tables give what _full gives? Not with no actors, keys that do not keep
    owners apart (a t outside its channel's span), a holder or label out of range, or steps
    or stages not in order of time."""
    for c in tl.channels.values():
        if len(c.t) and (np.isnan(c.t).any() or c.t.min() < 0 or c.t.max() >= c.span
                         or tl.duration >= c.span):
            return False
    n = len(tl.actors)
    return not (not n or (holder >= n).any() or (codes >= len(tl._labels)).any()
                or (np.diff(tl._step_t0) < 0).any() or (np.diff(tl._stage_t0) < 0).any())


def _fl(k: int, **cols) -> np.ndarray:
    """k float rows: T S0 S1 S2 A0 A1 A2 W, by name (the rest 0)."""
    out = np.zeros((k, 8))
    for name, v in cols.items():
        out[:, FLOAT_COLS.index(name)] = v
    return out


def _mine(c: Channel, owners: int) -> np.ndarray:
    """The keyframes of a channel's owners (0 … owners - 1)."""
    return (c.owner >= 0) & (c.owner < owners)


# A part of a table: (its first global owner, (its rows for "no keyframe yet",), the keyframes'
# t, their owners, (their rows,), which keyframes are kept).

def _motion_part(tl: Timeline) -> tuple:
    """motion: x, y, facing (unwrapped) move straight to the owner's next keyframe; W: the t
    after which he walks (inf: he does not). Owners from 0."""
    n, inf = len(tl.actors), np.inf
    mo, pm = tl.channels["motion"], tl._packed["motion"]
    r = _before_first(mo, n)  # lookup() falls there for one with no keyframe yet
    j, nxt = _next_row(mo)
    span = np.where(nxt & (mo.t[j] > mo.t), mo.t[j] - mo.t, inf)
    d = np.where((span < inf)[:, None], pm[j] - pm, 0.0) / span[:, None]
    walk = np.where((span < inf) & ((d[:, 0] != 0) | (d[:, 1] != 0)), mo.t, inf)
    fb = (_fl(n, T=mo.t[r], A0=pm[r, 0], A1=pm[r, 1], A2=pm[r, 2], W=inf) if len(mo.t) else
          _fl(n, W=inf))
    return (0, (fb,), mo.t, mo.owner, (_fl(len(mo.t), T=mo.t, S0=d[:, 0], S1=d[:, 1],
                                           S2=d[:, 2], A0=pm[:, 0], A1=pm[:, 1],
                                           A2=pm[:, 2], W=walk),), _mine(mo, n))


def _props_part(tl: Timeline, holder: np.ndarray) -> tuple:
    """props: an arrow in flight moves straight to its next keyframe, the rest stay put (or
    are where their holder is); holder, where its x, y come from (its holder's or its own)
    and where its visibility does (its holder's presence, True or False: bools). Owners from
    the number of actors."""
    n, m, inf = len(tl.actors), len(tl.props), np.inf
    pr, pp = tl.channels["props"], tl._packed["props"]
    r = _before_first(pr, m)
    j, nxt = _next_row(pr)
    fly = (holder == FLYING) & nxt
    span = np.where(fly, np.where(pr.t[j] > pr.t, pr.t[j] - pr.t, 1.0), inf)
    d = np.where(fly[:, None], pp[j, 1:3] - pp[:, 1:3], 0.0) / span[:, None]
    held = holder >= 0
    own = np.arange(m)
    fb = _fl(m, T=pr.t[r] if len(pr.t) else 0.0, A0=pp[r, 1] if len(pr.t) else 0.0,
             A1=pp[r, 2] if len(pr.t) else 0.0, S2=SET_DOWN, A2=n + own, W=n + 1)
    return (n, (fb,), pr.t, pr.owner, (_fl(
        len(pr.t), T=pr.t, S0=d[:, 0], S1=d[:, 1], A0=pp[:, 1], A1=pp[:, 2], S2=holder,
        A2=np.where(held, holder, n + pr.owner),
        W=np.where(pp[:, 3] != 0, np.where(held, holder, n), n + 1)),), _mine(pr, m))


def _posture_part(tl: Timeline) -> tuple:
    """posture: a bow's phase is (t - t0) / its length (0 for other postures); code, count
    (bows in a gesture), seated. Owners after the actors' and props'."""
    n, m = len(tl.actors), len(tl.props)
    po, pq = tl.channels["posture"], tl._packed["posture"]
    r = _before_first(po, n)
    code = pq[:, 0].astype(int)
    gesture = (code >= 2) & (pq[:, 1] > po.t)
    return (n + m, (_fl(n, T=po.t[r] if len(po.t) else 0.0),), po.t, po.owner, (_fl(
        len(po.t), T=po.t, S0=np.where(gesture, 1.0 / np.where(gesture, pq[:, 1] - po.t, 1.0),
                                       0.0),
        S1=code, S2=np.where(gesture, pq[:, 2], 0).astype(int),
        A1=(pq[:, 3] != 0) | (code == 1)),), _mine(po, n))


def _value_parts(tl: Timeline, g: int) -> tuple[list, list, list, int]:
    """The other channels, owners from g: up to six columns of ints (exact as floats) in the
    slots after S0 → their parts, the values table ((name, first owner, end, columns) each,
    -1 for one sampled the long way), the channels sampled the long way, and the owner after
    their last."""
    n = len(tl.actors)
    parts, values, slow = [], [], []
    for name, c in tl.channels.items():
        if name in STANDARD:
            continue
        kinds = [("zeros" if not len(v) else "int" if len(v) == len(c.t) and
                  np.where(np.ones(1, bool), np.asarray(v)[:1], 0).dtype == np.int64 and
                  np.abs(np.asarray(v, np.int64)).max() < 2 ** 53 else "slow")
                 for v in c.values.values()]
        if "slow" in kinds or not len(c.t) or len(kinds) > 6:  # sampled the long way
            values.append((name, -1, -1, ()))
            slow.append(c)
            continue
        slots = {FLOAT_COLS[2 + k]: np.asarray(v, np.int64) for k, (v, kd) in
                 enumerate(zip(c.values.values(), kinds)) if kd == "int"}
        parts.append((g, (_fl(c.owners),), c.t, c.owner, (_fl(len(c.t), **slots),),
                      _mine(c, c.owners)))
        values.append((name, g - n, g - n + c.owners,
                       tuple((col, k if kd == "int" else -1) for k, (col, kd) in
                             enumerate(zip(c.values, kinds)))))
        g += c.owners
    return parts, values, slow, g


def _object_parts(tl: Timeline, nb: int, holder: np.ndarray, codes: np.ndarray,
                  slow: list) -> list:
    """objects, owners from nb: labels, what each holds, the events live and their captions,
    step, stage, and for each channel sampled the long way its instants of change (None)."""
    n, m = len(tl.actors), len(tl.props)
    z = np.zeros
    lab = tl.channels["label"]
    lab_v = [tl._labels[k if k >= 0 else len(tl.label_names) + a]
             for k, a in zip(codes.tolist(), lab.owner.tolist())] if len(lab.t) else []
    hand_t, hand_a, hand_v = _hands(tl, holder, n, m)
    ev_t, ev_v = _live_events(tl)
    oparts = [(nb, (_objects(tl._labels[len(tl.label_names):].tolist()),), lab.t, lab.owner,
               (_objects(lab_v),), _mine(lab, n)),
              (nb + n, (_objects([()] * n),), hand_t, hand_a, (_objects(hand_v),),
               np.ones(len(hand_t), bool)),
              (nb + 2 * n, (_objects([((), ())]),), ev_t, z(len(ev_t), int), (_objects(ev_v),),
               np.ones(len(ev_t), bool)),
              (nb + 2 * n + 1, (_objects([0]),), tl._step_t0, z(len(tl._step_t0), int),
               (_objects(list(range(len(tl._step_t0)))),), np.ones(len(tl._step_t0), bool)),
              (nb + 2 * n + 2, (_objects([0]),), tl._stage_t0, z(len(tl._stage_t0), int),
               (_objects(list(range(len(tl._stage_t0)))),), np.ones(len(tl._stage_t0), bool))]
    oparts += [(nb + 2 * n + 3 + k, (_objects([None]),), c.t, z(len(c.t), int),
                (_objects([None] * len(c.t)),), np.ones(len(c.t), bool))
               for k, c in enumerate(slow)]
    return oparts


def _changes(tables_parts: list[list], no: int) -> tuple:
    """Every change in order of time, from the three tables' parts (floats, bools, objects);
    each owner's rows grow with time in its table, and a copy of every owner's current row is
    made every 2**(CHECKPOINT + REFRESH) changes (so the rows current at any t lie near each
    other, however long the rite) → the changes' t, owner and row, the three tables, and the
    checkpoints (every owner's row after every 2**CHECKPOINT changes; no owners in all)."""
    fams = []
    for parts in tables_parts:
        sel = [p[5] for p in parts]
        fams.append((parts[0][0], np.concatenate([p[1][0] for p in parts]),
                     np.concatenate([np.asarray(p[2], float)[s] for p, s in zip(parts, sel)]),
                     np.concatenate([p[0] + np.asarray(p[3], np.int64)[s]
                                     for p, s in zip(parts, sel)]),
                     np.concatenate([p[4][0][s] for p, s in zip(parts, sel)])))
    fam = np.concatenate([np.full(len(f[2]), k) for k, f in enumerate(fams)])
    t = np.concatenate([f[2] for f in fams])
    order = np.argsort(t, kind="stable")
    t, fam = t[order], fam[order]
    own = np.concatenate([f[3] for f in fams])[order]
    period = 1 << (CHECKPOINT + REFRESH)
    blocks = max(len(t) - 1, 0) // period  # refreshes, before changes period, 2 period …
    row = np.empty(len(t), np.int64)
    tables, starts = [], []
    for k, (g0, fb, _, _, payload) in enumerate(fams):
        at = np.flatnonzero(fam == k)  # this table's changes, by their place in the order
        size = len(fb)
        row[at] = size + np.arange(len(at)) + at // period * size
        table = np.empty((size + len(at) + blocks * size, *fb.shape[1:]), fb.dtype)
        table[:size] = fb
        table[row[at]] = payload[order[at] - _offset(fams, k)]
        tables.append(table)
        starts.append(size + at.searchsorted(np.arange(1, blocks + 1) * period)
                      + np.arange(blocks) * size)
    state = np.concatenate([np.arange(len(f[1])) for f in fams]).astype(np.int32)
    own, row = own.astype(np.int32), row.astype(np.int32)
    checkpoints = np.empty(((len(t) >> CHECKPOINT) + 1, no), np.int32)
    checkpoints[0] = state
    for k in range(1, len(checkpoints)):
        s = slice((k - 1) << CHECKPOINT, k << CHECKPOINT)
        np.maximum.at(state, own[s], row[s])
        p = (k << CHECKPOINT) // period
        if not (k << CHECKPOINT) % period and p <= blocks:  # copies of the current rows
            for table, (g0, fb, *_), first in zip(tables, fams, starts):
                rows = first[p - 1] + np.arange(len(fb))
                table[rows] = table[state[g0:g0 + len(fb)]]
                state[g0:g0 + len(fb)] = rows
        checkpoints[k] = state
    return t, own, row, tables, checkpoints


def _offset(fams: list, k: int) -> int:
    """Where table k's keyframes begin among all tables' keyframes, in their first order."""
    return sum(len(f[2]) for f in fams[:k])


def _aligned(a: np.ndarray) -> np.ndarray:
    """A copy of a whose rows (64 bytes of floats) each lie in one cache line."""
    buf = np.empty(a.size + 8, a.dtype)
    k = (-buf.ctypes.data % 64) // a.itemsize
    out = buf[k:k + a.size].reshape(a.shape)
    out[...] = a
    return out


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
