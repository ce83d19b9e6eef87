"""The atlas: plates beside their text, offline, printable, byte-identical run to run."""
from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from test_video import run_cli

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.export import atlas
from viz.fileio import RefuseOverwrite


@pytest.fixture(scope="module")
def rite():
    from viz.cli import load_all

    return load_all(DEFAULT_SCRIPT, DEFAULT_LAYOUT)


@pytest.fixture(scope="module")
def built(rite, tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("atlas") / "atlas"
    info = atlas.build_atlas(rite, d, progress=False)  # processes, when the machine has cores
    assert info.plates == len(rite.timeline.stages)
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
    assert steps[1].steps == (1,) and "主人一相出迎於門外" in steps[1].title
    assert steps[1].trails == "step"


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


def test_each_plate_sits_beside_its_text_notes_and_navigation(rite, built):
    page = (built / "index.html").read_text(encoding="utf-8")
    sections = re.findall(r'<section class="page" id="([^"]+)">(.*?)</section>', page, re.S)
    assert [a for a, _ in sections] == [p.anchor for p in atlas.pages(rite.timeline)]
    first = sections[0][1]
    assert 'src="plates/stage-01.png"' in first
    assert "及門，主人一相出迎於門外，再拜；" in first  # 經, punctuated
    assert '<p class="zhu">相主人家臣擯贊傳命者</p>' in first  # its 注 below
    assert rite.timeline.steps[1].note.split(":")[0] in first  # the script's note
    assert 'href="#stage-02"' in first  # on to the next stage
    assert "迎賔" not in sections[1][1].split("<h2>")[1].split("</h2>")[0]
    assert 'href="#stage-01"' in sections[1][1]  # and back


def test_it_prints_one_plate_a_page(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    css = page.split("@media print", 1)[1]
    assert re.search(r"section\.page \{[^}]*page-break-after: always", css)


def test_the_same_rite_gives_the_same_bytes_with_or_without_processes(rite, built, tmp_path):
    again = tmp_path / "again"
    atlas.build_atlas(rite, again, workers=1, progress=False)
    assert files(again) == files(built)


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
    sec = re.search(r'<section class="page" id="step-003">(.*?)</section>', page, re.S).group(1)
    assert tl.steps[2].cite == "再拜"
    assert sec.count('class="jing') == 1 and "05.01" in sec
    assert 'src="plates/step-003.png"' in sec


def test_the_command(tmp_path, capsys):
    missing = run_cli("atlas", "-o", str(tmp_path / "no" / "atlas"), capsys=capsys)
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "index.html").write_text("mine")
    refused = run_cli("atlas", "-o", str(tmp_path / "x"), capsys=capsys)
    assert refused.returncode == 2 and "--force" in refused.stderr
