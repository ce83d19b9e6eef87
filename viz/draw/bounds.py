"""The ground each view frames, in 尺: the school (`site_bounds`), the range (`range_bounds`),
the whole (`all_bounds`) and what the layout draws elsewhere (`elsewhere_bounds`, and each
scene apart: `elsewhere_scenes`). Nothing here draws.
"""
from __future__ import annotations

import numpy as np

from viz.draw.hall import _court_south, _feature_region, _place, _region
from viz.draw.range_marks import range_breaks

Bounds = tuple[float, float, float, float]


def _bbox(arrays: list[np.ndarray], pad: float) -> Bounds | None:
    if not arrays:
        return None
    a = np.vstack([np.asarray(p, float).reshape(-1, 2) for p in arrays])
    return (float(a[:, 0].min()) - pad, float(a[:, 1].min()) - pad,
            float(a[:, 0].max()) + pad, float(a[:, 1].max()) + pad)


def site_bounds(layout) -> Bounds:
    """The school: court and hall (what the plan is mostly about); of a court deep enough to
    hold the 侯, the part north of the range."""
    court = [f.points for f in layout.features if f.kind in ("court", "hall", "yard")]
    if not court:
        court = [f.points for f in layout.features
                 if _feature_region(layout, f) not in ("侯道", "elsewhere")]
    b = _bbox(court, 3.0) or (-50.0, -100.0, 50.0, 40.0)
    hou, court_s = _place(layout, "侯"), _court_south(layout)
    breaks = range_breaks(layout)
    if hou is not None and court_s is not None and court_s < hou[1] and breaks:
        b = (b[0], max(b[1], breaks[0].south + 2.0), b[2], b[3])  # the break drawn whole
    return b


def range_bounds(layout) -> Bounds | None:
    """The 侯道 south of the court with the 乏 and the 侯, or None if the layout has no 侯."""
    hou, fa = _place(layout, "侯"), _place(layout, "乏")
    if hou is None:
        return None
    rng = [f.points for f in layout.features if f.kind == "range"]
    court_s = _court_south(layout)
    if rng and court_s is not None and court_s < hou[1]:
        # the range inside a deep court: from the 乏 to just behind the 侯, the court's width
        # (the top is where the first break begins, so the inset opens with it, as before)
        r, brk = _bbox(rng, 0.0), range_breaks(layout)
        # (just inside it: a view reaches a margin beyond its box, which in the break would
        # be many 尺 of the north court)
        top = (brk[0].north - 2.0 if brk
               else (fa[1] + 16 if fa is not None else hou[1] + 40))
        b = (r[0] - 2, hou[1] - 12, r[2] + 2, top)
    elif rng:
        b = _bbox(rng, 2.0)
    else:
        pts = [np.array([hou[0] - 25, hou[1] - 6]), np.array([hou[0] + 25, hou[1] + 20])]
        if fa is not None:
            pts.append(np.array([fa[0] - 8, fa[1] + 8]))
        b = _bbox(pts, 2.0)
    breaks = range_breaks(layout)
    if breaks and b is not None:
        # begin where the first break does: the ground by the gate is in the main view
        b = (b[0], b[1], b[2], min(b[3], breaks[0].north + 1.0))
    return b


def all_bounds(layout) -> Bounds:
    a, b = site_bounds(layout), range_bounds(layout)
    court = _bbox([f.points for f in layout.features if f.kind == "court"], 3.0)
    if court is not None:  # a court deeper than the range: its gate too
        a = (min(a[0], court[0]), min(a[1], court[1]), max(a[2], court[2]), a[3])
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def elsewhere_bounds(layout) -> Bounds | None:
    """What the layout draws 'elsewhere' (the 賓's gate), where sections 1, 4 and 36 happen."""
    pts = [f.points for f in layout.features if _feature_region(layout, f) == "elsewhere"]
    pts += [np.array([p.x, p.y]) for p in layout.places.values()
            if _region(layout, p.x, p.y) == "elsewhere"]
    b = _bbox(pts, 6.0)
    if b is None:
        return None
    # at least 60 尺 across so people stand at a readable scale
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    w, h = max(b[2] - b[0], 60.0), max(b[3] - b[1], 40.0)
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def elsewhere_scenes(layout) -> list[tuple[str, Bounds]]:
    """Each elsewhere scene the layout declares (the 賔門, a 闈門, the 寢), named and framed on
    its own, as elsewhere_bounds frames all of them together: what is drawn elsewhere within
    the scene's ground (Layout.scenes). A layout of one scene (or a fake without `scenes`):
    elsewhere_bounds itself, named after the scene."""
    scenes = getattr(layout, "scenes", ())
    if len(scenes) <= 1:
        b = elsewhere_bounds(layout)
        return [] if b is None else [(scenes[0].name if scenes else "", b)]
    out = []
    for sc in scenes:
        x0, y0, x1, y1 = sc.box

        def inside(p) -> bool:
            c = np.asarray(p, float).reshape(-1, 2).mean(axis=0)
            return bool(x0 <= c[0] <= x1 and y0 <= c[1] <= y1)
        pts = [f.points for f in layout.features
               if _feature_region(layout, f) == "elsewhere" and inside(f.points)]
        pts += [np.array([p.x, p.y]) for p in layout.places.values()
                if _region(layout, p.x, p.y) == "elsewhere" and inside((p.x, p.y))]
        b = _bbox(pts, 6.0) or (x0, y0, x1, y1)
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        w, h = max(b[2] - b[0], 60.0), max(b[3] - b[1], 40.0)
        out.append((sc.name, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)))
    return out
