"""What a teacher uses in front of a class (a part of viz.app.window.App, handed the App as a
Textual screen reaches its app): F11 fullscreen, W "skip the waits", P the presenter's step.

- F11 switches between a fullscreen window at the display's size and the resizable window it
  was; under SDL's dummy driver (tests) it does the same to the dummy display, and where the
  display refuses it says why in the toast.
- W: playback jumps over the stretches in which nobody moves (viz.query.waits, worked out once
  per timeline), keeping half a second before each move; the panel's clock row says 略候.
- P: play from here to the end of this step (from the end of one, the next), then pause at
  its end, as that step leaves everyone, so a teacher can talk between clauses.
"""
from __future__ import annotations

import time

import numpy as np
import pygame

from viz.query import waits

FULLSCREEN_ON = "全螢幕 fullscreen (F11 退出)"
FULLSCREEN_OFF = "視窗 windowed"
NO_FULLSCREEN = "不能全螢幕 no fullscreen: {}"
SKIP_ON = "略候 skip the waits: on (nobody moves in {seconds:.0f} s of the rite)"
SKIP_OFF = "略候 off: every moment is played"
PRESENT = "講 to the end of step {step}"
PRESENT_END = "講 at the end: nothing more to play"
# F11 held: the switch drops the keyboard's focus, so the key's own repeat comes back as fresh
# presses (KEYUP, KEYDOWN …); a press this soon after a switch is that repeat, not a new one
FULLSCREEN_SETTLE = 0.8  # s
TEXTS = (FULLSCREEN_ON, FULLSCREEN_OFF, NO_FULLSCREEN, SKIP_ON, SKIP_OFF, PRESENT, PRESENT_END)


def window_mode(fullscreen: bool, windowed: tuple[int, int]) -> pygame.Surface:
    """Fullscreen at the display's size, or a resizable window of the size it had before;
    pygame.error when the display will not (set_mode, not toggle_fullscreen: SDL's dummy
    driver, like some window managers, does not support the toggle)."""
    if fullscreen:
        return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    return pygame.display.set_mode(windowed, pygame.RESIZABLE)


class Classroom:
    """Fullscreen, skipping the waits, and the presenter's step, for one App."""

    def __init__(self, app):
        self.app = app
        self.fullscreen = False
        self.windowed: tuple[int, int] = app.size  # the window's size to go back to
        self._waits: tuple = (None, np.zeros((0, 2)))  # (timeline, its waits)
        self.stop_step: int | None = None  # the step P plays to its end
        self.clock = time.monotonic  # (tests set their own)
        self._switched = -float("inf")  # when F11 last switched

    # ---------------------------------------------------------------- F11

    def toggle_fullscreen(self) -> bool:
        """F11: fullscreen or back; the new surface's size becomes the App's (whether it
        worked is said in the toast)."""
        app = self.app
        if self.clock() - self._switched < FULLSCREEN_SETTLE:
            return False  # F11 held: one switch a press, however long
        if not pygame.display.get_init() or pygame.display.get_surface() is None:
            app.toast(NO_FULLSCREEN.format("no window"))
            return False
        want = not self.fullscreen
        if want:
            self.windowed = app.size
        try:
            surface = window_mode(want, self.windowed)
        except pygame.error as e:
            app.toast(NO_FULLSCREEN.format(e))
            return False
        self.fullscreen = want
        self._switched = self.clock()
        app.resize(surface.get_size())
        app.expose()
        app.toast(FULLSCREEN_ON if want else FULLSCREEN_OFF)
        return True

    # ---------------------------------------------------------------- W

    def waits(self) -> np.ndarray:
        """The rite's waits, (k, 2) [t0, t1), worked out once per timeline shown."""
        tl = self.app.timeline
        if self._waits[0] is not tl:
            self._waits = (tl, waits.waits(tl))
        return self._waits[1]

    def toggle_skip(self) -> bool:
        """W: skip the waits on or off; returns the new state."""
        app = self.app
        on = not app.state.skip_waits
        app._set(skip_waits=on)
        app.toast(SKIP_ON.format(seconds=waits.waiting(self.waits())) if on else SKIP_OFF)
        if on:
            self.skip()
        return on

    def skip(self) -> None:
        """If t is in a wait, go to its end (not past a presenter's stop)."""
        app = self.app
        t = waits.skip(self.waits(), app.t)
        if t > app.t:
            stop = app.state.stop_at
            app.seek(min(t, stop) if stop is not None else t)

    # ---------------------------------------------------------------- P

    def present_step(self) -> bool:
        """P: play to the end of this step (the next one when t is where a step ends, as a
        presenter's step leaves it), then pause there."""
        app = self.app
        tl = app.timeline
        if not tl.steps:
            return False
        i = tl.step_at(app.t, app.closing)
        s = tl.steps[i]
        if app.closing or app.t >= s.t1 - 1e-6:
            if i + 1 >= len(tl.steps):
                app.toast(PRESENT_END)
                return False
            i += 1
            s = tl.steps[i]
            app.seek(max(app.t, s.t0))
        app._set(playing=True, stop_at=float(s.t1))
        self.stop_step = i
        app.toast(PRESENT.format(step=i + 1))
        return True

    def stop(self, before: float) -> bool:
        """Pause at the presenter's stop when playback from `before` reached it; whether it
        did. Playback that left the step (a key, a click on the bar) forgets the stop."""
        app = self.app
        stop = app.state.stop_at
        if stop is None:
            return False
        if self.stop_step is None or app.timeline.step_at(before) != self.stop_step or \
                before > stop:
            self.forget()
            return False
        if app.t < stop:
            return False
        app.seek(stop, closing=True)
        app._set(playing=False)
        self.forget()
        return True

    def forget(self) -> None:
        self.stop_step = None
        if self.app.state.stop_at is not None:
            self.app._set(stop_at=None)
