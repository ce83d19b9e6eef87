"""`play` with no display says so in one line and stops (issue 27): no SDL complaints, no font
notice, no window-less loop. Under SDL's dummy driver (CI) it still runs."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from viz.app import nodisplay
from viz.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
HANG = 60  # seconds: a guard against the old endless loop, not a measure of speed


def _play(**env_set) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(env_set)
    return subprocess.run([sys.executable, "main.py", "play", "--paused"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=HANG)


def _one_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "font" not in lines[0] and "XDG_RUNTIME_DIR" not in lines[0]
    assert "shot" in lines[0] and "video" in lines[0] and "xvfb-run" in lines[0]
    assert done.stdout == ""
    return lines[0]


@pytest.mark.skipif(not nodisplay._uses_x11_or_wayland(), reason="DISPLAY is X11's")
def test_no_display_at_all_is_one_line_and_status_2():
    line = _one_line(_play())
    assert "DISPLAY and WAYLAND_DISPLAY are unset" in line


@pytest.mark.skipif(not nodisplay._uses_x11_or_wayland(), reason="DISPLAY is X11's")
def test_a_display_no_server_answers_is_one_line_naming_it():
    line = _one_line(_play(DISPLAY=":987"))
    assert "DISPLAY=:987" in line and "fell back" in line


def test_the_check_asks_nothing_when_a_driver_was_chosen():
    def init():
        raise AssertionError("SDL opened although the user chose its driver")
    assert nodisplay.check({"SDL_VIDEODRIVER": "dummy"}, init) is None


def test_a_real_driver_is_a_display_and_a_fallback_is_not():
    env = {"DISPLAY": ":0"}
    assert nodisplay.check(env, lambda: ("x11", "")) is None
    assert "offscreen" in nodisplay.check(env, lambda: ("offscreen", ""))
    assert "could not open video (no x)" in nodisplay.check(env, lambda: (None, "no x"))


def test_play_still_runs_under_the_dummy_driver(monkeypatch):
    import viz.app.window

    assert os.environ.get("SDL_VIDEODRIVER") == "dummy"  # conftest's
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    got = []
    monkeypatch.setattr(viz.app.window, "run", lambda *a, **kw: got.append(kw) or 0)
    assert main(["play", "--paused", "--stage", "1"]) == 0 and got
