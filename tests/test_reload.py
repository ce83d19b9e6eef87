"""Live reload: the Reloader called with texts and on a copy of the rite, never waiting on time."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from viz import DEFAULT_LAYOUT, DEFAULT_SCRIPT
from viz.model.reload import Reloader

SECTION = "sections/05-迎賔.yaml"


# the first five stages of the bundled rite, as the trimmed copy's manifest names them
STAGES = ["戒賔", "設席陳器", "張侯", "速賔", "迎賔"]


@pytest.fixture
def rite(tmp_path: Path, tmp_path_factory, small_rite) -> tuple[Path, Path]:
    """A copy of the bundled rite (its manifest trimmed to sections 01–05, so that each reload
    is quick) and of the layout: tests edit and delete files here, not in the tree. The rite is
    copied afresh to the same place for each test, so the files a test leaves alone are parsed
    once (the parse cache is keyed by path and bytes)."""
    folder = small_rite(dst=tmp_path_factory.getbasetemp() / "reloaded" / "xiangshe")
    layout = tmp_path / "xu.yaml"
    shutil.copyfile(DEFAULT_LAYOUT, layout)
    return folder, layout


@pytest.fixture
def reloader(rite, corpus) -> Reloader:
    r = Reloader(*rite, corpus=corpus)
    assert r.result.ok, r.result.problems
    return r


def touch(path: Path, text: str) -> None:
    """Rewrite a file so that its stat surely changes (size and mtime), as an editor's save."""
    before = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))


def test_nothing_changed_means_no_reload(reloader):
    first = reloader.current
    assert reloader.check() is None
    assert reloader.current is first
    assert [s.name for s in first.timeline.stages] == STAGES


def test_given_text_is_parsed_not_the_cached_file(reloader, rite):
    # the parse cache keys files by their bytes; the text handed in must be what is compiled
    sec = rite[0] / SECTION
    text = sec.read_text(encoding="utf-8")
    assert "labels: {sizheng: 相}" in text
    got = reloader.reload({sec: text.replace("labels: {sizheng: 相}", "labels: {sizheng: 擯}", 1)})
    assert got.ok and got.compiled is reloader.current
    [stage] = [s for s in reloader.current.timeline.stages if s.name == "迎賔"]
    assert "擯" in stage.labels
    assert sec.read_text(encoding="utf-8") == text  # nothing written


def test_half_written_file_keeps_the_last_good_and_recovers(reloader, rite):
    good = reloader.current
    sec = rite[0] / SECTION
    text = sec.read_text(encoding="utf-8")
    cut = text.index("do:", len(text) // 2) + 2  # mid-key: "do" without its colon
    bad = reloader.reload({sec: text[:cut]})
    assert not bad.ok and bad.compiled is None and reloader.current is good
    assert bad.problems and all(p.loc.file == str(sec) for p in bad.problems)
    assert bad.problems[0].loc.line > 1  # located where the text breaks off, not at the top
    fixed = reloader.reload({sec: text})
    assert fixed.ok and reloader.current is fixed.compiled and reloader.current is not good


@pytest.mark.parametrize("text,message", [
    ("", "a section file is a YAML mapping"),
    ("name: 迎賔\nsteps: [\n", "YAML syntax"),
    (None, "file not found"),
])
def test_empty_broken_or_missing_text_is_a_located_problem(reloader, rite, text, message):
    good = reloader.current
    sec = rite[0] / SECTION
    got = reloader.reload({sec: text})
    assert not got.ok and reloader.current is good
    assert any(message in p.message and p.loc.file == str(sec) for p in got.problems), \
        [str(p) for p in got.problems]


def test_a_step_that_no_longer_cites_the_text(reloader, rite):
    sec = rite[0] / SECTION
    text = sec.read_text(encoding="utf-8")
    got = reloader.reload({sec: text.replace("cite: 主人以賔三揖皆行", "cite: 主人以賔三揖皆走", 1)})
    assert not got.ok
    [p] = got.problems
    assert "cite not found" in p.message and p.loc.file == str(sec) and p.loc.line > 1


def test_deleted_section_then_recreated(reloader, rite):
    sec = rite[0] / SECTION
    text = sec.read_text(encoding="utf-8")
    sec.unlink()
    got = reloader.check()
    assert got is not None and not got.ok and str(sec) in got.changed
    assert any("05-迎賔.yaml" in str(p) for p in got.problems)
    assert [s.name for s in reloader.current.timeline.stages] == STAGES  # still the last good
    assert reloader.check() is None  # a failure is not retried until something changes again
    sec.write_text(text, encoding="utf-8")
    back = reloader.check()
    assert back is not None and back.ok


def test_deleted_layout_is_file_not_found(reloader, rite):
    layout = rite[1]
    text = layout.read_text(encoding="utf-8")
    layout.unlink()
    got = reloader.check()
    assert not got.ok and [str(p) for p in got.problems] == [f"{layout}:1:1: file not found"]
    layout.write_text(text, encoding="utf-8")
    assert reloader.check().ok


def test_edited_section_on_disk(reloader, rite):
    sec = rite[0] / SECTION
    text = sec.read_text(encoding="utf-8")
    touch(sec, text.replace("name: 迎賔", "name: 迎賓", 1))
    got = reloader.check()
    assert got.ok and got.changed == (str(sec),)
    assert [s.name for s in reloader.current.timeline.stages] == [*STAGES[:-1], "迎賓"]


def test_manifest_drops_a_section_and_a_new_file_is_seen(reloader, rite):
    folder = rite[0]
    man = folder / "manifest.yaml"
    text = man.read_text(encoding="utf-8")
    assert "  - sections/05-迎賔.yaml\n" in text
    touch(man, text.replace("  - sections/05-迎賔.yaml\n", ""))
    got = reloader.check()
    assert got.ok and [s.name for s in got.compiled.timeline.stages] == STAGES[:-1]
    # a file appearing in the folder is a change (the manifest may name it next)
    shutil.copyfile(folder / SECTION, folder / "sections/05-new.yaml")
    again = reloader.check()
    assert again is not None and again.ok and again.changed == (str(folder / "sections/05-new.yaml"),)


def test_readings_switch_from_the_snapshot_even_when_the_disk_is_broken(reloader, rite):
    (rite[0] / SECTION).write_text("name: [", encoding="utf-8")  # saved broken, not yet polled
    default = reloader.current
    other = reloader.for_readings(["敖"])  # compiled, not switched to
    assert other.ok and reloader.current is default and reloader.readings == ()
    got = reloader.set_readings(["敖"])
    assert got.compiled is other.compiled  # compiled once per reading and set of files
    assert got.ok and reloader.readings == ("敖",) and reloader.current is got.compiled
    assert got.compiled.readings == ("敖",)
    assert got.compiled.layout.place_xy("乏")[0] == -50  # 敖繼公's 乏
    assert reloader.set_readings(["鄭"]).compiled.layout.place_xy("乏")[0] == -30
    assert "敖繼公" in reloader.known_readings()


def test_unknown_reading_is_refused_and_nothing_changes(reloader):
    good = reloader.current
    got = reloader.set_readings(["王肅"])
    assert not got.ok and reloader.current is good and reloader.readings == ()
    assert got.problems[0].loc.file == "--reading" and "王肅" in got.problems[0].message


def test_an_internal_error_does_not_escape(reloader, monkeypatch):
    import viz.model.rite

    def boom(*a, **k):
        raise RuntimeError("compiler bug")
    monkeypatch.setattr(viz.model.rite.Rite, "get", boom)
    good = reloader.current
    got = reloader.reload()
    assert not got.ok and reloader.current is good and "compiler bug" in got.problems[0].message


def test_a_first_load_that_fails_has_no_current(rite, corpus):
    (rite[0] / SECTION).write_text("", encoding="utf-8")
    r = Reloader(*rite, corpus=corpus)
    assert not r.result.ok and r.current is None
    (rite[0] / SECTION).write_text((DEFAULT_SCRIPT / SECTION).read_text(encoding="utf-8"),
                                   encoding="utf-8")
    assert r.check().ok and r.current is not None


def test_files_are_read_from_disk_again_outside_a_reload(reloader, rite):
    # the read hook serves given texts only inside a reload; plain loads see the disk
    from viz.model.layout import load_layout

    reloader.reload({rite[1]: "name: [\n"})
    assert len(load_layout(rite[1]).places) == len(reloader.current.layout.places)


def test_an_editors_swap_file_is_no_change(reloader, rite):
    (rite[0] / ".manifest.yaml.swp").write_bytes(b"\0vim")
    (rite[0] / "sections" / "4913").write_text("")  # vim's probe whether it may write here
    assert reloader.check() is None
