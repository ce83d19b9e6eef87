"""What a view asks of the plan, and what every part of it shares: the inks, the party colours,
a person's facing as a vector, the level of detail (`SceneOptions`: zoom, breaks, lod, the UI
scale, the selection) and the sizes it gives a token and a name.

Nothing here draws; viz.draw.hall, person, tags, formations, props and range_marks do.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from string import Formatter

from viz.draw.camera import Break
from viz.draw.display import Color

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

# Level of detail (compose's window and shot; a plate keeps lod off and draws as before)
NAME_PX = 12.0  # px (× the UI scale): the smallest name on a token or a formation
TOKEN_PX = 13.5  # px (× the UI scale): a token's smallest radius, so a two-character name fits
DETAIL_PX = 10.0  # px per 尺 (× the UI scale) from which what is held and set out is named
VIEWS = 4  # views placing tags, each remembering its last frame (the window has two)


def literal(template: str) -> str:
    """The characters a format template always writes (its fields left out)."""
    return "".join(text for text, *_ in Formatter().parse(template))



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
