"""Display lists of the plan: the hall, court and range to scale, the people and things in them.

Everything here is in 尺 in the layout frame; what must stay on screen whatever the zoom (scale
bar, north arrow) is built by `overlay()` from a camera. The layout is read through its documented
surface only (places, features, chi_m), so a fake with the same attributes draws the same way.
`viz.draw.compose` puts these pieces together into the layers of a frame.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from string import Formatter

import numpy as np

from viz.draw import dress, labels
from viz.draw.camera import Break, Camera, ymap_for
from viz.draw.display import Circle, Color, Line, Polygon, Primitive, Text
from viz.model.timeline import POSTURES

INK = (40, 34, 28)
GREY = (120, 112, 100)
LABEL = (105, 96, 84)
PARTY_COLORS: dict[str, Color] = {
    "主": (150, 36, 30),  # 主黨: dark red
    "賓": (32, 54, 112),  # 賓黨: ink blue
    "賔": (32, 54, 112),
}
OTHER_PARTY: Color = (64, 96, 72)  # musicians, officers of neither side: dark green
WHITE = (255, 255, 255)

# kind → (fill, stroke, width px, dash); unknown kinds fall back to a grey outline
FEATURE_STYLE: dict[str, tuple[Color | None, Color | None, float, tuple[float, float] | None]] = {
    "court": ((241, 236, 222), (150, 140, 120), 1.0, None),
    "yard": ((241, 236, 222), (150, 140, 120), 1.0, None),
    "hall": ((226, 212, 184), (92, 72, 50), 2.0, None),
    "room": ((214, 200, 172), (92, 72, 50), 1.5, None),
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
KIND_ORDER = ["range", "court", "yard", "path", "hall", "room", "stair", "step", "gate", "wall", "eave",
              "mat", "basin", "water", "vessel", "basket", "chime", "rack", "counter", "blind",
              "target", "target_center", "target_line", "post", "implement", "beam", "line", "mark",
              "pillar"]
PILLAR_R = 0.6  # 尺: a 楹 about a 尺 thick
SIT, BOW, BOW_HANDS = (POSTURES.index(p) for p in ("坐", "拜", "揖"))

# The words the plan itself writes (the model's names and cites aside): the font check reads them
BOW_WORDS = {1: "拜", 2: "再拜", 3: "三拜"}  # by the number of bows in the gesture
HOU_LABELS = ("中", "上个", "躬", "下个", "侯（立面，倒置北）")
RANGE_NOTE = "侯道五十弓 = {dist:.0f} 尺 ≈ {m:.0f} m · 此略 {cut:.0f} 尺"
BREAK_NOTE = "略 {cut:.0f} 尺"
FA_NOTE = "乏：侯北 {north:.0f} 尺，西 {west:.0f} 尺"
SHOT_COUNTS = "獲 {hit} / 不中 {miss}"  # the range inset's counts (viz/draw/inset.py)
SCALE_NOTE = "{chi:g} 尺 ≈ {m:.1f} m"
NORTH = "北"
HELD_SEP = "·"
SPEECH = "「{}」"
GROUP_NOTE = "{stem} {n}人"  # a formation drawn as one: 衆賔 六人
PAIRS_NOTE = "{n}耦"  # archers standing as their pairs: 三耦
MANY_NOTE = "{first}等 {n}人"  # a crowd of several kinds
NUMERALS = "〇一二三四五六七八九十"

# Level of detail (compose's window and shot; a plate keeps lod off and draws as before)
NAME_PX = 12.0  # px (× the UI scale): the smallest name on a token or a formation
TOKEN_PX = 13.5  # px (× the UI scale): a token's smallest radius, so a two-character name fits
DETAIL_PX = 10.0  # px per 尺 (× the UI scale) from which what is held and set out is named
DOT = 0.42  # a formation's member: this share of a token's radius
JOIN = 3.0  # members of one body whose centres stand within this many token radii: one formation
PROP_INK = (96, 64, 30)
GROUP_BG = (255, 252, 240)
CUP = set("觶爵觚散角")
COUNTED = set("矢算")  # what lies in clusters worth a count (arrows shot, 算 laid)


def literal(template: str) -> str:
    """The characters a format template always writes (its fields left out)."""
    return "".join(text for text, *_ in Formatter().parse(template))


TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    *BOW_WORDS.values(), POSTURES[BOW_HANDS], *HOU_LABELS, RANGE_NOTE, BREAK_NOTE, FA_NOTE,
    SHOT_COUNTS, SCALE_NOTE, NORTH, HELD_SEP, SPEECH, GROUP_NOTE, PAIRS_NOTE, MANY_NOTE, NUMERALS)) + (
    "×0123456789.-",)

# The 侯 of a 鄉射 at 50 弓 (鄭, after 考工記 梓人): 中 10 尺 square, 躬 20 wide, 上个 40, 下个 30;
# each 躬 and 个 one 幅 (2 尺) high. Drawn in elevation, laid flat northward from its line, as the
# 禮圖 draw it, when the layout gives only a line or a point for the 侯.
HOU_BANDS = [("上个", 40.0, 2.0), ("上躬", 20.0, 2.0), ("中", 10.0, 10.0), ("下躬", 20.0, 2.0),
             ("下个", 30.0, 2.0)]


@dataclass(frozen=True)
class SceneOptions:
    captions: bool = True
    token_r: float = 1.5  # 尺: a robed person seen from above
    token_min_px: float = 8.0
    breaks: tuple[Break, ...] = ()  # drawn as zig-zags with the true distance written
    px_per_chi: float = 4.0  # current zoom, so labels that would collide can be left out
    # level of detail, as a map maker does it: formations of people standing together drawn
    # as one with one name, what is held as glyphs, things set out as objects (named when
    # zoomed in), and no tag where it would cover a token. Off: every tag, as a plate has them.
    lod: bool = False
    ui: float = 1.0  # the UI scale: names, tokens and glyphs grow with it (lod only)
    view: tuple[float, float, float, float] | None = None  # 尺: where names of formations fit
    selected: int | None = None  # the person selected: his own token and his tags (lod)
    thing: int | None = None  # the prop selected (set down): named on the map at any zoom (lod)

    def __hash__(self) -> int:  # worked out once: a view hands the same options every frame,
        h = self.__dict__.get("_hash")  # and hashing the breaks each time costs
        if h is None:
            h = hash((self.captions, self.token_r, self.token_min_px, self.breaks,
                      self.px_per_chi, self.lod, self.ui, self.view, self.selected,
                      self.thing))
            object.__setattr__(self, "_hash", h)
        return h


def party_color(party: str) -> Color:
    return PARTY_COLORS.get(party, OTHER_PARTY)


def facing_vector(deg: float) -> tuple[float, float]:
    """0 = north, clockwise, as unit (dx, dy) in the layout frame (y north)."""
    r = math.radians(deg)
    return math.sin(r), math.cos(r)


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


def _court_south(layout) -> float | None:
    ys = [float(np.asarray(f.points, float).reshape(-1, 2)[:, 1].min()) for f in layout.features
          if f.kind in ("court", "yard", "wall", "gate", "hall")]
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


def text_width_em(s: str) -> float:
    """Width in ems: a hanzi or CJK mark is one em, Latin about half."""
    return sum(1.0 if ord(c) > 0x2E7F else 0.55 for c in s)


def token_radius(o: SceneOptions) -> float:
    """The token's radius in 尺 as drawn: true size, or the legible minimum when zoomed out
    (so noses, tags and bubbles sit outside the token at any zoom; with lod, big enough for a
    name of NAME_PX)."""
    least = TOKEN_PX * o.ui if o.lod else o.token_min_px
    return max(o.token_r, least / max(o.px_per_chi, 1e-6))


def name_px(o: SceneOptions) -> float:
    """The smallest size a person's name is drawn at."""
    return NAME_PX * o.ui if o.lod else 8.0


def detailed(o: SceneOptions) -> bool:
    """Zoomed in far enough that what is held and set out is named in tags."""
    return not o.lod or o.px_per_chi >= DETAIL_PX * o.ui


def numeral(n: int) -> str:
    """一 … 十, 十一 … 九十九."""
    if n <= 10:
        return NUMERALS[n]
    tens, ones = divmod(n, 10)
    return (NUMERALS[tens] if tens > 1 else "") + "十" + (NUMERALS[ones] if ones else "")


def group_name(names: list[str], short: list[str]) -> str:
    """One name for people standing together: what their names begin with (衆賔 六人, 工 四人),
    pairs of archers (三耦), a pair by their labels (司射·司馬), or the first and a count."""
    n = len(names)
    pre = names[0]
    for s in names[1:]:
        k = 0
        while k < min(len(pre), len(s)) and pre[k] == s[k]:
            k += 1
        pre = pre[:k]
    pre = pre.rstrip("之")
    if pre and (len(pre) >= 2 or pre in names):
        return GROUP_NOTE.format(stem=pre, n=numeral(n))
    if n % 2 == 0 and all("耦" in s for s in names):
        return PAIRS_NOTE.format(n=numeral(n // 2))
    if n <= 3:
        return HELD_SEP.join(short)
    kinds = list(dict.fromkeys(names))
    if len(kinds) <= 3:  # a few kinds: each named, then the count (司射·司馬·舉觶者 六人)
        return GROUP_NOTE.format(stem=HELD_SEP.join(kinds), n=numeral(n))
    most = max(kinds, key=names.count)  # the kind most of them are (ties: the first)
    return MANY_NOTE.format(first=most, n=numeral(n))


def short_label(label: str) -> str:
    """What fits inside a token: 上射1 → 上1, 衆賔3 → 衆3; one- and two-character labels as they are."""
    digits = label[len(label.rstrip("0123456789")):]
    stem = label[: len(label) - len(digits)]
    if digits and len(stem) > 1:
        return stem[0] + digits
    return label


def actors(timeline, frame, o: SceneOptions) -> list[Primitive]:
    """A token per present person: party colour, short label, facing nose, posture; then what
    they hold and their bows, as tags placed clear of every token and every other tag."""
    out: list[Primitive] = []
    for token, tags in actor_parts(timeline, frame, o):
        out += token
        out += tags
    return out


def actor_parts(timeline, frame, o: SceneOptions) -> list[tuple[list[Primitive],
                                                                 list[Primitive]]]:
    """actors, person by person: (his token, his tags). A token is the same list object
    while he stands as he stood (a back end may keep what it made of it)."""
    out: list[tuple[list[Primitive], list[Primitive]]] = []
    r0 = token_radius(o)
    placed = _tags(timeline, frame, o)
    tags, groups = placed.held, placed.groups
    kept = _memo(timeline, o).tokens
    c = _cols(frame, o)
    names = frame.labels
    least = name_px(o)
    for i, a in enumerate(timeline.actors):
        if not c.present[i]:
            continue
        x, y = c.xy[i]
        dot = i in groups  # one of a formation: a dot, the formation named once
        key = (x, y, c.radius(i, r0) * (DOT if dot else 1.0), c.seated[i] and not dot,
               c.facing[i], None if dot else (names[i] if names else a.label) or a.name[:1],
               dress.worn(frame, i))
        old = kept.get(i)
        if old is None or old[0] != key:  # else the same objects as the last frame's
            old = kept[i] = (key, _token(x, y, key[2], r0, key[3], key[4], key[5],
                                         party_color(a.party), least)
                             + dress.marks(x, y, key[2], key[4], key[6]))
        out.append((old[1], tags.get(i, [])))
    if placed.group_names:
        out.append(([], placed.group_names))
    return out


class _Cols:
    """A frame's per-person arrays as Python lists (one conversion a frame, not a numpy
    scalar a person and field): the same numbers, but where they stand, with lod, put on the
    view's whole pixels (`snapped`)."""

    def __init__(self, frame, o: SceneOptions) -> None:
        n = len(frame.present)
        self.present: list[bool] = frame.present.tolist()
        self.at: np.ndarray = snapped(frame.xy, o) if o.lod else frame.xy
        self.xy: list[list[float]] = self.at.tolist()
        self.facing: list[float] = frame.facing.tolist()
        self.posture: list[int] = frame.posture.tolist()
        self.count: list[int] = frame.count.tolist()
        self.phase: list[float] = frame.phase.tolist()
        kneel = frame.seated.tolist()[:n]
        kneel += [False] * (n - len(kneel))
        self.seated = [p == SIT or bool(s) for p, s in zip(self.posture, kneel, strict=True)]

    def radius(self, i: int, r0: float) -> float:
        """_drawn_r."""
        r = r0 * 0.8 if self.seated[i] else r0
        if self.posture[i] == BOW:
            bows = max(self.count[i], 1)
            r *= 1.0 - 0.28 * abs(math.sin(math.pi * bows * self.phase[i]))
        return r


_columns: list = []  # [(frame, grid, _Cols)]: the last frames' (the main view's, the inset's)


def _cols(frame, o: SceneOptions) -> _Cols:
    grid = (o.lod, o.px_per_chi, o.breaks)
    for fr, g, c in _columns:
        if fr is frame and g == grid:
            return c
    c = _Cols(frame, o)
    _columns[:] = [(frame, grid, c), *_columns[:VIEWS - 1]]
    return c


def snapped(xy: np.ndarray, o: SceneOptions) -> np.ndarray:
    """(n, 2) places in 尺 moved (by under half a px) to the view's whole pixels: a walker's
    token and tags are drawn again only when he crosses a pixel, not every frame (the token
    is copied onto whole pixels anyway)."""
    k = max(o.px_per_chi, 1e-6)
    ymap = ymap_for(o.breaks)
    out = np.empty_like(xy, dtype=float)
    out[:, 0] = np.round(xy[:, 0] * k) / k
    out[:, 1] = ymap.inv(np.round(np.asarray(ymap.fwd(xy[:, 1]), float) * k) / k)
    return out


def _token(x: float, y: float, r: float, r0: float, seated: bool, facing: float,
           label: str | None, col: Color, least: float = 8.0) -> list[Primitive]:
    """A person's token: the base he kneels on, his nose, his disc, the label on it."""
    out: list[Primitive] = []
    if seated:  # lower and smaller, on a square base (the mat-kneel)
        s = r0 * 1.05
        out.append(Polygon(((x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)),
                           (236, 228, 210), col, 1.5))
    fx, fy = facing_vector(facing)
    out.append(facing_mark(x, y, fx, fy, r, col))
    out.append(Circle((x, y), r, col, (20, 16, 12), 1.0))
    if label is None:  # one of a formation, named with it
        return out
    text = short_label(label)
    em = max(text_width_em(text), 1.0)
    out.append(Text((x, y), text, min(2 * r * 0.92 / em, r * 1.15), WHITE, "c", unit="chi",
                    min_px=least, max_px=max(18.0, least * 1.5)))
    return out


def _seated(frame, i: int) -> bool:
    return int(frame.posture[i]) == SIT or (len(frame.seated) > i and bool(frame.seated[i]))


def _drawn_r(frame, i: int, r0: float) -> float:
    """The token's radius as drawn: smaller seated, dipping once per bow of the gesture."""
    r = r0 * 0.8 if _seated(frame, i) else r0
    if int(frame.posture[i]) == BOW:
        bows = max(int(frame.count[i]), 1)
        r *= 1.0 - 0.28 * abs(math.sin(math.pi * bows * float(frame.phase[i])))
    return r


@dataclass(frozen=True)
class _Tags:
    """The frame's tags, placed in one pass: props set down, props held and bows, speech."""

    set_down: list[Primitive]
    held: dict[int, list[Primitive]]  # by actor: bows and what he holds
    said: list[Primitive]
    groups: dict[int, int] = field(default_factory=dict)  # actor → his formation (lod)
    group_names: list[Primitive] = field(default_factory=list)  # a name a formation


_placed: list = []  # [(frame, options, timeline, _Tags)]: the last frame's pass, for its 3 users


def _tags(timeline, frame, o: SceneOptions) -> _Tags:
    """set_down_props, actors and captions each draw a part of one placement pass; compose
    calls the three with one frame, so the pass runs once per frame."""
    for fr, opt, tl, tags in _placed:
        if fr is frame and (opt is o or opt == o) and tl is timeline:
            return tags
    tags = _place_tags(timeline, frame, o)
    _placed[:] = [(frame, o, timeline, tags)]
    return tags


VIEWS = 4  # views placing tags, each remembering its last frame (the window has two)


class _ViewMemo:
    """What a view (zoom, breaks, captions) worked out for its last frame, to be looked up in
    the next when the inputs are the same: each person's token boxes and tag requests, the
    tags' placement (a Placer: only those near someone who moved are placed again), the
    primitives a placed tag becomes, the props set down. Answers are the same as working them
    out again; a frame's prims stay the same objects while their person stands still."""

    def __init__(self, timeline) -> None:
        self.timeline = timeline
        self.placer = labels.Placer()
        self.people: dict[int, tuple] = {}  # actor → (inputs, token boxes, requests)
        self.said: dict[int, tuple] = {}  # actor → (inputs, request)
        self.tags: dict[tuple, tuple] = {}  # (kind, who, text) → (Text, Label, Placed, prims)
        self.set_down: tuple | None = None  # (inputs, requests)
        self.objects: tuple | None = None  # lod: (inputs, (objects set down, count requests))
        self.formations: tuple | None = None  # lod: (inputs, formations)
        self.tokens: dict[int, tuple] = {}  # actor → (inputs, token primitives)


_views: OrderedDict[SceneOptions, _ViewMemo] = OrderedDict()


def _memo(timeline, o: SceneOptions) -> _ViewMemo:
    m = _views.get(o)
    if m is None or m.timeline is not timeline:
        m = _views[o] = _ViewMemo(timeline)
        while len(_views) > VIEWS:
            _views.popitem(last=False)
    _views.move_to_end(o)
    return m


def _set_down_reqs(memo: _ViewMemo, timeline, frame, to_px, k: float) -> list[tuple]:
    """The requests of set_down_tags, looked up while no prop set down moved, came or went."""
    down = (frame.prop_holder < 0) & frame.prop_visible  # what set_down_tags reads
    key = (down.tobytes(), frame.prop_xy[down].tobytes())
    if memo.set_down is None or memo.set_down[0] != key:
        memo.set_down = (key, [("set_down", -1, t, _request(t, to_px, k, centred=True))
                               for t in set_down_tags(timeline, frame)])
    return memo.set_down[1]


def _place_tags(timeline, frame, o: SceneOptions) -> _Tags:
    """Every tag where it usually goes (a set-down prop on its spot, a held one right of the
    hand, a bow below-left, speech above) unless that box meets a token or a tag placed
    before it; then the nearest free place, with a leader line. Placed in a plane of pixels
    at the current zoom (drawn y, so breaks are respected), by viz.draw.labels.

    With lod: people whose tokens would overlap are one formation (dots, one name placed
    first); what is held is a glyph and what is set out an object, named only when zoomed in
    (`detailed`) or selected (`thing`: placed first, never left out); a tag that finds no free
    place is left out rather than drawn over a token."""
    k = max(o.px_per_chi, 1e-6)
    ymap = ymap_for(o.breaks)
    memo = _memo(timeline, o)

    def to_px(x: float, y: float) -> tuple[float, float]:
        # on whole pixels: a walker's boxes and tags change only when he crosses one, so
        # most frames the placement finds nothing moved (a tag shifts by under half a px)
        return float(round(x * k)), float(round(-ymap.fwd1(y) * k))

    def to_chi(px: float, py: float) -> tuple[float, float]:
        return px / k, float(ymap.inv(-py / k))

    r0 = token_radius(o)
    tokens: list[labels.BoxT] = []
    reqs: list[tuple[str, int, Text, labels.Label]] = []  # (kind, actor, usual Text, request)
    people: list[tuple[int, list]] = []
    glyphs: list[Primitive] = []
    kept = memo.people
    c = _cols(frame, o)
    groups, group_reqs, dots = (_formations(timeline, frame, c, o, memo) if o.lod
                                else ({}, [], []))
    for i in range(len(timeline.actors)):
        if not c.present[i]:
            continue
        code = c.posture[i]
        key = (*c.xy[i], c.facing[i], code, c.count[i], c.phase[i] if code == BOW else 0.0,
               c.seated[i], frame.holding[i])
        old = kept.get(i)
        if old is None or old[0] != key:
            old = kept[i] = (key, *_person(timeline, frame, i, o, to_px, c.xy[i]))
        if i not in groups:
            tokens += old[1]
        people.append((i, old[2]))
        glyphs += old[3]
    tokens += dots
    # names of formations first, what is said (the biggest box, read first), then bows, then
    # what is held
    order = {"thing": -2, "group": -1, "set_down": 0, "said": 1, "bow": 2, "held": 3}
    reqs += group_reqs
    if o.lod:
        _, counts, spots = _set_down_objects(memo, timeline, frame, o, to_px)
        reqs += counts  # (the objects are drawn with the plan: set_down_objects)
        tokens += spots  # no name or count over a thing set out either
        if detailed(o):
            reqs += _set_down_reqs(memo, timeline, frame, to_px, k)
        elif o.thing is not None:  # the thing selected is named however far out
            tag = thing_tag(timeline, frame, o.thing)
            if tag is not None:
                reqs.append(("thing", -1, tag, _request(tag, to_px, k, centred=True)))
    else:
        reqs += _set_down_reqs(memo, timeline, frame, to_px, k)
    for _, mine in people:
        reqs += mine
    if o.captions:
        for i, text in frame.captions:
            if not (0 <= i < len(timeline.actors)) or not bool(frame.present[i]):
                continue
            x, y = c.xy[i]
            old = memo.said.get(i)
            if old is None or old[0] != (x, y, text):
                t = Text((x + 0.6 * r0, y + 2.2 * r0), SPEECH.format(text), 13, INK, "s",
                         bg=(255, 255, 250), border=INK)
                old = memo.said[i] = ((x, y, text),
                                      ("said", i, t, _request(t, to_px, k, r=r0 * k, at=(x, y))))
            reqs.append(old[1])
    reqs.sort(key=lambda q: order[q[0]])  # stable: each kind keeps the cast's order
    keys = [(q[0], q[1], q[2].text) for q in reqs]
    bounds = None
    if o.lod and o.view is not None:  # names of formations stay inside the view
        x0, y0, x1, y1 = o.view
        (ax, ay), (bx, by) = to_px(x0, y1), to_px(x1, y0)
        bounds = (ax + 2, ay + 2, bx - 2, by - 2)
    placed = memo.placer.place([q[3] for q in reqs], tokens, bounds, keys=keys)
    out: dict[tuple[str, int], list[Primitive]] = {}
    tags: dict[tuple, tuple] = {}
    turns: dict[tuple, int] = {}
    for name, (kind, who, t, req), p in zip(keys, reqs, placed, strict=True):
        turns[name] = turn = turns.get(name, -1) + 1  # set-down tags of one name: by turn
        name = (name, turn)
        if o.lod and p.clash > 0 and kind not in ("group", "thing"):
            continue  # no free place: left out (the tooltip, a zoom or a selection tells it)
        old = memo.tags.get(name)
        if old is None or not ((old[0] is t or old[0] == t) and (old[1] is req or old[1] == req)
                               and (old[2] is p or old[2] == p)):
            old = (t, req, p, _tag_prims(kind, t, req, p, r0, to_chi))
        tags[name] = old
        out.setdefault((kind, who), []).extend(old[3])
    memo.tags = tags
    _last_pass[bool(o.captions)] = _record(keys, reqs, placed, groups, tokens, o)
    held: dict[int, list[Primitive]] = {}
    for (kind, who), prims in out.items():
        if kind in ("bow", "held"):
            held.setdefault(who, []).extend(prims)
    return _Tags(glyphs + out.get(("set_down", -1), []) + out.get(("thing", -1), []), held,
                 [p for (kind, _), prims in out.items() if kind == "said" for p in prims],
                 groups, [p for (kind, _), prims in out.items() if kind == "group"
                          for p in prims])


@dataclass(frozen=True)
class Drawn:
    """A name the last frame drew, as placed (px of the view's plane: the screen's, moved)."""

    kind: str  # "group" (a formation's name), "held", "bow", "said", "set_down", "thing"
    who: tuple[int, ...]  # its people (a formation's members; one owner; none)
    text: str
    box: labels.BoxT
    anchor: tuple[float, float]


_last_pass: dict[bool, tuple[list[Drawn], list[labels.BoxT]]] = {}


def last_drawn(main: bool = True) -> tuple[list[Drawn], list[labels.BoxT]]:
    """The names the last frame drew in the main view (main) or the range inset, and its
    tokens' and dots' boxes: what tests/test_classroom_labels.py checks (a formation's name
    stands at its members, is one body's, meets no other name)."""
    return _last_pass.get(main, ([], []))


def forget_drawn(main: bool) -> None:
    """Nothing was drawn in that view this frame (nobody in it)."""
    _last_pass.pop(bool(main), None)


def _record(keys, reqs, placed, groups: dict[int, int], tokens, o: SceneOptions):
    members: dict[int, list[int]] = {}
    for i, g in groups.items():
        members.setdefault(g, []).append(i)
    by_first = {min(ms): tuple(sorted(ms)) for ms in members.values()}
    out = []
    for (kind, who, t, req), p in zip(reqs, placed, strict=True):
        if o.lod and p.clash > 0 and kind not in ("group", "thing"):
            continue  # left out, as _place_tags leaves it
        people = by_first.get(who, (who,)) if kind == "group" else ((who,) if who >= 0 else ())
        out.append(Drawn(kind, people, t.text, p.box, req.anchor))
    return out, list(tokens)


def _formations(timeline, frame, c: _Cols, o: SceneOptions, memo: _ViewMemo):
    """People whose tokens would meet at this zoom, as formations: {actor: formation},
    each formation's name request (placed first, never left out), and its dots' boxes.
    Zooming in parts them: at a larger scale fewer tokens meet. Worked out again only when
    someone came, went or moved."""
    idx = np.flatnonzero(frame.present)
    xy = c.at[idx]
    key = (idx.tobytes(), xy.tobytes())
    if memo.formations is not None and memo.formations[0] == key:
        return memo.formations[1]
    if o.selected is not None:  # the one selected stands apart, named, with his tags
        keep = idx != o.selected
        idx, xy = idx[keep], xy[keep]
    memo.formations = (key, found := _formations_of(timeline, idx, xy, o))
    return found


_group_names: dict[tuple, tuple[str, Color]] = {}  # (timeline id, members) → (name, colour)


def _formations_of(timeline, idx: np.ndarray, xy: np.ndarray, o: SceneOptions):
    if len(idx) < 2:
        return {}, [], []
    k = max(o.px_per_chi, 1e-6)
    r = token_radius(o) * k
    yk = -np.asarray(ymap_for(o.breaks).fwd(xy[:, 1]), float) * k
    # members of one body (the cast's bodies:) standing together, joined (union-find): tokens
    # that would meet, or stand within a token's width of each other (a row of the 三耦 is one
    # formation, not six tokens side by side). People of different bodies, or of none, are
    # never joined: a formation's name is one body's (never the officers with the archers).
    dx = xy[:, None, 0] * k - xy[None, :, 0] * k
    dy = yk[:, None] - yk[None, :]
    body = _bodies(timeline)[idx]
    same = (body[:, None] == body[None, :]) & (body[:, None] >= 0)
    a, b = np.nonzero(np.triu(same & (dx * dx + dy * dy < (JOIN * r + 1.0) ** 2), 1))
    if not len(a):
        return {}, [], []
    # dots and names on whole pixels, as to_px puts tokens and tags (_place_tags)
    px, py = np.round(xy[:, 0] * k).tolist(), np.round(yk).tolist()
    members = _members(len(idx), a, b)
    present = Counter(body.tolist())  # each body's members in the scene
    groups: dict[int, int] = {}
    reqs: list = []
    dots: list[labels.BoxT] = []
    ids = idx.tolist()
    g = 0
    for ns in members.values():
        if len(ns) < 2:
            continue
        who = tuple(ids[n] for n in ns)
        for i in who:
            groups[i] = g
        g += 1
        whole = present[int(body[ns[0]])] == len(ns)  # all of his body there is here
        key = (id(timeline), who, tuple(px[n] for n in ns), tuple(py[n] for n in ns), r,
               o.ui, whole)
        kept = _formation_memo.get(key)
        if kept is None:  # worked out again only when one of them moved
            if len(_formation_memo) > 4096:
                _formation_memo.clear()
            kept = _formation_memo[key] = _formation(timeline, who, ns, px, py, r, k, o, whole)
        dots += kept[0]
        reqs.append(kept[1])
    return groups, reqs, dots


_joined: list = []  # [((n, pairs), members)]: the last few pair sets and what they join


def _members(n_people: int, a: np.ndarray, b: np.ndarray) -> dict[int, list[int]]:
    """The formations the pairs (a[j], b[j]) of tokens that meet join the people 0 … n-1 in:
    {root: members}, in the order union-find finds them. Looked up while the same pairs meet
    (most frames: walkers move within their formations), else worked out again."""
    key = (n_people, a.tobytes(), b.tobytes())
    for k, found in _joined:
        if k == key:
            return found
    parent = list(range(n_people))

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for m, n in zip(a.tolist(), b.tolist(), strict=True):
        ra, rb = root(m), root(n)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    members: dict[int, list[int]] = {}
    for n in range(n_people):
        members.setdefault(root(n), []).append(n)
    _joined[:] = [(key, members), *_joined[:VIEWS - 1]]
    return members


_formation_memo: dict[tuple, tuple] = {}  # (members and where they stand) → (dots, request)


def _formation(timeline, who: tuple, ns: list[int], px: list[float], py: list[float], r: float,
               k: float, o: SceneOptions, whole: bool = False) -> tuple[list, tuple]:
    """One formation's dots' boxes and its name's placement request. The name stands at its
    members: it is tried first above the member at the formation's top (the middle one of a
    row), then around him, then further out with a leader line to him. whole: every member of
    the body present is in it (named by the body: 三耦, 衆賔 六人)."""
    rd = r * DOT * 1.9
    size = name_px(o)
    dots = [(px[n] - rd, py[n] - rd, px[n] + rd, py[n] + rd) for n in ns]
    cx = sum(px[n] for n in ns) / len(ns)
    top = min(ns, key=lambda n: (py[n], abs(px[n] - cx)))
    named = _group_names.get((id(timeline), who, whole))
    if named is None:
        acts = [timeline.actors[i] for i in who]
        text = body_name(acts) if whole else ""
        text = text or group_name([a.name for a in acts],
                                  [short_label(a.label or a.name) for a in acts])
        parties = {a.party for a in acts}
        if len(_group_names) > 4096:
            _group_names.clear()
        named = _group_names[(id(timeline), who, whole)] = (
            text, party_color(acts[0].party) if len(parties) == 1 else INK)
    text, col = named
    t = Text((px[top] / k, 0.0), text, size / k, col, "c", unit="chi", min_px=size,
             max_px=size, bg=GROUP_BG, border=col)
    w, h = labels.text_size(text, round(size), 2)
    also = []  # then beside each of the others, nearest the top first; then a row further out
    near = sorted((n for n in ns if n != top),
                  key=lambda n: (py[n] - py[top]) ** 2 + (px[n] - px[top]) ** 2)[:GROUP_BESIDE]
    for n in near:
        for d in GROUP_ORDER:
            dx, dy = labels.DIRS[d]
            cx, cy = px[n] + dx * (rd + 1 + w / 2), py[n] + dy * (rd + 1 + h / 2)
            also.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    for n in [top, *near]:
        also += [tuple(b) for b in labels._rings(labels.Label((px[n], py[n]), w, h, r=rd), 1, 1)
                 .tolist()]
    req = labels.Label((px[top], py[top]), w, h, r=rd, order=GROUP_ORDER, also=tuple(also),
                       rings=0)  # never further than beside a member (issue 27)
    return dots, ("group", who[0], t, req)


GROUP_ORDER = ("n", "ne", "nw", "e", "w", "s", "se", "sw")  # a formation's name: above it first
GROUP_BESIDE = 12  # members beside whom a formation's name is tried before further out


def body_name(acts) -> str:
    """A whole body's name, as the cast's bodies: give it: 三耦 (a count in its name), else with
    the count (衆賔 六人); "" when they are not all of one body."""
    bodies = {a.body for a in acts}
    if len(bodies) != 1 or not next(iter(bodies)):
        return ""
    name = next(iter(bodies))
    if any(c in NUMERALS for c in name):
        return name
    return GROUP_NOTE.format(stem=name, n=numeral(len(acts)))


_body_ids: dict[int, tuple] = {}  # id(timeline) → (timeline, each actor's body as a number)


def _bodies(timeline) -> np.ndarray:
    """Each actor's body as a number (-1: none), the same number for one body."""
    got = _body_ids.get(id(timeline))
    if got is None or got[0] is not timeline:
        names: dict[str, int] = {}
        arr = np.asarray([names.setdefault(a.body, len(names)) if getattr(a, "body", "")
                          else -1 for a in timeline.actors], int)
        if len(_body_ids) > 16:
            _body_ids.clear()
        got = _body_ids[id(timeline)] = (timeline, arr)
    return got[1]


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
    key = down.tobytes() + frame.prop_xy[down].tobytes()
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
        prims += prop_glyph(x, y, name, k, o.ui, j)
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


def prop_glyph(x: float, y: float, name: str, k: float, ui: float = 1.0,
               turn: int = 0) -> list[Primitive]:
    """A prop drawn as a small object at (x, y) 尺, a few px across at any zoom: an arrow (矢),
    a bow (弓), a cup (觶, 爵 …), the 豐 stand, a bundle of 算, a 俎, else a dish."""
    u = ui / max(k, 1e-6)  # 尺 per px
    last = name[-1:]
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


def held_glyphs(x: float, y: float, facing: float, r: float, held: dict[str, int], k: float,
                ui: float) -> list[Primitive]:
    """What a person holds as small objects: a bow in his left hand, at his left side, the
    arrows he holds across its string (dress.held_bow: 執弓, 挾矢; unstrung, along it); anything
    else behind him (away from his nose), side by side: one arrow a 矢 held without a bow (up
    to four), a cup …"""
    u = ui / max(k, 1e-6)
    fx, fy = facing_vector(facing)
    bx, by = x - fx * (r + 5 * u), y - fy * (r + 5 * u)
    out: list[Primitive] = []
    bows = [name for name in ("弓", "弛弓") if name in held]
    bow = bows[0] if len(bows) == 1 and held[bows[0]] == 1 else None  # one bow: his own, in hand
    if bow is not None:  # (a 有司 carrying a 耦's two bows keeps them behind him)
        out += dress.held_bow(x, y, fx, fy, r, u, strung=bow == "弓", arrows=held.get("矢", 0))
        held = {name: n for name, n in held.items() if name not in (bow, "矢")}
    items = [name for name, n in held.items() for _ in range(min(n, 4) if name == "矢" else 1)]
    px, py = -fy, fx
    step = 5.0 * u
    for m, name in enumerate(items):
        off = (m - (len(items) - 1) / 2) * step
        gx, gy = bx + px * off, by + py * off
        if name == "矢":  # a short shaft pointing where he faces
            out.append(Line(((gx - fx * 4 * u, gy - fy * 4 * u), (gx + fx * 4 * u, gy + fy * 4 * u)),
                            PROP_INK, 1.5))
        else:
            out += prop_glyph(gx, gy, name, k, ui)
    return out


def _person(timeline, frame, i: int, o: SceneOptions, to_px,
            at: tuple[float, float]) -> tuple[list, list, list]:
    """One person's token boxes (disc, nose) in px, his tag requests (bow, held) and, with
    lod and not zoomed in, what he holds as glyphs; he stands `at` (his place in the view)."""
    k = max(o.px_per_chi, 1e-6)
    r0 = token_radius(o)
    x, y = at
    cx, cy = to_px(x, y)
    r = _drawn_r(frame, i, r0)
    fx, fy = facing_vector(float(frame.facing[i]))
    nx, ny = cx + fx * r * 1.6 * k, cy - fy * r * 1.6 * k
    boxes = [labels.circle_box(cx, cy, r * k),
             (min(cx, nx) - 0.55 * r * k, min(cy, ny) - 0.55 * r * k,
              max(cx, nx) + 0.55 * r * k, max(cy, ny) + 0.55 * r * k)]
    reqs: list = []
    code = int(frame.posture[i])
    if code == BOW:
        word = BOW_WORDS.get(int(frame.count[i]), BOW_WORDS[1])
        t = Text((x - r, y + r), word, 10, (150, 36, 30), "se", bg=(255, 248, 230))
        reqs.append(("bow", i, t, _request(t, to_px, k, r=r * k, at=(x, y))))
    elif code == BOW_HANDS:
        t = Text((x - r, y + r), POSTURES[BOW_HANDS], 10, (32, 54, 112), "se",
                 bg=(240, 244, 255))
        reqs.append(("bow", i, t, _request(t, to_px, k, r=r * k, at=(x, y))))
    held: dict[str, int] = {}
    for pid in frame.holding[i]:
        j = timeline.prop_index.get(pid)
        # in hand, the kind's last character is enough (乘矢 → 矢); set down, the full name
        name = (timeline.props[j].name if j is not None else pid)[-1:]
        if name == "弓" and dress.bow_state(timeline, frame, pid) == "弛":
            name = "弛弓"  # unstrung (執弛弓)
        held[name] = held.get(name, 0) + 1
    if held and not detailed(o) and i != o.selected:
        return boxes, reqs, held_glyphs(x, y, float(frame.facing[i]), r, held, k, o.ui)
    if held:
        # one tag a person (弓·矢×4): two tags a hand crowd a column of archers
        t = prop_tag(x + r0 + 0.2 * r0, y, HELD_SEP.join(
            name if c == 1 else f"{name}×{c}" for name, c in held.items()), anchor="w")
        reqs.append(("held", i, t, _request(t, to_px, k, r=r0 * k, at=(x, y))))
    return boxes, reqs, []



def _tag_prims(kind: str, t: Text, req: labels.Label, p: labels.Placed, r0: float,
               to_chi) -> list[Primitive]:
    """A placed tag: its Text where it usually goes (speech with a tail), or moved to its
    box, with a leader line when away from its owner."""
    mine: list[Primitive] = []
    if p.choice == 0 and req.first is not None:
        if kind == "said":  # the bubble's tail, from the speaker's head to its foot
            x, y = to_chi(*req.anchor)
            mine.append(Line(((x, y + r0), t.pos), INK, 1.0))
        mine.append(t)
        return mine
    cx, cy = p.center
    if p.displaced or kind == "said":
        a, b = labels.leader(req.anchor, p.box, req.r)
        mine.append(Line((to_chi(*a), to_chi(*b)), t.border or LABEL, 1.0))
    mine.append(replace(t, pos=to_chi(cx, cy), anchor="c"))
    return mine


def _text_px(t: Text, k: float) -> float:
    if t.unit == "chi":
        return round(min(max(t.size * k, t.min_px), t.max_px))
    return round(t.size)


_FRAC = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
         "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


def _request(t: Text, to_px, k: float, r: float = 0.0, at: tuple[float, float] | None = None,
             centred: bool = False) -> labels.Label:
    """A placement request for a Text: its usual box first, then around `at` (its owner)."""
    pad = 2 if t.bg is not None or t.border is not None else 0
    w, h = labels.text_size(t.text, _text_px(t, k), pad)
    px, py = to_px(*t.pos)
    fx, fy = _FRAC.get(t.anchor, (0.5, 0.5))
    first = (px - fx * w, py - fy * h, px - fx * w + w, py - fy * h + h)
    anchor = to_px(*at) if at is not None else (px, py)
    return labels.Label(anchor, w, h, r=r, first=first, centred=centred)


def facing_mark(x: float, y: float, fx: float, fy: float, r: float, col: Color) -> Polygon:
    """A nose: a triangle whose tip stands 0.6 r beyond the token edge in the facing direction."""
    px, py = -fy, fx  # perpendicular
    tip = (x + fx * r * 1.6, y + fy * r * 1.6)
    b = 0.55 * r
    base = (x + fx * r * 0.6, y + fy * r * 0.6)
    return Polygon((tip, (base[0] + px * b, base[1] + py * b), (base[0] - px * b, base[1] - py * b)),
                   col, (20, 16, 12), 1.0)


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


def set_down_props(timeline, frame, o: SceneOptions) -> list[Primitive]:
    """The tags of props set down, on their spot unless a token or another tag is there."""
    return _tags(timeline, frame, o).set_down


def captions(timeline, frame, o: SceneOptions) -> list[Primitive]:
    """Speech bubbles: the words said, above the speaker (or the nearest free place), with a
    tail to him."""
    if not o.captions:
        o = replace(o, captions=True)
    return _tags(timeline, frame, o).said


Bounds = tuple[float, float, float, float]


def _bbox(arrays: list[np.ndarray], pad: float) -> Bounds | None:
    if not arrays:
        return None
    a = np.vstack([np.asarray(p, float).reshape(-1, 2) for p in arrays])
    return (float(a[:, 0].min()) - pad, float(a[:, 1].min()) - pad,
            float(a[:, 0].max()) + pad, float(a[:, 1].max()) + pad)


def _region(layout, x: float, y: float) -> str:
    try:
        return layout.region_at(x, y)
    except (AttributeError, ValueError):
        return ""


def _feature_region(layout, f) -> str:
    c = np.asarray(f.points, float).reshape(-1, 2).mean(axis=0)
    return _region(layout, float(c[0]), float(c[1]))


def site_bounds(layout) -> Bounds:
    """The school: court and hall (what the plan is mostly about); of a court deep enough to
    hold the 侯, the part north of the range."""
    court = [f.points for f in layout.features if f.kind in ("court", "hall")]
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


def nice_length(max_chi: float) -> float:
    """The largest 1-2-5 × 10^k not over max_chi."""
    if max_chi <= 0:
        return 1.0
    e = 10 ** math.floor(math.log10(max_chi))
    for m in (5, 2, 1):
        if m * e <= max_chi:
            return m * e
    return e


def overlay(camera: Camera, chi_m: float, corner: tuple[float, float]) -> list[Primitive]:
    """Screen-anchored scale bar (尺 and m, measured along x, which breaks never touch) and a
    north arrow, with their bottom-left at `corner` (px)."""
    x0, y0 = corner
    chi = nice_length(140 / camera.scale)
    w = chi * camera.scale
    out: list[Primitive] = []
    for k in range(2):
        seg = ((x0 + k * w / 2, y0 - 6), (x0 + (k + 1) * w / 2, y0 - 6),
               (x0 + (k + 1) * w / 2, y0), (x0 + k * w / 2, y0))
        out.append(Polygon(seg, INK if k == 0 else WHITE, INK, 1.0, screen=True))
    out.append(Text((x0, y0 - 8), "0", 10, INK, "s", screen=True))
    out.append(Text((x0 + w, y0 - 8), SCALE_NOTE.format(chi=chi, m=chi * chi_m), 10, INK, "sw",
                    screen=True))
    nx, ny = x0 + 12, y0 - 30
    out.append(Polygon(((nx, ny - 22), (nx + 7, ny), (nx, ny - 5), (nx - 7, ny)), INK, INK, 1.0,
                       screen=True))
    out.append(Text((nx, ny - 24), NORTH, 12, INK, "s", screen=True))
    return out
