"""Display lists, camera and break mapping, the pygame back end, the golden image, the font check."""
from __future__ import annotations

import dataclasses
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from viz.draw.camera import Break, Camera, YMap
from viz.draw.display import Circle, Polygon, Text
from viz.draw.scene import (
    SceneOptions,
    actors,
    build_scene,
    facing_vector,
    party_color,
    range_breaks,
    set_down_props,
    short_label,
)
from viz.timeline import ActorInfo, PropInfo, StageSpan, StepSpan, Timeline, build_channel

GOLDEN = Path(__file__).parent / "golden"


# ---------------------------------------------------------------- fakes shared with test_app.py

def _feature(kind, name, pts, closed=True, label=""):
    return SimpleNamespace(kind=kind, name=name, points=np.asarray(pts, float), closed=closed,
                           label=label)


def _rect(x0, y0, x1, y1):
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


class FakeLayout:
    """A small 序 with its court and range, shaped like the documented Layout."""

    name = "fake"
    chi_m = 0.231
    reading = "鄭"

    def __init__(self):
        P = SimpleNamespace
        pl = {"阼階上": (24, 2), "西階上": (-24, 2), "楹間": (0, 10), "賔席": (0, 27),
              "主人席": (26, 14), "右物": (-3, 20), "左物": (3, 20), "中庭": (0, -45),
              "洗": (34, -30), "楅": (34, -42), "乏": (-30, -180), "侯": (0, -280),
              "門": (0, -90), "堂西": (-38, 10), "司射位": (-20, -40), "賔門外": (-300, -4)}
        self.places = {k: P(name=k, x=float(x), y=float(y), region="") for k, (x, y) in pl.items()}
        self.features = (
            _feature("court", "庭", _rect(-45, -90, 45, 0)),
            _feature("hall", "堂", _rect(-32, 0, 32, 30)),
            _feature("wall", "西序", [(-30, 0), (-30, 30)], closed=False),
            _feature("wall", "東序", [(30, 0), (30, 30)], closed=False),
            _feature("pillar", "西楹", [(-10, 10)]),
            _feature("pillar", "東楹", [(10, 10)]),
            _feature("stair", "阼階", _rect(20, -3, 26, 0), label="阼階"),
            _feature("step", "阼階等", [(20, -1), (26, -1)], closed=False),
            _feature("stair", "西階", _rect(-26, -3, -20, 0), label="西階"),
            _feature("beam", "棟", [(-32, 20), (32, 20)], closed=False, label="棟"),
            _feature("basin", "洗", _rect(32, -32, 36, -28), label="洗"),
            _feature("mark", "右物", [(-3, 18.5), (-3, 21.5)], closed=False),
            _feature("mark", "左物", [(3, 18.5), (3, 21.5)], closed=False),
            _feature("blind", "乏", _rect(-32, -181, -28, -179), label="乏"),
            _feature("target", "侯", [(-20, -280), (20, -280)], closed=False),
            _feature("gate", "賔門", _rect(-306, 0, -294, 2), label="賔門"),
        )

    def region_at(self, x, y):
        if x < -200:
            return "elsewhere"
        return "堂" if 0 <= y <= 30 and abs(x) <= 32 else "庭"


def fake_timeline(duration: float = 20.0) -> Timeline:
    """Three people and two props: 主人 walks east → west; 賔 bows; 司射 is absent after t=10."""
    actors_ = [ActorInfo("zhuren", "主人", "主", "主"), ActorInfo("bin", "賔", "賓", "賔"),
               ActorInfo("sishe", "司射", "主", "射")]
    props = [PropInfo("jue", "爵", "爵"), PropInfo("bu", "扑", "扑")]
    stages = [StageSpan(0, "獻賔", "獻賔", 0.0, 10.0, 0, 1),
              StageSpan(1, "請射", "請射", 10.0, duration, 2, 2)]
    steps = [StepSpan(0, 0, 0.0, 5.0, "主人坐取爵", (1600, 1605), (), "x.yaml:1:1"),
             StepSpan(1, 0, 5.0, 10.0, "賔拜", (1610, 1612), ("拜",), "x.yaml:2:1"),
             StepSpan(2, 1, 10.0, duration, "司射請射", (3000, 3004), (), "x.yaml:3:1")]
    motion = build_channel([0, 0, 1, 2], [0.0, 10.0, 0.0, 0.0], x=[20.0, -20.0, 0.0, -20.0],
                           y=[-10.0, -10.0, 27.0, -40.0], face=[90.0, 90.0, 180.0, 90.0])
    posture = build_channel([1, 1], [5.0, 10.0], code=[2, 0], end=[10.0, 10.0],
                            count=[2, 0])  # 再拜: two dips
    presence = build_channel([0, 1, 2, 2], [0.0, 0.0, 0.0, 10.0],
                             present=[True, True, True, False])
    prop_state = build_channel([0, 1], [0.0, 0.0], holder=[0, -1], x=[0.0, 26.0], y=[0.0, 2.0],
                               visible=[True, True])
    caps = {"t0": np.array([5.0]), "t1": np.array([8.0]), "actor": np.array([1]),
            "text": ["敢不敬從"]}
    return Timeline(actors_, props, stages, steps, motion, posture, presence, prop_state, caps,
                    duration)


# ---------------------------------------------------------------- display list

def _near(a, b, tol=1e-9):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), atol=tol)


def test_actor_token_at_its_place_with_a_nose_pointing_east():
    tl = fake_timeline()
    fr = tl.sample(0.0)
    prims = actors(tl, fr, SceneOptions(token_r=1.5, px_per_chi=10.0))
    tokens = [p for p in prims if isinstance(p, Circle) and p.fill == party_color("主")]
    assert [t.center for t in tokens] == [(20.0, -10.0), (-20.0, -40.0)]
    assert tokens[0].r == 1.5
    noses = [p for p in prims if isinstance(p, Polygon) and len(p.points) == 3]
    tip = noses[0].points[0]
    assert _near(tip, (20.0 + 1.5 * 1.6, -10.0))  # east of the token, same y
    labels = [p.text for p in prims if isinstance(p, Text) and p.unit == "chi"]
    assert labels[:2] == ["主", "爵"]


def test_absent_actor_draws_nothing():
    tl = fake_timeline()
    fr = tl.sample(12.0)
    prims = actors(tl, fr, SceneOptions())
    centers = [p.center for p in prims if isinstance(p, Circle)]
    assert (-20.0, -40.0) not in centers
    assert len([c for c in centers]) == 2  # 主人 and 賔 only


def test_held_prop_drawn_at_the_holder_set_down_prop_at_its_place():
    tl = fake_timeline()
    fr = tl.sample(2.0)
    prims = build_scene(FakeLayout(), tl, fr, SceneOptions(place_labels=False, px_per_chi=10.0))
    tags = {p.text: p.pos for p in prims if isinstance(p, Text) and p.bg == (252, 240, 200)}
    x, y = fr.xy[0]
    assert tags["爵"] == (pytest.approx(x + 1.5 * 1.2), pytest.approx(y))
    assert tags["扑"] == (26.0, 2.0)


def test_bow_shrinks_the_token_and_marks_it():
    tl = fake_timeline()
    fr = tl.sample(6.25)  # a quarter into the 5 s bow
    prims = actors(tl, fr, SceneOptions(token_r=1.5, px_per_chi=10.0))
    bin_token = next(p for p in prims if isinstance(p, Circle) and p.center == (0.0, 27.0))
    assert bin_token.r == pytest.approx(1.5 * (1 - 0.28))
    assert any(isinstance(p, Text) and p.text == "再拜" for p in prims)


def test_caption_bubble_over_the_speaker():
    tl = fake_timeline()
    prims = build_scene(FakeLayout(), tl, tl.sample(6.0), SceneOptions(place_labels=False))
    bubble = [p for p in prims if isinstance(p, Text) and p.text == "「敢不敬從」"]
    assert len(bubble) == 1 and bubble[0].pos[1] > 27.0 and bubble[0].anchor == "s"


def test_token_grows_to_a_legible_minimum_when_zoomed_out():
    tl = fake_timeline()
    prims = actors(tl, tl.sample(0.0), SceneOptions(token_r=1.5, token_min_px=12, px_per_chi=4))
    token = next(p for p in prims if isinstance(p, Circle) and p.center == (20.0, -10.0))
    assert token.r == 3.0


def test_short_labels_fit_a_token():
    assert [short_label(s) for s in ("主", "司正", "上射1", "衆3", "舉觶12")] == [
        "主", "司正", "上1", "衆3", "舉12"]


def test_set_down_props_of_a_kind_at_one_place_share_a_tag():
    tl = fake_timeline()
    fr = dataclasses.replace(tl.sample(0.0), prop_holder=np.array([-1, -1]),
                             prop_xy=np.array([[5.0, 5.0], [5.2, 5.1]]),
                             prop_visible=np.array([True, True]))
    tl.props = (PropInfo("a", "矢", "矢"), PropInfo("b", "矢", "矢"))
    tags = [(p.text, p.pos) for p in set_down_props(tl, fr, SceneOptions())]
    assert tags == [("矢×2", (pytest.approx(5.1), pytest.approx(5.05)))]


def test_facing_vector_compass():
    assert _near(facing_vector(0), (0, 1)) and _near(facing_vector(90), (1, 0))
    assert _near(facing_vector(180), (0, -1)) and _near(facing_vector(270), (-1, 0))


# ---------------------------------------------------------------- camera and breaks

def test_camera_north_up_and_round_trip():
    cam = Camera((0, 0, 400, 300), scale=2.0, center=(10.0, 5.0))
    assert _near(cam.to_screen((10.0, 5.0)), (200, 150))
    assert _near(cam.to_screen((10.0, 15.0)), (200, 130))  # north is up
    assert _near(cam.to_screen((20.0, 5.0)), (220, 150))  # east is right
    pts = np.array([[0.0, 0.0], [-30.0, 44.0], [7.5, -3.25]])
    assert _near(cam.to_world(cam.to_screen(pts)), pts)


def test_zoom_keeps_the_point_under_the_cursor():
    cam = Camera((0, 0, 400, 300), scale=2.0)
    before = cam.to_world((330.0, 40.0))
    cam.zoom_at(1.7, (330.0, 40.0))
    assert _near(cam.to_world((330.0, 40.0)), before)
    cam.pan(10, -20)
    assert _near(cam.to_world((340.0, 20.0)), before)


def test_break_compresses_only_inside_and_keeps_order():
    ym = YMap((Break(-100.0, -260.0, 16.0),))
    assert ym.fwd(0.0) == 0.0 and ym.fwd(-100.0) == -100.0
    assert ym.fwd(-260.0) == pytest.approx(-116.0)
    assert ym.fwd(-300.0) == pytest.approx(-156.0)  # below the break: shifted, true scale
    assert ym.fwd(-180.0) == pytest.approx(-108.0)  # halfway through → halfway through the gap
    assert ym.slope(-180.0) == pytest.approx(0.1)


def test_two_breaks_shift_what_lies_between_and_beyond():
    ym = YMap((Break(-100.0, -170.0, 10.0), Break(-190.0, -250.0, 20.0)))
    assert ym.fwd(-170.0) == pytest.approx(-110.0)
    assert ym.fwd(-180.0) == pytest.approx(-120.0)  # between the breaks: true scale
    assert ym.fwd(-190.0) == pytest.approx(-130.0)
    assert ym.fwd(-250.0) == pytest.approx(-150.0)
    assert ym.fwd(-280.0) == pytest.approx(-180.0)


@given(st.floats(-1000, 1000), st.floats(-1000, 1000))
def test_break_mapping_is_monotone_and_invertible(a, b):
    ym = YMap((Break(-100.0, -170.0, 12.0), Break(-190.0, -254.0, 12.0)))
    assert ym.inv(ym.fwd(a)) == pytest.approx(a, abs=1e-6)
    if a < b:
        assert ym.fwd(a) < ym.fwd(b)


def test_fit_shows_the_whole_box_inside_the_viewport():
    cam = Camera((10, 20, 500, 400), breaks=range_breaks(FakeLayout()))
    cam.fit((-45.0, -300.0, 45.0, 30.0), margin=10)
    s = cam.to_screen(np.array([[-45.0, -300.0], [45.0, 30.0]]))
    assert (s[:, 0] >= 10 + 9.99).all() and (s[:, 0] <= 510 - 9.99).all()
    assert (s[:, 1] >= 20 + 9.99).all() and (s[:, 1] <= 420 - 9.99).all()


def test_range_breaks_leave_gate_fa_and_hou_at_true_scale():
    bs = range_breaks(FakeLayout())
    assert len(bs) == 2
    for y in (-90.0, -180.0, -280.0, -262.0, 30.0):  # gate, 乏, 侯, the 侯's laid-flat face, 堂
        assert all(not (b.south < y < b.north) for b in bs)


# ---------------------------------------------------------------- golden image

def _render_small() -> np.ndarray:
    import pygame

    from viz.draw import pgdraw
    pygame.init()
    lay, tl = FakeLayout(), fake_timeline()
    surf = pygame.Surface((320, 200))
    surf.fill((250, 247, 240))
    cam = Camera((0, 0, 320, 200), breaks=range_breaks(lay))
    cam.fit((-48.0, -48.0, 48.0, 32.0), margin=4)  # the hall and the people, legible
    prims = build_scene(lay, tl, tl.sample(6.25),
                        SceneOptions(breaks=cam.breaks, px_per_chi=cam.scale))
    pgdraw.draw(surf, prims, cam)
    return pygame.surfarray.array3d(surf).swapaxes(0, 1).astype(np.int16)


def test_golden_small_plan():
    """320×200 of the fake plan at t=6.25. UPDATE_GOLDEN=1 rewrites it; a failure writes
    small_plan.actual.png and small_plan.diff.png next to the golden."""
    import pygame

    golden = GOLDEN / "small_plan.png"
    img = _render_small()
    if os.environ.get("UPDATE_GOLDEN") or not golden.exists():
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"{golden} missing: run UPDATE_GOLDEN=1 pytest tests/test_draw.py")
        pygame.image.save(pygame.surfarray.make_surface(img.swapaxes(0, 1).astype(np.uint8)),
                          str(golden))
        return
    ref = pygame.surfarray.array3d(pygame.image.load(str(golden))).swapaxes(0, 1).astype(np.int16)
    assert ref.shape == img.shape
    diff = np.abs(img - ref).max(axis=2)
    # anti-aliasing and glyph rasterising may differ by a few levels between builds; a moved or
    # missing shape changes many pixels by a lot
    bad = (diff > 48).mean()
    if bad > 0.004 or diff.mean() > 2.0:
        pygame.image.save(pygame.surfarray.make_surface(img.swapaxes(0, 1).astype(np.uint8)),
                          str(golden.with_suffix(".actual.png")))
        vis = np.zeros_like(img)
        vis[..., 0] = np.clip(diff * 4, 0, 255)
        vis[..., 1] = ref.mean(axis=2) // 3
        vis[..., 2] = ref.mean(axis=2) // 3
        pygame.image.save(pygame.surfarray.make_surface(vis.swapaxes(0, 1).astype(np.uint8)),
                          str(golden.with_suffix(".diff.png")))
        pytest.fail(f"golden differs: {bad:.2%} pixels off by >48, mean {diff.mean():.2f}; "
                    f"see {golden.with_suffix('.actual.png').name} and .diff.png")


# ---------------------------------------------------------------- panel text and labels

@given(st.text(alphabet="主人以賔揖先入，。」the wst ", max_size=80),
       st.floats(40, 300))
def test_wrap_fits_the_width_and_keeps_closing_marks_off_line_starts(s, width):
    from viz.draw.hud import text_width, wrap

    lines = wrap(s, 12, width)
    assert "".join(lines).replace(" ", "") == s.replace(" ", "")
    for line in lines:
        # a line may overhang by the closing marks it kept (kinsoku), nothing else
        assert text_width(line.rstrip("，。」 "), 12) <= width + 1e-9 or len(line.strip()) <= 1
    assert all(not line or line[0] not in "，。」" for line in lines[1:]) or width < 30


def test_real_layout_labels_never_overlap_at_window_scale():
    from viz.draw.scene import place_labels, text_width_em
    from viz.layout import load_layout

    lay = load_layout(Path(__file__).resolve().parents[1] / "layouts" / "xu.yaml")
    scale = 5.0
    texts = [p for p in place_labels(lay, scale) if isinstance(p, Text)]
    assert len(texts) > 20
    boxes = []
    for t in texts:
        w = (text_width_em(t.text) * t.size + 2) / scale
        h = (t.size + 2) / scale
        fx = {"e": 1.0, "w": 0.0}.get(t.anchor, 0.5)
        fy = {"n": 0.0, "s": 1.0}.get(t.anchor, 0.5)
        boxes.append((t.pos[0] - fx * w, t.pos[1] - (1 - fy) * h, t.pos[0] + (1 - fx) * w,
                      t.pos[1] + fy * h))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] - 1e-9 and b[0] < a[2] - 1e-9 and a[1] < b[3] - 1e-9
                        and b[1] < a[3] - 1e-9), (a, b)


def test_props_of_a_kind_in_one_hand_share_a_tag():
    tl = fake_timeline()
    tl.props = (PropInfo("jue", "乘矢", "矢"), PropInfo("bu", "乘矢", "矢"))
    fr = dataclasses.replace(tl.sample(0.0), holding=(("jue", "bu"), (), ()))
    tags = [p.text for p in actors(tl, fr, SceneOptions()) if isinstance(p, Text) and p.bg]
    assert tags == ["矢×2"]
