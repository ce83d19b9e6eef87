"""The atlas: a plate per stage (or per step), each beside its text, as a folder a browser opens.

    DIR/index.html               every plate beside its 經 (punctuated), the 注 under each
                                 clause, and the notes on the choices the script made; a
                                 contents list and previous/next links; one plate a printed page
    DIR/plates/stage-01.png      from viz.export.plate.render_plate (steps: step-001.png), and
                                 with `svg` (atlas --svg) stage-01.svg beside it
    DIR/fonts/                   the bundled font subset and its licence (OFL), which the page
                                 names first: a machine with no CJK font still shows the text

Offline and relative: no script, no CDN, no absolute path, so the folder can be copied, zipped
or put on a USB stick. Deterministic: the same rite gives byte-identical files (no dates, no
absolute paths, no set or dict order that varies), so an atlas can be checked in and diffed.

Plates are drawn in worker processes when there are several (a plate takes a few tenths of a
second, mostly Python; two cores draw two). On Linux the workers are forked with the compiled
rite already in memory; elsewhere the plates are drawn one after the other. With nothing in the
compile cache, drawing begins while the rite still compiles (compile_drawing: a forked child
draws the stages compiled so far, as the window shows them, viz.model.progressive), and the
plates are the same bytes as those drawn from the whole rite.
"""
from __future__ import annotations

import html
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from viz.backends import fonts
from viz.base import lang
from viz.base.lang import html_lang, tr
from viz.base.fileio import OutputError
from viz.draw.plate import Part, stage_parts
from viz.export.common import (
    FONT_FACE,
    FONT_FAMILY,
    FONTS,
    Progress,
    font_files,
    page_size,
    refuse_existing,
    write_all,
)
from viz.query.words import enacted_spans, enacted_words

PLATE_SIZE = (1600, 1130)  # A4 landscape, as viz.draw.plate draws by default
PLATES = "plates"


@dataclass(frozen=True)
class Page:
    """One plate of the atlas and the text beside it."""

    anchor: str  # the HTML id, and the plate's file stem
    title: str
    t: float
    closing: bool
    stage: int
    steps: tuple[int, ...]  # the steps whose words and notes the page shows
    trails: str  # the moves drawn: "stage" (the stage's drill chart) or "step"
    part: Part | None = None  # a stage plate (viz.draw.plate.stage_parts), as `plate --stage`


def pages(timeline, steps: bool = False, corpus=None) -> list[Page]:
    """A page per stage plate, as `plate --stage` draws them (the stage's moves, numbered, at
    its end; a stage of more than viz.draw.plate.MAX_MOVES numbered moves split into several
    plates, stage-27-1, stage-27-2 …), or per step (the state it leaves, with its moves)."""
    return [p for s in timeline.stages for p in stage_pages(timeline, s.index, steps, corpus)]


def stage_pages(timeline, stage: int, steps: bool = False, corpus=None) -> list[Page]:
    """The pages of one stage (see pages)."""
    s = timeline.stages[stage]
    out = []
    if not steps:
        parts = stage_parts(timeline, s.index, corpus)
        for q in parts:
            many = len(parts) > 1
            out.append(Page(f"stage-{s.index + 1:02d}" + (f"-{q.number}" if many else ""),
                            f"{s.index + 1} {s.name}" + (f"（{q.number}／{q.of}）"
                                                         if many else ""),
                            q.moment(timeline), True, s.index,
                            tuple(range(q.first, q.last + 1)), "stage", q))
        return out
    for k in range(s.first_step, s.last_step + 1):
        st = timeline.steps[k]
        out.append(Page(f"step-{k + 1:03d}",
                        f"{s.index + 1} {s.name} · {k + 1}「{enacted_words(corpus, st)}」",
                        st.t1, True, s.index, (k,), "step"))
    return out


# --- drawing the plates, in processes ---------------------------------------------------------

_compiled = None  # the rite a forked worker draws from (set in the parent before the fork)
_svg = False  # … and whether it writes each plate's SVG too


def _draw(page: Page) -> tuple[str, bytes, bytes]:
    from viz.export.plate import plate_layers, png_bytes, svg_text

    p = plate_layers(_compiled, page.t, page.closing, trails=page.trails, size=PLATE_SIZE,
                     part=page.part)
    return page.anchor, png_bytes(p), svg_text(p).encode("utf-8") if _svg else b""


def _draw_stage(task: tuple[int, bool]) -> tuple[int, list[Page], dict]:
    """One stage's pages and their plates (a worker's task: it finds the stage's parts too)."""
    si, steps = task
    mine = stage_pages(_compiled.timeline, si, steps, _compiled.corpus)
    drawn = {}
    for page in mine:
        anchor, png, svg = _draw(page)
        drawn[anchor] = (png, svg)
    return si, mine, drawn


def draw_stages(compiled, stages: list[int], steps: bool = False, workers: int | None = None,
                progress: bool = True, svg: bool = True
                ) -> tuple[dict[int, list[Page]], dict[str, tuple[bytes, bytes]]]:
    """({stage: its pages}, {anchor: (PNG, SVG)}) for these stages, each a worker's task (it
    cuts the stage into its plates as well as drawing them, so the parent has nothing to do
    first), the stages with the most steps first so the workers finish together."""
    global _compiled, _svg
    _compiled, _svg = compiled, svg
    n = workers if workers is not None else (os.cpu_count() or 1)
    tl = compiled.timeline
    bar = Progress(len(stages), "atlas", enabled=progress)
    got_pages: dict[int, list[Page]] = {}
    drawn: dict[str, tuple[bytes, bytes]] = {}
    try:
        if n > 1 and len(stages) > 1 and "fork" in multiprocessing.get_all_start_methods():
            ctx = multiprocessing.get_context("fork")
            longest = sorted(stages, key=lambda si: (-(tl.stages[si].last_step
                                                       - tl.stages[si].first_step), si))
            with ProcessPoolExecutor(min(n, len(stages)), mp_context=ctx,
                                     initializer=fonts.after_fork) as pool:
                for done in as_completed([pool.submit(_draw_stage, (si, steps))
                                          for si in longest]):
                    si, mine, d = done.result()
                    got_pages[si] = mine
                    drawn.update(d)
                    bar.update()
        else:
            for si in stages:
                _, got_pages[si], d = _draw_stage((si, steps))
                drawn.update(d)
                bar.update()
    finally:
        _compiled, _svg = None, False
    bar.close()
    return got_pages, drawn


def draw_plates(compiled, pages_: list[Page], workers: int | None = None,
                progress: bool = True, svg: bool = True) -> dict[str, tuple[bytes, bytes]]:
    """{anchor: (PNG, SVG)} for every page (SVG b"" unless `svg`); in `workers` processes
    (default: one per core)."""
    global _compiled, _svg
    _compiled, _svg = compiled, svg
    n = workers if workers is not None else (os.cpu_count() or 1)
    bar = Progress(len(pages_), "atlas", enabled=progress)
    out: dict[str, tuple[bytes, bytes]] = {}
    fork = "fork" in multiprocessing.get_all_start_methods()
    try:
        if n > 1 and len(pages_) > 1 and fork:
            ctx = multiprocessing.get_context("fork")
            # the longest stages first (a plate's time grows with the moves it draws), so the
            # workers finish together instead of one drawing the last long stage alone
            longest = sorted(pages_, key=lambda p: -len(p.steps))
            with ProcessPoolExecutor(min(n, len(pages_)), mp_context=ctx,
                                     initializer=fonts.after_fork) as pool:
                for done in as_completed([pool.submit(_draw, p) for p in longest]):
                    anchor, png, svg = done.result()
                    out[anchor] = (png, svg)
                    bar.update()
        else:
            for page in pages_:
                anchor, png, svg = _draw(page)
                out[anchor] = (png, svg)
                bar.update()
    finally:
        _compiled, _svg = None, False
    bar.close()
    return out


# --- drawing while the rite compiles ------------------------------------------------------------

class Ahead:
    """Rite.get's on_stage with nothing cached: while the rite compiles, a forked child draws
    the pages of the stages compiled so far but the last (which the next stage may still
    change: every stage before a snapshot's last is as the whole rite has it), from a snapshot
    of the compile; one child at a time, the compile holding the other core. The parent reaps
    a child when it calls again (or at finish()): its pages and plates, from a file the child
    wrote. A child that failed leaves its stages to be drawn after the compile."""

    def __init__(self, corpus, steps: bool = False, svg: bool = False):
        import tempfile

        self.corpus, self.steps, self.svg = corpus, steps, svg
        self.assigned = 0  # stages a child draws or drew (0 … assigned-1)
        self.pages: dict[int, list[Page]] = {}  # stage → its pages, drawn
        self.drawn: dict[str, tuple[bytes, bytes]] = {}
        self.children = 0
        self._child = None  # (process, file, stages)
        self._tmp = tempfile.TemporaryDirectory(prefix="atlas-")

    def __call__(self, compiler, si: int) -> None:
        if self._child is not None:
            if self._child[0].is_alive():
                return
            self._reap()
        if si <= self.assigned:
            return
        from viz.model.rite import Compiled

        snap = Compiled(compiler.c.layout, self.corpus, compiler.s, compiler.snapshot(), (), ())
        stages = range(self.assigned, si)
        self.assigned = si
        path = Path(self._tmp.name) / f"{stages.start}.pickle"
        ctx = multiprocessing.get_context("fork")
        p = ctx.Process(target=_ahead_child, args=(snap, stages, self.steps, self.svg, path),
                        daemon=True)
        p.start()
        self.children += 1
        self._child = (p, path, stages)

    def _reap(self) -> None:
        import pickle

        p, path, stages = self._child
        self._child = None
        p.join()
        if p.exitcode != 0 or not path.exists():
            return  # drawn after the compile
        got_pages, drawn = pickle.loads(path.read_bytes())
        self.pages.update(got_pages)
        self.drawn.update(drawn)

    def finish(self) -> None:
        """Wait for the child still drawing (build_atlas calls it once its own workers are
        done: the child draws on meanwhile); the stages of a child that failed are left out
        of `pages`, for the caller to draw."""
        if self._child is not None:
            self._reap()
        self._tmp.cleanup()


def _ahead_child(snap, stages: range, steps: bool, svg: bool, path: Path) -> None:
    import pickle

    global _compiled, _svg
    fonts.after_fork()
    _compiled, _svg = snap, svg
    got_pages, drawn = {}, {}
    for si in stages:
        mine = stage_pages(snap.timeline, si, steps, snap.corpus)
        for page in mine:
            anchor, png, svg_b = _draw(page)
            drawn[anchor] = (png, svg_b)
        got_pages[si] = mine
    tmp = path.with_suffix(".part")
    tmp.write_bytes(pickle.dumps((got_pages, drawn), protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(tmp, path)


def compile_drawing(spec, *, steps: bool = False, svg: bool = False,
                    workers: int | None = None):
    """(compiled, ahead) for the rite the spec names: from the cache (ahead None), else
    compiled with plates drawn meanwhile (an Ahead, for build_atlas) when there are several
    cores and processes fork."""
    from viz.model.rite import Rite

    rite = Rite(spec)
    got = rite.cached(spec.readings)
    n = workers if workers is not None else (os.cpu_count() or 1)
    if got is not None or n < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return (got if got is not None else rite.get(spec.readings)), None
    ahead = Ahead(rite.corpus, steps, svg)
    reader = multiprocessing.get_context("fork").Process(target=_read_backwards,
                                                         args=(spec.script,), daemon=True)
    reader.start()  # the other core reads the files from the last while this one reads on
    try:
        got = rite.get(spec.readings, on_stage=ahead)
    except BaseException:
        ahead.finish()
        raise
    finally:
        reader.join()
    return got, ahead  # its last child may still be drawing: build_atlas finishes it


def _read_backwards(script) -> None:
    """In a forked child, before the compile: the rite's files parsed and checked into the
    parse cache (viz.base.cache), the section files from the last, so that the parent, reading
    them from the first, finds the later ones read (the same files, names and bytes: the same
    cache entries); a file both read is read twice, harmlessly. Its problems are the parent's
    to report: any error here is dropped."""
    from viz.model.script import source

    real = source._manifest  # noqa: SLF001

    def backwards(path):
        man = real(path)
        if isinstance(man.get("sections"), list):
            man["sections"] = list(reversed(man["sections"]))
        return man

    try:
        source._manifest = backwards  # noqa: SLF001 (this child only)
        source.read_document(script)
    except Exception:  # noqa: BLE001
        pass


# --- the page -----------------------------------------------------------------------------------

CSS = FONT_FACE + """
:root { --ink: #1c1814; --zhu: #b03020; --paper: #faf6ec; --rule: #d8cfbf; --grey: #786e62; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: var(--paper);
       font-family: """ + FONT_FAMILY + """; }
header { padding: 1.2em 2em .6em; border-bottom: 1px solid var(--rule); }
h1 { margin: 0 0 .3em; font-size: 1.6em; }
nav.contents ol { margin: .4em 0; padding-left: 0; columns: 3; list-style: none; }
nav.contents a, .pager a { color: var(--zhu); text-decoration: none; }
section.page { display: flex; gap: 1.6em; padding: 1.4em 2em; border-bottom: 1px solid var(--rule);
               align-items: flex-start; }
figure { flex: 0 1 62%; margin: 0; position: sticky; top: .8em; }  /* in view beside the text */
figure img { width: 100%; height: auto; border: 1px solid var(--rule); background: white; }
figcaption { font-size: .85em; color: var(--grey); margin-top: .3em; }
.text { flex: 1 1 38%; min-width: 18em; }
.text h2 { margin: 0 0 .5em; font-size: 1.3em; }
.jing { font-size: 1.1em; line-height: 1.9; margin: 0 0 .2em; }
.jing.cited { background: #fbecc0; }
.kind { color: var(--zhu); font-size: .8em; margin-right: .3em; }
.zhu { color: var(--grey); font-size: .88em; line-height: 1.6; margin: 0 0 .7em 1.2em; }
.zhu::before { content: "注　"; color: var(--zhu); }
.notes { font-size: .85em; color: #4a4238; border-top: 1px solid var(--rule); margin-top: 1em;
         padding-top: .5em; }
.notes li { margin-bottom: .35em; }
.pager { display: flex; justify-content: space-between; margin-top: 1em; font-size: .9em; }
.print { display: none; }
@media print {
  /* A4 or Letter, landscape (atlas --paper): the contents (each plate's page), then one plate
     a page, which carries the stage's title, its whole text (the clauses it draws in 朱) and
     its numbered moves; then the 經 with its 注 and the notes, plate after plate, in two
     columns (each naming its plate's page). Every page numbered at its foot. */
  body { background: white; font-size: 10pt; }
  header, .pager, figcaption, section.page .text { display: none; }
  .print { display: block; }
  .contents-page { break-after: page; page-break-after: always; }
  .contents-page h1 { font-size: 16pt; margin: 0 0 2mm; }
  .contents-page h2 { font-size: 12pt; margin: 0 0 2mm; color: var(--zhu); }
  .contents-page a { color: inherit; text-decoration: none; }
  .contents-page ol { columns: 3; column-gap: 8mm; margin: 0; padding: 0; list-style: none; }
  .contents-page li { display: flex; line-height: 5.6mm; white-space: nowrap; }
  .contents-page li .t { overflow: hidden; text-overflow: ellipsis; flex: 0 1 auto; }
  .contents-page li .dots { flex: 1 1 0; border-bottom: 1px dotted var(--grey); margin: 0 1mm 1.4mm; }
  .contents-page li .p { flex: none; }
  section.page { display: block; break-before: page; page-break-before: always; border: none;
                 padding: 0; }
  figure { position: static; width: 100%; break-inside: avoid; break-after: page;
           page-break-after: always; }
  figure img { display: block; border: none; width: auto; max-width: 100%; max-height: 183mm;
               margin: 0 auto; }
  .texts { break-before: page; page-break-before: always; columns: 2; column-gap: 9mm;
           column-fill: auto; }
  .texts > h2 { column-span: all; font-size: 14pt; margin: 0 0 2mm; }
  .texts h3 { font-size: 11.5pt; margin: 2.5mm 0 1mm; break-after: avoid; }
  .texts h3 .p { color: var(--grey); font-size: 8.5pt; font-weight: normal; margin-left: 2mm; }
  .jing { font-size: 10pt; line-height: 1.55; }
  .zhu { font-size: 8.5pt; line-height: 1.45; margin: 0 0 1mm 4mm; }
  .jing.cited { background: none; color: var(--zhu); }
  .jing, .zhu, .notes li { break-inside: avoid; }
  .notes { font-size: 8.5pt; margin-top: 1mm; padding-top: 1mm; }
  .notes ul { margin: .5mm 0; padding-left: 4mm; }
  .notes li { margin-bottom: .6mm; }
}
"""


def page_css(paper: str = "a4") -> str:
    """The atlas page's stylesheet, printing on `paper` (a4, letter) landscape, each page's
    number at its foot (Chromium draws @page margin boxes)."""
    return CSS + (f"@page {{ size: {page_size(paper, 'landscape')}; margin: 12mm; "
                  "@bottom-center { content: counter(page); font-size: 9pt; color: #786e62; } }\n")


CONTENTS_ROWS = 90  # entries a printed contents page holds (3 columns of 30)


def contents_pages(n: int) -> int:
    """How many printed pages the contents of n plates take (one more for the text's entry)."""
    return max(1, -(-(n + 1) // CONTENTS_ROWS))


def plate_page(i: int, n: int) -> int:
    """The printed page of plate i (from 0) of n: after the contents, a plate a page."""
    return contents_pages(n) + i + 1


def _section_of(timeline, corpus, stage: int):
    """The section of the text a stage enacts: where its first step's words are, else by name."""
    s = timeline.stages[stage]
    if s.first_step <= s.last_step:
        sec = corpus.section_at(timeline.steps[s.first_step].span[0])
        if sec is not None:
            return sec
    return corpus.section_named(s.section)


def _text_block(timeline, corpus, page: Page) -> str:
    """The section's clauses (經 then 記) punctuated, each with its 注 under it; the clauses the
    page's steps cite are marked. A step page, and a split stage's second plate and on, show
    only the clauses they cite."""
    esc = html.escape
    sec = _section_of(timeline, corpus, page.stage)
    if sec is None:
        return '<p class="zhu">（此段不在經文中）</p>'
    cited: set[str] = set()
    meeting = _Clauses.of(corpus).meeting
    for k in page.steps:  # the words each step says (its part of a pattern, a cite's fragments)
        for a, b in enacted_spans(corpus, timeline.steps[k]):
            cited.update(meeting(a, b))
    # a stage's first plate shows its whole text; a later plate of a split stage, and a step
    # page, only the clauses its steps cite (printed, the text is not repeated plate by plate)
    whole = page.part is not None and page.part.number == 1
    shown = [cl for cl in corpus.clauses if cl.section == sec.index
             and (whole or cl.id in cited)]
    words = [cl.punct or cl.text for cl in shown]
    at = {cl.id: n for n, cl in enumerate(corpus.clauses)}
    # a clause cut inside a quotation starts with its closing mark (「…無獵獲。」上射揖):
    # the mark is written where it belongs, at the end of the words before (when the page
    # shows them)
    for i in range(1, len(words)):
        lead = len(words[i]) - len(words[i].lstrip(CLOSERS))
        if lead and at[shown[i - 1].id] + 1 == at[shown[i].id]:
            words[i - 1], words[i] = words[i - 1] + words[i][:lead], words[i][lead:]
    out = []
    for cl, text in zip(shown, words):
        mark = " cited" if cl.id in cited else ""
        out.append(f'<p class="jing{mark}" id="{page.anchor}-{esc(cl.id)}">'
                   f'<span class="kind">{esc(cl.kind)} {esc(cl.id)}</span>'
                   f"{esc(text)}</p>")
        out += [f'<p class="zhu">{esc(n)}</p>' for n in cl.notes]
    return "\n".join(out)


CLOSERS = "」』）〕"


class _Clauses:
    """The corpus' clauses by where they start, to find those a span meets by a binary search
    (the atlas asks for thousands of spans; a pass over every clause each took a third of the
    page's time)."""

    _kept: tuple[object, _Clauses] | None = None

    def __init__(self, corpus):
        self.by_start = sorted(corpus.clauses, key=lambda cl: cl.start)
        self.starts = [cl.start for cl in self.by_start]
        self.longest = max((cl.end - cl.start for cl in self.by_start), default=0)

    @classmethod
    def of(cls, corpus) -> _Clauses:
        kept = cls._kept
        if kept is None or kept[0] is not corpus:
            kept = cls._kept = (corpus, cls(corpus))
        return kept[1]

    def meeting(self, a: int, b: int) -> list[str]:
        """The ids of the clauses with start < b and a < end (one that ends after a starts
        after a - the longest clause)."""
        import bisect

        lo = bisect.bisect_right(self.starts, a - self.longest)
        hi = bisect.bisect_left(self.starts, b)
        return [cl.id for cl in self.by_start[lo:hi] if a < cl.end]


def _notes_block(timeline, page: Page, corpus=None) -> str:
    esc = html.escape
    steps = [(k, timeline.steps[k]) for k in page.steps]
    # the script's notes are its reasoning, most of them in English: a 中文 page shows those
    # written in 中文 alone, and says where the others are
    shown = [(k, s) for k, s in steps if s.note and (lang.current() == "en"
                                                     or not _english(s.note))]
    left = len([s for _, s in steps if s.note]) - len(shown)
    items = [f"<li>{k + 1}「{esc(enacted_words(corpus, s))}」：{esc(s.note)}</li>"
             for k, s in shown]
    if left:
        items.append("<li>" + esc(tr("The script's notes are written in English: "
                                     "`atlas --lang en` prints them.")) + "</li>")
    if not items:
        return ""
    return (f'<div class="notes"><b>{esc(tr("Choices the script makes where the text is silent"))}'
            f"</b><ul>\n{''.join(items)}\n</ul></div>")


def _english(text: str) -> bool:
    """Whether a note is (in part) English prose: three Latin letters in a row."""
    import re

    return re.search(r"[A-Za-z]{2,}", text) is not None


def index_html(timeline, corpus, pages_: list[Page], title: str, paper: str = "a4",
               svg: bool = True) -> str:
    """The atlas' one page: contents, then each plate beside its text; printed, on `paper`;
    svg: each plate links its SVG (else its PNG)."""
    esc = html.escape
    contents = "\n".join(f'<li><a href="#{p.anchor}">{esc(p.title)}</a></li>' for p in pages_)
    n = len(pages_)
    texts_at = contents_pages(n) + n + 1
    rows = [(f"#{p.anchor}", p.title, plate_page(i, n)) for i, p in enumerate(pages_)]
    rows.append(("#texts", tr("Text, notes and choices"), texts_at))
    printed = "".join(
        f'<div class="print contents-page">'
        + (f"<h1>{esc(title)}</h1><h2>{esc(tr('Contents'))}</h2>" if j == 0 else "")
        + "<ol>" + "".join(f'<li><a class="t" href="{a}">{esc(t)}</a><span class="dots">'
                           f'</span><span class="p">{pg}</span></li>'
                           for a, t, pg in rows[j:j + CONTENTS_ROWS]) + "</ol></div>\n"
        for j in range(0, len(rows), CONTENTS_ROWS))
    texts = []
    body = []
    for i, p in enumerate(pages_):
        prev = (f'<a href="#{pages_[i - 1].anchor}">← {esc(pages_[i - 1].title)}</a>'
                if i else "<span></span>")
        nxt = (f'<a href="#{pages_[i + 1].anchor}">{esc(pages_[i + 1].title)} →</a>'
               if i + 1 < len(pages_) else f'<a href="#top">{esc(tr("↑ contents"))}</a>')
        png = f"{PLATES}/{p.anchor}.png"
        vec = f"{PLATES}/{p.anchor}.svg" if svg else png
        text, notes = _text_block(timeline, corpus, p), _notes_block(timeline, p, corpus)
        body.append(
            f'<section class="page" id="{p.anchor}">\n'
            f'<figure><a href="{vec}"><img src="{png}" width="{PLATE_SIZE[0]}" '
            f'height="{PLATE_SIZE[1]}" alt="{esc(p.title)}"></a>'
            f'<figcaption>{esc(tr("t = {t:.1f} s").format(t=p.t))}'
            + (f' · <a href="{vec}">SVG</a>' if svg else "")
            + f' · <a href="{png}">PNG</a></figcaption></figure>\n'
            f'<div class="text"><h2>{esc(p.title)}</h2>\n'
            f"{text}\n{notes}\n"
            f'<div class="pager">{prev}{nxt}</div></div>\n</section>')
        # printed, the texts follow the plates, each naming its plate's page
        where = tr("plate {n}, page {page}").format(n=i + 1, page=plate_page(i, n))
        texts.append(f'<h3>{esc(p.title)}<span class="p">{esc(where)}</span></h3>\n'
                     + text.replace(' id="', ' data-id="') + "\n" + notes)
    main, used = _substituted(printed + "\n".join(body)
                              + f'\n<div class="print texts" id="texts"><h2>'
                              f'{esc(tr("Text, notes and choices"))}</h2>\n'
                              + "\n".join(texts) + "</div>")
    # the character itself is not written: no font here draws it, so it would show as a box
    subs = "".join('<p class="zhu">' + esc(tr("{shown} stands for the character U+{code:04X}, "
                                             "which no font here draws.").format(
                                                 shown=b, code=ord(a))) + "</p>"
                   for a, b in used)
    return (f'<!DOCTYPE html>\n<html lang="{html_lang()}">\n<head><meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{page_css(paper)}</style>\n</head>\n<body>\n"
            f'<header id="top"><h1>{esc(title)}</h1>\n'
            f'<nav class="contents"><ol>\n{contents}\n</ol></nav>{subs}</header>\n'
            + main + "\n</body>\n</html>\n")


def _substituted(page: str) -> tuple[str, list[tuple[str, str]]]:
    """The page with the characters no font draws shown as the window shows them, and which."""
    from viz.backends.fonts import SUBSTITUTES

    used = [(a, b) for a, b in sorted(SUBSTITUTES.items()) if a in page]
    for a, b in used:
        page = page.replace(a, b)
    return page, used


@dataclass(frozen=True)
class AtlasInfo:
    folder: Path
    plates: int
    files: int
    seconds: float  # wall time of drawing the plates
    total_seconds: float  # … and writing everything


def refuse_early(folder: str | Path, overwrite: bool) -> None:
    """What build_atlas refuses that can be told before the rite is compiled: a folder whose
    parent is missing, an index.html that is there (build_atlas checks every file again)."""
    d = Path(folder)
    if not d.is_dir() and not d.parent.is_dir():
        raise OutputError(f"cannot create {d}: folder {d.parent} does not exist (create it "
                          "first)")
    if not overwrite:
        refuse_existing([d / "index.html"])


def build_atlas(compiled, folder: str | Path, *, steps: bool = False, overwrite: bool = False,
                workers: int | None = None, progress: bool = True,
                title: str = "鄉射禮圖", paper: str = "a4", svg: bool = False,
                ahead: Ahead | None = None) -> AtlasInfo:
    """Write the atlas into `folder` (created if missing; its parent must exist). Refuses before
    writing anything when a file it would write exists, unless `overwrite`. svg: each plate's
    SVG too (a third of the drawing time; `plate --stage N -o FILE.svg` draws one). ahead: the
    pages and plates drawn while the rite compiled (compile_drawing), with the same `steps`
    and `svg`."""
    start = time.perf_counter()
    d = Path(folder)
    tl = compiled.timeline
    kinds = ("png", "svg") if svg else ("png",)
    # before the slow part (write_all checks again as it writes, every file)
    if not d.is_dir() and not d.parent.is_dir():
        if ahead is not None:
            ahead.finish()
        raise OutputError(f"cannot create {d}: folder {d.parent} does not exist (create it "
                          "first)")
    if not overwrite:  # the plates' names are known once drawn: any plate there is refused
        taken = [d / "index.html", *(p for p, _ in font_files(d))]
        if (d / PLATES).is_dir():
            taken += [p for p in sorted((d / PLATES).iterdir()) if p.suffix[1:] in kinds
                      and p.stem.startswith(("stage-", "step-"))]
        try:
            refuse_existing(taken)
        except BaseException:
            if ahead is not None:
                ahead.finish()
            raise
    t0 = time.perf_counter()
    by_stage: dict[int, list[Page]] = {}
    drawn: dict[str, tuple[bytes, bytes]] = {}
    try:
        # the stages no child of the compile took, drawn while it draws on
        left = [s.index for s in tl.stages if ahead is None or s.index >= ahead.assigned]
        if left:
            got, more = draw_stages(compiled, left, steps, workers, progress, svg)
            by_stage.update(got)
            drawn.update(more)
    finally:
        if ahead is not None:
            ahead.finish()
            by_stage.update(ahead.pages)
            drawn.update(ahead.drawn)
    missed = [s.index for s in tl.stages if s.index not in by_stage]  # a child that failed
    if missed:
        got, more = draw_stages(compiled, missed, steps, 1, False, svg)
        by_stage.update(got)
        drawn.update(more)
    pages_ = [p for s in tl.stages for p in by_stage[s.index]]
    seconds = time.perf_counter() - t0
    files: list[tuple[Path, bytes]] = [
        (d / "index.html", index_html(tl, compiled.corpus, pages_, title, paper, svg)
                          .encode("utf-8"))]
    files += font_files(d)
    files = files[:3] + [(d / PLATES / f"{p.anchor}.{ext}", drawn[p.anchor][k])
                         for p in pages_ for k, ext in enumerate(kinds)]
    write_all(files, overwrite, folders=[d, d / PLATES, d / FONTS])
    return AtlasInfo(d, len(pages_), len(files), seconds, time.perf_counter() - start)
