"""What opens over the map: the stage list (L), the search box (/), the help (H) and the errors
of a failed reload. Built in the HUD's logical px (hudbase.logical), drawn larger with it."""
from __future__ import annotations

import unicodedata

from viz.base.lang import tr
from viz.draw.display import Line, Primitive, Rect, Text
from viz.draw.hudbase import (
    FAINT,
    GREY,
    HILITE,
    INK,
    RED,
    HudState,
    areas,
    logical,
    ui_scale,
    wrap,
)
from viz.text import normalize

SEARCH = "尋 / {}▏"
HELP_TITLE = "按鍵 Keys"
PROBLEMS = "重載有誤，仍演前一版 (reload failed; playing the last good version)"
PROBLEMS_MORE = "… 另 {n} 條"
MAX_PROBLEMS = 12  # rows of the error overlay; the rest are counted
STAGE_LIST = "節目 Stages · {n}"
STAGE_LIST_HINT = "↑↓ · Enter 跳 go · Esc 關 close"
STAGE_LIST_ASK = "打字：節名或號 type a name or number"
STAGE_LIST_TYPED = "尋 {}▏"
STAGE_LIST_NONE = "無 no stage"
STAGE_ROW_T = "{:.0f} s"
LIST_ROW_H = 22  # px a row of the stage list
LIST_HEAD_H = 58  # px of its title, hint and typed text
LIST_W = 400
KEYS = [
    ("Space", "播放／暫停 play / pause"),
    ("← →", "上一步／下一步 step"),
    ("PgUp PgDn  [ ]", "上一節／下一節 stage"),
    ("Home End", "開頭／結尾 start / end"),
    ("+ −", "速度 speed (×0.25 … ×64)"),
    ("Ctrl++ Ctrl+−", "全圖放大／縮小 larger / smaller (all)"),
    ("W", "略候 skip the waits (nobody moves)"),
    ("P  Enter", "講 play one step, then pause"),
    ("F11", "全螢幕 fullscreen"),
    ("滾輪 wheel", "縮放 zoom at cursor"),
    ("拖曳 drag", "平移 pan (on the map)"),
    ("F", "全圖 fit"),
    ("I", "侯道分圖 range inset on / off"),
    ("N", "鄭注 show / hide notes"),
    ("/", "搜尋經文 find in the text"),
    ("L  Tab", "節目 stage list: type, click, Enter"),
    ("點句 click", "跳至此句 jump to a clause"),
    ("點時間軸 click bar", "跳轉 scrub"),
    ("點人／物 click", "選之 select: trail, next move; a thing"),
    ("C", "隨所選者 follow the selected"),
    ("G", "前一步之位 where they were"),
    ("R", "換讀法 next reading (鄭, 敖 …)"),
    ("V  Shift+R", "比較讀法 compare readings"),
    ("D", "鼓聲 drum sound on the beats"),
    ("S", "存圖 screenshot"),
    ("H", "說明 this help"),
    ("Esc Q", "離開 quit (Esc 先取消所選)"),
]


def problems_overlay(map_box, problems: tuple[str, ...]) -> list[Primitive]:
    """The located messages of a failed reload, in a box across the top of the map: the picture
    under it keeps playing the last good version."""
    x, y, w, _ = map_box
    bw = max(w - 24, 40)
    rows: list[str] = []
    for p in problems[:MAX_PROBLEMS]:
        rows += wrap(p, 12, bw - 28)
    if len(problems) > MAX_PROBLEMS:
        rows.append(PROBLEMS_MORE.format(n=len(problems) - MAX_PROBLEMS))
    bh = 34 + 17 * len(rows)
    out: list[Primitive] = [Rect((x + 12, y + 12, bw, bh), (255, 246, 240, 235), RED, 1.5,
                                 radius=5),
                            Text((x + 22, y + 20), tr(PROBLEMS), 13, RED, "nw", screen=True)]
    for k, line in enumerate(rows):
        out.append(Text((x + 22, y + 40 + 17 * k), line, 12, INK, "nw", screen=True))
    return out


def stage_matches(names: list[str], query: str) -> list[int]:
    """The stages typed text finds, best first: the stage of that number (and those whose
    number starts with it), else names starting with it, then names containing it; variants
    and full-width digits equal (賓 finds 賔, ３ finds 3)."""
    q = normalize(unicodedata.normalize("NFKC", query)).strip()
    if not q:
        return []
    if q.isascii() and q.isdigit():
        exact = [int(q) - 1] if 1 <= int(q) <= len(names) else []
        return exact + [i for i in range(len(names)) if str(i + 1).startswith(q)
                        and i not in exact]
    folded = [normalize(n) for n in names]
    starts = [i for i, n in enumerate(folded) if n.startswith(q)]
    return starts + [i for i, n in enumerate(folded) if q in n and i not in starts]


def stage_list_box(size: tuple[int, int], n: int, user: float = 1.0
                   ) -> tuple[float, float, float, float]:
    """The box of a list of n stages: over the map, centred, as tall as its rows or the map
    (in the HUD's logical px: see logical)."""
    return _list_box(logical(size, user)[1]["map"], n)


def _list_box(map_box, n: int) -> tuple[float, float, float, float]:
    mx, my, mw, mh = map_box
    bw = min(LIST_W, max(mw - 24, 40))
    bh = min(mh - 24, LIST_HEAD_H + 10 + LIST_ROW_H * max(n, 1))
    return (mx + (mw - bw) / 2, my + 12, bw, max(bh, LIST_HEAD_H + LIST_ROW_H + 10))


def _list_rows(box) -> int:
    return max(int((box[3] - LIST_HEAD_H - 6) // LIST_ROW_H), 1)


def stage_list_rows(size: tuple[int, int], n: int, user: float = 1.0) -> int:
    """How many rows of a list of n stages show at once."""
    return _list_rows(stage_list_box(size, n, user))


def list_top(top: int, rows: int, n: int, pick: int | None = None) -> int:
    """The first row shown: moved so `pick` (if given) is in view, and kept within the list."""
    if pick is not None:
        top = min(max(top, pick - rows + 1), pick)
    return min(max(top, 0), max(n - rows, 0))


def stage_list_row_at(size: tuple[int, int], n: int, top: int,
                      pos: tuple[float, float], user: float = 1.0) -> int | None:
    """The stage whose row of the list (scrolled to `top`) is under pos (window px), else None."""
    k = ui_scale(size, user)
    bx, by, bw, _ = stage_list_box(size, n, user)
    rows = stage_list_rows(size, n, user)
    top = list_top(top, rows, n)
    px, py = pos[0] / k, pos[1] / k
    r = (py - by - LIST_HEAD_H) // LIST_ROW_H
    if not (bx <= px < bx + bw) or py < by + LIST_HEAD_H or not 0 <= r < rows:
        return None
    i = top + int(r)
    return i if i < n else None


def stage_list(timeline, frame, size: tuple[float, float], st: HudState,
               map_box=None) -> list[Primitive]:
    """The stage list (L): every stage by number and name, the current one in red, the picked
    row highlighted, what the typed text does not find greyed; scrolled to st.stage_top.
    size and map_box in the HUD's logical px (map_box: areas(size)'s map when not given)."""
    names = [s.name for s in timeline.stages]
    box = _list_box(areas(size)["map"] if map_box is None else map_box, len(names))
    n, rows = len(names), _list_rows(box)
    top = list_top(st.stage_top, rows, n)
    bx, by, bw, bh = box
    found = set(stage_matches(names, st.stages or ""))
    w, h = size
    out: list[Primitive] = [Rect((0, 0, w, h), (30, 26, 20, 70)),
                            Rect((bx, by, bw, bh), (250, 247, 240), INK, 1.5, radius=8),
                            Text((bx + 14, by + 14), tr(STAGE_LIST).format(n=n), 15, RED, "w",
                                 screen=True),
                            Text((bx + bw - 12, by + 14), tr(STAGE_LIST_HINT), 10, GREY, "e",
                                 screen=True),
                            Text((bx + 14, by + 40), STAGE_LIST_TYPED.format(st.stages or ""), 14,
                                 INK, "w", screen=True)]
    if not st.stages:
        out.append(Text((bx + 50, by + 40), tr(STAGE_LIST_ASK), 11, GREY, "w", screen=True))
    elif not found:
        out.append(Text((bx + bw - 12, by + 40), tr(STAGE_LIST_NONE), 11, GREY, "e", screen=True))
    out.append(Line(((bx + 8, by + LIST_HEAD_H - 4), (bx + bw - 8, by + LIST_HEAD_H - 4)),
                    (200, 190, 170), 1.0, screen=True))
    for k, s in enumerate(timeline.stages[top:top + rows]):
        i, ry = top + k, by + LIST_HEAD_H + k * LIST_ROW_H
        if i == st.stage_pick:
            out.append(Rect((bx + 6, ry, bw - 22, LIST_ROW_H), HILITE, radius=3))
        col = RED if i == frame.stage else (FAINT if st.stages and i not in found else INK)
        out.append(Text((bx + 44, ry + LIST_ROW_H / 2), str(i + 1), 13, col, "e", screen=True))
        out.append(Text((bx + 54, ry + LIST_ROW_H / 2), s.name, 14, col, "w", screen=True))
        out.append(Text((bx + bw - 20, ry + LIST_ROW_H / 2), STAGE_ROW_T.format(s.t0), 10, GREY,
                        "e", screen=True))
    if n > rows:  # a scroll bar: where the rows shown sit in the whole list
        th = bh - LIST_HEAD_H - 8
        out.append(Rect((bx + bw - 10, by + LIST_HEAD_H + th * top / n, 4, th * rows / n),
                        (180, 166, 140), radius=2))
    return out


def search_box(map_box, st: HudState) -> list[Primitive]:
    x, y, w, _ = map_box
    bw = min(w - 24, 480)
    bx = x + 12
    out: list[Primitive] = [Rect((bx, y + 12, bw, 34), (255, 253, 246), RED, 1.5, radius=5),
                            Text((bx + 10, y + 29), SEARCH.format(st.search), 15, INK, "w",
                                 screen=True)]
    if st.search_note:
        out.append(Text((bx + bw - 10, y + 29), st.search_note, 11, GREY, "e", screen=True))
    return out


def help_overlay(size: tuple[int, int]) -> list[Primitive]:
    w, h = size
    row = max(min(24.0, (h - 60) / len(KEYS)), 16.0)  # rows close up in a low window
    bw, bh = 460, 40 + row * len(KEYS)
    bx, by = (w - bw) / 2, max((h - bh) / 2, 0)
    out: list[Primitive] = [Rect((0, 0, w, h), (30, 26, 20, 110)),
                            Rect((bx, by, bw, bh), (250, 247, 240), INK, 1.5, radius=8),
                            Text((bx + bw / 2, by + 18), tr(HELP_TITLE), 16, RED, "c", screen=True)]
    for i, (k, what) in enumerate(KEYS):
        yy = by + 44 + row * i
        out.append(Text((bx + 150, yy), k, 13, INK, "e", screen=True))
        out.append(Text((bx + 168, yy), tr(what), 13, INK, "w", screen=True))
    return out
