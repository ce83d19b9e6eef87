"""The range's marks: the line of flight from the 物 to the 侯 with its true length, the
zig-zag breaks where the drawing leaves out part of the 侯道 (`range_breaks` decides where),
and the 乏's distances.
"""
from __future__ import annotations

import itertools

from viz.draw.camera import Break
from viz.draw.display import Line, Primitive, Text
from viz.draw.hall import _court_south, _place, _region
from viz.draw.options import LABEL

RANGE_NOTE = "侯道五十弓 = {dist:.0f} 尺 ≈ {m:.0f} m · 此略 {cut:.0f} 尺"
BREAK_NOTE = "略 {cut:.0f} 尺"
FA_NOTE = "乏：侯北 {north:.0f} 尺，西 {west:.0f} 尺"
SHOT_COUNTS = "獲 {hit} / 不中 {miss}"  # the range inset's counts (viz/draw/inset.py)


def range_breaks(layout, gap: float = 14.0) -> tuple[Break, ...]:
    """Where to compress the 侯道: the empty stretches south of the court and between 乏 and 侯.

    Each break keeps `margin` 尺 of true scale around what stands on either side, so the gate,
    the 乏 and the 侯 (with its laid-flat face, 18 尺 deep) are all drawn to scale.
    """
    hou, fa = _place(layout, "侯"), _place(layout, "乏")
    if hou is None:
        return ()
    court_s = _court_south(layout)
    deep = court_s is not None and court_s < hou[1]  # the 侯 inside the court
    # (y, room kept north of it, room kept south of it), north to south
    stops: list[tuple[float, float, float]] = []
    if court_s is not None and court_s > hou[1]:
        stops.append((court_s, 0.0, 28.0))  # room for those waiting outside the gate
    elif deep:
        # the 堂's business ends where the layout's range begins (south of every place it
        # uses, and of the 衆賔's column however many they are), else below its last place
        rr = getattr(layout, "range_rect", None)
        north = float(rr[3]) if rr is not None else _north_court(layout, (fa or hou)[1])
        if north is not None:
            stops.append((north, 0.0, 0.0))
    if fa is not None and (not stops or fa[1] < stops[-1][0] - 20):
        stops.append((fa[1], 12.0, 12.0))
    stops.append((hou[1], 26.0, 10.0 if deep else 0.0))
    if deep:
        # the ground inside the gate (入門左, a column 東面北上) and those waiting outside it
        stops.append((court_s, 30.0, 28.0))
    out: list[Break] = []
    for (ya, _, below), (yb, above, _) in itertools.pairwise(stops):
        north, south = ya - below, yb + above
        if north - south > 3 * gap:
            out.append(Break(north, south, gap))
    return tuple(out)


def _north_court(layout, fa_y: float) -> float | None:
    """In a court deep enough to hold the 侯: the southernmost place the 堂's business uses,
    well north of the 乏 (what lies between is the empty middle of the range)."""
    ys = [float(p.y) for p in layout.places.values()
          if p.y > fa_y + 30 and _region(layout, float(p.x), float(p.y)) == "庭"]
    return min(ys) if ys else None



def range_marks(layout, breaks: tuple[Break, ...], fa_note: bool = True) -> list[Primitive]:
    """The line of flight from the 物 to the 侯 with its true length, and zig-zag break symbols
    where the drawing leaves out part of the range; fa_note: the 乏's name beside it (the
    window's inset places it itself, clear of whoever stands there)."""
    hou, fa, wu = _place(layout, "侯"), _place(layout, "乏"), _place(layout, "物間")
    wu = wu or _place(layout, "右物")
    out: list[Primitive] = []
    if hou is None:
        return out
    ytop = wu[1] if wu else 0.0
    col = (160, 70, 50)
    # the 侯道 on the axis between the 物 (射自楹間)
    out.append(Line(((hou[0], ytop), (hou[0], hou[1])), col, 1.0, dash=(2.0, 5.0)))
    chi_m = layout.chi_m
    dist = ytop - hou[1]
    x0, x1 = hou[0] - 34, hou[0] + 34
    for k, b in enumerate(breaks):
        mid, per = (b.north + b.south) / 2, b.length / b.gap  # world 尺 per drawn 尺 here
        # two zig-zags 0.7 gap apart (drawn), the words between them
        for off in (-0.36 * b.gap * per, 0.36 * b.gap * per):
            pts = [(x0 + (x1 - x0) * i / 16, mid + off + (0.9 if i % 2 else -0.9) * per)
                   for i in range(17)]
            out.append(Line(tuple(pts), (120, 100, 80), 1.5))
        text = (RANGE_NOTE.format(dist=dist, m=dist * chi_m, cut=b.length) if k == 0
                else BREAK_NOTE.format(cut=b.length))
        out.append(Text((hou[0], mid), text, 10, col, "c"))
    if fa is not None and fa_note:
        out.append(Text((fa[0] - 3.5, fa[1] - 2.5),
                        FA_NOTE.format(north=fa[1] - hou[1], west=hou[0] - fa[0]), 10, LABEL, "nw"))
    return out
