"""bench/reuse.py, issue 20's measure of 鄉飲酒禮's own YAML: what it counts."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _reuse():
    spec = importlib.util.spec_from_file_location("bench_reuse", ROOT / "bench" / "reuse.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_measure_counts_the_folder_and_the_layout_delta_not_the_library(tmp_path):
    reuse = _reuse()
    sections = tmp_path / "assets" / "rites" / "xiangyin" / "sections"
    sections.mkdir(parents=True)
    (sections / "01.yaml").write_text("a: 1\n" * 30, encoding="utf-8")
    (tmp_path / "assets" / "patterns").mkdir()
    (tmp_path / "assets" / "patterns" / "獻酬.yaml").write_text("p: 1\n" * 500, encoding="utf-8")
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "xiang.yaml").write_text("x: 1\n" * 2, encoding="utf-8")
    assert sum(reuse.own_lines(tmp_path).values()) == 32


def test_the_bundled_rite_is_measured():
    lines = _reuse().own_lines()
    assert sum(n for f, n in lines.items() if "/sections/" in f) > 1000
    assert "layouts/xiang.yaml" in lines


def test_xiangyin_own_yaml_is_at_most_a_quarter_of_xiangshe():
    # issue 20: ≤ 25% of the 10,948 lines 鄉射's folder had, 27% since issue 26's mends (bench/reuse.py's TARGET)
    reuse = _reuse()
    total = sum(reuse.own_lines().values())
    assert total / reuse.XIANGSHE_LINES <= reuse.TARGET, (total, reuse.XIANGSHE_LINES)
