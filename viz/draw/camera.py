"""尺 ↔ pixels: north up, fit to a box, zoom about a point, pan, with breaks in the long range.

A `Break` shows the world interval [south, north] of y (尺) as only `gap` 尺 of the drawing: the
long empty middle of the 侯道 is compressed so the hall and the target fit one screen. The mapping
world y → drawn y is piecewise linear and monotone, applied to every point (walls, actors, arrows)
alike, so anything crossing a break moves through it consistently; x is never distorted, so
circles stay round and widths stay true. Without breaks the camera is a plain similarity.
"""
from __future__ import annotations

import bisect
import functools
import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Break:
    north: float  # world y where the compressed interval starts (the larger y)
    south: float  # world y where it ends
    gap: float  # how many 尺 of drawing the interval takes

    @property
    def length(self) -> float:
        return self.north - self.south


class YMap:
    """The monotone piecewise-linear map world y → drawn y defined by some breaks."""

    def __init__(self, breaks: tuple[Break, ...] = ()):
        bs = sorted(breaks, key=lambda b: -b.north)
        for b in bs:
            if not (b.north > b.south and 0 < b.gap <= b.length):
                raise ValueError(f"bad break {b}: need north > south and 0 < gap <= north - south")
        for a, b in itertools.pairwise(bs):
            if b.north > a.south:
                raise ValueError(f"breaks overlap: {a} and {b}")
        self.breaks = tuple(bs)
        wx, dy, shift = [], [], 0.0
        for b in bs:
            wx += [b.north, b.south]
            dy += [b.north + shift, b.north + shift - b.gap]
            shift += b.length - b.gap
        self._w = np.array(wx[::-1])  # ascending
        self._d = np.array(dy[::-1])
        self._wl, self._dl = [float(v) for v in self._w], [float(v) for v in self._d]

    @staticmethod
    def _pl(v, xs: np.ndarray, ys: np.ndarray):
        """Piecewise linear through the knots, slope 1 beyond them (true scale outside breaks)."""
        v = np.asarray(v, dtype=float)
        if not len(xs):
            return v.copy() if v.ndim else float(v)
        out = np.interp(v, xs, ys)
        out = np.where(v < xs[0], v + (ys[0] - xs[0]), out)
        out = np.where(v > xs[-1], v + (ys[-1] - xs[-1]), out)
        return out if v.ndim else float(out)

    def fwd(self, y):
        if isinstance(y, float) and not len(self._w):
            return y
        return self._pl(y, self._w, self._d)

    def fwd1(self, y: float) -> float:
        """fwd for one number, without numpy's per-call cost (the drawing loop's hot path)."""
        w, d = self._wl, self._dl
        if not w:
            return y
        if y <= w[0]:
            return y + (d[0] - w[0])
        if y >= w[-1]:
            return y + (d[-1] - w[-1])
        k = bisect.bisect_right(w, y) - 1
        return d[k] + (y - w[k]) * (d[k + 1] - d[k]) / (w[k + 1] - w[k])

    def inv(self, d):
        if isinstance(d, float):  # one number (placing a tag): numpy's interp, in plain Python
            return self._pl1(d, self._dl, self._wl)
        return self._pl(d, self._d, self._w)

    @staticmethod
    def _pl1(v: float, xs: list[float], ys: list[float]) -> float:
        """_pl for one number, computed as np.interp does, so the two agree to the bit."""
        if not xs:
            return v
        if v < xs[0]:
            return v + (ys[0] - xs[0])
        if v > xs[-1]:
            return v + (ys[-1] - xs[-1])
        j = bisect.bisect_right(xs, v) - 1
        if j >= len(xs) - 1 or xs[j] == v:
            return ys[j]
        return (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]) * (v - xs[j]) + ys[j]

    def slope(self, y: float) -> float:
        """Drawn 尺 per world 尺 at y (1 outside breaks)."""
        for b in self.breaks:
            if b.south < y < b.north:
                return b.gap / b.length
        return 1.0


@functools.lru_cache(maxsize=32)
def ymap_for(breaks: tuple[Break, ...]) -> YMap:
    """The YMap of these breaks, made once (a YMap is never changed after it is made)."""
    return YMap(breaks)


class Camera:
    """Screen = viewport centre + (drawn − centre) × scale, with y flipped so north is up."""

    def __init__(self, viewport: tuple[float, float, float, float] = (0, 0, 800, 600),
                 scale: float = 4.0, center: tuple[float, float] = (0.0, 0.0),
                 breaks: tuple[Break, ...] = ()):
        self.viewport = tuple(float(v) for v in viewport)
        self.scale = float(scale)  # px per drawn 尺
        self.center = (float(center[0]), float(center[1]))  # in drawn coordinates
        self.ymap = ymap_for(tuple(breaks))

    @property
    def breaks(self) -> tuple[Break, ...]:
        return self.ymap.breaks

    def key(self) -> tuple:
        """Everything that decides where a point lands: equal keys draw equal pictures."""
        return (self.viewport, self.scale, self.center, self.breaks)

    def copy(self) -> Camera:
        return Camera(self.viewport, self.scale, self.center, self.breaks)

    def to_screen(self, pts) -> np.ndarray:
        """(k,2) or (2,) world 尺 → pixels."""
        if isinstance(pts, (list, tuple)) and len(pts) <= 8 and pts and isinstance(pts[0], tuple):
            return np.array(self.to_screen_pts(pts))
        p = np.asarray(pts, dtype=float)
        vx, vy, vw, vh = self.viewport
        sx = vx + vw / 2 + (p[..., 0] - self.center[0]) * self.scale
        sy = vy + vh / 2 - (self.ymap.fwd(p[..., 1]) - self.center[1]) * self.scale
        return np.stack([sx, sy], axis=-1)

    def to_screen_pts(self, pts) -> list[tuple[float, float]]:
        """to_screen for a few (x, y) tuples in plain Python (no numpy call per primitive)."""
        vx, vy, vw, vh = self.viewport
        ox, oy, cx, cy, k = vx + vw / 2, vy + vh / 2, self.center[0], self.center[1], self.scale
        f = self.ymap.fwd1
        return [(ox + (x - cx) * k, oy - (f(y) - cy) * k) for x, y in pts]

    def to_world(self, pts) -> np.ndarray:
        p = np.asarray(pts, dtype=float)
        vx, vy, vw, vh = self.viewport
        x = (p[..., 0] - vx - vw / 2) / self.scale + self.center[0]
        d = -(p[..., 1] - vy - vh / 2) / self.scale + self.center[1]
        return np.stack([x, self.ymap.inv(d)], axis=-1)

    def fit(self, bounds: tuple[float, float, float, float], margin: float = 16.0,
            box: tuple[float, float, float, float] | None = None) -> None:
        """Show the world box (xmin, ymin, xmax, ymax) whole and centred in `box` (a part of the
        viewport, in px; default the whole viewport)."""
        xmin, ymin, xmax, ymax = bounds
        d0, d1 = float(self.ymap.fwd(ymin)), float(self.ymap.fwd(ymax))
        bx, by, bw, bh = box or self.viewport
        w, h = max(xmax - xmin, 1e-6), max(d1 - d0, 1e-6)
        self.scale = max(min((bw - 2 * margin) / w, (bh - 2 * margin) / h), 1e-3)
        # the drawn point at the box's centre, expressed from the viewport's centre
        vx, vy, vw, vh = self.viewport
        ox, oy = bx + bw / 2 - (vx + vw / 2), by + bh / 2 - (vy + vh / 2)
        self.center = ((xmin + xmax) / 2 - ox / self.scale, (d0 + d1) / 2 + oy / self.scale)

    def zoom_at(self, factor: float, screen_pt: tuple[float, float],
                limits: tuple[float, float] = (0.2, 200.0)) -> None:
        """Scale by factor keeping the point under screen_pt fixed (the cursor, for the wheel)."""
        new = float(np.clip(self.scale * factor, *limits))
        vx, vy, vw, vh = self.viewport
        ox, oy = screen_pt[0] - vx - vw / 2, screen_pt[1] - vy - vh / 2
        # drawn point under the cursor before = after
        dx = ox / self.scale + self.center[0]
        dy = -oy / self.scale + self.center[1]
        self.center = (dx - ox / new, dy + oy / new)
        self.scale = new

    def pan(self, dx_px: float, dy_px: float) -> None:
        """Move the drawing with the mouse: content follows the drag."""
        self.center = (self.center[0] - dx_px / self.scale, self.center[1] + dy_px / self.scale)
