"""Is there a display to open a window on? `play` asks first, before it loads the rite or opens
a font, so a machine with none hears it in one line at once, instead of SDL's complaints
(XDG_RUNTIME_DIR …) and a window-less loop (issue 27).

- SDL_VIDEODRIVER set: the user (or CI, with `dummy`) chose the driver; nothing is asked.
- On X11/Wayland systems, neither DISPLAY nor WAYLAND_DISPLAY set: no display, said without
  opening SDL at all.
- Otherwise SDL is opened (its own messages on stderr held back): when it falls back to a
  driver that shows nothing (offscreen, dummy, e.g. DISPLAY names no running server), no
  display either.
"""
from __future__ import annotations

import os
import sys
import tempfile

# drivers that draw into memory only: SDL falls back to them when no real one opens
SHOWS_NOTHING = {"offscreen", "dummy", "evdev", "kmsdrm"}
ADVICE = ("render headless instead with `python main.py shot -o FRAME.png` or `python main.py "
          "video -o RITE.mp4`, or run under a virtual display: xvfb-run -a python main.py play")


class NoDisplay(Exception):
    """One line: what was tried, and what to do instead."""


def _uses_x11_or_wayland() -> bool:
    return sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd", "dragonfly", "sunos"))


def check(environ=None, init=None) -> str | None:
    """None when a window can open; else the line that says why not. environ: os.environ;
    init: opens SDL's video and returns its driver's name (tests pass their own)."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER"):
        return None
    if _uses_x11_or_wayland() and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return ("play: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset, "
                "SDL_VIDEODRIVER too); " + ADVICE)
    tried = ", ".join(f"{k}={env[k]}" for k in ("DISPLAY", "WAYLAND_DISPLAY") if env.get(k))
    driver, sdl_said = (init or _open_video)()
    if driver is None or driver in SHOWS_NOTHING:
        why = (f"SDL found no display there and fell back to its {driver} driver, which shows "
               "nothing" if driver else f"SDL could not open video ({sdl_said})")
        return f"play: cannot open a window on {tried or 'this display'}: {why}; {ADVICE}"
    return None


def _open_video() -> tuple[str | None, str]:
    """Open SDL's video with its stderr (fd 2) held in a file (the drivers it tried complain
    there, e.g. Wayland's XDG_RUNTIME_DIR): (driver or None, SDL's error or last line)."""
    import pygame

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            try:
                pygame.display.init()
                driver = pygame.display.get_driver()
            except pygame.error as e:
                driver, err = None, str(e)
            else:
                err = ""
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        held.seek(0)
        lines = [ln.strip() for ln in held.read().decode("utf-8", "replace").splitlines()
                 if ln.strip()]
    if driver in SHOWS_NOTHING:
        pygame.display.quit()
    said = err or (lines[-1] if lines else "")
    return driver, said.removeprefix("error: ")


def refuse_without_display() -> int | None:
    """For `play`: print the line and return 2 when no window can open, else None."""
    line = check()
    if line is None:
        return None
    print(line, file=sys.stderr)
    return 2
