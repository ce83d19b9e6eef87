"""Props on the plan: each drawn as a small object (`prop_glyph`: an arrow, a bow, a cup, the 豐,
a bundle of 算, a 俎, a dish), the props set down as objects where they lie with one count a
cluster (`set_down_objects`), and as tags by name and place (`set_down_tags`, `thing_tag`).
"""
from __future__ import annotations

import math

import numpy as np

from viz.draw import dress, labels
from viz.draw.camera import ymap_for
from viz.draw.display import Circle, Line, Polygon, Primitive, Text
from viz.draw.options import SceneOptions
from viz.draw.viewmemo import _memo, _ViewMemo

PROP_INK = (96, 64, 30)
CUP = set("觶爵觚散角")
COUNTED = set("矢算")  # what lies in clusters worth a count (arrows shot, 算 laid)
MATS = set("筵席")  # things spread (筵于戸西南面): drawn at their size, facing as laid
MAT = (5.0, 2.0)  # 尺, length × depth: as the layouts' mats (layouts/xu.yaml 賔席: 5 × 2)
MAT_FILL, MAT_INK = (224, 204, 142), (150, 124, 64)  # the layout's "mat" (viz/draw/hall.py)


def set_down_objects(timeline, frame, o: SceneOptions) -> tuple[bytes, list[Primitive]]:
    """(what they depend on, the objects): props set down drawn where they lie, for a layer
    that is drawn again only when one of them came, went or moved (the plan's)."""
    k = max(o.px_per_chi, 1e-6)
    ymap = ymap_for(o.breaks)
    memo = _memo(timeline, o)
    _set_down_objects(memo, timeline, frame, o, lambda x, y: (x * k, -ymap.fwd1(y) * k))
    return memo.objects[0], memo.objects[1][0]


def _set_down_objects(memo: _ViewMemo, timeline, frame, o: SceneOptions, to_px):
    """Props set down as objects where they lie (an arrow, a cup, a 俎 …); for a cluster of
    arrows or 算 within a glyph's reach, one count request (×N), left out if it finds no room;
    and each object's box (px), which no tag covers."""
    down = (frame.prop_holder < 0) & frame.prop_visible
    faces = laid_faces(frame)
    key = down.tobytes() + frame.prop_xy[down].tobytes() + (faces.tobytes() if len(faces) else b"")
    if memo.objects is not None and memo.objects[0] == key:
        return memo.objects[1]
    spots: list[labels.BoxT] = []
    k = max(o.px_per_chi, 1e-6)
    prims: list[Primitive] = []
    clusters: list[tuple[str, list[tuple[float, float]]]] = []
    reach = 16.0 * o.ui  # px: one count for the arrows lying this close together
    for j in np.nonzero(down)[0].tolist():
        name = timeline.props[j].name
        x, y = float(frame.prop_xy[j, 0]), float(frame.prop_xy[j, 1])
        prims += prop_glyph(x, y, name, k, o.ui, j,
                            float(faces[j]) - 1 if len(faces) > j and faces[j] else None)
        px, py = to_px(x, y)
        spots.append(labels.circle_box(round(px), round(py), 4.0 * o.ui))
        for nm, pts in clusters:
            if nm == name and math.hypot(pts[0][0] - px, pts[0][1] - py) < reach:
                pts.append((px, py))
                break
        else:
            clusters.append((name, [(px, py)]))
    reqs = []
    for name, pts in clusters:
        if len(pts) < 2 or name[-1:] not in COUNTED:
            continue
        cx = sum(q[0] for q in pts) / len(pts)
        cy = sum(q[1] for q in pts) / len(pts)
        text = f"×{len(pts)}"
        t = Text((cx / k, 0.0), text, 10.0 * o.ui / k, PROP_INK, "c", unit="chi",
                 min_px=10.0 * o.ui, max_px=10.0 * o.ui, bg=(252, 240, 200))
        req = labels.Label((cx, cy), *labels.text_size(text, round(10.0 * o.ui), 2), r=reach)
        reqs.append(("set_down", -1, t, req))
    spots = list(dict.fromkeys(spots))  # one box a spot (four arrows leaning together: one)
    memo.objects = (key, (prims, reqs, spots))
    return prims, reqs, spots


def laid_faces(frame) -> np.ndarray:
    """Each prop's own facing as it lies, 1 + degrees (0: never laid with one): the "lay"
    channel (put: {…, face: …}; a prop declared with face:), or none at all."""
    v = frame.values.get("lay", {}).get("face") if frame.values else None
    return np.zeros(0, int) if v is None else np.asarray(v)


def mat_glyph(x: float, y: float, face: float | None) -> list[Primitive]:
    """A 筵 (席) spread at (x, y), drawn at its size (MAT, 尺) as the layout's mats are: its
    long side across its facing (南面 lies east-west), a line along the edge it faces."""
    r = math.radians(180.0 if face is None else face)
    fx, fy = math.sin(r), math.cos(r)  # the way it faces (0 = north, +y)
    ax, ay = fy, -fx  # along its length
    hl, hw = MAT[0] / 2, MAT[1] / 2
    pts = tuple((x + sa * hl * ax + sb * hw * fx, y + sa * hl * ay + sb * hw * fy)
                for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1)))
    front = ((x - hl * ax + hw * 0.6 * fx, y - hl * ay + hw * 0.6 * fy),
             (x + hl * ax + hw * 0.6 * fx, y + hl * ay + hw * 0.6 * fy))
    return [Polygon(pts, MAT_FILL, MAT_INK, 1.0), Line(front, MAT_INK, 1.0)]


def prop_glyph(x: float, y: float, name: str, k: float, ui: float = 1.0,
               turn: int = 0, face: float | None = None, held: bool = False) -> list[Primitive]:
    """A prop drawn as a small object at (x, y) 尺, a few px across at any zoom: an arrow (矢),
    a bow (弓), a cup (觶, 爵 …), the 豐 stand, a bundle of 算, a 俎, else a dish; a mat (筵,
    席) set down is drawn spread at its size, facing face (degrees), and rolled when held."""
    u = ui / max(k, 1e-6)  # 尺 per px
    last = name[-1:]
    if last in MATS:
        if not held:
            return mat_glyph(x, y, face)
        return [Polygon(((x - 5 * u, y - 1.5 * u), (x + 5 * u, y - 1.5 * u),
                         (x + 5 * u, y + 1.5 * u), (x - 5 * u, y + 1.5 * u)), MAT_FILL, MAT_INK,
                        1.0)]
    if last == "矢":
        ang = math.radians(25 + (turn * 47) % 130)
        dx, dy = math.cos(ang) * 6 * u, math.sin(ang) * 6 * u
        hx, hy = math.cos(ang + 2.6) * 2.5 * u, math.sin(ang + 2.6) * 2.5 * u
        gx, gy = math.cos(ang - 2.6) * 2.5 * u, math.sin(ang - 2.6) * 2.5 * u
        tip = (x + dx, y + dy)
        return [Line(((x - dx, y - dy), tip), PROP_INK, 1.5),
                Line(((tip[0] + hx, tip[1] + hy), tip, (tip[0] + gx, tip[1] + gy)), PROP_INK,
                     1.5)]
    if name.startswith("弛"):
        return dress.bow_glyph(x, y, u, strung=False)
    if "弓" in name:
        arc = tuple((x + 4.5 * u * math.cos(math.radians(a)), y + 4.5 * u * math.sin(math.radians(a)))
                    for a in range(200, 341, 20))
        return [Line(arc, PROP_INK, 2.0), Line((arc[0], arc[-1]), PROP_INK, 1.0)]
    if last in CUP:
        return [Circle((x, y), 2.8 * u, (236, 204, 120), PROP_INK, 1.0)]
    if last == "豐":
        return [Circle((x, y), 4.0 * u, (214, 184, 130), PROP_INK, 1.5),
                Circle((x, y), 1.6 * u, (236, 204, 120), PROP_INK, 1.0)]
    if last == "算":
        return [Line(((x - 3 * u, y + o * u), (x + 3 * u, y + o * u)), PROP_INK, 1.5)
                for o in (-2.0, 0.0, 2.0)]
    w, h = (4.5, 2.8) if last == "俎" else (3.0, 3.0)
    return [Polygon(((x - w * u, y - h * u), (x + w * u, y - h * u), (x + w * u, y + h * u),
                     (x - w * u, y + h * u)), (226, 196, 140) if last != "俎" else (176, 140, 96),
                    PROP_INK, 1.0)]


def prop_tag(x: float, y: float, name: str, anchor: str = "c") -> Text:
    """A prop as its name in a small box: 爵, 觶, 弓, 矢, 扑 …"""
    return Text((x, y), name, 0.9, (60, 40, 20), anchor, unit="chi", min_px=10, max_px=13,
                bg=(252, 240, 200), border=(150, 120, 60))


def set_down_tags(timeline, frame) -> list[Text]:
    """Props set down, one tag per kind and place: six 乘矢 leaning at the 西序 read 乘矢×6."""
    return [tag for tag, _ in _set_down_groups(timeline, frame)]


def thing_tag(timeline, frame, j: int) -> Text | None:
    """The tag of the group of props set down that prop j lies in (its name, and how many lie
    there), or None when j is not set down and seen."""
    for tag, members in _set_down_groups(timeline, frame):
        if j in members:
            return tag
    return None


def _set_down_groups(timeline, frame) -> list[tuple[Text, list[int]]]:
    """set_down_tags, each tag with the props it names."""
    groups: list[tuple[str, list[tuple[float, float]], list[int]]] = []
    for j, p in enumerate(timeline.props):
        if int(frame.prop_holder[j]) < 0 and bool(frame.prop_visible[j]):
            x, y = float(frame.prop_xy[j, 0]), float(frame.prop_xy[j, 1])
            # same name within 1.5 尺 of a group's first member joins it (a grid would split
            # neighbours that straddle a cell edge)
            for name, pts, js in groups:
                if name == p.name and math.hypot(pts[0][0] - x, pts[0][1] - y) < 1.5:
                    pts.append((x, y))
                    js.append(j)
                    break
            else:
                groups.append((p.name, [(x, y)], [j]))
    out: list[tuple[Text, list[int]]] = []
    for name, pts, js in groups:
        x = sum(q[0] for q in pts) / len(pts)
        y = sum(q[1] for q in pts) / len(pts)
        out.append((prop_tag(x, y, name if len(pts) == 1 else f"{name}×{len(pts)}"), js))
    return out
