"""The pygame back end: draws composed layers onto a Surface (the window and the PNG alike).

`draw_layers` draws what viz.draw.compose returns; with a `LayerCache` the layers that carry a
key (the plans) are drawn once into a Surface and copied while the key stays the same, which
gives the same pixels as drawing them again. How each primitive becomes pixels (its box and
drawing calls) is viz.backends.pgprims.
"""
from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Iterable, Sequence

import numpy as np
import pygame

from viz.backends import fonts
from viz.backends.pgprims import CLIPPED_DIFFER, _seen, _seen_texts, plan
from viz.draw.camera import Camera
from viz.draw.compose import Model, chars_drawn
from viz.draw.display import Layer, Primitive, Rect, Sprite


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
    drawn, plans, dirty = _plan_layers(layers, kept, shown[4] if again else {}, again, size,
                                       whole)
    tiles = np.zeros((-(-size[1] // TILE), -(-size[0] // TILE)), bool)
    runs, redraw = None, None
    if again:
        for box, clip in dirty:
            _mark(tiles, (box,), clip)
        _grow(tiles, plans)
        runs = _runs(tiles, whole)
        redraw = _meets(runs, plans)
    for layer, keep, d in zip(layers, kept, plans, strict=True):
        if keep:
            _copy_kept(surface, layer, cache.pixels(layer, surface), runs)
        elif not again:
            surface.set_clip(d.clip)
            for ops in d.ops:
                for fn, args in ops:
                    fn(surface, *args)
            _mark(tiles, [b for b in d.boxes if b is not None], d.clip)
        else:
            for k, r in redraw[id(d)]:  # in drawing order: each in every box it meets
                surface.set_clip(d.clip if r < 0 else runs[r].clip(d.clip))
                for fn, args in d.ops[k]:
                    fn(surface, *args)
    surface.set_clip(None)
    if cache is not None:
        cache._shown = (weakref.ref(surface), size, stack, tiles, drawn)
    return runs if again else [whole]


def _plan_layers(layers: Sequence[Layer], kept: list[bool], old: dict, again: bool, size,
                 whole: pygame.Rect) -> tuple[dict, list, list]:
    """Each layer not kept as pixels planned (its primitives' boxes and drawing calls, those
    drawn last frame taken from `old`, the last frame's plans by layer name, which this
    empties): the plans by name, the plans in order (None for a kept layer), and the boxes
    (box, clip) of what came, went or moved since the last frame (only when `again`)."""
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
    return drawn, plans, dirty


def _copy_kept(surface: pygame.Surface, layer: Layer, pixels: pygame.Surface,
               runs: list[pygame.Rect] | None) -> None:
    """A kept layer copied from its pixels: whole, or only into the boxes drawn again."""
    clip = pygame.Rect(layer.clip)
    surface.set_clip(clip)
    if runs is None:
        surface.blit(pixels, clip.topleft, clip)
        return
    for box in runs:
        box = box.clip(clip)
        if box:
            surface.blit(pixels, box.topleft, box)


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
