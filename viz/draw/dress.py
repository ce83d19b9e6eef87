"""What a person wears drawn on his token, and a bow strung or unstrung: pure primitives in 尺.

Marks, each on the token's rim so the label inside stays clear (the person's own left and right,
from his facing), as 鄭注 on 請射 describes them (袒左免衣也; 決…著右大擘指以鈎弦; 遂射韝也; 疏: 凡事
無問吉凶皆袒左): 袒, the bared left arm, a skin-coloured patch on the left shoulder; 決, the
thumb-ring (a 大夫's 袒, 記 袒纁襦 — 注 不肉袒 — a red patch: the
under-jacket, not the skin), a small gold ring at the right hand; 遂, the leather arm-guard, a dark band along the
left forearm, ahead of the shoulder; the 扑 in the belt, a stick slanting across his back. A bow
held is drawn strung (張: an arc with its string) or unstrung (弛: a flat reversed curve, no
string); a person's own bow in his left hand, at his left side, with the arrows he holds across
its string (held_bow).
"""
from __future__ import annotations

import math

from viz.draw.display import Circle, Line, Polygon, Primitive
from viz.model.dress import BOW_NAMES, TAN_XUNRU, WORN

SKIN = (232, 164, 112)
XUN = (200, 70, 56)  # 纁 (淺絳): the 大夫's under-jacket, bared instead of the arm (記: 袒纁襦)
SKIN_EDGE = (150, 96, 60)
RING = (214, 168, 40)
GUARD = (92, 54, 28)
STICK = (120, 78, 36)
INK = (96, 64, 30)  # scene.PROP_INK


def worn(frame, i: int) -> tuple[int, ...]:
    """What actor i wears at the frame, as (袒, 決, 遂, 扑) flags; all 0 without a dress channel."""
    cols = frame.values.get("dress") if frame.values else None
    if not cols:
        return (0,) * len(WORN)
    return tuple(int(cols[k][i]) if len(cols.get(k, ())) > i else 0 for k in WORN)


def bow_state(timeline, frame, pid: str) -> str:
    """張 or 弛 for a bow at the frame ("" for anything else, or without a bow channel)."""
    state = frame.values.get("bow", {}).get("state", ()) if frame.values else ()
    j = timeline.prop_index.get(pid)
    if j is None or len(state) <= j:
        return ""
    return BOW_NAMES.get(int(state[j]), "")


def marks(x: float, y: float, r: float, facing: float, dress: tuple[int, ...]) -> list[Primitive]:
    """The marks of what he wears on a token of radius r (尺) at (x, y) facing `facing` degrees."""
    if not any(dress):
        return []
    a = math.radians(facing)
    fx, fy = math.sin(a), math.cos(a)
    lx, ly = -fy, fx  # his left
    bared, ring, guard, stick = dress
    out: list[Primitive] = []
    if stick:  # across the back, from his right hip up to his left shoulder blade
        p0 = (x - fx * 0.9 * r - lx * 0.9 * r, y - fy * 0.9 * r - ly * 0.9 * r)
        p1 = (x - fx * 1.25 * r + lx * 0.7 * r, y - fy * 1.25 * r + ly * 0.7 * r)
        out.append(Line((p0, p1), STICK, 3.0))
    if bared:
        c = (x + lx * 0.78 * r, y + ly * 0.78 * r)
        fill = XUN if bared == TAN_XUNRU else SKIN  # 記: 大夫與士射袒纁襦 (注: 不肉袒)
        out.append(Circle(c, 0.42 * r, fill, SKIN_EDGE, 1.0, min_px=2.5))  # legible on a dot
    if guard:  # along the left forearm, held out ahead of the shoulder
        p0 = (x + lx * 1.05 * r + fx * 0.1 * r, y + ly * 1.05 * r + fy * 0.1 * r)
        p1 = (x + lx * 1.05 * r + fx * 0.8 * r, y + ly * 1.05 * r + fy * 0.8 * r)
        out.append(Line((p0, p1), GUARD, 3.0))
    if ring:  # the right thumb
        c = (x - lx * 1.0 * r + fx * 0.45 * r, y - ly * 1.0 * r + fy * 0.45 * r)
        out.append(Circle(c, 0.3 * r, None, RING, 2.0, min_px=2.0))
    return out


def bow_glyph(x: float, y: float, u: float, strung: bool) -> list[Primitive]:
    """A bow a few px across (u: 尺 per px): strung, an arc and its string; unstrung, the limbs
    bent back the other way (a 弓 弛 reverses), no string."""
    if strung:
        arc = tuple((x + 4.5 * u * math.cos(math.radians(d)), y + 4.5 * u * math.sin(math.radians(d)))
                    for d in range(200, 341, 20))
        return [Line(arc, INK, 2.0), Line((arc[0], arc[-1]), INK, 1.0)]
    pts = tuple((x + t * 4.5 * u, y + 1.6 * u * (1 - 2 * abs(t)) * (1 if abs(t) > 0.5 else -0.4))
                for t in (-1.0, -0.6, -0.3, 0.0, 0.3, 0.6, 1.0))
    return [Line(pts, INK, 2.0),
            Polygon(((x - 0.6 * u, y - 0.8 * u), (x + 0.6 * u, y - 0.8 * u),
                     (x + 0.6 * u, y + 0.8 * u), (x - 0.6 * u, y + 0.8 * u)), INK, None)]



def plate_note(timeline, frame, i: int) -> str:
    """What a plate writes after a person's name: ·弛弓 while he holds an unstrung bow (a bow is
    strung otherwise; 袒 is his dot: plate_dot); and what he wears (don): the cap outermost on
    his head and what is on his body (冠者·緇布冠, 冠者·爵弁·纁裳), not his shoes."""
    note = ""
    if any(bow_state(timeline, frame, pid) == "弛" for pid in frame.holding[i]):
        note = "·弛弓"
    worn = costume(timeline, frame, i)
    head = [n for spot, _, n in worn if spot == "首"][-1:]
    return note + "".join("·" + n for n in head + [n for spot, _, n in worn if spot == "身"])


def plate_dot(frame, i: int, sx: float, sy: float, ink) -> Circle | None:
    """A plate's standing dot (screen px) for a person whose left arm is bared (袒): the skin's
    colour ringed in ink, as large as the plain dot's mark; None when he is covered."""
    if not worn(frame, i)[0]:
        return None
    return Circle((sx, sy), 3.3, SKIN, ink, 1.3, screen=True)


def held_bow(x: float, y: float, fx: float, fy: float, r: float, u: float, strung: bool,
             arrows: int, ink=INK, screen: bool = False) -> list[Primitive]:
    """A bow as held, at his left (疏 on 搢三而挾一个: 插於帶右者以其左手執弓; 左執弣): the bow
    upright in the left hand, flattened onto the ground, its limbs along his facing, the back
    outward and the string toward him. Strung (張), an arc with its string and the arrows held
    across the string (挾: 注 方持弦矢曰挾), as many as he holds (up to four); unstrung (弛: 郤左手右
    加弛弓於其上遂以執弣), the limbs bent the other way with no string, the arrows along it (兼諸弦弣).
    (x, y) his centre, (fx, fy) his facing as a unit vector, r his radius, u the length of a px,
    all in 尺 with y north; with screen=True all in screen px with y down (a plate's dots)."""
    lx, ly = (fy, -fx) if screen else (-fy, fx)  # his left (y down mirrors the turn)
    reach = 1.05 * r + 3.0 * u  # beyond the 遂 on the forearm
    gx, gy = x + lx * reach + fx * 0.45 * r, y + ly * reach + fy * 0.45 * r  # the grip (弣)
    half, bulge = 5.0 * u, 2.2 * u

    def at(t: float, side: float) -> tuple[float, float]:
        return (gx + fx * half * t + lx * side, gy + fy * half * t + ly * side)

    ts = (-1.0, -0.6, -0.3, 0.0, 0.3, 0.6, 1.0)
    out: list[Primitive] = []
    n = max(0, min(int(arrows), 4))
    if strung:
        out.append(Line(tuple(at(t, bulge * (1 - t * t)) for t in ts), ink, 2.0, screen=screen))
        out.append(Line((at(-1, 0), at(1, 0)), ink, 1.0, screen=screen))
        for m in range(n):  # across the string, nocked near the grip
            s = (m - (n - 1) / 2) * 1.3 * u
            p0 = (gx + fx * s - lx * 2.5 * u, gy + fy * s - ly * 2.5 * u)
            p1 = (gx + fx * s + lx * 4.0 * u, gy + fy * s + ly * 4.0 * u)
            out.append(Line((p0, p1), ink, 1.2, screen=screen))
    else:
        out.append(Line(tuple(at(t, -0.9 * u * (1 - t * t) + 0.8 * u * t * t) for t in ts), ink,
                        2.0, screen=screen))
        for m in range(n):  # laid along it (兼諸弦弣)
            s = (m - (n - 1) / 2) * 0.9 * u + 1.4 * u
            out.append(Line((at(-0.9, s), at(0.9, s)), ink, 1.0, screen=screen))
    return out


def held_bow_state(timeline, frame, i: int) -> str:
    """張 or 弛 when actor i holds one bow (his own, in his left hand), else "" (none, or a
    有司 carrying two)."""
    bows = [pid for pid in frame.holding[i]
            if timeline.prop_index.get(pid) is not None
            and timeline.props[timeline.prop_index[pid]].name.endswith("弓")]
    if len(bows) != 1:
        return ""
    return bow_state(timeline, frame, bows[0]) or "張"


def arrows_held(timeline, frame, i: int) -> int:
    """How many arrows (矢) actor i holds."""
    return sum(1 for pid in frame.holding[i] if timeline.prop_index.get(pid) is not None
               and timeline.props[timeline.prop_index[pid]].name.endswith("矢"))


# ---- worn things (don, doff): a cap on the head of the token, clothes and shoes as marks ----
# The plan is seen from above and a token's top is its north: the cap sits on the top of the
# disc (so it reads as a cap on a head whatever way he faces), the 纚 (black silk binding the
# hair) as a band under it, the 笄 (pin) across it; a garment (服, 衣, 裳) an arc of its colour
# along the foot of the disc, a 韠 a small apron there, shoes (屨) two dots below.
CAP_INK = (20, 16, 12)
COLOURS = (("緇", (34, 30, 34)), ("玄", (44, 36, 58)), ("爵", (110, 40, 44)),  # 爵: 赤而微黑
           ("皮", (232, 224, 204)), ("素", (238, 234, 222)), ("纁", (200, 70, 56)),
           ("黑", (30, 28, 30)), ("白", (240, 238, 230)))
# the kinds drawn apart: the 纚 a band, the 笄 a pin, a 弁 a taller cap, a 韠 an apron
MARKS = {"band": "纚", "pin": "笄", "tall": "弁", "apron": "韠"}
DEFAULT_COLOUR = {"冠": (34, 30, 34), "弁": (232, 224, 204), "纚": (24, 22, 24), "笄": (226, 214, 180),
                  "服": (44, 36, 58), "韠": (110, 40, 44), "屨": (40, 34, 30)}


def colour_of(kind: str, name: str):
    """A worn thing's colour, from the first colour word of its name (緇布冠, 皮弁, 爵韠 …),
    else its kind's."""
    for word, c in COLOURS:
        if word in name:
            return c
    return DEFAULT_COLOUR.get(kind, (60, 50, 40))


def costume(timeline, frame, i: int) -> tuple[tuple[str, str, str], ...]:
    """What actor i wears at the frame, as (spot, kind, name), head first and under-things
    first; () for a rite with no worn things."""
    from viz.model.dress import wears

    return tuple((timeline.props[p].worn, timeline.props[p].kind, timeline.props[p].name)
                 for p in wears(timeline, frame, i))


def thing_mark(x: float, y: float, r: float, spot: str, kind: str, name: str) -> list[Primitive]:
    """One worn thing drawn where it is worn on a token of radius r at (x, y) (尺, y north), or
    where it is on its way there (don, doff: (x, y) then the token it goes to, moved)."""
    c = colour_of(kind, name)
    if spot == "首":
        if kind == MARKS["band"]:  # the hair bound: a band across the top of the head
            return [Line(((x - 0.66 * r, y + 0.6 * r), (x + 0.66 * r, y + 0.6 * r)), c, 3.0)]
        if kind == MARKS["pin"]:  # the pin, across and beyond the cap
            return [Line(((x - 0.95 * r, y + 1.0 * r), (x + 0.95 * r, y + 1.0 * r)), c, 2.0)]
        h = 0.75 if kind == MARKS["tall"] else 0.55  # a 弁 stands taller (皮弁: 如合手)
        pts = [(x - 0.6 * r, y + 0.7 * r), (x + 0.6 * r, y + 0.7 * r)]
        pts += [(x + 0.6 * r * math.cos(math.radians(d)), y + 0.7 * r + h * r *
                 math.sin(math.radians(d))) for d in range(20, 161, 35)]
        return [Polygon(tuple(pts), c, CAP_INK, 1.0)]
    if spot == "身":
        if kind == MARKS["apron"]:  # an apron over the knees: in front, at the foot of the disc
            return [Polygon(((x - 0.3 * r, y - 0.55 * r), (x + 0.3 * r, y - 0.55 * r),
                             (x + 0.36 * r, y - 0.98 * r), (x - 0.36 * r, y - 0.98 * r)),
                            c, CAP_INK, 1.0)]
        arc = tuple((x + 1.05 * r * math.cos(math.radians(d)), y + 1.05 * r * math.sin(
            math.radians(d))) for d in range(205, 336, 10))
        return [Line(arc, c, 3.0)]
    # 足: the shoes, two dots below
    return [Circle((x + s * 0.35 * r, y - 1.25 * r), 0.16 * r, c, CAP_INK, 1.0, min_px=1.5)
            for s in (-1, 1)]


def costume_marks(x: float, y: float, r: float, worn) -> list[Primitive]:
    """What he wears (costume()) drawn on his token: body and feet, then the head from the
    under-things up."""
    out: list[Primitive] = []
    order = {"足": 0, "身": 1, "首": 2}
    for spot, kind, name in sorted(worn, key=lambda w: order.get(w[0], 3)):
        out += thing_mark(x, y, r, spot, kind, name)
    return out


SPOT_AT = {"首": 0.8, "身": -0.8, "足": -1.25}  # × r: how far north of a token's centre each is


def on_the_way(timeline, frame, at, r: float) -> tuple[list[Primitive], set[str]]:
    """The worn things going on or coming off at the frame, each drawn between the hands (just
    before the person whose hands they are, where he faces) and where they are worn, as far
    along as the action is (加冠: from the 賔's hands to the 冠者's head over the step's time);
    and their ids (not drawn in the hands meanwhile). at(i): where person i is drawn (尺)."""
    from viz.model.dress import moving

    out: list[Primitive] = []
    ids: set[str] = set()
    for p, wearer, hands, along, _on in moving(frame):
        if wearer < 0 or not (frame.present[wearer] and frame.present[hands]):
            continue
        prop = timeline.props[p]
        hx, hy = at(hands)
        a = math.radians(float(frame.facing[hands]))
        # thing_mark draws a thing where it is worn on a token centred at (x, y): in the hands,
        # that centre lies as far south of the hands as the spot is north of a centre
        sx = hx + math.sin(a) * 1.3 * r
        sy = hy + math.cos(a) * 1.3 * r - SPOT_AT.get(prop.worn, 0.0) * r
        wx, wy = at(wearer)
        out += thing_mark(sx + (wx - sx) * along, sy + (wy - sy) * along, r, prop.worn,
                          prop.kind, prop.name)
        ids.add(prop.id)
    return out, ids
