"""The pygame back end: draws composed layers onto a Surface (the window and the PNG alike).

`draw_layers` draws what viz.draw.compose returns; with a `LayerCache` the layers that carry a
key (the plans) are drawn once into a Surface and copied while the key stays the same, which
gives the same pixels as drawing them again.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pygame
import pygame.gfxdraw

from viz.backends import fonts
from viz.draw.camera import Camera
from viz.draw.compose import Model, chars_drawn
from viz.draw.display import Circle, Color, Layer, Line, Polygon, Primitive, Rect, Sprite, Text

_cache = fonts.TextCache()
SPRITE_BYTES = 8 * 2**20  # pixels of sprites kept: a token is ~4 KB, each look a few variants


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
        # (target ref, its size, kept stack, tiles drawn again, what the other layers drew)
        self._shown: tuple | None = None

    def forget(self) -> None:
        """The target's pixels are no longer what the last frame left (the window was exposed,
        or something else drew on it): the next frame copies every kept layer whole."""
        self._shown = None

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


TILE = 32  # px: what changed since the last frame is tracked in tiles this size
SMALL = 48  # boxes _spans works out in plain Python (numpy's calls cost more for a few)


@dataclasses.dataclass
class _Drawn:
    """A layer drawn without keeping its pixels, as the last frame drew it: each primitive's
    box (None: it drew nothing) and drawing calls, in order."""

    camera: tuple  # its camera's key
    clip: pygame.Rect
    prims: list
    boxes: list
    ops: list
    spans: np.ndarray | None = None  # (n, 5) tiles each box meets inside the clip: r0 r1 c0
    # c1, and 1 if it is drawn other inside a clip than whole (see CLIPPED_DIFFER), else 0
    # (the last frame's spans, where its primitives now are, which ones they are): the rows of
    # primitives kept from it are copied, not worked out again
    kept: tuple[np.ndarray, list[int], list[int]] | None = None

    def tile_spans(self) -> np.ndarray:
        """The tiles (rows r0:r1, columns c0:c1) each primitive may change inside the clip,
        empty for one that changes none; and whether it may not be drawn clipped (1 or 0)."""
        if self.spans is None:
            if self.kept is not None:
                before, at, rows = self.kept
                self.kept = None
                taken = set(at)
                fresh = [j for j in range(len(self.boxes)) if j not in taken]
                out = np.empty((len(self.boxes), 5), np.int64)
                out[at] = before[rows]
                out[fresh] = _spans([self.boxes[j] for j in fresh],
                                    [self.ops[j] for j in fresh], self.clip)
                self.spans = out
            else:
                self.spans = _spans(self.boxes, self.ops, self.clip)
        return self.spans


def _spans(boxes: list, ops: list, c: pygame.Rect) -> np.ndarray:
    """The tiles (r0 r1 c0 c1) each box (None: none) meets inside the clip c, and whether its
    drawing calls draw other pixels clipped than whole (1, see CLIPPED_DIFFER, or 0)."""
    if len(boxes) <= SMALL:  # a frame's few new ones: in plain Python, the same integers
        cl, ct, cr, cb = c.left, c.top, c.right, c.bottom
        rows = []
        for b, o in zip(boxes, ops, strict=True):
            if b is None:
                rows.append((0, 0, 0, 0, 0))
                continue
            x0, y0 = max(int(b[0]), cl), max(int(b[1]), ct)
            x1, y1 = min(int(b[2]), cr), min(int(b[3]), cb)
            if x0 < x1 and y0 < y1:
                rows.append((y0 // TILE, (y1 - 1) // TILE + 1, x0 // TILE, (x1 - 1) // TILE + 1,
                             1 if any(fn in CLIPPED_DIFFER for fn, _ in o) else 0))
            else:
                rows.append((0, 0, 0, 0, 0))
        return np.array(rows, np.int64).reshape(-1, 5)
    a = np.array([(0, 0, 0, 0) if b is None else b for b in boxes], np.int64).reshape(-1, 4)
    x0, y0 = np.maximum(a[:, 0], c.left), np.maximum(a[:, 1], c.top)
    x1, y1 = np.minimum(a[:, 2], c.right), np.minimum(a[:, 3], c.bottom)
    ok = (x0 < x1) & (y0 < y1)
    odd = [any(fn in CLIPPED_DIFFER for fn, _ in o) for o in ops]
    return np.where(ok[:, None], np.stack(
        [y0 // TILE, (y1 - 1) // TILE + 1, x0 // TILE, (x1 - 1) // TILE + 1,
         np.array(odd, np.int64).reshape(-1)], axis=1), 0)


def draw_layers(surface: pygame.Surface, layers: Sequence[Layer],
                cache: LayerCache | None = None) -> list[pygame.Rect]:
    """Draw the layers in order, each through its camera inside its clip box; return the
    boxes of the target whose pixels may have changed.

    With a cache, a kept layer is copied from its pixels. When the target shows the last frame
    drawn through this cache with the same kept layers, only what changed is drawn again: the
    tiles where a primitive came, went or moved (one drawn last frame, the same object or an
    equal one, through the same camera, in the same order, is the same pixels), grown over
    the anti-aliased lines and polygons that meet them (clipped, those are drawn with other
    pixels: their ends are moved to the clip's edge). Those tiles, as a few boxes, are drawn
    again: in each box every layer in order (the kept ones copied), each primitive meeting the
    box drawn with the box as its clip, so it changes no pixel outside it; everywhere else the
    target holds this frame's pixels already. Draw on the target only through the cache, or
    call its forget()."""
    _seen.next_frame()
    _seen_texts.next_frame()
    size = surface.get_size()
    whole = surface.get_rect()
    kept = [cache is not None and _paints_its_clip(la) for la in layers]
    stack = tuple((la.name, la.key, la.clip) for la, k in zip(layers, kept, strict=True) if k)
    shown = cache._shown if cache is not None else None
    again = (shown is not None and shown[0]() is surface and shown[1] == size
             and shown[2] == stack)
    old: dict = shown[4] if again else {}
    drawn: dict[tuple[str, int], _Drawn] = {}
    plans: list[_Drawn | None] = []
    dirty: list[tuple[tuple, pygame.Rect]] = []  # (box, clip) of what came, went or moved
    for layer, keep in zip(layers, kept, strict=True):
        if keep:
            plans.append(None)
            continue
        name = (layer.name, sum(1 for n in drawn if n[0] == layer.name))
        clip = whole if layer.clip is None else pygame.Rect(layer.clip).clip(whole)
        ck = layer.camera.key()
        was = old.pop(name, None)
        if was is not None and (was.camera != ck or was.clip != clip):
            dirty += [(b, was.clip) for b in was.boxes if b is not None]
            was = None
        d = _Drawn(ck, clip, list(layer.prims), [], [])
        if was is None:
            for p in d.prims:
                box, ops = plan(p, layer.camera, size)
                d.boxes.append(box)
                d.ops.append(ops)
            if again:
                dirty += [(b, clip) for b in d.boxes if b is not None]
        else:
            dirty += _reuse(d, was, layer.camera, size)
        drawn[name] = d
        plans.append(d)
    for was in old.values():  # layers gone since the last frame
        dirty += [(b, was.clip) for b in was.boxes if b is not None]
    tiles = np.zeros((-(-size[1] // TILE), -(-size[0] // TILE)), bool)
    if again:
        for box, clip in dirty:
            _mark(tiles, (box,), clip)
        _grow(tiles, plans)
        runs = _runs(tiles, whole)
        redraw = _meets(runs, plans)
    for layer, keep, d in zip(layers, kept, plans, strict=True):
        if keep:
            clip = pygame.Rect(layer.clip)
            pixels = cache.pixels(layer, surface)
            surface.set_clip(clip)
            if not again:
                surface.blit(pixels, clip.topleft, clip)
                continue
            for box in runs:
                box = box.clip(clip)
                if box:
                    surface.blit(pixels, box.topleft, box)
            continue
        if not again:
            surface.set_clip(d.clip)
            for ops in d.ops:
                for fn, args in ops:
                    fn(surface, *args)
            _mark(tiles, [b for b in d.boxes if b is not None], d.clip)
            continue
        for k, r in redraw[id(d)]:  # in drawing order: each in every box it meets
            surface.set_clip(d.clip if r < 0 else runs[r].clip(d.clip))
            for fn, args in d.ops[k]:
                fn(surface, *args)
    surface.set_clip(None)
    if cache is not None:
        cache._shown = (weakref.ref(surface), size, stack, tiles, drawn)
    return runs if again else [whole]


def _reuse(d: _Drawn, was: _Drawn, camera: Camera, size) -> list[tuple[tuple, pygame.Rect]]:
    """Fill d's boxes and drawing calls, those of the primitives drawn last frame (the same
    object, else an equal one) taken from `was`; return the boxes that changed."""
    if d.prims == was.prims:  # the same objects (or equal ones) in the same order
        d.boxes, d.ops, d.spans = was.boxes, was.ops, was.spans
        return []
    if len(d.prims) == len(was.prims):  # as playing: a few replaced where they stood
        dirty = _reuse_in_place(d, was, camera, size)
        if dirty is not None:
            return dirty
    at = {id(p): k for k, p in enumerate(was.prims)}
    match: list[int | None] = [at.get(id(p)) for p in d.prims]
    found = [k for k in match if k is not None]
    if len(at) < len(was.prims) or len(set(found)) < len(found):  # an object twice: by turns
        turns: dict[int, list[int]] = {}
        for k, p in enumerate(was.prims):
            turns.setdefault(id(p), []).append(k)
        match = []
        for p in d.prims:
            ks = turns.get(id(p))
            match.append(ks.pop(0) if ks else None)
    if None in match:  # an equal primitive made anew (a clock's same words, the playhead)
        used = set(match)
        left: dict = {}
        for k, p in enumerate(was.prims):
            if k not in used and type(p) is not Sprite:  # a new token has moved: not equal
                left.setdefault(p, []).append(k)
        for j, p in enumerate(d.prims):
            if match[j] is None and left and type(p) is not Sprite:
                ks = left.get(p)
                if ks:
                    match[j] = ks.pop(0)
    dirty: list = []
    last, ordered = -1, True
    boxes, ops_ = was.boxes, was.ops
    for p, k in zip(d.prims, match, strict=True):
        if k is None:
            box, ops = plan(p, camera, size)
            if box is not None:
                dirty.append((box, d.clip))
        else:
            box, ops = boxes[k], ops_[k]
            ordered = ordered and k > last
            last = k
        d.boxes.append(box)
        d.ops.append(ops)
    used = set(match)
    if was.spans is not None:  # (was drawn through the same clip)
        at = [j for j, k in enumerate(match) if k is not None]
        d.kept = (was.spans, at, [match[j] for j in at])
    if not ordered:  # drawn in another order: wherever any of them is may differ
        dirty += [(b, d.clip) for b in d.boxes if b is not None]
        used = set()
    dirty += [(b, was.clip) for k, b in enumerate(was.boxes) if k not in used and b is not None]
    return dirty


def _reuse_in_place(d: _Drawn, was: _Drawn, camera: Camera,
                    size) -> list[tuple[tuple, pygame.Rect]] | None:
    """_reuse when the primitives stand in the same order as last frame's and only a few are
    other objects (walkers, their tags): those are planned again unless equal to the one they
    replace (not a Sprite: a new token has moved), the rest taken as they were. None when more
    than a quarter changed (then _reuse matches them wherever they are)."""
    new, old = d.prims, was.prims
    changed = [k for k, p in enumerate(new) if p is not old[k]]
    if len(changed) * 4 > len(new):
        return None
    boxes, ops = list(was.boxes), list(was.ops)
    dirty: list = []
    fresh: list[int] = []
    for k in changed:
        p = new[k]
        if type(p) is not Sprite and p == old[k]:
            continue  # an equal primitive made anew: the same pixels
        box, o = plan(p, camera, size)
        if boxes[k] is not None:
            dirty.append((boxes[k], was.clip))
        if box is not None:
            dirty.append((box, d.clip))
        boxes[k], ops[k] = box, o
        fresh.append(k)
    d.boxes, d.ops = boxes, ops
    if was.spans is not None:  # (was drawn through the same clip)
        spans = was.spans.copy()
        if fresh:
            spans[fresh] = _spans([boxes[k] for k in fresh], [ops[k] for k in fresh], d.clip)
        d.spans = spans
    return dirty


def _grow(tiles: np.ndarray, plans: list[_Drawn | None]) -> None:
    """Grow the changed tiles over every primitive meeting them that is not drawn clipped with
    the pixels it has drawn whole (see CLIPPED_DIFFER), until each such one lies inside them."""
    drawn = [d for d in plans if d is not None]
    if not drawn or not tiles.any():
        return
    sp = np.concatenate([d.tile_spans() for d in drawn])
    sp = sp[(sp[:, 4] != 0) & (sp[:, 0] < sp[:, 1]) & (sp[:, 2] < sp[:, 3])]  # (those that
    if not len(sp):  # change nothing are never drawn again)
        return
    r0, r1, c0, c1 = sp[:, 0], sp[:, 1], sp[:, 2], sp[:, 3]
    rows, cols = tiles.shape
    s = np.zeros((rows + 1, cols + 1), np.int32)
    s[1:, 1:] = tiles.cumsum(0).cumsum(1)
    first = np.flatnonzero(s[r1, c1] - s[r0, c1] - s[r1, c0] + s[r0, c0] > 0)
    if not len(first):
        return
    if int(((r1 - r0) * (c1 - c0)).sum()) > GROW_CELLS:  # many big ones: by arrays
        _grow_by_arrays(tiles, r0, r1, c0, c1, first)
        return
    # those meeting what is set grow it over theirs, and so on: who meets whom found through
    # the tiles each one covers (a frame's few dozen, in plain Python; the same as the last
    # frame's while nothing that may not be drawn clipped came, went or moved)
    key = sp[:, :4].tobytes()
    if _tiles_of[0] == key:
        spans, at = _tiles_of[1], _tiles_of[2]
    else:
        spans = sp[:, :4].tolist()
        at: dict[tuple[int, int], list[int]] = {}
        for i, (a, b, c, d) in enumerate(spans):
            for r in range(a, b):
                for q in range(c, d):
                    at.setdefault((r, q), []).append(i)
        _tiles_of[:] = [key, spans, at]
    inside = [False] * len(spans)
    todo = first.tolist()
    for i in todo:
        inside[i] = True
    grown: set[tuple[int, int]] = set()
    while todo:
        a, b, c, d = spans[todo.pop()]
        for r in range(a, b):
            for q in range(c, d):
                if (r, q) in grown:
                    continue
                grown.add((r, q))
                for j in at[(r, q)]:
                    if not inside[j]:
                        inside[j] = True
                        todo.append(j)
    ys, xs = zip(*grown, strict=True)
    tiles[list(ys), list(xs)] = True


GROW_CELLS = 4096  # tiles _grow looks at one by one (else as arrays)
_tiles_of: list = [None, None, None]  # _grow's last (spans as bytes, spans, tile → spans)


def _grow_by_arrays(tiles: np.ndarray, r0, r1, c0, c1, new: np.ndarray) -> None:
    """_grow's closure, level by level as arrays: the ones that meet the tiles set by the
    last level (the rectangles of its spans) make the next."""
    inside = np.zeros(len(r0), bool)
    while len(new):
        inside[new] = True
        for i in new.tolist():
            tiles[r0[i]:r1[i], c0[i]:c1[i]] = True
        rest = np.flatnonzero(~inside)
        if not len(rest):
            return
        a0, a1, b0, b1 = r0[new], r1[new], c0[new], c1[new]
        q0, q1, p0, p1 = r0[rest, None], r1[rest, None], c0[rest, None], c1[rest, None]
        new = rest[((q0 < a1) & (a0 < q1) & (p0 < b1) & (b0 < p1)).any(axis=1)]


def _meets(runs: list[pygame.Rect], plans: list[_Drawn | None]) -> dict[int, list]:
    """For each drawn layer, in drawing order, (primitive, box) for each box of tiles to draw
    again that a primitive meets; box -1 (the layer's clip, once) for one that may not be drawn
    clipped, which _grow has put inside the boxes whole. Those that change no tile are never
    drawn again."""
    drawn = [d for d in plans if d is not None]
    out: dict[int, list] = {id(d): [] for d in drawn}
    if not drawn or not runs:
        return out
    sp = np.concatenate([d.tile_spans() for d in drawn])
    if not len(sp):
        return out
    b = np.array([(r.top // TILE, -(-r.bottom // TILE), r.left // TILE, -(-r.right // TILE))
                  for r in runs], np.int64)
    meets = ((sp[:, None, 0] < b[None, :, 1]) & (b[None, :, 0] < sp[:, None, 1])
             & (sp[:, None, 2] < b[None, :, 3]) & (b[None, :, 2] < sp[:, None, 3])
             & (sp[:, None, 0] < sp[:, None, 1]))
    odd = sp[:, 4] != 0
    if odd.any():  # drawn once, whole: the first box it meets stands for all
        meets[odd] &= np.cumsum(meets[odd], axis=1) == 1
    ps, rs = np.nonzero(meets)  # by primitive in drawing order, then by box
    rs[odd[ps]] = -1
    start = 0
    for d in drawn:
        n = len(d.boxes)
        lo, hi = np.searchsorted(ps, (start, start + n))
        out[id(d)] = list(zip((ps[lo:hi] - start).tolist(), rs[lo:hi].tolist()))
        start += n
    return out


def _mark(tiles: np.ndarray, boxes: list, clip: pygame.Rect) -> None:
    """Set the tiles that the boxes (x0, y0, x1, y1) meet inside clip."""
    cx0, cy0, cx1, cy1 = clip.left, clip.top, clip.right, clip.bottom
    for x0, y0, x1, y1 in boxes:
        x0, y0, x1, y1 = max(x0, cx0), max(y0, cy0), min(x1, cx1), min(y1, cy1)
        if x0 < x1 and y0 < y1:
            tiles[y0 // TILE:(y1 - 1) // TILE + 1, x0 // TILE:(x1 - 1) // TILE + 1] = True


def _runs(tiles: np.ndarray, clip: pygame.Rect) -> list[pygame.Rect]:
    """The set tiles inside clip as boxes cut to clip: runs along a row, a run of the row
    above with the same ends grown down over this one."""
    r0, r1 = clip.top // TILE, -(-clip.bottom // TILE)
    c0, c1 = clip.left // TILE, -(-clip.right // TILE)
    sub = tiles[r0:r1, c0:c1]
    if not sub.any():
        return []
    padded = np.zeros((sub.shape[0], sub.shape[1] + 2), np.int8)
    padded[:, 1:-1] = sub
    edge = np.diff(padded, axis=1)
    rows, starts = np.nonzero(edge == 1)
    ends = np.nonzero(edge == -1)[1]
    boxes: list[list[int]] = []
    above: dict[tuple[int, int], list[int]] = {}
    here: dict[tuple[int, int], list[int]] = {}
    row = -1
    for r, a, b in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
        if r != row:
            above, here, row = (here if r == row + 1 else {}), {}, r
        y1 = min((r0 + r + 1) * TILE, clip.bottom)
        box = above.get((a, b))
        if box is not None:
            box[3] = y1
        else:
            box = [max((c0 + a) * TILE, clip.left), max((r0 + r) * TILE, clip.top),
                   min((c0 + b) * TILE, clip.right), y1]
            boxes.append(box)
        here[(a, b)] = box
    return [pygame.Rect(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes
            if x1 > x0 and y1 > y0]


def draw(surface: pygame.Surface, prims: Iterable[Primitive], camera: Camera,
         touched: list | None = None) -> None:
    """Draw each primitive in order (back to front); `touched` gets a box (x0, y0, x1, y1)
    round every pixel each one may have changed."""
    size = surface.get_size()
    for p in prims:
        box, ops = plan(p, camera, size)
        for fn, args in ops:
            fn(surface, *args)
        if touched is not None and box is not None:
            touched.append(box)


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
    """Whole pixels, clamped to what SDL draws without overflowing."""
    return [(round(min(max(x, -30000.0), 30000.0)), round(min(max(y, -30000.0), 30000.0)))
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


def _dashes(a: np.ndarray, on: float, off: float) -> list[tuple[tuple[float, float], ...]]:
    """Split a screen polyline into dash segments of `on` px separated by `off` px (in plain
    Python floats, the same numbers numpy gave: a plate's trails are thousands of dashes, and
    a numpy call per dash took a tenth of the atlas' time)."""
    out, period = [], on + off
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
            if phase < on:
                e = min(seg, s + on - phase)
                out.append(((px + ux * s, py + uy * s), (px + ux * e, py + uy * e)))
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
    parts = _dashes(a, *ln.dash) if ln.dash else [a]
    w = max(round(ln.width), 1)
    extent = _around(_ipts(a.tolist()), w + 2)
    ops: list = []
    for part in parts:
        pts = _ipts(part.tolist() if isinstance(part, np.ndarray) else part)
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
