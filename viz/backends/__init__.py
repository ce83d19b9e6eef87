"""The back ends that draw display layers (viz.draw): imports viz.draw and below.

The modules, one a line:
    pgdraw    pygame: layers onto a Surface (the window, the PNG), drawing again only what changed
    pgprims   pygame: each primitive's box and drawing calls, texts and sprites rendered once and kept
    svgdraw   SVG: the same layers as vector text, the words as glyph outlines
    fonts     the bundled CJK font: loading, coverage, substitutes, a text cache
"""
