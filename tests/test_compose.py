"""The frame composer without pixels: layers, framing as a function of the moment, closing, fonts."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from test_draw import FakeLayout, fake_corpus, fake_timeline

from viz.draw import hud
from viz.draw.compose import (
    ManualCamera,
    Model,
    View,
    chars_drawn,
    compose,
    framing,
    inset_body,
)
from viz.draw.display import Circle, Rect, Sprite, Text
from viz.draw.hud import HudState
from viz.model.timeline import ActorInfo, StageSpan, StepSpan, Timeline, build_channel

ROOT = Path(__file__).resolve().parents[1]
SIZE = (960, 600)


def model(timeline=None) -> Model:
    return Model(FakeLayout(), timeline or fake_timeline(), fake_corpus())


def texts(layer) -> list[str]:
    return [p.text for p in layer.prims if isinstance(p, Text)]


def layer(comp, name):
    return next(la for la in comp.layers if la.name == name)


def hud_prims(comp) -> list:
    """The HUD's primitives, its kept panel and bar and what is drawn every frame."""
    return [p for la in comp.layers if la.name.startswith("hud") for p in la.prims]


def hud_texts(comp) -> list[str]:
    return [p.text for p in hud_prims(comp) if isinstance(p, Text)]


def test_the_composer_imports_no_pygame():
    code = "import sys, viz.draw.compose; print('pygame' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_frame_is_plan_people_inset_overlay_hud_in_that_order():
    comp = compose(model(), View(), SIZE, 6.25)
    assert [la.name for la in comp.layers] == [
        "plan", "people", "inset.frame", "inset.plan", "inset.shots", "inset.people", "overlay",
        "hud.panel", "hud.bar", "hud"]
    mbox = hud.areas(SIZE)["map"]
    assert layer(comp, "plan").clip == layer(comp, "people").clip == mbox
    ibox = comp.framing.inset_box
    assert layer(comp, "inset.frame").clip == ibox
    assert layer(comp, "inset.plan").clip == layer(comp, "inset.people").clip == inset_body(ibox)
    for la in comp.layers:
        if la.clip is not None:
            x, y, w, h = la.clip
            assert 0 <= x <= x + w <= SIZE[0] and 0 <= y <= y + h <= SIZE[1], la.name
        if la.key is None:
            continue
        # a kept layer paints all of its clip first, so its pixels may be reused
        first = la.prims[0]
        assert isinstance(first, Rect) and first.box == la.clip and len(first.fill) == 3
    assert [la.name for la in comp.layers if la.key is not None] == [
        "plan", "inset.frame", "inset.plan", "hud.panel", "hud.bar"]


def test_framing_depends_only_on_the_moment_unless_the_user_moved_the_view():
    a, b = model(), model()  # two models: nothing carried from one call to the next
    key = framing(a, SIZE, 6.25).camera.key()
    assert framing(b, SIZE, 6.25).camera.key() == key
    assert framing(a, SIZE, 2.0).camera.key() == key  # the same stage, the same view
    assert framing(a, SIZE, 15.0).camera.key() != key  # the next stage is framed anew
    whole = framing(a, SIZE, 6.25, inset=False)
    assert whole.inset_box is None and whole.camera.key() != key
    mine = ManualCamera(9.0, (3.0, -4.0))
    cam = framing(a, SIZE, 15.0, manual=mine).camera
    assert (cam.scale, cam.center) == (9.0, (3.0, -4.0))
    comp = compose(a, View(camera=mine), SIZE, 15.0)
    assert layer(comp, "plan").camera.key() == cam.key()


def test_composing_twice_gives_the_same_layers():
    one, two = compose(model(), View(), SIZE, 6.25), compose(model(), View(), SIZE, 6.25)
    assert [la.prims for la in one.layers] == [la.prims for la in two.layers]
    assert [la.camera.key() for la in one.layers] == [la.camera.key() for la in two.layers]


class Counting:
    """A timeline that counts its samples."""

    def __init__(self, timeline):
        self._timeline, self.samples = timeline, 0

    def __getattr__(self, name):
        return getattr(self._timeline, name)

    def sample(self, t, closing=False):
        self.samples += 1
        return self._timeline.sample(t, closing)


def test_a_stage_is_measured_once_per_model_and_a_frame_samples_once():
    tl = Counting(fake_timeline())
    m = model(tl)
    compose(m, View(), SIZE, 1.0)
    first = tl.samples
    assert first > 10  # the stage's extent, sampled through it
    compose(m, View(), SIZE, 6.25)  # another step: measured once (who acts in it) …
    step = tl.samples - first - 1
    assert 0 < step <= 10
    compose(m, View(), SIZE, 6.3)  # … and then a frame of it samples once
    assert tl.samples == first + step + 2


def test_closing_shows_the_step_just_finished_not_the_next():
    m = model()
    at_end = compose(m, View(), SIZE, 10.0, closing=True)  # --after 賔拜
    assert "「賔拜」" in hud_texts(at_end)
    assert "再拜" in texts(layer(at_end, "people"))  # the 賔 bowing as he ends
    lit = [p for p in hud_prims(at_end) if isinstance(p, Rect) and p.fill == hud.HILITE]
    hits = {ci for _, ci, _ in at_end.hits.clauses}
    assert len(lit) == 1 and hits == {0, 1}  # 獻賔's clauses, one of them lit
    next_step = compose(m, View(), SIZE, 10.0)
    assert "「司射請射」" in hud_texts(next_step)
    assert "再拜" not in texts(layer(next_step, "people"))


def test_the_tooltip_is_the_last_layer_and_only_where_asked():
    m = model()
    plain = compose(m, View(), SIZE, 0.0)
    assert plain.tooltip == "" and plain.layers[-1].name == "hud"
    x, y = plain.framing.camera.to_screen(fake_timeline().sample(0.0).xy[0])
    comp = compose(m, View(mouse=(x, y)), SIZE, 0.0)
    assert comp.tooltip == "主人 · 立 · 執爵"
    assert comp.layers[-1].name == "tooltip" and texts(comp.layers[-1]) == [comp.tooltip]


def _at_the_gate() -> Timeline:
    """The 主人 goes to the 賔's gate (-300, -4), then comes home."""
    return Timeline([ActorInfo("zhuren", "主人", "主", "主")], [],
                    [StageSpan(0, "戒賔", "戒賔", 0.0, 5.0, 0, 0),
                     StageSpan(1, "迎賔", "迎賔", 5.0, 10.0, 1, 1)],
                    [StepSpan(0, 0, 0.0, 5.0, "主人戒賔", (0, 4), (), "x:1:1"),
                     StepSpan(1, 1, 5.0, 10.0, "迎", (0, 1), (), "x:2:1")],
                    {"motion": build_channel([0, 0], [0.0, 5.0], "linear", x=[-300.0, 0.0],
                                             y=[-4.0, -85.0], face=[90.0, 0.0]),
                     "presence": build_channel([0], [0.0], present=[True])},
                    [], 10.0)


def test_when_everyone_is_at_the_guests_gate_the_view_goes_there():
    m = Model(FakeLayout(), _at_the_gate())
    mx, my, mw, mh = hud.areas(SIZE)["map"]
    there = compose(m, View(), SIZE, 0.0)
    assert there.framing.kind == "elsewhere" and there.framing.inset_box is None
    sx, sy = there.framing.camera.to_screen((-300.0, -4.0))
    assert mx < sx < mx + mw and my < sy < my + mh  # the 賔門 is on screen
    assert hud.ELSEWHERE in hud_texts(there)
    home = compose(m, View(), SIZE, 7.0)
    assert home.framing.kind == "site" and home.framing.inset_box is not None
    sx, sy = home.framing.camera.to_screen((0.0, 15.0))
    assert mx < sx < mx + mw and my < sy < my + mh  # back at the school


@pytest.mark.parametrize("t", [0.0, 6.25, 10.0, 15.0])
def test_every_character_drawn_is_in_chars_drawn(t):
    m = model()
    known = set(chars_drawn(m))
    x, y = compose(m, View(), SIZE, t).framing.camera.to_screen(fake_timeline().sample(t).xy[0])
    bar = hud.bar_track(SIZE)
    views = [View(), View(mouse=(x, y)), View(mouse=(bar[0] + 5, bar[1] + 5)),
             View(hud=HudState(help=True, show_notes=True, search="賔拜")), View(inset=False)]
    for view in views:
        for la in compose(m, view, SIZE, t).layers:
            for text in texts(la):
                assert set(text) <= known, (la.name, text, set(text) - known)
    for la in compose(Model(FakeLayout(), _at_the_gate()), View(), SIZE, 0.0).layers:
        for text in texts(la):
            assert set(text) <= set(chars_drawn(Model(FakeLayout(), _at_the_gate()))), text


def test_chars_drawn_is_what_can_be_drawn_not_source_code():
    drawn = chars_drawn(model())
    assert "def " not in drawn and "import" not in drawn and "按鍵" in drawn and "再拜" in drawn


def test_the_inset_draws_only_those_on_the_range(corpus, bundled):
    """The range inset is a view of its own: at 左个之西北三步 (獻獲者) the 司射 stands at his place
    in the court, 80 尺 north of the inset's top; his tag (弓·矢·扑) was placed inside the inset,
    under its title, because the inset took in everyone within 240 px of it."""
    from viz.query.state import step_after
    got = bundled
    tl = got.timeline
    m = Model(got.layout, tl, corpus)
    t = tl.steps[step_after(tl, corpus, "左个之西北三歩東面設薦俎")].t1
    comp = compose(m, View(), (1280, 800), t, closing=True)

    # (at this zoom what they hold is a glyph, not a tag: their tokens, a person's Sprite or a
    # formation's dot, tell who is drawn)
    def where(la) -> list[tuple[float, float]]:
        return [p.at for p in la.prims if isinstance(p, Sprite)] + [
            p.center for p in la.prims if isinstance(p, Circle) and p.stroke == (20, 16, 12)]

    inset, main = where(layer(comp, "inset.people")), where(layer(comp, "people"))
    sishe = tl.sample(t, True).xy[tl.actor_index["sishe"]]

    def near(pts, cam) -> bool:  # drawn on the view's whole pixels: within half a px
        return any(math.hypot(x - sishe[0], y - sishe[1]) * cam.scale <= 0.75 for x, y in pts)
    assert near(main, comp.framing.camera) and not near(inset, comp.framing.inset)
    assert inset and all(y <= m.range[3] + 3.0 for _, y in inset)  # the 獲者, on the range
