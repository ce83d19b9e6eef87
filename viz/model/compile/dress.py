"""What the archers wear, and their bows: 袒, 決, 遂 and the 扑 in the belt per person; 張 or 弛 per bow.

_Dress keeps, for each person, whether his left arm is bared (袒; 襲 covers it), whether he wears
the thumb-ring (決) and the arm-guard (遂, called 拾 when not shooting: 説決拾), and whether the 扑
he holds is stuck in his belt (搢扑; 去扑 takes it out, and so does its leaving his hands); and for
each bow whether it is strung (張) or unstrung (弛). It writes them as two step channels: "dress"
(owners: actors; columns 袒 決 遂 扑, 0 or 1) and "bow" (owners: props; 張 = 1, 弛 = 2, 0 for a
thing that is not a bow). Bows start strung: the text unstrings only the losers' (執弛弓, 注:
言不能用之也), and a bow shot with is strung.
"""
from __future__ import annotations

import numpy as np

from viz.base.errors import Collector
from viz.model.compile.keyframes import _Keyframes
from viz.model.dress import BOW_STATES, WORN, dress_words
from viz.model.script.nodes import Script

DRESS = 1.2  # s: putting on or taking off one thing (袒, 決, 遂, 拾 …), when settings say none


class _Dress(_Keyframes):
    def __init__(self, script: Script, layout, out: Collector | None = None):
        super().__init__(script, layout, out)
        n = len(script.cast)
        self.worn = np.zeros((n, len(WORN)), np.int64)
        self.strung = np.array([BOW_STATES["張"] if p.kind == "弓" else 0 for p in script.props],
                               np.int64)
        self.kf.dress = [(a, 0.0, *[0] * len(WORN), -1) for a in range(n)]
        self.kf.bow = [(p, 0.0, int(v), -1) for p, v in enumerate(self.strung) if v]

    def dress(self, a: int, t: float, words: str, bow: str | None = None, loc=None) -> float:
        """Put on or take off what the words say (袒決遂, 襲, 説決拾, 搢扑 …) from t; with bow, the
        bows he holds become 張 or 弛. It takes time (issue 26): settings.gestures.dress seconds
        for each thing put on or off, twice that to string or unstring a bow; what he wears
        changes when he is done, and the time returned is then."""
        changes = dress_words(words) or []
        t0 = t
        t += self.cfg.gestures.get("dress", DRESS) * (len(changes) + (2 if bow else 0))
        if t > t0:  # he is busy dressing: not a wait (viz/query/waits.py)
            self.event(t0, t, "dress", a, words or f"弓{bow}", {})
        for col, v in changes:
            if col == "扑" and v and not any(self.s.props[p].kind == "扑"
                                            for p in np.nonzero(self.holder == a)[0]):
                self.out.warn(loc, f"{self.s.cast[a].name} holds no 扑 to put in his belt (搢扑)")
                continue
            self.worn[a, WORN.index(col)] = v
        self._dress_key(a, t)
        if bow is not None:
            bows = [int(p) for p in np.nonzero(self.holder == a)[0] if self.strung[p]]
            if not bows:
                self.out.warn(loc, f"{self.s.cast[a].name} holds no bow to be {bow}")
            for p in bows:
                self.strung[p] = BOW_STATES[bow]
                self.buf.bow.append((p, t, BOW_STATES[bow], self.w))
        return t

    def _dress_key(self, a: int, t: float) -> None:
        self.buf.dress.append((a, t, *(int(v) for v in self.worn[a]), self.w))

    def let_go(self, p: int, a: int, t: float) -> None:
        """A 扑 leaving its holder's hands leaves his belt too (去扑，倚於西階之西)."""
        k = WORN.index("扑")
        if self.s.props[p].kind == "扑" and self.worn[a, k]:
            self.worn[a, k] = 0
            self._dress_key(a, t)
