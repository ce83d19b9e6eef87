"""Write assets/text/yili-chars.txt: every character of the seventeen chapters of 張爾岐's 儀禮鄭註句讀.

Dev tool (no dependencies). The chapters live outside the repository (the Kanripo text KR1d0038,
四庫全書 edition, as plain files `卷N_篇名.txt`); the list it writes is committed, and the font
test (tests/test_font_yili.py) checks the bundled font draws every character on it, or that
viz/backends/fonts.py SUBSTITUTES shows it as a documented standard form.

    python tools/make_yili_chars.py [--source ../shared/ref/儀禮鄭註句讀_張爾岐] [--out PATH]

Kept: the text of each file (經, 鄭注, and 張爾岐's ○ notes and the 疏 he quotes: all of it is
drawn when a chapter is read). Left out: the `#` header lines, `<pb:…>` page markers, the ¶ line
ends, ASCII (the markup's parentheses and `/` column breaks), white space, and Kanripo's `&KRnnnn;`
references to characters Unicode does not have (no font can draw them; `main.py new` shows them
as 〓).
"""
from __future__ import annotations

import argparse
import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "ref" / "儀禮鄭註句讀_張爾岐"
OUT = ROOT / "assets" / "text" / "yili-chars.txt"
PER_LINE = 50


def chapter_chars(text: str) -> set[str]:
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    body = re.sub(r"<pb:[^>]*>|&KR\d+;", "", body)
    return {c for c in body
            if ord(c) > 0x7F and c != "¶" and unicodedata.category(c)[0] not in "CZ"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    files = sorted(args.source.glob("*.txt"))
    if len(files) != 17:
        raise SystemExit(f"{args.source}: expected the 17 chapter files, found {len(files)}")
    chars: set[str] = set()
    for f in files:
        chars |= chapter_chars(f.read_text(encoding="utf-8"))
    ordered = "".join(sorted(chars))
    lines = [f"# {len(ordered)} characters of the 17 chapters of 儀禮鄭註句讀 (張爾岐; Kanripo "
             "KR1d0038, 四庫全書 edition),",
             "# 經, 注 and his notes. Written by tools/make_yili_chars.py: do not edit by hand."]
    lines += [ordered[i:i + PER_LINE] for i in range(0, len(ordered), PER_LINE)]
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(args.out)
    print(f"{args.out}: {len(ordered)} characters from {len(files)} chapters")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
