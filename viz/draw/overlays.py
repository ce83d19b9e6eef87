"""The map's overlays (the legend, the scale bar with its north arrow) kept off the people: after
the people and their names are placed, each overlay that would cover a token or a name moves to
another corner of the map, else shrinks, else folds away (issue 27: a projector's class reads
every name). The range inset is kept clear by the framing: names are placed outside its column,
and it folds while anyone stands under it (compose._clear_of_people)."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np

from viz.draw import hud, scene
from viz.draw.camera import Camera, ymap_for
from viz.draw.display import Polygon, Primitive, Text

Box = tuple[float, float, float, float]  # x, y, w, h px
OVERLAY_W = 225.0  # px at scale 1: the scale bar (up to 140 px), its note and the arrow
SHRINK = 0.7  # an overlay that finds no free corner is tried again this much smaller
EDGE = 10.0  # px (× the scale) from the map's edges
PAD = 2.0  # px kept clear round a token or a name


def overlay_k(column: float | None, ui: float) -> float:
    """The scale bar's scale: the UI scale, or less where the right column is narrower than the
    bar needs (it never drops under 1: at scale 1 it fits the narrowest column)."""
    if column is None:
        return ui
    return min(ui, max(1.0, (column - 16 * ui) / OVERLAY_W))


def scale_bar(cam: Camera, chi_m: float, corner: tuple[float, float], k: float
              ) -> list[Primitive]:
    """scene.overlay at scale k: built at 1/k through a camera 1/k as large (so the bar
    measures true), then drawn k times larger."""
    if k == 1.0:
        return scene.overlay(cam, chi_m, corner)
    small = SimpleNamespace(scale=cam.scale / k)
    return list(hud.scaled(scene.overlay(small, chi_m, (corner[0] / k, corner[1] / k)), k))


def prims_box(prims) -> Box:
    """The box (x, y, w, h) round screen primitives: polygons by their points, texts by their
    width estimate and anchor (rects by their box)."""
    xs: list[float] = []
    ys: list[float] = []
    for p in prims:
        if isinstance(p, Polygon):
            xs += [q[0] for q in p.points]
            ys += [q[1] for q in p.points]
        elif isinstance(p, Text):
            w, h = hud.text_width(p.text, p.size), p.size * 1.45
            x, y = p.pos
            a = p.anchor
            x0 = x - w if "e" in a else (x if "w" in a else x - w / 2)
            y0 = y - h if "s" in a else (y if "n" in a else y - h / 2)
            xs += [x0, x0 + w]
            ys += [y0, y0 + h]
        elif hasattr(p, "box"):
            x, y, w, h = p.box
            xs += [x, x + w]
            ys += [y, y + h]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def drawn_boxes(cam: Camera) -> np.ndarray:
    """The boxes (x0, y0, x1, y1, screen px) of the tokens, dots and names the main view drew
    in the last frame (scene.last_drawn), padded a little."""
    drawn, tokens = scene.last_drawn(main=True)
    boxes = [d.box for d in drawn] + list(tokens)
    if not boxes:
        return np.zeros((0, 4))
    k = cam.scale
    origin = cam.to_screen(np.array([[0.0, 0.0]]))[0]  # the plane's (0, -ymap(0)·k) point
    dx = float(origin[0])
    dy = float(origin[1]) + ymap_for(cam.breaks).fwd1(0.0) * k
    a = np.asarray(boxes, float).reshape(-1, 4)
    return a + np.array([dx - PAD, dy - PAD, dx + PAD, dy + PAD])


_plan_boxes: dict = {}  # the plan layer's key → its names' boxes (the plan is kept by key)


def plan_boxes(layer) -> np.ndarray:
    """The boxes (x0, y0, x1, y1, screen px) of the names the plan layer writes (places,
    features: px-sized texts at points in 尺), padded a little; kept while the layer is."""
    key = layer.key
    got = _plan_boxes.get(key) if key is not None else None
    if got is not None:
        return got
    texts = [p for p in layer.prims if isinstance(p, Text) and not p.screen and p.unit == "px"]
    if not texts:
        return np.zeros((0, 4))
    at = layer.camera.to_screen(np.array([p.pos for p in texts], float))
    rows = []
    for p, (x, y) in zip(texts, at.tolist()):
        w, h = hud.text_width(p.text, p.size), p.size * 1.3
        fx, fy = scene._FRAC.get(p.anchor, (0.5, 0.5))  # noqa: SLF001
        rows.append((x - fx * w - PAD, y - fy * h - PAD, x + (1 - fx) * w + PAD,
                     y + (1 - fy) * h + PAD))
    out = np.asarray(rows, float)
    if key is not None:
        if len(_plan_boxes) >= 8:
            _plan_boxes.clear()
        _plan_boxes[key] = out
    return out


def _meets(box: Box, boxes: np.ndarray) -> bool:
    if not len(boxes):
        return False
    x, y, w, h = box
    return bool(((boxes[:, 0] < x + w) & (boxes[:, 2] > x) & (boxes[:, 1] < y + h)
                 & (boxes[:, 3] > y)).any())


def _as_xyxy(box: Box) -> np.ndarray:
    x, y, w, h = box
    return np.array([[x, y, x + w, y + h]])


def _corners(free: Box, w: float, h: float, e: float) -> list[tuple[float, float]]:
    """Top left corners of a w × h box in each corner of `free`: top left, top right, bottom
    left, bottom right."""
    x, y, fw, fh = free
    return [(x + e, y + e), (x + fw - w - e, y + e), (x + e, y + fh - h - e),
            (x + fw - w - e, y + fh - h - e)]


def _inside(box: Box, area: Box) -> bool:
    return (box[0] >= area[0] - 0.5 and box[1] >= area[1] - 0.5
            and box[0] + box[2] <= area[0] + area[2] + 0.5
            and box[1] + box[3] <= area[1] + area[3] + 0.5)


def clear_of_names(fr, cam: Camera, chi_m: float, mbox: Box, free: Box, ui: float,
                   substitutions: tuple = (), boxes: np.ndarray | None = None, plan=None):
    """The framing with its legend and scale bar off every token and name drawn (the people's,
    and the plan's names of places when its layer is given): each stays,
    or goes to the first free corner of the map's free part (`free`: the map less the inset's
    column), or is drawn SHRINK smaller there, or is folded away (fr.folded names it). The
    two keep off each other and off the inset."""
    boxes = drawn_boxes(cam) if boxes is None else boxes
    if plan is not None:
        boxes = np.vstack([boxes, plan_boxes(plan)])
    taken = boxes if fr.inset_box is None else np.vstack([boxes, _as_xyxy(fr.inset_box)])
    e = EDGE * ui
    lx, ly, lw = fr.legend_at
    legend = None
    for k in (1.0, SHRINK):
        w = lw * k  # narrower: its words wrap, and under its least width it is drawn smaller
        h = hud.legend_height(w, ui, substitutions)
        for at in [(lx, ly)] * (k == 1.0) + _corners(free, w, h, e):
            b = (at[0], at[1], w, h)
            if _inside(b, mbox) and not _meets(b, taken):
                legend = (at[0], at[1], w, h)
                break
        if legend is not None:
            break
    folded = list(fr.folded)
    if legend is None:
        folded.append("legend")
    else:
        fr = replace(fr, legend_at=(legend[0], legend[1], legend[2]))
        taken = np.vstack([taken, _as_xyxy(legend)])
    bar = _place_bar(fr, cam, chi_m, mbox, free, taken, e)
    if bar is None:
        folded.append("overlay")
    else:
        fr = replace(fr, overlay_at=bar[0], overlay_k=bar[1])
    return replace(fr, folded=tuple(folded))


def _place_bar(fr, cam: Camera, chi_m: float, mbox: Box, free: Box, taken: np.ndarray,
               e: float) -> tuple[tuple[float, float], float] | None:
    """Where the scale bar goes (its bottom left corner) and at what scale, or None."""
    k0 = fr.overlay_k
    x0, y0 = fr.overlay_at
    for k in (k0, k0 * SHRINK):
        bx, by, bw, bh = prims_box(scale_bar(cam, chi_m, (0.0, 0.0), k))  # offsets from corner
        tries = [(x0, y0)] if k == k0 else []
        tries += [(cx - bx, cy - by) for cx, cy in _corners(free, bw, bh, e)]
        for cx, cy in tries:
            b = (cx + bx, cy + by, bw, bh)
            if _inside(b, mbox) and not _meets(b, taken):
                return (cx, cy), k
    return None
