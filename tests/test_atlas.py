"""The atlas: plates beside their text, offline, printable, byte-identical run to run."""
from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_video import run_cli, trimmed_rite

from viz import DEFAULT_LAYOUT
from viz.base.fileio import RefuseOverwrite
from viz.export import atlas


@pytest.fixture(scope="module")
def rite(tmp_path_factory):
    """The bundled rite's sections 01–05 (戒賔 … 迎賔): a whole rite, small enough to draw twice."""
    from viz.cli.options import load_all

    compiled = load_all(trimmed_rite(tmp_path_factory.mktemp("rite")), DEFAULT_LAYOUT)
    assert [s.name for s in compiled.timeline.stages][-1] == "迎賔"
    return compiled


def out_step(tl) -> int:
    """主人一相出迎於門外: the 主人's going out to meet the 賔, the second step of 迎賔."""
    k = next(k for k, st in enumerate(tl.steps) if st.cite == "主人一相出迎於門外")
    assert tl.stages[tl.steps[k].stage].name == "迎賔"
    assert k == tl.stages[tl.steps[k].stage].first_step + 1
    return k


@pytest.fixture(scope="module")
def built(rite, tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("atlas") / "atlas"
    info = atlas.build_atlas(rite, d, progress=False, svg=True)  # processes, when the machine
    assert info.plates == len(rite.timeline.stages)  # has cores
    return d


def files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def test_a_page_per_stage_or_per_step(rite):
    tl = rite.timeline
    stages = atlas.pages(tl)
    assert [p.anchor for p in stages] == [f"stage-{i + 1:02d}" for i in range(len(tl.stages))]
    assert all(p.closing and p.t == s.t1 and p.trails == "stage" for p, s in zip(stages, tl.stages))
    steps = atlas.pages(tl, steps=True)
    assert len(steps) == len(tl.steps) == len({p.anchor for p in steps})
    assert [p.anchor for p in steps] == [f"step-{k + 1:03d}" for k in range(len(tl.steps))]
    k = out_step(tl)
    assert steps[k].steps == (k,) and "主人一相出迎於門外" in steps[k].title
    assert steps[k].title.startswith(f"{len(tl.stages)} 迎賔 · {k + 1}「")
    assert steps[k].trails == "step" and steps[k].t == tl.steps[k].t1


@pytest.mark.slow
def test_the_folder_holds_the_page_the_plates_and_the_font(rite, built):
    import pygame

    names = set(files(built))
    n = len(rite.timeline.stages)
    assert names == {"index.html", "fonts/NotoSerifTC-Xiangshe.otf", "fonts/OFL.txt",
                     *(f"plates/stage-{i + 1:02d}.{e}" for i in range(n) for e in ("png", "svg"))}
    png = pygame.image.load(io.BytesIO((built / "plates/stage-01.png").read_bytes()), "a.png")
    assert png.get_size() == atlas.PLATE_SIZE
    root = ET.fromstring((built / "plates/stage-01.svg").read_bytes())
    assert root.tag.endswith("svg")


@pytest.mark.slow
def test_the_page_is_offline_and_every_link_resolves(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    assert "<script" not in page
    assert not re.search(r"(https?:|file:|//)[^ ]", page.replace("</", "<"))
    refs = re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r'url\("([^"]+)"\)', page)
    ids = set(re.findall(r'id="([^"]+)"', page))
    assert refs
    for r in refs:
        if r.startswith("#"):
            assert r[1:] in ids, r
        else:
            assert not r.startswith("/") and (built / r).is_file(), r


@pytest.mark.slow
def test_each_plate_sits_beside_its_text_notes_and_navigation(rite, built):
    page = (built / "index.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section class="page" id="([^"]+)">(.*?)</section>', page, re.S)
    assert [a for a, _ in sections] == [p.anchor for p in atlas.pages(rite.timeline)]
    k = out_step(rite.timeline)
    n = rite.timeline.steps[k].stage + 1  # 迎賔, the last stage of this rite
    assert n == len(sections) >= 2
    ying, before = sections[n - 1][1], sections[n - 2][1]
    assert f'src="plates/stage-{n:02d}.png"' in ying
    assert "及門，主人一相出迎於門外，再拜；" in ying  # 經, punctuated
    assert '<p class="zhu">相主人家臣擯贊傳命者</p>' in ying  # its 注 below
    # the script's note is English: a 中文 page says where it is; --lang en prints it
    assert rite.timeline.steps[k].note.split(":")[0] not in ying and "atlas --lang en" in ying
    from viz.base import lang

    lang.use("en")
    try:
        en = atlas.index_html(rite.timeline, rite.corpus, atlas.pages(rite.timeline), "t")
    finally:
        lang.use(None)
    assert rite.timeline.steps[k].note.split(":")[0] in en
    assert f'href="#stage-{n - 1:02d}"' in ying  # back to the stage before
    assert 'href="#top"' in ying and f'href="#stage-{n + 1:02d}"' not in ying  # the last
    assert "迎賔" not in before.split("<h2>")[1].split("</h2>")[0]
    assert "主人一相出迎於門外" not in before  # another stage, another text
    assert f'href="#stage-{n:02d}"' in before  # on to the next stage
    assert 'href="#stage-02"' in sections[0][1] and 'href="#stage-01"' in sections[1][1]


@pytest.mark.slow
def test_it_prints_one_plate_a_page(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    css = page.split("@media print", 1)[1]
    # each stage starts a page and its plate has that page to itself; its text follows
    assert re.search(r"section\.page \{[^}]*page-break-before: always", css)
    assert re.search(r"figure \{[^}]*page-break-after: always", css)
    assert re.search(r"figure img \{[^}]*max-height: 1\d\dmm", css)


def test_it_prints_on_a4_or_letter_landscape(rite):
    tl = rite.timeline
    a4 = atlas.index_html(tl, rite.corpus, atlas.pages(tl), "t")
    assert "@page { size: A4 landscape;" in a4
    assert "@page { size: letter landscape;" in atlas.index_html(tl, rite.corpus,
                                                                 atlas.pages(tl), "t", "letter")


@pytest.mark.slow  # the whole rite's atlas pages worked out
def test_a_busy_stage_has_a_page_per_plate_as_plate_stage_draws_them(bundled):
    """The bundled rite's 三射用樂 (72 numbered moves): a page for each of its plates, its whole
    text on the first, only the clauses it draws on the others."""
    from viz.draw.plate import stage_parts

    whole = bundled
    tl = whole.timeline
    k = next(s.index for s in tl.stages if s.name == "三射用樂")
    parts = stage_parts(tl, k, whole.corpus)
    pages = [p for p in atlas.pages(tl, corpus=whole.corpus) if p.stage == k]
    assert len(parts) >= 3 and [p.part for p in pages] == parts
    assert [p.anchor for p in pages] == [f"stage-{k + 1}-{n}" for n in range(1, len(parts) + 1)]
    assert all(p.t == q.moment(tl) and p.closing for p, q in zip(pages, parts))
    first, second = (atlas._text_block(tl, whole.corpus, p) for p in pages[:2])
    assert first.count('<p class="jing') > second.count('<p class="jing') > 0
    assert 'class="jing"' in first and second.count('class="jing"') == 0  # all cited


@pytest.mark.slow
def test_the_same_rite_gives_the_same_bytes_with_or_without_processes(rite, built, tmp_path):
    again = tmp_path / "again"
    atlas.build_atlas(rite, again, workers=1, progress=False, svg=True)
    assert files(again) == files(built)


@pytest.mark.slow  # two atlases built
def test_without_svg_the_plates_are_pngs_and_each_links_its_png(rite, built, tmp_path):
    d = tmp_path / "png"
    atlas.build_atlas(rite, d, workers=1, progress=False)
    got, whole = files(d), files(built)
    assert sorted(got) == sorted(k for k in whole if not k.endswith(".svg"))
    assert all(got[k] == whole[k] for k in got if k.endswith(".png"))
    page = got["index.html"].decode("utf-8")
    assert ".svg" not in page and '<a href="plates/stage-01.png"><img' in page


def test_an_existing_atlas_is_kept_unless_forced(rite, tmp_path):
    d = tmp_path / "a"
    d.mkdir()
    (d / "index.html").write_text("mine")
    with pytest.raises(RefuseOverwrite, match="index.html"):
        atlas.build_atlas(rite, d, progress=False)
    assert os.listdir(d) == ["index.html"] and (d / "index.html").read_text() == "mine"


def test_a_step_page_shows_only_the_clauses_it_cites(rite):
    tl = rite.timeline
    pages = atlas.pages(tl, steps=True)
    page = atlas.index_html(tl, rite.corpus, pages, "t")
    k = out_step(tl) + 1  # the 主人's 再拜, outside the gate
    sec = re.search(rf'<section class="page" id="step-{k + 1:03d}">(.*?)</section>', page,
                    re.S).group(1)
    assert tl.steps[k].cite == "再拜"
    assert sec.count('class="jing') == 1 and "05.01" in sec
    assert f'src="plates/step-{k + 1:03d}.png"' in sec
    whole = re.search(r'<section class="page" id="stage-05">(.*?)</section>',
                      atlas.index_html(tl, rite.corpus, atlas.pages(tl), "t"), re.S).group(1)
    assert whole.count('class="jing') > 1  # a stage page shows its section's every clause


@pytest.mark.slow
def test_the_command(tmp_path, capsys):
    small = str(trimmed_rite(tmp_path / "rite"))  # the checks come before any drawing
    missing = run_cli("atlas", "--script", small, "-o", str(tmp_path / "no" / "atlas"),
                      capsys=capsys)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "index.html").write_text("mine")
    refused = run_cli("atlas", "--script", small, "-o", str(tmp_path / "x"), capsys=capsys)
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert os.listdir(tmp_path / "x") == ["index.html"]
    assert (tmp_path / "x" / "index.html").read_text() == "mine"


def test_a_closing_mark_cut_off_its_quotation_goes_back_to_the_words_it_closes():
    """18.17 …命曰：「無射獲，無獵獲。 / 18.18 」上射揖。 — the 」 ends the clause before."""
    from types import SimpleNamespace as NS

    from viz.text.corpus import Clause

    said = Clause("18.17", 18, "經", 0, 8, "命曰無射獲", "命曰：「無射獲。", (), "p")
    bow = Clause("18.18", 18, "經", 8, 12, "上射揖", "」上射揖。", ("注",), "p")
    sec = NS(index=18)
    corpus = NS(clauses=(said, bow), section_at=lambda i: sec, section_named=lambda n: sec)
    tl = NS(stages=[NS(first_step=0, last_step=1, section="x")],
            steps=[NS(span=(0, 8)), NS(span=(8, 12))])
    block = atlas._text_block(tl, corpus, atlas.Page("stage-18", "18", 1.0, True, 0, (0, 1),
                                                     "stage"))
    assert "命曰：「無射獲。」</p>" in block and "</span>上射揖。</p>" in block
    # a page that shows only the second clause leaves its words as they are
    one = atlas._text_block(tl, corpus, atlas.Page("step-2", "2", 1.0, True, 0, (1,), "step"))
    assert "</span>」上射揖。</p>" in one and "命曰" not in one
