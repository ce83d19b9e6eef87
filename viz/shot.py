"""Headless shot: one frame of the window (plan, text panel, timeline bar) written as a PNG."""
from __future__ import annotations

import io
import os
from pathlib import Path

from viz.fileio import atomic_write_bytes


def render_surface(layout, timeline, corpus, t: float, size: tuple[int, int] = (1280, 800)):
    """Draw the frame at time t exactly as the window would, on an offscreen Surface."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from viz.app import App

    # no pygame.init(): a shot needs neither a display nor audio, only surfaces and the font
    app = App(layout, timeline, corpus, size=size)
    app.state.substitutions = tuple(_subs(app))
    app.seek(t)
    surface = pygame.Surface(app.size)
    app.draw(surface)
    return surface


def _subs(app):
    from viz import fonts
    return fonts.substitutions_used(app.chars_drawn())


def render_png(layout, timeline, corpus, t: float, size: tuple[int, int] = (1280, 800),
               path: str | Path = "shot.png", overwrite: bool = False) -> Path:
    """Write the frame at t to `path` atomically; refuses to replace a file unless overwrite."""
    import pygame

    surface = render_surface(layout, timeline, corpus, t, size)
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "shot.png")
    return atomic_write_bytes(path, buf.getvalue(), overwrite=overwrite)
