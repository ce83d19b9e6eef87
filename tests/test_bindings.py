"""The window's keys (viz.app.bindings.MAIN) and its help (viz.draw.hud.KEYS, shown by H) in step:
every bound key has a row in the help, every key the help names is bound, every action runs."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from test_draw import FakeLayout, fake_corpus, fake_timeline

from viz.app.bindings import MAIN, SHIFT, binding, key_name
from viz.app.window import App
from viz.draw import hud

POINTER = ("wheel", "drag", "click")  # rows of the help about the mouse, not keys


def help_keys(rows=hud.KEYS) -> set[str]:
    """The keys the help names: each word of a row's first column ("PgUp PgDn  [ ]")."""
    return {k for keys, _ in rows if not any(w in keys for w in POINTER) for k in keys.split()}


def unhelped(table, rows=hud.KEYS) -> list[str]:
    """Bound keys the help does not name."""
    shown = help_keys(rows)
    return sorted({key_name(k, mod) for k, mod in table} - shown)


def unbound(table, rows=hud.KEYS) -> list[str]:
    """Keys the help names that nothing is bound to."""
    return sorted(help_keys(rows) - {key_name(k, mod) for k, mod in table})


def test_every_binding_has_a_row_in_the_help():
    assert unhelped(MAIN) == []


def test_every_key_the_help_names_is_bound():
    assert unbound(MAIN) == []


def test_a_binding_the_help_does_not_name_is_caught():
    assert unhelped({**MAIN, (pygame.K_x, 0): ("fit", ())}) == ["X"]
    assert unhelped({**MAIN, (pygame.K_f, SHIFT): ("fit", ())}) == ["Shift+F"]
    assert unhelped({**MAIN, (pygame.K_DELETE, 0): ("fit", ())}) == ["Delete"]


def test_a_help_row_with_no_binding_is_caught():
    assert unbound(MAIN, [*hud.KEYS, ("K", "…")]) == ["K"]
    less = {b: a for b, a in MAIN.items() if b != (pygame.K_r, SHIFT)}
    assert unbound(less) == ["Shift+R"]


def test_the_help_names_the_keys_as_it_writes_them():
    assert key_name(pygame.K_r) == "R" and key_name(pygame.K_r, pygame.KMOD_LSHIFT) == "Shift+R"
    assert key_name(pygame.K_EQUALS) == key_name(pygame.K_KP_PLUS) == "+"
    assert {"Esc", "Space", "←", "→", "PgUp", "PgDn", "[", "]", "/", "Tab"} <= help_keys()


def test_a_modifier_not_bound_is_ignored():
    assert binding(pygame.K_r, pygame.KMOD_RSHIFT) == ("readings.cycle_compare", ())
    assert binding(pygame.K_r, pygame.KMOD_CTRL) == ("readings.cycle_reading", ())
    assert binding(pygame.K_SPACE, pygame.KMOD_SHIFT) == ("toggle_play", ())
    assert binding(pygame.K_x, 0) is None


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def test_every_action_names_something_the_window_can_do(tmp_path):
    for (k, mod), (action, _) in MAIN.items():
        app = App(FakeLayout(), fake_timeline(), fake_corpus(), size=(960, 600), shots_dir=tmp_path)
        app.seek(3.0)
        assert callable(app.bindings.action(action)), action
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
