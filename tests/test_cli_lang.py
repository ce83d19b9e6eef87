"""The command line in the reader's language: `--help` of main and of every subcommand, and
argparse's own words and errors, in 中文 by default (no English word in the visible text but
the allowed ones below), in English with `--lang en`, wherever --lang stands."""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from viz.base import lang
from viz.cli import words
from viz.cli.main import main, parser

ROOT = Path(__file__).resolve().parent.parent

# Latin words a 中文 help may show besides what the parser itself names (its option strings,
# metavars, choices and command names, collected below): words a user types or a program is
# called by (python main.py, the key names Ctrl/Space, a --set key, a tool, a text's source).
ALLOWED = {"python", "Ctrl", "Ctrl-C", "Space", "skill", "ffmpeg", "imageio-ffmpeg", "Kanripo"}
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'’-]*[A-Za-z0-9]")
# a path, a file name, a link, a KEY=VALUE: anything with a slash, a dot before a letter or *,
# a # or an =, taken whole
PATHLIKE = re.compile(r"[\w.*#=:/{}|-]*(?:/|\.[A-Za-z*]|#|=)[\w.*#=:/{}|.-]*")
OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")  # an option, as typed (--seed, -o)


def _commands() -> list[str]:
    sub = parser()._subparsers._group_actions[0]  # noqa: SLF001
    return list(sub.choices)


def _typed(p: argparse.ArgumentParser) -> set[str]:
    """What the parser names as it is typed: options, metavars, choices, commands, folders."""
    out = {"main.py"}
    for a in p._actions:  # noqa: SLF001
        out.update(a.option_strings)
        for m in (a.metavar if isinstance(a.metavar, tuple) else (a.metavar,)):
            if m:
                out.update(re.split(r"[|.]", m))
        if a.choices:
            out.update(str(c) for c in a.choices)
        if a.dest:
            out.add(a.dest)
    from viz.model import package

    out.update(p.folder_name for p in package.bundled())
    return out


def english(text: str, typed: set[str]) -> list[str]:
    """The English words left in `text` once what is typed, paths and placeholders are out."""
    text = OPTION.sub(" ", PATHLIKE.sub(" ", text))
    found = []
    for w in WORD.findall(text):
        if w in typed or w in ALLOWED or w.isupper() or any(c.isdigit() for c in w):
            continue  # a metavar-like placeholder (FILE, WxH is typed), a format (PNG), an id
        found.append(w)
    return found


def _help(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as e:
        main([*argv, "--help"])
    assert e.value.code == 0
    return capsys.readouterr().out


@pytest.fixture(autouse=True)
def _default_lang():
    yield
    lang.use(None)


def test_every_help_is_in_chinese_by_default(capsys):
    p = parser()
    subs = p._subparsers._group_actions[0].choices  # noqa: SLF001
    pages = {"": _help(capsys)} | {c: _help(capsys, c) for c in _commands()}
    assert len(pages) >= 16
    for cmd, out in pages.items():
        typed = _typed(subs[cmd] if cmd else p) | set(subs)
        assert out.startswith("用法：python main.py"), out[:80]
        assert "選項：" in out and "示此說明而止" in out
        assert english(out, typed) == [], (cmd, english(out, typed))
        # each option's help is there, and mostly 中文 (not a page of option names)
        cjk = sum(1 for c in out if "\u3400" <= c <= "\u9fff")
        assert cjk > 30, (cmd, out)
    assert "依位之引數：" in pages[""] and "開視窗演禮" in pages[""]


def test_the_checker_finds_english_where_it_is():
    """The check can fail: an English help, and argparse's own words, are caught."""
    assert english("用法：python main.py play [-h] the start of that stage", {"-h", "play"}) == [
        "the", "start", "of", "that", "stage"]
    assert english("usage: main.py FILE.png layouts/xu.yaml #t=8.1", {"main.py"}) == ["usage"]


@pytest.mark.parametrize("argv", [["--lang", "en"], ["--lang=en"]])
def test_lang_en_gives_english_before_or_after_the_command(capsys, argv):
    top = _help(capsys, *argv)
    assert top.startswith("usage: python main.py") and "show this help message and exit" in top
    assert "play the rite in a window (the default)" in top
    for before in (True, False):
        out = _help(capsys, *argv, "sheet") if before else _help(capsys, "sheet", *argv)
        assert "options:" in out and "a role's cue sheet" not in out  # its own page
        assert "every role, one sheet each, into -o DIR" in " ".join(out.split())
        assert not re.search("[\u3400-\u9fff]{4}", out.replace("鄉射禮", "").replace(
            "鄉飲酒禮", "")), out  # the rite's names only (中文, 英文 in --lang's own help)


def test_argparse_errors_are_in_the_readers_language(capsys):
    cases = [(["text", "--part", "x"], "引數 --part：無此選擇：'x'"),
             (["plate"], "須給下列引數：-o/--output"),
             (["play", "--sped", "4"], "不識之引數：--sped 4（或謂 --speed？）"),
             (["play", "--speed", "3"], "須爲 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64 之一；所給者 '3'"),
             (["state", "--at"], "引數 --at：須給一值")]
    for argv, said in cases:
        with pytest.raises(SystemExit) as e:
            main(argv)
        err = capsys.readouterr().err
        assert e.value.code == 2 and said in err and "有誤" in err, err
        assert "Traceback" not in err and "usage" not in err and "error" not in err
    with pytest.raises(SystemExit):
        main(["state", "--at", "--lang", "en"])
    assert "error: argument --at: expected one argument" in capsys.readouterr().err


def test_an_unknown_command_in_chinese(capsys):
    assert main(["shoot"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("有誤：無此命令 'shoot'；或謂 shot 或 sheet？\n命令有：play, shot")


def test_the_language_is_read_before_the_parser_is_built():
    assert words.asked(["play", "--stage", "3", "--lang", "en"]) == "en"
    assert words.asked(["--lang=zh", "shot"]) == "zh"
    assert words.asked(["--lang", "fr"]) is None  # argparse refuses it, in the default's words
    assert words.asked(["text", "--", "--lang", "en"]) is None


def test_a_long_chinese_help_is_wrapped_by_its_width():
    lines = words.wrap("一禮之夾、其 manifest.yaml，或單檔之腳本（預設：--rite 所指者，否則所附之鄉射禮）", 30)
    widths = [sum(2 if "\u3000" <= c <= "\uffef" or "\u3400" <= c <= "\u9fff" else 1 for c in ln)
              for ln in lines]
    assert len(lines) >= 3 and max(widths) <= 32, (lines, widths)
    assert not any(ln[0] in words.CLOSING for ln in lines)
    assert "manifest.yaml" in "".join(lines).split("其 ")[1]  # a Latin word kept whole


def test_the_real_entry_speaks_chinese():
    out = subprocess.run([sys.executable, "main.py", "atlas", "--help"], cwd=ROOT,
                         capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("用法：python main.py atlas")
    assert "每步一圖，非每節一圖" in out.stdout
