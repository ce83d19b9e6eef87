"""A rite shown before it is all compiled: the first stages at once, the rest in a worker thread.

    p = Progressive(spec, corpus=None)   (a viz.model.spec.RiteSpec; or script_path, layout_path,
                                       readings=(), corpus=None, sets=(), seed=None)
    p.first           Compiled   the whole rite from the cache, or its first stages (Rite.prefix)
    p.complete        bool       p.first is the whole rite (nothing to wait for)
    p.start()                    compile the whole rite in a daemon thread (after the first
                                 frame is drawn, so that frame costs what a cached one does)
    p.poll()  -> list of         Ready(stages, total, compiled): the stages compiled so far (a
                                 snapshot every `every` seconds), or Done(reloader): the whole
                                 rite loaded by a model.reload.Reloader (its result may be a
                                 failure: a later file's located errors)
    p.ready, p.total             stages ready, and in all (ready == total once done)

Every stage before a snapshot's last is as the whole rite has it (tests/test_progressive.py).
The worker's Reloader stores the compile in the disk cache, so the next start is warm. Nothing
here imports pygame; the window (viz.app) shows what poll() gives it.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from viz.model.rite import Compiled, Rite, _spec
from viz.model.spec import RiteSpec

FIRST_STAGES = 1  # compiled before the window opens (Rite.prefix reads on when it must)
EVERY = 0.5  # seconds between snapshots sent to the window


@dataclass(frozen=True)
class Ready:
    stages: int
    total: int
    compiled: Compiled


@dataclass(frozen=True)
class Done:
    reloader: object  # viz.model.reload.Reloader


class Progressive:
    def __init__(self, spec: RiteSpec | str | Path, layout_path: str | Path | None = None,
                 readings: Sequence[str] = (), corpus=None, sets=(), seed: int | None = None,
                 every: float = EVERY, first: Compiled | None = None):
        """spec: the rite and its readings (a script path with layout_path, readings, sets and
        seed stands for RiteSpec.at(…) of them). first: what to show first if it is not the
        whole rite (Rite.prefix's, reaching a stage asked for); by default the cache's whole
        rite or the first stages."""
        self.spec = _spec(spec, layout_path, readings, sets, seed)
        self.every = every
        rite = Rite(self.spec, corpus=corpus if first is None else first.corpus)
        self.corpus = rite.corpus
        whole = rite.cached()
        if whole is None and first is not None and len(first.timeline.stages) >= (
                first.script.stages_total or 0):
            whole = first
        self.complete = whole is not None
        self.first = whole if whole is not None else (
            first if first is not None else rite.prefix(stages=FIRST_STAGES))
        self.total = self.first.script.stages_total or len(self.first.timeline.stages)
        self.ready = self.total if self.complete else len(self.first.timeline.stages)
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._last = 0.0

    def start(self) -> None:
        if self.complete or self._thread is not None:
            return
        self._last = time.monotonic()
        self._thread = threading.Thread(target=self._work, name="compile", daemon=True)
        self._thread.start()

    def _work(self) -> None:
        from viz.model.reload import Reloader

        r = Reloader(self.spec, corpus=self.corpus, on_stage=self._on_stage)
        self._queue.put(Done(r))

    def _on_stage(self, compiler, si: int) -> None:
        n = len(compiler.s.stages)
        now = time.monotonic()
        if si + 1 < n and now - self._last >= self.every:
            self._last = now
            tl = compiler.snapshot()
            self._queue.put(Ready(si + 1, n, replace(self.first, timeline=tl,
                                                     script=compiler.s)))

    def poll(self) -> list[Ready | Done]:
        out = []
        while True:
            try:
                msg = self._queue.get_nowait()
            except queue.Empty:
                return out
            if isinstance(msg, Ready):
                self.ready, self.total = msg.stages, msg.total
            else:
                self.ready, self.complete = self.total, True
            out.append(msg)

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)
