"""The drum of the third round's music, heard in the window (D): one hit synthesised at run time
(a low sine falling in pitch under a burst of noise, a quarter second; no audio files), played
when forward playback passes a beat.

Every mixer call is guarded: with no audio device the drum stays off and `why` gives the mixer's
own words; under SDL's dummy audio driver (tests, headless commands) it plays, into nothing, and
`why` says so. Nothing here raises.
"""
from __future__ import annotations

import contextlib
import os
import sys
from bisect import bisect_left
from collections.abc import Iterator, Sequence

import numpy as np

SAMPLE_RATE = 44100
HIT_SECONDS = 0.25
PEAK = 0.8  # of full scale
# cli sets SDL_AUDIODRIVER=dummy for every command (a headless one must open no device) and
# sets this to "1" when it did so, not the user: a window on a real display may take it back
DEFAULTED = "XIANGSHE_AUDIO_DEFAULTED"


def hit_samples(rate: int = SAMPLE_RATE, channels: int = 1, seconds: float = HIT_SECONDS,
                seed: int = 7) -> np.ndarray:
    """One drum hit as int16: shape (n,) for one channel, (n, channels) for more (the same
    sound in each). A 鼓 is low: ~110 Hz falling to ~55 Hz, the skin's slap as noise."""
    n = max(int(round(rate * seconds)), 1)
    t = np.arange(n) / float(rate)
    freq = 55.0 + 55.0 * np.exp(-t * 25.0)
    body = np.sin(2 * np.pi * np.cumsum(freq) / rate) * np.exp(-t * 14.0)
    noise = np.random.default_rng(seed).standard_normal(n) * np.exp(-t * 70.0) * 0.35
    x = body + noise
    fade = min(n, max(int(rate * 0.005), 1))  # no click at the end
    x[-fade:] *= np.linspace(1.0, 0.0, fade)
    x *= PEAK / max(float(np.abs(x).max()), 1e-9)
    out = np.round(x * 32767).astype(np.int16)
    if channels > 1:
        out = np.ascontiguousarray(np.repeat(out[:, None], channels, axis=1))
    return out


def beats_crossed(times: Sequence[float], t0: float, t1: float) -> list[int]:
    """The beats (indices into the sorted times) that forward play from t0 to t1 passes:
    t0 <= tb < t1, so frames that follow one another hear each beat once and play started on
    a beat hears it. None when t1 <= t0 (paused, or going back)."""
    if not t1 > t0:
        return []
    return list(range(bisect_left(times, t0), bisect_left(times, t1)))


def beat_times(timeline) -> list[float]:
    """When the drum beats in a compiled timeline (its "beat" events), sorted."""
    return sorted(e.t0 for e in getattr(timeline, "events", ()) if e.kind == "beat")


def take_back_audio(environ=os.environ) -> bool:
    """Before a window on a real display opens: drop the dummy audio driver if cli put it there
    (DEFAULTED), not the user; returns whether it did."""
    if environ.get("SDL_VIDEODRIVER") == "dummy":
        return False
    if environ.get(DEFAULTED) == "1" and environ.get("SDL_AUDIODRIVER") == "dummy":
        environ.pop("SDL_AUDIODRIVER")
        return True
    return False


def _samples_for(init, seconds: float = HIT_SECONDS) -> np.ndarray | None:
    """The hit in the mixer's own format ((rate, format, channels) of mixer.get_init()), or
    None for a format this does not write."""
    rate, fmt, channels = int(init[0]), int(init[1]), int(init[2])
    s = hit_samples(rate, channels, seconds)
    if fmt == -16:
        return s
    if fmt == 16:
        return (s.astype(np.int32) + 32768).astype(np.uint16)
    if fmt == 32:  # float
        return (s.astype(np.float32) / 32767.0)
    return None


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The C libraries' own complaints (ALSA's a dozen lines when there is no sound card) kept
    off the terminal while the mixer opens; what fails is said in the window's toast."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class Drum:
    """The window's drum: off until toggled; the mixer is opened only then, and only once."""

    def __init__(self, mixer=None):
        self._mixer = mixer  # pygame.mixer, or a stand-in in tests
        self.on = False
        self.sound = None
        self.failed = False  # the mixer would not open: said once per toggle, never retried
        self.why = ""  # why nothing is heard: the mixer's error, or the dummy driver
        self.played = 0

    def _open(self) -> bool:
        if self.sound is not None:
            return True
        if self.failed:
            return False
        try:
            mixer = self._mixer
            if mixer is None:
                import pygame
                mixer = self._mixer = pygame.mixer
            if not mixer.get_init():
                with _quiet_stderr():
                    mixer.init(SAMPLE_RATE, -16, 2, 512)
            init = mixer.get_init()
            samples = _samples_for(init) if init else None
            if samples is None:
                raise RuntimeError(f"the mixer's format {init!r} is not one the drum writes")
            self.sound = mixer.Sound(buffer=samples.tobytes())
            driver = getattr(mixer, "get_driver", None)
            if driver is not None and driver() == "dummy":
                self.why = "SDL_AUDIODRIVER=dummy: it plays, but nothing is heard"
            return True
        except Exception as e:  # pygame.error, no device, a driver's own complaint: no sound
            self.failed = True
            self.sound = None
            self.why = f"no sound: {e}" if str(e) else f"no sound: {type(e).__name__}"
            return False

    def toggle(self) -> str:
        """Sound on or off: "on", "off", or "none" (no audio device; stays off)."""
        if self.on:
            self.on = False
            return "off"
        if not self._open():
            return "none"
        self.on = True
        return "on"

    def strike(self) -> bool:
        """One hit, if the sound is on; whether it was played."""
        if not self.on or self.sound is None:
            return False
        try:
            self.sound.play()
        except Exception:  # the device went away: fall silent
            self.on = False
            return False
        self.played += 1
        return True
