"""The people on a plate: each written as his name where he stands (a dot for the spot, a square
seated, a tick the way he faces, his bow and arrows), the props set down by name, the arrows
lying about with one count a cluster, the moves under them and their numbers; every name placed
clear of every other name and mark (`_people`).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from viz.draw import dress, labels, labels_paper, scene, things
from viz.draw import trails as trails_mod
from viz.draw.camera import Camera
from viz.draw.clusters import clusters
from viz.draw.compose import Model
from viz.draw.display import Box, Circle, Color, Line, Polygon, Primitive, Text
from viz.draw.plate_page import (
    GREY,
    INK,
    PAPER,
    ZHU,
    ZHU_FAINT,
    _arrows,
    _inner,
    room_at,
    room_px,
    room_things,
    rooms,
)
from viz.draw.props import set_down_tags

ARROW = "矢"
TOGETHER = 1.0  # 尺: things set down this near one another in a room are named as one list
ROOM_SHARE = 0.45  # of a room's width: the most a row of that list runs to (or ROW_EMS)
ROW_EMS = 8  # characters: a row of that list may run to this many in a small room
SEP = "、"
ROOM_GAP = 2.0  # px left and right of a name in a room, where names crowd: two never read as one
COUNT = "{name}×{n}"


def _numbers(found, cam: Camera, taken: list, bounds, px: float = 12.0,
             words: Sequence[labels.BoxT] = ()) -> tuple[list[Primitive], list]:
    """The move numbers beside each start, placed clear of what is already down. People who
    set off together (one number, starts close by) share one number, as a drill chart writes
    a set once for a block of marchers."""
    reqs, texts = [], []
    starts: dict[int, list[tuple[float, float]]] = {}
    for g in found:
        (x, y), = cam.to_screen_pts([tuple(g.points[0])])
        text = str(g.number)
        w, h = labels.text_size(text, px, pad=2)
        mine = starts.setdefault(g.number, [])
        if any(abs(x - a) < 2.5 * h and abs(y - b) < 2.5 * h for a, b in mine):
            continue
        mine.append((x, y))
        reqs.append(labels.Label((x, y), w, h, r=4.5))
        texts.append(text)
    placed = labels_paper.place_clear(reqs, taken, _inner(bounds), words=words)
    out: list[Primitive] = []
    for text, req, p in zip(texts, reqs, placed):
        cx, cy = p.center
        if p.displaced:
            a, b = labels.leader(req.anchor, p.box, req.r)
            out.append(Line((a, b), ZHU_FAINT, 1.0, screen=True))
        out.append(Text((cx, cy), text, px, PAPER, "c", bg=ZHU, screen=True))
    return out, [p.box for p in placed]


def _name_of(tl, frame, i: int) -> str:
    """The name a plate writes: the person's name, or the office he holds now (相 → 司正)."""
    a = tl.actors[i]
    now = frame.labels[i] if frame.labels else a.label
    return now if now and now != a.label else a.name


@dataclass
class _Marks:
    """What one view of a plate draws for the people, and the boxes its placement pass used."""

    prims: list[Primitive]
    labels: list[labels.BoxT]
    marks: list[labels.BoxT]


_ANCHOR = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
           "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


def text_box(t: Text, cam: Camera) -> labels.BoxT:
    """The box (px) a Text takes under this camera, as labels.text_size estimates it."""
    (x, y), = [t.pos] if t.screen else cam.to_screen_pts([t.pos])
    px = t.size if t.unit != "chi" or t.screen else min(max(t.size * cam.scale, t.min_px),
                                                          t.max_px)
    pad = 2 if t.bg is not None or t.border is not None else 0
    w, h = labels.text_size(t.text, round(px), pad)
    fx, fy = _ANCHOR.get(t.anchor, (0.5, 0.5))
    return (x - fx * w, y - fy * h, x - fx * w + w, y - fy * h + h)


def _people(model: Model, frame, cam: Camera, idx: list[int], found, px: float,
            box: Box, avoid: Sequence[labels.BoxT] = ()) -> _Marks:
    """People as their names where they stand (a dot on the spot, a square when seated, a
    tick the way he faces), the props set down by name, the drill chart under them and its
    numbers; every name placed clear of every other and of every mark, with a paper halo so
    the plan's lines stop short of it."""
    tl = model.timeline
    marks: list[labels.BoxT] = []
    dots: list[Primitive] = []
    reqs: list[labels.Label] = []
    names: list[tuple[str, float, Color]] = []
    scr = cam.to_screen(frame.xy[idx]) if idx else np.zeros((0, 2))
    for i, (sx, sy) in zip(idx, scr):
        _person(tl, frame, i, float(sx), float(sy), px, dots, marks, reqs, names)
    for g in found:
        (gx, gy), = cam.to_screen_pts([tuple(g.points[0])])
        marks.append(labels.circle_box(gx, gy, 4.5))
    obstacles = list(avoid)
    _lying(model, frame, cam, box, px, dots, marks, obstacles, reqs, names)
    placed = labels_paper.place_clear(reqs, [*marks, *obstacles], _inner(box))
    written: list[Primitive] = []
    for (name, size, col), req, p in zip(names, reqs, placed):
        if p.displaced:
            a, b = labels.leader(req.anchor, p.box, req.r)
            written.append(Line((a, b), GREY, 1.0, screen=True))
        if isinstance(name, list):  # a list in rows: the shape the placer chose
            bw, bh = p.box[2] - p.box[0], p.box[3] - p.box[1]
            name = min(name, key=lambda x: abs(_text_size(x, size, ROOM_GAP)[0] - bw)
                       + abs(_text_size(x, size, ROOM_GAP)[1] - bh))
        written += _lines(name, p.center, size, col, PAPER)
    boxes = [p.box for p in placed]
    # moves along one corridor (the 三耦 up and down by the 西階) side by side, not on one line
    seen = trails_mod.lanes(trails_mod.clipped(found, cam, box), cam) if found else []
    # each move numbered where it is first seen: its start, or where it comes into the view
    # (a walk in from the far gate, or from the school to the 賔's gate)
    first: dict[tuple[int, int], trails_mod.Leg] = {}
    for g in seen:
        first.setdefault((g.number, g.actor), g)
    leads = [q for req, p in zip(reqs, placed) if p.displaced
             for q in labels.along(labels.leader(req.anchor, p.box, req.r))]
    nums, num_boxes = _numbers(list(first.values()), cam,
                               [*marks, *obstacles, *boxes, *leads], box, max(10.0, px * 0.8),
                               boxes)
    moves = trails_mod.drill(seen, cam.scale, ZHU, ZHU_FAINT) if seen else []
    return _Marks(moves + dots + written + nums, boxes + num_boxes, marks)


def _person(tl, frame, i: int, sx: float, sy: float, px: float, dots: list[Primitive],
            marks: list[labels.BoxT], reqs: list[labels.Label], names: list) -> None:
    """One person at (sx, sy) px: his dot (a square seated), the tick the way he faces and his
    bow and arrows added to `dots`, their boxes to `marks`, his name's request to `reqs`."""
    fx, fy = scene.facing_vector(float(frame.facing[i]))
    dx, dy = fx, -fy  # screen y runs down
    tick, npx = px * 0.9, px * 1.15
    seated = int(frame.posture[i]) == scene.SIT or (len(frame.seated) > i
                                                   and bool(frame.seated[i]))
    if seated:
        s = 3.0
        dots.append(Polygon(((sx - s, sy - s), (sx + s, sy - s), (sx + s, sy + s),
                             (sx - s, sy + s)), PAPER, INK, 1.5, screen=True))
    else:
        dots.append(dress.plate_dot(frame, i, sx, sy, INK)
                    or Circle((sx, sy), 2.6, INK, None, screen=True))
    tip = (sx + dx * tick, sy + dy * tick)
    dots.append(Line(((sx, sy), tip), INK, 2.0, screen=True))
    bow = dress.held_bow_state(tl, frame, i)
    if bow:  # his bow in his left hand, the arrows across its string (執弓, 挾矢)
        drawn = dress.held_bow(sx, sy, dx, dy, 2.6, 0.13 * px, strung=bow == "張",
                               arrows=dress.arrows_held(tl, frame, i), ink=INK, screen=True)
        dots += drawn
        pts = [p for d in drawn for p in d.points]
        marks.append((min(p[0] for p in pts) - 1, min(p[1] for p in pts) - 1,
                      max(p[0] for p in pts) + 1, max(p[1] for p in pts) + 1))
    marks.append(labels.circle_box(sx, sy, 3.5))
    marks.append((min(sx, tip[0]) - 1.5, min(sy, tip[1]) - 1.5, max(sx, tip[0]) + 1.5,
                  max(sy, tip[1]) + 1.5))
    name = _name_of(tl, frame, i) + dress.plate_note(tl, frame, i)
    w, h = labels.text_size(name, npx)
    # behind him first: the tick in front stays clear
    reqs.append(labels.Label((sx, sy), w, h, r=4.0, order=labels.facing_order(dx, dy)))
    names.append((name, npx, INK))


def _lying(model: Model, frame, cam: Camera, box: Box, px: float, dots: list[Primitive],
           marks: list[labels.BoxT], obstacles: list[labels.BoxT], reqs: list[labels.Label],
           names: list) -> None:
    """What lies about inside `box`: the arrows drawn where they lie with one count a cluster
    (the clusters kept clear as `obstacles`), and the other props set down as a dot and their
    name; added to the lists as `_person` adds a person."""
    tl = model.timeline
    inside = (box[0], box[1], box[0] + box[2], box[1] + box[3])
    glyphs, clusters = _arrow_clusters(_arrows(model, frame), cam, inside, px)
    dots += glyphs
    for (qx, qy), r, n in clusters:
        text = ARROW if n == 1 else COUNT.format(name=ARROW, n=n)
        w, h = labels.text_size(text, px * 0.85)
        obstacles.append(labels.circle_box(qx, qy, r))
        reqs.append(labels.Label((qx, qy), w, h, r=r + 1.0))
        names.append((text, px * 0.85, GREY))
    dots += _mats(tl, frame, cam, inside, marks)
    # the layout's things in a room (the 甒, the 篚, the 服's mat) named there first, by them
    rms = rooms(model.layout)
    set_out = things.shown(model.layout, things.hidden(tl, frame))
    for f, room in room_things(set_out):
        pts = cam.to_screen(np.asarray(f.points, float).reshape(-1, 2))
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        qx, qy = float(x0 + x1) / 2, float(y0 + y1) / 2
        if not (box[0] <= qx <= box[0] + box[2] and box[1] <= qy <= box[1] + box[3]):
            continue
        text = scene._label_of(f)  # noqa: SLF001
        w, h = _text_size(text, px * 0.85, ROOM_GAP)
        if f.kind != "mat":  # a vessel's name beside it, not over it; a mat's may be on it
            marks.append((float(x0) - 1, float(y0) - 1, float(x1) + 1, float(y1) + 1))
        reqs.append(labels.Label((qx, qy), w, h, r=max(float(x1 - x0), float(y1 - y0)) / 2 + 1,
                                 centred=f.kind == "mat", within=room_px(cam, room),
                                 away=_other_rooms(cam, rms, room)))
        names.append((text, px * 0.85, GREY))
    # each thing's dot where it lies (not where the window's tag went), its name beside it;
    # things lying together in a room (the 服 陳于房中) are named as one list inside the room,
    # where there is room, with one leader
    tags = [t for t in set_down_tags(tl, frame) if not t.text.split("×")[0].endswith(ARROW)]
    for members, room in _together(tags, rms):
        (qx, qy), = cam.to_screen_pts([members[0].pos])
        if not (box[0] <= qx <= box[0] + box[2] and box[1] <= qy <= box[1] + box[3]):
            continue
        within = room_px(cam, room)
        texts = [members[0].text]
        if within is not None:  # in rows the room can hold; outside it, in fewer if that fits
            most = max((within[2] - within[0]) * ROOM_SHARE, ROW_EMS * px * 0.85)
            texts = list(dict.fromkeys(_rows([t.text for t in members], px * 0.85, most * k)
                                       for k in (1, 2, 100)))
        sizes = [_text_size(x, px * 0.85, 0.0 if within is None else ROOM_GAP) for x in texts]
        for t in members:
            (tx, ty), = cam.to_screen_pts([t.pos])
            dots.append(Circle((tx, ty), 1.8, GREY, None, screen=True))
            marks.append(labels.circle_box(tx, ty, 2.0))
        reqs.append(labels.Label((qx, qy), *sizes[0], r=2.5, within=within,
                                 away=_other_rooms(cam, rms, room) if within else (),
                                 shapes=tuple(sizes[1:])))
        names.append((texts if len(texts) > 1 else texts[0], px * 0.85, GREY))


def _other_rooms(cam: Camera, rms, room) -> tuple[labels.BoxT, ...]:
    """The boxes (px) of the rooms other than `room`: a name of a thing in one is not written
    in another."""
    return tuple(room_px(cam, r) for r in rms if r != room)


def _together(tags: list[Text], rms) -> list[tuple[list[Text], tuple | None]]:
    """The tags of things set down, each alone, except that those lying within TOGETHER 尺
    of one another in one room are one group (in the order given): (members, room)."""
    out: list[tuple[list[Text], tuple | None]] = []
    for t in tags:
        room = room_at(rms, *t.pos)
        for members, r in out:
            if room is not None and r == room and math.hypot(
                    members[0].pos[0] - t.pos[0], members[0].pos[1] - t.pos[1]) <= TOGETHER:
                members.append(t)
                break
        else:
            out.append(([t], room))
    return out


def _rows(names: list[str], px: float, most: float) -> str:
    """Names joined by 、 into rows (one a line) no wider than `most` px where they can be."""
    rows: list[str] = []
    for n in names:
        if rows and labels.text_size(rows[-1] + SEP + n, px)[0] <= most:
            rows[-1] += SEP + n
        else:
            rows.append(n)
    return "\n".join(rows)


def _text_size(text: str, px: float, pad: float = 0.0) -> tuple[float, float]:
    """labels.text_size of text of one or more lines, `pad` px wider each side (names side by
    side in a room never read as one word; one above another are lines apart already)."""
    sizes = [labels.text_size(line, px) for line in text.split("\n")]
    return (max(w for w, _ in sizes) + 2 * pad, sum(h for _, h in sizes))


def _lines(text: str, at: tuple[float, float], size: float, col, halo) -> list[Primitive]:
    """Text of one or more lines centred on `at`, one Text a line."""
    lines = text.split("\n")
    if len(lines) == 1:
        return [Text(at, text, size, col, "c", screen=True, halo=halo)]
    hs = [labels.text_size(line, size)[1] for line in lines]
    y = at[1] - sum(hs) / 2
    out: list[Primitive] = []
    for line, h in zip(lines, hs):
        out.append(Text((at[0], y + h / 2), line, size, col, "c", screen=True, halo=halo))
        y += h
    return out


def _mats(tl, frame, cam: Camera, inside: labels.BoxT, marks: list[labels.BoxT]
          ) -> list[Primitive]:
    """The 筵 (席) lying within `inside` drawn spread, at their size and facing, in ink, as the
    window draws them (props.mat_glyph) and the plate the layout's mats; each kept clear."""
    from viz.draw.plate_page import _ink
    from viz.draw.props import MATS, laid_faces, mat_glyph

    faces = laid_faces(frame)
    out: list[Primitive] = []
    for j, p in enumerate(tl.props):
        if p.name[-1:] not in MATS or int(frame.prop_holder[j]) >= 0 \
                or not bool(frame.prop_visible[j]):
            continue
        x, y = (float(v) for v in frame.prop_xy[j])
        face = float(faces[j]) - 1 if len(faces) > j and faces[j] else None
        for g in mat_glyph(x, y, face):
            pts = [tuple(map(float, q)) for q in cam.to_screen_pts(g.points)]
            if isinstance(g, Polygon):
                if not all(inside[0] <= q[0] <= inside[2] and inside[1] <= q[1] <= inside[3]
                           for q in pts):
                    break
                out.append(Polygon(tuple(pts), _ink(g.fill), _ink(g.stroke), 1.0, screen=True))
                marks.append((min(q[0] for q in pts), min(q[1] for q in pts),
                              max(q[0] for q in pts), max(q[1] for q in pts)))
            else:
                out.append(Line(tuple(pts), _ink(g.color), 1.0, screen=True))
    return out


def _arrow_clusters(xy: np.ndarray, cam: Camera, inside: labels.BoxT, px: float
                    ) -> tuple[list[Primitive], list[tuple[tuple[float, float], float, int]]]:
    """The arrows lying within `inside` (px) drawn as arrows where they lie (a short shaft
    with a head, turned a little each, so a heap reads as several), and their clusters: arrows
    within about a name's height of one another on the page are one cluster, counted once —
    (centre px, radius px, how many)."""
    if not len(xy):
        return [], []
    scr = cam.to_screen(xy)
    ok = ((scr[:, 0] >= inside[0]) & (scr[:, 0] <= inside[2]) & (scr[:, 1] >= inside[1])
          & (scr[:, 1] <= inside[3]))
    scr = scr[ok]
    out: list[Primitive] = []
    size = max(5.0, px * 0.45)
    spots: dict[tuple[int, int], int] = {}
    for x, y in scr:
        key = (round(x), round(y))
        k = spots.get(key, 0)
        spots[key] = k + 1
        if k >= 3:  # a sheaf on one spot: three drawn say it
            continue
        ang = math.radians(60 + 35 * k + 23 * (int(x + y) % 5))
        dx, dy = math.cos(ang) * size, -math.sin(ang) * size
        tip = (x + dx, y + dy)
        hx, hy = dx * 0.45, dy * 0.45
        out += [Line(((x - dx, y - dy), tip), GREY, 1.3, screen=True),
                Line(((tip[0] - hx - hy * 0.6, tip[1] - hy + hx * 0.6), tip,
                      (tip[0] - hx + hy * 0.6, tip[1] - hy - hx * 0.6)), GREY, 1.3,
                     screen=True)]
    # one cluster: arrows chained by gaps under `reach` px (single linkage)
    reach = px * 1.3
    n = len(scr)
    pairs = []
    if n:
        d = np.hypot(scr[:, None, 0] - scr[None, :, 0], scr[:, None, 1] - scr[None, :, 1])
        pairs = [(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(d < reach, 1)))]
    found = []
    for ids in clusters(n, pairs):
        pts = scr[ids]
        c = pts.mean(axis=0)
        r = float(np.hypot(*(pts - c).T).max()) + size
        found.append(((float(c[0]), float(c[1])), r, len(ids)))
    return out, found
