"""The web page (`main.py web`): it opens with no request but itself and no console error; its
window.rite.state(t) agrees with `state --at t --json` (and at(TEXT) with --after); deep links
and keys move it; drawn() is the composer's list. One page per bundled rite, one Chromium for
the module (Debian's, by executable_path: no browser is downloaded)."""
from __future__ import annotations

import math
import random

import pytest
from playwright import sync_api

from viz.export import web
from viz.model import package
from viz.model.rite import load
from viz.query.state import state, step_after

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
SIZE = (1366, 768)
RITES = ("鄉射禮", "鄉飲酒禮", "士冠禮")  # 士冠禮: worn things, mats laid, several scenes
# the quick tier asks the page of the smaller rite; the slow one of both (the same code)
QUICK_ONE = (pytest.param("鄉射禮", marks=pytest.mark.slow), "鄉飲酒禮")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


_pages: dict[str, tuple] = {}


def _rite(name: str, folder):
    """(compiled, path of its page), built once for the module."""
    if name not in _pages:
        pkg = package.find(name)
        d = load(pkg.script, pkg.layout)
        path = folder / f"{pkg.folder_name}.html"
        web.write_page(d, path, pkg.title)
        _pages[name] = (d, path)
    return _pages[name]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("web")


def _open(browser, path, fragment: str = "", size=SIZE):
    """A page on the file, with what it said on the console and what it requested."""
    # the page's Content-Security-Policy forbids eval, which Playwright's polling uses; with it
    # lifted a request the page made would reach the network, and is counted below
    page = browser.new_page(viewport={"width": size[0], "height": size[1]}, bypass_csp=True)
    seen = {"errors": [], "requests": []}
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))
    page.on("request", lambda r: seen["requests"].append(r.url))
    page.goto(path.as_uri() + fragment)
    page.wait_for_function("document.documentElement.dataset.ready === '1'")
    return page, seen


def _moments(tl, n: int = 200) -> list[dict]:
    """Each stage's first and last instant (as --at gives it, and as the stage's last step
    leaves it), and random moments besides: at least n."""
    out = []
    for s in tl.stages:
        out += [{"t": s.t0, "closing": False, "step": None},
                {"t": s.t1, "closing": False, "step": None},
                {"t": s.t1 - 1e-3, "closing": False, "step": None}]
        if s.last_step >= s.first_step:
            out.append({"t": s.t1, "closing": True, "step": s.last_step})
    rng = random.Random(24)
    while len(out) < n + len(tl.stages) * 4:
        out.append({"t": rng.uniform(0, tl.duration), "closing": False, "step": None})
    return out


def _same_state(py: dict, js: dict, where: str) -> None:
    assert js["t"] == pytest.approx(py["t"], abs=1e-3), where
    assert js["stage"]["name"] == py["stage"]["name"], where
    assert js["step"]["index"] == py["step"]["index"], where
    a = {x["id"]: x for x in py["actors"]}
    b = {x["id"]: x for x in js["actors"]}
    assert sorted(a) == sorted(b), f"{where}: people present differ"
    for k, pa in a.items():
        ja = b[k]
        assert math.hypot(pa["x"] - ja["x"], pa["y"] - ja["y"]) <= 0.05, f"{where}: {k} stands apart"
        d = abs((pa["facing"]["deg"] - ja["facing"]["deg"] + 180) % 360 - 180)
        assert d <= 1.0, f"{where}: {k} faces {ja['facing']['deg']}, not {pa['facing']['deg']}"
        assert ja["posture"] == pa["posture"], f"{where}: {k}'s posture"
        assert ja["holding"] == pa["holding"], f"{where}: what {k} holds"
        assert ja["dress"] == pa["dress"], f"{where}: what {k} wears"
        assert ja["label"] == pa["label"], f"{where}: {k}'s label"


@pytest.mark.slow
@pytest.mark.parametrize("name", RITES)
def test_the_page_agrees_with_state_json(browser, folder, name):
    d, path = _rite(name, folder)
    tl = d.timeline
    page, seen = _open(browser, path)
    moments = _moments(tl)
    got = page.evaluate("ms => window.rite.states(ms)", moments)
    assert len(got) >= 200
    for m, js in zip(moments, got, strict=True):
        py = state(tl, d.layout, d.corpus, m["t"], m["step"], m["closing"])
        _same_state(py, js, f"{name} t={m['t']:.3f}{' closing' if m['closing'] else ''}")
    assert page.evaluate("window.rite.duration") == pytest.approx(tl.duration)
    assert page.evaluate("window.rite.stages") == [
        {"name": s.name, "t0": pytest.approx(s.t0), "t1": pytest.approx(s.t1)} for s in tl.stages]
    assert seen["errors"] == []
    assert seen["requests"] == [path.as_uri()]
    page.close()


@pytest.mark.parametrize("name", QUICK_ONE)
def test_at_is_the_moment_after_names(browser, folder, name):
    """at(TEXT) is --after TEXT's moment, and the state there is state --after's, for the first
    words of every tenth clause that a step says (a port of step_after, not a table)."""
    d, path = _rite(name, folder)
    tl = d.timeline
    texts = []
    cl = d.corpus.clauses  # and clauses read on past a 注 inside them (卒北面搢三挾一个|注|揖退)
    inner = [c.text for c in cl if c.end - c.start > len(c.text)][::3]
    for text in [t for c in cl[::10] for t in (c.text[:4], c.text)] + inner:
        try:
            step_after(tl, d.corpus, text)
        except Exception:  # noqa: BLE001 (words no step cites: not asked)
            continue
        texts.append(text)
    assert len(texts) >= 10 and sum(1 for t in inner if t in texts) >= min(3, len(inner))
    assert name != "鄉射禮" or len(inner) >= 3  # 鄉飲酒禮's 注 stand between its clauses
    page, seen = _open(browser, path)
    got = page.evaluate("ts => ts.map(x => { const m = window.rite.at(x); "
                        "return [m, window.rite.state(m)]; })", texts)
    for text, (m, js) in zip(texts, got, strict=True):
        i = step_after(tl, d.corpus, text)
        assert m["step"] == i, text
        assert m["t"] == pytest.approx(tl.steps[i].t1), text
        _same_state(state(tl, d.layout, d.corpus, tl.steps[i].t1, i, True), js, f"after {text}")
    assert seen["errors"] == []
    page.close()


def test_deep_links_and_keys(browser, folder):
    d, path = _rite("鄉射禮", folder)
    tl = d.timeline
    first = next(s for s in tl.stages if s.name.startswith("初射"))
    page, seen = _open(browser, path, "#stage=三射")  # four stages begin so: listed, as the CLI does
    said = page.evaluate("document.getElementById('toast').textContent")
    assert "begins 4 stages" in said and "27 三射用樂" in said and "30 三射畢" in said, said
    assert page.evaluate("window.rite.now()") == 0 and not page.evaluate(
        "document.getElementById('toast').hidden")
    page.close()
    page, seen = _open(browser, path, "#stage=初射")
    assert page.evaluate("window.rite.now()") == pytest.approx(first.t0)  # a stage: its start
    i = step_after(tl, d.corpus, "揖弓命取矢")
    page.goto(path.as_uri() + "#after=揖弓命取矢")
    page.wait_for_function(f"Math.abs(window.rite.now() - {tl.steps[i].t1}) < 1e-6")
    js = page.evaluate("window.rite.state(window.rite.at('揖弓命取矢'))")
    _same_state(state(tl, d.layout, d.corpus, tl.steps[i].t1, i, True), js, "#after")
    page.goto(path.as_uri() + "#t=8376.1")
    page.wait_for_function("Math.abs(window.rite.now() - 8376.1) < 1e-6")
    now = lambda: page.evaluate("window.rite.now()")  # noqa: E731
    # → the next step's start, ← back to this one's, PgDn the next stage's, PgUp back
    k = tl.step_at(8376.1)
    page.keyboard.press("ArrowRight")
    assert now() == pytest.approx(tl.steps[k + 1].t0)
    page.keyboard.press("ArrowLeft")  # at a step's start: to the one before
    assert now() == pytest.approx(tl.steps[k].t0)
    g = tl.stage_at(now())
    page.keyboard.press("PageDown")
    assert now() == pytest.approx(tl.stages[g + 1].t0)
    page.keyboard.press("PageUp")
    assert now() == pytest.approx(tl.stages[g].t0)
    # the stage list: L, type a name, Enter
    page.keyboard.press("l")
    assert page.is_visible("#stagelist")
    page.keyboard.type("旅酬")
    page.keyboard.press("Enter")
    assert not page.is_visible("#stagelist")
    lu = next(s for s in tl.stages if s.name.startswith("旅酬"))
    assert now() == pytest.approx(lu.t0)
    # Space plays, at ×64 (+ five times from ×1); the fragment follows; Space pauses
    for _ in range(6):
        page.keyboard.press("+")
    page.keyboard.press(" ")
    assert page.evaluate("window.rite.playing") is True
    page.wait_for_function(f"window.rite.now() > {lu.t0 + 5}")
    page.wait_for_function("location.hash.startsWith('#t=') && parseFloat(location.hash.slice(3)) > "
                           f"{lu.t0 + 1}")
    page.keyboard.press(" ")
    assert page.evaluate("window.rite.playing") is False
    t = now()
    assert page.evaluate("location.hash") == f"#t={t:.1f}"
    # P: the presenter's step plays to the end of this step and pauses there
    k = tl.step_at(t)
    page.keyboard.press("p")
    page.wait_for_function("!window.rite.playing")
    assert now() == pytest.approx(tl.steps[k].t1)
    assert seen["errors"] == []
    page.close()


@pytest.mark.parametrize("name", QUICK_ONE)
def test_drawn_is_the_composers_list(browser, folder, name):
    """At 60 moments the page draws the people, group names with their members, what is held
    and what is set out that the composer draws for a window of the same size."""
    from viz.draw import compose

    d, path = _rite(name, folder)
    tl = d.timeline
    model = compose.Model(d.layout, tl, d.corpus)
    rng = random.Random(5)
    ts = sorted([s.t0 + 0.5 * (s.t1 - s.t0) for s in tl.stages] + [rng.uniform(0, tl.duration)
                                                                   for _ in range(60)])[:60]
    ts = [{"t": t, "closing": False, "step": None} for t in ts]
    page, seen = _open(browser, path)
    got = page.evaluate("ms => ms.map(m => { window.rite.seek(m); return window.rite.drawn(); })", ts)
    groups = 0
    for m, js in zip(ts, got, strict=True):
        py = web.drawn(d, SIZE, m["t"], model=model)
        _same_drawn(py, js, f"{name} t={m['t']:.2f}")
        groups += sum(len(v["groups"]) for v in py["views"].values())
    assert groups > 0  # the grouping rules were exercised
    assert seen["errors"] == []
    page.close()


def _same_drawn(py: dict, js: dict, where: str) -> None:
    """The page frames the moment as the composer (the kind of view, the elsewhere scene, the
    main view's world box, the inset) and draws the same people, groups and things in each view."""
    assert js["kind"] == py["kind"] and js["inset"] == py["inset"], where
    assert js["scene"] == py["scene"], where
    assert js["box"] == pytest.approx(py["box"], abs=0.05), where
    assert sorted(js["views"]) == sorted(py["views"]), where
    for v in py["views"]:
        assert js["views"][v] == py["views"][v], f"{where} {v}"


# 士冠禮 (issue 25), a layout of several elsewhere scenes: outside the 廟門 (a ground at the
# school), the 賔's gate (the scene elsewhere, framed on it alone, not with the 寢, the 君's
# and the 鄉大夫's gates), the mother beyond the 闈門, the 初加 in the hall, and the 冠者 in the
# 寢 while the others stay in the 廟
SHIGUAN_AFTER = ("即位于門東西面", "主人戒賔", "乃宿賔賔如主人服出門左西面再拜", "北面見于母",
                 "賔右手執項左手執前進容乃祝坐如初乃冠興復位", "入見姑姊如見母")


def test_drawn_at_the_scenes_of_shiguan_is_the_composers_list(browser, folder):
    from viz.draw import compose

    d, path = _rite("士冠禮", folder)
    tl = d.timeline
    model = compose.Model(d.layout, tl, d.corpus)
    steps = [step_after(tl, d.corpus, text) for text in SHIGUAN_AFTER]
    ms = [{"t": tl.steps[i].t1, "closing": True, "step": i} for i in steps]
    page, seen = _open(browser, path)
    got = page.evaluate("ms => ms.map(m => { window.rite.seek(m); return window.rite.drawn(); })", ms)
    scenes = []
    for text, m, js in zip(SHIGUAN_AFTER, ms, got, strict=True):
        py = web.drawn(d, SIZE, m["t"], m["closing"], model=model)
        _same_drawn(py, js, f"士冠禮 after {text}")
        scenes.append(py["scene"])
    assert scenes[1] == scenes[2] == "賔門" and scenes.count("") == 4, scenes
    assert seen["errors"] == []
    page.close()


def test_a_narrow_screen_puts_the_text_below_the_map(browser, folder):
    _, path = _rite("鄉飲酒禮", folder)
    page, seen = _open(browser, path, "", size=(390, 844))
    m = page.evaluate("document.getElementById('map').getBoundingClientRect().toJSON()")
    p = page.evaluate("document.getElementById('panel').getBoundingClientRect().toJSON()")
    assert p["top"] >= m["bottom"] and p["width"] == pytest.approx(390, abs=1)
    assert page.is_visible("#b-play")
    page.click("#b-play")
    assert page.evaluate("window.rite.playing") is True
    assert seen["errors"] == []
    page.close()


def test_the_command_refuses_to_overwrite(tmp_path):
    from viz.cli.main import main

    out = tmp_path / "r.html"
    out.write_text("mine")
    assert main(["web", "--rite", "鄉飲酒禮", "-o", str(out)]) == 2
    assert out.read_text() == "mine"
    assert main(["web", "--rite", "鄉飲酒禮", "-o", str(tmp_path / "r.txt")]) == 2
