"""Plates name the things in a room inside it (issue 25): the 服 陳于房中 are written in the 房, or
at it with a leader when the 房 cannot hold them, never in the 室 next door; a plate framed on
someone standing against a 塾 (擯者負東塾) shows the 塾 whole, with the ground round it; one framed
on the ground outside the 廟門 shows the 筮 laid out at the 西塾 with it (具饌于西塾)."""
from __future__ import annotations

import numpy as np
import pytest

from viz.draw import labels, labels_paper, plate, plate_page
from viz.export import plate as plate_files
from viz.model import package
from viz.model.rite import load
from viz.query.state import step_after


def test_a_label_is_kept_inside_its_room_where_there_is_room():
    room = (100.0, 100.0, 300.0, 160.0)
    # the anchor at the room's west wall: its first place (east) is free, but west of the
    # wall (in the room next door) comes first in this label's order
    lab = labels.Label((104.0, 130.0), 40.0, 16.0, r=2.5, order=("w", "e"), within=room)
    free = labels_paper.place_clear([lab], [], (0.0, 0.0, 400.0, 300.0))[0]
    assert room[0] <= free.box[0] and free.box[2] <= room[2]
    plain = labels_paper.place_clear([labels.Label((104.0, 130.0), 40.0, 16.0, r=2.5,
                                             order=("w", "e"))], [], (0.0, 0.0, 400.0, 300.0))[0]
    assert plain.box[0] < room[0] - 30  # without `within`: the west place, across the wall
    # a full room: the label goes outside it, but not into the room `away`
    full = [room]
    other = (0.0, 100.0, 100.0, 160.0)
    out = labels_paper.place_clear([labels.Label((104.0, 130.0), 40.0, 16.0, r=2.5, within=room,
                                           away=(other,))], full, (0.0, 0.0, 400.0, 300.0))[0]
    assert not labels.hits(out.box, np.asarray([other, room]))
    assert out.displaced


def test_rooms_join_regions_no_wall_parts():
    class Lay:
        regions = [type("R", (), {"rect": r})() for r in
                   ((-25, 30, 0, 40), (0, 30, 25, 35), (0, 35, 25, 40))]
        features = [type("F", (), {"kind": "wall", "points": ((-0.25, 30.25), (0.25, 40))})()]
    got = sorted(plate_page.rooms(Lay()))
    assert got == [(-25.0, 30.0, 0.0, 40.0), (0.0, 30.0, 25.0, 40.0)]  # the 房 and its 北堂: one


@pytest.fixture(scope="module")
def shiguan():
    pkg = package.find("士冠禮")
    d = load(pkg.script, pkg.layout)
    return d, plate_files.model_for(d)


def _plate(shiguan, words):
    d, model = shiguan
    tl = d.timeline
    i = step_after(tl, d.corpus, words)
    return plate.plate_layers(model, tl.steps[i].t1, True, about=words), model


def _cam(pl):
    return next(lay.camera for lay in pl.layers if lay.name == "plate.plan")


def test_the_things_in_the_fang_are_named_in_or_at_it(shiguan):
    pl, model = _plate(shiguan, "陳服于房中西墉下東領北上")
    cam = _cam(pl)
    rms = plate_page.rooms(model.layout)
    fang = plate_page.room_px(cam, plate_page.room_at(rms, 12.5, 35.0))
    shi = plate_page.room_px(cam, plate_page.room_at(rms, -12.5, 35.0))
    texts = [p for lay in pl.layers if lay.name == "plate.people" for p in lay.prims
             if type(p).__name__ == "Text"]
    named = {t.text: t.pos for t in texts}
    for thing in ("爵弁服", "皮弁服", "纁屨"):
        at = [pos for text, pos in named.items() if thing in text]
        assert at, f"{thing} not named"
        x, y = at[0]
        assert fang[0] <= x <= fang[2] and fang[1] <= y <= fang[3], (thing, at[0], fang)
        assert not (shi[0] <= x <= shi[2] and shi[1] <= y <= shi[3]), thing


def test_the_plate_of_the_first_capping_shows_the_gate_whole(shiguan):
    """The 擯者 stands against the 東塾 (負東塾): it is framed whole with the ground round it,
    so the gate he keeps and its 塾 outside (where the 筮 lie) are not cut by the frame."""
    pl, model = _plate(shiguan, "賔右手執項左手執前進容乃祝坐如初乃冠興復位")
    cam = _cam(pl)
    clip = next(lay.clip for lay in pl.layers if lay.name == "plate.plan")
    shu = next(f for f in model.layout.features if f.name == "外東塾")
    south = float(np.asarray(shu.points, float).reshape(-1, 2)[:, 1].min())
    (_, y), = cam.to_screen_pts([(11.0, south)])
    assert y <= clip[1] + clip[3], "the gate's 塾 are cut by the frame"


def test_the_shi_ri_plate_shows_the_shi_laid_out_at_the_west_shu(shiguan):
    pl, _ = _plate(shiguan, "即位于門東西面")
    cam = _cam(pl)
    clip = next(lay.clip for lay in pl.layers if lay.name == "plate.plan")
    (x, _), = cam.to_screen_pts([(-16.0, -93.8)])  # the 西塾's west edge
    assert x >= clip[0], "the 西塾 where the 筮 is laid out is cut by the frame"
