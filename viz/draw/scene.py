"""The plan: the hall, court and range to scale, the people and things in them, as display lists.

Everything is in 尺 in the layout frame; what must stay on screen whatever the zoom (scale bar,
north arrow) is built by `overlay()` from a camera. `viz.draw.compose` puts these pieces
together into the layers of a frame. Each thing drawn has its module, and this one names them
all (the names stand here too, so `scene.features` and the like keep working):

    options      what a view asks (SceneOptions), the inks and the sizes of tokens and names
    hall         the buildings and furniture, the 侯 in elevation, feature and place names
    range_marks  the line of flight, the range's breaks, the 乏's distances
    person       a person's token and nose, what he holds as glyphs, a frame's columns
    formations   people of one body standing together, drawn as dots with one name
    props        props as small objects, and set down as objects and tags
    tags         the placed tags: bows, what is held, speech, props set down by name
    bounds       the ground each view frames (school, range, whole, elsewhere)
    scalebar     the scale bar and north arrow
    viewmemo     what each view remembers of its last frame

Here: `actors`/`actor_parts`, each present person's token with his tags, and `TEXTS`, the
words the plan itself writes (for the font check).
"""
from __future__ import annotations

# ruff: noqa: F401 (the names of the modules below stand here too, as callers know them)
from viz.draw import dress
from viz.draw.bounds import (
    Bounds,
    all_bounds,
    elsewhere_bounds,
    elsewhere_scenes,
    range_bounds,
    site_bounds,
)
from viz.draw.display import Primitive
from viz.draw.formations import (
    DOT,
    GROUP_BESIDE,
    GROUP_BG,
    GROUP_NOTE,
    GROUP_ORDER,
    JOIN,
    MANY_NOTE,
    NUMERALS,
    PAIRS_NOTE,
    _bodies,
    _formation_memo,
    _formations_of,
    _joined,
    body_name,
    group_name,
    numeral,
)
from viz.draw.hall import (
    FEATURE_STYLE,
    HOU_LABELS,
    KIND_ORDER,
    PLACE_INK,
    PLACE_PX,
    _feature_label_at,
    _label_of,
    _place,
    features,
    hou_elevation,
    hou_face,
    place_labels,
)
from viz.draw.options import (
    DETAIL_PX,
    GREY,
    INK,
    LABEL,
    NAME_PX,
    OTHER_PARTY,
    PARTY_COLORS,
    TOKEN_PX,
    WHITE,
    SceneOptions,
    detailed,
    facing_vector,
    literal,
    name_px,
    party_color,
    text_width_em,
    token_radius,
)
from viz.draw.person import (
    BOW_HANDS,
    BOW_WORDS,
    HELD_SEP,
    SIT,
    _Cols,
    _cols,
    _token,
    facing_mark,
    held_glyphs,
    short_label,
    snapped,
)
from viz.draw.props import (
    PROP_INK,
    prop_glyph,
    prop_tag,
    set_down_objects,
    set_down_tags,
    thing_tag,
)
from viz.draw.range_marks import (
    BREAK_NOTE,
    FA_NOTE,
    RANGE_NOTE,
    SHOT_COUNTS,
    range_breaks,
    range_marks,
)
from viz.draw.scalebar import NORTH, SCALE_NOTE, nice_length, overlay
from viz.draw.tags import (
    _FRAC,
    SPEECH,
    Drawn,
    _tags,
    captions,
    forget_drawn,
    last_drawn,
    set_down_props,
)
from viz.draw.viewmemo import _memo
from viz.model.timeline import POSTURES

TEXTS: tuple[str, ...] = tuple(literal(t) for t in (
    *BOW_WORDS.values(), POSTURES[BOW_HANDS], *HOU_LABELS, RANGE_NOTE, BREAK_NOTE, FA_NOTE,
    SHOT_COUNTS, SCALE_NOTE, NORTH, HELD_SEP, SPEECH, GROUP_NOTE, PAIRS_NOTE, MANY_NOTE, NUMERALS)) + (
    "×0123456789.-",)


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
