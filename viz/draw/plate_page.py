"""A plate's page: paper and ink (`_inked` turns the window's colours into ink on paper), where
the plan, the insets and the column go (`_page`, `_arrange`), and what ground the plan and the
range's inset frame (`_bounds`, `_range_view`), with who stands in the range or at the 賔's gate.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from viz.draw import labels, scene
from viz.draw.camera import Camera
from viz.draw.compose import Model, view_kind
from viz.draw.display import Box, Circle, Color, Line, Polygon, Primitive, Text
from viz.draw.extent import in_scene, scene_box

PAPER: Color = (250, 246, 236)
INK: Color = (28, 24, 20)
GREY: Color = (120, 110, 98)
ZHU: Color = (176, 48, 32)  # 朱: the moves, as a teacher marks a printed plate in red
ZHU_FAINT: Color = (222, 160, 148)
HALL_NEAR = 8.0  # 尺: who stands this near the 堂 is at the 堂 (the plan shows it whole)
MIN_SPAN = 40.0  # 尺: the least width and depth of the ground a plan shows
PLAN_PAD = 4.0  # 尺 of ground the plan shows beyond the 堂 and the outermost people and moves
# the layout's things a plate names where they stand (a 甒, a 篚, the 服's mat) rather than as
# the plan's small grey names: in a room they are named inside it (rooms, room_things)
FURNITURE = frozenset({"mat", "vessel", "water", "basin", "basket", "chime", "rack", "counter",
                       "implement"})
# what one stands in or against (擯者負東塾, 立于門中): framed whole with him (_bounds)
STOOD_BY = frozenset({"building", "gate", "stair"})
TOUCH = 2.0  # 尺: one this near a 塾, a gate, a stair stands by it


def _inner(box) -> labels.BoxT:
    x, y, w, h = box
    return (x + 2, y + 2, x + w - 2, y + h - 2)


def _ink(c: Color | None) -> Color | None:
    """A colour of the window's plan as ink on paper: reds stay 朱, light tones become a wash
    of the paper, the rest shades of ink by their lightness."""
    if c is None:
        return None
    r, g, b = c[:3]
    if r > g + 70 and r > b + 70:
        return ZHU
    lum = 0.3 * r + 0.59 * g + 0.11 * b
    if lum > 225:
        return PAPER
    if lum > 185:  # the hall's floor, mats, stairs: a pale wash, so the lines carry the plan
        return (238, 232, 216)
    k = min(max((lum - 40) / 150, 0.0), 1.0) * 0.55
    return tuple(round(i + (p - i) * k) for i, p in zip(INK, PAPER))


def _inked(p: Primitive) -> Primitive:
    if isinstance(p, Circle):
        return replace(p, fill=_ink(p.fill), stroke=_ink(p.stroke))
    if isinstance(p, Polygon):
        return replace(p, fill=_ink(p.fill), stroke=_ink(p.stroke))
    if isinstance(p, Line):
        return replace(p, color=_ink(p.color))
    if isinstance(p, Text):
        return replace(p, color=_ink(p.color) if p.color != scene.WHITE else PAPER,
                       bg=_ink(p.bg), border=_ink(p.border))
    return p


@dataclass(frozen=True)
class _Frame:
    """Where things go on the page."""

    page: Box
    map: Box
    side: Box
    title_y: float
    px: float  # the body text size
    insets: Box | None = None  # the column of insets (the range, the 賔's gate) beside the plan


def _page(size, wide: bool = False, insets: bool = False) -> _Frame:
    """The page: the plan, a column of insets when there are any, the text column (wider on a
    stage plate, which carries the stage's whole text)."""
    w, h = size
    m = round(min(w, h) * 0.035)
    px = max(12.0, round(min(w, h) / 70))
    title_h = round(px * 3.2)
    side_w = round(w * (0.34 if wide else 0.24))
    inset_w = round(w * 0.2) if insets else 0
    page = (m, m, w - 2 * m, h - 2 * m)
    body_h = h - 2 * m - title_h - 8
    mp = (m + 8, m + title_h, w - 2 * m - side_w - 24 - inset_w, body_h)
    ins = (mp[0] + mp[2] + 8, m + title_h, inset_w - 16, body_h) if insets else None
    side = (w - m - side_w - 8, m + title_h, side_w - 8, body_h)
    return _Frame(page, mp, side, m + title_h / 2, px, ins)


def rooms(layout) -> list[scene.Bounds]:
    """The layout's rooms (world boxes): its regions, those that meet along an edge no wall
    stands on joined as one (the 房 and its 北堂: 房無北壁故得北堂之名); none without regions."""
    rects = [tuple(float(v) for v in r.rect) for r in getattr(layout, "regions", ())]
    walls = [np.asarray(f.points, float).reshape(-1, 2) for f in layout.features
             if f.kind == "wall"]
    walls = [(*w.min(axis=0), *w.max(axis=0)) for w in walls]
    group = list(range(len(rects)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    def walled(x: float, y: float) -> bool:
        return any(w[0] - 0.3 <= x <= w[2] + 0.3 and w[1] - 0.3 <= y <= w[3] + 0.3
                   for w in walls)

    for i, a in enumerate(rects):
        for j in range(i + 1, len(rects)):
            b = rects[j]
            mid = None
            lo, hi = max(a[1], b[1]), min(a[3], b[3])  # side by side along x
            if hi > lo and (a[2] == b[0] or b[2] == a[0]):
                mid = (a[2] if a[2] == b[0] else a[0], (lo + hi) / 2)
            lo, hi = max(a[0], b[0]), min(a[2], b[2])  # one north of the other
            if hi > lo and (a[3] == b[1] or b[3] == a[1]):
                mid = ((lo + hi) / 2, a[3] if a[3] == b[1] else a[1])
            if mid is not None and not walled(*mid):
                group[root(j)] = root(i)
    out: dict[int, list] = {}
    for i, r in enumerate(rects):
        out.setdefault(root(i), []).append(r)
    return [(min(r[0] for r in rs), min(r[1] for r in rs), max(r[2] for r in rs),
             max(r[3] for r in rs)) for rs in out.values()]


def room_at(rms: list[scene.Bounds], x: float, y: float) -> scene.Bounds | None:
    """The room (of `rooms`) that holds (x, y), or None."""
    for r in rms:
        if r[0] <= x <= r[2] and r[1] <= y <= r[3]:
            return r
    return None


def room_px(cam: Camera, room: scene.Bounds | None) -> labels.BoxT | None:
    """A room's box on the plan (px), a px inside its walls' lines; None for None."""
    if room is None:
        return None
    pts = cam.to_screen(np.asarray([(room[0], room[1]), (room[2], room[3])], float))
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    return (float(x0) + 1, float(y0) + 1, float(x1) - 1, float(y1) - 1)


def room_things(layout) -> list:
    """The layout's things (FURNITURE, named) that stand in a room: (feature, room), named on
    the plate by the placer, inside the room where there is room (plate_people._lying)."""
    rms = rooms(layout)
    if not rms:
        return []
    out = []
    for f in layout.features:
        if f.kind not in FURNITURE or not scene._label_of(f):  # noqa: SLF001
            continue
        c = np.asarray(f.points, float).reshape(-1, 2).mean(axis=0)
        room = room_at(rms, float(c[0]), float(c[1]))
        if room is not None:
            out.append((f, room))
    return out


def _in_elsewhere(model: Model, pts: np.ndarray, b=False) -> np.ndarray:
    """Which points stand in the elsewhere scene (the 賔's gate; b: the bounds of the one
    shown, of several, scene_now's)."""
    return in_scene(model.elsewhere if b is False else b, pts)


def _bounds(model: Model, frame, found) -> scene.Bounds:
    """What the plan shows: the whole 堂 (its width and depth, whoever stands there) and
    everyone present at the school north of the range with the ends of the moves drawn there,
    with a margin; not the empty court around them (the range has its own inset); the 賔's
    gate instead while the rite is there."""
    if view_kind(model, frame) == "elsewhere":
        return scene_box(model, frame)
    site = scene.site_bounds(model.layout)
    x0, _, x1, y1 = model.near
    y0 = _range_top(model)
    halls = [np.asarray(f.points, float).reshape(-1, 2) for f in model.layout.features
             if f.kind == "hall"]
    hall = (np.vstack(halls) if halls
            else np.array([[site[0], site[1]], [site[2], site[3]]]))
    # who stands in the school, and where the moves start and end (a walk out to the range is
    # drawn as far as the plan goes, and on in the range's inset)
    pts = [frame.xy[frame.present]] + [g.points[[0, -1]] for g in found]
    a = np.vstack(pts)
    a = a[(a[:, 0] >= x0) & (a[:, 0] <= x1) & (a[:, 1] >= y0) & (a[:, 1] <= y1)]
    hall = hall[:, :2]
    hx0, hy0 = hall.min(axis=0)
    hx1, hy1 = hall.max(axis=0)
    on_hall = ((a[:, 0] >= hx0 - HALL_NEAR) & (a[:, 0] <= hx1 + HALL_NEAR)
               & (a[:, 1] >= hy0 - HALL_NEAR)) if len(a) else np.zeros(0, bool)
    if not len(a) or on_hall.any():
        # someone on or by the 堂: the whole 堂, where the rite is, and the 塾 or gate anyone
        # stands against whole (擯者負東塾)
        a = np.vstack([hall, a, *_stood_by(model.layout, a)])
    else:
        # nobody on the 堂 (the 主人 alone in the court, back from the 賔's gate): the plan is
        # framed to them and the things set down by them (the 筮 具饌于西塾), with the 塾 or
        # gate they stand by whole, with the 堂's edge above them when it is close, and no
        # narrower than MIN_SPAN (a plan four-fifths empty 堂 told nothing)
        a = np.vstack([a, _things_by(frame, a)])
        a = np.vstack([a, *_stood_by(model.layout, a)])
        if a[:, 1].max() >= hy0 - HALL_NEAR * 3:
            xs = np.clip([a[:, 0].min() - MIN_SPAN / 2, a[:, 0].max() + MIN_SPAN / 2], hx0, hx1)
            a = np.vstack([a, [[xs[0], hy0], [xs[1], hy0]]])
        cx, cy = (a.min(axis=0) + a.max(axis=0)) / 2
        half = np.maximum((a.max(axis=0) - a.min(axis=0)) / 2, MIN_SPAN / 2)
        a = np.vstack([a, [cx - half[0], cy - half[1]], [cx + half[0], cy + half[1]]])
    pad = PLAN_PAD
    return (float(a[:, 0].min()) - pad, float(a[:, 1].min()) - pad,
            float(a[:, 0].max()) + pad, float(a[:, 1].max()) + pad)


def _things_by(frame, a: np.ndarray) -> np.ndarray:
    """(k, 2) where the things set down within MIN_SPAN 尺 of one of the points `a` lie."""
    down = (frame.prop_holder < 0) & frame.prop_visible
    xy = frame.prop_xy[down].reshape(-1, 2)
    if not len(xy) or not len(a):
        return np.zeros((0, 2))
    d = np.hypot(xy[:, None, 0] - a[None, :, 0], xy[:, None, 1] - a[None, :, 1]).min(axis=1)
    return xy[d <= MIN_SPAN]


def _stood_by(layout, a: np.ndarray) -> list[np.ndarray]:
    """The corners of each 塾, gate or stair (STOOD_BY) one of the points `a` stands in or
    within TOUCH 尺 of (擯者負東塾, 立于門中): a plan framed on them shows it whole, not cut by
    the frame where he stands."""
    out = []
    if not len(a):
        return out
    for f in layout.features:
        if f.kind not in STOOD_BY:
            continue
        q = np.asarray(f.points, float).reshape(-1, 2)
        lo, hi = q.min(axis=0), q.max(axis=0)
        if (((a >= lo - TOUCH) & (a <= hi + TOUCH)).all(axis=1)).any():
            out.append(np.array([lo, hi]))
    return out


def _range_view(model: Model, frame, idx: list[int], found) -> scene.Bounds:
    """What the range inset shows: the range's length (from the first break to behind the
    侯), as wide as the 侯, the 乏, who stands there, the moves made there and the arrows
    lying there reach, with a margin."""
    b = model.range
    xs = [np.asarray(f.points, float).reshape(-1, 2)[:, 0] for f in model.layout.features
          if f.kind not in ("court", "wall", "range", "gate")
          and b[0] <= float(np.mean(np.asarray(f.points, float).reshape(-1, 2)[:, 0])) <= b[2]
          and b[1] <= float(np.mean(np.asarray(f.points, float).reshape(-1, 2)[:, 1])) <= b[3]]
    xs += [frame.xy[idx, 0]] if idx else []
    xs += [g.points[:, 0] for g in found]
    arrows = _arrows(model, frame)
    if len(arrows):
        arrows = arrows[_in_range(model, arrows)]
        xs.append(arrows[:, 0])
    a = np.concatenate(xs) if xs else np.array([b[0], b[2]])
    pad = 8.0
    return (max(b[0], float(a.min()) - pad), b[1], min(b[2], float(a.max()) + pad), b[3])


def _arrows(model: Model, frame) -> np.ndarray:
    """(k, 2) where the arrows set down lie (shot, fallen, leaning), one row an arrow."""
    props = model.timeline.props
    js = [j for j, p in enumerate(props) if p.name.endswith("矢")
          and int(frame.prop_holder[j]) < 0 and bool(frame.prop_visible[j])]
    return frame.prop_xy[js, :2].astype(float) if js else np.zeros((0, 2))


def _range_top(model: Model) -> float:
    """Where the range inset takes over from the plan: past the first break of the 侯道 (the
    ground by the gate, where people wait to come in, and the break itself stay in the plan)."""
    site = scene.site_bounds(model.layout)
    return model.breaks[0].south if model.breaks else site[1] - 20.0


def _in_range(model: Model, pts: np.ndarray, top: float | None = None) -> np.ndarray:
    """Which points stand in the range (south of what the main plan shows); `top` is
    _range_top(model), when the caller has it (it measures the whole site)."""
    b = model.range
    if b is None or not len(pts):
        return np.zeros(len(pts), bool)
    top = _range_top(model) if top is None else top
    return ((pts[:, 1] < top) & (pts[:, 0] >= b[0] - 10)
            & (pts[:, 0] <= b[2] + 10) & (pts[:, 1] >= b[1] - 10))


def _drawn(model: Model, bounds) -> tuple[float, float]:
    """The plan's ground as drawn (尺, the range's breaks taken out): width, depth."""
    cam = Camera((0, 0, 100, 100), breaks=model.breaks)
    d0, d1 = (float(cam.ymap.fwd(bounds[1])), float(cam.ymap.fwd(bounds[3])))
    return max(bounds[2] - bounds[0], 1e-6), max(d1 - d0, 1e-6)


def _walls(layout, cam: Camera) -> list[labels.BoxT]:
    """The boxes (px) of the walls and the stairs drawn on the plan: no name is written over
    them (a name over a stair hid the treads a reader counts the 等 by)."""
    out = []
    for f in layout.features:
        if f.kind == "wall":
            pts = cam.to_screen(np.asarray(f.points, float).reshape(-1, 2))
            out.append((*pts.min(axis=0), *pts.max(axis=0)))
    for st in getattr(layout, "stairs", ()):
        x0, y0, x1, y1 = st.rect
        pts = cam.to_screen(np.asarray([(x0, y0), (x1, y1)], float))
        out.append((*pts.min(axis=0), *pts.max(axis=0)))
    return [tuple(float(v) for v in b) for b in out]


def _furniture(layout, cam: Camera) -> list[labels.BoxT]:
    """The boxes (px) of the things set out that a name would hide (the 洗, a 尊, a 篚; not a
    mat, on which a name may be written): no name is written over them either."""
    out = []
    for f in layout.features:
        if f.kind in FURNITURE and f.kind != "mat":
            pts = cam.to_screen(np.asarray(f.points, float).reshape(-1, 2))
            out.append(tuple(float(v) for v in (*pts.min(axis=0), *pts.max(axis=0))))
    return out


def _north_up(model: Model, box: Box, bounds, margin: float) -> Box:
    """The part of the plan's box its ground fills at the largest scale, at the box's top (a
    plan narrower than deep leaves the room under it, not above the 堂)."""
    x, y, w, h = box
    bw, bh = _drawn(model, bounds)
    k = min((w - 2 * margin) / bw, (h - 2 * margin) / bh)
    return (x, y, w, min(h, bh * k + 2 * margin))


def _arrange(model: Model, size, wide: bool, bounds, insets: bool):
    """The page's frame, the row under the plan for the insets (or None: a column beside it,
    or no insets), and the plan's margin (px): the plan at the largest scale its ground
    fits. With insets, under the plan when that draws it no smaller than beside it (the row
    at least a quarter of the page's body), else in a column beside it."""
    pg = _page(size, wide=wide)
    margin = round(pg.px * 2.5)  # room for a name beside the outermost people
    bw, bh = _drawn(model, bounds)

    def scale(w: float, h: float) -> float:
        return min((w - 2 * margin) / bw, (h - 2 * margin) / bh)

    if not insets:
        return pg, None, margin
    mx, my, mw, mh = pg.map
    least = max(mh * 0.25, pg.px * 14)
    under = scale(mw, mh - least - pg.px * 0.5)
    col = _page(size, wide=wide, insets=True)
    beside = scale(col.map[2], col.map[3])
    if under < beside:
        return col, None, margin
    need = math.ceil(bh * under + 2 * margin)
    row = (mx, my + need + pg.px * 0.5, mw, mh - need - pg.px * 0.5)
    return replace(pg, map=(mx, my, mw, need)), row, margin


def _inset_height(model: Model, bounds, width: float, most: float, px: float) -> int:
    """The height of an inset `width` wide that shows `bounds` whole at the largest scale,
    with its title; at most `most`."""
    head = round(px * 1.6)
    cam = Camera((0, 0, width, 10 * most), breaks=model.breaks)
    cam.fit(bounds, margin=10)
    (_, y0), (_, y1) = cam.to_screen_pts([(bounds[0], bounds[3]), (bounds[2], bounds[1])])
    return round(min(abs(y1 - y0) + 20 + head, most))


def _inset_width(model: Model, bounds, most: float, height: float, px: float) -> int:
    """The width of an inset `height` tall that shows `bounds` whole at the largest scale, and
    room for its title; at most `most`."""
    head = round(px * 1.6)
    cam = Camera((0, 0, 10 * most, height - head), breaks=model.breaks)
    cam.fit(bounds, margin=10)
    (xa, _), (xb, _) = cam.to_screen_pts([(bounds[0], bounds[3]), (bounds[2], bounds[1])])
    return round(min(max(abs(xb - xa) + 20, px * 16), most))
