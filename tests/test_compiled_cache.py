"""The compiled-rite cache (viz/base/cache.py, Rite.get): a hit gives what a compile gives, any change
of what the compile read or was asked misses, and a cache that is off or broken is passed over.
Every test keeps its cache in its own tmp folder."""
from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
import textwrap
from pathlib import Path

import numpy as np
import pytest

from viz import DEFAULT_LAYOUT
from viz.model.reload import Reloader
from viz.model.rite import Rite

# A small rite folder (manifest, cast, a folder of patterns, two sections) on the bundled layout
FILES = {
    "manifest.yaml": """\
        rite: test
        cast: cast.yaml
        patterns: patterns
        sections:
          - sections/01-迎賔.yaml
          - sections/02-拜.yaml
        """,
    "cast.yaml": """\
        scenario:
          衆賔: {default: 2, min: 1, max: 3, doc: how many}
        cast:
          - {id: zhuren, name: 主人, party: 主, label: 主}
          - {id: bin, name: 賔, party: 賓, label: 賔}
        props:
          - {id: jue, name: 爵, kind: 爵, at: 上篚}
        """,
    "patterns/禮.yaml": """\
        patterns:
          再拜:
            params: {who: actors, count: {type: int, default: 2}}
            steps:
              - do: [{posture: {who: $who, is: 拜, count: $count}}]
        """,
    "sections/01-迎賔.yaml": """\
        name: 迎賔
        setup:
          - {who: zhuren, at: 門內, face: 南}
          - {who: bin, at: 門外, face: 東}
        steps:
          - cite: 主人一相出迎於門外
            do:
              - move: {who: zhuren, to: 門外, face: 西}
        """,
    "sections/02-拜.yaml": """\
        name: 迎賔
        steps:
          - cite: 再拜
            use: 再拜
            with: {who: zhuren}
          - cite: 賓荅再拜
            use: 再拜
            with: {who: bin, count: 2}
        """,
}
SECTION = "sections/01-迎賔.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XIANGSHE_CACHE", str(folder))
    return folder


@pytest.fixture
def rite(tmp_path) -> tuple[Path, Path]:
    """The small rite and a copy of the bundled layout, to edit."""
    folder = tmp_path / "rite"
    for name, text in FILES.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    layout = tmp_path / "xu.yaml"
    shutil.copyfile(DEFAULT_LAYOUT, layout)
    return folder, layout


@pytest.fixture
def compiles(monkeypatch) -> list[tuple[str, ...]]:
    """The readings of every real compile (a cache hit adds nothing)."""
    calls: list[tuple[str, ...]] = []
    real = Rite._compile

    def counted(self, key, **kw):
        calls.append(key)
        return real(self, key, **kw)

    monkeypatch.setattr(Rite, "_compile", counted)
    return calls


def get(rite, corpus, readings=(), sets=(), seed=None):
    return Rite(*rite, corpus, sets, seed).get(readings)


def same(a, b) -> bool:
    """Equal values, arrays compared by dtype and contents, however nested."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (type(a) is type(b) and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
    return a == b


def assert_same(a, b) -> None:
    ta, tb = a.timeline, b.timeline
    assert ta.duration == tb.duration
    assert ta.steps == tb.steps and ta.stages == tb.stages and ta.events == tb.events
    assert ta.actors == tb.actors and ta.props == tb.props
    assert list(ta.channels) == list(tb.channels)
    for name in ta.channels:
        assert same(vars(ta.channels[name]), vars(tb.channels[name])), name
    for k in vars(ta):  # and the rest: packed arrays, indexes, thing_names, scoring …
        if k not in ("channels", "_current"):  # _current: the stretch sampled last
            assert same(getattr(ta, k), getattr(tb, k)), k
    for t in np.linspace(0, ta.duration, 7):
        fa, fb = ta.sample(t), tb.sample(t)
        assert repr(fa) == repr(fb)
    assert [str(w) for w in a.warnings] == [str(w) for w in b.warnings]
    assert a.script.files == b.script.files and a.script.stages == b.script.stages
    assert a.layout.places.keys() == b.layout.places.keys()
    assert a.readings == b.readings


def test_a_hit_is_the_same_compile_without_compiling(rite, corpus, cache, compiles, monkeypatch):
    first = get(rite, corpus)
    assert len(compiles) == 1 and list(cache.glob("compiled-*.pickle"))
    hit = get(rite, corpus)
    assert len(compiles) == 1  # nothing parsed or compiled
    assert hit.corpus is corpus  # the corpus is attached, not stored
    monkeypatch.setenv("XIANGSHE_CACHE", "off")
    fresh = get(rite, corpus)
    assert len(compiles) == 2
    assert_same(hit, fresh)
    assert_same(first, fresh)
    # a kept compile is a Compiled like any other: replaced, pickled, compared
    assert dataclasses.replace(hit, warnings=()).script.stages == fresh.script.stages
    assert_same(pickle.loads(pickle.dumps(hit)), fresh)


@pytest.mark.parametrize("which", ["section", "cast", "manifest", "pattern", "layout"])
def test_editing_any_file_the_compile_read_misses(rite, corpus, cache, compiles, which):
    folder, layout = rite
    get(rite, corpus)
    path = {"section": folder / SECTION, "cast": folder / "cast.yaml",
            "manifest": folder / "manifest.yaml", "layout": layout,
            "pattern": folder / "patterns" / "禮.yaml"}[which]
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    get(rite, corpus)
    assert len(compiles) == 2
    get(rite, corpus)  # and the edited files are kept in turn
    assert len(compiles) == 2


def end_state(compiled) -> str:
    tl = compiled.timeline
    return repr(tl.sample(tl.duration))


def test_an_edit_shows_in_what_is_returned(rite, corpus, cache):
    sec = rite[0] / SECTION
    before = get(rite, corpus)
    text = sec.read_text(encoding="utf-8")
    sec.write_text(text.replace("to: 門外, face: 西", "to: 門外, face: 北"), encoding="utf-8")
    after = get(rite, corpus)
    assert end_state(after) != end_state(before)
    sec.write_text(text, encoding="utf-8")  # and back: the first compile's bytes again
    assert end_state(get(rite, corpus)) == end_state(before)


def test_a_new_pattern_file_misses(rite, corpus, cache, compiles):
    get(rite, corpus)
    (rite[0] / "patterns" / "zz-new.yaml").write_text(
        "patterns:\n  新揖:\n    steps:\n      - do: [{wait: {dur: 1}}]\n", encoding="utf-8")
    get(rite, corpus)
    assert len(compiles) == 2


def test_readings_sets_and_seed_are_part_of_the_key(rite, corpus, cache, compiles):
    get(rite, corpus)
    get(rite, corpus, readings=("敖繼公",))
    get(rite, corpus, sets=(("衆賔", "3"),))
    get(rite, corpus, seed=7)
    assert len(compiles) == 4
    get(rite, corpus, readings=("敖繼公",))
    get(rite, corpus, sets=(("衆賔", "3"),))
    get(rite, corpus, seed=7)
    get(rite, corpus, readings=("鄭",))  # the default reading by name
    assert len(compiles) == 4


def test_a_second_reading_of_one_rite_depends_on_the_layout_too(rite, corpus, cache, compiles):
    r = Rite(*rite, corpus)
    r.get()
    r.get(("敖繼公",))  # the layout was read by the first get, and counts for this one
    layout = rite[1]
    layout.write_text(layout.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    get(rite, corpus, readings=("敖繼公",))
    assert len(compiles) == 3


def test_off_bypasses_the_cache(rite, corpus, tmp_path, monkeypatch, compiles):
    monkeypatch.setenv("XIANGSHE_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    get(rite, corpus)
    get(rite, corpus)
    assert len(compiles) == 2
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


@pytest.mark.parametrize("entry", ["compiled", "rite"])
@pytest.mark.parametrize("damage", ["empty", "not a pickle", "another value", "a flipped byte"])
def test_a_corrupt_entry_is_passed_over(rite, corpus, cache, compiles, entry, damage):
    good = get(rite, corpus)
    [path] = cache.glob(f"{entry}-*.pickle")
    data = path.read_bytes()
    path.write_bytes({"empty": b"", "not a pickle": b"not a pickle",
                      "another value": pickle.dumps((1, 2, 3, 4, 5, 6)),
                      "a flipped byte": data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 1])
                      + data[len(data) // 2 + 1:]}[damage])
    again = get(rite, corpus)
    assert len(compiles) == 2
    assert_same(good, again)
    get(rite, corpus)  # written anew
    assert len(compiles) == 2


def test_a_cache_that_cannot_be_written_is_passed_over(rite, corpus, tmp_path, monkeypatch,
                                                       compiles):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XIANGSHE_CACHE", str(blocker / "cache"))
    a, b = get(rite, corpus), get(rite, corpus)
    assert len(compiles) == 2
    assert_same(a, b)


def test_texts_served_by_a_reload_are_compiled_not_the_cached_files(rite, corpus, cache):
    folder, layout = rite
    sec = folder / SECTION
    text = sec.read_text(encoding="utf-8")
    on_disk = get(rite, corpus)  # kept in the cache
    r = Reloader(folder, layout, corpus=corpus)
    assert r.result.ok and end_state(r.current) == end_state(on_disk)
    assert {str(Path(p).name) for p in r._snapshot} >= {"manifest.yaml", "cast.yaml", "禮.yaml",
                                                       "01-迎賔.yaml", "02-拜.yaml", "xu.yaml"}
    got = r.reload({sec: text.replace("to: 門外, face: 西", "to: 門外, face: 北")})
    assert got.ok and end_state(got.compiled) != end_state(on_disk)
    back = r.reload()  # the disk's bytes again: the disk's compile
    assert back.ok and end_state(back.compiled) == end_state(on_disk)
    assert sec.read_text(encoding="utf-8") == text


def test_a_reloader_loaded_from_the_cache_still_watches_every_file(rite, corpus, cache):
    folder, layout = rite
    before = get(rite, corpus)  # kept in the cache
    r = Reloader(folder, layout, corpus=corpus)  # a hit: nothing parsed
    assert r.check() is None
    sec = folder / SECTION
    stat = sec.stat()
    sec.write_text(sec.read_text(encoding="utf-8").replace("to: 門外, face: 西", "to: 門外, face: 北"),
                   encoding="utf-8")
    os.utime(sec, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    got = r.check()
    assert got is not None and got.ok and str(sec) in got.changed
    assert end_state(got.compiled) != end_state(before)


def test_the_program_salt_covers_every_module_of_the_compiler(tmp_path):
    """program_salt (viz/base/cache.py) hashes viz/base, viz/text and viz/model recursively, so a
    compiled rite is not served from the cache once the compiler has changed: in a copy of those
    packages, one byte changed in any module of viz/model/compile/ is a new program."""
    import importlib.util

    import viz

    src, copy = Path(viz.__file__).parent, tmp_path / "viz"
    copy.mkdir()
    shutil.copy2(src / "__init__.py", copy / "__init__.py")
    for pkg in ("base", "text", "model"):
        shutil.copytree(src / pkg, copy / pkg, ignore=shutil.ignore_patterns("__pycache__"))

    def salt() -> bytes:  # the copy's cache.py, loaded afresh: its program_salt hashes the copy
        spec = importlib.util.spec_from_file_location("_copied_cache", copy / "base" / "cache.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.program_salt()

    before = salt()
    assert salt() == before
    modules = sorted((copy / "model" / "compile").glob("*.py"))
    assert {"motion.py", "compiler.py", "keyframes.py"} <= {f.name for f in modules}
    for f in modules:
        data = f.read_bytes()
        f.write_bytes(data[:-1] + b" ")  # the last newline, one byte, made a space
        assert salt() != before, f.name
        f.write_bytes(data)
    assert salt() == before


def test_parsing_many_files_never_pushes_a_whole_compile_out(tmp_path, monkeypatch):
    """The parsed files' limit (MAX_ENTRIES, oldest out) counts parsed files only: a test run or
    an afternoon's editing parses hundreds, and the whole compiles (compiled-*, with their
    rite-* indexes) have limits of their own (store_compiled)."""
    from viz.base import cache

    monkeypatch.setattr(cache, "MAX_ENTRIES", 5)
    for name in ("compiled-x.pickle", "rite-x.pickle"):
        (tmp_path / name).write_bytes(b"kept")
    for i in range(12):
        cache._store(tmp_path, tmp_path / f"k{i}.pickle", i, key=f"k{i}")  # noqa: SLF001
    names = {p.name for p in tmp_path.glob("*.pickle")}
    assert names == {"compiled-x.pickle", "rite-x.pickle"} | {f"k{i}.pickle" for i in range(7, 12)}


def test_a_compile_loaded_is_the_last_to_go(rite, corpus, cache, compiles):
    """The whole compiles' limit drops the least recently used: loading one makes it the newest."""
    get(rite, corpus)
    [entry] = cache.glob("compiled-*.pickle")
    os.utime(entry, (1, 1))
    get(rite, corpus)
    assert len(compiles) == 1 and entry.stat().st_mtime > 1  # a hit, stamped as used now
