"""The bundled font draws every character of the 17 chapters of 張爾岐's 句讀 (issue 25), exactly
the 11 that no face of Noto Serif CJK has coming from the documented SUBSTITUTES list."""
from __future__ import annotations

from pathlib import Path

from fontTools.ttLib import TTFont

from viz.backends import fonts

ROOT = Path(__file__).resolve().parents[1]
YILI = ROOT / "assets" / "text" / "yili-chars.txt"
CHAPTERS = ROOT.parent / "shared" / "ref" / "儀禮鄭註句讀_張爾岐"


def _chars() -> str:
    return "".join(line for line in YILI.read_text(encoding="utf-8").splitlines()
                   if not line.startswith("#"))


def test_the_list_is_the_seventeen_chapters():
    chars = _chars()
    assert len(chars) == len(set(chars)) == 2983
    # 士冠禮's characters the font lacked before (issue 25), and two Extension B ones
    assert set("庿筴柶甒纚笄坫匴闑閾") <= set(chars)
    assert {"\U000248e5", "\U00023657"} <= set(chars)


def test_every_character_is_in_the_font_or_substituted_exactly():
    cmap = TTFont(fonts.FONT_PATH).getBestCmap()
    missing = {c for c in _chars() if ord(c) not in cmap}
    # exactly the substitution list: no substitute unused, no character left undrawn
    assert missing == set(fonts.SUBSTITUTES)
    for shown in fonts.SUBSTITUTES.values():
        assert all(ord(s) in cmap for s in shown)


def test_check_font_accepts_the_list_and_still_names_others():
    # what `check` uses: the substitutes pass, any other undrawable character is named
    assert fonts.check_font(_chars()) == []
    assert fonts.check_font(_chars() + "\ue000") == ["\ue000"]
    assert fonts.shown("古文闑為\U00023657") == "古文闑為槷"


def test_the_list_matches_the_chapters_when_they_are_on_hand():
    # the chapters live outside the repository: compare with them where they are (the CI and
    # the project machine have them); tools/make_yili_chars.py rebuilds the list
    import importlib.util
    spec = importlib.util.spec_from_file_location("myc", ROOT / "tools" / "make_yili_chars.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    files = sorted(CHAPTERS.glob("*.txt"))
    assert len(files) == 17, f"{CHAPTERS}: the 17 chapters are needed for this test"
    got: set[str] = set()
    for f in files:
        got |= mod.chapter_chars(f.read_text(encoding="utf-8"))
    assert got == set(_chars())
