"""A fuzzer of whole packages (issue 28): damaged manifests, corpora, cache entries, like: graphs,
pattern graphs and paths, each run through `check` in this process. Whatever the damage, the
command ends with exit 0, 1 or 2; a 2 comes with located errors (file:line:col); never a
traceback; and a damaged cache gives the same result as no damage at all.

About 200 examples in all by default (within a minute); FUZZ_EXAMPLES=2000 runs that many in all,
split over the tests as the default is."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from viz.base import cache
from viz.cli.main import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_package import make_toy, toy_corpus, toy_patterns  # noqa: E402 (the tests' folder is on the path)

TOTAL = int(os.environ.get("FUZZ_EXAMPLES", "200"))
SHARES = {"manifest": 0.25, "corpus": 0.2, "cache": 0.15, "like": 0.2, "patterns": 0.2}
LOCATED = re.compile(r"^[^:\n]+:\d+:\d+: ", re.M)


def fuzz(share: str):
    return settings(max_examples=max(5, int(TOTAL * SHARES[share])), deadline=None,
                    suppress_health_check=list(HealthCheck))


def check(rite: Path, cache_dir: Path | str = "off") -> tuple[int, str]:
    """`check --rite` in this process, as a fresh one: exit code and what it printed."""
    cache._MEMO.clear()
    out = io.StringIO()
    old = os.environ.get("XIANGSHE_CACHE")
    os.environ["XIANGSHE_CACHE"] = str(cache_dir)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main(["check", "--rite", str(rite)])
    finally:
        if old is None:
            del os.environ["XIANGSHE_CACHE"]
        else:
            os.environ["XIANGSHE_CACHE"] = old
    text = out.getvalue()
    assert code in (0, 1, 2), text
    assert "Traceback" not in text, text
    if code == 2:
        assert LOCATED.search(text) or text.startswith("error: "), text
    return code, text


@contextlib.contextmanager
def toy_package():
    with tempfile.TemporaryDirectory(prefix="xiangshe-fuzz-") as d:
        yield make_toy(Path(d) / "toy")


# ----------------------------------------------------------------------------- strategies

HOSTILE_PATHS = ["", ".", "..", "/", "/dev/null", "/dev/zero", "../../../../etc/passwd",
                 "/etc/passwd", "text", "sections", "nowhere.yaml", "a\x00b", "~/x",
                 "sections/01.yaml/x", "manifest.yaml", "cast.yaml", "hall.yaml",
                 "text/corpus.json", "fifo", "loop", "../toy/manifest.yaml", "é" * 300]
scalars = st.one_of(st.sampled_from(HOSTILE_PATHS), st.text(max_size=30), st.integers(),
                    st.floats(allow_nan=True), st.booleans(), st.none(),
                    st.lists(st.sampled_from(HOSTILE_PATHS), max_size=4))
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() |
                           st.text(max_size=10),
                           lambda kids: st.lists(kids, max_size=5) |
                           st.dictionaries(st.text(max_size=8), kids, max_size=5),
                           max_leaves=30)


def _specials(root: Path) -> None:
    """A FIFO and a symlink loop in the package, for paths to name."""
    if hasattr(os, "mkfifo"):
        os.mkfifo(root / "fifo")
    os.symlink("loop", root / "loop")


@fuzz("manifest")
@given(key=st.sampled_from(["text", "layout", "cast", "sections", "patterns", "rite", "title",
                            "extra"]),
       value=scalars, repeat=st.sampled_from([0, 0, 1, 2, 30, 300]))
@pytest.mark.slow
def test_a_damaged_manifest_is_refused_with_located_errors(key, value, repeat):
    with toy_package() as toy:
        _specials(toy)
        man = toy / "manifest.yaml"
        text = man.read_text(encoding="utf-8")
        line = f"{key}: {json.dumps(value, ensure_ascii=False)}"
        text, n = re.subn(rf"^{key}:.*(\n  - .*)*$", lambda _: line, text, flags=re.M)
        if not n:
            text = line + "\n" + text
        if repeat and key != "sections":
            text += "sections:\n" if "sections:" not in text else ""
            text += "  - sections/01.yaml\n" * repeat
        man.write_text(text, encoding="utf-8")
        check(toy)


@fuzz("corpus")
@given(data=st.one_of(json_values.map(lambda v: json.dumps(v).encode()),
                      st.binary(max_size=200),
                      st.tuples(st.integers(0, 10_000), st.integers(1, 255), st.booleans())
                      .map(lambda t: ("damage", *t))))
@pytest.mark.slow  # 40 packages checked
def test_a_damaged_corpus_is_refused_with_located_errors(data):
    with toy_package() as toy:
        f = toy / "text" / "corpus.json"
        if isinstance(data, tuple):  # the real corpus, one byte changed or cut there
            _, at, xor, cut = data
            raw = bytearray(json.dumps(toy_corpus(), ensure_ascii=False).encode())
            at %= len(raw)
            raw = raw[:at] if cut else raw[:at] + bytes([raw[at] ^ xor]) + raw[at + 1:]
            f.write_bytes(bytes(raw))
        else:
            f.write_bytes(data)
        check(toy)


@fuzz("cache")
@given(damage=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.integers(1, 255)),
                       min_size=1, max_size=8))
@pytest.mark.slow
def test_a_damaged_cache_gives_the_same_result(damage):
    with toy_package() as toy, tempfile.TemporaryDirectory() as d:
        first = check(toy, d)
        entries = sorted(Path(d).glob("*.pickle"))
        assert entries
        for at, how, xor in damage:
            e = entries[at % len(entries)]
            raw = e.read_bytes()
            i = at % max(len(raw), 1)
            if how == 0:  # a byte flipped
                raw = raw[:i] + bytes([raw[i] ^ xor]) + raw[i + 1:] if raw else raw
            elif how == 1:  # cut short
                raw = raw[:i]
            elif how == 2:  # another entry's bytes
                raw = entries[(at + xor) % len(entries)].read_bytes()
            else:  # emptied
                raw = b""
            e.write_bytes(raw)
        again = check(toy, d)
        assert again[0] == first[0]
        assert again[1].replace("\n", "").count("cache entry") <= 1
        body = [ln for ln in again[1].splitlines() if "cache entry" not in ln]
        assert body == first[1].splitlines()


@fuzz("like")
@given(edges=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4), st.sampled_from(
    ["謀賔", "再謀", "無", 1, 2])), min_size=1, max_size=6))
@pytest.mark.slow
def test_any_like_graph_is_resolved_or_refused_with_located_errors(edges):
    """Rites 0–3 whose added stages are like: stages of others (4: a bundled rite by name)."""
    with tempfile.TemporaryDirectory(prefix="xiangshe-fuzz-") as d:
        rites = [make_toy(Path(d) / f"R{i}") for i in range(4)]
        added: dict[int, int] = {}
        for src, dst, stage in edges:
            k = added.get(src, 0) + 1
            added[src] = k
            other = "xiangshe" if dst == 4 else f"../R{dst}"
            (rites[src] / "sections" / f"L{k}.yaml").write_text(
                f"name: 再謀\nsection: 謀賔\nlike: {{rite: {other}, stage: "
                f"{json.dumps(stage, ensure_ascii=False)}}}\n", encoding="utf-8")
            man = rites[src] / "manifest.yaml"
            man.write_text(man.read_text(encoding="utf-8") + f"  - sections/L{k}.yaml\n",
                           encoding="utf-8")
        for r in rites[:2]:  # the others are read through their like:s
            check(r)


@fuzz("patterns")
@given(graph=st.lists(st.lists(st.tuples(st.integers(0, 7), st.integers(1, 12)), max_size=3),
                      min_size=1, max_size=8),
       top=st.integers(0, 7))
@pytest.mark.slow
def test_any_pattern_graph_is_read_or_refused_at_the_cap(graph, top):
    """Patterns p0… each using others some times (cycles, repeats, explosions), under a cap of
    300 steps (the mechanism is the cap's, whatever its value: a rite just under 25,000 would
    take a minute to compile, and the fuzzer would test the compiler's speed)."""
    from viz.model.script import patterns

    real = patterns.MAX_STEPS
    patterns.MAX_STEPS = 300
    try:
        _pattern_graph(graph, top)
    finally:
        patterns.MAX_STEPS = real


def _pattern_graph(graph, top) -> None:
    with toy_package() as toy:
        toy_patterns(toy, [[(None, 1), *uses] for uses in graph], top, "g")
        check(toy)
