"""The SVG back end: the composed layers as SVG text, vector, with the text as glyph outlines.

`svg_document(layers, size)` draws the same display list pgdraw draws, through the same cameras
and clip boxes, with the same placement rules (text boxes one line tall, anchored like pgdraw's),
so an SVG and the PNG of one moment agree to within anti-aliasing. Glyphs come from the bundled
font (fontTools reads its outlines once): each character used is one `<path>` in `<defs>` and
every occurrence a `<use>`, so the file renders the same in any SVG renderer without the font
installed (resvg and cairosvg ignore @font-face; outlines they cannot). The words are there as
text too: each outlined group carries them in `aria-label`, over an invisible `<text>` of the
same extent, so a browser finds (Ctrl+F) and selects them.
"""
from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from viz.draw.camera import Camera
from viz.draw.display import (
    Circle,
    Color,
    Layer,
    Line,
    Polygon,
    Primitive,
    Rect,
    Sprite,
    Text,
)

_ANCHOR = {"c": (0.5, 0.5), "n": (0.5, 0.0), "s": (0.5, 1.0), "e": (1.0, 0.5), "w": (0.0, 0.5),
           "ne": (1.0, 0.0), "nw": (0.0, 0.0), "se": (1.0, 1.0), "sw": (0.0, 1.0)}


class Glyphs:
    """Outlines, advances and ink bounds of the bundled font's glyphs, in font units."""

    def __init__(self, path=None, fallback=None) -> None:
        # the font pgdraw draws with (the rite's own, manifest font:, else the bundled one),
        # and its substitutes; looked up here, not at import, because viz.backends.fonts
        # imports pygame and importing this module should not
        from viz.backends.fonts import SUBSTITUTES, font_path

        self._substitutes = SUBSTITUTES
        try:
            from fontTools.pens.boundsPen import BoundsPen
            from fontTools.pens.recordingPen import RecordingPen
            from fontTools.pens.svgPathPen import SVGPathPen
            from fontTools.ttLib import TTFont
        except ImportError as e:  # fontTools is the one extra an SVG needs
            raise RuntimeError("SVG output needs fontTools: python -m pip install fonttools") from e
        # read from bytes in memory, not an open file: a process forked after this (the atlas'
        # workers) would share the file's offset with the others, and tables read at the same
        # time would come back garbled
        self._font = TTFont(io.BytesIO(Path(path or font_path()).read_bytes()), lazy=True)
        self._set = self._font.getGlyphSet()
        self._cmap = self._font.getBestCmap()
        # the rite's fallback (manifest fallback:): outlines of what the font lacks, scaled
        # to its em
        self._back = None
        if fallback is not None:
            bf = TTFont(io.BytesIO(Path(fallback).read_bytes()), lazy=True)
            self._back = (bf.getGlyphSet(), bf.getBestCmap(),
                          float(self._font["head"].unitsPerEm) / float(bf["head"].unitsPerEm))
        self._pens = (SVGPathPen, BoundsPen, RecordingPen)
        self.upem = float(self._font["head"].unitsPerEm)
        hhea = self._font["hhea"]
        self.ascent, self.descent = float(hhea.ascent), float(hhea.descent)
        self._memo: dict[str, tuple[str, str, float, tuple[float, float, float, float] | None]] = {}

    def shown(self, text: str) -> str:
        """The text as drawn: characters the font lacks replaced by their substitutes."""
        return "".join(self._substitutes.get(c, c) if not self._has(c) else c for c in text)

    def _has(self, c: str) -> bool:
        return ord(c) in self._cmap or (self._back is not None and ord(c) in self._back[1])

    def glyph(self, ch: str) -> tuple[str, str, float, tuple[float, float, float, float] | None]:
        """(glyph name, SVG path data, advance, ink bounds or None) for one character."""
        g = self._memo.get(ch)
        if g is None:
            gset, scale, prefix = self._set, 1.0, ""
            if ord(ch) not in self._cmap and self._back is not None and ord(ch) in self._back[1]:
                gset, cmap, scale = self._back
                name, prefix = cmap[ord(ch)], "fallback."
            else:
                name = self._cmap.get(ord(ch), ".notdef")
            gl = gset[name]
            pen_cls, bounds_cls, recording_cls = self._pens
            pen, bounds, rec = pen_cls(gset), bounds_cls(gset), recording_cls()
            gl.draw(rec)  # the charstring run once (it is slow Python), its drawing replayed
            if scale != 1.0:
                from fontTools.pens.transformPen import TransformPen
                rec.replay(TransformPen(pen, (scale, 0, 0, scale, 0, 0)))
                rec.replay(TransformPen(bounds, (scale, 0, 0, scale, 0, 0)))
            else:
                rec.replay(pen)
                rec.replay(bounds)
            g = (prefix + name, pen.getCommands(), float(gl.width) * scale, bounds.bounds)
            self._memo[ch] = g
        return g


def glyphs() -> Glyphs:
    """The outlines of the font drawn with (and of the rite's fallback), once per choice."""
    from viz.base import fontchoice
    return _glyphs(fontchoice.chosen())


@lru_cache(maxsize=2)
def _glyphs(chosen) -> Glyphs:
    return Glyphs(chosen[0], chosen[1])


def _rgb(c: Color) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _paint(attr: str, c: Color | None) -> str:
    if c is None:
        return f' {attr}="none"'
    s = f' {attr}="{_rgb(c)}"'
    if len(c) == 4 and c[3] < 255:
        s += f' {attr}-opacity="{c[3] / 255:.3f}"'
    return s


def _n(v: float) -> str:
    """A coordinate with two decimals and no trailing zeros (files stay small and stable)."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _pts(points, screen: bool, cam: Camera) -> list[tuple[float, float]]:
    if screen:
        return [(float(x), float(y)) for x, y in points]
    return cam.to_screen_pts(points)


def _pix(v: float) -> float:
    """A coordinate where pgdraw puts it: rounded to a whole pixel (clamped to ±30000 as
    pgdraw does), at that pixel's centre, which in SVG is half a unit in from its edge."""
    return round(min(max(v, -30000.0), 30000.0)) + 0.5


def _ptstr(pts) -> str:
    return " ".join(f"{_n(_pix(x))},{_n(_pix(y))}" for x, y in pts)


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.used: dict[str, str] = {}  # glyph name → path data

    def circle(self, c: Circle, cam: Camera) -> None:
        (x, y), = _pts([c.center], c.screen, cam)
        x, y = _pix(x), _pix(y)
        r = max(round(c.r if c.screen else max(c.r * cam.scale, c.min_px)), 1)
        if c.fill is not None:
            self.out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{r}"{_paint("fill", c.fill)}/>')
        if c.stroke is not None:
            w = 1 if c.width <= 1.2 else max(round(c.width), 1)
            # pygame draws a ring of width w inside the radius; SVG centres the stroke on it
            self.out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r - w / 2 + 0.5)}" '
                            f'fill="none"{_paint("stroke", c.stroke)} stroke-width="{w}"/>')

    def polygon(self, p: Polygon, cam: Camera) -> None:
        pts = _pts(p.points, p.screen, cam)
        if len(pts) < 3:
            return
        w = 1 if p.width <= 1.2 else max(round(p.width), 1)
        stroke = _paint("stroke", p.stroke) + (f' stroke-width="{w}" stroke-linejoin="round"'
                                               if p.stroke is not None else "")
        self.out.append(f'<polygon points="{_ptstr(pts)}"{_paint("fill", p.fill)}{stroke}/>')

    def line(self, ln: Line, cam: Camera) -> None:
        pts = _pts(ln.points, ln.screen, cam)
        if len(pts) < 2:
            return
        tag = "polygon" if ln.closed and len(pts) > 2 else "polyline"
        w = max(round(ln.width), 1)
        dash = f' stroke-dasharray="{_n(ln.dash[0])} {_n(ln.dash[1])}"' if ln.dash else ""
        join = ' stroke-linejoin="round" stroke-linecap="round"' if w >= 3 else ""
        self.out.append(f'<{tag} points="{_ptstr(pts)}" fill="none"{_paint("stroke", ln.color)} '
                        f'stroke-width="{w}"{dash}{join}/>')

    def text(self, t: Text, cam: Camera) -> None:
        if not t.text:
            return
        (x, y), = _pts([t.pos], t.screen, cam)
        px = text_px(t, cam)
        line = _line_of(t.text, px)
        if line is None:
            return
        w, h, asc, k, uses, defs = line
        for name, path in defs:
            self.used.setdefault(name, path)
        pad = 2 if t.bg is not None or t.border is not None else 0
        ax, ay = _ANCHOR.get(t.anchor, (0.5, 0.5))
        left = int(x - ax * (w + 2 * pad) + pad)
        top = int(y - ay * (h + 2 * pad) + pad)
        if pad:
            box = (f'x="{left - pad}" y="{top - pad}" width="{w + 2 * pad}" '
                   f'height="{h + 2 * pad}" rx="3"')
            if t.bg is not None:
                self.out.append(f'<rect {box}{_paint("fill", t.bg)}/>')
            if t.border is not None:
                self.out.append(f'<rect {box} fill="none"{_paint("stroke", t.border)} '
                                f'stroke-width="1"/>')
        base = top + asc
        # the glyphs in font units, each at its pen position, the line moved and scaled once
        at = f' transform="translate({left},{base}) scale({k:.5g},{-k:.5g})"'
        if t.halo is not None:  # the rim first, the glyphs over it (pgdraw: 8 offset copies)
            self.out.append(f'<g aria-hidden="true"{at}{_paint("fill", t.halo)}'
                            f'{_paint("stroke", t.halo)} stroke-width="{2 / k:.4g}" '
                            f'stroke-linejoin="round">{uses}</g>')
        self.out.append(f'<g aria-label={quoteattr(t.text)}{at}{_paint("fill", t.color)}>'
                        f"{uses}</g>")
        self.out.append(f'<text x="{left}" y="{base}" font-size="{px}" textLength="{w}" '
                        f'lengthAdjust="spacingAndGlyphs" fill-opacity="0" aria-hidden="true">'
                        f'{escape(t.text)}</text>')

    def rect(self, r: Rect) -> None:
        x, y, w, h = (round(v) for v in r.box)
        if w <= 0 or h <= 0:
            return
        rx = f' rx="{r.radius}"' if r.radius else ""
        if r.fill is not None:
            self.out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}"{rx}'
                            f'{_paint("fill", r.fill)}/>')
        if r.stroke is not None:
            sw = max(round(r.width), 1)
            # pygame's box outline lies inside the box
            self.out.append(f'<rect x="{_n(x + sw / 2)}" y="{_n(y + sw / 2)}" width="{w - sw}" '
                            f'height="{h - sw}"{rx} fill="none"{_paint("stroke", r.stroke)} '
                            f'stroke-width="{sw}"/>')

    def draw(self, prims: Sequence[Primitive], cam: Camera) -> None:
        for p in prims:
            if isinstance(p, Circle):
                self.circle(p, cam)
            elif isinstance(p, Polygon):
                self.polygon(p, cam)
            elif isinstance(p, Line):
                self.line(p, cam)
            elif isinstance(p, Text):
                self.text(p, cam)
            elif isinstance(p, Rect):
                self.rect(p)
            elif isinstance(p, Sprite):  # vector: its parts, each where it stands
                self.draw(p.parts, cam)
            else:
                raise TypeError(f"not a display primitive: {p!r}")


@lru_cache(maxsize=8192)
def _line_of(text: str, px: int) -> tuple[int, int, int, float, str, tuple] | None:
    """A line of text at px: its ink's width, the line's height and ascent (px), the scale
    from font units, its glyphs as <use> elements at their pen positions (font units, from
    the ink's left edge), and the (name, path) of each glyph it uses; None when it has no ink.
    Plates write the same names and numbers many times: each is laid out once."""
    g = glyphs()
    k = px / g.upem
    # pen positions and the ink's horizontal extent, as freetype measures the line pgdraw
    # draws (its surface starts at the ink's left edge)
    pen, lo, hi, runs = 0.0, None, None, []
    for ch in g.shown(text):
        name, path, adv, b = g.glyph(ch)
        if b is not None:
            lo = pen + b[0] if lo is None else min(lo, pen + b[0])
            hi = pen + b[2] if hi is None else max(hi, pen + b[2])
            runs.append((name, path, pen))
        pen += adv
    if lo is None:
        return None
    uses = "".join(f'<use xlink:href="#{_gid(name)}" x="{_n(p - lo)}"/>' for name, _, p in runs)
    return (round((hi - lo) * k), round((g.ascent - g.descent) * k), round(g.ascent * k), k,
            uses, tuple(dict.fromkeys((name, path) for name, path, _ in runs)))


def _gid(name: str) -> str:
    # glyph names of a CID font look like "cid12345"; any other character is made safe
    return "g-" + "".join(c if c.isalnum() else "_" for c in name)


def text_px(t: Text, cam: Camera) -> int:
    """The pixel size a Text is drawn at (pgdraw.text_px, without pygame)."""
    if t.unit == "chi" and not t.screen:
        return round(min(max(t.size * cam.scale, t.min_px), t.max_px))
    return round(t.size)


def svg_document(layers: Sequence[Layer], size: tuple[int, int], title: str = "") -> str:
    """The layers, back to front, as one SVG document of `size` px."""
    w, h = int(size[0]), int(size[1])
    body: list[str] = []
    clips: list[str] = []
    wr = _Writer()
    for n, layer in zip(itertools.count(), layers):
        wr.out = []
        wr.draw(layer.prims, layer.camera)
        if not wr.out:
            continue
        if layer.clip is None:
            body.append(f'<g id={quoteattr(layer.name)}>' + "".join(wr.out) + "</g>")
        else:
            x, y, cw, ch = layer.clip
            clips.append(f'<clipPath id="clip{n}"><rect x="{x}" y="{y}" width="{cw}" '
                         f'height="{ch}"/></clipPath>')
            body.append(f'<g id={quoteattr(layer.name)} clip-path="url(#clip{n})">'
                        + "".join(wr.out) + "</g>")
    defs = clips + [f'<path id="{_gid(name)}" d="{path}"/>' for name, path in sorted(wr.used.items())]
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{w}" height="{h}" viewBox="0 0 {w} {h}">')
    ttl = f"<title>{escape(title)}</title>" if title else ""
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head + ttl, _print_style(w, h),
                      "<defs>" + "".join(defs) + "</defs>", *body, "</svg>", ""])


def _print_style(w: int, h: int) -> str:
    """How a browser prints the file: on one A4 page turned the way the drawing is, filling it
    (a drawing 1600 px wide would otherwise run off a portrait page). Renderers that draw
    the file as an image (resvg, cairosvg) do not print, and draw it at its size in px."""
    pw, ph = (297.0, 210.0) if w >= h else (210.0, 297.0)
    k = min(pw / w, ph / h)
    return (f"<style>@page {{ size: A4 {'landscape' if w >= h else 'portrait'}; margin: 0; }} "
            f"@media print {{ svg:root {{ width: {_n(w * k)}mm; height: {_n(h * k)}mm; }} }}"
            "</style>")
