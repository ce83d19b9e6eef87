"""Cue sheets: which steps are a role's, what each cue says, the three formats, the command."""
from __future__ import annotations

import csv
import io
import os
import re

import pytest
from test_video import run_cli, trimmed_rite

from viz import DEFAULT_LAYOUT
from viz.export import sheets
from viz.query.state import QueryError


@pytest.fixture(scope="module")
def rite(bundled):
    return bundled


@pytest.fixture(scope="module")
def frames(bundled_frames):  # conftest's: computed once a run for both files of cue sheets
    return bundled_frames


def cues_of(rite, frames, who):
    tl = rite.timeline
    return sheets.cues(tl, rite.layout, rite.corpus, sheets.find_actor(tl, who), frames)


def test_an_actor_is_found_by_id_name_or_label_and_an_unknown_one_lists_the_ids(rite):
    tl = rite.timeline
    i = tl.actor_index["shangshe1"]
    assert sheets.find_actor(tl, "shangshe1") == i
    assert sheets.find_actor(tl, "上耦上射") == i
    assert sheets.find_actor(tl, "上射1") == i
    with pytest.raises(QueryError, match="youshi1, youshi2, youshi3"):
        sheets.find_actor(tl, "有司")  # three people: the ids to choose from
    with pytest.raises(QueryError, match=r"no actor 'nobody'.*zhuren \(主人\).*shangshe1"):
        sheets.find_actor(tl, "nobody")


def out_step(tl) -> int:
    """主人一相出迎於門外: the 主人's going out to meet the 賔, the second step of 迎賔."""
    k = next(k for k, st in enumerate(tl.steps) if st.cite == "主人一相出迎於門外")
    assert k == tl.stages[tl.steps[k].stage].first_step + 1
    return k


@pytest.mark.slow
def test_the_zhuren_goes_out_bows_and_is_not_in_the_bin_s_answer(rite, frames):
    cs = {c.step: c for c in cues_of(rite, frames, "zhuren")}
    tl = rite.timeline
    k = out_step(tl)
    ying = tl.stages[tl.steps[k].stage]
    out = cs[k]
    assert tl.steps[k].cite == out.cite == "主人一相出迎於門外"
    assert out.moves and (out.start_place, out.end_place) == ("門內東", "門外東")
    assert out.walked == pytest.approx(15.6, abs=0.2)
    assert out.facing == ("南", "西")
    assert out.clause_id == "05.01" and out.clause.startswith("及門，")
    assert tl.steps[k + 1].cite == "再拜"
    assert cs[k + 1].gestures == ("再拜",) and not cs[k + 1].moves
    assert tl.steps[k + 2].cite == "賔答再拜" and k + 2 not in cs  # the 主人 stands still
    mine = [c for c in cs.values() if ying.first_step <= c.step <= ying.last_step]
    assert len(mine) > 5 and all(c.stage == "5 迎賔" for c in mine)
    assert cs[min(cs)].stage == "1 戒賔"  # he has cues from the first stage on


@pytest.mark.slow  # every step's frames of the whole rite (2.1 s)
def test_taking_the_bow_and_arrows_is_a_cue_with_what_changed_hands(rite, frames):
    cs = cues_of(rite, frames, "shangshe1")
    bow = next(c for c in cs if "授弓" in c.cite)
    assert bow.takes == ("弓",) and bow.holding == ("弓",) and not bow.moves
    arrows = next(c for c in cs if c.cite == "遂授矢")
    assert arrows.takes == ("矢×4",)
    assert set(arrows.holding) == {"弓", "矢×4"}
    walk = next(c for c in cs if c.cite.startswith("三耦皆進"))
    assert walk.moves and walk.end_place == "射位" and walk.facing[1] == "東"
    assert len(walk.path) >= 2 and tuple(walk.path[-1]) == pytest.approx(walk.end)


@pytest.mark.slow
def test_csv_has_a_row_per_cue(rite, frames):
    tl = rite.timeline
    i = tl.actor_index["zhuren"]
    (path, data), = sheets.sheet_files(tl, rite.layout, rite.corpus, i, "csv", None, frames)
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
    cs = sheets.cues(tl, rite.layout, rite.corpus, i, frames)
    assert len(rows) == len(cs) > 10
    assert [int(r["step"]) for r in rows] == [c.step + 1 for c in cs]  # as html and md number
    assert rows[0]["stage"] == "1 戒賔" and rows[0]["cite"] == cs[0].cite == "主人戒賔"
    j = next(j for j, c in enumerate(cs) if c.step == out_step(tl))
    row = rows[j]
    assert row["cite"] == "主人一相出迎於門外" and row["to_place"] == "門外東"
    assert row["stage"] == "5 迎賔" and row["clause_id"] == "05.01"
    assert float(row["walked_chi"]) == pytest.approx(cs[j].walked, abs=0.05)


@pytest.mark.slow
def test_markdown_links_plans_written_beside_it(rite, frames, tmp_path):
    import pygame

    tl = rite.timeline
    out = tmp_path / "zhuren.md"
    files = sheets.sheet_files(tl, rite.layout, rite.corpus, tl.actor_index["zhuren"], "md",
                               out, frames)
    text = files[0][1].decode("utf-8")
    links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", text)
    moves = [c for c in sheets.cues(tl, rite.layout, rite.corpus, tl.actor_index["zhuren"],
                                    frames) if c.moves]
    assert len(links) == len(moves) == len(files) - 1
    for link, (p, data) in zip(links, files[1:]):
        assert out.parent / link == p  # relative to the sheet
        img = pygame.image.load(io.BytesIO(data), "x.png")
        assert img.get_size() == sheets.PLAN_SIZE
        # the path is drawn: some pixels have its red
        px = pygame.surfarray.array3d(img).reshape(-1, 3)
        assert ((px == sheets.PATH_COLOR).all(axis=1)).sum() > 10


@pytest.mark.slow
def test_html_is_self_contained_with_the_plans_inline(rite, frames):
    tl = rite.timeline
    i = tl.actor_index["sishe"]
    (_, data), = sheets.sheet_files(tl, rite.layout, rite.corpus, i, "html", None, frames)
    page = data.decode("utf-8")
    moves = sum(c.moves for c in sheets.cues(tl, rite.layout, rite.corpus, i, frames))
    assert page.count('src="data:image/png;base64,') == moves > 0
    assert "http://" not in page and "https://" not in page
    assert page.count("<tr>") == len(sheets.cues(tl, rite.layout, rite.corpus, i, frames)) + 1


@pytest.mark.slow
def test_the_command(tmp_path, capsys):
    from viz.cli.options import load_all

    # a small whole rite (sections 01–05, 戒賔 … 迎賔): quick to compile, and the 主人 acts in it
    small = trimmed_rite(tmp_path / "rite")
    bad = run_cli("sheet", "--script", str(small), "nobody", capsys=capsys)
    assert bad.returncode == 2 and "shangshe1 (上耦上射)" in bad.stderr
    md = run_cli("sheet", "--script", str(small), "主人", capsys=capsys)
    assert md.returncode == 0 and md.stdout.startswith("# 主人 — 鄉射禮行事表")
    assert "主人一相出迎於門外" in md.stdout
    actors = load_all(small, DEFAULT_LAYOUT).timeline.actors
    d = tmp_path / "all"
    csv_all = ("sheet", "--script", str(small), "--all", "-o", str(d), "--format", "csv")
    ok = run_cli(*csv_all, capsys=capsys)
    assert ok.returncode == 0, ok.stderr
    names = sorted(os.listdir(d))
    assert names == sorted(f"{a.id}.csv" for a in actors) and "zhuren.csv" in names
    assert len(names) > 40 and all((d / n).stat().st_size for n in names)
    before = {n: (d / n).read_bytes() for n in names}
    again = run_cli(*csv_all, capsys=capsys)
    assert again.returncode == 2 and "--force" in again.stderr
    assert {n: (d / n).read_bytes() for n in os.listdir(d)} == before
    forced = run_cli(*csv_all, "--force", capsys=capsys)
    assert forced.returncode == 0
    assert {n: (d / n).read_bytes() for n in os.listdir(d)} == before  # deterministic
    html = run_cli("sheet", "--script", str(small), "zhuren", "-o", str(tmp_path / "s.html"),
                   capsys=capsys)
    assert html.returncode == 0 and (tmp_path / "s.html").read_text().startswith("<!DOCTYPE")
    assert "size: A4 portrait" in (tmp_path / "s.html").read_text()
    letter = run_cli("sheet", "--script", str(small), "zhuren", "-o", str(tmp_path / "l.html"),
                     "--paper", "letter", capsys=capsys)
    assert letter.returncode == 0 and "size: letter portrait" in (tmp_path / "l.html").read_text()


@pytest.mark.slow
def test_a_sheet_of_one_stage(tmp_path, capsys):
    """`sheet zhuren --stage 5` (or ⑤, 迎賔): that stage's cues only; a role with none there
    is told so; --all writes only the roles that act in it."""
    small = trimmed_rite(tmp_path / "rite")
    whole = run_cli("sheet", "--script", str(small), "zhuren", "--format", "csv", capsys=capsys)
    rows = whole.stdout.splitlines()[1:]
    for name in ("5", "⑤", "迎賔"):
        one = run_cli("sheet", "--script", str(small), "zhuren", "--format", "csv", "--stage",
                      name, capsys=capsys)
        assert one.returncode == 0, one.stderr
        got = one.stdout.splitlines()[1:]
        assert got and set(got) < set(rows) and all(",5 迎賔," in r for r in got), got[:2]
    none = run_cli("sheet", "--script", str(small), "bin", "--stage", "2", capsys=capsys)
    assert none.returncode == 2 and "does nothing in stage 2 設席陳器" in none.stderr
    d = tmp_path / "five"
    ok = run_cli("sheet", "--script", str(small), "--all", "-o", str(d), "--format", "csv",
                 "--stage", "迎賔", capsys=capsys)
    assert ok.returncode == 0 and "zhuren.csv" in os.listdir(d) and "li1.csv" not in os.listdir(d)


# ---------------------------------------------------------------- printing

@pytest.mark.slow  # a whole sheet
def test_html_prints_on_a4_or_letter_a_table_the_pages_width_a_cue_never_cut(rite, frames):
    tl = rite.timeline
    i = tl.actor_index["sishe"]
    cs = sheets.cues(tl, rite.layout, rite.corpus, i, frames)[:6]
    page = sheets.to_html(tl, rite.layout, i, cs)
    assert "@page { size: A4 portrait;" in page
    assert "@page { size: letter portrait;" in sheets.to_html(tl, rite.layout, i, cs, "letter")
    with pytest.raises(ValueError, match="a4, letter"):
        sheets.to_html(tl, rite.layout, i, cs, "a3")
    css = page[page.index("@media print"):]
    assert "table-layout: fixed" in page and "tr { break-inside: avoid" in css
    # the fixed columns leave the text at least 60 mm of an A4 page's 192 (never 2 characters)
    fixed = sum(float(w) for w in re.findall(r"col\.\w+ \{ width: ([\d.]+)mm", css))
    assert 0 < fixed <= 192 - 60, fixed
    assert '<col class="text">' in page and "col.text" not in css
    # a heading row where each stage begins, instead of a column
    assert page.count('<tr class="stage">') == len({c.stage for c in cs})


def _chromium():
    import shutil

    return shutil.which("chromium") or shutil.which("chromium-browser")


# .ci/run installs Chromium: there (CI=true) a missing one fails the test, it is not skipped
@pytest.mark.slow
@pytest.mark.skipif(not _chromium() and not os.environ.get("CI"),
                    reason="needs headless Chromium to print (apt-get install chromium)")
def test_the_shangshe1_sheet_prints_on_at_most_ten_a4_pages(rite, frames, tmp_path):
    import subprocess

    tl = rite.timeline
    i = tl.actor_index["shangshe1"]
    page = tmp_path / "s.html"
    page.write_bytes(sheets.sheet_files(tl, rite.layout, rite.corpus, i, "html", page,
                                        frames)[0][1])
    pdf = tmp_path / "s.pdf"
    subprocess.run([_chromium(), "--headless", "--no-sandbox", f"--print-to-pdf={pdf}",
                    "--no-pdf-header-footer", page.as_uri()], capture_output=True, timeout=180,
                   check=True)
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    # 94 before the print stylesheet; 9 with it; 11 when each clause of 升堂 became a cue of its
    # own (上射先升三等 / 上射升堂少左 / 上射揖: 144 cues, 6 more), 9 again with the plan 25 mm
    # wide (the plan sets a cue's height) and the cue number never wrapped
    assert 0 < pages <= 10, pages
    # A4: 595 × 842 points
    assert re.search(rb"/MediaBox\s*\[\s*0 0 59[45]\.\d* 84[12]\.\d*", data)
