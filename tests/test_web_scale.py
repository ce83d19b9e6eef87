"""The web page scales with Ctrl + / − as the window does (hudbase.ui_scale, areas_at): the text
panel, the bar and the map's names grow together, up to where less than UI_ROOM of HUD would be
laid out; Ctrl 0 goes back. Chromium, as tests/test_web.py opens it."""
from __future__ import annotations

import pytest
from test_web import _open, _rite, browser, folder  # noqa: F401 (fixtures)

from viz.draw import hudbase

RECTS = """() => Object.fromEntries(["stagehead", "text", "panel", "bar", "b-play"].map(id => {
  const r = document.getElementById(id).getBoundingClientRect(); return [id, r.toJSON()]; }))"""
# the rendered height of a line of the text panel's first clause
LINE = """() => { const el = document.querySelector('#text .cl'); const r = el.getClientRects()[0];
  return r ? r.height : 0; }"""


def _shown(page) -> dict:
    page.evaluate("window.rite.drawn().length")  # a frame drawn at the new scale
    return {"rects": page.evaluate(RECTS), "line": page.evaluate(LINE),
            "view": page.evaluate("window.rite.view")}


def test_ctrl_plus_grows_the_panel_bar_and_map_text(browser, folder):  # noqa: F811
    _, path = _rite("鄉射禮", folder)
    page, seen = _open(browser, path, "#stage=初射")
    before = _shown(page)
    assert before["view"]["ui"] == 1 and before["line"] > 10
    for _ in range(2):
        page.keyboard.press("Control+Equal")
    after = _shown(page)
    k = after["view"]["ui"]
    # 1.25² = 1.5625, held at 768 / 500 = 1.536 (the window's own stop at 1366×768)
    room = min(1366 / hudbase.UI_ROOM[0], 768 / hudbase.UI_ROOM[1])
    assert k == pytest.approx(min(1.25 ** 2, room), abs=1e-3) and k > 1.45
    b, a = before["rects"], after["rects"]
    assert a["stagehead"]["height"] == pytest.approx(b["stagehead"]["height"] * k, rel=0.08)
    assert after["line"] == pytest.approx(before["line"] * k, rel=0.1)
    assert a["b-play"]["width"] == pytest.approx(b["b-play"]["width"] * k, rel=0.08)
    assert a["bar"]["height"] == pytest.approx(round(66 * k), abs=1)  # hudbase.areas_at
    assert a["panel"]["width"] == pytest.approx(min(max(1366 * 0.28, 280 * k), 420 * k), abs=2)
    assert a["panel"]["right"] == pytest.approx(1366, abs=1)  # still at the window's edge
    assert after["view"]["map"][2] == pytest.approx(1366 - a["panel"]["width"], abs=2)
    page.keyboard.press("Control+Minus")
    assert _shown(page)["view"]["ui"] == pytest.approx(1.25)  # the reader asked 1.25² ÷ 1.25
    page.keyboard.press("Control+0")
    back = _shown(page)
    assert back["view"]["ui"] == 1 and back["line"] == pytest.approx(before["line"], abs=0.5)
    assert back["rects"]["panel"] == before["rects"]["panel"]
    assert seen["errors"] == []
    page.close()


def test_the_bar_still_seeks_where_it_is_clicked_when_scaled(browser, folder):  # noqa: F811
    d, path = _rite("鄉射禮", folder)
    page, seen = _open(browser, path)
    page.keyboard.press("Control+Equal")
    k = page.evaluate("window.rite.view.ui")
    assert k == pytest.approx(1.25)
    bar = page.evaluate("document.getElementById('bar').getBoundingClientRect().toJSON()")
    # the track runs from 14 to w − 14 of the bar laid out at 1/k: its middle is the rite's
    page.mouse.click(bar["left"] + bar["width"] / 2, bar["top"] + bar["height"] / 3)
    t = page.evaluate("window.rite.now()")
    assert t == pytest.approx(d.timeline.duration / 2, rel=0.01)
    assert seen["errors"] == []
    page.close()
