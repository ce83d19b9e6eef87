"""The handouts in the reader's language: cue sheets and plates in 中文 by default show no
English words in their visible text (role ids and the names below allowed), `--lang en` gives
the English; the sheets name places, not coordinates; csv and html number the steps alike; the
printed atlas (slow: Chromium) has a contents page, page numbers and at most 120 pages."""
from __future__ import annotations

import csv
import html.parser
import io
import re

import pytest

from viz.base import lang
from viz.export import sheets

# What a 中文 handout may show in Latin letters besides the cast's ids (sishe, shangshe1 …, the
# role ids a sheet heads with, which the command line takes): the names of the file formats
# (csv, SVG, PNG) and the words of a command the page tells the reader to type
# ("-o FILE.md", "atlas --lang en").
ALLOWED = {"csv", "SVG", "PNG", "FILE", "md", "atlas", "lang", "en"}
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]+")  # a word, or an id (shangshe1)


@pytest.fixture(scope="module")
def rite(bundled):  # conftest's one compiled bundled rite a run (what load_all gives)
    return bundled


@pytest.fixture(scope="module")
def frames(bundled_frames):  # conftest's: computed once a run for both files of cue sheets
    return bundled_frames


@pytest.fixture
def en():
    lang.use("en")
    yield
    lang.use(None)


class _Visible(html.parser.HTMLParser):
    """The text nodes a reader sees (not the stylesheet, a script or attributes)."""

    def __init__(self):
        super().__init__()
        self.hidden = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data)


def visible(page: str) -> list[str]:
    p = _Visible()
    p.feed(page)
    return p.texts


def english(texts, ids) -> set[str]:
    """The Latin words among the texts, less the allowed and the ids (a code point, U+248E5,
    naming a character no font draws, is not a word)."""
    return ({w for t in texts for w in WORD.findall(re.sub(r"U\+[0-9A-F]{4,6}", "", t))}
            - ALLOWED - set(ids))


def _sheet(rite, frames, who, fmt):
    tl = rite.timeline
    (_, data), *_ = sheets.sheet_files(tl, rite.layout, rite.corpus, tl.actor_index[who], fmt,
                                       None, frames, rite="鄉射禮")
    return data.decode("utf-8")


@pytest.mark.parametrize("who", ["sishe", pytest.param("zhuren", marks=pytest.mark.slow),
                                 pytest.param("shangshe1", marks=pytest.mark.slow),
                                 pytest.param("huozhe", marks=pytest.mark.slow)])
@pytest.mark.slow  # whole sheets, on every step's frames
def test_a_zh_cue_sheet_shows_no_english(rite, frames, who):
    ids = [a.id for a in rite.timeline.actors]
    page = _sheet(rite, frames, who, "html")
    texts = visible(page)
    assert texts and english(texts, ids) == set(), english(texts, ids)
    assert english(_sheet(rite, frames, who, "md").splitlines(), ids) == set()
    assert "<th>處</th>" in page and "行事表" in texts[0]


@pytest.mark.slow  # the 司射's whole sheet
def test_english_is_a_flag_away(rite, frames, en):
    page = _sheet(rite, frames, "sishe", "html")
    assert "<th>where</th>" in page and "鄉射禮 cue sheet" in page
    assert english(visible(page), [])  # it is English


@pytest.mark.slow  # the 司射's whole sheet, three times
def test_a_sheet_names_places_not_coordinates(rite, frames):
    tl = rite.timeline
    i = tl.actor_index["sishe"]
    cs = sheets.cues(tl, rite.layout, rite.corpus, i, frames)
    page = _sheet(rite, frames, "sishe", "html")
    move = next(c for c in cs if c.moves)
    assert f"{move.start_place} → {move.end_place}，行 {move.walked:.1f} 尺" in page
    assert not re.search(r"\(-?\d+\.\d, -?\d+\.\d\)", page)  # no (x, y)
    rows = list(csv.DictReader(io.StringIO(_sheet(rite, frames, "sishe", "csv"))))
    assert rows[0]["from_x"] and rows[0]["to_y"]  # the coordinates are in the csv


@pytest.mark.slow
def test_csv_and_html_number_the_steps_alike(rite, frames):
    for who in ("sishe", "zhuren"):
        rows = list(csv.DictReader(io.StringIO(_sheet(rite, frames, who, "csv"))))
        page = _sheet(rite, frames, who, "html")
        numbers = [int(n) for n in re.findall(r"<tr><td>(\d+)</td>", page)]
        assert numbers == [int(r["step"]) for r in rows] and len(numbers) > 10
        md = [int(n) for n in re.findall(r"^## (\d+)\. ", _sheet(rite, frames, who, "md"), re.M)]
        assert md == numbers


def test_a_zh_plate_shows_no_english(rite):
    from xml.sax.saxutils import unescape

    from viz.export.plate import render_plate
    from viz.draw.plate import stage_parts

    ids = [a.id for a in rite.timeline.actors]
    k = next(s.index for s in rite.timeline.stages if s.name.startswith("初射"))
    part = stage_parts(rite.timeline, k, rite.corpus)[0]
    _, svg = render_plate(rite, part.moment(rite.timeline), True, trails="stage", part=part)
    texts = [unescape(t) for t in re.findall(r'aria-label="([^"]*)"', svg)]
    assert len(texts) > 50 and english(texts, ids) == set(), english(texts, ids)


def test_the_zh_catalog_is_drawn_by_the_bundled_font():
    from viz.backends import fonts

    for code in lang.LANGS:
        cat = lang.catalog(code)
        assert fonts.check_font(cat.values()) == []
    assert lang.catalog("zh")["where"] == "處"


def test_a_broken_catalog_names_its_line(tmp_path):
    bad = tmp_path / "x.po"
    bad.write_text('msgid "a"\nmsgstr "b"\nnonsense\n', encoding="utf-8")
    with open(bad, "rb") as f, pytest.raises(lang.CatalogError, match=r"x\.po:3:1: expected"):
        lang.POTranslations(f)


@pytest.mark.slow  # the whole rite's atlas pages
def test_the_atlas_page_numbers_its_plates_after_the_contents(rite):
    from viz.export import atlas

    pages = atlas.pages(rite.timeline, corpus=rite.corpus)
    page = atlas.index_html(rite.timeline, rite.corpus, pages, "鄉射禮圖")
    assert "counter(page)" in page.split("@page", 1)[1]
    n = len(pages)
    got = re.findall(r'<li><a class="t" href="#([^"]+)">[^<]*</a><span class="dots"></span>'
                     r'<span class="p">(\d+)</span>', page)
    assert got[:n] == [(p.anchor, str(atlas.contents_pages(n) + i + 1))
                       for i, p in enumerate(pages)]
    assert got[n] == ("texts", str(atlas.contents_pages(n) + n + 1))
    ids = [a.id for a in rite.timeline.actors]
    shown = [t for t in visible(page) if t.strip()]
    assert english(shown, ids) == set(), english(shown, ids)


def _pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


@pytest.mark.slow
def test_the_printed_atlas_has_contents_page_numbers_and_at_most_120_pages(rite, tmp_path):
    from playwright.sync_api import sync_playwright

    from viz.export import atlas

    d = tmp_path / "atlas"
    info = atlas.build_atlas(rite, d, progress=False)
    n = info.plates
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        pg = b.new_page()
        pg.goto((d / "index.html").as_uri())
        pg.emulate_media(media="print")
        whole = pg.pdf(format="A4", landscape=True, prefer_css_page_size=True)
        last_plate = pg.pdf(prefer_css_page_size=True,
                            page_ranges=str(atlas.plate_page(n - 1, n)))
        first_text = pg.pdf(prefer_css_page_size=True,
                            page_ranges=str(atlas.plate_page(n - 1, n) + 1))
        b.close()
    total = _pdf_pages(whole)
    assert atlas.contents_pages(n) + n < total <= 120
    # the contents' numbers hold: the last plate is on its page, the texts start after it
    assert re.search(rb"/Subtype\s*/Image", last_plate)
    assert not re.search(rb"/Subtype\s*/Image", first_text)
