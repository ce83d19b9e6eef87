"""The figures the README and docs/ state about the rite are the program's, so they cannot drift.

A figure is marked in the text by an HTML comment naming it, right before it (invisible once
rendered): `<!--fig:rite.steps-->1,775 steps`. Each marked figure must read exactly as the
compiled rite gives it; a name not known here is an error too.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from viz import DEFAULT_LAYOUT
from viz.model.layout import load_layout
from viz.query.coverage import coverage
from viz.query.waits import waiting, waits

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARK = re.compile(r"<!--fig:([\w.]+)-->")
FPS = 30  # video's default


def _hours(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60} min"


@pytest.fixture(scope="module")
def figures(corpus, bundled) -> dict[str, str]:
    """Every figure the docs may state, as they must write it (compiled once per test session:
    the compiled rite is kept in the session's cache folder)."""
    main = bundled
    court = load_layout(DEFAULT_LAYOUT, ["庭三堂深"])  # kept as data, refused as a reading
    tl = main.timeline
    cov = coverage(main.script, main.corpus)
    sanshe = next(s for s in tl.stages if s.name == "三射用樂")
    places = main.layout.places
    houdao = places["物間"].y - places["侯"].y
    return {
        "text.sections": f"{len(cov.sections)} sections",
        "text.jing": f"{len(cov.clauses('經'))} clauses of 經",
        "text.ji": f"{len(cov.clauses('記'))} of 記",
        "rite.stages": f"{len(tl.stages)} stages",
        "rite.steps": f"{len(tl.steps):,} steps",
        "rite.seconds": f"{tl.duration:,.0f} s",
        "rite.hours": _hours(tl.duration),
        "tsst.gate": f"{court.places['門'].y - places['門'].y:.0f} 尺 longer",
        "sanshe.minutes": f"{round((sanshe.t1 - sanshe.t0) / 60)} minutes of video",
        "sanshe.frames": f"{round((sanshe.t1 - sanshe.t0) * FPS, -3):,.0f} frames at {FPS} fps",
        "layout.houdao": f"{houdao:.0f} 尺 south of the 物 (侯道五十弓)",
        "layout.fa_north": f"{places['乏'].y - places['侯'].y:.0f} 尺",
        "layout.fa_west": f"{-places['乏'].x:.0f} 尺",
        "rite.waits": f"about {round(waiting(waits(tl)) / 60)} of its "
                      f"{round(tl.duration / 60)} minutes",
    }


def marked() -> list[tuple[str, int, str, str]]:
    """(file, line, name, the text after the mark) for every marked figure in the docs."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in MARK.finditer(text):
            after = " ".join(text[m.end():m.end() + 200].split())  # a figure may wrap
            out.append((path.relative_to(ROOT).as_posix(), text.count("\n", 0, m.start()) + 1,
                        m.group(1), after))
    return out


@pytest.mark.slow
def test_every_marked_figure_is_the_program_s(figures):
    wrong = [f"{f}:{line}: {name}: says {after[:len(figures[name]) + 10]!r}, the program "
             f"{figures[name]!r}" for f, line, name, after in marked()
             if name in figures and not after.startswith(figures[name])]
    unknown = [f"{f}:{line}: unknown figure {name!r}" for f, line, name, _ in marked()
               if name not in figures]
    assert not wrong + unknown, "\n".join(wrong + unknown)


def test_the_readme_states_the_rite_s_size_and_length_through_marks():
    names = {name for f, _, name, _ in marked() if f == "README.md"}
    assert {"rite.stages", "rite.steps", "rite.seconds", "rite.hours", "text.jing"} <= names
    # the rite's length is marked where JUDGEMENTS.md states it (庭三堂深, whose figures were
    # marked there, is refused as a reading of this rite: layouts/xu.yaml's refused:)
    assert "rite.seconds" in {name for f, _, name, _ in marked() if f == "docs/JUDGEMENTS.md"}
