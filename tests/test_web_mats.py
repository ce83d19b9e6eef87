"""The page draws and says what the window does of things laid with a facing (issue 25): a
toy rite whose 筵 is carried in and spread 南面 and whose 席 is shifted and turned; at moments
before, during and after, window.rite.state(t) gives the same "laid" as `state --json`
(where, and the facing), and drawn() lists the same things as the composer."""
from __future__ import annotations

import pytest
from playwright import sync_api

from test_mats import mat_toy
from test_web import ARGS, CHROMIUM, SIZE, _open
from viz.export import web
from viz.model import package
from viz.model.rite import load
from viz.query.state import state


@pytest.fixture(scope="module")
def page_of_mats(tmp_path_factory):
    folder = tmp_path_factory.mktemp("webmats")
    toy = mat_toy(folder / "試禮")
    pkg = package.find(str(toy))
    d = load(pkg.script, pkg.layout)
    path = folder / "mats.html"
    web.write_page(d, path, pkg.title)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield d, path, b
        b.close()


def test_the_page_says_and_draws_the_mats_as_the_window(page_of_mats):
    d, path, browser = page_of_mats
    tl = d.timeline
    ts = sorted({0.5, tl.steps[0].t1 + 0.1, (tl.steps[1].t0 + tl.steps[1].t1) / 2,
                 tl.steps[1].t1 + 0.1, tl.duration - 0.1})
    page, seen = _open(browser, path)
    moments = [{"t": t, "closing": False, "step": None} for t in ts]
    got = page.evaluate("ms => window.rite.states(ms)", moments)
    drawn = page.evaluate("ms => ms.map(m => { window.rite.seek(m); return window.rite.drawn(); })",
                          moments)
    laid_seen = 0
    for m, js, dj in zip(moments, got, drawn, strict=True):
        py = state(tl, d.layout, d.corpus, m["t"])
        a = {x["id"]: x for x in py.get("laid", ())}
        b = {x["id"]: x for x in js.get("laid", ())}
        assert sorted(a) == sorted(b), m["t"]
        for k in a:
            assert (a[k]["x"], a[k]["y"]) == pytest.approx((b[k]["x"], b[k]["y"]), abs=0.01)
            assert a[k]["facing"]["deg"] == b[k]["facing"]["deg"], (m["t"], k)
        laid_seen += len(a)
        pyd = web.drawn(d, SIZE, m["t"])
        assert dj["views"]["main"]["things"] == pyd["views"]["main"]["things"], m["t"]
    assert laid_seen >= 6  # xi from the start, yan once spread, through the shift
    assert seen["errors"] == []
    page.close()
