"""What a click on the map picks (issue 18): a thing set out, named on the map and in the panel
once selected; a person drawn in the range inset; and, once a pan has folded the inset away,
the person drawn where it was."""
from __future__ import annotations

import os

import numpy as np
import pygame
import pytest

from viz.draw import scene
from viz.draw.compose import SELECTED_THING, ManualCamera, compose, drawn_framing, inset_body
from viz.draw.display import Text

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

SIZE = (1366, 768)


@pytest.fixture(scope="module")
def rite(bundled):
    return bundled


@pytest.fixture()
def app(rite, tmp_path):
    from viz.app.window import App

    return App(rite.layout, rite.timeline, rite.corpus, size=SIZE, shots_dir=tmp_path)


def at_stage(app, rite, n: int) -> None:
    from viz.query.state import resolve_moment

    m = resolve_moment(rite.timeline, rite.corpus, stage=str(n))
    app.seek(m.t, m.closing)


def click(app, pos) -> None:
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    app.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def texts(comp, names) -> list[str]:
    return [p.text for la in comp.layers if la.name in names for p in la.prims
            if isinstance(p, Text)]


def test_a_thing_set_out_clicked_is_named_on_the_map_and_in_the_panel(app, rite):
    """At 三射用樂's end, at the default zoom, what is set out is drawn, not named; a click on
    one names it on the map (its tag, however far out the view is) and in the panel, and Esc
    lets it go."""
    at_stage(app, rite, 27)
    tl, frame = app.timeline, app.timeline.sample(app.t, app.closing)
    fr = drawn_framing(app.model, app.view(), app.size, app.t, app.closing)
    cam = fr.camera
    assert not scene.detailed(scene.SceneOptions(px_per_chi=cam.scale, lod=True))
    people = cam.to_screen(frame.xy[frame.present])
    mx, my, mw, mh = fr.camera.viewport
    # a thing set out in the main view, clear of every token and of the inset
    for j in np.nonzero((frame.prop_holder < 0) & frame.prop_visible)[0].tolist():
        x, y = (float(v) for v in cam.to_screen(frame.prop_xy[j][None])[0])
        clear = np.hypot(people[:, 0] - x, people[:, 1] - y).min() > 40
        inset = fr.inset_box is not None and (fr.inset_box[0] - 20 < x)
        if clear and mx + 20 < x < mx + mw - 20 and my + 20 < y < my + mh - 20 and not inset:
            break
    else:
        pytest.fail("no thing set out clear of everyone at 三射用樂's end")
    tag = scene.thing_tag(tl, frame, j)
    before = compose(app.model, app.view(), app.size, app.t, app.closing)
    assert tag.text not in texts(before, ("people",))
    click(app, (round(x), round(y)))
    assert app.thing == j and app.selected is None
    after = compose(app.model, app.view(), app.size, app.t, app.closing)
    assert tag.text in texts(after, ("people",))
    panel = SELECTED_THING.format(name=tag.text)
    assert any(panel in s for s in texts(after, [la.name for la in after.layers]))
    assert any(la.name == "selection" for la in after.layers)  # ringed
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                  scancode=0))
    assert app.thing is None and app.running


def test_a_click_in_the_range_inset_selects_who_is_drawn_there(app, rite):
    """At 三射用樂's end the 獲者 stands on the range, drawn in the inset; a click on his
    token there selects him (the click was mapped through the main view's camera, which puts
    that pixel elsewhere), and the tooltip names him."""
    at_stage(app, rite, 27)
    tl, frame = app.timeline, app.timeline.sample(app.t, app.closing)
    fr = drawn_framing(app.model, app.view(), app.size, app.t, app.closing)
    assert fr.inset is not None
    body = inset_body(fr.inset_box)
    seen = [i for i in np.nonzero(frame.present)[0].tolist()
            if (lambda p: body[0] < p[0] < body[0] + body[2] and body[1] < p[1] < body[1]
                + body[3])(fr.inset.to_screen(frame.xy[i][None])[0])]
    assert seen
    i = seen[0]
    pos = tuple(round(float(v)) for v in fr.inset.to_screen(frame.xy[i][None])[0])
    main = fr.camera.to_screen(frame.xy[i][None])[0]
    assert np.hypot(main[0] - pos[0], main[1] - pos[1]) > 50  # not where the main view has him
    click(app, pos)
    assert app.selected == i
    app.mouse = pos
    assert app.tooltip().startswith(tl.actors[i].name)
    title = (fr.inset_box[0] + fr.inset_box[2] // 2, fr.inset_box[1] + 6)
    click(app, title)  # the inset's title row: nobody is drawn there
    assert app.selected is None


def test_once_a_pan_folds_the_inset_a_click_where_it_was_selects_who_stands_there(app, rite):
    """Panned so that the crowd stands where the inset was drawn, the inset folds away: a click
    there picks the person drawn there in the main view, as the tooltip names him."""
    at_stage(app, rite, 27)
    frame = app.timeline.sample(app.t, app.closing)
    fr = drawn_framing(app.model, app.view(), app.size, app.t, app.closing)
    x, y, w, h = fr.inset_box
    cam = fr.camera
    sx, sy = cam.to_screen(frame.xy[frame.present]).mean(axis=0)
    dx, dy = x + w / 2 - sx, y + h / 2 - sy
    app.manual = ManualCamera(cam.scale, (cam.center[0] - dx / cam.scale,
                                          cam.center[1] + dy / cam.scale))
    folded = drawn_framing(app.model, app.view(), app.size, app.t, app.closing)
    assert folded.inset is None  # folded away: the main view is drawn there
    scr = folded.camera.to_screen(frame.xy)
    under = [i for i in np.nonzero(frame.present)[0].tolist()
             if x + 10 < scr[i, 0] < x + w - 10 and y + 30 < scr[i, 1] < y + h - 10]
    assert under
    # one whose token no other's lies near, so the click is his alone
    i = next(i for i in under if np.sort(np.hypot(*(scr[frame.present] - scr[i]).T))[1] > 8)
    pos = (round(float(scr[i, 0])), round(float(scr[i, 1])))
    click(app, pos)
    assert app.selected == i
    app.mouse = pos
    assert app.tooltip().startswith(app.timeline.actors[i].name)
