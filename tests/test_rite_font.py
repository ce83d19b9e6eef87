"""A rite may name its own font or fallback (issue 25): the manifest's `font:` is drawn with
instead of the bundled font, its `fallback:` for the characters that font lacks, in the
window, the plates and the page; `check` still warns of characters left undrawable. The
fallback here is a one-glyph font built with fontTools: a box for 가, which the bundled font
lacks."""
from __future__ import annotations

import pytest

from test_package import make_toy, run
from viz.base import fontchoice

CHAR = "가"  # no CJK serif of the 儀禮 draws it: the bundled font lacks it


def box_font(path, char: str = CHAR) -> None:
    """A TrueType font of one glyph, a filled box, for char."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    pen = TTGlyphPen(None)
    pen.moveTo((100, -100))
    pen.lineTo((100, 800))
    pen.lineTo((900, 800))
    pen.lineTo((900, -100))
    pen.closePath()
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "box"])
    fb.setupCharacterMap({ord(char): "box"})
    empty = TTGlyphPen(None).glyph()
    fb.setupGlyf({".notdef": empty, "box": pen.glyph()})
    fb.setupHorizontalMetrics({".notdef": (1000, 0), "box": (1000, 100)})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": "Box", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    fb.setupPost()
    fb.save(str(path))


@pytest.fixture(autouse=True)
def bundled_font_after():
    yield
    fontchoice.choose(None, None)  # the next test draws with the bundled font again


def toy_naming(folder, manifest_extra: str = ""):
    toy = make_toy(folder)
    cast = toy / "cast.yaml"
    cast.write_text(cast.read_text(encoding="utf-8").replace("name: 賔,", f"name: 賔{CHAR},"),
                    encoding="utf-8")
    if manifest_extra:
        man = toy / "manifest.yaml"
        man.write_text(man.read_text(encoding="utf-8").replace(
            "cast: cast.yaml\n", "cast: cast.yaml\n" + manifest_extra), encoding="utf-8")
    return toy


def test_check_warns_of_a_character_no_font_draws(capsys, tmp_path):
    toy = toy_naming(tmp_path / "a")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert f"{CHAR} (U+{ord(CHAR):04X})" in err and "NotoSerifTC-Xiangshe.otf" in err, err


def test_a_fallback_draws_it_and_check_is_quiet(capsys, tmp_path):
    toy = toy_naming(tmp_path / "b", "fallback: fonts/box.ttf\n")
    (toy / "fonts").mkdir()
    box_font(toy / "fonts" / "box.ttf")
    code, out, err = run(capsys, "check", "--strict", "--rite", str(toy))
    assert code == 0, err
    assert CHAR not in err
    from viz.backends import fonts
    assert fonts.fallback_path() == (toy / "fonts" / "box.ttf").resolve()
    assert fonts.has_glyphs(CHAR + "賔") == [True, True]
    # drawn: the box's ink where the character stands, between the bundled font's glyphs
    import numpy as np
    import pygame
    line = fonts.TextCache().render("賔" + CHAR + "賔", 40, (0, 0, 0))
    alpha = pygame.surfarray.array_alpha(line)
    w = line.get_width()
    assert w > 100  # three characters' advance at 40 px
    third = alpha[w // 3 + 4: 2 * w // 3 - 4]
    assert (third > 200).mean() > 0.5  # the box fills most of its cell


@pytest.mark.slow  # writes a whole web page (2.2 s)
def test_the_page_embeds_the_fallback_for_that_character(capsys, tmp_path):
    toy = toy_naming(tmp_path / "c", "fallback: fonts/box.ttf\n")
    (toy / "fonts").mkdir()
    box_font(toy / "fonts" / "box.ttf")
    page = tmp_path / "p.html"
    code, out, err = run(capsys, "web", "--rite", str(toy), "-o", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.count("@font-face") == 2
    assert f"unicode-range:U+{ord(CHAR):X}" in html


def test_a_font_named_outside_the_folder_is_refused_at_its_key(capsys, tmp_path):
    toy = toy_naming(tmp_path / "d", "font: ../box.ttf\n")
    box_font(tmp_path / "d" / "box.ttf")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "manifest.yaml:6:7: font:" in err, err


def test_a_font_that_is_no_font_is_a_clear_error(capsys, tmp_path):
    toy = toy_naming(tmp_path / "e", "font: notafont.ttf\n")
    (toy / "notafont.ttf").write_text("not a font", encoding="utf-8")
    code, out, err = run(capsys, "check", "--rite", str(toy))
    assert code == 2
    assert "notafont.ttf:1:1: font: not a font file" in err, err
    assert "Traceback" not in err
