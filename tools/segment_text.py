"""Build a rite's corpus.json from its source text: 江永's seed with a reader's judgements, or 張爾岐's 句讀.

Two source formats, one output format (the corpus.json that viz/text/corpus.py loads):

  jiangyong  江永《禮書綱目》 (鄉射禮): the seed's layout ('/' between small-print half-columns,
             [page] lines) plus assets/text/judgements.yaml, a reader's cut into runs with display
             punctuation. The default; writes assets/text/corpus.json.
  zhang      張爾岐《儀禮鄭註句讀》 as the Kanripo text has it (<pb:…> pages, ¶ line ends,
             small print in ( … ) with '/' between its half-columns). Large print is 經 (記 after
             the lone 記 line); in the small print the text before the first ○ is 鄭注 (注, 記注 in
             the 記), from the ○ on it is 張's own words and 音 (按); lines set in by 　 are
             題 (the title, the 右… headings that close each section, the 記… headings). A
             clause ends where his notes break the 經 (his 句): it is shown with 。 there.

    python tools/segment_text.py                                  # 鄉射禮 (jiangyong)
    python tools/segment_text.py --format zhang \
        --source ../shared/ref/儀禮鄭註句讀_卷四_鄉飲酒禮_張爾岐.txt \
        --out assets/rites/xiangyin/text/corpus.json --tail-name 拜賜息司正
"""
from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viz.text.variants import normalize  # noqa: E402 (after the path is set)

TEXT_DIR = ROOT / "assets" / "text"
SEED = TEXT_DIR / "seed.txt"
JUDGEMENTS = TEXT_DIR / "judgements.yaml"
CORPUS = TEXT_DIR / "corpus.json"
# the 注疏 text the seed is checked against: in the shared reference folder beside the repository
# (../shared/ref, as for --source above), named relative to it, never by one machine's path
REF = ROOT.parent / "shared" / "ref" / "儀禮注疏_卷五_鄉射禮.txt"
PAGE_RE = re.compile(r"^\[(\d{3}-\d+[ab])\]\s*$")


@dataclass(frozen=True)
class Seed:
    """The seed with layout taken out: plain text plus where pages, lines and '/' marks were."""

    plain: str
    pages: tuple[tuple[int, str], ...]   # (offset where the page starts, "011-4a")
    lines: tuple[tuple[int, int], ...]   # (start, end) of each printed column in plain
    slashes: tuple[int, ...]             # offset in plain of the char right after each '/'


def parse_seed(path: Path = SEED) -> Seed:
    """Strip page markers, newlines and '/' from the seed, remembering where they were."""
    out: list[str] = []
    pages, lines, slashes = [], [], []
    n = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        m = PAGE_RE.match(raw)
        if m:
            pages.append((n, m.group(1)))
            continue
        start = n
        for ch in raw:
            if ch == "/":
                slashes.append(n)
                continue
            out.append(ch)
            n += 1
        lines.append((start, n))
    return Seed("".join(out), tuple(pages), tuple(lines), tuple(slashes))


def parse_ref(path: Path = REF) -> tuple[str, str]:
    """The reference's 經 and 鄭注 as one stream plus a parallel label string ('經'/'注').

    音義 and 疏 are dropped. The ref marks where 注 starts but not always where it stops
    (small print needs no end mark), so a 注 label here runs until the next 音義/疏/○.
    """
    text = path.read_text(encoding="utf-8")
    text = text.split("#+PROPERTY: JUAN 卷五考證")[0]
    body = [ln for ln in text.splitlines() if not ln.startswith("#") and not ln.startswith("<pb")]
    stream = "".join(body).replace("¶", "").replace("\u3000", "")
    stream = re.sub(r"(音義|疏)?\([^)]*\)", "○", stream)
    chars, labels, note_starts = [], [], []
    mode, run_start = "經", 0
    for ch in stream:
        if ch == "○":
            mode = "經"
        elif ch == "注":
            if mode == "注":
                # two 注 marks with no end mark between: some 經 hides in the first run
                labels[run_start:] = ["?"] * (len(labels) - run_start)
            mode, run_start = "注", len(labels)
            note_starts.append(len(labels))
        elif ch.strip():
            chars.append(ch)
            labels.append(mode)
    for i in note_starts:
        labels[i] = "^"   # a 注 certainly starts here, whatever follows
    return "".join(chars), "".join(labels)


def align_labels(seed_text: str, ref_text: str, ref_labels: str, min_block: int = 1) -> list[str | None]:
    """Give each seed char the label of the ref char it aligns with (None where unmatched)."""
    out: list[str | None] = [None] * len(seed_text)
    sm = difflib.SequenceMatcher(None, normalize(seed_text), normalize(ref_text), autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if (op == "equal" and i2 - i1 >= min_block) or (op == "replace" and i2 - i1 == j2 - j1):
            for k in range(i2 - i1):
                out[i1 + k] = ref_labels[j1 + k]
    return out


SMALL = {"注", "記注", "?", "^"}   # "?": ref 注 that may run on into unmarked 經; "^": 注 starts


def small_print(seed: Seed, labels: list[str | None], start: int, end: int,
                full: bool, cont: bool) -> list[bool]:
    """Which chars of one printed column are small print, from its '/' marks.

    Each '/' splits a small-print stretch into a right half-column of r chars and a left one of
    r or r-1 chars; a full column takes 21 cells. Among the layouts that fit, take the one that
    agrees best with the ref, whose 注 marks are trusted where a 注 starts (not where it stops).
    """
    cuts = [p for p in seed.slashes if start <= p <= end]
    ref_small = [labels[i] in SMALL for i in range(start, end)]
    starts = {i for i in range(start + 1, end) if labels[i] == "^"
              or (ref_small[i - start] and not ref_small[i - start - 1])}
    if cont or labels[start] == "^":
        starts.add(start)
    best: tuple[tuple, list[tuple[int, int]]] | None = None
    for layout in _layouts(cuts, start, end):
        cells = (end - start) - sum(b - a for a, b, _ in layout) + sum(c for _, _, c in layout)
        mask = [False] * (end - start)
        for a, b, _ in layout:
            mask[a - start:b - start] = [True] * (b - a)
        agree = sum(m == r for m, r, lab in zip(mask, ref_small, labels[start:end])
                    if lab not in ("?", None))
        on_marks = sum(a in starts for a, _, _ in layout)
        score = (-abs(cells - 21) if full else 0, on_marks, agree)
        if best is None or score > best[0]:
            best = (score, mask)
    return best[1] if best else ref_small


def _layouts(cuts: list[int], start: int, end: int, floor: int | None = None):
    """Every way to put a small-print stretch (right r, left r or r-1) around each '/'."""
    if not cuts:
        yield []
        return
    p, rest = cuts[0], cuts[1:]
    floor = start if floor is None else floor
    limit = rest[0] if rest else end
    for r in range(1, p - floor + 1):
        for left in (r, r - 1):
            if p + left <= limit:
                for tail in _layouts(rest, start, end, p + left):
                    yield [(p - r, p + left, r)] + tail


def geometry_fix(seed: Seed, labels: list[str | None], lo: int, hi: int) -> None:
    """Within [lo, hi) make small print 注 and large print 經, column by column."""
    cont = False
    for start, end in seed.lines:
        if start < lo or end > hi or start == end:
            continue
        full = end < hi and end - start > 12
        mask = small_print(seed, labels, start, end, full, cont)
        cont = mask[-1]
        for i, small in enumerate(mask):
            labels[start + i] = "注" if small else "經"


NAMES = ("戒賔", "設席陳器", "張侯", "速賔", "迎賔", "獻賔", "賔酢主人", "酬賔", "獻衆賔", "一人舉觶",
         "獻大夫", "大夫酢", "樂賔", "立司正", "司正舉觶", "請射", "誘射", "初射獲而未釋獲", "取矢",
         "再請射", "再射釋獲", "賔主大夫衆賔射", "取矢視算", "飲不勝者", "獻獲者及釋獲者", "三請射",
         "三射用樂", "取矢視算", "飲不勝者", "三射畢", "旅酬", "二人舉觶", "徹俎", "燕", "賓出", "拜賜",
         "息司正")


def heading_lines(seed: Seed) -> list[int]:
    """Offsets of the 37 `右…` heading lines (not 右篇目, not the 經 line 右勝則曰…)."""
    out = []
    for start, _ in seed.lines:
        text = seed.plain[start:start + 12]
        if text.startswith("右") and not text.startswith(("右篇目", "右勝則")):
            out.append(start)
    return out


def first_jing(labels: list[str | None], start: int, need: int = 4) -> int:
    """First offset from start where `need` 經-labelled chars follow one another."""
    i = start
    while not all(labels[j] == "經" for j in range(i, i + need)):
        i += 1
    return i


def propose(seed: Seed, ref_path: Path = REF) -> list[dict]:
    """Draft judgements: per section, runs (kind, seed text) from alignment with the ref."""
    ref, ref_labels = parse_ref(ref_path)
    split = ref.index("記大夫與則公士爲賓")
    labels = align_labels(seed.plain, ref[:split], ref_labels[:split])
    heads = heading_lines(seed)
    starts = [first_jing(labels, seed.plain.index("主人戒賔"))]
    starts += [first_jing(labels, h + 1) for h in heads[:-1]]
    starts[3] = seed.plain.index("羮定", heads[2])   # 羮定 is 經 but only two chars long
    for n, head in enumerate(heads):
        geometry_fix(seed, labels, starts[n], head)
    ji = {"經": "記", "注": "記注", "?": "記注", "^": "記注"}
    for n, head in enumerate(heads):
        stop = starts[n + 1] if n + 1 < len(starts) else len(seed.plain)
        region = seed.plain[head:stop]
        sub = align_labels(region, ref[split:], ref_labels[split:], min_block=3)
        for k, lab in enumerate(sub):
            labels[head + k] = ji.get(lab) if lab else "按"
        title = len(re.match("右" + NAMES[n] + "( 記)?", region).group(0))
        labels[head:head + title] = ["題"] * title
    labels[:starts[0]] = ["題"] * starts[0]
    bounds = starts + [len(seed.plain)]
    sections = [{"section": 0, "name": "", "runs": _runs(seed.plain, labels, 0, starts[0])}]
    for n in range(37):
        sections.append({"section": n + 1, "name": NAMES[n],
                         "runs": _runs(seed.plain, labels, bounds[n], bounds[n + 1])})
    return sections


def _runs(plain: str, labels: list[str | None], start: int, end: int) -> list[list[str]]:
    """Group consecutive same-label chars; unlabelled chars take the label before them."""
    runs: list[list[str]] = []
    prev = "經"
    for i in range(start, end):
        lab = labels[i] or prev
        if plain[i] == " " and runs:
            lab = runs[-1][0] if runs[-1][0] not in ("經", "記") else "按"
        if runs and runs[-1][0] == lab:
            runs[-1][1] += plain[i]
        else:
            runs.append([lab, plain[i]])
        prev = lab
    return runs


PUNCT = "，。、：；「」？！"
CLOSE = "。；？！"
JING_KINDS = {"經": "注", "記": "記注"}   # clause kind → the kind of note attached to it


def strip_punct(s: str) -> str:
    """The seed's characters of a judgement line (display punctuation removed)."""
    return "".join(ch for ch in s if ch not in PUNCT)


def check_judgements(seed: Seed, sections: list[dict]) -> None:
    """Raise ValueError unless the judgement runs give back the seed's characters exactly."""
    pos = 0
    for sec in sections:
        for i, (kind, text) in enumerate(sec["runs"]):
            where = f"section {sec['section']} run {i + 1} ({kind})"
            if kind not in {"題", "經", "注", "記", "記注", "引", "按"}:
                raise ValueError(f"{where}: unknown kind {kind!r}")
            chars = strip_punct(text) if kind in JING_KINDS else text
            if kind not in JING_KINDS and any(ch in PUNCT for ch in text):
                raise ValueError(f"{where}: punctuation is only for 經 and 記 lines")
            if kind in JING_KINDS and " " in chars:
                raise ValueError(f"{where}: a space cannot be inside {kind}")
            got = seed.plain[pos:pos + len(chars)]
            if got != chars:
                k = next(j for j, (a, b) in enumerate(zip(got + "\0", chars)) if a != b)
                raise ValueError(f"{where}: seed has {got[max(0, k - 8):k + 8]!r} at {pos + k}, "
                                 f"judgement has {chars[max(0, k - 8):k + 8]!r}")
            pos += len(chars)
    if pos != len(seed.plain):
        raise ValueError(f"judgements stop at {pos}; the seed goes on: {seed.plain[pos:pos + 20]!r}")


def page_of(seed: Seed, offset: int) -> str:
    """The page a plain offset lies on."""
    page = seed.pages[0][1]
    for start, name in seed.pages:
        if start > offset:
            break
        page = name
    return page


def build(seed: Seed, sections: list[dict]) -> dict:
    """Offsets for sections, runs and clauses, ready to be written as corpus.json."""
    check_judgements(seed, sections)
    out: dict = {"plain": seed.plain, "pages": [list(p) for p in seed.pages],
                 "sections": [], "runs": [], "clauses": [], "marks": []}
    pos = 0
    for sec in sections:
        start = pos
        runs = []
        for kind, text in sec["runs"]:
            n = len(strip_punct(text) if kind in JING_KINDS else text)
            runs.append((kind, pos, pos + n, text))
            out["marks"] += _marks(text, pos) if kind in JING_KINDS else []
            out["runs"].append([kind, pos, pos + n, page_of(seed, pos), sec["section"]])
            pos += n
        if sec["section"]:
            out["sections"].append([sec["section"], sec["name"], start, pos])
            out["clauses"] += _clauses(seed, sec["section"], runs)
    return out


def _marks(text: str, pos: int) -> list[list]:
    """Punctuation of a judgement line as [offset, mark]: the mark goes before plain[offset]."""
    out = []
    for ch in text:
        if ch in PUNCT:
            out.append([pos, ch])
        else:
            pos += 1
    return out


def _clauses(seed: Seed, section: int, runs: list[tuple[str, int, int, str]]) -> list[list]:
    """Cut the section's 經 and 記 lines at 。；？！ into clauses; attach following notes."""
    clauses: list[dict] = []
    open_: dict | None = None
    counters = {"經": 0, "記": 0}
    for kind, start, end, text in runs:
        if kind in JING_KINDS:
            pos = start
            for ch in text:
                if open_ is None or open_["kind"] != kind or open_["closed"]:
                    counters[kind] += 1
                    n = counters[kind]
                    cid = f"{section:02d}.{n:02d}" if kind == "經" else f"{section:02d}.記{n}"
                    open_ = {"id": cid, "kind": kind, "start": pos, "end": pos, "text": "",
                             "punct": "", "notes": [], "closed": False}
                    clauses.append(open_)
                open_["punct"] += ch
                if ch in PUNCT:
                    open_["closed"] = ch in CLOSE
                    continue
                open_["text"] += ch
                pos += 1
                open_["end"] = pos
        elif open_ is not None and JING_KINDS[open_["kind"]] == kind:
            open_["notes"].append([start, end])
        elif kind not in JING_KINDS.values() and open_ is not None:
            open_["closed"] = True
    return [[c["id"], section, c["kind"], c["start"], c["end"], c["text"], c["punct"],
             c["notes"], page_of(seed, c["start"])] for c in clauses]


def layout_problems(seed: Seed, data: dict) -> list[str]:
    """Columns where the judged small print does not fit the '/' marks (a hint, not a rule)."""
    kinds = [""] * len(seed.plain)
    for kind, a, b, _, _ in data["runs"]:
        kinds[a:b] = [kind] * (b - a)
    slashes = set(seed.slashes)
    out = []
    for n, (start, end) in enumerate(seed.lines):
        if start == end or not set(kinds[start:end]) <= {"經", "注", "記", "記注"}:
            continue
        labels: list[str | None] = list(kinds[start:end])
        frags, i = [], 0
        while i < len(labels):
            j = i
            while j < len(labels) and labels[j] in SMALL:
                j += 1
            if j > i:
                frags.append((start + i, start + j))
            i = j + 1
        why = []
        cells = sum(1 for k in labels if k not in SMALL)
        for a, b in frags:
            cut = [p for p in slashes if a <= p <= b]
            r, left = (cut[0] - a, b - cut[0]) if len(cut) == 1 else (b - a, 0)
            cells += max(r, left)
            if len(cut) != 1 or not (r - 1 <= left <= r or a == start or b == end):
                why.append(f"small print {seed.plain[a:b]!r} has {len(cut)} '/'")
        if any(not any(a < p <= b for a, b in frags) for p in slashes if start < p <= end):
            why.append("a '/' outside small print")
        nxt = seed.lines[n + 1] if n + 1 < len(seed.lines) else (0, 0)
        full = 19 if {"記", "記注"} & set(labels) else 21   # 記 is set two cells lower
        if cells != full and nxt[1] > nxt[0] and not seed.plain.startswith("右", nxt[0]):
            why.append(f"{cells} cells, not {full}")
        if why:
            out.append(f"column {n + 1} [{page_of(seed, start)}] {seed.plain[start:end]}: "
                       + "; ".join(why))
    return out


def ref_differences(data: dict, ref_path: Path = REF) -> list[str]:
    """Where the judged 經 differs from the 經 of 儀禮注疏 (variants folded).

    Ref text inside a 注 that runs on without an end mark ("?") may be 經 or 注, so it is
    matched when the seed has it as 經 and not missed when the seed does not.
    """
    ref, ref_labels = parse_ref(ref_path)
    lo, hi = ref.index("主人戒賓"), ref.index("記大夫與則公士爲賓")
    keep = [j for j in range(lo, hi) if ref_labels[j] in ("經", "?")]
    ref_jing = "".join(ref[j] for j in keep)
    sure = [ref_labels[j] == "經" for j in keep]
    offsets = [i for kind, a, b, _, sec in data["runs"] if kind == "經" and sec
               for i in range(a, b)]
    jing = "".join(data["plain"][i] for i in offsets)
    sm = difflib.SequenceMatcher(None, normalize(jing), normalize(ref_jing), autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        ref_part = "".join(ref_jing[j] for j in range(j1, j2) if sure[j])
        if op == "equal" or (i1 == i2 and not ref_part):
            continue
        at = offsets[min(i1, len(offsets) - 1)]
        sec = next(s[0] for s in data["sections"] if s[2] <= at < s[3])
        out.append(f"section {sec}: seed {jing[i1:i2]!r} / ref {ref_jing[j1:j2]!r} "
                   f"in …{jing[max(0, i1 - 6):i2 + 6]}…")
    return out


ZHANG_PAGE_RE = re.compile(r"<pb:[^>]*_(\d{3}-\d+[ab])>")
ZHANG_TAIL = re.compile(r"(自初\S*|此\S*第[一二三四]段\S*)$")   # 張's remark after a heading's name


# the line that opens the 記: a lone 記, or 記 with the 記's title and a note (士冠禮: 記冠義(○…)
ZHANG_JI_RE = re.compile(r"^記([^\s(]{1,3}義)?(?=\(|$)")


def parse_zhang(path: Path, tail_name: str = "") -> tuple[Seed, list[dict]]:
    """張爾岐's 句讀: the plain text and its sections as judgement runs (see the module doc).

    Section n runs from its first 經 through its 右… heading; the 經 after the last heading
    (which has none) is the last section, named tail_name, and the 記 belongs to it.
    """
    plain: list[str] = []
    labels: list[str] = []
    pages, lines, slashes, heads = [], [], [], []
    in_ji, note, after_heading = False, "", False
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("#"):
            continue
        m = ZHANG_PAGE_RE.match(raw)
        if m:
            pages.append((len(plain), m.group(1)))
            raw = raw[m.end():]
        text = raw.replace("¶", "").rstrip("\u3000 ")
        heading = text.startswith("\u3000") or text == "欽定四庫全書"   # 四庫's banner: flush left
        text = text.lstrip("\u3000")
        if not text:
            continue
        start = len(plain)
        ji_line = bool(ZHANG_JI_RE.match(text))   # 記, or 士冠禮's 記冠義( … )
        if ji_line:
            in_ji = True
        title = text.split("(")[0] if heading else ""
        if title.startswith("右"):
            heads.append([start, start + len(title)])
        elif title and after_heading:          # a heading run on to a second line
            heads[-1][1] = start + len(title)
        after_heading = title.startswith("右") or bool(title and after_heading)
        depth = False
        for ch in text:
            if ch == "(":
                depth = True
                if not note:
                    note = "記注" if in_ji else "注"
                continue
            if ch == ")":
                depth = False
                continue
            if ch == "/":
                slashes.append(len(plain))
                continue
            if depth:
                if ch == "○":
                    note = "按"
                labels.append(note)
            else:
                note = ""
                labels.append("題" if heading or ji_line else ("記" if in_ji else "經"))
            plain.append(ch)
        lines.append((start, len(plain)))
    if not pages or pages[0][0] > 0:
        pages.insert(0, (0, ""))      # text before any page marker: on no known page
    seed = Seed("".join(plain), tuple(pages), tuple(lines), tuple(slashes))
    return seed, _zhang_sections(seed.plain, labels, heads, tail_name)


def _zhang_sections(plain: str, labels: list[str], heads: list[list[int]],
                    tail_name: str) -> list[dict]:
    """Judgement-style sections: runs of one label, each 經 or 記 run closed with 。."""
    def first_jing(after: int) -> int | None:
        return next((i for i in range(after, len(plain)) if labels[i] in ("經", "記")), None)

    starts = [first_jing(b) for b in [0] + [b for _, b in heads]]
    if starts[0] is None:
        raise ValueError("no large print (經) at all")
    tail = starts[-1] is not None     # 經 after the last 右… heading: a section with no heading
    starts = [i for i in starts if i is not None]
    if tail and heads and not tail_name:
        raise ValueError("the 經 after the last 右… heading needs a section name (--tail-name)")
    bounds = [0] + starts + [len(plain)]
    names = [""] + [ZHANG_TAIL.sub("", plain[a + 1:b]) for a, b in heads] + [tail_name] * tail
    sections = []
    for n in range(len(bounds) - 1):
        runs: list[list[str]] = []
        for i in range(bounds[n], bounds[n + 1]):
            if runs and runs[-1][0] == labels[i]:
                runs[-1][1] += plain[i]
            else:
                runs.append([labels[i], plain[i]])
        for run in runs:
            if run[0] in JING_KINDS:
                run[1] += "。"
        sections.append({"section": n, "name": names[n], "runs": runs})
    return sections


INNER = "，、：「」"   # marks a reader may put inside one of 張's 句 (a 。 there would cut it in two)


def read_punct(path: Path) -> dict[str, tuple[int, str]]:
    """A reader's punctuation of 張's clauses: one `ID TEXT` line each (`04.05 主人坐取爵，興，…。`);
    blank lines and lines starting with # are skipped. → {id: (line number, text)}."""
    out: dict[str, tuple[int, str]] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cid, _, text = line.partition(" ")
        if not text.strip():
            raise ValueError(f"{path}:{n}:1: expected `ID TEXT` (e.g. 04.05 主人坐取爵，興。), found {line!r}")
        if cid in out:
            raise ValueError(f"{path}:{n}:1: clause {cid} punctuated twice (first at line {out[cid][0]})")
        out[cid] = (n, text.strip())
    return out


def apply_punct(sections: list[dict], punct: dict[str, tuple[int, str]], path: Path) -> None:
    """Put a reader's marks into the 經 and 記 runs of 張's sections (each run is one of his 句,
    ending 。). Every clause must be given, with the run's characters exactly, only ，、：「」 inside
    and 。 at the end; ValueError (file:line:column) otherwise."""
    seen = set()
    for sec in sections:
        count = {"經": 0, "記": 0}
        for run in sec["runs"]:
            kind = run[0]
            if kind not in JING_KINDS or not sec["section"]:
                continue
            count[kind] += 1
            k = count[kind]
            cid = f"{sec['section']:02d}.{k:02d}" if kind == "經" else f"{sec['section']:02d}.記{k}"
            if cid not in punct:
                raise ValueError(f"{path}:1:1: clause {cid} ({run[1][:12]}…) has no punctuation line")
            n, text = punct[cid]
            seen.add(cid)
            bad = [(i, ch) for i, ch in enumerate(text[:-1]) if ch in PUNCT and ch not in INNER]
            if bad or not text.endswith("。"):
                i, ch = bad[0] if bad else (len(text) - 1, text[-1])
                raise ValueError(f"{path}:{n}:{len(cid) + 2 + i}: clause {cid}: {ch!r} — expected only "
                                 f"{INNER} inside a clause and 。 at its end (張's 句 stay whole)")
            if strip_punct(text) != strip_punct(run[1]):
                want, got = strip_punct(run[1]), strip_punct(text)
                k2 = next((j for j, (a, b) in enumerate(zip(want + "\0", got + "\0")) if a != b), 0)
                raise ValueError(f"{path}:{n}:1: clause {cid}: the text has {want[max(0, k2 - 6):k2 + 6]!r}, "
                                 f"the line {got[max(0, k2 - 6):k2 + 6]!r}")
            run[1] = text
    extra = sorted(set(punct) - seen)
    if extra:
        raise ValueError(f"{path}:{punct[extra[0]][0]}:1: no clause {extra[0]} in the text")


def main(argv: list[str] | None = None) -> int:
    """Command line: build corpus.json (default) or write a draft of the judgements."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--format", choices=("jiangyong", "zhang"), default="jiangyong",
                    help="the source's format (default jiangyong: 江永's seed and the judgements)")
    ap.add_argument("--source", type=Path,
                    help="the source text (jiangyong: assets/text/seed.txt; zhang: required)")
    ap.add_argument("--out", type=Path,
                    help="where corpus.json goes (jiangyong: assets/text/corpus.json; zhang: "
                         "required; an existing file is replaced only with --force)")
    ap.add_argument("--force", action="store_true", help="replace an existing --out")
    ap.add_argument("--punct", type=Path,
                    help="zhang: a reader's punctuation of 張's clauses (one `ID TEXT` line each; "
                         "assets/rites/xiangyin/text/punct.txt)")
    ap.add_argument("--tail-name", default="",
                    help="zhang: the name of the last section, whose 經 has no 右… heading")
    ap.add_argument("--propose", metavar="OUT", help="write draft judgements aligned with the ref")
    ap.add_argument("--check", action="store_true",
                    help="also list columns whose '/' marks disagree with the judgements, and "
                         "where the 經 differs from the ref's (ref 注 that runs on unmarked shows "
                         "up as seed-only 經)")
    ap.add_argument("--ref", type=Path, default=REF)
    ns = ap.parse_args(argv)
    if ns.format == "zhang":
        return _main_zhang(ns)
    seed = parse_seed(ns.source or SEED)
    if ns.propose:
        text = yaml.safe_dump(propose(seed, ns.ref), allow_unicode=True, width=4000,
                              sort_keys=False, default_flow_style=None)
        Path(ns.propose).write_text(text, encoding="utf-8")
        return 0
    sections = yaml.safe_load(JUDGEMENTS.read_text(encoding="utf-8"))["sections"]
    data = build(seed, sections)
    out = ns.out or CORPUS
    _write(out, data)
    print(f"{out}: {len(data['sections'])} sections, {len(data['runs'])} runs, "
          f"{len(data['clauses'])} clauses")
    if ns.check:
        print("\n".join(layout_problems(seed, data)))
        print("\n".join(ref_differences(data, ns.ref)))
    return 0


def _main_zhang(ns: argparse.Namespace) -> int:
    if ns.source is None or ns.out is None:
        print("segment_text: --format zhang needs --source FILE and --out FILE", file=sys.stderr)
        return 2
    if ns.out.exists() and not ns.force:
        print(f"segment_text: {ns.out} exists; add --force to replace it", file=sys.stderr)
        return 2
    try:
        seed, sections = parse_zhang(ns.source, ns.tail_name)
        if ns.punct is not None:
            apply_punct(sections, read_punct(ns.punct), ns.punct)
        data = build(seed, sections)
    except (OSError, ValueError) as exc:
        print(f"segment_text: {ns.source}: {exc}", file=sys.stderr)
        return 1
    _write(ns.out, data)
    kinds = [c[2] for c in data["clauses"]]
    print(f"{ns.out}: {len(data['sections'])} sections, {len(data['runs'])} runs, "
          f"{kinds.count('經')} 經 and {kinds.count('記')} 記 clauses")
    return 0


def _write(path: Path, data: dict) -> None:
    """Write corpus.json atomically (a temporary file renamed over the target)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    tmp.replace(path)


if __name__ == "__main__":
    sys.exit(main())
