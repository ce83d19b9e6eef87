"""The window's new choices headless: select a person (trail, next move, follow), where they were,
readings switched and compared from the same clause, edits reloaded with an error overlay."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import dataclasses
from types import SimpleNamespace

import numpy as np
import pygame
import pytest
from test_draw import FakeLayout, fake_corpus, fake_timeline

from viz.app.readings import POLL_SECONDS
from viz.app.window import App
from viz.base.errors import Loc, Problem
from viz.draw import ghosts, hud, trails
from viz.draw.compose import ManualCamera, View, column_w, compose, framing
from viz.draw.display import Circle, Line, Text
from viz.model.reload import Result
from viz.model.timeline import Timeline, build_channel

SIZE = (960, 600)


class Layout(FakeLayout):
    """The fake 序 with the documented Layout.nearest_place, which the panel names moves by."""

    def nearest_place(self, x, y) -> str:
        return min(self.places.values(), key=lambda p: (p.x - x) ** 2 + (p.y - y) ** 2).name


@pytest.fixture(scope="module", autouse=True)
def _pygame():
    pygame.init()
    yield


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def press(app, k, mod=0):
    """A key pressed and let go (a KEYDOWN alone, then another, is the key held: a repeat)."""
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))
    app.handle(pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def click(app, pos, to=None):
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    if to is not None:
        app.handle(pygame.event.Event(pygame.MOUSEMOTION, pos=to, rel=(to[0] - pos[0],
                                      to[1] - pos[1]), buttons=(1, 0, 0)))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=to or pos, button=1))


def on_screen(app, actor):
    return tuple(app.camera.to_screen(app.timeline.sample(app.t, app.closing).xy[actor]))


def layer(comp, name):
    return next((la for la in comp.layers if la.name == name), None)


def composed(app):
    return compose(app.model, app.view(), app.size, app.t, app.closing)


def panel_texts(app) -> list[str]:
    return [p.text for la in composed(app).layers if la.name.startswith("hud") for p in la.prims
            if isinstance(p, Text)]


# ---------------------------------------------------------------- a second reading, faked

def later_and_elsewhere(tl: Timeline, k: float = 2.0, shift: float = 6.0) -> Timeline:
    """The fake rite as another reading might have it: every time k× later, the 司射 `shift`
    尺 further east; the same steps citing the same words."""
    def ch(c, **scaled):
        vals = {n: (v * k if n in scaled else v) for n, v in c.values.items()}
        if c is tl.channels["motion"]:
            vals["x"] = np.where(c.owner == 2, vals["x"] + shift, vals["x"])
        return build_channel(c.owner, c.t * k, c.interp, writer=c.writer, **vals)

    channels = {n: ch(c, **({"end": 1} if n == "posture" else {})) for n, c in tl.channels.items()}
    stages = [dataclasses.replace(s, t0=s.t0 * k, t1=s.t1 * k) for s in tl.stages]
    steps = [dataclasses.replace(s, t0=s.t0 * k, t1=s.t1 * k) for s in tl.steps]
    events = [dataclasses.replace(e, t0=e.t0 * k, t1=e.t1 * k) for e in tl.events]
    return Timeline(tl.actors, tl.props, stages, steps, channels, events, tl.duration * k)


class AoLayout(Layout):
    """敖's reading of the fake 序: the 乏 20 尺 further west, everything else the same."""

    def __init__(self):
        super().__init__()
        self.features = tuple(
            SimpleNamespace(**{**vars(f), "points": np.asarray(f.points, float) + (-20.0, 0.0)})
            if f.kind == "blind" else f for f in self.features)


class FakeReloader:
    """viz.model.reload.Reloader's interface over two fake compiles, 鄭 and 敖; counts its polls."""

    def __init__(self):
        self.compiled = {(): self._compiled(fake_timeline(), ()),
                         ("敖",): self._compiled(later_and_elsewhere(fake_timeline()), ("敖",),
                                                AoLayout())}
        self.readings: tuple[str, ...] = ()
        self.checks = 0
        self.next_check: Result | None = None

    @staticmethod
    def _compiled(tl, readings, layout=None):
        from viz.model.rite import Compiled

        return Compiled(layout or Layout(), fake_corpus(), None, tl, (), readings)

    @property
    def current(self):
        return self.compiled[self.readings]

    def known_readings(self) -> list[str]:
        return ["鄭", "敖", "欽定"]  # 欽定 is named but does not compile

    def for_readings(self, rs) -> Result:
        key = tuple(r for r in rs if r != "鄭")
        if key not in self.compiled:
            return Result(False, None, [Problem(Loc("--reading", 1, 1), "unknown")])
        return Result(True, self.compiled[key])

    def set_readings(self, rs) -> Result:
        got = self.for_readings(rs)
        if got.ok:
            self.readings = got.compiled.readings
        return got

    def check(self) -> Result | None:
        self.checks += 1
        return self.next_check

    def reload(self, texts=None) -> Result:
        return self.next_check or Result(True, self.current)


@pytest.fixture
def app(tmp_path):
    return App(Layout(), fake_timeline(), fake_corpus(), size=SIZE, shots_dir=tmp_path)


@pytest.fixture
def live(tmp_path):
    r = FakeReloader()
    c = r.current
    return App(c.layout, c.timeline, c.corpus, size=SIZE, shots_dir=tmp_path, reloader=r)


# ---------------------------------------------------------------- selection

def test_clicking_a_person_selects_him_and_draws_his_stage_trail(app):
    click(app, on_screen(app, 0))
    assert app.selected == 0
    comp = composed(app)
    dotted = [p for p in layer(comp, "marks").prims if isinstance(p, Line) and p.dash]
    want = trails.path(app.timeline, 0, 0.0, 10.0)  # the whole of stage 1
    assert len(dotted) == 1 and np.allclose(dotted[0].points, want)
    assert np.allclose(want, [(20, -10), (-20, -10)])
    ring = [p for p in layer(comp, "selection").prims if isinstance(p, Circle)]
    assert [r.center for r in ring] == [(20.0, -10.0)]  # where he is now
    names = [la.name for la in comp.layers]
    assert names.index("marks") < names.index("people") < names.index("selection")


def test_a_trail_is_cut_to_what_the_view_shows():
    box = (0.0, 0.0, 10.0, 10.0)
    path = np.array([(-10.0, 5.0), (5.0, 5.0), (5.0, 20.0), (30.0, 20.0), (5.0, 8.0), (8.0, 8.0)])
    pieces = ghosts.clip_path(path, box)
    assert len(pieces) == 2
    assert np.allclose(pieces[0], [(0, 5), (5, 5), (5, 10)])
    # back in through the top edge, 10/12 of the way down (30, 20) → (5, 8)
    assert np.allclose(pieces[1], [(30 - 25 * 10 / 12, 10), (5, 8), (8, 8)])
    assert ghosts.clip_path(np.array([(20.0, 20.0), (30.0, 30.0)]), box) == []
    inside = np.array([(1.0, 1.0), (2.0, 3.0)])
    assert np.allclose(ghosts.clip_path(inside, box)[0], inside)
    dashed = [p for p in ghosts.trail_prims(path, None, 1.0, False, box) if isinstance(p, Line)]
    assert len(dashed) == 2  # the marks of its ends are kept whole


def test_click_elsewhere_or_esc_clears_and_a_second_esc_quits(app):
    click(app, on_screen(app, 1))
    assert app.selected == 1
    click(app, (30, 30))  # the map, far from anyone
    assert app.selected is None
    click(app, on_screen(app, 1))
    press(app, pygame.K_ESCAPE)
    assert app.selected is None and app.running
    assert layer(composed(app), "marks") is None and layer(composed(app), "selection") is None
    press(app, pygame.K_ESCAPE)
    assert not app.running


def test_a_trembling_click_selects_a_drag_pans_and_selects_nobody(app):
    x, y = on_screen(app, 0)
    click(app, (x, y), to=(x + 2, y + 1))
    assert app.selected == 0 and app.manual is None
    click(app, (x, y), to=(x + 40, y + 10))
    assert app.selected == 0 and app.manual is not None  # a pan keeps the selection


def test_the_panel_gives_his_next_move_with_its_clause_and_places(app):
    click(app, on_screen(app, 0))
    texts = panel_texts(app)
    assert any(t.startswith("選 主人") for t in texts)
    assert "下一行：「主人坐取爵」" in texts
    assert any("阼階上 →" in t and "20.0 尺" in t for t in texts)
    app.seek(7.0)  # half-way through his walk in 賔拜
    assert "正行：「賔拜」" in panel_texts(app)
    app.seek(10.0, closing=True)  # he has arrived; nothing more to walk
    assert "此後不復行 (no more moves)" in panel_texts(app)
    click(app, on_screen(app, 1))  # the 賔 never walks
    assert "此後不復行 (no more moves)" in panel_texts(app)


def test_next_move_skips_a_step_in_which_he_only_stands():
    tl = fake_timeline()
    mv = ghosts.next_move(tl, Layout(), 0, 5.0, closing=True)  # after step 1, before step 2
    assert mv is not None and mv.step == 1 and not mv.now
    assert mv.length == pytest.approx(20.0)
    assert ghosts.next_move(tl, Layout(), 2, 0.0) is None  # the 司射 leaves, never walks


def test_c_follows_him_centred_until_a_pan_zoom_or_f(app):
    press(app, pygame.K_c)
    assert not app.following and app.state.toast.startswith("先點選一人")
    click(app, on_screen(app, 0))
    press(app, pygame.K_c)
    mx, my, mw, mh = hud.areas(SIZE)["map"]
    free = mw - column_w(SIZE)  # the inset's column takes the right of the map
    for t in (0.0, 3.0, 7.5):
        app.seek(t)
        # within the pixel the camera snaps to
        assert on_screen(app, 0) == pytest.approx((mx + free / 2, my + mh / 2), abs=0.51)
    assert any("隨之 following" in t for t in panel_texts(app))
    press(app, pygame.K_i)  # no inset: he is centred in the whole map, still followed
    assert app.following and on_screen(app, 0) == pytest.approx((mx + mw / 2, my + mh / 2),
                                                                abs=0.51)
    app.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0,
                                  flipped=False))
    assert not app.following
    press(app, pygame.K_c)
    press(app, pygame.K_f)  # F: everything (the stage whole), no longer following …
    whole = framing(app.model, app.size, app.t, app.closing, app.inset_on, whole=True).camera
    assert not app.following and app.manual == ManualCamera(whole.scale, whole.center)
    press(app, pygame.K_f)  # … F again: the framing of the moment, which follows the action
    assert app.manual is None


def test_g_shows_where_everyone_was_at_the_end_of_the_previous_step(app):
    app.seek(7.0)
    assert layer(composed(app), "marks") is None
    press(app, pygame.K_g)
    marks = layer(composed(app), "marks").prims
    faint = [p for p in marks if isinstance(p, Circle) and p.fill and len(p.fill) == 4]
    before = app.timeline.sample(5.0, closing=True)
    assert sorted(c.center for c in faint) == sorted(
        (float(x), float(y)) for x, y in before.xy[before.present])
    assert (0.0, -10.0) in [c.center for c in faint]  # the 主人 half-way, at step 1's start
    # a line from where he was to where he is, for the one who moved
    assert [p.points[0] for p in marks if isinstance(p, Line)] == [(0.0, -10.0)]
    inset = layer(composed(app), "inset.marks").prims  # the range inset shows them too
    assert [getattr(p, "center", None) for p in inset] == [getattr(p, "center", None)
                                                          for p in marks]
    app.seek(2.0)  # the first step has nothing before it
    assert layer(composed(app), "marks") is None
    press(app, pygame.K_g)
    app.seek(7.0)
    assert layer(composed(app), "marks") is None


def test_selection_ghosts_and_follow_redraw_only_when_changed(app):
    surface = pygame.Surface(SIZE)
    app.draw(surface)
    assert not app.needs_redraw()
    for act in (lambda: click(app, on_screen(app, 0)), lambda: press(app, pygame.K_g),
                lambda: press(app, pygame.K_c)):
        act()
        assert app.needs_redraw()
        app.draw(surface)
        assert not app.needs_redraw()
        app.update(0.5)  # paused: nothing moves, nothing is drawn
        assert not app.needs_redraw()


def test_a_paused_compare_and_a_failed_reload_redraw_once_then_idle(live):
    surface = pygame.Surface(SIZE)
    live.draw(surface)
    for act in (lambda: press(live, pygame.K_v),
                lambda: live.apply_reload(Result(False, None, [Problem(Loc("a", 1, 1), "x")])),
                lambda: press(live, pygame.K_r)):
        act()
        assert live.needs_redraw()
        live.draw(surface)
        live.update(5.0)  # the toast goes: one more picture
        live.draw(surface)
        live.update(0.5)
        live.poll(POLL_SECONDS)  # the files asked, nothing changed
        assert not live.needs_redraw()


def test_help_lists_the_new_keys():
    keys = dict(hud.KEYS)
    for k in ("C", "G", "R", "V  Shift+R", "點人／物 click", "D"):
        assert k in keys
    prims = hud.help_overlay(SIZE)
    assert {k for k, _ in hud.KEYS} <= {p.text for p in prims if isinstance(p, Text)}
    assert max(p.pos[1] for p in prims if isinstance(p, Text)) < SIZE[1]


# ---------------------------------------------------------------- readings

def test_without_a_reloader_the_window_names_no_reading_and_r_says_so(app):
    assert not any(t.startswith("讀法") for t in panel_texts(app))
    press(app, pygame.K_r)
    assert app.state.toast.startswith("只有一讀")


def test_r_switches_reading_keeping_the_clause_not_the_second(live):
    live.seek(7.5)  # half-way through 賔拜 (5–10 s)
    click(live, on_screen(live, 0))
    assert "讀法 鄭" in panel_texts(live)
    press(live, pygame.K_r)
    assert live.reading_name() == "敖"
    step = live.timeline.steps[live.timeline.step_at(live.t)]
    assert step.cite == "賔拜" and live.t == pytest.approx(15.0)  # 10–20 s in 敖
    assert "讀法 敖" in panel_texts(live) and live.selected == 0
    press(live, pygame.K_r)  # 欽定 does not compile: passed over, back to 鄭
    assert live.reading_name() == "鄭" and live.t == pytest.approx(7.5)
    assert live._bad.keys() == {"欽定"}
    press(live, pygame.K_r)
    assert live.reading_name() == "敖"


def test_clause_time_keeps_a_closing_moment_and_the_nth_repeat():
    a, b = fake_timeline(), later_and_elsewhere(fake_timeline())
    assert ghosts.clause_time(a, b, 10.0, True) == (20.0, True)
    assert ghosts.clause_time(a, b, 0.0) == (0.0, False)
    assert ghosts.clause_time(a, b, 15.0) == pytest.approx((30.0, False))


def test_the_panel_lists_who_differs_where_the_step_leaves_them():
    a = fake_timeline()
    m = a.channels["motion"]
    x = m.values["x"].copy()
    x[(m.owner == 0) & (m.t == 10.0)] = -14.0  # the other reading ends his walk 6 尺 east
    channels = {**a.channels, "motion": build_channel(m.owner, m.t, m.interp, writer=m.writer,
                                                      **{**m.values, "x": x})}
    b = Timeline(a.actors, a.props, a.stages, a.steps, channels, a.events, a.duration)
    now = ghosts.differences(a, a.sample(2.5), b, b.sample(2.5))
    assert [(d.name, round(d.dist, 2)) for d in now] == [("主人", 1.5)]  # half-way there
    ends = ghosts.step_differences(a, b, 2.5)  # step 0 ends at 5 s: 3 尺 apart
    assert [(d.name, round(d.dist, 2)) for d in ends] == [("主人", 3.0)]
    assert [d.dist for d in ghosts.step_differences(a, b, 7.5)] == [6.0]


def test_v_draws_the_second_reading_hollow_and_lists_who_differs(live):
    live.seek(2.5)
    press(live, pygame.K_v)
    v = live.view()
    assert v.compare is not None and v.compare.reading == "敖" and v.compare.t == 5.0
    marks = layer(composed(live), "marks").prims
    hollow = [p for p in marks if isinstance(p, Circle) and p.fill is None]
    assert (-14.0, -40.0) in [c.center for c in hollow]  # the 司射, 6 尺 east in 敖
    assert [p.points for p in marks if isinstance(p, Line) and not p.dash] == [
        ((-20.0, -40.0), (-14.0, -40.0))]
    texts = panel_texts(live)
    assert any(t.startswith("比較 鄭 vs 敖") for t in texts)
    assert "　司射　差 6.0 尺" in texts and not any("主人　差" in t for t in texts)
    press(live, pygame.K_r)  # now showing 敖: the comparison turns round to 鄭
    assert live.view().compare.reading == "鄭"
    press(live, pygame.K_v)
    assert live.view().compare is None


def test_a_reading_asked_by_a_short_name_is_not_compared_with_itself(tmp_path):
    class ShortNames(FakeReloader):
        def known_readings(self):
            return ["鄭", "敖繼公"]

        def for_readings(self, rs):
            return super().for_readings(tuple("敖" if r == "敖繼公" else r for r in rs))

    r = ShortNames()
    r.set_readings(("敖",))  # as `play --reading 敖`
    c = r.current
    a = App(c.layout, c.timeline, c.corpus, size=SIZE, shots_dir=tmp_path, reloader=r)
    press(a, pygame.K_v)
    assert a.reading_name() == "敖" and a.compare_reading == "鄭"
    press(a, pygame.K_r, pygame.KMOD_SHIFT)  # the next to compare: none but 鄭 again
    assert a.compare_reading == "鄭"


def test_compare_outlines_what_the_other_reading_moves_and_the_inset_shows_it(live):
    plain = composed(live).framing.inset.key()
    press(live, pygame.K_v)
    comp = composed(live)
    fa = next(f for f in AoLayout().features if f.kind == "blind")
    dashed = [p for p in layer(comp, "marks").prims if isinstance(p, Line) and p.dash]
    assert len(dashed) == 1 and np.allclose(dashed[0].points, fa.points) and dashed[0].closed
    x, y, w, h = comp.framing.inset.viewport
    for px, py in comp.framing.inset.to_screen(np.asarray(fa.points)):
        assert x <= px <= x + w and y <= py <= y + h  # the inset widened to take it in
    assert comp.framing.inset.key() != plain
    assert layer(comp, "inset.marks") is not None


def test_shift_r_compares_and_an_unknown_reading_is_said_not_raised(live):
    press(live, pygame.K_r, mod=pygame.KMOD_LSHIFT)
    assert live.compare_reading == "敖" and live.reading_name() == "鄭"
    assert not live.set_reading("欽定") and live.state.toast.startswith("讀法 欽定 未成")
    assert live.reading_name() == "鄭"


# ---------------------------------------------------------------- edits

def test_a_failed_reload_overlays_its_messages_and_keeps_playing(live):
    tl = live.timeline
    press(live, pygame.K_SPACE)
    bad = Result(False, None, [Problem(Loc("sections/x.yaml", 3, 7), "expected a mapping"),
                               Problem(Loc("cast.yaml", 1, 1), "file not found")])
    live.apply_reload(bad)
    assert live.state.problems == ("sections/x.yaml:3:7: expected a mapping",
                                   "cast.yaml:1:1: file not found")
    texts = panel_texts(live)
    from viz.base.lang import tr

    assert "sections/x.yaml:3:7: expected a mapping" in texts and tr(hud.PROBLEMS) in texts
    live.update(1.0)
    assert live.timeline is tl and live.t == pytest.approx(1.0)
    surface = pygame.Surface(SIZE)
    live.draw(surface)
    assert not live.needs_redraw() or live.state.playing


def test_overlay_paths_are_shown_from_the_current_folder(live, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    inside, outside = str(tmp_path / "rite" / "cast.yaml"), "/elsewhere/x.yaml"
    live.apply_reload(Result(False, None, [Problem(Loc(inside, 4, 2), "bad"),
                                           Problem(Loc(outside, 1, 1), "gone")]))
    assert live.state.problems == (os.path.join("rite", "cast.yaml") + ":4:2: bad",
                                   "/elsewhere/x.yaml:1:1: gone")


def test_a_good_reload_plays_from_the_same_clause_and_clears_the_overlay(live):
    live.seek(7.5)
    live.apply_reload(Result(False, None, [Problem(Loc("a.yaml", 1, 1), "bad")]))
    new = FakeReloader()._compiled(later_and_elsewhere(fake_timeline()), ())
    live.apply_reload(Result(True, new, seconds=0.01))
    assert live.state.problems == () and live.timeline is new.timeline
    assert live.t == pytest.approx(15.0)  # 賔拜, half-way, in the new timing


def test_poll_asks_the_files_every_half_second_only(live):
    live.poll(POLL_SECONDS * 0.6)
    assert live.reloader.checks == 0
    live.poll(POLL_SECONDS * 0.6)
    assert live.reloader.checks == 1
    live.reloader.next_check = Result(False, None, [Problem(Loc("m.yaml", 2, 1), "bad")])
    live.poll(POLL_SECONDS)
    assert live.state.problems == ("m.yaml:2:1: bad",)


def test_the_error_overlay_draws_over_the_map_inside_the_window(live):
    many = Result(False, None, [Problem(Loc("f.yaml", k, 1), "x" * 300) for k in range(1, 30)])
    live.apply_reload(many)
    prims, _ = hud.build_hud(live.timeline, live.timeline.sample(0.0), live.corpus, SIZE,
                             live.state)
    texts = [p for p in prims if isinstance(p, Text)]
    assert any(t.text == "… 另 17 條" for t in texts)
    mx, my, mw, mh = hud.areas(SIZE)["map"]
    assert all(t.pos[0] < mx + mw for t in texts if t.text.startswith("f.yaml"))


def test_view_defaults_draw_as_before(app):
    """A shot (default View) has none of the window's choices."""
    v = View()
    assert v.selected is None and not v.ghosts and v.compare is None
    assert [la.name for la in compose(app.model, v, SIZE, 7.0).layers] == [
        "plan", "people", "inset.frame", "inset.plan", "inset.shots", "inset.people", "overlay",
        "hud.panel", "hud.bar", "hud"]


# ---------------------------------------------------------------- the bundled rite, live

@pytest.fixture(scope="module")
def rite_reloader():
    from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
    from viz.model.reload import Reloader

    r = Reloader(DEFAULT_SCRIPT, DEFAULT_LAYOUT)
    assert r.result.ok, r.result.problems
    return r


@pytest.fixture
def rite_app(rite_reloader, tmp_path):
    assert rite_reloader.set_readings(()).ok
    c = rite_reloader.current
    a = App(c.layout, c.timeline, c.corpus, size=(1280, 800), shots_dir=tmp_path,
            reloader=rite_reloader)
    step = next(s for s in a.timeline.steps if s.cite == "當左物北面揖")
    a.seek(step.t1, closing=True)
    return a


@pytest.mark.slow
def test_ao_moves_the_sishe_to_his_own_wu_at_the_same_clause(rite_app):
    a = rite_app
    sishe = next(i for i, p in enumerate(a.timeline.actors) if p.name == "司射")
    zheng = a.timeline.sample(a.t, a.closing).xy[sishe].copy()
    press(a, pygame.K_v)
    assert a.compare_reading == "敖繼公"
    texts = panel_texts(a)
    assert any(t.startswith("　司射　差") for t in texts), texts
    press(a, pygame.K_r)
    assert a.reading_name() == "敖繼公" and a.closing
    assert a.timeline.steps[a.timeline.step_at(a.t, True)].cite == "當左物北面揖"
    ao = a.timeline.sample(a.t, a.closing).xy[sishe]
    assert np.hypot(*(ao - zheng)) > 0.1  # 敖's 物 stand elsewhere
    assert "讀法 敖繼公" in panel_texts(a)


@pytest.mark.slow  # a Reloader of the whole rite (6 s); test_reload's are small
def test_saving_broken_empty_or_deleted_files_overlays_and_fixing_clears(rite_app):
    a = rite_app
    tl, t = a.timeline, a.t
    cite = tl.steps[tl.step_at(t, True)].cite
    section = next(f for f in a.reloader.current.script.files if f.endswith("誘射.yaml"))
    name = os.path.basename(section)
    for text in ("stages: [\n", "", None, "\ufeff\x00"):
        a.reload({section: text})
        assert a.state.problems, text
        assert all(p.split(":")[1].isdigit() and p.split(":")[2].isdigit()
                   for p in a.state.problems), a.state.problems
        assert any(name in p for p in a.state.problems)
        assert a.timeline is tl and a.t == t  # the last good rite keeps playing
    a.reload()  # the file as it is on disk again
    assert a.state.problems == ()
    assert a.timeline.steps[a.timeline.step_at(a.t, a.closing)].cite == cite


@pytest.mark.slow
def test_random_keys_clicks_resizes_switches_and_reloads_never_raise(live):
    """A short soak: whatever the user does and whatever is saved, the window keeps going."""
    rng = np.random.default_rng(7)
    keys = [pygame.K_SPACE, pygame.K_RIGHT, pygame.K_LEFT, pygame.K_END, pygame.K_HOME,
            pygame.K_c, pygame.K_g, pygame.K_r, pygame.K_v, pygame.K_f, pygame.K_i, pygame.K_h,
            pygame.K_PLUS, pygame.K_ESCAPE, pygame.K_l, pygame.K_TAB, pygame.K_DOWN,
            pygame.K_RETURN, pygame.K_BACKSPACE, pygame.K_PAGEDOWN]
    good = FakeReloader()
    results = [Result(False, None, [Problem(Loc("x.yaml", 1, 1), "bad")]), Result(False, None),
               Result(True, good.compiled[()]), Result(True, good.compiled[("敖",)])]
    surface = pygame.Surface(SIZE)
    listed = 0  # draws with the stage list open
    for n in range(250):
        r = rng.integers(0, 10)
        if r < 4 and rng.random() < 0.2:  # typed text: the stage list's or the search's
            live.handle(pygame.event.Event(pygame.TEXTINPUT, text="取3燕x"[rng.integers(4)]))
        elif r < 4:
            k = keys[rng.integers(len(keys))]
            press(live, k, pygame.KMOD_SHIFT if rng.random() < 0.2 else 0)
            live.running = True  # Esc may quit; the soak goes on
        elif r < 6:
            pos = (float(rng.uniform(0, SIZE[0])), float(rng.uniform(0, SIZE[1])))
            click(live, pos, to=None if rng.random() < 0.7 else (pos[0] + 30, pos[1]))
        elif r < 7:
            live.apply_reload(results[rng.integers(len(results))])
        elif r < 8:
            size = (int(rng.integers(300, 1400)), int(rng.integers(200, 900)))
            live.handle(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
            surface = pygame.Surface(size)
        else:
            live.update(float(rng.uniform(0, 3)))
        if n % 5 == 0:
            live.draw(surface)
            listed += live.state.stages is not None
            assert 0.0 <= live.t <= live.timeline.duration
    assert listed > 0  # the soak went through the stage list too


@pytest.mark.slow  # the whole rite's Reloader
def test_the_window_and_the_command_line_know_the_same_readings(rite_reloader):
    """R cycles through what `--reading` accepts (viz.model.rite.Rite.known_readings: the
    readings that move something), not every name a note-only variant gives."""
    from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
    from viz.model.rite import Rite

    assert rite_reloader.set_readings(()).ok
    cli = Rite(DEFAULT_SCRIPT, DEFAULT_LAYOUT).known_readings()
    assert rite_reloader.known_readings() == cli
    assert cli[:2] == ["鄭", "敖繼公"] and "聘禮注" not in cli  # 聘禮注: a note, no move
    c = rite_reloader.current
    a = App(c.layout, c.timeline, c.corpus, size=(640, 400), reloader=rite_reloader)
    assert a.readings.known_readings() == cli
