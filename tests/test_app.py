"""The window's behaviour headless: keys, mouse, clause clicks, search, redraws, screenshots, shots."""
from __future__ import annotations

import io
import os
import threading

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import numpy as np
import pygame
import pytest
from test_draw import FakeLayout, fake_corpus, fake_model, fake_timeline, pixels

import viz.app.window
from viz.app.window import TOAST_SECONDS, App
from viz.backends import fonts, pgdraw
from viz.base.fileio import OutputError, RefuseOverwrite
from viz.draw import hud
from viz.draw.compose import View, compose
from viz.draw.scene import FEATURE_STYLE
from viz.export.shot import render_png, render_surface

SIZE = (960, 600)
HALL = FEATURE_STYLE["hall"][0]
BAR = (236, 229, 214)


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


@pytest.fixture
def app(tmp_path):
    return App(FakeLayout(), fake_timeline(), fake_corpus(), size=SIZE, shots_dir=tmp_path / "shots")


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def press(app, k, mod=0):
    """A key pressed and let go (a KEYDOWN alone, then another, is the key held: a repeat)."""
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def test_space_plays_and_only_the_clock_moves(app):
    press(app, pygame.K_SPACE)
    assert app.state.playing
    app.update(1.5)
    app.update(1.5)
    assert app.t == pytest.approx(3.0)
    press(app, pygame.K_SPACE)
    app.update(5.0)
    assert app.t == pytest.approx(3.0) and not app.state.playing


def test_arrows_step_brackets_and_pages_stage_home_end(app):
    press(app, pygame.K_RIGHT)
    assert app.t == 5.0
    press(app, pygame.K_RIGHT)
    assert app.t == 10.0
    press(app, pygame.K_LEFT)
    assert app.t == 5.0
    app.seek(7.0)
    press(app, pygame.K_LEFT)  # first back to the start of the step under way
    assert app.t == 5.0
    press(app, pygame.K_RIGHTBRACKET)
    assert app.t == 10.0
    press(app, pygame.K_PAGEUP)
    assert app.t == 0.0
    press(app, pygame.K_PAGEDOWN)
    assert app.t == 10.0
    press(app, pygame.K_END)
    assert app.t == 20.0
    press(app, pygame.K_HOME)
    assert app.t == 0.0


def test_plus_minus_change_speed_and_play_at_it(app):
    press(app, pygame.K_PLUS)
    press(app, pygame.K_EQUALS)
    assert app.state.speed == 4.0
    press(app, pygame.K_MINUS)
    press(app, pygame.K_MINUS)
    press(app, pygame.K_MINUS)
    assert app.state.speed == 0.5
    press(app, pygame.K_SPACE)
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
    press(app, pygame.K_f)
    assert app.camera.scale == pytest.approx(s0) and app.camera.center == pytest.approx(c0)


def test_click_and_drag_on_the_bar_scrubs(app):
    x, y, w, h = hud.bar_track(SIZE)
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x + w / 4, y + h / 2), button=1))
    assert app.t == pytest.approx(5.0)
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(x + w / 2, y + h / 2), rel=(w / 4, 0),
                                  buttons=(1, 0, 0)))
    assert app.t == pytest.approx(10.0)


def test_scrubbing_reframes_each_stage_unless_the_user_panned(app):
    x, y, w, h = hud.bar_track(SIZE)

    def scrub_to(t):
        pos = (x + w * t / 20.0, y + h / 2)
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        assert app.t == pytest.approx(t)

    first = app.camera.key()
    scrub_to(15.0)  # 請射: the 司射 has gone, so the stage is framed tighter
    assert app.camera.key() != first
    scrub_to(0.0)
    assert app.camera.key() == first
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(200, 150), button=1))
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=(240, 170), rel=(40, 20),
                                  buttons=(1, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(240, 170), button=1))
    panned = app.camera.key()
    assert panned != first
    scrub_to(15.0)
    assert app.camera.key() == panned  # the user's view stays where he put it


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
    press(app, pygame.K_SLASH)
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text="/"))  # the key's own text is not typed
    for ch in "請射":
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    assert app.state.search == "請射"
    press(app, pygame.K_q)  # typing, not quitting
    assert app.running
    press(app, pygame.K_BACKSPACE)
    app.handle(pygame.event.Event(pygame.TEXTINPUT, text="射"))
    press(app, pygame.K_RETURN)
    assert app.t == 10.0 and "1/1" in app.state.search_note
    press(app, pygame.K_ESCAPE)
    assert app.state.search is None and app.running


def test_search_with_variant_folding_skips_places_not_enacted(app):
    assert app.search("賓拜")  # the text has 賔; the first place (front matter) has no step
    assert app.t == 5.0 and app.state.search_note.startswith("賓拜 · 2/2")
    app.seek(0.0)
    assert app.search("賓拜")  # Enter again: the next enacted place, round to the same one
    assert app.t == 5.0
    assert not app.search("〇〇〇") and "皆未演" in app.state.search_note


def test_help_notes_inset_toggle_and_quit(app):
    press(app, pygame.K_h)
    assert app.state.help
    press(app, pygame.K_ESCAPE)
    assert not app.state.help and app.running
    press(app, pygame.K_n)
    assert app.state.show_notes
    assert app.framing().inset_box is not None
    press(app, pygame.K_i)
    assert app.framing().inset_box is None
    press(app, pygame.K_q)
    assert not app.running


def test_screenshot_twice_gives_two_files_and_never_overwrites(app, tmp_path):
    folder = tmp_path / "shots"
    folder.mkdir()
    (folder / "xiangshe-0001.png").write_bytes(b"mine")
    press(app, pygame.K_s)
    press(app, pygame.K_s)
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["xiangshe-0001.png", "xiangshe-0002.png", "xiangshe-0003.png"]
    assert (folder / "xiangshe-0001.png").read_bytes() == b"mine"
    img = pygame.image.load(io.BytesIO((folder / "xiangshe-0003.png").read_bytes()))
    assert img.get_size() == SIZE
    assert app.state.toast.startswith("已存 shots/xiangshe-0003.png")


def test_a_screenshot_into_a_plain_file_says_why_and_does_not_hang(tmp_path):
    blocker = tmp_path / "screenshots"
    blocker.write_text("not a folder", encoding="utf-8")
    a = App(FakeLayout(), fake_timeline(), fake_corpus(), size=SIZE, shots_dir=blocker)
    got = []
    worker = threading.Thread(target=lambda: got.append(a.screenshot()), daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "S hangs when ./screenshots is a plain file"
    assert got == [None] and a.state.toast.startswith("未存：")
    assert blocker.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize("error", [OutputError("screenshots: the folder is read-only"),
                                   PermissionError(13, "Permission denied")])
def test_a_failed_save_is_said_in_the_window(app, monkeypatch, error):
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(viz.app.window, "atomic_write_bytes", refuse)
    press(app, pygame.K_s)
    assert app.running and app.state.toast == f"未存：{error}"


def test_a_screenshot_into_a_read_only_folder_says_why(app):
    app.shots_dir.mkdir()
    if os.geteuid() == 0:  # root writes through permission bits: a read-only bind mount stops it
        from test_fileio import mounted

        with mounted(app.shots_dir, "--bind", "-o", "ro", str(app.shots_dir)):
            assert app.screenshot() is None and app.state.toast.startswith("未存：")
        return
    app.shots_dir.chmod(0o500)
    try:
        assert app.screenshot() is None and app.state.toast.startswith("未存：")
    finally:
        app.shots_dir.chmod(0o700)


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


@pytest.mark.parametrize(("t", "closing"), [(6.25, False), (10.0, True), (10.0, False)])
def test_window_shot_and_composer_agree_pixel_for_pixel(t, closing, tmp_path):
    a = App(FakeLayout(), fake_timeline(), fake_corpus(), size=SIZE, shots_dir=tmp_path)
    a.seek(t, closing)
    window = pygame.Surface(SIZE)
    a.draw(window)
    a.seek(0.0)
    a.draw(window)
    a.seek(t, closing)
    a.draw(window)  # the plans now come from the window's layer cache
    composed = pygame.Surface(SIZE)
    pgdraw.draw_layers(composed, compose(fake_model(), View(), SIZE, t, closing).layers)
    shot = render_surface(FakeLayout(), fake_timeline(), fake_corpus(), t, SIZE, closing)
    png = render_png(FakeLayout(), fake_timeline(), fake_corpus(), t, SIZE, tmp_path / "f.png",
                     closing=closing)
    same = pygame.image.tobytes(window, "RGB")
    assert pygame.image.tobytes(composed, "RGB") == same
    assert pygame.image.tobytes(shot, "RGB") == same
    assert pygame.image.tobytes(pygame.image.load(str(png)), "RGB") == same


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
    tl = fake_timeline(says="敢不敬從\ue001")
    a = App(FakeLayout(), tl, fake_corpus(), size=SIZE, shots_dir=tmp_path)
    buf = io.StringIO()
    missing = a.check_font(buf)
    assert missing == ["\ue001"]
    assert "U+E001" in buf.getvalue()


def move(app, pos) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))


def test_hovering_a_token_names_the_person_and_what_he_holds(app):
    fr = app.timeline.sample(0.0)
    x, y = app.camera.to_screen(fr.xy[0])
    move(app, (x + 1, y))
    assert app.tooltip() == "主人 · 立 · 執爵"
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    move(app, (x + 60, y + 60))
    assert app.tooltip() == ""


def test_a_paused_unchanged_window_does_not_redraw(app):
    surface = pygame.Surface(SIZE)
    assert app.needs_redraw()  # nothing drawn yet

    def drawn_and_still():
        app.draw(surface)
        assert not app.needs_redraw()

    drawn_and_still()
    app.update(0.5)  # paused: the clock stands
    assert not app.needs_redraw()
    fr = app.timeline.sample(0.0)
    x, y = app.camera.to_screen(fr.xy[0])
    move(app, (x + 60, y + 60))  # over the plan, no one there
    assert not app.needs_redraw()
    move(app, (x + 1, y))  # over the 主人: his tooltip
    assert app.needs_redraw()
    drawn_and_still()
    move(app, (x + 2, y))  # still over him
    assert not app.needs_redraw()
    press(app, pygame.K_RIGHT)
    assert app.needs_redraw()
    drawn_and_still()
    press(app, pygame.K_PLUS)  # the speed, said in a toast …
    assert app.needs_redraw()
    drawn_and_still()
    app.update(TOAST_SECONDS + 0.1)  # … which goes away
    assert app.needs_redraw()
    drawn_and_still()
    app.handle(pygame.event.Event(pygame.WINDOWEXPOSED))
    assert app.needs_redraw()
    drawn_and_still()
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(900, 560), w=900, h=560))
    assert app.needs_redraw()
    surface = pygame.Surface((900, 560))
    drawn_and_still()
    press(app, pygame.K_SPACE)
    drawn_and_still()
    app.update(0.1)  # playing: every tick is a new picture
    assert app.needs_redraw()


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
    move(app, (x + w * 0.75, y + h / 2))
    assert app.tooltip() == "2 請射 · 15 s"


def test_notes_toggle_shows_the_clauses_note_in_the_panel(app):
    fr = app.timeline.sample(1.0)
    def texts():
        prims, _ = hud.build_hud(app.timeline, fr, app.corpus, SIZE, app.state)
        return [p.text for p in prims if hasattr(p, "text")]

    assert not any("取爵於篚" in t for t in texts())
    press(app, pygame.K_n)
    assert any(t.startswith("注") and "取爵於篚" in t for t in texts())


def modal_colour(img: np.ndarray, box) -> tuple[int, ...]:
    x, y, w, h = (int(v) for v in box)
    px = img[max(y, 0):y + h, max(x, 0):x + w].reshape(-1, 3).astype(np.int64)
    packed = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    top = int(np.argmax(np.bincount(packed)))
    return (top >> 16, (top >> 8) & 255, top & 255)


def hall_on_screen(a: App) -> tuple[int, int, int, int]:
    """The 堂's box in px, within the map and clear of the legend (empty if none shows)."""
    fr = a.framing()
    (x0, y0), (x1, y1) = fr.camera.to_screen(np.array([[-32.0, 30.0], [32.0, 0.0]]))
    mx, my, mw, mh = hud.areas(a.size)["map"]
    lx, ly, lw = fr.legend_at
    top = max(y0, my, ly + 60) if lx < x1 and x0 < lx + lw else max(y0, my)
    left, right, bottom = max(x0, mx), min(x1, mx + mw), min(y1, my + mh)
    return (int(left) + 2, int(top) + 2, max(int(right - left) - 4, 0),
            max(int(bottom - top) - 4, 0))


def assert_a_whole_picture(a: App, img: np.ndarray) -> None:
    """Every pixel painted, the hall in its colour where the hall is, the bar across the
    window's foot, and every layer inside the window."""
    w, h = a.size
    assert img.shape[:2] == (h, w)
    assert not (img.sum(axis=2) == 0).any(), "unpainted (black) pixels"
    bx, by, bw, bh = hud.areas(a.size)["bar"]
    assert (bx, by + bh, bw) == (0, h, w)
    assert modal_colour(img, (bx, by + 2, bw, bh - 2)) == BAR
    for layer in compose(a.model, a.view(), a.size, a.t).layers:
        if layer.clip is not None:
            x, y, cw, ch = layer.clip
            assert 0 <= x <= x + cw <= w and 0 <= y <= y + ch <= h, layer.name
    hall = hall_on_screen(a)
    if hall[2] * hall[3] >= 100:
        assert modal_colour(img, hall) == HALL


def test_resize_refits_into_the_new_window(app):
    app.draw(pygame.Surface(SIZE))
    app.handle(pygame.event.Event(pygame.VIDEORESIZE, size=(1400, 900), w=1400, h=900))
    assert app.size == (1400, 900)
    assert app.camera.viewport == tuple(float(v) for v in hud.areas((1400, 900))["map"])
    surface = pygame.Surface((1400, 900))
    app.draw(surface)
    assert app.size == (1400, 900)
    assert_a_whole_picture(app, pixels(surface))
    assert hall_on_screen(app)[2] > 300  # the hall framed large in the bigger map


@pytest.mark.parametrize("size", [(64, 64), (300, 200), (800, 500), (1280, 800), (2400, 1400)])
def test_any_window_size_draws_a_whole_picture(size, tmp_path):
    a = App(FakeLayout(), fake_timeline(), fake_corpus(), size=size, shots_dir=tmp_path)
    a.seek(6.0)
    surface = pygame.Surface(size)
    a.draw(surface)
    assert a.size == size
    assert_a_whole_picture(a, pixels(surface))
    if size[0] >= 800:  # smaller, the legend covers most of the map
        hall = hall_on_screen(a)
        assert hall[2] * hall[3] >= 100, "the hall is not on screen"
