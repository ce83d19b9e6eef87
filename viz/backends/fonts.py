"""The bundled CJK font: loading, checking coverage, substitutes for glyphs no font has, a text cache."""
from __future__ import annotations

import sys
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

import pygame
import pygame.freetype

from viz import ASSETS
from viz.base import fontchoice

FONT_PATH = ASSETS / "fonts" / "NotoSerifTC-Xiangshe.otf"


def font_path() -> Path:
    """The font drawn with: the rite's own (its manifest's font:), else the bundled one."""
    return fontchoice.chosen()[0] or FONT_PATH


def fallback_path() -> Path | None:
    """The rite's fallback font (manifest fallback:), consulted for what font_path() lacks."""
    return fontchoice.chosen()[1]

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


def get_font(path: str | None = None) -> pygame.freetype.Font:
    """The font drawn with (the rite's, else the bundled one), or another file, ready to
    render at any size."""
    return _open(str(path or font_path()))


@lru_cache(maxsize=4)
def _open(path: str) -> pygame.freetype.Font:
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    try:
        f = pygame.freetype.Font(path, 14)
    except (OSError, RuntimeError) as e:  # a rite's font: that is no font
        from viz.base.errors import InputError, Loc, Problem
        raise InputError(Problem(Loc(path, 1, 1), f"font: not a font file FreeType reads "
                                                  f"({e})")) from None
    f.antialiased = True
    f.pad = False
    return f


def _has(text: str, path: str) -> list[bool]:
    metrics = _open(path).get_metrics(text, 14)
    return [m is not None for m in metrics]


def has_glyphs(text: str, path: str | None = None) -> list[bool]:
    """For each character: does the font draw it? Without path: the font drawn with, or the
    rite's fallback for what it lacks."""
    if not text:
        return []
    got = _has(text, str(path or font_path()))
    back = fallback_path() if path is None else None
    if back is not None and not all(got):
        got = [g or b for g, b in zip(got, _has(text, str(back)), strict=True)]
    return got


def runs(text: str) -> list[tuple[str, pygame.freetype.Font]]:
    """The text cut where the font drawn with lacks characters the rite's fallback has: each
    stretch with the font that draws it (one stretch, the font, without a fallback)."""
    back = fallback_path()
    if back is None or not text:
        return [(text, get_font())]
    main = _has(text, str(font_path()))
    out: list[tuple[str, pygame.freetype.Font]] = []
    for c, ok in zip(text, main, strict=True):
        f = get_font() if ok or not _has(c, str(back))[0] else _open(str(back))
        if out and out[-1][1] is f:
            out[-1] = (out[-1][0] + c, f)
        else:
            out.append((c, f))
    return out


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
    _open.cache_clear()


def shown(text: str) -> str:
    """The text as drawn: characters the font (and the rite's fallback) lacks replaced by
    their substitutes."""
    if not any(c in SUBSTITUTES for c in text):
        return text
    return _shown(text, fontchoice.chosen())


@lru_cache(maxsize=4096)
def _shown(text: str, _fonts) -> str:
    return "".join(SUBSTITUTES.get(c, c) if not all(has_glyphs(c)) else c for c in text)


def report_missing(chars: Iterable[str], out=None) -> list[str]:
    """Print a clear line for missing characters (and substitutions); return the missing ones."""
    out = out or sys.stderr
    chars = list(chars)
    missing = check_font(chars)
    if missing:
        listed = " ".join(f"{c} (U+{ord(c):04X})" for c in missing)
        print(f"font: {len(missing)} character(s) not in {font_path().name}, drawn as boxes: "
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
        key = (text, px, color, fontchoice.chosen())
        surf = self._cache.get(key)
        if surf is not None:
            self._cache.move_to_end(key)
            return surf
        font = get_font()
        parts = runs(shown(text))
        if len(parts) == 1:
            surf, _ = font.render(shown(text), color, size=px)
            # a box one line tall whatever the glyphs, so rows of text align
            line = pygame.Surface((surf.get_width(), font.get_sized_height(px)), pygame.SRCALPHA)
            asc = font.get_sized_ascender(px)
            rect = font.get_rect(shown(text), size=px)
            line.blit(surf, (0, asc - rect.y))
        else:  # the rite's fallback draws what its font lacks: each stretch with its own
            asc = font.get_sized_ascender(px)
            pieces, x = [], 0.0
            for s, f in parts:
                surf, _ = f.render(s, color, size=px)
                rect = f.get_rect(s, size=px)
                pieces.append((surf, x + rect.x, asc - rect.y))
                x += sum(m[4] for m in f.get_metrics(s, px) if m is not None)
            line = pygame.Surface((max(int(x + 0.999), 1), font.get_sized_height(px)),
                                  pygame.SRCALPHA)
            for surf, px_x, px_y in pieces:
                line.blit(surf, (round(px_x), px_y))
        self._cache[key] = line
        self.bytes += _size(line)
        while self.bytes > self.max_bytes and len(self._cache) > 1:
            _, old = self._cache.popitem(last=False)
            self.bytes -= _size(old)
        return line


def _size(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()
