"""The range inset's arrows and the 乏's name, for the window (compose).

Where each arrow lies and whether it hit comes from the model (the timeline's scoring: each
shot's prop, hit and landing point); this only draws it. An arrow lying where its shot left it
is drawn as a hit (獲: a dot on the 侯's face) or a miss (不中: a short grey stroke on the
ground short of the 侯 or beside it), the two kept apart: a hit's dot lies wholly inside the
侯's drawn box and a miss's stroke wholly outside it, so the eye tells them apart at any size.
An arrow no scored shot put there (誘射's four, 注 以其不獲) is a ring, counted as neither.
When the inset is small the counts are written out (獲 n / 不中 m). The 乏's name is placed
beside the 乏 where no token covers it."""
from __future__ import annotations

import math
import weakref

import numpy as np

from . import labels, scene
from .display import Circle, Line, Primitive, Text

HIT_INK = (30, 24, 20)  # a hit: a dark dot on the 侯 (the 中 is red, the 躬 pale)
HIT_RIM = (250, 244, 228)
MISS_INK = (150, 140, 124)  # a miss: a grey stroke on the ground
UNSCORED_INK = (110, 60, 40)  # an arrow no scored shot put there (誘射's): a ring
COUNT_INK = (90, 40, 30)
COUNT_BG = (252, 240, 200)
FA_INK = (112, 102, 88)
HIT_R = 2.5  # px (× the UI scale): a hit's dot
MISS_LEN = 7.0  # px (× the UI scale): a miss's stroke
GAP = 2.0  # px (× the UI scale): between a miss's stroke and the 侯's box
SMALL_FACE = 120.0  # px: a 侯 drawn narrower than this is small: the counts are written out
COUNT_PX = 12.0  # px (× the UI scale)
FA_PX = 10.0  # px (× the UI scale): the 乏's name, as range_marks writes it elsewhere
COUNTS = scene.SHOT_COUNTS
NOSE = 1.35  # a token's reach as a multiple of its radius: its nose (facing) included

_by_prop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shots(timeline) -> dict[int, list[tuple[float, bool, float, float]]]:
    """prop index -> its shots (t_land, hit, x, y) in order of landing, from the model."""
    got = _by_prop.get(timeline)
    if got is None:
        got = {}
        for e in (timeline.scoring or {}).get("shots", ()):
            j = timeline.prop_index.get(e["prop"])
            if j is not None:
                got.setdefault(j, []).append((float(e["t_land"]), bool(e["hit"]),
                                              float(e["x"]), float(e["y"])))
        for v in got.values():
            v.sort()
        _by_prop[timeline] = got
    return got


def lying(timeline, frame) -> dict[int, bool | None]:
    """The arrows lying where a shot left them at this moment (not yet gathered): prop index ->
    hit, as the model decided it; None for an arrow lying there that no scored shot put there
    (誘射's four, drawn on the 侯: 注 以其不獲 — neither hit nor miss is told of them)."""
    out: dict[int, bool | None] = {}
    shot = _shots(timeline)
    for j in np.flatnonzero(frame.prop_visible & (frame.prop_holder < 0)).tolist():
        if j not in shot and timeline.props[j].name.endswith("矢"):
            out[j] = None
    for j, shots in shot.items():
        if not (frame.prop_visible[j] and frame.prop_holder[j] < 0):
            continue
        last = None
        for s in shots:
            if s[0] <= frame.t + 1e-6:
                last = s
        if last is None:
            continue
        x, y = float(frame.prop_xy[j, 0]), float(frame.prop_xy[j, 1])
        if math.hypot(x - last[2], y - last[3]) < 0.5:
            out[j] = last[1]
    return out


def without(frame, props) -> object:
    """The frame with these props not drawn as objects (the inset draws them as hits and
    misses instead)."""
    if not props:
        return frame
    vis = frame.prop_visible.copy()
    vis[list(props)] = False
    out = object.__new__(type(frame))
    out.__dict__.update(frame.__dict__)
    out.__dict__.update(prop_visible=vis)
    return out


def face_px(layout, camera) -> tuple[float, float, float, float] | None:
    """The 侯's drawn box in px (x0, y0, x1, y1, y down), or None without a 侯."""
    box = scene.hou_face(layout)
    if box is None:
        return None
    (ax, ay), (bx, by) = camera.to_screen_pts([(box[0], box[1]), (box[2], box[3])])
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def inside(box, x: float, y: float, m: float = 0.0) -> bool:
    """Whether (x, y) lies in box shrunk by m (grown, for m < 0)."""
    return box[0] + m <= x <= box[2] - m and box[1] + m <= y <= box[3] - m


def _out_of(box, x: float, y: float, reach: float) -> tuple[float, float]:
    """(x, y) moved, if needed, the shortest way out of box grown by reach."""
    x0, y0, x1, y1 = box[0] - reach, box[1] - reach, box[2] + reach, box[3] + reach
    if not (x0 < x < x1 and y0 < y < y1):
        return x, y
    moves = [(x - x0, (x0, y)), (x1 - x, (x1, y)), (y - y0, (x, y0)), (y1 - y, (x, y1))]
    return min(moves, key=lambda m: m[0])[1]


def marks(timeline, frame, layout, camera, body, ui: float = 1.0
          ) -> tuple[list[Primitive], dict]:
    """(primitives in px, what was drawn): each arrow lying on the range as a hit inside the
    侯's drawn box or a miss outside it, and, when the 侯 is drawn small, the counts in the
    inset's lower left corner. What was drawn: {"face": box, "hits": [(x, y, r)], "misses":
    [((x0, y0), (x1, y1))], "counts": text or None, "hit": n, "miss": m}."""
    shot = lying(timeline, frame)
    face = face_px(layout, camera)
    out: list[Primitive] = []
    info = {"face": face, "hits": [], "misses": [], "unscored": [], "counts": None,
            "hit": sum(h is True for h in shot.values()),
            "miss": sum(h is False for h in shot.values())}
    if not shot or face is None:
        return out, info
    r, half, gap = HIT_R * ui, MISS_LEN * ui / 2, GAP * ui
    misses, hits, rings = [], [], []
    for j, hit in sorted(shot.items()):
        x, y = camera.to_screen_pts([(float(frame.prop_xy[j, 0]), float(frame.prop_xy[j, 1]))])[0]
        if hit is None:  # not scored: a ring where it lies, on the 侯 if there
            if inside(face, x, y, -r):
                x = min(max(x, face[0] + r + 1), face[2] - r - 1)
                y = min(max(y, face[1] + r + 1), face[3] - r - 1)
            rings.append((x, y, r))
        elif hit:  # wholly inside the box (a hit at its edge is drawn just within it)
            x = min(max(x, face[0] + r + 1), face[2] - r - 1)
            y = min(max(y, face[1] + r + 1), face[3] - r - 1)
            hits.append((x, y, r))
        else:  # the stroke, leaning as the arrow lies, wholly outside the box
            ang = math.radians(25 + (j * 47) % 130)
            dx, dy = math.cos(ang) * half, -math.sin(ang) * half
            x, y = _out_of(face, x, y, max(abs(dx), abs(dy)) + gap)
            misses.append(((x - dx, y - dy), (x + dx, y + dy)))
    for a, b in misses:
        out.append(Line((a, b), MISS_INK, 1.5 * ui, screen=True))
    for x, y, rr in rings:
        out.append(Circle((x, y), rr, HIT_RIM, UNSCORED_INK, 1.5, screen=True))
    for x, y, rr in hits:
        out.append(Circle((x, y), rr, HIT_INK, HIT_RIM, 1.0, screen=True))
    info["hits"], info["misses"], info["unscored"] = hits, misses, rings
    if (info["hit"] or info["miss"]) and face[2] - face[0] < SMALL_FACE * ui:
        text = COUNTS.format(hit=info["hit"], miss=info["miss"])
        bx, by, bw, bh = body
        out.append(Text((bx + 4, by + bh - 4), text, COUNT_PX * ui, COUNT_INK, "sw",
                        bg=COUNT_BG, screen=True))
        info["counts"] = text
    return out, info


def counts_box(body, text: str, ui: float = 1.0) -> tuple[float, float, float, float]:
    """The px box (x0, y0, x1, y1) the counts are written in (lower left of the inset)."""
    w, h = labels.text_size(text, round(COUNT_PX * ui))
    bx, by, bw, bh = body
    return (bx + 4, by + bh - 4 - h, bx + 4 + w, by + bh - 4)


def fa_name(layout, camera, frame, body, token_px: float, ui: float = 1.0, avoid=()
            ) -> tuple[list[Primitive], tuple[float, float, float, float] | None]:
    """The 乏's name (乏：侯北 n 尺，西 m 尺) in px beside the 乏, where it covers no token
    drawn in the inset (each a circle of token_px, its nose included) and none of `avoid`
    (px boxes): east of the 乏, else west, below or above it; the first that fits the inset's
    body. Returns the primitives and the name's box, or ([], None) without a 乏."""
    hou, fa = scene._place(layout, "侯"), scene._place(layout, "乏")  # noqa: SLF001
    if hou is None or fa is None:
        return [], None
    text = scene.FA_NOTE.format(north=fa[1] - hou[1], west=hou[0] - fa[0])
    px = round(FA_PX * ui)
    w, h = labels.text_size(text, px)
    ax, ay = camera.to_screen_pts([fa])[0]
    idx = np.flatnonzero(frame.present)
    toks = camera.to_screen(frame.xy[idx]) if len(idx) else np.zeros((0, 2))
    bx, by, bw, bh = body
    pad = 3.0 * ui
    avoid = tuple(avoid)

    def clear(box) -> bool:
        if box[0] < bx or box[2] > bx + bw or box[1] < by or box[3] > by + bh:
            return False
        for x, y in toks.tolist():  # the circle against the box
            cx, cy = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
            if math.hypot(cx - x, cy - y) < token_px:
                return False
        return not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                       for b in avoid)

    for t in scene.range_marks(layout, camera.breaks, fa_note=False):  # the range's notes
        if isinstance(t, Text):
            tx, ty = camera.to_screen_pts([t.pos])[0]
            tw, th = labels.text_size(t.text, round(t.size))
            avoid = (*avoid, (tx - tw / 2, ty - th / 2, tx + tw / 2, ty + th / 2))
    # on the 乏's line right of whoever stands at it, else beside the 乏, else a line below
    # or above
    cands = [(x + token_px + pad, ay - h / 2) for x, y in toks.tolist()
             if abs(y - ay) < token_px + h / 2 and abs(x - ax) < token_px]
    for dy in (0.0, h, -h, 2 * h, -2 * h):
        cands.append((ax + pad, ay - h / 2 + dy))
        cands.append((ax - pad - w, ay - h / 2 + dy))
    for x, y in cands:
        box = (x, y, x + w, y + h)
        if clear(box):
            return [Text((x, y), text, px, FA_INK, "nw", screen=True)], box
    return [], None  # no room: left out rather than drawn under a token
