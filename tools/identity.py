"""The byte-identity record of issue 29's refactor: what the program prints and writes for a fixed set
of valid commands, each reduced to a SHA-256, so a refactor that changes no behaviour can prove it.

    python tools/identity.py record FILE.json     # write the record (refuses to overwrite without --force)
    python tools/identity.py compare FILE.json    # exit 1 and list what differs

Held: `state --json` at 50 moments in each bundled rite; the standard output of check, score,
coverage, text, find and diff; shot PNGs (their pixels, so the PNG encoder's version does not
matter), plate SVG and PNG, cue sheets (md, csv, html) and the web page. The golden window image
is tests/golden/window_960x600.png, held by tests/test_draw.py.

Issue 29's record (tests/data/identity.json, checked by tests/test_identity.py) was retired when
the issue landed; the tool stays for the next refactor that must change nothing: record before,
compare after, and look at every difference.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

RITES = ("xiangshe", "xiangyin")
MOMENTS = 50


def _run(argv: list[str], ok: tuple = (0, None)) -> str:
    from viz.cli.main import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    if code not in ok:
        raise SystemExit(f"identity: {' '.join(argv)} exited {code}:\n{out.getvalue()}")
    return out.getvalue()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_digest(path: Path) -> str:
    if path.suffix == ".png":
        import pygame  # the pixels, not the encoder's bytes
        surf = pygame.image.load(str(path))
        return _digest(f"{surf.get_size()}".encode() + pygame.image.tobytes(surf, "RGBA"))
    return _digest(path.read_bytes())


def record() -> dict[str, str]:
    """Every held output, name → SHA-256, in a fixed order."""
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmpd = Path(tmp)
        for rite in RITES:
            r = ["--rite", rite]
            first = json.loads(_run(["state", *r, "--at", "0", "--json"]))
            dur = float(first["duration"])
            for i in range(MOMENTS):
                t = round((dur - 0.01) * i / (MOMENTS - 1), 3)  # the JSON rounds the end up
                out[f"{rite}/state@{t}"] = _digest(_run(["state", *r, "--at", str(t), "--json"]).encode())
            for name, argv in (("check", ["check", *r]), ("score", ["score", *r]),
                               ("coverage", ["coverage", *r]), ("text", ["text", *r]),
                               ("find", ["find", *r, "揖"]),
                               ("diff", ["diff", *r, "--reading", "敖繼公"])):
                # diff exits 1 when the readings differ, as they do
                out[f"{rite}/stdout/{name}"] = _digest(_run(argv, ok=(0, 1, None)).encode())
            files = [
                ("shot-t1.png", ["shot", *r, "--at", "1"]),
                ("shot-mid.png", ["shot", *r, "--at", str(round(dur / 2, 3))]),
                ("shot-stage3.png", ["shot", *r, "--stage", "3", "--size", "800x500"]),
                ("plate-stage2.svg", ["plate", *r, "--stage", "2"]),
                ("plate-mid.png", ["plate", *r, "--at", str(round(dur / 3, 3)), "--size", "800x565"]),
                ("sheet-zhuren.md", ["sheet", *r, "zhuren", "--format", "md"]),
                ("sheet-zhuren.csv", ["sheet", *r, "zhuren", "--format", "csv"]),
                ("sheet-bin.html", ["sheet", *r, "bin", "--format", "html"]),
                ("page.html", ["web", *r]),
            ]
            for fname, argv in files:
                target = tmpd / f"{rite}-{fname}"
                _run([*argv, "-o", str(target)])
                out[f"{rite}/file/{fname}"] = _file_digest(target)
    return out


def compare(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """The names whose digests differ, are missing or are new."""
    return sorted(k for k in set(recorded) | set(now) if recorded.get(k) != now.get(k))


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("record", "compare"):
        print(__doc__)
        return 2
    path = Path(argv[1])
    if argv[0] == "record":
        if path.exists() and "--force" not in argv:
            print(f"identity: {path} exists (--force replaces it)")
            return 1
        data = json.dumps(record(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(data, encoding="utf-8")
        os.replace(tmp, path)
        print(f"identity: recorded {path}")
        return 0
    diff = compare(json.loads(path.read_text(encoding="utf-8")), record())
    for k in diff:
        print(f"differs: {k}")
    print(f"identity: {len(diff)} differ")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
