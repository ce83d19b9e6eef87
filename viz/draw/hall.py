"""The hall, court and range as the layout draws them, to scale in 尺: the buildings and
furniture (`features`, small things over large), the 侯 laid flat in elevation
(`hou_elevation`, `hou_face`), and the names of features and places (`place_labels`).

The layout is read through its documented surface only (places, features, region_at), so a
fake with the same attributes draws the same way; `_place`, `_region` and `_court_south` are
those reads, for range_marks and bounds too.
"""
from __future__ import annotations

import numpy as np

from viz.draw.display import Circle, Color, Line, Polygon, Primitive, Text
from viz.draw.options import GREY, LABEL, WHITE, text_width_em

# kind → (fill, stroke, width px, dash); unknown kinds fall back to a grey outline
FEATURE_STYLE: dict[str, tuple[Color | None, Color | None, float, tuple[float, float] | None]] = {
    "court": ((241, 236, 222), (150, 140, 120), 1.0, None),
    "yard": ((241, 236, 222), (150, 140, 120), 1.0, None),
    "hall": ((226, 212, 184), (92, 72, 50), 2.0, None),
    "room": ((214, 200, 172), (92, 72, 50), 1.5, None),
    # a named area of the 堂 or a ground (房, 室, 北堂; layouts' regions:), a shade darker
    "region": ((216, 200, 170), (150, 128, 100), 1.0, None),
    # a roofed building standing on a ground (the 東塾 and 西塾 by a gate): an obstacle of
    # kind building, drawn solid with its name
    "building": ((214, 196, 164), (92, 72, 50), 1.5, None),
    "range": ((246, 243, 233), (200, 190, 170), 1.0, None),
    "wall": ((88, 74, 60), (70, 58, 46), 1.0, None),
    "pillar": ((80, 58, 40), (50, 36, 24), 1.0, None),
    "post": ((80, 58, 40), (50, 36, 24), 1.0, None),
    "implement": (None, (90, 70, 50), 2.0, None),
    "target_line": (None, (110, 60, 40), 3.0, None),
    "stair": ((205, 192, 166), (92, 72, 50), 1.5, None),
    "step": (None, (120, 100, 76), 1.0, None),
    "gate": ((205, 192, 166), (70, 58, 46), 2.0, None),
    "basin": ((168, 190, 200), (60, 80, 96), 1.5, None),
    "water": ((190, 212, 224), (60, 80, 96), 1.0, None),
    "mat": ((224, 204, 142), (150, 124, 64), 1.0, None),
    "vessel": ((150, 120, 90), (70, 50, 30), 1.0, None),
    "basket": ((196, 170, 120), (110, 86, 50), 1.0, None),
    "chime": ((120, 120, 130), (60, 60, 70), 1.5, None),
    "mark": (None, (168, 40, 32), 2.5, None),
    "target": ((236, 226, 196), (110, 60, 40), 1.5, None),
    "target_center": ((200, 60, 44), (110, 40, 30), 1.0, None),
    "blind": ((196, 176, 132), (100, 80, 50), 1.5, None),
    "rack": ((176, 140, 96), (90, 64, 36), 1.5, None),
    "counter": ((176, 140, 96), (90, 64, 36), 1.5, None),
    "beam": (None, (130, 110, 90), 1.0, (6.0, 4.0)),
    "line": (None, (130, 110, 90), 1.0, (6.0, 4.0)),
    "eave": (None, (150, 130, 110), 1.0, (2.0, 4.0)),
    "path": (None, (190, 180, 160), 1.0, (2.0, 3.0)),
}
DEFAULT_STYLE = (None, (130, 120, 110), 1.0, None)
# drawn first to last: ground, then buildings, then furniture, then lines on top
KIND_ORDER = ["range", "court", "yard", "path", "hall", "region", "room", "building", "stair", "step", "gate", "wall", "eave",
              "mat", "basin", "water", "vessel", "basket", "chime", "rack", "counter", "blind",
              "target", "target_center", "target_line", "post", "implement", "beam", "line", "mark",
              "pillar"]
PILLAR_R = 0.6  # 尺: a 楹 about a 尺 thick
HOU_LABELS = ("中", "上个", "躬", "下个", "侯（立面，倒置北）")

# The 侯 of a 鄉射 at 50 弓 (鄭, after 考工記 梓人): 中 10 尺 square, 躬 20 wide, 上个 40, 下个 30;
# each 躬 and 个 one 幅 (2 尺) high. Drawn in elevation, laid flat northward from its line, as the
# 禮圖 draw it, when the layout gives only a line or a point for the 侯.
HOU_BANDS = [("上个", 40.0, 2.0), ("上躬", 20.0, 2.0), ("中", 10.0, 10.0), ("下躬", 20.0, 2.0),
             ("下个", 30.0, 2.0)]


def _pts(points) -> tuple[tuple[float, float], ...]:
    a = np.asarray(points, dtype=float).reshape(-1, 2)
    return tuple((float(x), float(y)) for x, y in a)


def _label_of(f) -> str:
    lab = getattr(f, "label", "")
    if lab is True:
        return f.name
    return lab if isinstance(lab, str) else ""


def features(layout) -> list[Primitive]:
    """The buildings and furniture, in an order that keeps small things on top of large ones."""
    rank = {k: i for i, k in enumerate(KIND_ORDER)}
    feats = sorted(layout.features, key=lambda f: rank.get(f.kind, len(rank) // 2))
    out: list[Primitive] = []
    for f in feats:
        pts = _pts(f.points)
        if not pts:
            continue
        fill, stroke, width, dash = FEATURE_STYLE.get(f.kind, DEFAULT_STYLE)
        if f.kind == "target" and len(pts) <= 2:
            out += hou_elevation(pts)
        elif len(pts) == 1:
            r = PILLAR_R if f.kind == "pillar" else 1.0
            out.append(Circle(pts[0], r, fill or stroke, stroke, 1.0, min_px=2.5))
        elif f.closed and fill is not None and dash is None:
            out.append(Polygon(pts, fill, stroke, width))
        else:
            out.append(Line(pts, stroke or GREY, width, dash, closed=bool(f.closed)))
    return out


def _feature_label_at(f) -> tuple[tuple[float, float], str]:
    """Where a feature's name goes: beams and eaves at their west end, outside the hall, the
    rest at their middle."""
    a = np.asarray(f.points, float).reshape(-1, 2)
    if f.kind in ("beam", "line") and len(a) >= 2:
        w = a[np.argmin(a[:, 0])]
        return (float(w[0]) - 1.0, float(w[1])), "e"
    c = a.mean(axis=0)
    return (float(c[0]), float(c[1])), "c"


def hou_face(layout) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) in 尺 the 侯 is drawn in: its face's bands as the layout draws
    them (target, target_center) with its line, or, for a layout giving only the line, the
    face hou_elevation lays flat north of it; None without a 侯."""
    boxes = []
    for f in layout.features:
        if not f.kind.startswith("target"):
            continue
        pts = _pts(f.points)
        if f.kind == "target" and len(pts) <= 2:  # drawn by hou_elevation
            cx = sum(p[0] for p in pts) / len(pts)
            y0 = sum(p[1] for p in pts) / len(pts)
            half = max(w for _, w, _ in HOU_BANDS) / 2
            pts = [(cx - half, y0), (cx + half, y0 + sum(h for _, _, h in HOU_BANDS))]
        boxes += pts
    if not boxes:
        return None
    xs, ys = [p[0] for p in boxes], [p[1] for p in boxes]
    return (min(xs), min(ys), max(xs), max(ys))


def hou_elevation(pts: tuple[tuple[float, float], ...]) -> list[Primitive]:
    """The 侯 face, laid flat north of its line, bands centred on the line's middle."""
    cx = sum(p[0] for p in pts) / len(pts)
    y0 = sum(p[1] for p in pts) / len(pts)
    out: list[Primitive] = [Line(((cx - 20, y0), (cx + 20, y0)), (110, 60, 40), 3.0)]
    y = y0 + sum(h for _, _, h in HOU_BANDS)  # 上个 at the far (north) edge of the drawing
    for name, w, h in HOU_BANDS:
        fill = (200, 60, 44) if name == "中" else (236, 226, 196)
        out.append(Polygon(((cx - w / 2, y), (cx + w / 2, y), (cx + w / 2, y - h),
                            (cx - w / 2, y - h)), fill, (110, 60, 40), 1.0))
        y -= h
    zhong, shang, gong, xia, hou = HOU_LABELS
    out.append(Text((cx, y0 + 9), zhong, 11, WHITE, "c"))
    out.append(Text((cx + 21, y0 + 17), shang, 10, LABEL, "w"))
    out.append(Text((cx + 11, y0 + 13), gong, 10, LABEL, "w"))
    out.append(Text((cx + 16, y0 + 1), xia, 10, LABEL, "w"))
    out.append(Text((cx - 21, y0 + 9), hou, 10, LABEL, "e"))
    return out


def _place(layout, name: str):
    p = layout.places.get(name)
    return None if p is None else (float(p.x), float(p.y))



def _region(layout, x: float, y: float) -> str:
    try:
        return layout.region_at(x, y)
    except (AttributeError, ValueError):
        return ""


def _feature_region(layout, f) -> str:
    c = np.asarray(f.points, float).reshape(-1, 2).mean(axis=0)
    return _region(layout, float(c[0]), float(c[1]))


def _court_south(layout) -> float | None:
    ys = [float(np.asarray(f.points, float).reshape(-1, 2)[:, 1].min()) for f in layout.features
          if f.kind in ("court", "yard", "wall", "gate", "hall")]
    return min(ys) if ys else None



PLACE_PX = 12.0  # px (× the UI scale): the window's place names, legible from a classroom's back
PLACE_INK = (112, 102, 88)


def place_labels(layout, px_per_chi: float, places: bool = True,
                 ui: float | None = None) -> list[Primitive]:
    """Names of features and places, small and grey, leaving out those that would collide at
    this zoom: features first (they are drawn), then places in the layout's order. ui: the
    window's UI scale (names PLACE_PX × ui and up, darker); None: a plate's small names."""
    taken: list[tuple[float, float, float, float]] = []
    out: list[Primitive] = []

    def free(x: float, y: float, text: str, size: float, anchor: str) -> bool:
        w = (text_width_em(text) * size + 2) / px_per_chi
        h = (size + 2) / px_per_chi
        fx = {"c": 0.5, "n": 0.5, "s": 0.5, "e": 1.0, "w": 0.0}.get(anchor, 0.5)
        fy = {"c": 0.5, "n": 0.0, "s": 1.0}.get(anchor, 0.5)  # fraction of h above (y north)
        box = (x - fx * w, y - (1 - fy) * h, x + (1 - fx) * w, y + fy * h)
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in taken):
            return False
        taken.append(box)
        return True

    named: set[str] = set()
    for f in layout.features:
        text = _label_of(f)
        if not text:
            continue
        (x, y), anchor = _feature_label_at(f)
        named.add(f.name)
        size = 12.0 if f.kind in ("hall", "stair", "gate") else 11.0
        if ui is not None:
            size = (PLACE_PX + (1.0 if size == 12.0 else 0.0)) * ui
        if free(x, y, text, size, anchor):
            out.append(Text((x, y), text, size, LABEL, anchor))
    # regions, the roof's parts and points one only passes through are not worth a label
    skip = {"堂", "庭", "侯道", "棟", "楣"}
    for name, p in (layout.places.items() if places else ()):
        note = getattr(p, "note", None) or ""
        if name in named or name in skip or "via point" in note:
            continue
        x, y = float(p.x), float(p.y)
        size, ink = (10.0, (140, 130, 116)) if ui is None else (PLACE_PX * ui, PLACE_INK)
        if free(x, y - 0.6 / max(px_per_chi, 1e-6) * 4, name, size, "n"):
            out.append(Circle((x, y), 0.25, (150, 140, 126), None, min_px=1.5))
            out.append(Text((x, y - 0.6 / max(px_per_chi, 1e-6) * 4), name, size, ink, "n"))
    return out
