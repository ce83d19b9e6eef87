"""Nothing crashes, hangs or is served stale (issue 28): one test (or a few) per case that did not
hold, each built on the toy rite of test_package.py in a temporary folder. Each case is refused
with a located one-line error and exit 2, never a traceback; a damaged cache never changes a
result or the exit code; a multi-file export that fails leaves nothing behind."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from viz.base import cache
from viz.cli.main import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_package import chain, make_toy, toy_patterns  # noqa: E402 (the tests' folder is on the path)

ROOT = Path(__file__).resolve().parent.parent
LOCATED = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): ")


def run(capsys, *args: str) -> tuple[int, str, str]:
    cache._MEMO.clear()  # as a new process: only the disk cache is kept between runs
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *args: str, where: str | None = None) -> str:
    """The one located error a command gives (exit 2, no traceback); where: its file's name."""
    code, out, err = run(capsys, *args)
    text = out + err
    assert code == 2, text
    assert "Traceback" not in text, text
    errors = [ln for ln in text.splitlines() if LOCATED.match(ln) and ": warning:" not in ln]
    assert errors, text
    if where is not None:
        assert any(where in LOCATED.match(e)["file"] for e in errors), text
    return errors[0]


@pytest.fixture
def toy(tmp_path) -> Path:
    return make_toy(tmp_path / "toy")


def manifest_with(toy: Path, **keys: str) -> None:
    man = toy / "manifest.yaml"
    text = man.read_text(encoding="utf-8")
    for k, v in keys.items():
        text, n = re.subn(rf"^{k}: .*$", f"{k}: {v}", text, flags=re.M)
        if not n:
            text = text.replace("sections:\n", f"{k}: {v}\nsections:\n")
    man.write_text(text, encoding="utf-8")


# ------------------------------------------------------------- the cache keyed by the program


@pytest.fixture
def own_cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("XIANGSHE_CACHE", str(folder))
    return folder


def _flip(path: Path, at: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    for i in (len(data) // 3, len(data) // 2, 2 * len(data) // 3) if at is None else (at,):
        data[i] ^= 0x7F
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["a flipped byte", "a flipped length", "another entry's pickle",
                                    "cut short"])
def test_a_damaged_cache_never_changes_a_result_or_the_exit_code(toy, own_cache, capsys, damage):
    first = run(capsys, "check", "--rite", str(toy))
    assert first[0] == 0, first
    entries = sorted(own_cache.glob("*.pickle"))
    parsed = [p for p in entries if not p.name.startswith(("rite-", "compiled-", "legs-"))]
    assert len(parsed) >= 3, entries
    biggest = max(parsed, key=lambda p: p.stat().st_size).read_bytes()
    for p in entries:
        if damage == "a flipped byte":
            _flip(p)
        elif damage == "a flipped length":  # where a bare pickle's frame length is: 2⁵⁵ bytes
            _flip(p, 9)
        elif damage == "another entry's pickle":  # a valid pickle under the wrong key
            p.write_bytes(biggest)
        else:
            p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    again = run(capsys, "check", "--rite", str(toy))
    assert again[:2] == first[:2], again
    assert "Traceback" not in again[2]
    assert again[2].count("cache entry") <= 1, again[2]  # at most one line of notice
    third = run(capsys, "check", "--rite", str(toy))  # rebuilt: the same, and no notice
    assert third == first


def test_a_parse_cache_entry_is_keyed_by_the_program(tmp_path, own_cache, monkeypatch):
    """A program that changed a check (not the schema) does not get the old program's result."""
    f = tmp_path / "a.yaml"
    f.write_text("a: 1\n", encoding="utf-8")
    monkeypatch.setattr(cache, "program_salt", lambda: b"program one")
    cache._MEMO.clear()
    assert cache.cached(f, "script", b"schema", lambda text, name: "old check") == "old check"
    monkeypatch.setattr(cache, "program_salt", lambda: b"program two")
    cache._MEMO.clear()
    assert cache.cached(f, "script", b"schema", lambda text, name: "new check") == "new check"


def test_an_entry_carries_its_key_and_is_checked_against_it(tmp_path, own_cache):
    f, g = tmp_path / "f.yaml", tmp_path / "g.yaml"
    f.write_text("f: 1\n", encoding="utf-8")
    g.write_text("g: 1\n", encoding="utf-8")
    cache._MEMO.clear()
    cache.cached(f, "k", b"", lambda text, name: ("f", text))
    [entry] = own_cache.glob("*.pickle")
    cache._MEMO.clear()
    cache.cached(g, "k", b"", lambda text, name: ("g", text))
    [other] = set(own_cache.glob("*.pickle")) - {entry}
    other.write_bytes(entry.read_bytes())  # f's entry, whole, under g's name
    cache._MEMO.clear()
    assert cache.cached(g, "k", b"", lambda text, name: ("g again", text)) == ("g again",
                                                                              "g: 1\n")


# ------------------------------------------------------------------- every input located

NOT_CORPORA = {
    "a password file": "root:x:0:0:root:/root:/bin/bash\n".encode(),
    "an empty object": b"{}",
    "a list": b"[1, 2]",
    "Latin-1 JSON": '{"plain": "café"}'.encode("latin-1"),
    "very deep JSON": b"[" * 200_000 + b"]" * 200_000,
    "a corpus missing its clauses": json.dumps({"plain": "x", "pages": [], "sections": [],
                                                "runs": []}).encode(),
    "rows of the wrong shape": json.dumps({"plain": "x", "pages": [[0, "p"]],
                                           "sections": [[1, "s", 0, 1]], "runs": [],
                                           "clauses": [[1, 2, 3, 4, 5, 6, 7, 8, 9]]}).encode(),
}


@pytest.mark.parametrize("case", NOT_CORPORA)
def test_a_text_that_is_not_a_corpus_is_a_located_error(toy, capsys, case):
    (toy / "text" / "bad.json").write_bytes(NOT_CORPORA[case])
    manifest_with(toy, text="text/bad.json")
    refused(capsys, "check", "--rite", str(toy), where="bad.json")


def _like_stage(rite: Path, other: str) -> None:
    (rite / "sections" / "02.yaml").write_text(
        f"name: 再謀\nsection: 謀賔\nlike: {{rite: {other}, stage: 再謀}}\n", encoding="utf-8")
    man = rite / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8") + "  - sections/02.yaml\n", encoding="utf-8")


def test_a_like_cycle_across_rites_is_a_located_error(tmp_path, capsys):
    a, b = make_toy(tmp_path / "A"), make_toy(tmp_path / "B")
    _like_stage(a, "../B")
    _like_stage(b, "../A")
    err = refused(capsys, "check", "--rite", str(a))
    assert "cycle" in err or "comes back" in err, err


def test_a_stage_like_its_own_rite_is_a_located_error(toy, capsys):
    _like_stage(toy, ".")
    err = refused(capsys, "check", "--rite", str(toy), where="02.yaml")
    assert "comes back" in err, err


def test_an_unknown_like_is_a_located_error(toy, capsys):
    _like_stage(toy, "../nowhere")
    refused(capsys, "check", "--rite", str(toy), where="02.yaml")


# ------------------------------------------------------------------------- bounded work


def _patterns_each_using_the_last(toy: Path, levels: int) -> None:
    toy_patterns(toy, chain(levels), levels)


def test_patterns_in_patterns_stop_at_the_cap_before_they_are_made(toy, capsys, monkeypatch):
    """Six levels of ten uses each: two million steps, refused before any is made, with the
    chain of uses from the stage's step down."""
    from viz.model.script import patterns

    made = []
    real = patterns.Patterns.count_step
    monkeypatch.setattr(patterns.Patterns, "count_step",
                        lambda self, loc: (made.append(1), real(self, loc)))
    _patterns_each_using_the_last(toy, 6)
    err = refused(capsys, "check", "--rite", str(toy), where="01.yaml")
    assert f"{patterns.MAX_STEPS:,} steps" in err
    assert re.search(r"'p6' \(used at .*01\.yaml:\d+:\d+\) → 'p5' .* → 'p0'", err), err
    assert len(made) < 100, len(made)  # counted, not made


def test_patterns_below_the_depth_limit_are_capped_too(toy, capsys):
    _patterns_each_using_the_last(toy, 5)  # 5 deep: the old depth limit of 8 allowed it
    err = refused(capsys, "check", "--rite", str(toy), where="01.yaml")
    assert "steps (the cap)" in err


@pytest.mark.slow
def test_a_section_listed_thousands_of_times_is_refused_before_it_is_read(toy, capsys):
    steps = "".join("  - cite: 賔拜辱\n    do: [{posture: {who: bin, is: 拜}}]\n"
                    for _ in range(20))
    (toy / "sections" / "02.yaml").write_text(f"name: 拜\nsection: 謀賔\nsteps:\n{steps}",
                                              encoding="utf-8")
    man = toy / "manifest.yaml"
    man.write_text(man.read_text(encoding="utf-8") + "  - sections/02.yaml\n" * 2000,
                   encoding="utf-8")
    err = refused(capsys, "check", "--rite", str(toy), where="02.yaml")
    assert "steps (the cap)" in err and "stage 1251" in err, err


# ------------------------------------------------------------------ only regular files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("option", [pytest.param("--layout", marks=pytest.mark.slow), "--script",
                                    "--rite"])
def test_a_fifo_given_as_a_file_is_refused_not_waited_on(tmp_path, option):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    try:
        got = subprocess.run([sys.executable, str(ROOT / "main.py"), "check", option, str(fifo)],
                             capture_output=True, text=True, timeout=60,
                             env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"check {option} FIFO waited on the pipe")
    assert got.returncode == 2 and "Traceback" not in got.stderr, got.stderr
    said = got.stdout + got.stderr
    if option == "--rite":  # not "no such file": it is there, but no rite folder or manifest
        assert "--rite:1:1:" in said and "not a regular file (a FIFO" in said, said
    else:
        assert f"{fifo}:1:1: not a regular file" in said, said


def test_a_device_is_refused(toy, capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    err = refused(capsys, "check", "--rite", str(toy), "--layout", "/dev/zero")
    assert "not a regular file" in err


# ------------------------------------------------------------------- folders are atomic


def _export(kind: str, toy: Path, out: Path) -> list[str]:
    if kind == "sheet":
        return ["sheet", "zhuren", "--rite", str(toy), "-o", str(out / "zhuren.md")]
    if kind == "sheet --all":
        return ["sheet", "--all", "--format", "html", "--rite", str(toy), "-o", str(out / "all")]
    return ["atlas", "--rite", str(toy), "-o", str(out / "atlas")]


@pytest.mark.parametrize("kind", ["sheet", "sheet --all", "atlas"])
def test_a_failed_export_leaves_nothing_and_a_retry_needs_no_force(toy, tmp_path, capsys,
                                                                  monkeypatch, kind):
    out = tmp_path / "out"
    out.mkdir()
    calls = []
    from viz.base.fileio import OutputError
    from viz.export import common

    real = common.atomic_write_bytes

    def write(path, data, overwrite=False):
        calls.append(path)
        if len(calls) == 2:  # the second file: the first is whole by then
            raise OutputError(f"cannot write {path}: the disk is full (or the quota is used up)")
        return real(path, data, overwrite)

    monkeypatch.setattr(common, "atomic_write_bytes", write)
    code, stdout, err = run(capsys, *_export(kind, toy, out))
    assert code != 0 and "disk is full" in stdout + err, (code, stdout, err)
    assert len(calls) == 2
    assert list(out.iterdir()) == [], sorted(out.rglob("*"))  # nothing, not even a temp folder
    monkeypatch.setattr(common, "atomic_write_bytes", real)
    code, stdout, err = run(capsys, *_export(kind, toy, out))  # no --force
    assert code == 0, stdout + err
    assert not [p for p in out.rglob("*") if ".xiangshe-export-" in str(p)]
    if kind == "sheet":
        assert (out / "zhuren.md").is_file() and list((out / "zhuren.plans").glob("*.png"))
    elif kind == "atlas":
        assert (out / "atlas" / "index.html").is_file()
        assert list((out / "atlas" / "fonts").iterdir())


# ------------------------------------------------------------------ escape what a rite says


def test_a_markdown_cue_sheet_escapes_a_note_holding_a_script(toy, capsys):
    sec = toy / "sections" / "01.yaml"
    sec.write_text(sec.read_text(encoding="utf-8").replace(
        "      - move: {who: zhuren, to: 中庭}\n",
        "      - move: {who: zhuren, to: 中庭}\n    note: '<script>alert(1)</script> *x*'\n"),
        encoding="utf-8")
    cast = toy / "cast.yaml"
    cast.write_text(cast.read_text(encoding="utf-8").replace("name: 主人", "name: '主人<b>'"),
                    encoding="utf-8")
    code, out, err = run(capsys, "sheet", "zhuren", "--rite", str(toy))
    assert code == 0, err
    assert "主人&lt;b&gt;" in out
    assert "<b>" not in out and "<script" not in out


def test_markdown_escapes_every_mark_it_gives_meaning_to():
    from viz.export.sheets import md

    assert md("<script>") == "&lt;script&gt;"
    assert md("a & b") == "a &amp; b"
    assert md("*x* _y_ [l](u) `c` # | !") == r"\*x\* \_y\_ \[l\](u) \`c\` \# \| \!"
    assert md("主人就先生而謀賔") == "主人就先生而謀賔"


# ----------------------------------------------------------------- check every cite


def test_a_setup_items_cite_is_checked_whatever_it_places(toy, capsys):
    cast = toy / "cast.yaml"
    cast.write_text(cast.read_text(encoding="utf-8")
                    + "props:\n  - {id: jue, name: 爵, kind: 爵, at: 阼階下}\n", encoding="utf-8")
    sec = toy / "sections" / "01.yaml"
    sec.write_text(sec.read_text(encoding="utf-8").replace(
        "setup:\n", "setup:\n  - {prop: jue, at: 西階下, cite: 此言不在經中}\n"), encoding="utf-8")
    err = refused(capsys, "check", "--rite", str(toy), where="01.yaml")
    assert "cite not found in the text" in err and "此言不在經中" in err


# -------------------------------------------------------------------- live reload by content


def test_live_reload_sees_an_edit_that_keeps_size_mtime_and_inode(toy):
    from viz.model.reload import Reloader
    from viz.model.package import find

    pkg = find(str(toy))
    r = Reloader(pkg.script, pkg.layout)
    assert r.result.ok, r.result.problems
    assert r.check() is None
    sec = toy / "sections" / "01.yaml"
    st = sec.stat()
    text = sec.read_text(encoding="utf-8")
    edited = text.replace("to: 中庭", "to: 阼階")  # the same size in UTF-8
    assert len(edited.encode()) == len(text.encode()) and edited != text
    with open(sec, "r+b") as f:  # in place: the same inode
        f.write(edited.encode())
    os.utime(sec, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (sec.stat().st_size, sec.stat().st_mtime_ns, sec.stat().st_ino) == (
        st.st_size, st.st_mtime_ns, st.st_ino)
    got = r.check()
    assert got is not None and str(sec) in " ".join(got.changed)


# ------------------------------------------------------------------ no machine paths


def test_no_tracked_file_names_a_path_of_one_machine():
    """A home or work folder of one machine (root's home, a user's under home or Users, the
    work folder) in a tracked file works there only. System paths (/dev/null, /usr/bin/…) and
    shebangs are fine."""
    machine = re.compile(r"(?<![\w.~-])/(?:root|work|home/[^/\s\"']+|Users/[^/\s\"']+)/")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    found = []
    for name in filter(None, files):
        p = ROOT / name
        try:
            text = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary (fonts, images) or gone
        for n, line in enumerate(text.splitlines(), 1):
            if machine.search(line):
                found.append(f"{name}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


# ------------------------------------------------------- what the fuzzer found (a name too long)

LONG = "é" * 300  # 600 bytes: longer than any file system's name (Path.is_file raises)


@pytest.mark.parametrize("where", ["--rite", "text:", "layout:", "patterns:", "cast:"])
def test_a_name_too_long_for_the_file_system_is_a_located_error(toy, capsys, where):
    if where == "--rite":
        refused(capsys, "check", "--rite", str(toy / LONG))
        return
    manifest_with(toy, **{where[:-1]: LONG})
    refused(capsys, "check", "--rite", str(toy))
