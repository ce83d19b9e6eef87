"""The segmented seed: plain text, sections, runs, clauses, and variant-folded search."""
from __future__ import annotations

import bisect
import json
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

from viz.base.yamlsrc import is_dir
from viz.text.variants import normalize

CORPUS_FILE = Path(__file__).resolve().parents[2] / "assets" / "text" / "corpus.json"
KINDS = ("題", "經", "注", "記", "記注", "引", "按")


@dataclass(frozen=True)
class Section:
    """One of 江永's 37 sections: its 經 and 注, its 右… heading, and the 記 etc. after it."""

    index: int      # 1..37
    name: str       # as the seed spells it (23/28 and 24/29 share names)
    start: int      # offsets into Corpus.plain, end exclusive
    end: int


@dataclass(frozen=True)
class Run:
    """A stretch of one kind of text (題 經 注 記 記注 引 按)."""

    kind: str
    start: int
    end: int
    page: str       # page where the run starts, e.g. "011-4a"
    section: int    # 0 = front matter


@dataclass(frozen=True)
class Clause:
    """A 句 of the 經 or of a 記 item, with its display punctuation and the notes on it.

    start/end span the clause in plain and may enclose 注 runs; `text` is the clause's own
    characters only. `notes` holds the texts of the 注 (記注 for a 記 clause) attached to it;
    `note_spans` the same notes as (start, end) offsets into plain.
    """

    id: str         # "05.03" = section 5, 經 clause 3; "05.記1" = first 記 clause of section 5
    section: int
    kind: str       # 經 | 記
    start: int
    end: int
    text: str
    punct: str
    notes: tuple[str, ...]
    page: str
    note_spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Corpus:
    """The whole chapter; every offset is into `plain`."""

    plain: str
    sections: tuple[Section, ...]
    runs: tuple[Run, ...]
    clauses: tuple[Clause, ...]
    pages: tuple[tuple[int, str], ...]
    marks: tuple[tuple[int, str], ...] = ()   # display punctuation: mark goes before plain[offset]
    _page_starts: tuple[int, ...] = field(repr=False, default=())

    @cached_property
    def folded(self) -> str:
        """plain with variants folded (same length, same offsets)."""
        return normalize(self.plain)

    def section_named(self, name: str) -> Section | None:
        """The first section with this name (variants equal); a number string picks by index."""
        if name.strip().isdigit():
            i = int(name)
            return self.sections[i - 1] if 1 <= i <= len(self.sections) else None
        key = normalize(name.strip().removeprefix("右"))
        return next((s for s in self.sections if normalize(s.name) == key), None)

    def sections_named(self, name: str) -> tuple[Section, ...]:
        """Every section with this name (取矢視算 and 飲不勝者 occur twice)."""
        key = normalize(name.strip().removeprefix("右"))
        return tuple(s for s in self.sections if normalize(s.name) == key)

    def section_at(self, offset: int) -> Section | None:
        """The section containing offset (None in the front matter)."""
        return next((s for s in self.sections if s.start <= offset < s.end), None)

    def find(self, query: str, start: int = 0, end: int | None = None) -> list[int]:
        """Offsets in plain where the folded query occurs in the folded plain."""
        key = normalize(query)
        if not key:
            return []
        stop = len(self.plain) if end is None else end
        out, i = [], self.folded.find(key, start, stop)
        while i >= 0:
            out.append(i)
            i = self.folded.find(key, i + 1, stop)
        return out

    @cached_property
    def _main_text(self) -> tuple[str, tuple[int, ...]]:
        """The folded 經 and 記 with the commentary (注, 記注, 引, 按) left out, and each
        character's offset in plain."""
        parts, offsets = [], []
        for r in self.runs:
            if r.kind in ("經", "記"):
                parts.append(self.folded[r.start:r.end])
                offsets.extend(range(r.start, r.end))
        return "".join(parts), tuple(offsets)

    def find_read_on(self, query: str) -> list[tuple[int, int]]:
        """Where the folded query occurs in the 經 or 記 read on past the 注 between (挾一个揖退
        runs over 注 亦於三耦為之位): each occurrence's first and last offsets in plain."""
        key = normalize(query)
        text, offsets = self._main_text
        out, i = [], text.find(key) if key else -1
        while i >= 0:
            out.append((offsets[i], offsets[i + len(key) - 1]))
            i = text.find(key, i + 1)
        return out

    @cached_property
    def _run_starts(self) -> tuple[int, ...]:
        return tuple(r.start for r in self.runs)

    def run_at(self, offset: int) -> Run | None:
        """The run containing offset."""
        i = bisect.bisect_right(self._run_starts, offset) - 1
        return self.runs[i] if i >= 0 and offset < self.runs[i].end else None

    def clause_at(self, offset: int) -> Clause | None:
        """The clause whose span contains offset (a 注 inside a clause's span counts)."""
        return next((c for c in self.clauses if c.start <= offset < c.end), None)

    def clauses_of(self, section: Section | int, kind: str = "經") -> tuple[Clause, ...]:
        """The 經 (or 記) clauses of one section, in order."""
        index = section if isinstance(section, int) else section.index
        return tuple(c for c in self.clauses if c.section == index and c.kind == kind)

    def clause(self, cid: str) -> Clause | None:
        """A clause by its id, e.g. "05.03"."""
        return next((c for c in self.clauses if c.id == cid), None)

    def page_at(self, offset: int) -> str:
        """The page (e.g. "011-4a") on which the character at offset is printed."""
        i = bisect.bisect_right(self._page_starts, offset) - 1
        return self.pages[max(i, 0)][1]

    def punctuated(self, start: int, end: int) -> str:
        """plain[start:end] with the display punctuation of the 經 and 記 put in."""
        out, pos = [], start
        lo = bisect.bisect_left(self.marks, (start, ""))
        for off, mark in self.marks[lo:]:
            if off > end:
                break
            opening = mark == "「"
            if (opening and off == end) or (not opening and off == start):
                continue
            out.append(self.plain[pos:off] + mark)
            pos = off
        out.append(self.plain[pos:end])
        return "".join(out)

    def words(self, start: int, end: int, kinds: tuple[str, ...] = ("經", "記")) -> str:
        """The characters of these kinds (the 經 and 記) in plain[start:end], punctuated, the 注
        between left out: the words of a 辭 as someone says them (say: {cite: …})."""
        return "".join(self.punctuated(max(r.start, start), min(r.end, end)) for r in self.runs
                       if r.kind in kinds and r.start < end and r.end > start)

    def in_kinds(self, offset: int, kinds: tuple[str, ...]) -> bool:
        """Whether the character at offset is of one of these kinds of text (經, 記, 注 …)."""
        r = self.run_at(offset)
        return r is not None and r.kind in kinds

    def text(self, kinds: str | tuple[str, ...], section: Section | None = None) -> str:
        """The characters of the runs of these kinds, in reading order (one section or all)."""
        want = (kinds,) if isinstance(kinds, str) else kinds
        return "".join(self.plain[r.start:r.end] for r in self.runs
                       if r.kind in want and (section is None or r.section == section.index))


def corpus_from_dict(data: dict) -> Corpus:
    """A Corpus from the JSON written by tools/segment_text.py."""
    pages = tuple((int(o), str(p)) for o, p in data["pages"])
    return Corpus(
        plain=data["plain"],
        sections=tuple(Section(*s) for s in data["sections"]),
        runs=tuple(Run(*r) for r in data["runs"]),
        clauses=_closed(tuple(_clause(c, data["plain"]) for c in data["clauses"])),
        pages=pages,
        marks=tuple((int(o), str(m)) for o, m in data.get("marks", ())),
        _page_starts=tuple(o for o, _ in pages),
    )


CLOSERS = "」』）〕"


def _closed(clauses: tuple[Clause, ...]) -> tuple[Clause, ...]:
    """A clause cut inside a quotation begins with the quotation's closing mark (「…正歌備。」
    樂正告於賔): the mark is shown at the end of the clause before it, in the same section,
    where it belongs, so no display line starts with a lone 」."""
    out = list(clauses)
    for i in range(1, len(out)):
        prev, cur = out[i - 1], out[i]
        lead = len(cur.punct) - len(cur.punct.lstrip(CLOSERS))
        if lead and prev.section == cur.section:
            out[i - 1] = replace(prev, punct=prev.punct + cur.punct[:lead])
            out[i] = replace(cur, punct=cur.punct[lead:])
    return tuple(out)


def _clause(c: list, plain: str) -> Clause:
    spans = tuple((int(a), int(b)) for a, b in c[7])
    return Clause(c[0], c[1], c[2], c[3], c[4], c[5], c[6],
                  tuple(plain[a:b] for a, b in spans), c[8], spans)


def corpus_file(path: str | Path | None = None) -> Path:
    """The corpus.json a path names (a folder: its corpus.json; None: the bundled 鄉射 text),
    resolved, so one file has one name."""
    file = Path(path) if path is not None else CORPUS_FILE
    if is_dir(file):
        file = file / "corpus.json"
    return file.resolve()


def load_corpus(path: str | Path | None = None) -> Corpus:
    """The corpus at path (a rite's `text:`; None: the bundled assets/text/corpus.json); cached
    by its resolved path, so every name of one file gives the same Corpus."""
    return _load(str(corpus_file(path)))


_SOURCES: dict[int, tuple[Corpus, Path]] = {}


def source_of(corpus: Corpus) -> Path | None:
    """The file a loaded corpus was read from (None for one built otherwise)."""
    got = _SOURCES.get(id(corpus))
    return got[1] if got is not None and got[0] is corpus else None


@lru_cache(maxsize=8)
def _load(file: str) -> Corpus:
    """The corpus in file; a file that is not one (not JSON, not UTF-8, nested past reading, or
    JSON of another shape) is a located InputError, never a traceback."""
    from viz.base.errors import InputError, Loc, Problem
    from viz.base.yamlsrc import read_text

    text = read_text(file)  # a regular file within the size limit, UTF-8: located otherwise

    def bad(message: str, line: int = 1, col: int = 1) -> InputError:
        return InputError(Problem(Loc(file, line, col), message))

    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise bad(f"not a corpus: not JSON ({e.msg})", e.lineno, e.colno) from None
    except RecursionError:
        raise bad("not a corpus: JSON nested too deep to read") from None
    why = _not_a_corpus(data)
    if why:
        raise bad(f"not a corpus ({why}); a rite's text: names the corpus.json "
                  "tools/segment_text.py writes")
    try:
        corpus = corpus_from_dict(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise bad(f"not a corpus: a value of the wrong shape ({type(e).__name__}); a rite's "
                  "text: names the corpus.json tools/segment_text.py writes") from None
    _SOURCES[id(corpus)] = (corpus, Path(file))
    return corpus


_ROWS = {"pages": 2, "sections": 4, "runs": 5, "clauses": 9}


def _not_a_corpus(data: object) -> str:
    """What keeps data from being a corpus's JSON ("" if nothing): its top-level shape."""
    if not isinstance(data, dict):
        return f"a JSON {type(data).__name__}, not an object"
    if not isinstance(data.get("plain"), str):
        return "no plain: text"
    for key, width in _ROWS.items():
        rows = data.get(key)
        if not isinstance(rows, list):
            return f"no {key}: list"
        for i, row in enumerate(rows):
            if not isinstance(row, list) or len(row) < width:
                return f"{key}[{i}] is not a row of {width} values"
    return ""
