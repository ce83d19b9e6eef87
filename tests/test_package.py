"""Rites as packages: a manifest names its title, text and layout, and every command takes
`--rite NAME|PATH`. A toy second rite, built here in a tmp dir (its own corpus.json, layout and
one stage), is run through every command; each shows its title and its text, not 鄉射's."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.cli.main import main
from viz.model import package
from viz.text.corpus import load_corpus

ROOT = Path(__file__).resolve().parent.parent

TITLE = "試飲酒禮"  # the toy's title: in no bundled file
FRONT = "試飲酒禮第四"
JING = ("主人就先生而謀賔", "主人戒賔賔拜辱")
ZHU = "先生鄉中致仕者"


def toy_corpus(extra_note: str = "") -> dict:
    """A corpus in assets/text/corpus.json's format: a title, one section of two 經 clauses
    with a 注 after the first."""
    a, b = JING
    note = ZHU + extra_note
    plain = FRONT + a + note + b
    s0 = len(FRONT)
    n0 = s0 + len(a)
    b0 = n0 + len(note)
    end = len(plain)
    return {
        "plain": plain,
        "pages": [[0, "001-1a"]],
        "sections": [[1, "謀賔", s0, end]],
        "runs": [["題", 0, s0, "001-1a", 0], ["經", s0, n0, "001-1a", 1],
                 ["注", n0, b0, "001-1a", 1], ["經", b0, end, "001-1a", 1]],
        "clauses": [["01.01", 1, "經", s0, b0, a, a + "。", [[n0, b0]], "001-1a"],
                    ["01.02", 1, "經", b0, end, b, "主人戒賔，賔拜辱。", [], "001-1a"]],
        "marks": [[n0, "。"], [b0 + 4, "，"], [end, "。"]],
    }


STAGE = """\
name: 謀賔
setup:
  - {who: zhuren, at: 阼階下, face: 西}
  - {who: bin, at: 西階下, face: 東}
steps:
  - cite: 主人就先生而謀賔
    do:
      - move: {who: zhuren, to: 中庭}
  - cite: 賔拜辱
    do:
      - posture: {who: bin, is: 拜, count: 2}
"""


def make_toy(folder: Path, extra_note: str = "", title: str | None = TITLE) -> Path:
    """The toy rite: manifest, cast, one section, text/corpus.json and hall.yaml (the 州序
    with one more place, 先生門, so a check can tell it from layouts/xu.yaml)."""
    (folder / "sections").mkdir(parents=True)
    (folder / "text").mkdir()
    (folder / "text" / "corpus.json").write_text(
        json.dumps(toy_corpus(extra_note), ensure_ascii=False), encoding="utf-8")
    hall = DEFAULT_LAYOUT.read_text(encoding="utf-8")
    assert "\nplaces:\n" in hall
    hall = hall.replace("\nplaces:\n", "\nplaces:\n  先生門: {x: 0, y: -90, source: \"經: 先生\"}\n",
                        1)
    (folder / "hall.yaml").write_text(hall, encoding="utf-8")
    (folder / "cast.yaml").write_text(
        "cast:\n  - {id: zhuren, name: 主人, party: 主, label: 主}\n"
        "  - {id: bin, name: 賔, party: 賓, label: 賔}\n", encoding="utf-8")
    (folder / "sections" / "01.yaml").write_text(STAGE, encoding="utf-8")
    head = f"title: {title}\n" if title else ""
    (folder / "manifest.yaml").write_text(
        f"rite: 試禮\n{head}text: text/corpus.json\nlayout: hall.yaml\ncast: cast.yaml\n"
        "sections:\n  - sections/01.yaml\n", encoding="utf-8")
    return folder


def toy_patterns(toy: Path, steps: list[list[tuple[int | None, int]]], top: int,
                 name: str = "boom") -> None:
    """Give the toy patterns p0, p1, …, named by the manifest, and a step of its section using
    p`top`. Pattern i's steps are `steps[i]`: (j, n) uses p_j n times, (None, n) bows n times.
    The pattern graphs of the bounded-work tests, the fuzzer and bench/robust.py."""
    lines = ["patterns:"]
    for i, line in enumerate(steps):
        lines += [f"  p{i}:", "    params: {who: actor}", "    steps:"]
        for j, n in line:
            lines += (["      - do: [{posture: {who: $who, is: 拜}}]"] if j is None else
                      [f"      - use: p{j}", "        with: {who: $who}"]) * n
    (toy / "patterns").mkdir()
    (toy / "patterns" / f"{name}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    man = toy / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8").replace(
        "sections:\n", "patterns: [patterns]\nsections:\n"), encoding="utf-8")
    sec = toy / "sections" / "01.yaml"
    sec.write_text(sec.read_text(encoding="utf-8") + f"  - cite: 賔拜辱\n    use: p{top}\n"
                   "    with: {who: bin}\n", encoding="utf-8")


def chain(levels: int) -> list[list[tuple[int | None, int]]]:
    """p0 bows; each pattern after it uses the one before ten times (10**levels bows)."""
    return [[(None, 1)]] + [[(i - 1, 10)] for i in range(1, levels + 1)]


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    return make_toy(tmp_path_factory.mktemp("toy") / "試禮")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- the package


def test_the_bundled_manifest_names_its_title_text_and_layout():
    pkg = package.default()
    assert (pkg.name, pkg.title) == ("鄉射禮", "鄉射禮")
    assert pkg.text == (ROOT / "assets" / "text" / "corpus.json").resolve()
    assert pkg.layout == DEFAULT_LAYOUT.resolve()
    assert pkg.script == DEFAULT_SCRIPT


def test_a_bundled_rite_by_name_folder_or_variant(toy):
    for spec in ("鄉射禮", "xiangshe", "XiangShe", " 鄉射禮 "):
        assert package.find(spec).script == DEFAULT_SCRIPT, spec
    assert package.find(str(toy)).title == TITLE
    assert package.find(str(toy / "manifest.yaml")).title == TITLE


def test_the_corpus_is_cached_by_its_file_not_by_how_it_is_named(toy):
    a = load_corpus(toy / "text")
    assert a is load_corpus(toy / "text" / "corpus.json")
    assert a is not load_corpus() and a.plain.startswith(FRONT)
    assert load_corpus() is load_corpus(ROOT / "assets" / "text" / "corpus.json")


def test_title_defaults_to_the_rite_name(tmp_path):
    pkg = package.of_script(make_toy(tmp_path / "t", title=None))
    assert (pkg.name, pkg.title) == ("試禮", "試禮")


# ---------------------------------------------------------------- every command follows --rite


def test_check_reads_the_rites_layout_and_text(capsys, toy, monkeypatch):
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 0, err
    assert out.startswith(f"ok: {toy / 'hall.yaml'}: ")
    assert "2 actors" in out and "1 stages" in out and "2 steps" in out
    # `check --rite 鄉射禮` says "ok: layouts/xu.yaml: 72 places": the layout it resolves to, as
    # check shows it, without the whole rite's compile (test_cli.py checks the bundled rite)
    from viz.cli.options import spec_of
    from viz.model.layout import load_layout

    monkeypatch.chdir(ROOT)
    bundled = spec_of(argparse.Namespace(rite="鄉射禮", script=None, layout=None))
    assert str(bundled.package.layout) == "layouts/xu.yaml"
    assert len(load_layout(bundled.package.layout).places) == 72
    places = int(out.split(": ")[2].split()[0])
    assert places == 73  # the 州序's 72 and the toy's 先生門


def test_layout_still_overrides_the_manifest(capsys, toy):
    code, out, _ = run(capsys, "check", "--rite", str(toy), "--layout", str(DEFAULT_LAYOUT))
    assert code == 0 and out.startswith(f"ok: {DEFAULT_LAYOUT}: 72 places")


def test_text_prints_the_rites_own_text(capsys, toy):
    code, out, _ = run(capsys, "text", "--rite", str(toy), "--part", "經")
    assert code == 0 and out == "".join(JING) + "\n"
    code, out, _ = run(capsys, "text", "--rite", str(toy), "--part", "注")
    assert code == 0 and out == ZHU + "\n"
    code, out, _ = run(capsys, "text", "--rite", str(toy))
    assert f"題\t[001-1a]\t{FRONT}" in out and "鄉射" not in out
    code, out, _ = run(capsys, "text", "--rite", "xiangshe", "--part", "經", "--stage", "1")
    assert code == 0 and out.startswith("主人戒賔賔出迎再拜")


def test_find_searches_the_rites_text(capsys, toy):
    code, out, _ = run(capsys, "find", "先生", "--rite", str(toy))
    assert code == 0 and out.count("\n") == 2 and "01.01" in out  # in the 經 and in its 注
    code, _, _ = run(capsys, "find", "就先生", "--rite", "鄉射禮")
    assert code == 1


def test_state_and_coverage_follow_the_rite(capsys, toy):
    code, out, _ = run(capsys, "state", "--rite", str(toy), "--after", "賔拜辱", "--json")
    assert code == 0
    s = json.loads(out)
    assert s["stage"]["name"] == "謀賔" and s["step"]["cite"] == "賔拜辱"
    assert {a["id"] for a in s["actors"]} == {"zhuren", "bin"}
    code, out, _ = run(capsys, "coverage", "--rite", str(toy), "--json")
    assert code == 0
    cov = json.loads(out)
    assert json.dumps(cov, ensure_ascii=False).count("01.0") >= 2
    assert "02.01" not in out  # 鄉射's clauses are not this rite's


def test_plate_sheet_and_atlas_carry_the_rite(capsys, toy, tmp_path):
    svg = tmp_path / "p.svg"
    code, _, err = run(capsys, "plate", "--rite", str(toy), "--stage", "1", "-o", str(svg))
    assert code == 0, err
    text = svg.read_text(encoding="utf-8")
    assert "<title>謀賔圖 主人戒賔，賔拜辱。</title>" in text and "賔出迎" not in text
    code, out, _ = run(capsys, "sheet", "zhuren", "--rite", str(toy))
    assert code == 0 and out.startswith(f"# 主人 — {TITLE}行事表")
    code, _, err = run(capsys, "atlas", "--rite", str(toy), "-o", str(tmp_path / "atlas"))
    assert code == 0, err
    page = (tmp_path / "atlas" / "index.html").read_text(encoding="utf-8")
    assert f"<title>{TITLE}圖</title>" in page and "鄉射禮圖" not in page


def test_the_video_is_titled_after_the_rite():
    from viz.export.video import ffmpeg_command

    cmd = ffmpeg_command("ffmpeg", (64, 64), 30.0, Path("o.mp4"), None, TITLE)
    assert cmd[cmd.index("-metadata") + 1] == f"title={TITLE}" and cmd[-1] == "o.mp4"
    assert "-metadata" not in ffmpeg_command("ffmpeg", (64, 64), 30.0, Path("o.mp4"), None)


def test_the_window_is_titled_after_the_rite_and_shows_its_text(capsys, toy, monkeypatch):
    import viz.app.window as window

    seen = {}

    def fake_run(layout, timeline, corpus=None, **kw):
        seen.update(kw, corpus=corpus, layout=layout)
        return 0

    monkeypatch.setattr(window, "run", fake_run)
    code, _, err = run(capsys, "play", "--rite", str(toy), "--paused")
    assert code == 0, err
    assert seen["title"] == TITLE and seen["corpus"].plain.startswith(FRONT)
    assert "先生門" in seen["layout"].places


# ---------------------------------------------------------------- errors and the font


def test_an_unknown_rite_is_one_clear_line_listing_the_bundled(capsys, tmp_path):
    code, _, err = run(capsys, "check", "--rite", "大射儀")
    assert code == 2 and "Traceback" not in err
    line = err.splitlines()[0]
    assert line.startswith("--rite:1:1: '大射儀' is no bundled rite") and "鄉射禮 (xiangshe)" in line
    code, _, err = run(capsys, "text", "--rite", str(tmp_path))
    assert code == 2 and "no rite folder (no manifest.yaml in it)" in err


def test_rite_and_script_together_are_refused(capsys, toy):
    code, _, err = run(capsys, "state", "--rite", str(toy), "--script", str(DEFAULT_SCRIPT))
    assert code == 2 and "give one of them" in err


def test_a_text_that_names_no_file_is_located(capsys, tmp_path):
    folder = make_toy(tmp_path / "t")
    man = folder / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8").replace("text/corpus.json", "nothere.json"),
                   encoding="utf-8")
    code, _, err = run(capsys, "check", "--rite", str(folder))
    assert code == 2 and f"{man}:3:7: text: expected a corpus.json" in err, err


def test_a_manifest_that_does_not_parse_is_reported_by_the_reader(capsys, tmp_path):
    folder = make_toy(tmp_path / "t")
    man = folder / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8") + "sections: [\n", encoding="utf-8")
    code, _, err = run(capsys, "check", "--rite", str(folder))
    assert code == 2 and err.startswith(f"{man}:") and "Traceback" not in err, err


def test_check_warns_of_characters_the_font_lacks(capsys, tmp_path):
    folder = make_toy(tmp_path / "t", extra_note="\ue000")
    code, out, err = run(capsys, "check", "--rite", str(folder))
    assert code == 0 and out.startswith("ok: ")
    corpus_file = (folder / "text" / "corpus.json").resolve()
    assert (f"{corpus_file}:1:1: warning: font: 1 character(s) of the rite's text not in "
            "NotoSerifTC-Xiangshe.otf, drawn as boxes: \ue000 (U+E000)") in err, err
    code, _, err = run(capsys, "check", "--rite", str(folder), "--strict")
    assert code == 2 and "U+E000" in err
