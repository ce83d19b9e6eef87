"""The window in a classroom, headless: F11 fullscreen under the dummy driver, W skips the waits
(viz.query.waits), P plays one step and pauses at its end, speeds to ×64; and the smaller
things: R takes one reading a press however long it is held, N and G say when there is nothing
to show, the window and the command line know the same readings."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from dataclasses import replace

import numpy as np
import pygame
import pytest
from test_draw import fake_corpus, fake_timeline
from test_window import SIZE, FakeReloader, Layout

from viz.app import classroom
from viz.app.bindings import NO_NOTES, NO_PREVIOUS, NOBODY_MOVED
from viz.app.speeds import SPEEDS
from viz.app.window import App
from viz.base.lang import tr_done  # toasts in the reader's language (中文 by default)
from viz.draw import hud
from viz.model.timeline import Timeline, build_channel
from viz.query import waits


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def down(app, k, mod=0):
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def up(app, k, mod=0):
    app.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def press(app, k, mod=0):
    down(app, k, mod)
    up(app, k, mod)


def walks_again(duration: float = 40.0) -> Timeline:
    """The fake rite (主人 walks 0–10 s, the 賔 bows 5–10 s, the 司射 leaves at 10 s), made
    longer, and the 主人 walks back 20–25 s: still 10–20 s and 25–40 s."""
    tl = fake_timeline(duration)
    ch = tl.channels["motion"]
    motion = build_channel([0, 0, 0, 0, 1, 2], [0.0, 10.0, 20.0, 25.0, 0.0, 0.0], "linear",
                           writer=[0, 0, 2, 2, 0, 0], x=[20.0, -20.0, -20.0, 0.0, 0.0, -20.0],
                           y=[-10.0, -10.0, -10.0, -10.0, 27.0, -40.0],
                           face=[90.0, 90.0, 90.0, 90.0, 180.0, 90.0])
    assert len(ch.t) == 4
    return Timeline(tl.actors, tl.props, tl.stages, tl.steps,
                    {**tl.channels, "motion": motion}, tl.events, duration)


def play_line(app) -> str:
    """The play line and the row under it (the modes on, the reading)."""
    prims = hud_prims(app)
    y = next(p.pos[1] for p in prims if p.text.startswith((hud.PLAYING, hud.PAUSED)))
    return " ".join(p.text for p in prims if y <= p.pos[1] <= y + hud.CLOCK_ROW
                    and p.pos[0] >= hud.areas(app.size)["panel"][0])


@pytest.fixture
def app(tmp_path):
    return App(Layout(), walks_again(), fake_corpus(), size=SIZE, shots_dir=tmp_path)


# ---------------------------------------------------------------- the waits

def test_the_waits_are_where_nobody_walks_bows_sits_or_leaves():
    w = waits.waits(walks_again())
    # 10 s: the bow ends and the 司射 leaves (an instant counts ±INSTANT); 20 s: a walk begins
    # (the wait ends LEAD before it); 25 s to the end: nobody moves
    assert np.allclose(w, [[10.0 + waits.INSTANT, 20.0 - waits.LEAD], [25.0, 40.0]])
    assert waits.skip(w, 12.0) == 20.0 - waits.LEAD and waits.skip(w, 5.0) == 5.0
    assert waits.skip(w, 30.0) == 40.0 and waits.waiting(w) == pytest.approx(9.25 + 15.0)


def test_a_bow_and_an_arrow_in_flight_are_not_waits():
    tl = walks_again()
    still = build_channel([0, 0, 1, 2], [0.0, 10.0, 0.0, 0.0], "linear", writer=[0, 0, 0, 0],
                          x=[20.0, 20.0, 0.0, -20.0], y=[-10.0, -10.0, 27.0, -40.0],
                          face=[90.0, 90.0, 180.0, 90.0])  # nobody walks: the 賔 bows 5–10 s
    bows = Timeline(tl.actors, tl.props, tl.stages, tl.steps, {**tl.channels, "motion": still},
                    tl.events, tl.duration)
    assert np.allclose(waits.waits(bows), [[0.25, 4.25], [10.25, 40.0]])  # 4.75: he kneels
    shot = Timeline(tl.actors, tl.props, tl.stages, tl.steps, tl.channels,
                    [*tl.events, type(tl.events[0])(30.0, 33.0, "shot", 2, "")], tl.duration)
    assert np.allclose(waits.waits(shot), [[10.25, 19.5], [25.0, 29.5], [33.0, 40.0]])


def test_w_skips_the_waits_while_playing_and_says_so(app):
    app.seek(11.0)
    app._set(playing=True)
    app.update(0.1)
    assert app.t == pytest.approx(11.1)  # off: every moment is played
    press(app, pygame.K_w)
    assert app.state.skip_waits and app.t == pytest.approx(19.5)
    assert app.state.toast.startswith("略候")
    app.update(0.1)
    assert app.t == pytest.approx(19.6)  # the walk plays
    app.seek(26.0)
    app.update(0.1)
    assert app.t == pytest.approx(40.0)  # the last wait: to the end
    assert hud.SKIPPING in play_line(app)  # the play line says so
    press(app, pygame.K_w)
    app.seek(11.0)
    app._set(playing=True)
    app.update(0.1)
    assert not app.state.skip_waits and app.t == pytest.approx(11.1)
    assert hud.SKIPPING not in play_line(app)


def test_speeds_go_to_64():
    assert SPEEDS[-3:] == (16.0, 32.0, 64.0) and SPEEDS[0] == 0.25


# ---------------------------------------------------------------- the presenter's step

def test_p_plays_one_step_and_pauses_at_its_end(app):
    assert not app.state.playing and app.t == 0.0
    press(app, pygame.K_p)
    assert app.state.playing and app.state.stop_at == 5.0
    assert "講" in play_line(app)
    for _ in range(12):
        app.update(0.5)
    assert app.t == 5.0 and app.closing and not app.state.playing  # as step 1 left them
    assert app.timeline.step_at(app.t, app.closing) == 0
    press(app, pygame.K_RETURN)  # the next step: 賔拜, 5–10 s
    assert app.state.playing and app.state.stop_at == 10.0
    app.update(20.0)  # a long frame does not play past it
    assert app.t == 10.0 and not app.state.playing and app.state.stop_at is None
    press(app, pygame.K_p)
    app.update(100.0)
    assert app.t == 40.0 and not app.state.playing
    press(app, pygame.K_p)  # nothing after the last step
    assert not app.state.playing and app.state.toast == tr_done(classroom.PRESENT_END)


def test_space_or_a_jump_ends_the_presenters_step(app):
    press(app, pygame.K_p)
    press(app, pygame.K_SPACE)  # pause: the stop is forgotten
    assert not app.state.playing and app.state.stop_at is None
    press(app, pygame.K_SPACE)
    app.update(6.0)
    assert app.t == 6.0 and app.state.playing  # plays on past 5 s
    app.seek(0.0)
    press(app, pygame.K_p)
    app.seek(12.0)  # a click on the bar, further on
    app.update(1.0)
    assert app.t == 13.0 and app.state.playing and app.state.stop_at is None


def test_p_with_skip_the_waits_stops_at_the_steps_end_not_past_it(app):
    app.seek(10.0, closing=True)
    press(app, pygame.K_w)
    press(app, pygame.K_p)  # step 3, 10–40 s
    assert app.state.stop_at == 40.0
    app.update(0.5)
    assert app.t == pytest.approx(19.5)
    app.seek(26.0)  # within the same step
    app.update(0.5)
    assert app.t == 40.0 and not app.state.playing


# ---------------------------------------------------------------- F11

def test_f11_goes_fullscreen_and_back_under_the_dummy_driver(tmp_path):
    surface = pygame.display.set_mode((640, 400), pygame.RESIZABLE)
    a = App(Layout(), fake_timeline(), fake_corpus(), size=surface.get_size(),
            shots_dir=tmp_path)
    press(a, pygame.K_F11)
    full = pygame.display.get_surface()
    assert a.classroom.fullscreen and full.get_flags() & pygame.FULLSCREEN
    assert a.size == full.get_size() == tuple(pygame.display.get_desktop_sizes()[0])
    assert a.state.toast == tr_done(classroom.FULLSCREEN_ON)
    a.draw(full)  # draws at the new size
    a.classroom._switched -= classroom.FULLSCREEN_SETTLE  # a second press, a moment later
    press(a, pygame.K_F11)
    back = pygame.display.get_surface()
    assert not a.classroom.fullscreen and not back.get_flags() & pygame.FULLSCREEN
    assert a.size == back.get_size() == (640, 400)


def test_f11_held_switches_once(tmp_path):
    """Held, F11's repeat comes back after the switch as fresh presses (the window lost the
    keyboard's focus: KEYUP, KEYDOWN …): it switches once, and again only on a later press."""
    surface = pygame.display.set_mode((640, 400), pygame.RESIZABLE)
    a = App(Layout(), fake_timeline(), fake_corpus(), size=surface.get_size(),
            shots_dir=tmp_path)
    now = [100.0]
    a.classroom.clock = lambda: now[0]
    for _ in range(6):  # 60 ms apart, as pygame.key.set_repeat(350, 60) sends them
        press(a, pygame.K_F11)
        now[0] += 0.06
    assert a.classroom.fullscreen
    now[0] += 1.0  # let go, and pressed again
    press(a, pygame.K_F11)
    assert not a.classroom.fullscreen
    pygame.display.set_mode((640, 400), pygame.RESIZABLE)


def test_f11_that_the_display_refuses_is_said(app, monkeypatch):
    pygame.display.set_mode((640, 400), pygame.RESIZABLE)

    def refuse(*a, **k):
        raise pygame.error("That operation is not supported")

    monkeypatch.setattr(classroom.pygame.display, "set_mode", refuse)
    press(app, pygame.K_F11)
    assert not app.classroom.fullscreen
    assert app.state.toast == tr_done(classroom.NO_FULLSCREEN.format("That operation is not supported"))


# ---------------------------------------------------------------- key repeat

@pytest.fixture
def live(tmp_path):
    r = FakeReloader()
    c = r.current
    return App(c.layout, c.timeline, c.corpus, size=SIZE, shots_dir=tmp_path, reloader=r)


def test_r_held_with_key_repeat_moves_one_reading(live):
    assert live.reading_name() == "鄭"
    for _ in range(6):  # pygame's key repeat: KEYDOWN after KEYDOWN, no KEYUP between
        down(live, pygame.K_r)
    up(live, pygame.K_r)
    assert live.reading_name() == "敖"
    press(live, pygame.K_r)  # the next press (queued while one compiled): the next reading
    assert live.reading_name() == "鄭"  # (欽定 does not compile: passed over)


def test_held_arrows_still_walk_through_the_steps(app):
    for _ in range(3):
        down(app, pygame.K_RIGHT)
    up(app, pygame.K_RIGHT)
    assert app.timeline.step_at(app.t) == 2


def test_r_and_v_once_each_when_held_together(live):
    down(live, pygame.K_v)
    down(live, pygame.K_r)  # another key goes down: not a repeat of V
    down(live, pygame.K_v)  # V repeated while R is down
    assert live.compare_reading is not None and live.reading_name() == "敖"


# ---------------------------------------------------------------- N and G

def test_n_says_when_the_clause_has_no_note(app):
    app.seek(7.0)  # 賔拜: no 注
    press(app, pygame.K_n)
    assert app.state.show_notes and app.state.toast == tr_done(NO_NOTES)
    press(app, pygame.K_n)
    app.state = type(app.state)()
    app.seek(1.0)  # 主人坐取爵: 注 取爵於篚
    press(app, pygame.K_n)
    assert app.state.show_notes and app.state.toast == ""


def test_g_says_when_there_is_no_previous_step_or_nobody_moved(tmp_path):
    tl = walks_again()
    step = tl.steps[2]  # 10–40 s, cut in two at 15 s: nobody moves 10.25–20 s
    steps = [*tl.steps[:2], replace(step, t1=15.0), replace(step, index=3, t0=15.0)]
    tl = Timeline(tl.actors, tl.props, tl.stages, steps, tl.channels, tl.events, tl.duration)
    app = App(Layout(), tl, fake_corpus(), size=SIZE, shots_dir=tmp_path)
    press(app, pygame.K_g)
    assert app.ghosts and app.state.toast == tr_done(NO_PREVIOUS)
    press(app, pygame.K_g)
    for t, said in ((12.0, ""),  # the 司射 left as step 3 began: his ghost shows it
                    (17.0, NOBODY_MOVED),  # step 4: nobody has moved since 15 s
                    (23.0, "")):  # the 主人 walks again
        app.state = type(app.state)()
        app.seek(t)
        press(app, pygame.K_g)
        assert app.ghosts and app.state.toast == tr_done(said), t
        press(app, pygame.K_g)


def test_every_new_key_is_in_the_help():
    keys = dict(hud.KEYS)
    assert {"W", "P  Enter", "F11"} <= set(keys)


# ---------------------------------------------------------------- the HUD's overprints

def text_box(p) -> tuple[float, float, float, float]:
    """A screen Text's box (the width estimate the HUD wraps by), for "nw" and "ne" anchors."""
    w = hud.text_width(p.text, p.size)
    x = p.pos[0] - (w if p.anchor.endswith("e") else 0)
    return (x, p.pos[1], x + w, p.pos[1] + p.size * 1.3)


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def hud_prims(app):
    from test_window import composed

    from viz.draw.display import Text
    return [p for la in composed(app).layers if la.name.startswith("hud") for p in la.prims
            if isinstance(p, Text)]


@pytest.mark.parametrize("skip", [False, True])
@pytest.mark.parametrize("name", ["敖", "賈疏 (鄉飲酒), 敖繼公"])
def test_a_long_reading_name_does_not_overprint_the_play_line(tmp_path, name, skip):
    tl = walks_again(22207.0)  # five-digit times, as the rite's
    app = App(Layout(), tl, fake_corpus(), size=SIZE, shots_dir=tmp_path)
    app._set(reading=name, skip_waits=skip)
    prims = hud_prims(app)
    line = next(p for p in prims if p.text.startswith((hud.PLAYING, hud.PAUSED)))
    reading = next(p for p in prims if p.text.startswith("讀法"))
    assert not overlap(text_box(line), text_box(reading))
    px, _, _, ph = hud.areas(SIZE)["panel"]
    below = [p for p in prims if p.pos[0] >= px and line.pos[1] < p.pos[1] < ph
             and p.text != reading.text and not p.text.startswith(hud.SKIPPING)]
    assert min(p.pos[1] for p in below) >= text_box(reading)[3] - 1  # the cite starts under it
    if skip:
        marks = next(p for p in prims if p.text.startswith(hud.SKIPPING))
        assert not overlap(text_box(marks), text_box(reading)) and marks.pos[1] > line.pos[1]


def test_the_scroll_markers_cover_no_character():
    box = (0.0, 0.0, 196.0, 200.0)  # 13 characters of 15 px would reach the ▲ (12 do not)
    from test_draw import fake_timeline as ft
    tl = ft()
    corpus = fake_corpus()
    long = type(corpus.clauses[0])("01.01", 1, "經", 1600, 1605, "主人坐取爵",
                                   "主人坐取爵" * 30, (), "011-4a")
    after = type(long)("01.03", 1, "經", 1620, 1625, "〇〇〇〇〇", "主人坐取爵" * 30, (), "011-4a")
    corpus = type(corpus)(corpus.plain, corpus.sections, (),
                          (long, corpus.clauses[1], after, *corpus.clauses[2:]),
                          corpus.pages, _page_starts=(0, 2000))
    frame = tl.sample(7.0)  # 賔拜, under a long clause: scrolled, ▲ and ▼
    prims = hud.section_text(tl, frame, corpus, tl.steps[1], tl.stages[0], box, hud.HudState(),
                             hud.Hits())
    marks = [p for p in prims if getattr(p, "text", "") in (hud.MORE_ABOVE, hud.MORE_BELOW)]
    words = [p for p in prims if getattr(p, "text", None) and p not in marks]
    assert len(marks) == 2
    right = max(text_box(w)[2] for w in words)
    assert all(right <= text_box(m)[0] for m in marks)  # a margin no line enters


def test_the_panels_source_line_ends_inside_the_panel():
    tl = fake_timeline()
    long = "/tmp/somewhere/deep/assets/rites/xiangshe/sections/18-初射獲而未釋獲.yaml:105:5"
    steps = [replace(tl.steps[0], loc=long, pattern="耦射"), *tl.steps[1:]]
    tl = Timeline(tl.actors, tl.props, tl.stages, steps, tl.channels, tl.events, tl.duration)
    box = hud.areas(SIZE)["panel"]
    prims = hud.panel_fixed(tl, tl.sample(1.0), fake_corpus(), box, hud.HudState(), hud.Hits())
    meta = next(p for p in prims if "yaml" in getattr(p, "text", ""))
    assert meta.text.startswith("頁 011-4a   …") and meta.text.endswith(".yaml:105:5  · 耦射")
    assert text_box(meta)[2] <= box[0] + box[2] - 14


def test_a_source_path_is_shortened_from_the_left_to_the_panels_width():
    s = "/tmp/somewhere/assets/rites/xiangshe/sections/18-初射.yaml:105:5  · 耦射"
    short = hud.shorten_left(s, 10, 200)
    assert short.startswith("…") and short.endswith("18-初射.yaml:105:5  · 耦射")
    assert hud.text_width(short, 10) <= 200 and hud.shorten_left("a.yaml:1:1", 10, 200) == \
        "a.yaml:1:1"


def test_a_stage_given_by_its_sections_number_is_not_numbered_twice():
    from viz.model.timeline import StageSpan
    st = StageSpan(26, "三射用樂", "27", 0.0, 1.0, 0, 0)
    assert hud.stage_title(st) == "27　三射用樂"
    assert hud.stage_title(StageSpan(22, "取矢視算", "取矢", 0.0, 1.0, 0, 0)) == \
        "23　取矢視算（取矢）"
    assert hud.stage_title(StageSpan(0, "戒賔", "戒賔", 0.0, 1.0, 0, 0)) == "1　戒賔"
