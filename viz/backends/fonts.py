"""The bundled CJK font: loading, checking coverage, substitutes for glyphs no font has, a text cache."""
from __future__ import annotations

import sys
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache

import pygame
import pygame.freetype

from viz import ASSETS

FONT_PATH = ASSETS / "fonts" / "NotoSerifTC-Xiangshe.otf"

# Characters no face of Noto Serif CJK draws (all 11 such in the 17 chapters of 張爾岐's 句讀,
# assets/text/yili-chars.txt), shown as their standard form; the legend and `check` say so. 𤣥 is
# the Qing taboo form of 玄 (缺末筆, avoiding 康熙's name 玄燁), 𦙍 of 胤 (雍正's 胤禛: 書𦙍征 is
# 胤征); the rest are variant shapes, each read from its place in the text.
SUBSTITUTES: dict[str, str] = {
    "\U000248e5": "玄",   # 𤣥 士冠禮 𤣥端, passim
    "\U0002664d": "胤",   # 𦙍 覲禮注 書𦙍征
    "\U00020bd7": "咂",   # 𠯗 士昏禮注 用指𠯗醬, 𠯗子闔反
    "\U00022dec": "擣",   # 𢷬 有司徹注 腶脩𢷬肉之脯; 既夕注 初𢷬之則為粉
    "\U00023657": "槷",   # 𣙗 士冠禮注 古文闑為𣙗, 魚列反
    "\U000244f0": "瓜",   # 𤓰 喪服/士喪禮 髽側𤓰反
    "\U00024f35": "發",   # 𤼵 士冠禮注 母𤼵聲也; 喪服 以𤼵傳者
    "\U00026d4f": "葬",   # 𦵏 喪服 未𦵏, 既𦵏
    "\U000270ca": "養",   # 𧃊 有司徹 乃𧃊如儐, 古文𧃊作餕 (艸 over 養)
    "\U00028f7b": "隸",   # 𨽻 大射儀 𨽻僕人
    "\U0002b74a": "傳",   # 𫝊 覲禮 四𫝊擯, 𫝊而上
}


@lru_cache(maxsize=4)
def get_font(path: str | None = None) -> pygame.freetype.Font:
    """The bundled font (or another file), ready to render at any size."""
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    f = pygame.freetype.Font(str(path or FONT_PATH), 14)
    f.antialiased = True
    f.pad = False
    return f


def has_glyphs(text: str, path: str | None = None) -> list[bool]:
    """For each character: does the font draw it?"""
    if not text:
        return []
    metrics = get_font(path).get_metrics(text, 14)
    return [m is not None for m in metrics]


def check_font(chars: Iterable[str], path: str | None = None) -> list[str]:
    """The characters among `chars` the font lacks and no substitute covers, sorted, each once."""
    wanted = sorted({c for c in "".join(chars)
                     if not c.isspace() and unicodedata.category(c) not in ("Cc", "Cf")})
    if not wanted:
        return []
    ok = has_glyphs("".join(wanted), path)
    return [c for c, good in zip(wanted, ok, strict=True)
            if not good and not (c in SUBSTITUTES and all(has_glyphs(SUBSTITUTES[c], path)))]


def substitutions_used(chars: Iterable[str], path: str | None = None) -> list[tuple[str, str]]:
    """(original, shown) for every substituted character that occurs in `chars`."""
    present = set("".join(chars))
    return [(a, b) for a, b in SUBSTITUTES.items()
            if a in present and not all(has_glyphs(a, path))]


def after_fork() -> None:
    """In a forked worker (atlas, video): open the font again. A FreeType face opened before the
    fork shares its file offset with the parent and the other workers, and glyphs loaded at the
    same time come back garbled ("Unable to load glyph")."""
    get_font.cache_clear()


@lru_cache(maxsize=4096)
def shown(text: str) -> str:
    """The text as drawn: characters the font lacks replaced by their substitutes."""
    if not any(c in SUBSTITUTES for c in text):
        return text
    return "".join(SUBSTITUTES.get(c, c) if not all(has_glyphs(c)) else c for c in text)


def report_missing(chars: Iterable[str], out=None) -> list[str]:
    """Print a clear line for missing characters (and substitutions); return the missing ones."""
    out = out or sys.stderr
    chars = list(chars)
    missing = check_font(chars)
    if missing:
        listed = " ".join(f"{c} (U+{ord(c):04X})" for c in missing)
        print(f"font: {len(missing)} character(s) not in {FONT_PATH.name}, drawn as boxes: "
              f"{listed}\n  regenerate with: python tools/make_font_subset.py", file=out)
    for a, b in substitutions_used(chars):
        print(f"font: {a} (U+{ord(a):04X}) has no glyph; shown as {b}", file=out)
    return missing


TEXT_CACHE_BYTES = 16 * 2**20  # the pixels of kept text: a frame's few hundred lines need ~3 MB


class TextCache:
    """Rendered text surfaces keyed by (text, px, colour): drawing a frame re-renders nothing.

    Bounded by the bytes of the pixels kept, least recently used out first: a playing window
    writes a new clock line every frame, and an hour of them must not pile up."""

    def __init__(self, max_bytes: int = TEXT_CACHE_BYTES):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._cache: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def __len__(self) -> int:
        return len(self._cache)

    def render(self, text: str, px: int, color: tuple[int, ...]) -> pygame.Surface:
        key = (text, px, color)
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        font = get_font()
        surf, _ = font.render(shown(text), color, size=px)
        # a box one line tall whatever the glyphs, so rows of text align
        line = pygame.Surface((surf.get_width(), font.get_sized_height(px)), pygame.SRCALPHA)
        asc = font.get_sized_ascender(px)
        rect = font.get_rect(shown(text), size=px)
        line.blit(surf, (0, asc - rect.y))
        self._cache[key] = line
        self.bytes += _size(line)
        while self.bytes > self.max_bytes and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self.bytes -= _size(old)
        return line


def _size(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()
