"""The shooting: releases on the drum's beat, hits called (唱獲) and laid as 算 (釋獲), the count
(視算), and the rounds.

`Range` owns the round under way (round, tally: the 算 laid each side, laid: which), the stage's
music (music_t0, when it began; the drum per pair: songs, pair, pair_n) and 獲者 (caller), and
what the timeline's scoring reports (shot_log, results; their times made absolute by step_done
when the step is). It reads the world and the clock, writes the score channel and events through
the track's methods, and moves the 算 through set_prop (context.py).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from viz.base.errors import Collector
from viz.model.compile.keyframes import Track, unit
from viz.model.compile.world import World
from viz.model.script.nodes import Action, Script
from viz.model.timeline import SET_DOWN
from viz.model.verbs import REACH


SUAN = "suan"  # the bundle of 算 (記: 箭籌八十), laid one for each hit that counts
HAND = 8  # 算 taken at a time (釋獲者坐取中之八算; 興，執而俟 … 又取中之八算)


# 記: 歌騶虞若采蘋皆五終 (注: 毎一耦射歌五終也); 注 (不鼓不釋): 鄉射之鼓五節歌五終所以將八矢一節之閒當拾發
# 四節四拾其一節先以聽也. Each pair has its own song of five 終: the first heard (no arrow), then one
# 拾 in each of the four others, the 上射 on a 終's first beat and the 下射 on its second; the
# count begins anew with each pair, and the drum is silent between pairs and after the last.
FIVE = 5

class Range:
    def __init__(self, script: Script, track: Track, world: World, out: Collector,
                 ai: Mapping[str, int], bundles: Mapping[str, list[int]],
                 set_prop: Callable[..., None]):
        """Handed what it reads and writes through (as mypy hands its checkers the checker): the
        track, the world, set_prop (which moves a 算: context.py) and where to warn."""
        self.script, self.cfg, self.out = script, script.settings, out
        self.track, self.world, self.set_prop = track, world, set_prop
        self.ai, self.bundles = ai, bundles
        self.tally = {"右": 0, "左": 0}
        self.round = 0
        self.music_t0: float | None = None  # when the current stage's music began
        self.music = None  # the current stage's Music, from its opening
        self.music_last = 0.0  # the stage's last release on the music (absolute seconds)
        self.shot_log: list[dict] = []
        self.results: list[dict] = []
        self.caller: str | None = None
        self.laid: dict[int, bool] = {}  # 算 laid in the round under way
        # the drum per pair: each pair's song, {"start": absolute s, "last": its last release's beat}
        self.songs: list[dict] = []
        self.pair: set[str] = set()  # the archers of the pair now shooting
        self.pair_n = 0  # releases of that pair so far
        # this step's shots and counts, their times relative to it until the step is done
        self.pending: list[tuple[dict, float, float | None]] = []

    # ---- the shooting ----
    def on_beat(self, t: float, music, on: bool, actor: str = "") -> float:
        """The release moved onto the drum (不鼓不釋), or a quarter beat off it. A pair's song begins
        so that its first 終, heard, ends as they are ready (not before the music is ordered, nor
        before the pair before is done); their nth release is on beat per + n of it (拾發: 上射,
        下射, one 拾 a 終), or the first beat after that they are ready for."""
        if self.music_t0 is None:
            return t
        if music.ends is not None:  # a piece played through so many times: one running count
            rel = self.track.t + t - self.music_t0
            k = math.ceil(rel / music.beat - 1e-9)
            at = k * music.beat + (0.0 if on else music.beat / 2)
            self.music_last = max(self.music_last, self.music_t0 + at)
            return at + self.music_t0 - self.track.t
        ready, per, beat = self.track.t + t, music.beats_per_end, music.beat
        if not self.songs or (actor not in self.pair and len(self.pair) >= 2):
            prev = self.song_end(self.songs[-1], music) if self.songs else self.music_t0
            self.songs.append({"start": max(self.music_t0, prev, ready - per * beat), "last": 0})
            self.pair, self.pair_n = set(), 0
        song = self.songs[-1]
        self.pair.add(actor)
        k = max(per + self.pair_n, math.ceil((ready - song["start"]) / beat - 1e-9))
        song["last"] = k
        # off the beat (不與鼓節相應): a quarter beat before it (rushed), or after it for a pair's
        # first arrow (never into the 終 heard first); either way the 拾 keeps its 終
        off = 0.0 if on else (beat / 4 if self.pair_n == 0 else -beat / 4)
        if not on and song["start"] + k * beat + off < ready - 1e-9:
            off = beat / 4  # not ready to rush: late instead
        at = song["start"] + k * beat + off
        self.pair_n += 1
        self.music_last = max(self.music_last, at)
        return at - self.track.t

    @staticmethod
    def song_end(song: dict, music) -> float:
        """When a pair's song ends: after its five 終, or a beat after a release that ran past."""
        beats = max(FIVE * music.beats_per_end, song["last"] + 1)
        return song["start"] + beats * music.beat

    def music_begins(self, step) -> None:
        """The drum begins with the step citing the clause that orders the music (music: start),
        not before (乃奏騶虞以射)."""
        m = self.music
        if m is None or self.music_t0 is not None or not m.start:
            return
        from viz.text import normalize
        if normalize(m.start) in normalize(step.cite.replace("…", "")):
            self.music_t0 = self.track.t

    def music_end(self) -> float | None:
        """When the stage's music stops: after its 終, or (without ends:) when the last pair's song
        of five 終 is done (記注: 每一耦射歌五終)."""
        m = self.music
        if m is None or self.music_t0 is None:
            return None
        if m.ends is not None:
            return self.music_t0 + m.ends * m.beats_per_end * m.beat
        if self.songs:  # the drum per pair: the last pair's song
            return self.song_end(self.songs[-1], m)
        return max(self.music_last, self.music_t0) + m.beat

    def scored(self, act: Action, shot, p: int, t0: float, t1: float, goal) -> float:
        """After an arrow lands: the 獲者's call and 旌 for a hit, and the 算 laid if it counts;
        returns when that is done."""
        caller = self.ai.get(self.caller, -1)
        entry = {"round": shot.round, "actor": shot.actor, "n": shot.n, "side": shot.side,
                 "hit": shot.hit, "on_beat": shot.on_beat, "tallied": False,
                 "prop": self.script.props[p].id, "x": float(goal[0]), "y": float(goal[1]),
                 "t_release": t0, "t_land": t1}  # relative; made absolute when flushed
        if shot.hit:
            words = "獲" if shot.on_beat else "獲 (不鼓不釋)"
            self.track.event(t1, t1 + 1.5, "call", caller, words,
                             {"shot": entry, "flag": "舉旌以宮，偃旌以商"})
            if caller >= 0:  # 唱獲, heard and shown as his words (獲者坐而獲，舉旌以宮)
                self.track.event(t1, t1 + 1.5, "say", caller, "獲")
        end = t1
        stop = self.music_end() if act.args.get("music") is not None else None
        if shot.tallied and (self.music_t0 is None and act.args.get("music") is not None
                             or stop is not None and self.track.t + t0 > stop + 1e-6):
            self.out.warn(act.loc, f"{self.script.cast[self.ai[shot.actor]].name}'s hit is laid as a "
                          f"算 though the music is not playing (不鼓不釋): it "
                          f"{'has not begun' if self.music_t0 is None else 'has ended'}")
        if shot.tallied and act.args.get("tally") in self.ai:
            scorer = self.ai[act.args["tally"]]
            entry["tallied"] = self.lay(act, scorer, shot.side, t1 + 1.0)
            end = t1 + 1.0
        self.track.event(t0, t1, "shot", self.ai[shot.actor], "", {"shot": entry})
        self.shot_log.append(entry)
        self.pending.append((entry, t0, t1))
        return end

    def lay(self, act: Action, a: int, side: str, t: float) -> bool:
        """The scorer lays one 算: 上射's to his right, 下射's to his left (his own, facing
        east: right is south). An empty hand first takes eight more from the 中."""
        suan = self.bundles.get(SUAN, [])
        held = [p for p in suan if self.world.holder[p] == a]
        if not held:
            near = [p for p in suan if self.world.holder[p] == SET_DOWN and not self.laid.get(p)
                    and float(np.hypot(*(self.world.prop_xy[p] - self.world.pos[a]))) <= REACH]
            for p in near[:HAND]:
                self.set_prop(p, t - 0.5, a, self.world.pos[a])
            held = near[:HAND]
        if not held:
            self.out.warn(act.loc, f"{self.script.cast[a].name} has no 算 to lay for this hit (take "
                          "them from the 中 first: take: {prop: suan, count: 8})")
            return False
        k = self.tally[side]
        right = unit(self.world.face[a] + 90.0)
        side_v = right if side == "右" else -right
        ahead = unit(self.world.face[a])
        spot = (self.world.pos[a] + side_v * (1.2 + 0.35 * (k // 10)) + ahead * (0.8 + 0.25 * (k % 10)))
        self.set_prop(held[0], t, SET_DOWN, spot)
        self.laid[held[0]] = True
        self.tally[side] = k + 1
        self.track.score(side, t, k + 1)
        return True

    def count(self, act: Action, a: int, busy: dict) -> float:
        res = act.args["result"]
        laid = self.tally["右"] + self.tally["左"]
        t = busy.get(a, 0.0) + self.cfg.gestures["count"] + 0.4 * laid
        if (self.tally["右"], self.tally["左"]) != (res.right, res.left):
            self.out.warn(act.loc, f"the 算 laid ({self.tally['右']} right, {self.tally['左']} "
                          f"left) are not the round's hits that count ({res.right}, "
                          f"{res.left})")
        d = max(self.cfg.gestures["say"], 0.3 * len(res.announce))
        data = {"round": res.round, "右": res.right, "左": res.left, "announce": res.announce,
                "winner": res.winner}
        self.track.event(t, t + d, "say", a, res.announce)
        self.track.event(t, t + d, "count", a, res.announce, data)
        self.results.append(data)
        self.pending.append((data, t, None))
        if self.round == res.round:  # counted: the round is over
            self.end_round(t + d)
        busy[a] = t + d
        return t + d

    def step_done(self, start: float, scale: float) -> None:
        """The step's shots and counts get their absolute times, as the track's rows do (from
        the step's start, rescaled to its dur)."""
        for d, a, b in self.pending:
            if b is None:
                d["t"] = start + a * scale
            else:
                d.update(t_release=start + a * scale, t_land=start + b * scale)
        self.pending = []

    # ---- the rounds, as stages open and close ----
    def open_scoring(self, sc, loc=None) -> None:
        """A stage of a round: the round's number from its first stage, its music from now."""
        self.caller = sc.caller if sc is not None else None
        self.music_t0 = None
        self.music = sc.music if sc is not None else None
        self.music_last = 0.0
        self.songs, self.pair, self.pair_n = [], set(), 0
        if sc is None:
            return
        if sc.round != self.round:
            self.round = sc.round
            self.tally = {"右": 0, "左": 0}
            self.laid = {}
            for k, v in (("round", sc.round), ("右", 0), ("左", 0)):
                self.track.score(k, self.track.t, v)
        if sc.music is not None and not sc.music.start:
            self.music_t0 = self.track.t
            self.out.warn(loc, f"music: {sc.music.piece} has no start: the drum beats from the "
                          "stage's opening, before the music is ordered; name the clause "
                          "that orders it (start: 乃奏騶虞以射)")

    def close_scoring(self, sc, nxt, loc=None) -> None:
        """The beats of the stage's music, and the round's end when the next stage is not of it."""
        if sc is None:
            return
        m = sc.music
        if m is not None and m.start and self.music_t0 is None:
            self.out.warn(loc, f"music: no step of this stage cites its start "
                          f"「{m.start}」: the drum never begins")
        if m is not None and self.music_t0 is not None:
            per = m.beats_per_end
            songs = self.songs if m.ends is None else [
                {"start": self.music_t0, "last": m.ends * per - 1}]  # one song, ends 終 long
            for i, song in enumerate(songs):
                end = (self.song_end(song, m) if m.ends is None
                       else self.music_t0 + m.ends * per * m.beat)
                n = round((end - song["start"]) / m.beat)
                for k in range(n):
                    tb = song["start"] + k * m.beat
                    if tb >= self.track.t:
                        break
                    self.track.score("beat", tb, k + 1)
                    self.track.score("終", tb, 1 + k // per)
                    self.track.event(tb, tb + 0.25, "beat", -1, m.piece,
                                     {"beat": k + 1, "終": 1 + k // per, "耦終": 1 + k // per,
                                   "耦": i + 1})
                nxt = songs[i + 1]["start"] if i + 1 < len(songs) else None
                if nxt is None or nxt > end + 1e-6:  # silent until the next pair's song
                    self.track.score("beat", min(self.track.t, end), 0)
                    self.track.score("終", min(self.track.t, end), 0)
        # a round that counts stays under way until its count (視算, often in a stage with no
        # shooting); one that does not (獲而未釋獲) ends with its last stage of shooting
        if (nxt is None or nxt.round != sc.round) and sc.tally is None:
            self.end_round(self.track.t)

    def end_round(self, t: float) -> None:
        for k in ("round", "右", "左"):
            self.track.score(k, t, 0)
        self.round = 0
