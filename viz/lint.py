"""Checks of the compiled rite while people move, not only where steps end: nobody walks through
anybody. Run by `check`; each finding is a warning located at the step it happens in."""
from __future__ import annotations

import numpy as np

from viz.errors import Loc, Problem

PASS = 1.0  # 尺: two people closer than this, one of them walking, pass through each other
DT = 0.2  # seconds between samples: a walker covers under 1 尺 in that time


def _loc(text: str) -> Loc:
    file, line, col = text.rsplit(":", 2)
    return Loc(file, int(line), int(col))


def motion_warnings(timeline, dt: float = DT) -> list[Problem]:
    """People passing through each other, sampled every dt seconds along every path."""
    out: list[Problem] = []
    seen: set[tuple[int, int, int]] = set()
    names = [a.name for a in timeline.actors]
    for t in np.arange(0.0, timeline.duration, dt):
        f = timeline.sample(float(t))
        idx = np.nonzero(f.present)[0]
        if len(idx) < 2 or not f.moving[idx].any():
            continue
        xy = f.xy[idx]
        d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
        iu, ju = np.triu_indices(len(idx), 1)
        close = (d[iu, ju] < PASS) & (f.moving[idx][iu] | f.moving[idx][ju])
        for k in np.nonzero(close)[0]:
            i, j = int(idx[iu[k]]), int(idx[ju[k]])
            key = (i, j, f.step)
            if key in seen or not timeline.steps:
                continue
            seen.add(key)
            step = timeline.steps[f.step]
            out.append(Problem(_loc(step.loc), f"{names[i]} ({timeline.actors[i].id}) and "
                                               f"{names[j]} ({timeline.actors[j].id}) pass "
                                               f"{d[iu[k], ju[k]]:.1f} 尺 apart at t = {t:.1f} s, "
                                               "one walking through the other", warning=True))
    return out
