"""diff: two readings and two versions of a script compared step by step, and check --watch."""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import numpy as np
import pytest
from rites import trimmed  # noqa: E402 (the tests' folder is on the path)

from viz import DEFAULT_LAYOUT
from viz.cli.main import main, parser
from viz.model.rite import Rite
from viz.query.diff import PLACE_EPS, diff, format_table, groups, route_distance, to_json

SECTION = "sections/14-立司正.yaml"
# 戒賔 … 誘射 (01–17) of the bundled rite: the 司正 (14) and the first shooting (17, where the 物
# and the 乏 are used), 490 steps, compiled in seconds rather than the whole rite's minute
STEPS = 490
SMALL_STEPS = 55  # 戒賔 … 迎賔 (01–05)




@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return trimmed(tmp_path_factory.mktemp("rite") / "base", 1, 17)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """戒賔 … 迎賔 (01–05): 52 steps; 敖 moves the 乏 the 吏 set out at 張侯."""
    return trimmed(tmp_path_factory.mktemp("rite") / "small", 1, 5)


@pytest.fixture(scope="module")
def zheng_ao(corpus, base):
    rite = Rite(base, DEFAULT_LAYOUT, corpus)
    return rite.get(()), rite.get(("敖",))


@pytest.fixture(scope="module")
def ao(zheng_ao):
    return diff(*zheng_ao, "鄭", "敖")


@pytest.fixture
def copy(tmp_path: Path, base: Path) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(base, folder)
    return folder


def edit(folder: Path, old: str, new: str, count: int = 1) -> None:
    f = folder / SECTION
    text = f.read_text(encoding="utf-8")
    assert text.count(old) == count, old
    f.write_text(text.replace(old, new), encoding="utf-8")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- geometry


def test_route_distance():
    line = np.array([[0.0, 0.0], [10.0, 0.0]])
    assert route_distance(line, line) == 0.0
    assert route_distance(line, line + [0.0, 2.0]) == pytest.approx(2.0)
    # a detour 3 尺 deep in the middle of a walk: between the vertices of the straight one
    detour = np.array([[0.0, 0.0], [5.0, 3.0], [10.0, 0.0]])
    assert route_distance(line, detour) == pytest.approx(3.0)
    assert route_distance(detour, line) == route_distance(line, detour)
    # standing still is a one-point route; its distance to another is the points' distance
    assert route_distance(np.array([[1.0, 1.0]]), np.array([[4.0, 5.0]])) == pytest.approx(5.0)


# ---------------------------------------------------------------------------- readings


@pytest.mark.slow
def test_ao_against_zheng(zheng_ao, ao):
    a, b = zheng_ao
    d = ao
    assert d.matched == len(a.timeline.steps) == len(b.timeline.steps) == STEPS
    places = {p.name: p for p in d.places}
    assert set(places) == {"右物", "左物", "乏", "乏南"}
    assert places["乏"].distance == pytest.approx(20.0)
    assert "侯's west edge" in places["乏"].b_note and places["乏"].a_note.startswith("鄭: ")
    by_cite = {s.cite: s for s in d.steps}
    # a step variant of the script: 敖繼公 sets the 觶 in front of the 阼階, 20 尺 east
    s = by_cite["中庭北面坐奠觶"]
    [who] = s.actors
    assert who.id == "sizheng" and who.place == pytest.approx(20.0) and who.walks
    assert s.a.reading == "鄭" and s.b.reading == "敖繼公" and "阼階前" in s.b.note
    assert s.clause is not None and "中庭北面坐奠觶" in s.clause[1]
    # a layout variant: the 獲者 goes to a 乏 20 尺 further west (誘射) and sits behind it from
    # then on, with both notes
    huozhe = [(s.cite, x) for s in d.steps for x in s.actors if x.id == "huozhe"]
    assert len(huozhe) > 1 and all(x.place == pytest.approx(20.0) for _, x in huozhe)
    assert [c for c, x in huozhe if x.walks] == [huozhe[0][0]] == ["獲者由西方坐取旌倚於侯中乃退"]
    _, first = huozhe[0]
    assert "敖繼公" in first.notes[1][0] and first.notes[0][0].startswith("乏南 — 鄭")
    # the 物 under 5 尺 apart: the 司射 stands 0.5 尺 off when he reaches his
    sishe = by_cite["豫則鉤楹内堂則由楹外"].actors
    assert any(x.id == "sishe" and x.place == pytest.approx(0.5) for x in sishe)
    assert all(x.place is None or x.place >= PLACE_EPS for s in d.steps for x in s.actors)


@pytest.mark.slow
def test_a_reading_against_itself_has_no_differences(zheng_ao):
    a, _ = zheng_ao
    d = diff(a, a, "鄭", "鄭")
    assert d.matched == len(a.timeline.steps) and not d.steps and not d.places


@pytest.mark.slow
def test_table_folds_steps_where_people_only_stand(ao):
    text = format_table(ao)
    assert text.startswith(f"鄭 ↔ 敖: {STEPS} steps matched")
    assert "獲者 (huozhe): place 20.00 尺, route 20.00 尺; 乏南 ↔ 乏南; stands" in text
    assert "then unchanged through" in text
    assert "敖 (敖繼公): 西五歩 from the 侯's west edge" in text


@pytest.mark.slow
def test_identical_differences_are_gathered_before_the_step_by_step_list(ao):
    gs = groups(ao)
    assert [len(g.steps) for g in gs] == sorted((len(g.steps) for g in gs), reverse=True)
    # every actor's difference is in exactly one group
    assert sum(len(g.steps) for g in gs) == sum(len(s.actors) for s in ao.steps)
    by = {(g.id, g.a_place, g.distance): g for g in gs}
    huozhe = by[("huozhe", "乏南", 20.0)]  # behind a 乏 20 尺 further west, from 請射 on
    n = sum(1 for s in ao.steps for x in s.actors if x.id == "huozhe" and x.place is not None
            and round(x.place, 1) == 20.0)
    assert (huozhe.b_place, huozhe.direction, len(huozhe.steps)) == ("乏南", "west", n)
    assert n > 1 and huozhe.stages == ("請射", "誘射")
    assert by[("sishe", "左物", 0.5)].direction == "west"
    text = format_table(ao)
    gathered, _, listed = text.partition("\nstep by step (")
    assert "乏南 ↔ 乏南, 20 尺 west: " in gathered and "左物 ↔ 左物, 0.5 尺 west: " in gathered
    assert "中庭 ↔ 中庭, 20 尺 east: the 司正 in" in gathered
    assert "門內西 ↔ 西階西" in gathered  # 賈疏's and 敖's 初位 at 獻大夫
    assert len(gathered.splitlines()) < 50 < len(listed.splitlines())
    data = to_json(ao)["groups"]
    assert len(data) == len(gs) and data[gs.index(huozhe)] == {
        "id": "huozhe", "name": "獲者", "present": [True, True], "a_place": "乏南",
        "b_place": "乏南", "distance": 20.0, "direction": "west", "steps": list(huozhe.steps),
        "stages": ["請射", "誘射"]}


@pytest.mark.slow  # compiles two readings
def test_diff_json_from_the_command(capsys, small):
    code, out, err = run(capsys, "diff", "--script", str(small), "--reading", "敖", "--json")
    assert code == 1 and not err  # 1: there are differences, as diff(1)
    d = json.loads(out)
    assert d["a"]["label"] == "鄭" and d["b"]["readings"] == ["敖"]
    assert d["thresholds"] == {"place": 0.05, "facing": 1.0, "route": 0.05}
    assert d["differing"] == len(d["steps"]) > 0 and d["matched"] == SMALL_STEPS
    step = d["steps"][0]
    assert set(step) == {"cite", "span", "clause", "a", "b", "actors"}
    assert set(step["a"]) == {"index", "stage", "t0", "t1", "reading", "note", "script"}
    assert step["a"]["script"].count(":") == 2  # file:line:col of the step
    actor = step["actors"][0]
    assert set(actor) == {"id", "name", "present", "place", "facing", "route", "walks", "a",
                          "b", "notes"}
    assert set(actor["a"]) == {"x", "y", "facing", "place"}
    assert d["only_a"] == d["only_b"] == [] and d["cast"] == {"only_a": [], "only_b": []}
    assert {"id", "name", "present", "a_place", "b_place", "distance", "direction", "steps",
            "stages"} == set(d["groups"][0])  # added; the keys above are as they were


def test_two_readings_given(capsys, small):
    code, out, _ = run(capsys, "--reading", "敖", "diff", "--script", str(small), "--reading",
                       "中庭南北之中")
    assert code == 1 and out.startswith("敖 ↔ 中庭南北之中:")
    assert "楅  (0, -32) ↔ (40, -45)" in out and "中  (-25, -32) ↔ (-25, -45)" in out


@pytest.mark.parametrize("args,message", [
    ((), "give --reading NAME"),
    (("--reading", "王肅"), "--reading: no file knows the reading '王肅'"),
    (("--reading", "a", "--reading", "b", "--reading", "c"), "found 3 --reading"),
])
def test_diff_errors(capsys, small, args, message):
    code, out, err = run(capsys, "diff", "--script", str(small), *args)
    assert code == 2 and message in err and "Traceback" not in err and not out


# ---------------------------------------------------------------------------- scripts


@pytest.mark.slow
def test_a_revision_that_only_retimes_has_no_differences(capsys, base, copy):
    # 禮辭許諾 takes 4 s longer: every later step starts later, yet is the same step
    edit(copy, "    dur: 5\n", "    dur: 9\n")
    code, out, _ = run(capsys, "diff", "--script", str(base), "--script", str(copy))
    assert code == 0, out
    assert f"{STEPS} steps matched by their cite, 0 differ" in out


@pytest.mark.slow
def test_a_revision_that_moves_someone_and_drops_a_step(capsys, base, copy):
    edit(copy, "{place: 阼階下, dx: -4}", "{place: 阼階下, dx: -6}", count=2)
    edit(copy, "  - cite: 司正答拜\n    note: \"答拜: one bow (答再拜 is said where it is two)\"\n"
               "    use: 拜\n    with: {who: sizheng, count: 1}\n", "")
    code, out, _ = run(capsys, "diff", "--script", str(base), "--script", str(copy),
                       "--json")
    d = json.loads(out)
    assert code == 1 and d["matched"] == STEPS - 1
    [gone] = d["only_a"]
    assert gone["cite"] == "司正答拜" and d["only_b"] == []
    first = d["steps"][0]
    assert first["cite"] == "作相為司正"
    [who] = first["actors"]
    assert who["id"] == "sizheng" and who["place"] == pytest.approx(2.0) and who["walks"]
    assert who["a"]["x"] - who["b"]["x"] == pytest.approx(2.0)


@pytest.mark.slow
def test_a_broken_revision_is_a_located_error(capsys, base, copy):
    edit(copy, "  - cite: 禮辭許諾\n", "  - cite: [禮辭許諾\n")
    code, out, err = run(capsys, "diff", "--script", str(base), "--script", str(copy))
    assert code == 2 and not out and "Traceback" not in err
    assert f"{copy / SECTION}:" in err and "YAML syntax" in err


# ---------------------------------------------------------------------------- check --watch


@pytest.mark.slow
def test_check_watch_reports_each_change_with_a_timestamp(capsys, copy):
    from viz.cli.live import watch

    section = copy / SECTION
    good = section.read_text(encoding="utf-8")
    saves = {1: good.replace("  - cite: 禮辭許諾\n", "  - cite: [禮辭許諾\n"), 3: good}
    polls = []

    def sleep(seconds: float) -> None:  # each poll's wait is where the author saves
        polls.append(seconds)
        if len(polls) in saves:
            section.write_text(saves[len(polls)], encoding="utf-8")

    reported = []

    def report(args, compiled) -> int:  # check's own report, less its slow motion lint
        reported.append(compiled)
        print(f"ok: {len(compiled.timeline.steps)} steps")
        return 0

    args = parser().parse_args(["check", "--watch", "--script", str(copy)])
    stamp = time.mktime((2026, 11, 30, 9, 15, 7, 0, 0, -1))
    code = watch(args, report, sleep=sleep, clock=lambda: stamp, polls=4)
    out, err = capsys.readouterr()
    assert code == 0 and polls == [0.5] * 4
    assert len(reported) == 2 and reported[0] is not reported[1]
    heads = [line for line in out.splitlines() if line.startswith("[")]
    assert [h.split(" — loaded in ")[0] for h in heads] == [
        "[09:15:07] checked", f"[09:15:07] changed: {section}", f"[09:15:07] changed: {section}"]
    assert [line.startswith("ok: ") for line in out.splitlines() if not line.startswith("[")] \
        == [True, True]
    assert f"{section}:" in err and "YAML syntax" in err and "watching for changes" in err


@pytest.mark.slow
def test_check_watch_ends_with_ctrl_c_and_status_0(capsys, copy, monkeypatch):
    import viz.cli.live

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(viz.cli.live.time, "sleep", interrupted)
    code, out, _ = run(capsys, "check", "--watch", "--script", str(copy))
    assert code == 0 and "] checked" in out and "ok: " in out


@pytest.mark.slow
def test_a_route_that_differs_where_the_ends_do_not(base, copy, corpus):
    # 主人降席自南方 by a wider arc: the same 阼階上 at the end, another way there
    edit(copy, "via: {place: 主人席, dy: -2.5}", "via: {place: 主人席, dy: -4.5}")
    a = Rite(base, DEFAULT_LAYOUT, corpus).get(())
    b = Rite(copy, DEFAULT_LAYOUT, corpus).get(())
    d = diff(a, b, "old", "new")
    [step] = d.steps
    [who] = step.actors
    assert step.cite == "主人降席自南方" and who.id == "zhuren"
    assert who.place is None and who.facing is None
    # the turning point is 2 尺 further south; the old route's next leg passes within ~1.1 尺
    assert 0.5 < who.route <= 2.0
