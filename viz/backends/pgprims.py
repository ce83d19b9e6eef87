"""How each display primitive is drawn with pygame (circle, polygon, line, text, box, sprite):
`plan` gives a box round every pixel it may change and the drawing calls, which give the same
pixels whenever they are made again. Texts and sprites are rendered once and kept
(`SpriteCache`, `_Seen`). viz.backends.pgdraw draws layers of them onto a Surface.
"""
from __future__ import annotations

import functools
import itertools
from collections import OrderedDict
from collections.abc import Callable

import numpy as np
import pygame
import pygame.gfxdraw

from viz.backends import fonts
from viz.draw.camera import Camera
from viz.draw.display import Circle, Color, Line, Polygon, Primitive, Rect, Sprite, Text

_cache = fonts.TextCache()
SPRITE_BYTES = 8 * 2**20  # pixels of sprites kept: a token is ~4 KB, each look a few variants


Ops = tuple[tuple[Callable[..., object], tuple], ...]  # (fn, args): fn(target, *args) each


def plan(p: Primitive, camera: Camera, size: tuple[int, int]) -> tuple[Extent, Ops]:
    """How a primitive is drawn on a target of this size: a box round every pixel it may
    change (None: none) and the drawing calls, which give the same pixels whenever they are
    made again (the window repeats those of whoever stands still)."""
    fn = _PLANNERS.get(type(p))
    if fn is None:
        fn = next((f for k, f in _PLANNERS.items() if isinstance(p, k)), None)
        if fn is None:
            raise TypeError(f"not a display primitive: {p!r}")
    return fn(p, camera, size)


_blit = pygame.Surface.blit


def _xy(points, screen: bool, camera: Camera) -> np.ndarray:
    if screen:
        return np.asarray(points, dtype=float).reshape(-1, 2)
    return np.asarray(camera.to_screen_pts(points), dtype=float).reshape(-1, 2)


def _spts(points, screen: bool, camera: Camera) -> list[tuple[float, float]]:
    """_xy for a few points, as Python floats (no numpy call per primitive)."""
    if screen:
        return [(float(x), float(y)) for x, y in points]
    return camera.to_screen_pts(points)


def _ipts(a) -> list[tuple[int, int]]:
    """Whole pixels, clamped to what SDL draws without overflowing (a point inside, nearly
    all, rounded as it is: a plate has two million of them)."""
    return [(round(x) if -30000.0 <= x <= 30000.0 else round(min(max(x, -30000.0), 30000.0)),
             round(y) if -30000.0 <= y <= 30000.0 else round(min(max(y, -30000.0), 30000.0)))
            for x, y in a]


Extent = tuple[int, int, int, int] | None  # x0, y0, x1, y1 (exclusive) of the pixels changed


def _around(pts: list[tuple[int, int]], pad: int) -> Extent:
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad + 1, max(ys) + pad + 1)


def _circle(c: Circle, cam: Camera, size) -> tuple[Extent, Ops]:
    (x, y), = _ipts(_spts([c.center], c.screen, cam))
    ri = _radius_px(c, cam)
    return (x - ri - 2, y - ri - 2, x + ri + 3, y + ri + 3), ((_circle_px, (x, y, ri, c)),)


def _radius_px(c: Circle, cam: Camera) -> int:
    return max(round(c.r if c.screen else max(c.r * cam.scale, c.min_px)), 1)


def _circle_px(surf: pygame.Surface, x: int, y: int, ri: int, c: Circle) -> None:
    if c.fill is not None:
        pygame.gfxdraw.filled_circle(surf, x, y, ri, c.fill)
        pygame.gfxdraw.aacircle(surf, x, y, ri, c.fill)
    if c.stroke is not None:
        if c.width <= 1.2:
            pygame.gfxdraw.aacircle(surf, x, y, ri, c.stroke)
        else:
            pygame.draw.circle(surf, c.stroke, (x, y), ri, max(round(c.width), 1))


def _polygon(p: Polygon, cam: Camera, size) -> tuple[Extent, Ops]:
    pts = _ipts(_spts(p.points, p.screen, cam))
    if not pts:
        return None, ()
    return _around(pts, round(p.width) + 2), ((_polygon_px, (pts, p)),)


def _polygon_px(surf: pygame.Surface, pts: list[tuple[int, int]], p: Polygon) -> None:
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


# Drawing calls that, clipped, draw other pixels inside the clip than they draw whole: pygame
# moves an anti-aliased line's ends to the clip's edge before drawing it (gfxdraw's aapolygon
# too). Partial redraws never cut these (draw_layers); every other call draws, inside a clip,
# the very pixels it draws whole (tests/test_perf_shapes.py checks both).
CLIPPED_DIFFER = frozenset({pygame.draw.aalines, pygame.draw.aaline, _polygon_px})


def _dashes(a: np.ndarray, on: float, off: float) -> list[list[tuple[int, int]]]:
    """Split a screen polyline into dash segments of `on` px separated by `off` px, each its
    two ends in whole pixels as _ipts gives them (in plain Python floats, the same numbers
    numpy gave: a plate's trails are thousands of dashes, and a numpy call per dash took a
    tenth of the atlas' time; rounded here, not by a call per dash)."""
    out, period = [], on + off
    lo, hi = -30000.0, 30000.0
    pos = 0.0  # distance along the line, carried across vertices so the pattern is continuous
    hypot = np.hypot
    for (px, py), (qx, qy) in itertools.pairwise(np.asarray(a, float).tolist()):
        dx, dy = qx - px, qy - py
        seg = float(hypot(dx, dy))
        if seg == 0:
            continue
        ux, uy = dx / seg, dy / seg
        s = 0.0
        while s < seg:
            phase = (pos + s) % period
            # a phase a rounding hair short of a boundary is at it: else s never moves on
            if phase < on and s + on - phase <= s:  # the dash has ended
                phase = on if s + period - on > s else 0.0  # (a gap too small to pass: none)
            elif phase >= on and s + period - phase <= s:  # the next dash begins
                phase = 0.0
            if phase < on:
                e = min(seg, s + on - phase)
                x0, y0, x1, y1 = px + ux * s, py + uy * s, px + ux * e, py + uy * e
                if lo <= x0 <= hi and lo <= y0 <= hi and lo <= x1 <= hi and lo <= y1 <= hi:
                    out.append([(round(x0), round(y0)), (round(x1), round(y1))])
                else:
                    out.append(_ipts(((x0, y0), (x1, y1))))
                s = e
            else:
                s = min(seg, s + period - phase)
        pos += seg
    return out


FEW_POINTS = 16  # a line of up to this many points is planned without numpy


def _line(ln: Line, cam: Camera, size) -> tuple[Extent, Ops]:
    if not ln.dash and len(ln.points) <= FEW_POINTS:  # most: a few points, solid (in plain
        a = _spts(ln.points, ln.screen, cam)  # Python, the same numbers)
        if ln.closed and len(a) > 2:
            a = [*a, a[0]]
        if len(a) < 2:
            return None, ()
        w = max(round(ln.width), 1)
        pts = _ipts(a)
        if w == 1:
            return _around(pts, w + 2), ((pygame.draw.aalines, (ln.color, False, pts)),)
        ops: list = [(pygame.draw.lines, (ln.color, False, pts, w))]
        if w >= 3:
            ops += [(pygame.draw.circle, (ln.color, q, w // 2)) for q in pts]
        return _around(pts, w + 2), tuple(ops)
    a = _xy(ln.points, ln.screen, cam)
    if ln.closed and len(a) > 2:
        a = np.vstack([a, a[:1]])
    if len(a) < 2:
        return None, ()
    w = max(round(ln.width), 1)
    whole = _ipts(a.tolist())
    extent = _around(whole, w + 2)
    ops: list = []
    for pts in (_dashes(a, *ln.dash) if ln.dash else [whole]):
        if w == 1:
            ops.append((pygame.draw.aalines, (ln.color, False, pts)))
        else:
            ops.append((pygame.draw.lines, (ln.color, False, pts, w)))
            if w >= 3:  # round the joints so thick walls do not show notches
                ops += [(pygame.draw.circle, (ln.color, q, w // 2)) for q in pts]
    return extent, tuple(ops)


def text_px(t: Text, cam: Camera) -> int:
    """The pixel size a Text is drawn at, under this camera."""
    if t.unit == "chi" and not t.screen:
        return round(min(max(t.size * cam.scale, t.min_px), t.max_px))
    return round(t.size)


_ANCHOR = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
           "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


def _text(t: Text, cam: Camera, size) -> tuple[Extent, Ops]:
    if not t.text:
        return None, ()
    key = (None if t.screen else cam.key(), size)
    kept = _seen_texts.get(t, key)
    if kept is not None:  # the same Text as the last frame's, through the same camera
        return kept
    (x, y), = _spts([t.pos], t.screen, cam)
    px = text_px(t, cam)
    img = _cache.render(t.text, px, t.color)
    w, h = img.get_size()
    pad = 2 if t.bg is not None or t.border is not None else 0
    ax, ay = _ANCHOR.get(t.anchor, (0.5, 0.5))
    left = x - ax * (w + 2 * pad) + pad
    top = y - ay * (h + 2 * pad) + pad
    if left > size[0] or top > size[1] or left + w < 0 or top + h < 0:
        out: tuple[Extent, Ops] = (None, ())
    elif pad and t.halo is None and _opaque(t.bg) and _opaque(t.border):
        bx, by = int(left - pad), int(top - pad)
        img, _ = _boxed.get((t.text, px, t.color, t.bg, t.border, (w + 2 * pad, h + 2 * pad),
                             (int(left) - bx, int(top) - by)))
        out = ((bx - 2, by - 2, bx + w + 2 * pad + 2, by + h + 2 * pad + 2),
               ((_blit, (img, (bx, by))),))
    else:
        ops: list = []
        if pad:
            box = pygame.Rect(int(left - pad), int(top - pad), w + 2 * pad, h + 2 * pad)
            if t.bg is not None:
                ops.append((pygame.draw.rect, (t.bg, box, 0, 3)))
            if t.border is not None:
                ops.append((pygame.draw.rect, (t.border, box, 1, 3)))
        if t.halo is not None:
            rim = _cache.render(t.text, px, t.halo)
            ops += [(_blit, (rim, (int(left) + dx, int(top) + dy))) for dx, dy in _HALO]
        ops.append((_blit, (img, (int(left), int(top)))))
        out = ((int(left) - pad - 2, int(top) - pad - 2, int(left) + w + pad + 3,
                int(top) + h + pad + 3), tuple(ops))
    _seen_texts.put(t, key, out)
    return out


def _opaque(c: Color | None) -> bool:
    return c is None or len(c) == 3 or c[3] == 255


_HALO = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _rect(r: Rect, cam: Camera, size) -> tuple[Extent, Ops]:
    box = pygame.Rect(*(round(v) for v in r.box))
    if box.w <= 0 or box.h <= 0:
        return None, ()
    m = max(round(r.width), 1) + 1
    return (box.x - m, box.y - m, box.right + m, box.bottom + m), ((_rect_px, (box, r)),)


def _rect_px(surf: pygame.Surface, box: pygame.Rect, r: Rect) -> None:
    if r.fill is not None:
        if len(r.fill) == 4 and r.fill[3] < 255:
            glass = (_glass if box.w * box.h <= GLASS_PX else _glass.__wrapped__)(
                box.size, r.fill, r.radius)
            surf.blit(glass, box.topleft)
        else:
            pygame.draw.rect(surf, r.fill, box, border_radius=r.radius)
    if r.stroke is not None:
        pygame.draw.rect(surf, r.stroke, box, max(round(r.width), 1), border_radius=r.radius)


GLASS_PX = 512 * 512  # see-through boxes up to this many pixels are kept (not the help's shade)


@functools.lru_cache(maxsize=16)
def _glass(size: tuple[int, int], fill: Color, radius: int) -> pygame.Surface:
    """A see-through box (the legend's, a toast's), made once for its size."""
    glass = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(glass, fill, glass.get_rect(), border_radius=radius)
    return glass


class SpriteCache:
    """The pixels of sprites by their look: every part's integer pixel geometry relative to the
    sprite's own pixel, so two places with the same look get the same pixels. Premultiplied
    RGBA, found by drawing the parts once on black and once on white (an edge pixel's alpha is
    how much of the white shows through); bounded by bytes, least recently used out first."""

    def __init__(self, max_bytes: int = SPRITE_BYTES, render=None):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._render = render  # look → (pixels, offset); None: _render_look
        self._store: OrderedDict[tuple, tuple[pygame.Surface, tuple[int, int]]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._store)

    def get(self, look: tuple) -> tuple[pygame.Surface, tuple[int, int]]:
        kept = self._store.get(look)
        if kept is not None:
            self._store.move_to_end(look)
            return kept
        kept = (self._render or _render_look)(look)
        self._store[look] = kept
        self.bytes += kept[0].get_pitch() * kept[0].get_height()
        while self.bytes > self.max_bytes and len(self._store) > 1:
            _, (old, _) = self._store.popitem(last=False)
            self.bytes -= old.get_pitch() * old.get_height()
        return kept


_sprites = SpriteCache()


def _render_boxed(look: tuple) -> tuple[pygame.Surface, tuple[int, int]]:
    """A tag's box with its words, as the target would get them: the box's pixels are opaque
    (pygame's boxes are not smoothed), the words blended onto it, the rounded corners clear."""
    text, px, color, bg, border, (w, h), (dx, dy) = look
    out = pygame.Surface((w, h), pygame.SRCALPHA, 32)
    out.fill((0, 0, 0, 0))
    if bg is not None:
        pygame.draw.rect(out, bg, out.get_rect(), border_radius=3)
    if border is not None:
        pygame.draw.rect(out, border, out.get_rect(), 1, border_radius=3)
    out.blit(_cache.render(text, px, color), (dx, dy))
    return out, (0, 0)


_boxed = SpriteCache(render=_render_boxed)


def _look(s: Sprite, cam: Camera) -> tuple[tuple[int, int], tuple] | None:
    """(the sprite's pixel, its look), or None when a part is of a kind not kept as pixels."""
    pts: list = [s.at]
    for q in s.parts:
        if getattr(q, "screen", False):
            return None
        if isinstance(q, Polygon):
            pts += q.points
        elif isinstance(q, Circle):
            pts.append(q.center)
        elif isinstance(q, Text) and q.bg is None and q.border is None and q.halo is None:
            pts.append(q.pos)
        else:
            return None
    scr = _ipts(cam.to_screen_pts(pts))
    ax, ay = scr[0]
    fine = cam.to_screen_pts([q.pos for q in s.parts if isinstance(q, Text)])
    k, ti, look = 1, 0, []
    for q in s.parts:
        if isinstance(q, Polygon):
            n = len(q.points)
            look.append((Polygon, tuple((x - ax, y - ay) for x, y in scr[k:k + n]), q.fill,
                         q.stroke, q.width))
            k += n
        elif isinstance(q, Circle):
            x, y = scr[k]
            look.append((Circle, x - ax, y - ay, _radius_px(q, cam), q.fill, q.stroke,
                         q.width))
            k += 1
        else:
            if not q.text:
                k, ti = k + 1, ti + 1
                continue
            px = text_px(q, cam)
            w, h = _cache.render(q.text, px, q.color).get_size()
            fx, fy = _ANCHOR.get(q.anchor, (0.5, 0.5))
            x, y = fine[ti]
            look.append((Text, q.text, px, q.color, int(x - fx * w) - ax, int(y - fy * h) - ay))
            k, ti = k + 1, ti + 1
    return (ax, ay), tuple(look)


def _render_look(look: tuple) -> tuple[pygame.Surface, tuple[int, int]]:
    """A look drawn into premultiplied pixels, and where their top left sits from the sprite's
    pixel."""
    boxes = []
    for part in look:
        if part[0] is Polygon:
            xs, ys = [x for x, _ in part[1]], [y for _, y in part[1]]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
        elif part[0] is Circle:
            _, x, y, ri = part[:4]
            boxes.append((x - ri, y - ri, x + ri, y + ri))
        else:
            _, text, px, color, left, top = part
            w, h = _cache.render(text, px, color).get_size()
            boxes.append((left, top, left + w, top + h))
    x0, y0 = min(b[0] for b in boxes) - 2, min(b[1] for b in boxes) - 2
    size = (max(b[2] for b in boxes) + 3 - x0, max(b[3] for b in boxes) + 3 - y0)
    planes = []
    for ground in ((0, 0, 0), (255, 255, 255)):
        surf = pygame.Surface(size, 0, 32)
        surf.fill(ground)
        for part in look:
            if part[0] is Polygon:
                _, pts, fill, stroke, width = part
                _polygon_px(surf, [(x - x0, y - y0) for x, y in pts],
                            Polygon((), fill, stroke, width))
            elif part[0] is Circle:
                _, x, y, ri, fill, stroke, width = part
                _circle_px(surf, x - x0, y - y0, ri, Circle((0.0, 0.0), 0.0, fill, stroke, width))
            else:
                _, text, px, color, left, top = part
                surf.blit(_cache.render(text, px, color), (left - x0, top - y0))
        planes.append(pygame.surfarray.array3d(surf).astype(np.int16))
    black, white = planes
    alpha = np.clip(255 - (white - black).mean(axis=2).round(), 0, 255).astype(np.uint8)
    out = pygame.Surface(size, pygame.SRCALPHA, 32)
    pygame.surfarray.pixels3d(out)[...] = np.minimum(black, alpha[..., None])
    pygame.surfarray.pixels_alpha(out)[...] = alpha
    return out, (x0, y0)


SEEN = 4096  # sprites remembered a frame (a frame has a few dozen)


class _Seen:
    """_look's answers by sprite (the object: the composer hands over the same one while its
    person stands still) and camera, for this frame and the one before: whoever stands still
    since the last frame is looked up, not measured (nor hashed) again."""

    def __init__(self) -> None:
        self.before: dict[int, tuple] = {}  # id(sprite) → (sprite, camera key, look)
        self.now: dict[int, tuple] = {}

    def look(self, s: Sprite, cam: Camera) -> tuple | None:
        ck = cam.key()
        kept = self.now.get(id(s))
        if kept is not None and kept[0] is s and kept[1] == ck:
            return kept[2]
        kept = self.before.get(id(s))
        found = kept[2] if kept is not None and kept[0] is s and kept[1] == ck else _look(s, cam)
        if len(self.now) < SEEN:
            self.now[id(s)] = (s, ck, found)
        return found

    def get(self, obj, key) -> tuple | None:
        """What put() kept for this object under this key, this frame or the last."""
        kept = self.now.get(id(obj))
        if kept is None or kept[0] is not obj or kept[1] != key:
            kept = self.before.get(id(obj))
            if kept is None or kept[0] is not obj or kept[1] != key:
                return None
            if len(self.now) < SEEN:
                self.now[id(obj)] = kept
        return kept[2]

    def put(self, obj, key, value: tuple) -> None:
        if len(self.now) < SEEN:
            self.now[id(obj)] = (obj, key, value)

    def next_frame(self) -> None:
        self.before, self.now = self.now, {}


_seen = _Seen()
_seen_texts = _Seen()  # (pixels, where, extent) of a Text drawn as one copy


def _sprite(s: Sprite, cam: Camera, size) -> tuple[Extent, Ops]:
    found = _seen.look(s, cam)
    if found is None:
        boxes: list = []
        ops: list = []
        for q in s.parts:
            box, more = plan(q, cam, size)
            ops += more
            if box is not None:
                boxes.append(box)
        return ((min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                 max(b[3] for b in boxes)) if boxes else None), tuple(ops)
    (ax, ay), look = found
    img, (dx, dy) = _sprites.get(look)
    w, h = img.get_size()
    return ((ax + dx, ay + dy, ax + dx + w, ay + dy + h),
            ((_blit, (img, (ax + dx, ay + dy), None, pygame.BLEND_PREMULTIPLIED)),))


_PLANNERS: dict[type, Callable[..., tuple[Extent, Ops]]] = {
    Circle: _circle, Polygon: _polygon, Line: _line, Text: _text, Rect: _rect, Sprite: _sprite}
