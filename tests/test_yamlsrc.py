"""The YAML loader: locations of every node, and every bad file refused quickly with a location."""
from __future__ import annotations

import os
import time

import pytest
import yaml

from viz.base import yamlsrc
from viz.base.errors import MAX_MESSAGE, InputError, Loc, Problem, clip, shorten
from viz.base.yamlsrc import YList, YMap, load_file, load_text, locate

# A guard against a runaway (a refusal that reads on, recursion without end), not a speed
# measure: speed is measured in bench/. Generous, so a loaded machine does not fail it.
RUNAWAY = 20.0

DOC = """\
# a comment
rite: 鄉射禮
cast:
  - {id: zhuren, name: 主人}
  - id: bin
    name: 賔
    note: >-
      folded
      text
where: {阼階上: [12.5, 3], 西階上: [-12.5, 3.0]}
flags: [yes, no, ~, 2024-01-02, 0x1F, 1.5e+3]
"""

LOADERS = ["python"] + (["libyaml"] if yaml.__with_libyaml__ else [])


@pytest.fixture(params=LOADERS)
def loader(request, monkeypatch):
    """Run the test with libyaml's loader and with the pure-Python fallback."""
    if request.param == "python":
        monkeypatch.setattr(yamlsrc, "_Loader", yamlsrc._PyLoader)
    return request.param


def refused(text: str, name: str = "f.yaml") -> tuple[Problem, float]:
    t = time.perf_counter()
    with pytest.raises(InputError) as e:
        load_text(text, name)
    return e.value.problems[0], time.perf_counter() - t


def refused_file(path) -> tuple[Problem, float]:
    t = time.perf_counter()
    with pytest.raises(InputError) as e:
        load_file(path)
    return e.value.problems[0], time.perf_counter() - t


# ------------------------------------------------------------------ locations


def test_every_key_value_and_item_is_located(loader):
    doc = load_text(DOC, "d.yaml")
    assert isinstance(doc, YMap) and doc.loc == Loc("d.yaml", 2, 1)
    assert doc.key_loc("cast") == Loc("d.yaml", 3, 1)
    cast = doc["cast"]
    assert isinstance(cast, YList) and cast.loc == Loc("d.yaml", 4, 3)
    assert cast.loc_of(1) == Loc("d.yaml", 5, 5)
    assert cast[1].loc_of("note") == Loc("d.yaml", 7, 11) and cast[1]["note"] == "folded text"
    # columns count characters, not UTF-8 bytes
    assert doc["where"].key_loc("西階上") == Loc("d.yaml", 10, 25)
    assert doc["where"]["西階上"].loc_of(1) == Loc("d.yaml", 10, 38)
    assert locate(doc, ["cast", 0, "name"]) == Loc("d.yaml", 4, 24)
    assert locate(doc, ["cast", 7, "name"]) == Loc("d.yaml", 4, 3)  # as deep as it exists
    assert doc["flags"][:5] == [True, False, None, doc["flags"][3], 31] and doc["flags"][5] == 1500.0


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="libyaml is not installed")
def test_libyaml_and_python_loaders_agree_on_values_and_locations(monkeypatch):
    text = DOC + "".join(f"k{i}: {{a: [{i}, x{i}], b: 丙{i}}}\n" for i in range(50))
    fast = load_text(text, "d.yaml")
    monkeypatch.setattr(yamlsrc, "_Loader", yamlsrc._PyLoader)
    slow = load_text(text, "d.yaml")

    def same(a, b):
        assert a == b and type(a) is type(b)
        if isinstance(a, YMap):
            assert (a.loc, a.key_locs, a.value_locs) == (b.loc, b.key_locs, b.value_locs)
            for k in a:
                same(a[k], b[k])
        elif isinstance(a, YList):
            assert (a.loc, a.item_locs) == (b.loc, b.item_locs)
            for x, y in zip(a, b):
                same(x, y)

    same(fast, slow)


def test_a_byte_order_mark_is_fine_and_not_a_column(loader, tmp_path):
    p = tmp_path / "bom.yaml"
    p.write_bytes(b"\xef\xbb\xbfa: 1\nb: [x]\n")
    assert load_file(p) == {"a": 1, "b": ["x"]}
    assert load_file(p).loc_of("a") == Loc(str(p), 1, 4)
    assert load_text("\ufeffa: 1").loc_of("a") == Loc("<string>", 1, 4)


# ------------------------------------------------------------------ errors in the YAML


@pytest.mark.parametrize("text, where, words", [
    ("a: 1\nb: 2\na: 3\n", (3, 1), "duplicate key 'a'"),
    ("a: 1\n[1, 2]: 3\n", (2, 1), "a mapping key must be a plain value"),
    ("a: [1, 2\nb: 3\n", (2, 2), "YAML syntax"),
    ("a: 1\n  b: 2\n", (2, 4), "YAML syntax"),
    ("a: *nowhere\n", (1, 4), "undefined alias"),
    ("a: 1\nb: !mine 2\n", (2, 4), "tag '!mine'"),
    ("a: 1\nd: 2024-13-45\n", (2, 4), "'2024-13-45' reads as a date but is not one"),
    ("a: 1\nn: " + "9" * 5000 + "\n", (2, 4), "a number of 5,000 characters is too long"),
    ("a: 好\nb: x\x01y\n", (2, 5), "character U+0001 is not allowed"),
    ("a: [1, &r [2, *r]]\n", (1, 15), "alias *r is inside the anchor it refers to"),
])
def test_errors_in_the_yaml_are_located(loader, text, where, words):
    prob, _ = refused(text)
    assert (prob.loc.line, prob.loc.col) == where and words in prob.message, str(prob)


def test_a_huge_value_is_not_echoed_back():
    # (libyaml only when it is here: the pure-Python scanner takes seconds over 5 MB)
    big = "x" * 5_000_000
    prob, _ = refused(f"? {big}\n: 1\n? {big}\n: 2\n")
    assert prob.message.startswith("duplicate key 'xxx") and len(str(prob)) < 200
    assert prob.message.endswith("…' (5,000,000 characters)")
    big = big[:1_000_000]
    for text in (f"a: !{big} 1\n", f"a: &{big} [*{big}]\n"):
        prob, _ = refused(text)
        assert len(str(prob)) < 300 and "characters)" in str(prob), str(prob)[:300]


def test_sexagesimal_numbers_cannot_stall_the_loader(loader):
    prob, secs = refused("n: " + "1:" * 100_000 + "1\n")
    assert prob.loc == Loc("f.yaml", 1, 4) and "too long" in prob.message and secs < RUNAWAY


# ------------------------------------------------------------------ limits


def crossing(text: str, opener: str, levels_before: int) -> Loc:
    """Where the opener that makes level MAX_DEPTH + 1 stands, counted in the text itself.

    `levels_before` is how many levels are open before the first opener (the document's mapping).
    """
    i, level = -1, levels_before
    while level <= yamlsrc.MAX_DEPTH:
        i = text.index(opener, i + 1)
        level += 1
    line_start = text.rfind("\n", 0, i) + 1
    return Loc("f.yaml", text.count("\n", 0, i) + 1, i - line_start + 1)


# 150 levels are within libyaml's own reading ahead; 2,000 and 20,000 are past the 1,000 levels at
# which the libyaml of PyYAML 6.0.4's wheels stops by itself (6.0.3's has no such limit): the
# refusal is ours, at the bracket that crosses MAX_DEPTH, whichever PyYAML is installed.
@pytest.mark.parametrize("depth", [150, pytest.param(2_000, marks=pytest.mark.slow),
                                   pytest.param(20_000, marks=pytest.mark.slow)])
def test_deep_nesting_is_refused_where_it_crosses_the_limit(loader, depth):
    text = "a: " + "[" * depth + "]" * depth
    prob, secs = refused(text)
    # the mapping is level 1, so the 100th bracket (column 3 + 100) is level 101
    assert prob.loc == crossing(text, "[", 1) == Loc("f.yaml", 1, 3 + yamlsrc.MAX_DEPTH)
    assert "nested more than 100" in prob.message
    assert secs < RUNAWAY
    text = "a: " + "{a: " * depth + "}" * depth
    prob, _ = refused(text)
    assert prob.loc == crossing(text, "{", 1) and "nested more than 100" in prob.message
    text = "x:\n" + "- " * depth + "z\n"
    prob, _ = refused(text)
    assert prob.loc == crossing(text, "-", 1) and "nested more than 100" in prob.message
    text = "[\n" * depth + "]" * depth
    prob, _ = refused(text)
    assert prob.loc == crossing(text, "[", 0) and "nested more than 100" in prob.message
    assert load_text("[" * 99 + "]" * 99) is not None  # the document itself is level 1


def test_an_alias_bomb_is_refused_at_the_alias_that_crosses_the_limit(loader):
    rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, cur in zip("abcdefgh", "bcdefghi"):
        rows.append(f"{cur}: &{cur} [" + ", ".join([f"*{prev}"] * 9) + "]")
    prob, secs = refused("\n".join(rows) + "\n")
    # the aliases of b…e stand for 90 + 819 + 7,380 + 66,429 values; the first *e in f crosses
    assert (prob.loc.line, prob.loc.col) == (6, 8) and "aliases expand to more than 100,000" in (
        prob.message)
    assert secs < RUNAWAY
    shared = load_text("a: &s {x: 1}\nb: *s\nc: {<<: *s, y: 2}\n")
    assert shared["b"] == {"x": 1} and shared["c"] == {"x": 1, "y": 2}


def test_too_many_values_are_refused(loader, monkeypatch):
    monkeypatch.setattr(yamlsrc, "MAX_NODES", 1000)
    prob, _ = refused("a: 1\nb: [" + "1, " * 2000 + "1]\n")
    assert prob.loc.line == 2 and "more than 1,000 values" in prob.message
    assert len(load_text("[" + "1, " * 900 + "1]")) == 901


def test_too_many_lines_are_refused_at_once(tmp_path):
    p = tmp_path / "long.yaml"
    p.write_text("a: 1\n" + "#\n" * 2_000_000, encoding="utf-8")
    prob, secs = refused_file(p)
    assert prob.loc == Loc(str(p), yamlsrc.MAX_LINES + 1, 1) and "more than 500,000 lines" in prob.message
    assert secs < RUNAWAY
    prob, _ = refused("a: 1\r" + "#\r" * 600_000)  # old Mac line ends count too
    assert "lines" in prob.message


def test_a_file_over_the_size_limit_is_refused_without_reading_it_all(tmp_path):
    p = tmp_path / "big.yaml"
    with open(p, "wb") as f:
        f.write(b"a: 1\nb: ")
        f.truncate(yamlsrc.MAX_BYTES * 4)  # sparse: 64 MiB on paper, nothing on disk
    prob, secs = refused_file(p)
    assert prob.loc.line == 2 and "larger than 16,777,216 bytes (16 MiB)" in prob.message
    assert secs < RUNAWAY
    prob, _ = refused("好" * (yamlsrc.MAX_BYTES // 3 + 1))  # counted in UTF-8 bytes
    assert "larger than" in prob.message


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_is_refused_at_once():
    prob, secs = refused_file("/dev/zero")
    assert prob.loc.file == "/dev/zero" and "not a regular file" in prob.message
    assert secs < RUNAWAY


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_pipe_is_refused_at_once(tmp_path):
    """Only regular files are read: a FIFO no one writes to would block open() for ever (and an
    endless writer would feed it for ever); it is refused without waiting."""
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    prob, secs = refused_file(fifo)  # no writer: open() would block without O_NONBLOCK
    assert "not a regular file" in prob.message and secs < RUNAWAY


# ------------------------------------------------------------------ reading files


def test_a_line_in_another_encoding_is_reported_at_its_first_bad_byte(tmp_path):
    p = tmp_path / "mixed.yaml"
    p.write_bytes("a: 好\nb: ok\nc: 中文".encode() + "丹".encode("gbk") + b"\n")
    prob, _ = refused_file(p)
    assert prob.loc == Loc(str(p), 3, 6), str(prob)
    assert "not UTF-8: byte 0xB5" in prob.message


def test_unreadable_paths_are_located_errors(tmp_path):
    prob, _ = refused_file(tmp_path / "none.yaml")
    assert prob.loc == Loc(str(tmp_path / "none.yaml"), 1, 1) and prob.message == "file not found"
    prob, _ = refused_file(tmp_path)
    assert "is a folder" in prob.message
    prob, _ = refused_file(tmp_path / "a\0b")
    assert "cannot read" in prob.message


def test_an_unreadable_file_is_a_located_error(tmp_path, monkeypatch):
    p = tmp_path / "secret.yaml"
    p.write_text("a: 1\n", encoding="utf-8")
    p.chmod(0)
    if os.geteuid() == 0:  # root reads any file whatever its mode: refuse as the kernel would
        import viz.base.yamlsrc

        def denied(*_a, **_k):
            raise PermissionError(13, "Permission denied", str(p))
        monkeypatch.setattr(viz.base.yamlsrc, "open", denied, raising=False)
    prob, _ = refused_file(p)
    assert "cannot read" in prob.message and "ermission" in prob.message


# ------------------------------------------------------------------ short messages


def test_clip_cuts_long_values_and_names_their_size():
    assert clip("abc") == "'abc'"
    assert clip("a" * 5_000_000, 10) == "'aaaaaaaa…' (5,000,000 characters)"
    assert clip(b"\xff" * 100, 20) == "b'\\xff\\xff\\xff\\xff…' (100 bytes)"
    assert clip(list(range(1000)), 20) == "[0, 1, 2, 3, 4, 5, …] (1,000 items)"
    assert clip({"k": "v" * 500}, 60) == "{'k': 'vvvvvvvvvvvvvvvvvv…' (500 characters)}"
    assert clip(10**5000) == "<an integer of 16,610 bits>"
    loop: list = []
    loop.append(loop)
    assert clip(loop) == "[[[…] (1 item)]]"
    assert len(clip("\x00" * 1000)) < 100  # escapes do not overflow the room


def test_a_message_is_capped_when_shown():
    assert shorten("abc") == "abc" and shorten("x" * 300, 5) == "xxxxx… (300 characters)"
    prob = Problem(Loc("f", 1, 1), "y" * 5_000_000)
    assert len(str(prob)) < MAX_MESSAGE + 50 and str(InputError(prob)) == str(prob)
