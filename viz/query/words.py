"""The words of the text a step enacts: its cite's fragments cut to its part (issue 19, class 6).

A pattern's step says only its part of the citing step's words (`span`, from the reader's
`parts`), and a cite written `A … B` says A and B, not the clauses the `…` leaves out. The window's
text panel shows these words and highlights the clauses they touch, so that what it shows is the
clause the step on screen enacts, as `--after` does.
"""
from __future__ import annotations

import re

ELIDED = "…"
_SPLIT = re.compile(r"…+|\.\.\.")


def enacted_spans(corpus, step) -> list[tuple[int, int]]:
    """The stretches of the text (offsets into plain) the step says: each fragment of its cite
    as the text has it, cut to the step's part; the part whole when its words lie in a gap the
    `…` leaves out (or the cite is not found where the step says it); for a move the text does
    not say (said: false), the citing step's words, as they are."""
    a, b = step.span
    if corpus is None or b <= a:
        return []
    if not getattr(step, "said", True):
        return [(a, b)]
    frags = [f.strip() for f in _SPLIT.split(getattr(step, "cite", "")) if f.strip()]
    if not frags:
        return [(a, b)]
    sec = corpus.section_at(a)
    lo = sec.start if sec is not None else 0
    first = [p for p in corpus.find(frags[0], lo, a + 1) if p <= a]
    pos = first[-1] if first else a
    out: list[tuple[int, int]] = []
    for f in frags:
        hits = corpus.find(f, pos, None)
        if not hits:
            break
        p, q = hits[0], hits[0] + len(f)
        if max(p, a) < min(q, b):
            out.append((max(p, a), min(q, b)))
        pos = q
        if pos >= b:
            break
    return out or [(a, b)]


def enacted_words(corpus, step) -> str:
    """The step's words as `enacted_spans` finds them, joined by … (only the 經 and 記: a 注
    the part encloses is left out); the cite as written when there is no text to look in, or
    for a move the text does not say."""
    spans = enacted_spans(corpus, step)
    if not spans or not getattr(step, "said", True):
        return step.cite
    pieces = []
    for a, b in spans:
        pieces.append("".join(corpus.plain[max(r.start, a):min(r.end, b)] for r in corpus.runs
                              if r.kind in ("經", "記") and r.start < b and a < r.end))
    return ELIDED.join(p for p in pieces if p) or step.cite


def clause_said(corpus, step, text: str | None = None):
    """The clause a picture at the end of `step` is about: the one holding TEXT's last character
    among the step's words (`plate --after TEXT`: the clause asked, though the step says others
    with it), else the first clause its words touch; None without a text."""
    if corpus is None or step is None:
        return None
    spans = enacted_spans(corpus, step) or [step.span]
    if text:
        for h in corpus.find(text):
            last = h + len(text) - 1
            if any(a <= last < b for a, b in [step.span, *spans]):
                return corpus.clause_at(last)
    return corpus.clause_at(spans[0][0])
