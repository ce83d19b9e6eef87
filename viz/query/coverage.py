"""Which clauses of the text the script enacts: `python main.py coverage [--json] [--strict]`.

For each of the 37 sections, its 經 and 記 clauses and the steps that cite each. A clause is
*cited* when the span of some step's cite overlaps the clause's own characters (not the 注 its
span may enclose); *noted* when no step cites it but a stage's `rules:` entry does (a rule, not
an action: the rule's note is the reason); *missing* otherwise. A step repeated by `each:` or
expanded from a pattern is one written step: it is listed once, by where it is written.

The JSON (`coverage --json`, documented in docs/REFERENCE.md, "Coverage"):

    {"script": PATH, "readings": [..],
     "summary": {"經": {"total", "cited", "noted", "missing": [ID..]},
                 "記": {"total", "cited", "noted", "missing": [ID..]},
                 "sections": 37, "scripted": [N..],
                 "scripted_經": {"total", "cited", "noted", "missing": [ID..]}},
     "sections": [{"number", "name", "scripted", "stages": [{"name", "file"}],
                   "clauses": [{"id", "kind", "text", "status": "cited"|"noted"|"missing",
                                "steps": [{"file", "line", "col", "cite"}],
                                "rules": [{"file", "line", "col", "cite", "note"}]}]}]}
"""
from __future__ import annotations

import bisect
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from viz.base.errors import Loc

KINDS = ("經", "記")
CITED, NOTED, MISSING = "cited", "noted", "missing"


@dataclass(frozen=True)
class Citation:
    """A written step (or rule) that overlaps a clause."""

    loc: Loc
    cite: str
    note: str = ""   # a rule's reason


@dataclass(frozen=True)
class ClauseCoverage:
    id: str
    kind: str             # 經 | 記
    text: str
    status: str           # cited | noted | missing
    steps: tuple[Citation, ...]
    rules: tuple[Citation, ...]


@dataclass(frozen=True)
class SectionCoverage:
    number: int
    name: str
    stages: tuple[tuple[str, str], ...]   # (stage name, file) of the stages enacting it
    clauses: tuple[ClauseCoverage, ...]

    @property
    def scripted(self) -> bool:
        return bool(self.stages)


@dataclass(frozen=True)
class Coverage:
    sections: tuple[SectionCoverage, ...]

    def clauses(self, kind: str | None = None, scripted_only: bool = False):
        return [c for s in self.sections if s.scripted or not scripted_only
                for c in s.clauses if kind is None or c.kind == kind]

    def missing(self, kind: str | None = None, scripted_only: bool = False) -> list[str]:
        return [c.id for c in self.clauses(kind, scripted_only) if c.status == MISSING]

    def count(self, kind: str, status: str, scripted_only: bool = False) -> int:
        return sum(c.status == status for c in self.clauses(kind, scripted_only))


def own_spans(corpus, clause, starts: list[int] | None = None) -> list[tuple[int, int]]:
    """The clause's own characters as spans of plain: its start..end without the 注 inside.
    starts: the runs' starts (computed when not given)."""
    if starts is None:
        starts = [r.start for r in corpus.runs]
    i = max(bisect.bisect_right(starts, clause.start) - 1, 0)
    out = []
    for r in corpus.runs[i:]:
        if r.start >= clause.end:
            break
        a, b = max(r.start, clause.start), min(r.end, clause.end)
        if a < b and r.kind == clause.kind:
            out.append((a, b))
    return out or [(clause.start, clause.end)]


def coverage(script, corpus) -> Coverage:
    """Every section's 經 and 記 clauses against a loaded Script's steps and rules."""
    steps: list[Citation] = []
    step_spans: list[tuple[int, int]] = []
    rules: list[Citation] = []
    rule_spans: list[tuple[int, int]] = []
    seen: dict[tuple, int] = {}
    by_section: dict[int, list[tuple[str, str]]] = {}
    for si, stage in enumerate(script.stages):
        if stage.number:
            by_section.setdefault(stage.number, []).append((stage.name, stage.loc.file))
        for st in stage.steps:
            # a step repeated by each: (or one pattern's several steps, each enacting its part
            # of the words) is one written step, citing all its parts
            # of one stage: a like:'s copy keeps its model's location, not its words
            key = (si, st.loc.file, st.loc.line, st.loc.col)
            if key in seen:
                k = seen[key]
                a, b = step_spans[k]
                step_spans[k] = (min(a, st.span[0]), max(b, st.span[1]))
                continue
            seen[key] = len(steps)
            steps.append(Citation(st.loc, st.cite))
            step_spans.append(tuple(st.span))
            for act in st.actions:  # words of the text said (say: {cite: …}): a 辭 spoken
                said = act.args.get("cite") if act.verb == "say" else None
                akey = (act.loc.file, act.loc.line, act.loc.col)
                if said is not None and akey not in seen:
                    seen[akey] = len(steps)
                    steps.append(Citation(act.loc, said.cite, "said"))
                    step_spans.append(tuple(said.span))
        for c in getattr(stage, "setup_cites", ()):  # a setup item placing what a clause says
            steps.append(Citation(c.loc, c.cite))
            step_spans.append(tuple(c.span))
        for r in stage.rules:
            rules.append(Citation(r.loc, r.cite, r.note))
            rule_spans.append(tuple(r.span))
    # the clauses' own characters: disjoint spans of plain, in order
    starts = [r.start for r in corpus.runs]
    own = sorted((lo, hi, c.id) for c in corpus.clauses if c.kind in KINDS
                 for lo, hi in own_spans(corpus, c, starts))
    los = [lo for lo, _, _ in own]
    his = [hi for _, hi, _ in own]

    def hits(cites: list[Citation], spans: list[tuple[int, int]]) -> dict[str, list[Citation]]:
        out: dict[str, list[Citation]] = {}
        for cite, (a, b) in zip(cites, spans):
            if b <= a:
                continue
            i, j = bisect.bisect_right(his, a), bisect.bisect_left(los, b)
            for cid in dict.fromkeys(own[k][2] for k in range(i, j)):
                out.setdefault(cid, []).append(cite)
        return out

    by_step, by_rule = hits(steps, step_spans), hits(rules, rule_spans)
    sections = []
    for sec in corpus.sections:
        clauses = []
        for kind in KINDS:
            for c in corpus.clauses_of(sec, kind):
                cs, rs = tuple(by_step.get(c.id, ())), tuple(by_rule.get(c.id, ()))
                status = CITED if cs else NOTED if rs else MISSING
                clauses.append(ClauseCoverage(c.id, kind, c.text, status, cs, rs))
        sections.append(SectionCoverage(sec.index, sec.name,
                                        tuple(by_section.get(sec.index, ())), tuple(clauses)))
    return Coverage(tuple(sections))


# --- output ---------------------------------------------------------------------------------

def _cite_json(c: Citation, rule: bool) -> dict:
    d = {"file": c.loc.file, "line": c.loc.line, "col": c.loc.col, "cite": c.cite}
    if rule:
        d["note"] = c.note
    return d


def _tally(cov: Coverage, kind: str, scripted_only: bool = False) -> dict:
    d = {"total": len(cov.clauses(kind, scripted_only)),
         "cited": cov.count(kind, CITED, scripted_only),
         "noted": cov.count(kind, NOTED, scripted_only)}
    d["missing"] = cov.missing(kind, scripted_only)
    return d


def to_json(cov: Coverage, script_path: str = "", readings=()) -> dict:
    """The documented JSON (docs/REFERENCE.md, "Coverage")."""
    return {
        "script": str(script_path),
        "readings": list(readings),
        "summary": {
            "經": _tally(cov, "經"),
            "記": _tally(cov, "記"),
            "sections": len(cov.sections),
            "scripted": [s.number for s in cov.sections if s.scripted],
            "scripted_經": _tally(cov, "經", scripted_only=True),
        },
        "sections": [{
            "number": s.number,
            "name": s.name,
            "scripted": s.scripted,
            "stages": [{"name": n, "file": f} for n, f in s.stages],
            "clauses": [{
                "id": c.id, "kind": c.kind, "text": c.text, "status": c.status,
                "steps": [_cite_json(x, False) for x in c.steps],
                "rules": [_cite_json(x, True) for x in c.rules],
            } for c in s.clauses],
        } for s in cov.sections],
    }


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(width - _width(text), 0)


def _short(text: str, limit: int = 14) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _where(cites: tuple[Citation, ...], base: Path | None) -> str:
    """Steps as file:line, lines of one file together: sections/05-迎賔.yaml:12,30."""
    files: dict[str, list[int]] = {}
    for c in cites:
        files.setdefault(_rel(c.loc.file, base), []).append(c.loc.line)
    return " ".join(f"{f}:{','.join(map(str, sorted(set(ls))))}" for f, ls in files.items())


def _rel(file: str, base: Path | None) -> str:
    if base is not None:
        try:
            rel = os.path.relpath(file, base)
            if not rel.startswith(".."):
                return rel
        except ValueError:
            pass
    return file


def _ranges(ids: list[str], cov: Coverage) -> str:
    """Missing clause ids, a section whose every clause of that kind is missing as "§6 (all 9)"."""
    want = set(ids)
    parts = []
    for s in cov.sections:
        for kind in KINDS:
            of = [c.id for c in s.clauses if c.kind == kind]
            miss = [i for i in of if i in want]
            if not miss:
                continue
            if len(miss) == len(of) and len(of) > 1:
                parts.append(f"§{s.number} {kind} (all {len(of)})")
            else:
                parts.extend(miss)
    return ", ".join(parts)


def format_table(cov: Coverage, script_path: str = "") -> str:
    """A table per section, then the summary lines."""
    p = Path(script_path) if script_path else None
    base = (p if p.is_dir() else p.parent) if p is not None and p.exists() else None
    lines = []
    for s in cov.sections:
        if s.scripted:
            where = "; ".join(f"{n} ({_rel(f, base)})" for n, f in s.stages)
            head = f"§{s.number:02d} {s.name} — {where}"
        else:
            head = f"§{s.number:02d} {s.name} — not scripted"
        lines.append(head)
        for c in s.clauses:
            status = c.status.upper() if c.status == MISSING else c.status
            if c.status == CITED:
                info = _where(c.steps, base)
            elif c.status == NOTED:
                why = "; ".join(r.note for r in c.rules if r.note)
                info = f"{_where(c.rules, base)} ({_short(' '.join(why.split()), 60)})"
            else:
                info = ""
            lines.append(f"  {_pad(c.id, 8)}{_pad(_short(c.text), 30)}{_pad(status, 9)}"
                         f"{info}".rstrip())
        lines.append("")
    lines.extend(summary_lines(cov))
    return "\n".join(lines)


def summary_lines(cov: Coverage) -> list[str]:
    j, ji = len(cov.clauses("經")), cov.count("經", CITED)
    k = len(cov.clauses("記"))
    kc, kn = cov.count("記", CITED), cov.count("記", NOTED)
    scripted = [s for s in cov.sections if s.scripted]
    sj = len(cov.clauses("經", True))
    sji = cov.count("經", CITED, True)
    jn = cov.count("經", NOTED)
    noted = f" ({jn} only noted by a rule)" if jn else ""
    out = [f"經 cited {ji}/{j}{noted}; 記 cited or noted {kc + kn}/{k} ({kc} cited, {kn} noted); "
           f"{len(scripted)} of {len(cov.sections)} sections scripted, their 經 cited "
           f"{sji}/{sj}"]
    miss = cov.missing()
    out.append(f"missing: {_ranges(miss, cov)}" if miss else "missing: none")
    return out
