"""Headless shot: one composed frame (plan, text panel, timeline bar) written as a PNG."""
from __future__ import annotations

import io
from pathlib import Path

import pygame

from viz.backends import pgdraw
from viz.base.fileio import atomic_write_bytes
from viz.draw.compose import Model, View, compose
from viz.draw.hud import HudState


def render_surface(layout, timeline, corpus, t: float, size: tuple[int, int] = (1280, 800),
                   closing: bool = False,
                   compiling: tuple[int, int] | None = None, ui: float = 1.0) -> pygame.Surface:
    """The frame at t (closing: as the step ending at t left it, e.g. `--after TEXT`) on an
    offscreen Surface: the layers the window draws for the same size, t and default view.
    compiling: (stages compiled, in all) when the timeline is the rite's first stages only
    (Rite.prefix), its bar drawn as the window draws it while the rest compiles."""
    # neither pygame.init() nor a display: surfaces and the font are all a shot needs
    model = pgdraw.with_font(Model(layout, timeline, corpus))
    size = (int(size[0]), int(size[1]))
    surface = pygame.Surface(size)
    view = View(ui=ui) if compiling is None else View(ui=ui, hud=HudState(compiling=compiling))
    pgdraw.draw_layers(surface, compose(model, view, size, t, closing).layers)
    return surface


def render_png(layout, timeline, corpus, t: float, size: tuple[int, int] = (1280, 800),
               path: str | Path = "shot.png", overwrite: bool = False,
               closing: bool = False, compiling: tuple[int, int] | None = None,
               ui: float = 1.0) -> Path:
    """Write the frame at t to `path` atomically; refuses to replace a file unless overwrite.
    ui: the user's scale (the window's Ctrl + / −, play's and shot's --scale)."""
    buf = io.BytesIO()
    pygame.image.save(render_surface(layout, timeline, corpus, t, size, closing, compiling, ui),
                      buf,
                      "shot.png")
    return atomic_write_bytes(path, buf.getvalue(), overwrite=overwrite)
