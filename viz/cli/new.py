"""`new NAME --text FILE`: a rite package drafted from one chapter of 張爾岐's 儀禮鄭註句讀.

The chapter is read as tools/segment_text.py --format zhang reads it (docs/CORPUS.md): sections
from his 右… headings, 經 in large print, 注 in ( … ) up to its first ○, his ○ notes (and the 疏
he quotes) as 按, 記 after the lone 記 line. The package: manifest.yaml naming bundled things by
name (layout: xu, patterns: [library]), cast.yaml with one placeholder person, text/source.txt
(the chapter as given) and text/corpus.json, and one section file per section listing, as
comments, the 經 and 記 clauses to enact. It is built in a temporary folder beside NAME and
renamed into place, so an existing NAME is never touched; `check` then runs on it at once.
"""
from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KR_ENTITY = re.compile(r"&KR\d+;")   # Kanripo's references to characters Unicode lacks
MISSING = "〓"                       # shown in their place (the printers' 缺字 mark)
TAIL_NAME = "篇末"                   # the 經 after the last 右… heading, which has none


class CannotCut(Exception):
    """The chapter is not laid out with 右… headings (喪服): refused rather than cut wrongly."""


def _segmenter():
    spec = importlib.util.spec_from_file_location("_segment_text",
                                                  ROOT / "tools" / "segment_text.py")
    if "_segment_text" in sys.modules:
        return sys.modules["_segment_text"]
    mod = importlib.util.module_from_spec(spec)
    sys.modules["_segment_text"] = mod     # its dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


def build_corpus(source_text: str) -> dict:
    """corpus.json's data from the chapter's text (the Kanripo file as it is)."""
    seg = _segmenter()
    heads = [ln for ln in source_text.splitlines()
             if ln.replace("¶", "").lstrip("\u3000").startswith("右")
             and ln.startswith("\u3000")]
    if not heads:
        raise CannotCut("it has no 右… section headings (as 喪服, cut by its 傳曰 instead); "
                        "only chapters laid out with 張爾岐's 右… headings can be cut")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "source.txt"
        path.write_text(KR_ENTITY.sub(MISSING, source_text), encoding="utf-8")
        try:
            seed, sections = seg.parse_zhang(path, TAIL_NAME)
        except ValueError as exc:
            raise CannotCut(str(exc)) from None
    return seg.build(seed, sections)


def chapter_title(source_text: str) -> str:
    """The chapter's name from its title line (　燕禮第六(…) → 燕禮), else ''."""
    for ln in source_text.splitlines():
        m = re.match(r"^\u3000([^\u3000(（]+?)第[一二三四五六七八九十]+", ln)
        if m:
            return m.group(1)
    return ""


def _safe(name: str) -> str:
    return re.sub(r"[\\/:*?\"<>|\s]+", "", name)[:24] or "section"


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_package(folder: Path, name: str, source_text: str, data: dict) -> list[str]:
    """Write the package's files into folder (which exists and is empty); the section files."""
    from viz.text.corpus import corpus_from_dict
    corpus = corpus_from_dict(data)
    text_dir = folder / "text"
    text_dir.mkdir()
    (text_dir / "source.txt").write_text(source_text, encoding="utf-8")
    import json
    (text_dir / "corpus.json").write_text(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    (folder / "sections").mkdir()
    files = []
    for sec in corpus.sections:
        rel = f"sections/{sec.index:02d}-{_safe(sec.name)}.yaml"
        lines = [f"# Section {sec.index}, {sec.name}: the clauses to enact. Cite each 經 clause in a step",
                 "# (or note it under rules: with why it is not staged); the 記 where it places people.",
                 "# Format: docs/SCRIPT.md."]
        for kind in ("經", "記"):
            for c in corpus.clauses_of(sec, kind):
                lines.append(f"#   {c.id}  {c.punct or c.text}")
        first = next(iter(corpus.clauses_of(sec, "經") or corpus.clauses_of(sec, "記")), None)
        lines += [f"name: {_q(sec.name)}", f"section: {sec.index}", "steps:"]
        if first is not None:   # a stage needs a step: the first clause, to be staged
            lines.append(f"  - {{cite: {_q(first.text[:12])}, "
                         "do: [{wait: {dur: 1}}], note: \"a placeholder: nobody moves yet\"}")
        lines.append("")
        (folder / rel).write_text("\n".join(lines), encoding="utf-8")
        files.append(rel)
    listed = "".join(f"\n  - {f}" for f in files)
    (folder / "manifest.yaml").write_text(
        f"# {name}: drafted by `python main.py new` from 張爾岐's 儀禮鄭註句讀 (text/source.txt).\n"
        "# Bundled things are named by name: the 序 of 鄉射 (layouts/xu.yaml) and the shared\n"
        "# pattern library (assets/patterns). Format: docs/SCRIPT.md; the corpus: docs/CORPUS.md.\n"
        f"rite: {_q(name)}\ntitle: {_q(chapter_title(source_text) or name)}\n"
        "text: text/corpus.json\nlayout: xu\ncast: cast.yaml\npatterns: [library]\n"
        f"sections:{listed}\n", encoding="utf-8")
    (folder / "cast.yaml").write_text(
        "# The cast: who the text names (docs/SCRIPT.md). One placeholder to start from.\n"
        "cast:\n  - {id: zhuren, name: 主人, party: 主, label: 主}\n", encoding="utf-8")
    return files


def cmd_new(args: argparse.Namespace) -> int:
    dest = Path(args.name)
    src = Path(args.text)
    if dest.exists() or dest.is_symlink():
        print(f"new: {dest} exists; choose another NAME (nothing was written)", file=sys.stderr)
        return 2
    try:
        source_text = src.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"new: {src}: cannot read it ({exc})", file=sys.stderr)
        return 2
    try:
        data = build_corpus(source_text)
    except CannotCut as exc:
        print(f"new: {src}: cannot cut this chapter into sections: {exc}", file=sys.stderr)
        return 2
    parent = dest.resolve().parent
    if not parent.is_dir():
        print(f"new: {parent}: no such folder", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=parent))
    try:
        files = write_package(tmp, dest.name, source_text, data)
        try:
            tmp.rename(dest)          # atomic; refuses if dest appeared meanwhile (non-empty)
        except OSError:
            print(f"new: {dest} exists; choose another NAME (nothing was written)",
                  file=sys.stderr)
            return 2
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    kinds = [c[2] for c in data["clauses"]]
    print(f"{dest}: {len(files)} sections, {kinds.count('經')} 經 and {kinds.count('記')} 記 "
          f"clauses to enact")
    print(f"check --rite {dest}:", flush=True)
    sys.stderr.flush()
    # the check as the user would run it (a process of its own: no subcommand imports another)
    done = subprocess.run([sys.executable, str(ROOT / "main.py"), "check", "--rite", str(dest)],
                          check=False)
    return done.returncode


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("new", help="draft a rite package from a chapter of 張爾岐's 句讀")
    p.add_argument("name", metavar="NAME", help="the folder to create (must not exist)")
    p.add_argument("--text", required=True, metavar="FILE",
                   help="the chapter, as the Kanripo text of 儀禮鄭註句讀 has it")
    p.set_defaults(func=cmd_new)
