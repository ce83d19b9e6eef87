"""The stage list (L) and the bar's stage names, with the rite's 37 stages: type-ahead, click,
scroll, Esc; names on the bar that never overlap at any width; the window's first size."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_draw import FakeLayout, fake_corpus, fake_timeline

import viz.app.modes
import viz.app.window
from viz.app.window import App, choose_size, desktop_size
from viz.draw import hud
from viz.draw.compose import compose
from viz.draw.display import Rect, Text
from viz.model.timeline import StageSpan, Timeline

NAMES = ("戒賔", "設席陳器", "張侯", "速賔", "迎賔", "獻賔", "賔酢主人", "酬賔", "獻衆賔", "一人舉觶",
         "獻大夫", "大夫酢", "樂賔", "立司正", "司正舉觶", "請射", "誘射", "初射", "取矢", "再請射",
         "再射釋獲", "賔主大夫衆賔射", "取矢視算", "飲不勝者", "獻獲者及釋獲者", "三請射", "三射用樂",
         "取矢視算", "飲不勝者", "三射畢", "旅酬", "二人舉觶", "徹俎", "燕", "賓出", "拜賜", "息司正")
SIZE = (960, 600)
DUR = 37.0  # one second a stage


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def many_stages() -> Timeline:
    """The fake rite's people over 37 one-second stages named as the rite's."""
    tl = fake_timeline(DUR)
    stages = [StageSpan(i, n, n, float(i), float(i + 1), 0, 0) for i, n in enumerate(NAMES)]
    return Timeline(tl.actors, tl.props, stages, tl.steps, tl.channels, tl.events, tl.duration)


@pytest.fixture
def app(tmp_path):
    return App(FakeLayout(), many_stages(), fake_corpus(), size=SIZE, shots_dir=tmp_path)


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def press(app, k, mod=0):
    """A key pressed and let go (a KEYDOWN alone, then another, is the key held: a repeat)."""
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def typed(app, text):
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text=text))


def click(app, pos):
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def row_pos(app, i):
    """The middle of stage i's row in the list as scrolled now."""
    bx, by, bw, _ = hud.stage_list_box(app.size, len(NAMES))
    top = hud.list_top(app.state.stage_top, app._list_rows(), len(NAMES))
    return (bx + bw / 2, by + hud.LIST_HEAD_H + (i - top + 0.5) * hud.LIST_ROW_H)


def list_texts(app) -> list[str]:
    comp = compose(app.model, app.view(), app.size, app.t, app.closing)
    hud_layer = next(la for la in comp.layers if la.name == "hud")
    return [p.text for p in hud_layer.prims if isinstance(p, Text)]


# ---------------------------------------------------------------- type-ahead

def test_a_number_finds_that_stage_first():
    assert hud.stage_matches(NAMES, "3")[0] == 2
    assert set(hud.stage_matches(NAMES, "3")) == {2} | set(range(29, 37))
    assert hud.stage_matches(NAMES, "37") == [36]
    assert hud.stage_matches(NAMES, "３") [0] == 2  # full-width, as a Chinese IME types it
    assert hud.stage_matches(NAMES, "0") == [] and hud.stage_matches(NAMES, "99") == []


def test_a_name_finds_starts_first_then_insides_variants_equal():
    assert hud.stage_matches(NAMES, "取矢") == [18, 22, 27]
    assert hud.stage_matches(NAMES, "視算") == [22, 27]
    assert hud.stage_matches(NAMES, "射")[:3] == [15, 16, 17]  # none starts with it
    found = hud.stage_matches(NAMES, "賓")  # 賔 in the names
    assert found[:3] == [6, 21, 34] and 0 in found and 1 not in found
    assert hud.stage_matches(NAMES, "") == [] and hud.stage_matches(NAMES, "x") == []


def test_l_opens_the_list_at_the_current_stage_and_typing_picks(app):
    app.seek(12.5)
    press(app, pygame.K_l)
    typed(app, "l")  # the key that opened it is not typed
    assert app.state.stages == "" and app.state.stage_pick == 12
    typed(app, "取")
    typed(app, "矢")
    assert app.state.stages == "取矢" and app.state.stage_pick == 18
    press(app, pygame.K_DOWN)
    assert app.state.stage_pick == 22  # the next stage it finds, not the next row
    press(app, pygame.K_DOWN)
    press(app, pygame.K_DOWN)
    assert app.state.stage_pick == 27  # the last one found stays
    press(app, pygame.K_UP)
    assert app.state.stage_pick == 22
    assert app.t == 12.5  # nothing moves until Enter
    press(app, pygame.K_RETURN)
    assert app.state.stages is None and app.t == 22.0
    assert app.timeline.stage_at(app.t) == 22


def test_number_then_enter_jumps_and_backspace_edits(app):
    press(app, pygame.K_TAB)
    for c in "35":
        typed(app, c)
    press(app, pygame.K_BACKSPACE)
    assert app.state.stages == "3" and app.state.stage_pick == 2
    typed(app, "7")
    press(app, pygame.K_KP_ENTER)
    assert app.t == 36.0 and app.state.stages is None


def test_esc_closes_without_moving_and_a_second_esc_quits(app):
    app.seek(5.5)
    press(app, pygame.K_l)
    typed(app, "燕")
    press(app, pygame.K_ESCAPE)
    assert app.state.stages is None and app.t == 5.5 and app.running
    press(app, pygame.K_ESCAPE)
    assert not app.running


def test_keys_typed_in_the_list_do_not_act(app):
    press(app, pygame.K_l)
    for k in (pygame.K_SPACE, pygame.K_q, pygame.K_h, pygame.K_SLASH):
        press(app, k)
    assert app.running and not app.state.playing and not app.state.help
    assert app.state.search is None and app.state.stages is not None


# ---------------------------------------------------------------- click, scroll

def test_clicking_a_row_jumps_to_its_stage(app):
    press(app, pygame.K_l)
    click(app, row_pos(app, 3))
    assert app.t == 3.0 and app.state.stages is None


def test_clicking_outside_closes_and_in_the_title_does_nothing(app):
    press(app, pygame.K_l)
    bx, by, _, _ = hud.stage_list_box(SIZE, len(NAMES))
    click(app, (bx + 20, by + 10))
    assert app.state.stages == "" and app.t == 0.0
    click(app, (SIZE[0] - 5, 5))  # the panel, outside the list
    assert app.state.stages is None and app.t == 0.0


def test_the_list_scrolls_to_keep_the_pick_in_view_and_shows_only_what_fits(app):
    rows = app._list_rows()
    assert rows < len(NAMES)  # 37 rows do not fit in 600 px
    box = hud.stage_list_box(SIZE, len(NAMES))
    assert box[1] + hud.LIST_HEAD_H + rows * hud.LIST_ROW_H <= box[1] + box[3] <= SIZE[1]
    press(app, pygame.K_l)
    press(app, pygame.K_END)
    assert app.state.stage_pick == 36 and app.state.stage_top == len(NAMES) - rows
    texts = list_texts(app)
    assert "息司正" in texts and "戒賔" not in texts
    press(app, pygame.K_PAGEUP)
    assert app.state.stage_pick == 36 - rows
    press(app, pygame.K_HOME)
    assert app.state.stage_top == 0 and "戒賔" in list_texts(app)
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-2, precise_y=-2.0))
    assert app.state.stage_top == 2 * viz.app.modes.LIST_WHEEL_ROWS
    click(app, row_pos(app, 7))
    assert app.t == 7.0


def test_the_list_draws_the_pick_highlighted_and_the_current_stage_red(app):
    app.seek(4.5)
    press(app, pygame.K_l)
    typed(app, "獻")
    comp = compose(app.model, app.view(), app.size, app.t, app.closing)
    prims = next(la for la in comp.layers if la.name == "hud").prims
    hl = [p for p in prims if isinstance(p, Rect) and p.fill == hud.HILITE]
    assert len(hl) == 1 and hl[0].box[1] < row_pos(app, 5)[1] < hl[0].box[1] + hl[0].box[3]
    by_text = {p.text: p for p in prims if isinstance(p, Text)}
    assert by_text["迎賔"].color == hud.RED  # stage 5, where t is
    assert by_text["獻賔"].color == hud.INK and by_text["張侯"].color == hud.FAINT
    assert app.needs_redraw()


def test_help_names_the_list_key():
    assert "L  Tab" in dict(hud.KEYS)
    prims = hud.help_overlay(SIZE)
    assert "L  Tab" in {p.text for p in prims if isinstance(p, Text)}
    assert max(p.pos[1] for p in prims if isinstance(p, Text)) < SIZE[1]


# ---------------------------------------------------------------- the bar's names

def overlaps(labels, px=11.0, gap=0.0) -> list:
    spans = sorted((row, x, x + hud.text_width(t, px), t) for _, x, row, t in labels)
    return [(a, b) for a, b in zip(spans, spans[1:], strict=False)
            if a[0] == b[0] and b[1] < a[2] + gap]


@pytest.mark.parametrize("width", [480, 800, 1229, 1366, 1920, 4000])
@pytest.mark.parametrize("current", [0, 21, 36])
def test_bar_names_never_overlap_and_shorten_to_a_prefix(width, current):
    left, right = 16.0, width - 18.0
    starts = [14 + (width - 28) * i / len(NAMES) for i in range(len(NAMES))]
    labels = hud.bar_labels(starts, NAMES, current, 11, left, right)
    assert not overlaps(labels)
    for i, x, _, text in labels:
        assert text.startswith(str(i + 1)) and f"{i + 1}{NAMES[i]}".startswith(text)
        assert left <= x and x + hud.text_width(text, 11) <= right
    shown = {i: t for i, _, _, t in labels}
    assert shown[current] == f"{current + 1}{NAMES[current]}"  # the current one whole
    if width >= 4000:
        assert len(shown) == len(NAMES) and all(t.endswith(n) for t, n in
                                                zip(shown.values(), NAMES, strict=True))
    if width == 1366:  # on a laptop every stage is at least numbered, but one the long
        assert len(shown) >= len(NAMES) - 1  # current name covers


def test_the_bar_as_drawn_has_no_overlapping_names():
    tl = many_stages()
    for size in ((640, 400), (1229, 675)):
        frame = tl.sample(21.5)
        box = hud.areas(size)["bar"]
        texts = [p for p in hud.bar_fixed(tl, frame, box) if isinstance(p, Text)]
        labels = [(0, p.pos[0], p.pos[1], p.text) for p in texts]
        assert len(labels) > 10 and not overlaps(labels)
        assert any(p.text == "22賔主大夫衆賔射" and p.color == hud.RED for p in texts)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=60), st.integers(0, 80),
       st.integers(100, 3000))
def test_bar_names_never_overlap_whatever_the_stage_lengths(cuts, current, width):
    starts = [14 + (width - 28) * c for c in sorted(cuts)]
    names = [NAMES[i % len(NAMES)] for i in range(len(starts))]
    labels = hud.bar_labels(starts, names, current, 11, 16.0, width - 18.0)
    assert not overlaps(labels)


# ---------------------------------------------------------------- the window's first size

@pytest.mark.parametrize("desktop", [(1366, 768), (1280, 800), (1440, 900), (1024, 600),
                                     (800, 600)])
def test_the_first_size_fits_the_display_with_room_for_its_bars(desktop):
    w, h = choose_size(desktop)
    assert w <= desktop[0] * 0.9 and h <= desktop[1] * 0.88
    assert w >= 700 and h >= 500


def test_a_large_display_gets_its_size_less_its_bars_and_an_unknown_one_the_default():
    """A projector's 1920×1080 opens at 1728×950, not 1280×800 (issue 27)."""
    assert choose_size((1920, 1080)) == (1728, 950)
    assert choose_size((2560, 1440)) == (2304, 1267)
    assert choose_size(None) == (1280, 800) == choose_size((0, 0))
    assert choose_size((1366, 768)) == (1229, 675)


def test_desktop_size_answers_headless():
    size = desktop_size()
    assert size is not None and size[0] > 0 and size[1] > 0


def test_run_opens_a_resizable_window_sized_to_the_display(monkeypatch):
    opened = []
    real_set_mode = pygame.display.set_mode

    def set_mode(size, flags=0):
        opened.append((tuple(size), flags))
        return real_set_mode(size, flags)

    monkeypatch.setattr(viz.app.window, "desktop_size", lambda: (1366, 768))
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)
    monkeypatch.setattr(pygame.event, "get", lambda: [pygame.event.Event(pygame.QUIT)])
    monkeypatch.setattr(pygame, "quit", lambda: None)  # the other tests keep their pygame
    assert viz.app.window.run(FakeLayout(), many_stages(), fake_corpus()) == 0
    assert opened == [((1229, 675), pygame.RESIZABLE)]


def test_the_window_opens_playing_the_rite(monkeypatch):
    """`python main.py` plays the rite: the clock runs from the first frame, Space pauses."""
    seen = []
    real_update = viz.app.window.App.update

    def update(self, dt):
        real_update(self, dt)
        seen.append((self.state.playing, self.t))

    frames = iter([[], [], [pygame.event.Event(pygame.QUIT)]])
    monkeypatch.setattr(viz.app.window.App, "update", update)
    monkeypatch.setattr(pygame.event, "get", lambda: next(frames))
    monkeypatch.setattr(pygame, "quit", lambda: None)
    assert viz.app.window.run(FakeLayout(), many_stages(), fake_corpus(), size=(640, 400)) == 0
    assert seen and all(playing for playing, _ in seen)
    assert seen[-1][1] > 0.0  # the clock moved


def test_at_a_larger_ui_scale_a_click_on_a_row_as_drawn_jumps_to_it(tmp_path):
    """Ctrl + grows the stage list with the rest of the HUD: a click where a stage's name is
    drawn (as compose draws it, in the window's px) goes to that stage."""
    app = App(FakeLayout(), many_stages(), fake_corpus(), size=(1366, 768), shots_dir=tmp_path)
    app.ui = 1.5
    press(app, pygame.K_l)
    comp = compose(app.model, app.view(), app.size, app.t, app.closing)
    hud_layer = next(la for la in comp.layers if la.name == "hud")
    name = next(p for p in hud_layer.prims if isinstance(p, Text) and p.text == NAMES[4])
    assert name.size == pytest.approx(14 * hud.ui_scale(app.size, app.ui))  # drawn larger
    click(app, (name.pos[0] + 20, name.pos[1]))
    assert app.t == 4.0 and app.state.stages is None
