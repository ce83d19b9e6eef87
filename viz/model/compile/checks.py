"""The warnings about the compiled state: an expect that does not hold, a step too short to walk,
two people in one spot, and anyone or anything that jumps where one stage hands over to the next.

Functions: the checks made while compiling read the world (c.world) and a step's rows; those made
on the finished Timeline read it alone. They own no state and report to c.out.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from viz.model import footprint
from viz.model.compile.keyframes import _Buffer, unwrap_to
from viz.model.script.nodes import Expect, Step
from viz.model.timeline import FLYING, SET_DOWN, WORN_ON, Timeline

if TYPE_CHECKING:
    from viz.model.compile.context import Ctx

OVERLAP = 1.2  # 尺: closer than this at rest is two people in one spot
UNDERFOOT = frozenset({"薦", "籩", "豆", "俎"})
JUMP = 0.5  # 尺: a move bigger than this across a stage boundary is a jump


def _step_loc(text: str):
    """A step's loc ("file:line:col") as a Loc."""
    from viz.base.errors import Loc
    file, line, col = text.rsplit(":", 2)
    return Loc(file, int(line), int(col))


# verbs anyone may do while not in the scene: come in, be relabelled, wait
ABSENT_OK = frozenset({"enter", "label", "wait"})


# ---- errors ----
def check_present(c: Ctx, act, step: Step) -> None:
    """Acting while absent is an error (issue 19, class 2): whoever an action names (who,
    and give's to:) must be in the scene when it is compiled, that is after what the step
    wrote before it (an enter earlier in the same step counts)."""
    if act.verb in ABSENT_OK:
        return
    names = list(act.args.get("who", ()))
    if act.verb == "give":
        names.append(act.args["to"])
    elif act.verb in ("don", "doff") and act.args.get("by"):
        names.append(act.args["by"])
    elif act.verb == "take":
        src = act.args.get("from")
        if src is not None and src.actor and src.place is None:
            names.append(src.actor)
    for w in names:
        a = c.ai.get(w) if isinstance(w, str) else None
        if a is not None and not c.world.present[a]:
            c.out.error(act.loc, f"{c.script.cast[a].name} ({w}) is not in the scene "
                        f"but is made to {act.verb} at 「{step.cite}」 (enter him first)")

# ---- warnings ----
def check_expect(c: Ctx, ex: Expect) -> None:
    for w in ex.who:
        a = c.ai[w]
        name = c.script.cast[a].name
        if ex.present is not None and bool(c.world.present[a]) != ex.present:
            c.out.warn(ex.loc, f"expected {name} {'present' if ex.present else 'gone'}")
        if ex.at is not None:
            goal = c.xy(ex.at, ex.loc)
            d = float(np.hypot(*(goal - c.world.pos[a])))
            if d > ex.within:
                c.out.warn(ex.loc, f"expected {name} within {ex.within:g} 尺 of "
                           f"({goal[0]:.1f}, {goal[1]:.1f}); he is {d:.1f} 尺 away, "
                           f"at ({c.world.pos[a][0]:.1f}, {c.world.pos[a][1]:.1f})")
        if ex.face is not None and abs(unwrap_to(ex.face, c.world.face[a]) - ex.face) > 10:
            c.out.warn(ex.loc, f"expected {name} to face {ex.face:g}°, he faces "
                       f"{c.world.face[a] % 360:.0f}°")
        if ex.posture is not None and c.world.base[a] != ex.posture:
            c.out.warn(ex.loc, f"expected {name} {ex.posture}, he is {c.world.base[a]}")
        if ex.holding is not None:
            held = {c.script.props[p].id for p in np.nonzero(c.world.holder == a)[0]}
            missing = [p for p in ex.holding if p not in held]
            if missing:
                c.out.warn(ex.loc, f"expected {name} to hold {', '.join(missing)}")

def check_speed(c: Ctx, step: Step, buf: _Buffer, scale: float) -> None:
    by_actor: dict[int, list] = {}
    for a, t, x, y, *_ in buf.motion:
        by_actor.setdefault(a, []).append((t * scale, x, y))
    for a, ks in by_actor.items():
        for (t0, x0, y0), (t1, x1, y1) in zip(ks, ks[1:]):
            d = math.hypot(x1 - x0, y1 - y0)
            if t1 > t0 and d / (t1 - t0) > c.cfg.brisk_speed:
                c.out.warn(step.loc, f"{c.script.cast[a].name} moves at "
                           f"{d / (t1 - t0):.1f} 尺/s, faster than a brisk walk "
                           f"({c.cfg.brisk_speed:g} 尺/s): dur is too short")
                return

def check_overlap(c: Ctx, step: Step, buf: _Buffer) -> None:
    """Two people in one spot when the step ends: only those who moved or came in can have
    come to stand on someone."""
    moved = sorted({r[0] for r in buf.motion} | {r[0] for r in buf.presence})
    moved = [a for a in moved if c.world.present[a]]
    idx = np.nonzero(c.world.present)[0]
    if not moved or len(idx) < 2:
        return
    d = np.hypot(*(c.world.pos[moved][:, None, :] - c.world.pos[idx][None, :, :]).transpose(2, 0, 1))
    seen: set[tuple[int, int]] = set()
    for i, j in zip(*np.nonzero(d < OVERLAP)):
        a, b = sorted((moved[i], int(idx[j])))
        if a == b or (a, b) in seen:
            continue
        seen.add((a, b))
        x, y = c.script.cast[a], c.script.cast[b]
        c.out.warn(step.loc, f"{x.name} ({x.id}) and {y.name} ({y.id}) stand "
                   f"{d[i, j]:.1f} 尺 apart at the end of this step")

def check_underfoot(c: Ctx, step: Step, buf: _Buffer) -> None:
    """Nobody stands on or in the row of things set out (issue 19, class 5; issue 26,
    class 3): someone who moved in this step and ends it with his footprint over a 薦 (籩,
    豆) or a 俎 that lies set down is warned of. Footprints, not a radius about a point: a
    person's disc against the thing's rectangle (viz.model.footprint), so a man between two
    dishes of a row, or at a dish's edge, is on it."""
    moved = sorted({r[0] for r in buf.motion})
    if not moved:
        return
    under = [j for j, p in enumerate(c.script.props)
             if p.kind in UNDERFOOT and c.world.holder[j] == SET_DOWN and c.world.visible[j]]
    if not under:
        return
    kinds = [c.script.props[j].kind for j in under]
    for a in moved:
        if not c.world.present[a]:
            continue
        g = footprint.gap(c.world.pos[a][0], c.world.pos[a][1], c.world.prop_xy[under][:, 0],
                          c.world.prop_xy[under][:, 1], kinds)
        k = int(np.argmin(g))
        if g[k] < 0:
            p = c.script.props[under[k]]
            c.out.warn(step.loc, f"{c.script.cast[a].name} ({c.script.cast[a].id}) stands on "
                       f"the {p.name} ({p.id}: his footprint is over it by "
                       f"{-g[k]:.2f} 尺) at the end of this step: stand south "
                       f"of it or at the 席's end")

def check_origins(c: Ctx, tl: Timeline) -> None:
    """Nothing from nowhere (issue 26, class 2): every thing is somewhere from the start of
    the rite (set down where it lies, drawn), or is brought in by someone who comes in with
    it. A thing first seen in the hand of someone already in the scene came from nowhere
    (hidden where it lay until a hand took it): warned of at the step that put it there,
    unless its declaration says which words bring it in (brought: 乃納射器 — fetched from
    outside the scene by that hand)."""
    ch, pr = tl.channels["props"], tl.channels["presence"]
    if not len(ch.t):
        return
    holder = np.asarray(ch.values["holder"]).astype(int)
    vis = np.asarray(ch.values["visible"]) != 0
    p_own, p_t = pr.owner, pr.t
    p_on = np.asarray(pr.values["present"]) != 0

    def present(a: int, t: float) -> bool:
        sel = np.nonzero((p_own == a) & (p_t <= t + 1e-6))[0]
        return bool(len(sel)) and bool(p_on[sel[-1]])

    order = np.lexsort((ch.t, ch.owner))
    owner = ch.owner[order]
    for j in np.unique(owner):
        rows = order[owner == j]
        for i, k in enumerate(rows):
            if not vis[k]:
                if int(holder[k]) == WORN_ON:
                    break  # worn: somewhere (on someone) from then on
                continue
            h, t = int(holder[k]), float(ch.t[k])
            if h < 0:
                break  # set down where it lies (or in flight): seen, from somewhere
            if not present(h, t):
                t_next = float(ch.t[rows[i + 1]]) if i + 1 < len(rows) else tl.duration
                if present(h, t_next - 1e-3):
                    break  # brought in: it comes in with him
                continue
            # in his hands from the start (held_by) is somewhere from the start
            if t > 1e-6 and present(h, t - 1e-3) and not c.script.props[j].brought:
                w = int(ch.writer[k]) if len(ch.writer) > k else -1
                loc = (_step_loc(tl.steps[w].loc) if 0 <= w < len(tl.steps)
                       else c.script.stages[0].loc)
                c.out.warn(loc, f"the {tl.props[j].name} ({tl.props[j].id}) first appears "
                           f"in {tl.actors[h].name}'s ({tl.actors[h].id}) hand at "
                           f"t {t:.0f} s, from nowhere: declare it where it lies "
                           f"(drawn, not absent), have someone bring it in, or say "
                           f"the words that bring it (brought:)")
            break

def check_boundaries(c: Ctx, tl: Timeline) -> None:
    """Nobody and nothing jumps where one stage hands over to the next, unless the next
    declares a gap in the text (and so may set the scene anew), or follows an empty stage (one
    whose when: fails) that does: its setup sets the scene the next one begins in."""
    for prev, st in zip(tl.stages, tl.stages[1:]):
        if st.gap or (prev.gap and prev.t1 <= prev.t0):
            continue
        a, b = tl.sample(prev.t1, closing=True), tl.sample(st.t0)
        loc = c.script.stages[st.index].loc
        moved = np.hypot(*(a.xy - b.xy).T) > JUMP
        # one who had left and comes in (enter) at the next stage's first instant does not
        # jump, nor does what comes in in his hands (issue 25: a rule no longer)
        back = ~a.present & b.present
        for i in np.nonzero((a.present & ~b.present) | ((a.present & b.present) & moved))[0]:
            c.out.warn(loc, f"{tl.actors[i].name} ({tl.actors[i].id}) jumps where "
                       f"{prev.name} hands over to {st.name}")
        shown = a.prop_visible | b.prop_visible
        pm = (np.hypot(*(a.prop_xy - b.prop_xy).T) > JUMP) | (a.prop_visible != b.prop_visible)
        holder = b.prop_holder
        brought = (holder >= 0) & back[np.maximum(holder, 0)] & ~a.prop_visible
        for j in np.nonzero(shown & pm & (b.prop_holder != FLYING) & ~brought)[0]:
            c.out.warn(loc, f"{tl.props[j].name} ({tl.props[j].id}) jumps where "
                       f"{prev.name} hands over to {st.name}")
