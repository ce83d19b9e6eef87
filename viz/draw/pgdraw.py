"""The pygame back end: draws composed layers onto a Surface (the window and the PNG alike).

`draw_layers` draws what viz.draw.compose returns; with a `LayerCache` the layers that carry a
key (the plans) are drawn once into a Surface and copied while the key stays the same, which
gives the same pixels as drawing them again.
"""
from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence

import numpy as np
import pygame
import pygame.gfxdraw

from viz import fonts
from viz.draw.camera import Camera
from viz.draw.compose import Model, chars_drawn
from viz.draw.display import Circle, Layer, Line, Polygon, Primitive, Rect, Text

_cache = fonts.TextCache()


def with_font(model: Model) -> Model:
    """The model with the substitutions the bundled font needs (the legend names them)."""
    subs = tuple(fonts.substitutions_used(chars_drawn(model)))
    return dataclasses.replace(model, substitutions=subs)


class LayerCache:
    """The pixels of keyed layers, one Surface per layer name, redrawn when the key changes.

    A Surface of the target's size and format, drawn with the layer's clip exactly as the
    target would be, so copying its clip box is pixel for pixel the same as drawing there.
    """

    def __init__(self) -> None:
        self._store: dict[str, tuple[tuple, pygame.Surface]] = {}

    def pixels(self, layer: Layer, target: pygame.Surface) -> pygame.Surface:
        key = (layer.key, target.get_size(), target.get_bitsize(), target.get_masks())
        kept = self._store.get(layer.name)
        if kept is not None and kept[0] == key:
            return kept[1]
        surf = pygame.Surface(target.get_size(), 0, target)
        surf.set_clip(pygame.Rect(layer.clip))
        draw(surf, layer.prims, layer.camera)
        surf.set_clip(None)
        self._store[layer.name] = (key, surf)
        return surf


def _paints_its_clip(layer: Layer) -> bool:
    """Whether the layer's first primitive is an opaque box over all of its clip."""
    if layer.key is None or layer.clip is None or not layer.prims:
        return False
    r = layer.prims[0]
    if not isinstance(r, Rect) or r.fill is None or r.radius or (len(r.fill) == 4
                                                                 and r.fill[3] < 255):
        return False
    return pygame.Rect(*(round(v) for v in r.box)).contains(pygame.Rect(layer.clip))


def draw_layers(surface: pygame.Surface, layers: Sequence[Layer],
                cache: LayerCache | None = None) -> None:
    """Draw the layers in order, each through its camera inside its clip box."""
    for layer in layers:
        clip = None if layer.clip is None else pygame.Rect(layer.clip)
        surface.set_clip(clip)
        if cache is not None and _paints_its_clip(layer):
            surface.blit(cache.pixels(layer, surface), clip.topleft, clip)
        else:
            draw(surface, layer.prims, layer.camera)
    surface.set_clip(None)


def draw(surface: pygame.Surface, prims: Iterable[Primitive], camera: Camera) -> None:
    """Draw each primitive in order (back to front)."""
    for p in prims:
        if isinstance(p, Circle):
            _circle(surface, p, camera)
        elif isinstance(p, Polygon):
            _polygon(surface, p, camera)
        elif isinstance(p, Line):
            _line(surface, p, camera)
        elif isinstance(p, Text):
            _text(surface, p, camera)
        elif isinstance(p, Rect):
            _rect(surface, p)
        else:
            raise TypeError(f"not a display primitive: {p!r}")


def _xy(points, screen: bool, camera: Camera) -> np.ndarray:
    if screen:
        return np.asarray(points, dtype=float).reshape(-1, 2)
    return np.asarray(camera.to_screen_pts(points), dtype=float).reshape(-1, 2)


def _clamp(v: float) -> int:
    return round(min(max(v, -30000.0), 30000.0))


def _ipts(a) -> list[tuple[int, int]]:
    return [(_clamp(x), _clamp(y)) for x, y in a]


def _circle(surf: pygame.Surface, c: Circle, cam: Camera) -> None:
    (x, y), = _ipts(_xy([c.center], c.screen, cam))
    r = c.r if c.screen else max(c.r * cam.scale, c.min_px)
    ri = max(round(r), 1)
    if c.fill is not None:
        pygame.gfxdraw.filled_circle(surf, x, y, ri, c.fill)
        pygame.gfxdraw.aacircle(surf, x, y, ri, c.fill)
    if c.stroke is not None:
        if c.width <= 1.2:
            pygame.gfxdraw.aacircle(surf, x, y, ri, c.stroke)
        else:
            pygame.draw.circle(surf, c.stroke, (x, y), ri, max(round(c.width), 1))


def _polygon(surf: pygame.Surface, p: Polygon, cam: Camera) -> None:
    pts = _ipts(_xy(p.points, p.screen, cam))
    if len(pts) < 3:
        return
    if p.fill is not None:
        pygame.gfxdraw.filled_polygon(surf, pts, p.fill)
        pygame.gfxdraw.aapolygon(surf, pts, p.fill)
    if p.stroke is not None:
        if p.width <= 1.2:
            pygame.gfxdraw.aapolygon(surf, pts, p.stroke)
        else:
            pygame.draw.lines(surf, p.stroke, True, pts, max(round(p.width), 1))


def _dashes(a: np.ndarray, on: float, off: float) -> list[np.ndarray]:
    """Split a screen polyline into dash segments of `on` px separated by `off` px."""
    out, period = [], on + off
    pos = 0.0  # distance along the line, carried across vertices so the pattern is continuous
    for p, q in itertools.pairwise(a):
        seg = float(np.hypot(*(q - p)))
        if seg == 0:
            continue
        d = (q - p) / seg
        s = 0.0
        while s < seg:
            phase = (pos + s) % period
            if phase < on:
                e = min(seg, s + on - phase)
                out.append(np.array([p + d * s, p + d * e]))
                s = e
            else:
                s = min(seg, s + period - phase)
        pos += seg
    return out


def _line(surf: pygame.Surface, ln: Line, cam: Camera) -> None:
    a = _xy(ln.points, ln.screen, cam)
    if ln.closed and len(a) > 2:
        a = np.vstack([a, a[:1]])
    if len(a) < 2:
        return
    parts = _dashes(a, *ln.dash) if ln.dash else [a]
    w = max(round(ln.width), 1)
    for part in parts:
        pts = _ipts(part)
        if w == 1:
            pygame.draw.aalines(surf, ln.color, False, pts)
        else:
            pygame.draw.lines(surf, ln.color, False, pts, w)
            if w >= 3:  # round the joints so thick walls do not show notches
                for q in pts:
                    pygame.draw.circle(surf, ln.color, q, w // 2)


def text_px(t: Text, cam: Camera) -> int:
    """The pixel size a Text is drawn at, under this camera."""
    if t.unit == "chi" and not t.screen:
        return round(min(max(t.size * cam.scale, t.min_px), t.max_px))
    return round(t.size)


_ANCHOR = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
           "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


def _text(surf: pygame.Surface, t: Text, cam: Camera) -> None:
    if not t.text:
        return
    (x, y), = _xy([t.pos], t.screen, cam)
    px = text_px(t, cam)
    img = _cache.render(t.text, px, t.color)
    w, h = img.get_size()
    pad = 2 if t.bg is not None or t.border is not None else 0
    ax, ay = _ANCHOR.get(t.anchor, (0.5, 0.5))
    left = x - ax * (w + 2 * pad) + pad
    top = y - ay * (h + 2 * pad) + pad
    if left > surf.get_width() or top > surf.get_height() or left + w < 0 or top + h < 0:
        return
    if pad:
        box = pygame.Rect(int(left - pad), int(top - pad), w + 2 * pad, h + 2 * pad)
        if t.bg is not None:
            pygame.draw.rect(surf, t.bg, box, border_radius=3)
        if t.border is not None:
            pygame.draw.rect(surf, t.border, box, 1, border_radius=3)
    if t.halo is not None:
        rim = _cache.render(t.text, px, t.halo)
        for dx, dy in _HALO:
            surf.blit(rim, (int(left) + dx, int(top) + dy))
    surf.blit(img, (int(left), int(top)))


_HALO = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _rect(surf: pygame.Surface, r: Rect) -> None:
    box = pygame.Rect(*(round(v) for v in r.box))
    if box.w <= 0 or box.h <= 0:
        return
    if r.fill is not None:
        if len(r.fill) == 4 and r.fill[3] < 255:
            layer = pygame.Surface(box.size, pygame.SRCALPHA)
            pygame.draw.rect(layer, r.fill, layer.get_rect(), border_radius=r.radius)
            surf.blit(layer, box.topleft)
        else:
            pygame.draw.rect(surf, r.fill, box, border_radius=r.radius)
    if r.stroke is not None:
        pygame.draw.rect(surf, r.stroke, box, max(round(r.width), 1), border_radius=r.radius)
