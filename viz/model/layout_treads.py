"""A stair's treads (等) as places, found by name: `阼階上一等` is one 等 down from the head of the
阼階 (降一等), `阼階下一等` one 等 up from its foot (升一等). A layout's places are a PlaceTable:
the places the file declares, listed and iterated as before, and each stair's treads, which
`name in places` and `places[name]` find without their being listed (labels, nearest_place and
the checks see only the declared ones). A place the file declares under such a name wins.

For a stair of N 等 (its `steps:`), counted as the risers are (the first at the stair's foot,
the N-th at the 堂廉, so N − 1 treads lie between):

    S下k等  (k < N)  the k-th tread from the foot: 升k等 from the ground
    S下N等           the 堂 just above the stair's head (升N等: 升堂)
    S上k等  (k < N)  the (N − k)-th tread from the foot: 降k等 from the 堂
    S上N等           the ground just before the stair's foot (降N等: 鄭注 降三等，下至地)

k is written in Chinese numerals (一 … 十二) or digits. Every tread stands on the stair's middle
line, the one line by which the walk graph climbs it.
Imports only the plan's shapes (layout_geometry).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from viz.model.layout_geometry import Place, Stair

_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_TREAD = re.compile(r"^(?P<stair>.+?)(?P<end>[上下])(?P<k>[一二三四五六七八九十]+|\d+)等$")
# 尺 beyond the stair's head or foot where the last 等 puts one (on the 堂, on the ground)
_BEYOND = 2.0


def _number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    if text.startswith("十"):
        return 10 + _DIGITS.get(text[1:], 0) if len(text) == 2 else None
    if len(text) == 1:
        return _DIGITS.get(text)
    return None


def tread_xy(stair: Stair, end: str, k: int) -> tuple[float, float] | None:
    """Where one stands k 等 from the stair's head (end 上) or foot (end 下); None past it."""
    n = stair.steps
    if not 1 <= k <= n:
        return None
    x0, y0, x1, y1 = stair.rect
    mid = (x0 + x1) / 2
    up = k if end == "下" else n - k  # 等 climbed from the ground
    if up == 0:
        return (mid, y0 - _BEYOND)
    if up == n:
        return (mid, y1 + _BEYOND)
    r = stair.risers
    return (mid, (r[up - 1] + r[up]) / 2)


def tread_names(stairs: Sequence[Stair]) -> list[str]:
    """Every tread name the stairs give, 上 from the head then 下 from the foot (for docs and
    suggestions)."""
    nums = "一二三四五六七八九十"
    out = []
    for s in stairs:
        for end in "上下":
            out += [f"{s.name}{end}{nums[k - 1] if k <= 10 else k}等" for k in range(1, s.steps + 1)]
    return out


def tread(stairs: Sequence[Stair], name: str, region: Callable[[float, float], str] | None = None
          ) -> Place | None:
    """The tread a name gives, as a Place; None if it names no tread of these stairs."""
    m = _TREAD.match(name)
    if m is None:
        return None
    k = _number(m["k"])
    stair = next((s for s in stairs if s.name == m["stair"]), None)
    if stair is None or k is None:
        return None
    xy = tread_xy(stair, m["end"], k)
    if xy is None:
        return None
    way = "降" if m["end"] == "上" else "升"
    return Place(name=name, x=xy[0], y=xy[1],
                 source=f"{stair.name}: {stair.steps} 等 (a tread, {way}{m['k']}等)",
                 note=f"derived: {k} 等 from the {'head' if m['end'] == '上' else 'foot'} of "
                      f"the {stair.name} (docs/LAYOUT.md, 'Stair treads')",
                 region=region(*xy) if region is not None else "階")


class PlaceTable(dict):
    """The declared places (listed, iterated), and the stairs' treads found by name."""

    def __init__(self, places: dict[str, Place], stairs: Sequence[Stair] = (),
                 clearance: float = 1.0, region: Callable[[float, float], str] | None = None):
        super().__init__(places)
        self.stairs = tuple(stairs)
        self.clearance = clearance
        self._region = region
        self._treads: dict[str, Place | None] = {}

    def _tread(self, name: object) -> Place | None:
        if not isinstance(name, str) or not self.stairs:
            return None
        if name not in self._treads:
            self._treads[name] = tread(self.stairs, name, self._region)
        return self._treads[name]

    def __missing__(self, name: str) -> Place:
        p = self._tread(name)
        if p is None:
            raise KeyError(name)
        return p

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or self._tread(name) is not None

    def get(self, name, default=None):
        return self[name] if name in self else default

    def __reduce__(self):
        # pickled without the region function (a closure): the region of a tread is 階
        return (PlaceTable, (dict(self), self.stairs, self.clearance))

    def declared(self) -> Iterator[str]:
        return iter(dict.keys(self))
