"""The track: the compile's keyframe rows per channel, the step buffer, the compile's clock.

`Track` owns the rows of the whole compile (kf), the buffer rows are written to (buf: the step's
own while one is compiled, else kf), the compile's time t, the step writing (w) and the label
names; only its methods write them. Rows written while a step is compiled have times relative to
the step; `close_step` makes them absolute (rescaled to the step's dur) and moves them into kf.
Also here: the facing arithmetic every part uses (unit, heading, unwrap_to) and the posture codes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from viz.model.timeline import POSTURES, SCORE_OWNERS, build_channel

CODE = {name: i for i, name in enumerate(POSTURES)}


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
    """Keyframe rows, one list per channel: a step's (times relative to its start, so a `dur` can
    rescale them) or the whole compile's. A record the Track fills; nothing else writes it."""

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
    dress: list = field(default_factory=list)  # (actor, t, 袒, 決, 遂, 扑, writer): compile/dress
    bow: list = field(default_factory=list)  # (prop, t, 張 1 | 弛 2, writer)
    # (prop, t, wearer, worn, hands, start, end, writer): compile/dress's worn things; hands ≥ 0
    # while it moves between his hands and where it is worn, from start to end
    wear: list = field(default_factory=list)


class Track:
    def __init__(self) -> None:
        self.kf = _Buffer()
        self.buf = self.kf  # where rows are written: the step's buffer while compiling one
        self.t = 0.0
        self.w = -1  # the step being compiled (setups: the stage's first step)
        self.label_names: list[str] = []

    # ---- the clock and the step ----
    def advance(self, dt: float) -> None:
        self.t += dt

    def writing(self, w: int) -> None:
        """Rows written from now on are step w's (a stage's setup: its first step's)."""
        self.w = w

    def open_step(self, index: int) -> _Buffer:
        """Step index begins: its rows go to a buffer of their own, times relative to it."""
        self.buf = _Buffer()
        self.w = index
        return self.buf

    def close_step(self, buf: _Buffer, scale: float, dur: float) -> float:
        """The step's rows made absolute (times × scale from the step's start) and kept; the
        clock moves on by dur. Returns when the step began."""
        self.buf = self.kf
        self._flush(buf, scale)
        t0, self.t = self.t, self.t + dur
        return t0

    def _flush(self, buf: _Buffer, scale: float) -> None:
        T, kf = self.t, self.kf
        kf.motion += [(a, T + t * scale, *rest) for a, t, *rest in buf.motion]
        kf.posture += [(a, T + t * scale, c, T + e * scale, n, st, w)
                       for a, t, c, e, n, st, w in buf.posture]
        kf.presence += [(a, T + t * scale, *rest) for a, t, *rest in buf.presence]
        kf.props += [(p, T + t * scale, *rest) for p, t, *rest in buf.props]
        kf.label += [(a, T + t * scale, *rest) for a, t, *rest in buf.label]
        kf.things += [(a, T + t * scale, *rest) for a, t, *rest in buf.things]
        kf.score += [(a, T + t * scale, *rest) for a, t, *rest in buf.score]
        kf.dress += [(a, T + t * scale, *rest) for a, t, *rest in buf.dress]
        kf.bow += [(p, T + t * scale, *rest) for p, t, *rest in buf.bow]
        kf.wear += [(p, T + t * scale, a, on, h, T + t0 * scale, T + t1 * scale, w)
                    for p, t, a, on, h, t0, t1, w in buf.wear]
        kf.events += [(T + a * scale, T + b * scale, k, w, s, d) for a, b, k, w, s, d in buf.events]

    # ---- rows (times relative to the step while one is compiled) ----
    def motion(self, a: int, t: float, x: float, y: float, face: float) -> None:
        self.buf.motion.append((a, t, x, y, face, self.w))

    def reface_last(self, a: int, t: float, face: float) -> bool:
        """If the last motion row is a's arrival at t, stand him there facing face instead (a
        turn too small to make); whether it was."""
        last = self.buf.motion[-1] if self.buf.motion else None
        if last is None or last[0] != a or last[1] != t:
            return False
        self.buf.motion[-1] = (*last[:4], face, *last[5:])
        return True

    def posture(self, a: int, t: float, code: int, end: float, count: int, seated: bool) -> None:
        self.buf.posture.append((a, t, code, end, count, seated, self.w))

    def presence(self, a: int, t: float, present: bool) -> None:
        self.buf.presence.append((a, t, present, self.w))

    def prop(self, p: int, t: float, holder: int, xy, visible: bool) -> None:
        self.buf.props.append((p, t, holder, float(xy[0]), float(xy[1]), visible, self.w))

    def label(self, a: int, t: float, text: str) -> None:
        if text not in self.label_names:
            self.label_names.append(text)
        self.buf.label.append((a, t, self.label_names.index(text), self.w))

    def event(self, t0: float, t1: float, kind: str, a: int, text: str,
              data: dict | None = None) -> None:
        self.buf.events.append((t0, t1, kind, a, text, data or {}))

    def thing(self, i: int, t: float, shown: bool) -> None:
        self.buf.things.append((i, t, shown, self.w))

    def score(self, owner: str, t: float, value: float) -> None:
        self.buf.score.append((SCORE_OWNERS.index(owner), t, value, self.w))

    def dress(self, a: int, t: float, worn) -> None:
        self.buf.dress.append((a, t, *(int(v) for v in worn), self.w))

    def bow(self, p: int, t: float, state: int) -> None:
        self.buf.bow.append((p, t, state, self.w))

    def wear(self, p: int, t: float, wearer: int, worn: bool, hands: int, start: float,
             end: float) -> None:
        """Worn thing p from t: on wearer (-1 nobody) or not yet (worn False); with hands ≥ 0,
        moving between that person's hands and where it is worn from start to end."""
        self.buf.wear.append((p, t, int(wearer), int(worn), int(hands), float(start),
                              float(end), self.w))

    # ---- the channels ----
    def channels(self, n: int, m: int, things: int, worn: tuple[str, ...]) -> dict:
        """The keyframe channels of the rows so far: n actors, m props, things set out."""
        kf = self.kf
        motion = list(kf.motion)
        first = {}
        for k in motion:
            first.setdefault(k[0], k)
        for a in range(n):
            # before its first placement an actor rests where it will first appear
            k = first.get(a, (a, 0.0, 0.0, 0.0, 0.0))
            motion.insert(0, (a, 0.0, k[2], k[3], k[4], -1))
        pres = [(a, 0.0, False, -1) for a in range(n)] + kf.presence
        post = [(a, 0.0, 0, 0.0, 0, False, -1) for a in range(n)] + kf.posture
        span = self.t + 10.0
        return {
            "motion": _chan(motion, "linear", span, n, "x", "y", "face"),
            "posture": _chan(post, "step", span, n, "code", "end", "count", "seated"),
            "presence": _chan(pres, "step", span, n, "present"),
            "props": _chan(kf.props, "step", span, m, "holder", "x", "y", "visible"),
            "label": _chan(kf.label, "step", span, n, "label"),
            "things": _chan(kf.things, "step", span, things, "shown"),
            "score": _chan(kf.score, "step", span, len(SCORE_OWNERS), "value"),
            "dress": _chan(kf.dress, "step", span, n, *worn),
            "bow": _chan(kf.bow, "step", span, m, "state"),
            # only a rite with worn things has this channel (state --json's "wears")
            **({"wear": _chan(kf.wear, "step", span, m, "wearer", "worn", "hands", "start",
                              "end")} if kf.wear else {}),
        }


def _chan(rows: list, interp: str, span: float, owners: int, *names: str):
    """Rows (owner, t, *values, writer) → a channel."""
    if not rows:
        return build_channel([], [], interp, span, owners, **{k: [] for k in names})
    cols = list(zip(*rows))
    return build_channel(list(cols[0]), list(cols[1]), interp, span, owners, list(cols[-1]),
                         **{k: list(c) for k, c in zip(names, cols[2:-1])})
