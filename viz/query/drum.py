"""The drum per pair (issue 26, class 4), checked on the compiled rite: in a round shot to music,
each pair looses within its own five 終 after the one heard first (注 不鼓不釋: 鄉射之鼓五節歌五終
所以將八矢一節之閒當拾發四節四拾其一節先以聽也; 記注: 毎一耦射歌五終), the 終 count begins anew for
each pair, and the drum stops when the last pair is done. Read by `check` (warnings; --strict
fails on them)."""
from __future__ import annotations

from viz.base.errors import Loc, Problem

FIVE = 5


def songs_of(timeline) -> list[list]:
    """The drum's beat events in runs, one a song: a run begins where the beat count restarts."""
    runs: list[list] = []
    for e in sorted((e for e in timeline.events if e.kind == "beat"), key=lambda e: e.t0):
        if not runs or int(e.data.get("beat", 0)) <= int(runs[-1][-1].data.get("beat", 0)):
            runs.append([])
        runs[-1].append(e)
    return runs


def pairs_of(shots: list[dict]) -> list[list[dict]]:
    """Releases in order, grouped into pairs: two archers loose in turn (拾發) until a third does."""
    out: list[list[dict]] = []
    who: set[str] = set()
    for s in sorted(shots, key=lambda s: s["t_release"]):
        if not out or (s["actor"] not in who and len(who) >= 2):
            out.append([])
            who = set()
        out[-1].append(s)
        who.add(s["actor"])
    return out


def drum_faults(timeline) -> list[str]:
    """What breaks the drum per pair, in words (empty: none)."""
    sc = timeline.scoring or {}
    songs = songs_of(timeline)
    if not songs:
        return []
    out = []
    by_round: dict[int, list[dict]] = {}
    for s in sc.get("shots", ()):
        by_round.setdefault(s["round"], []).append(s)
    t_first = songs[0][0].t0
    for rnd, shots in sorted(by_round.items()):
        shots = [s for s in shots if s["t_release"] >= t_first - 1e-6]
        if not shots:
            continue
        t0, t_end = shots[0]["t_release"], max(s["t_release"] for s in shots)
        # the songs of this round: from the one before its first release to its last release's
        mine = [g for g in songs if g[-1].t1 >= t0 - 1e-6 and g[0].t0 <= t_end + 1e-6]
        pairs = pairs_of(shots)
        if len(mine) != len(pairs):
            out.append(f"round {rnd}: {len(pairs)} pairs shoot to {len(mine)} songs: the 終 count "
                       f"does not begin anew for each pair")
            continue
        for i, (pair, song) in enumerate(zip(pairs, mine), 1):
            per = sum(1 for e in song if int(e.data.get("終", 0)) == 1) or 1
            beat = (song[1].t0 - song[0].t0) if len(song) > 1 else 0.0
            first = song[0].t0
            heard_end = first + per * beat
            five_end = first + FIVE * per * beat
            names = "、".join(sorted({s["actor"] for s in pair}))
            if int(song[0].data.get("beat", 0)) != 1 or int(song[0].data.get("終", 0)) != 1:
                out.append(f"round {rnd}, pair {i} ({names}): its song does not begin at 終 1")
            early = [s for s in pair if s["t_release"] < heard_end - 1e-6]
            if early:
                out.append(f"round {rnd}, pair {i} ({names}): {len(early)} arrow(s) loosed in the "
                           f"終 heard first (注: 其一節先以聽也)")
            late = [s for s in pair if s["t_release"] >= five_end - 1e-6]
            if late:
                out.append(f"round {rnd}, pair {i} ({names}): {len(late)} arrow(s) loosed after "
                           f"its five 終 (記注: 毎一耦射歌五終)")
            if max(int(e.data.get("終", 0)) for e in song) > FIVE:
                out.append(f"round {rnd}, pair {i} ({names}): its song runs past five 終")
        # the drum stops when the last pair is done: no beat after its song's fifth 終
        last = mine[-1]
        per = sum(1 for e in last if int(e.data.get("終", 0)) == 1) or 1
        beat = (last[1].t0 - last[0].t0) if len(last) > 1 else 0.0
        stop = last[0].t0 + FIVE * per * beat
        on = [e for e in songs[songs.index(last) + 1:] for e in e if e.t0 < stop + 60 * beat]
        if on or any(e.t0 >= stop - 1e-6 for e in last):
            out.append(f"round {rnd}: the drum beats on after the last pair is done")
    return out


def drum_warnings(timeline, script_loc: str) -> list[Problem]:
    """Class 4 as warnings, located at the stage whose music it is (or the script)."""
    return [Problem(Loc(script_loc, 1, 1), f"the drum per pair: {f}", warning=True)
            for f in drum_faults(timeline)]
