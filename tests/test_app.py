"""The window's behaviour headless: keys, mouse, clause clicks, search, screenshots, shots, fonts."""
from __future__ import annotations

import io
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import numpy as np
import pygame
import pytest
from test_draw import FakeLayout, fake_timeline

from viz import fonts
from viz.app import App
from viz.draw import hud
from viz.fileio import RefuseOverwrite
from viz.shot import render_png
from viz.text.corpus import Clause, Corpus, Section

SIZE = (960, 600)


def fake_corpus() -> Corpus:
    """A chapter whose offsets match the fake timeline's cites: 1600 主人坐取爵, 1610 賔拜, 3000 司射請射;
    and a 賔拜 at 10, in the front matter, that no step cites."""
    plain = ("〇" * 10 + "賔拜" + "〇" * 1588 + "主人坐取爵" + "〇" * 5 + "賔拜" + "〇" * 1388
             + "司射請射" + "〇" * 96)
    sections = (Section(1, "獻賔", 0, 2000), Section(2, "請射", 2000, 3100))
    clauses = (Clause("01.01", 1, "經", 1600, 1605, "主人坐取爵", "主人坐取爵，", ("取爵於篚",), "011-4a"),
               Clause("01.02", 1, "經", 1610, 1612, "賔拜", "賔拜。", (), "011-4a"),
               Clause("02.01", 2, "經", 3000, 3004, "司射請射", "司射請射。", (), "011-6b"))
    return Corpus(plain, sections, (), clauses, ((0, "011-4a"), (2000, "011-6b")),
                  _page_starts=(0, 2000))


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


@pytest.fixture
def app(tmp_path):
    return App(FakeLayout(), fake_timeline(), fake_corpus(), size=SIZE, shots_dir=tmp_path / "shots")


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def test_space_plays_and_only_the_clock_moves(app):
    app.handle(key(pygame.K_SPACE))
    assert app.state.playing
    app.update(1.5)
    app.update(1.5)
    assert app.t == pytest.approx(3.0)
    app.handle(key(pygame.K_SPACE))
    app.update(5.0)
    assert app.t == pytest.approx(3.0) and not app.state.playing


def test_arrows_step_brackets_and_pages_stage_home_end(app):
    app.handle(key(pygame.K_RIGHT))
    assert app.t == 5.0
    app.handle(key(pygame.K_RIGHT))
    assert app.t == 10.0
    app.handle(key(pygame.K_LEFT))
    assert app.t == 5.0
    app.seek(7.0)
    app.handle(key(pygame.K_LEFT))  # first back to the start of the step under way
    assert app.t == 5.0
    app.handle(key(pygame.K_RIGHTBRACKET))
    assert app.t == 10.0
    app.handle(key(pygame.K_PAGEUP))
    assert app.t == 0.0
    app.handle(key(pygame.K_PAGEDOWN))
    assert app.t == 10.0
    app.handle(key(pygame.K_END))
    assert app.t == 20.0
    app.handle(key(pygame.K_HOME))
    assert app.t == 0.0


def test_plus_minus_change_speed_and_play_at_it(app):
    app.handle(key(pygame.K_PLUS))
    app.handle(key(pygame.K_EQUALS))
    assert app.state.speed == 4.0
    app.handle(key(pygame.K_MINUS))
    app.handle(key(pygame.K_MINUS))
    app.handle(key(pygame.K_MINUS))
    assert app.state.speed == 0.5
    app.handle(key(pygame.K_SPACE))
    app.update(2.0)
    assert app.t == pytest.approx(1.0)


def test_wheel_zooms_at_cursor_drag_pans_f_fits(app):
    s0, c0 = app.camera.scale, app.camera.center
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(200, 150), rel=(0, 0), buttons=(0, 0, 0)))
    under = app.camera.to_world((200, 150))
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, precise_x=0.0, precise_y=2.0,
                                  flipped=False))
    assert app.camera.scale == pytest.approx(s0 * 1.15 ** 2)
    assert app.camera.to_world((200, 150)) == pytest.approx(under)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(200, 150), button=1))
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(230, 140), rel=(30, -10),
                                  buttons=(1, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(230, 140), button=1))
    assert app.camera.to_world((230, 140)) == pytest.approx(under)
    app.handle(key(pygame.K_f))
    assert app.camera.scale == pytest.approx(s0) and app.camera.center == pytest.approx(c0)


def test_click_and_drag_on_the_bar_scrubs(app):
    x, y, w, h = hud.bar_track(SIZE)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w / 4, y + h / 2), button=1))
    assert app.t == pytest.approx(5.0)
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + w / 2, y + h / 2), rel=(w / 4, 0),
                                  buttons=(1, 0, 0)))
    assert app.t == pytest.approx(10.0)
    c = app.camera.center
    assert app.camera.center == c  # scrubbing does not pan


def test_clicking_a_clause_jumps_to_the_first_step_citing_it(app):
    surface = pygame.Surface(SIZE)
    app.seek(12.0)  # 請射: the panel shows section 2 and its clause
    app.draw(surface)
    assert {app.corpus.clauses[ci].id for _, ci, _ in app.hits.clauses} == {"02.01"}
    app.seek(0.0)
    app.draw(surface)  # section 1: clauses 01.01 and 01.02 are clickable
    boxes = {app.corpus.clauses[ci].id: box for box, ci, _ in app.hits.clauses}
    assert set(boxes) == {"01.01", "01.02"}
    x, y, _, h = boxes["01.02"]
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + 5, y + h / 2), button=1))
    assert app.t == 5.0


def test_slash_search_jumps_to_the_step_citing_the_words(app):
    app.handle(key(pygame.K_SLASH))
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text="/"))  # the key's own text is not typed
    for ch in "請射":
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    assert app.state.search == "請射"
    app.handle(key(pygame.K_q))  # typing, not quitting
    assert app.running
    app.handle(key(pygame.K_BACKSPACE))
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text="射"))
    app.handle(key(pygame.K_RETURN))
    assert app.t == 10.0 and "1/1" in app.state.search_note
    app.handle(key(pygame.K_ESCAPE))
    assert app.state.search is None and app.running


def test_search_with_variant_folding_skips_places_not_enacted(app):
    assert app.search("賓拜")  # the text has 賔; the first place (front matter) has no step
    assert app.t == 5.0 and app.state.search_note.startswith("賓拜 · 2/2")
    app.seek(0.0)
    assert app.search("賓拜")  # Enter again: the next enacted place, round to the same one
    assert app.t == 5.0
    assert not app.search("〇〇〇") and "皆未演" in app.state.search_note


def test_help_notes_inset_toggle_and_quit(app):
    app.handle(key(pygame.K_h))
    assert app.state.help
    app.handle(key(pygame.K_ESCAPE))
    assert not app.state.help and app.running
    app.handle(key(pygame.K_n))
    assert app.state.show_notes
    on = app.inset_box() is not None
    app.handle(key(pygame.K_i))
    assert (app.inset_box() is not None) != on
    app.handle(key(pygame.K_q))
    assert not app.running


def test_screenshot_twice_gives_two_files_and_never_overwrites(app, tmp_path):
    folder = tmp_path / "shots"
    folder.mkdir()
    (folder / "xiangshe-0001.png").write_bytes(b"mine")
    app.handle(key(pygame.K_s))
    app.handle(key(pygame.K_s))
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["xiangshe-0001.png", "xiangshe-0002.png", "xiangshe-0003.png"]
    assert (folder / "xiangshe-0001.png").read_bytes() == b"mine"
    img = pygame.image.load(io.BytesIO((folder / "xiangshe-0003.png").read_bytes()))
    assert img.get_size() == SIZE
    assert app.state.toast.startswith("saved shots/xiangshe-0003.png")


def test_draw_shows_the_stage_and_the_cite(app):
    surface = pygame.Surface(SIZE)
    app.seek(6.0)
    app.draw(surface)
    prims, _ = hud.build_hud(app.timeline, app.timeline.sample(6.0), app.corpus, SIZE, app.state)
    texts = [p.text for p in prims if hasattr(p, "text")]
    assert "1　獻賔" in texts and "「賔拜」" in texts
    assert any("×1" in t for t in texts)
    # the panel's clause of the current step is highlighted
    hl = [p for p in prims if isinstance(p, hud.Rect) and p.fill == hud.HILITE]
    assert len(hl) == 1


def test_render_png_writes_once_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "frame.png"
    render_png(FakeLayout(), fake_timeline(), fake_corpus(), 6.0, (640, 400), out)
    assert pygame.image.load(str(out)).get_size() == (640, 400)
    with pytest.raises(RefuseOverwrite):
        render_png(FakeLayout(), fake_timeline(), fake_corpus(), 6.0, (640, 400), out)
    render_png(FakeLayout(), fake_timeline(), fake_corpus(), 7.0, (640, 400), out, overwrite=True)


def test_font_check_names_missing_characters_and_substitutes_xuan():
    assert fonts.check_font(["主人", "賔\ue000", "A1，。"]) == ["\ue000"]
    assert fonts.check_font(["\U000248e5"]) == []  # drawn as 玄, not blank
    assert fonts.substitutions_used(["𤣥酒"]) == [("\U000248e5", "玄")]
    assert fonts.shown("左\U000248e5酒") == "左玄酒"


def test_app_start_up_check_prints_missing(tmp_path):
    tl = fake_timeline()
    tl.captions["text"][0] = "敢不敬從\ue001"
    a = App(FakeLayout(), tl, fake_corpus(), size=SIZE, shots_dir=tmp_path)
    buf = io.StringIO()
    missing = a.check_font(buf)
    assert missing == ["\ue001"]
    assert "U+E001" in buf.getvalue()


def test_hovering_a_token_names_the_person_and_what_he_holds(app):
    fr = app.timeline.sample(0.0)
    x, y = app.camera.to_screen(fr.xy[0])
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + 1, y), rel=(0, 0),
                                  buttons=(0, 0, 0)))
    assert app.hover_text(fr) == "主人 · 立 · 執爵"
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + 60, y + 60), rel=(0, 0),
                                  buttons=(0, 0, 0)))
    assert app.hover_text(fr) == ""


def test_when_everyone_is_at_the_guests_gate_the_view_goes_there(tmp_path):
    from viz.timeline import ActorInfo, StageSpan, StepSpan, Timeline, build_channel

    tl = Timeline([ActorInfo("zhuren", "主人", "主", "主")], [],
                  [StageSpan(0, "戒賔", "戒賔", 0.0, 5.0, 0, 0),
                   StageSpan(1, "迎賔", "迎賔", 5.0, 10.0, 1, 1)],
                  [StepSpan(0, 0, 0.0, 5.0, "主人戒賔", (0, 4), (), "x:1:1"),
                   StepSpan(1, 1, 5.0, 10.0, "迎", (0, 1), (), "x:2:1")],
                  build_channel([0, 0], [0.0, 5.0], x=[-300.0, 0.0], y=[-4.0, -85.0],
                                face=[90.0, 0.0]),
                  build_channel([0], [0.0], code=[0], end=[0.0]),
                  build_channel([0], [0.0], present=[True]),
                  build_channel([], [], holder=[], x=[], y=[], visible=[]),
                  {"t0": np.zeros(0), "t1": np.zeros(0), "actor": np.zeros(0, int), "text": []},
                  10.0)
    a = App(FakeLayout(), tl, None, size=SIZE, shots_dir=tmp_path)
    surface = pygame.Surface(SIZE)
    a.draw(surface)
    assert a.view_kind() == "elsewhere" and a.inset_box() is None
    mx, my, mw, mh = hud.areas(SIZE)["map"]
    sx, sy = a.camera.to_screen((-300.0, -4.0))
    assert mx < sx < mx + mw and my < sy < my + mh  # the 賔門 is on screen
    a.seek(7.0)
    a.draw(surface)
    assert a.view_kind() == "site" and a.inset_box() is not None
    sx, sy = a.camera.to_screen((0.0, 15.0))
    assert mx < sx < mx + mw and my < sy < my + mh  # back at the school


def test_panel_degrades_without_clauses_and_without_a_corpus(tmp_path):
    import dataclasses

    bare = dataclasses.replace(fake_corpus(), clauses=())
    surface = pygame.Surface(SIZE)
    for corpus, found in ((bare, True), (None, False)):
        a = App(FakeLayout(), fake_timeline(), corpus, size=SIZE, shots_dir=tmp_path)
        a.draw(surface)
        assert a.hits.clauses == []
        assert a.search("賔拜") == found  # find needs only the plain text
        assert a.t == (5.0 if found else 0.0)
    prims, _ = hud.build_hud(a.timeline, a.timeline.sample(6.0), bare, SIZE, hud.HudState())
    marked = [p for p in prims if isinstance(p, hud.Rect) and p.fill == hud.HILITE]
    assert len(marked) == 1  # the line holding the cited 賔拜


def test_hovering_the_bar_names_the_stage_there(app):
    x, y, w, h = hud.bar_track(SIZE)
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + w * 0.75, y + h / 2), rel=(0, 0),
                                  buttons=(0, 0, 0)))
    assert app.hover_text(app.timeline.sample(0.0)) == "2 請射 · 15 s"


def test_notes_toggle_shows_the_clauses_note_in_the_panel(app):
    fr = app.timeline.sample(1.0)
    def texts():
        prims, _ = hud.build_hud(app.timeline, fr, app.corpus, SIZE, app.state)
        return [p.text for p in prims if hasattr(p, "text")]

    assert not any("取爵於篚" in t for t in texts())
    app.handle(key(pygame.K_n))
    assert any(t.startswith("注") and "取爵於篚" in t for t in texts())


def test_resize_refits_into_the_new_window(app):
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(1400, 900), w=1400, h=900))
    assert app.size == (1400, 900)
    assert app.camera.viewport == tuple(float(v) for v in hud.areas((1400, 900))["map"])
    surface = pygame.Surface((1400, 900))
    app.draw(surface)
    assert app.size == (1400, 900)


@pytest.mark.parametrize("size", [(64, 64), (300, 200), (800, 500), (1280, 800), (2400, 1400)])
def test_any_window_size_draws(size, tmp_path):
    a = App(FakeLayout(), fake_timeline(), fake_corpus(), size=size, shots_dir=tmp_path)
    a.seek(6.0)
    a.draw(pygame.Surface(size))
    assert a.size == size
