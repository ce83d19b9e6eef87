"""The 侯 inset tells hits from misses (issue 27): hits drawn inside the 侯's drawn box, misses
outside it, the counts as the model has them, and the 乏's name under no token."""
from __future__ import annotations

import math

import pytest

from viz.draw import inset as range_inset
from viz.draw import labels, scene
from viz.draw.compose import Model, View, compose, inset_body
from viz.draw.display import Circle, Line, Sprite, Text

SIZE = (1366, 768)


@pytest.fixture(scope="module")
def rite(bundled):  # conftest's one compiled bundled rite a run
    return bundled, Model(bundled.layout, bundled.timeline, bundled.corpus)


def layer(comp, name):
    return next(la for la in comp.layers if la.name == name)


def model_counts(tl, t: float) -> tuple[int, int]:
    """(hits, misses) among the arrows lying on the range at t, from the compile's shots: each
    arrow's last shot landed by t, the arrow still set down where it landed."""
    fr = tl.sample(t, True)
    last = {}
    for e in sorted(tl.scoring["shots"], key=lambda e: e["t_land"]):
        if e["t_land"] <= t:
            last[e["prop"]] = e
    hit = miss = 0
    for pid, e in last.items():
        j = tl.prop_index[pid]
        if fr.prop_holder[j] < 0 and fr.prop_visible[j] and math.hypot(
                fr.prop_xy[j, 0] - e["x"], fr.prop_xy[j, 1] - e["y"]) < 0.5:
            hit, miss = hit + e["hit"], miss + (not e["hit"])
    return hit, miss


def inside(box, x, y, m=0.0) -> bool:
    return box[0] + m <= x <= box[2] - m and box[1] + m <= y <= box[3] - m


def meets(box, a, b) -> bool:
    """Whether the segment a–b touches the box (sampled finely)."""
    return any(inside(box, a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20)
               for k in range(21))


@pytest.mark.parametrize("stage", ["初射獲而未釋獲", "三射用樂"])
def test_hits_on_the_hou_misses_apart_counts_as_the_model_and_the_fa_named_in_the_clear(
        rite, stage):
    got, m = rite
    tl = got.timeline
    st = next(s for s in tl.stages if s.name == stage)
    t = st.t1  # after the shooting: the round's arrows lie on the range
    comp = compose(m, View(), SIZE, t, closing=True)
    fr = comp.framing
    assert fr.inset is not None, "the inset is drawn after shooting"
    face = range_inset.face_px(got.layout, fr.inset)
    shots = layer(comp, "inset.shots").prims
    hits = [p for p in shots if isinstance(p, Circle) and p.fill == range_inset.HIT_INK]
    misses = [p for p in shots if isinstance(p, Line) and p.color == range_inset.MISS_INK]
    hit, miss = model_counts(tl, t)
    assert hit > 0 and miss > 0  # both kinds lie there, so the test tells them apart
    assert (len(hits), len(misses)) == (hit, miss)
    for c in hits:  # each dot wholly inside the 侯's drawn box
        assert c.screen and inside(face, *c.center, m=c.r), (c, face)
    for ln in misses:  # each stroke wholly outside it
        assert ln.screen and not meets(face, *ln.points), (ln, face)
    counts = [p.text for p in shots if isinstance(p, Text) and p.text.startswith("獲")]
    assert counts == [f"獲 {hit} / 不中 {miss}"]
    # no heap of ×N counts over the 侯 any more
    assert not [p for la in comp.layers if la.name.startswith("inset.")
                for p in la.prims if isinstance(p, Text) and p.text.startswith("×")]

    # the 乏's name: in the inset and under no token
    fa = [p for p in shots if isinstance(p, Text) and p.text.startswith("乏：")]
    assert len(fa) == 1 and fa[0].screen and fa[0].anchor == "nw"
    w, h = labels.text_size(fa[0].text, round(fa[0].size))
    x, y = fa[0].pos
    box = (x, y, x + w, y + h)
    bx, by, bw, bh = inset_body(fr.inset_box)
    assert bx <= box[0] and box[2] <= bx + bw and by <= box[1] and box[3] <= by + bh
    people = layer(comp, "inset.people").prims
    toks = [p.at for p in people if isinstance(p, Sprite)] + [
        p.center for p in people if isinstance(p, Circle) and not p.screen]
    o = scene.SceneOptions(px_per_chi=fr.inset.scale, lod=True,
                           ui=1.0)
    r = scene.token_radius(o) * fr.inset.scale
    fa_xy = fr.inset.to_screen_pts([(got.layout.places["乏"].x, got.layout.places["乏"].y)])[0]
    scr = fr.inset.to_screen_pts(toks)
    # someone (the 獲者) stands at the 乏, where its name used to be written under him
    assert any(math.hypot(px - fa_xy[0], py - fa_xy[1]) < 2 * r for px, py in scr)
    for px, py in scr:
        cx, cy = min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3])
        assert math.hypot(cx - px, cy - py) >= r, ((px, py), box)


def test_the_plan_of_the_inset_no_longer_writes_the_fa_under_its_token(rite):
    """The main view (inset off) and the plates keep the 乏's name in the plan; the window's
    inset leaves it out of the plan and places it itself."""
    got, _ = rite
    with_note = [p for p in scene.range_marks(got.layout, ()) if isinstance(p, Text)]
    without = [p for p in scene.range_marks(got.layout, (), fa_note=False)
               if isinstance(p, Text)]
    assert [p.text[:2] for p in with_note if p not in without] == ["乏："]
