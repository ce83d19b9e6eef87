"""Build assets/fonts/NotoSerifTC-Xiangshe.otf: the Noto Serif CJK TC face cut to the characters we draw.

Dev tool (needs fontTools); the subset it writes is committed, so running the program never needs it.

    python tools/make_font_subset.py [--seed assets/text/seed.txt]
                                     [--source /usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc]

Characters kept: every character of the seed text, of the 17 chapters of the 儀禮
(assets/text/yili-chars.txt), of every bundled rite's corpus.json (鄉射's
assets/text/corpus.json, and assets/rites/*/text/corpus.json), of every YAML under layouts/ and assets/rites/,
of the project's Python sources and docs (the UI strings live there), ASCII, digits, common CJK
punctuation, and the Big5 level-1 set (5401 common traditional characters) so that a caption
written later in a rite script is very likely covered without regenerating.
"""
from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = ROOT / "assets" / "text" / "seed.txt"   # the bundled copy of shared/seeds/000_…
# every character of the 17 chapters of 張爾岐's 句讀 (tools/make_yili_chars.py writes it)
YILI_CHARS = ROOT / "assets" / "text" / "yili-chars.txt"
DEFAULT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc")
FACE = "Noto Serif CJK TC"
OUT = ROOT / "assets" / "fonts" / "NotoSerifTC-Xiangshe.otf"

PUNCT = "，。、：；！？「」『』（）《》〈〉…—·～　・×÷①②③④⑤⑥⑦⑧⑨⑩←→↑↓▲▼△▽◀▶○●□■◆◇〇"


def big5_level1() -> str:
    """The 5401 frequent hanzi of Big5 (lead bytes A4–C6), decoded with Python's own codec."""
    out = []
    for lead in range(0xA4, 0xC7):
        for trail in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
            try:
                out.append(bytes([lead, trail]).decode("big5"))
            except UnicodeDecodeError:
                continue
    return "".join(out)


def wanted_chars(seed: Path, extra_big5: bool = True) -> set[str]:
    texts = [seed.read_text(encoding="utf-8")]
    texts += [line for line in YILI_CHARS.read_text(encoding="utf-8").splitlines()
              if not line.startswith("#")]
    for folder, pattern in [("layouts", "*.yaml"), ("assets/rites", "*.yaml"), ("viz", "*.py"),
                            ("docs", "*.md"), ("assets/text", "*.json"),
                            ("assets/rites", "*.json")]:   # every bundled rite's corpus.json
        texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / folder).rglob(pattern))]
    chars = set("".join(texts))
    chars |= {chr(c) for c in range(0x20, 0x7F)}
    chars |= set(PUNCT)
    if extra_big5:
        chars |= set(big5_level1())
    # keep spaces such as U+3000 (not "printable" to Python) but no control characters
    return {c for c in chars if unicodedata.category(c)[0] != "C"}


def pick_face(source: Path, face: str):
    if source.suffix.lower() != ".ttc":
        from fontTools.ttLib import TTFont
        return TTFont(source)
    for font in TTCollection(source).fonts:
        if font["name"].getDebugName(4) == face or font["name"].getDebugName(1) == face:
            return font
    raise SystemExit(f"{source}: no face named {face!r}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=Path, default=DEFAULT_SEED)
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--face", default=FACE)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--no-big5", action="store_true", help="only the characters the project uses")
    args = ap.parse_args(argv)

    font = pick_face(args.source, args.face)
    cmap = font.getBestCmap()
    chars = wanted_chars(args.seed, not args.no_big5)
    missing = sorted(c for c in chars if ord(c) not in cmap)
    opts = subset.Options()
    opts.layout_features = ["*"]  # keep vert/locl etc.; they are small
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.hinting = False  # CJK hinting is large and does little at our sizes
    opts.desubroutinize = False
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in chars if ord(c) in cmap])
    sub.subset(font)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.save(args.out)
    kept = sum(1 for c in chars if ord(c) in cmap)
    print(f"{args.out}: {kept} characters, {args.out.stat().st_size / 1e6:.2f} MB")
    if missing:
        shown = " ".join(f"{c}(U+{ord(c):04X})" for c in missing[:40])
        print(f"not in {args.face}: {len(missing)}: {shown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
