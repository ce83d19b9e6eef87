"""The compiled rite: keyframe arrays, and sample(t), the state of everyone at time t."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

POSTURES = ("立", "坐", "拜", "揖")
GESTURES = frozenset({2, 3})  # posture codes that are timed gestures, with a phase


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


@dataclass(frozen=True)
class StageSpan:
    index: int
    name: str
    section: str
    t0: float
    t1: float
    first_step: int
    last_step: int  # inclusive
    labels: tuple[str, ...] = ()  # each actor's label in this stage (司正 is 司馬 for the archery)


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
    labels: tuple[str, ...] = ()  # each actor's label in the current stage


@dataclass(frozen=True)
class Channel:
    """Keyframes of many owners in one flat array, sorted by (owner, t), for one searchsorted."""

    owner: np.ndarray  # (K,) int
    t: np.ndarray  # (K,) float
    values: dict[str, np.ndarray] = field(default_factory=dict)

    def lookup(self, n_owners: int, t: float, span: float,
               closing: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Index of each owner's last keyframe at or before t, and whether it has one. With
        closing, keyframes at exactly t are not yet applied: the state as what ended at t
        left it, not as what begins at t."""
        if not len(self.t):
            return np.zeros(n_owners, int), np.zeros(n_owners, bool)
        keys = self.owner * span + self.t
        q = np.arange(n_owners) * span + t
        i = np.searchsorted(keys, q, side="left" if closing else "right") - 1
        ok = (i >= 0) & (self.owner[np.clip(i, 0, None)] == np.arange(n_owners))
        return np.clip(i, 0, None), ok

    def get(self, name: str, i: np.ndarray, ok: np.ndarray, default: float) -> np.ndarray:
        """values[name][i] where the owner has a keyframe, else the default (also when empty)."""
        v = self.values.get(name, ())
        if not len(v):
            return np.full(len(i), default, dtype=float)
        return np.where(ok, v[i], default)


def build_channel(owner: list[int], t: list[float], **values: list) -> Channel:
    """Sort keyframes once into the flat layout sample() searches."""
    o, tt = np.asarray(owner, dtype=np.int64), np.asarray(t, dtype=np.float64)
    order = np.lexsort((np.arange(len(tt)), tt, o))  # stable: later writes at equal t win
    vals = {k: np.asarray(v)[order] if len(v) else np.asarray(v) for k, v in values.items()}
    return Channel(o[order], tt[order], vals)


class Timeline:
    """Arrays compiled once from a script; sample(t) reads them and never accumulates state."""

    def __init__(self, actors, props, stages, steps, motion, posture, presence, prop_state,
                 captions, duration: float):
        self.actors: tuple[ActorInfo, ...] = tuple(actors)
        self.props: tuple[PropInfo, ...] = tuple(props)
        self.stages: tuple[StageSpan, ...] = tuple(stages)
        self.steps: tuple[StepSpan, ...] = tuple(steps)
        self.duration = float(duration)
        self._span = self.duration + 10.0  # separates owners in the combined sort key
        self.motion: Channel = motion  # values: x, y, face (unwrapped degrees)
        self.posture: Channel = posture  # values: code, end (gesture end time)
        self.presence: Channel = presence  # values: present (bool)
        self.prop_state: Channel = prop_state  # values: holder, x, y, visible
        self.captions = captions  # dict: t0, t1, actor (arrays), text (list)
        self._step_t0 = np.array([s.t0 for s in self.steps]) if self.steps else np.zeros(0)
        self._stage_t0 = np.array([s.t0 for s in self.stages]) if self.stages else np.zeros(0)
        self.actor_index = {a.id: i for i, a in enumerate(self.actors)}
        self.prop_index = {p.id: i for i, p in enumerate(self.props)}

    def step_at(self, t: float, closing: bool = False) -> int:
        """The last step begun at or before t (0 before the first); with closing, the last
        begun before t, i.e. the one that ends at t when t is a boundary."""
        side = "left" if closing else "right"
        return max(int(np.searchsorted(self._step_t0, t, side=side)) - 1, 0)

    def stage_at(self, t: float, closing: bool = False) -> int:
        side = "left" if closing else "right"
        return max(int(np.searchsorted(self._stage_t0, t, side=side)) - 1, 0)

    def sample(self, t: float, closing: bool = False) -> Frame:
        """Everyone's state at t. closing=True gives the state as the step ending at t left it
        (`--after TEXT`), not the first instant of the next step."""
        t = float(np.clip(t, 0.0, self.duration))
        n, m = len(self.actors), len(self.props)
        xy, facing, moving = self._sample_motion(n, t, closing)
        posture, phase, count = self._sample_posture(n, t, closing)
        pi, pok = self.presence.lookup(n, t, self._span, closing)
        present = self.presence.get("present", pi, pok, 0).astype(bool)
        holder, prop_xy, visible = self._sample_props(m, t, xy, closing)
        hands: list[list[str]] = [[] for _ in range(n)]
        for j in np.nonzero(holder >= 0)[0]:
            hands[holder[j]].append(self.props[j].id)
        holding = tuple(tuple(h) for h in hands)
        c = self.captions
        if not len(c["t0"]):
            live = []
        elif closing:
            live = np.nonzero((c["t0"] < t) & (t <= c["t1"]))[0]
        else:
            live = np.nonzero((c["t0"] <= t) & (t < c["t1"]))[0]
        caps = tuple((int(c["actor"][k]), c["text"][k]) for k in live)
        stage = self.stage_at(t, closing)
        labels = (self.stages[stage].labels if self.stages and self.stages[stage].labels
                  else tuple(a.label for a in self.actors))
        return Frame(t, stage, self.step_at(t, closing), present, xy, facing, posture, phase, count,
                     moving, holding, prop_xy, holder, visible & _held_visible(holder, present),
                     caps, labels)

    def _sample_motion(self, n: int, t: float, closing: bool = False):
        ch = self.motion
        if not len(ch.t):
            return np.zeros((n, 2)), np.zeros(n), np.zeros(n, bool)
        i, ok = ch.lookup(n, t, self._span, closing)
        j = np.minimum(i + 1, len(ch.t) - 1)
        nxt = ok & (j > i) & (ch.owner[j] == ch.owner[i])
        t0, t1 = ch.t[i], ch.t[j]
        with np.errstate(invalid="ignore", divide="ignore"):
            a = np.where(nxt & (t1 > t0), (t - t0) / (t1 - t0), 0.0)
        a = np.clip(a, 0.0, 1.0)
        x = ch.values["x"][i] + a * (ch.values["x"][j] - ch.values["x"][i]) * nxt
        y = ch.values["y"][i] + a * (ch.values["y"][j] - ch.values["y"][i]) * nxt
        f = ch.values["face"][i] + a * (ch.values["face"][j] - ch.values["face"][i]) * nxt
        moving = nxt & (a > 0) & (a < 1) & (
            (ch.values["x"][j] != ch.values["x"][i]) | (ch.values["y"][j] != ch.values["y"][i]))
        xy = np.stack([x, y], axis=1) if n else np.zeros((0, 2))
        return xy, np.mod(f, 360.0), moving

    def _sample_posture(self, n: int, t: float, closing: bool = False):
        ch = self.posture
        i, ok = ch.lookup(n, t, self._span, closing)
        code = ch.get("code", i, ok, 0).astype(int)
        end = ch.get("end", i, ok, 0.0)
        start = ch.t[i] if len(ch.t) else np.zeros(n)
        gesture = ok & np.isin(code, list(GESTURES)) & (end > start)
        with np.errstate(invalid="ignore", divide="ignore"):
            phase = np.where(gesture, np.clip((t - start) / (end - start), 0, 1), 0.0)
        count = np.where(gesture, ch.get("count", i, ok, 1), 0).astype(int)
        return code, phase, count

    def _sample_props(self, m: int, t: float, actor_xy: np.ndarray, closing: bool = False):
        if not m:
            return np.zeros(0, int), np.zeros((0, 2)), np.zeros(0, bool)
        ch = self.prop_state
        if not len(ch.t):
            return np.full(m, -1), np.zeros((m, 2)), np.zeros(m, bool)
        i, ok = ch.lookup(m, t, self._span, closing)
        holder = np.where(ok, ch.values["holder"][i], -1).astype(int)
        visible = ok & ch.values["visible"][i].astype(bool)
        at = np.stack([ch.values["x"][i], ch.values["y"][i]], axis=1).astype(float)
        held = holder >= 0
        at[held] = actor_xy[holder[held]]
        # an arrow in flight (holder -2) moves in a straight line to its next keyframe
        j = np.minimum(i + 1, len(ch.t) - 1)
        fly = ok & (holder == -2) & (j > i) & (ch.owner[j] == ch.owner[i])
        if fly.any():
            span = np.where(fly, ch.t[j] - ch.t[i], 1.0)
            a = np.clip((t - ch.t[i]) / np.where(span > 0, span, 1.0), 0, 1)[:, None]
            dest = np.stack([ch.values["x"][j], ch.values["y"][j]], axis=1)
            at[fly] = (at + a * (dest - at))[fly]
        return holder, at, visible


def _held_visible(holder: np.ndarray, present: np.ndarray) -> np.ndarray:
    """A prop in the hands of someone who has left is not shown."""
    if not len(holder):
        return np.zeros(0, bool)
    return np.where(holder >= 0, present[np.clip(holder, 0, None)] if len(present) else False, True)
