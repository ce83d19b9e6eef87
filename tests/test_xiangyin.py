"""鄉飲酒禮 (the second bundled rite): facts of its sections from the text, read off the state JSON
(`state --after CLAUSE --rite 鄉飲酒禮 --json`). Each author's tests are prefixed with his sections."""
from __future__ import annotations

import json

from viz.cli.main import main


def _s01_state(capsys, clause: str, *more: str) -> dict[str, dict]:
    """Everyone, by id, at the end of the step citing the clause."""
    code = main(["state", "--rite", "鄉飲酒禮", "--after", clause, "--json", *more])
    out, _ = capsys.readouterr()
    assert code == 0
    return {a["id"]: a for a in json.loads(out)["actors"]}


def _s01_holds(actor: dict) -> set[str]:
    return {h["id"] for h in actor["holding"]}


def test_s03_bai_zhi_on_the_lintel_line(capsys):
    # 主人阼階上當楣北面再拜，賔西階上當楣北面答拜 (注: 楣前梁也): both on the 堂, on the 楣's line,
    # each above his own stair, facing north; the 介 and 衆賔 below, west of the 西階, facing east
    who = _s01_state(capsys, "賔西階上當楣北面答拜")
    zhu, bin_, jie = who["zhuren"], who["bin"], who["jie"]
    assert zhu["region"] == bin_["region"] == "堂"
    assert zhu["facing"]["dir"] == bin_["facing"]["dir"] == "北"
    assert abs(zhu["y"] - 10) < 0.5 and abs(bin_["y"] - 10) < 0.5
    assert zhu["x"] > 0 > bin_["x"]
    assert jie["region"] == "庭" and jie["facing"]["dir"] == "東" and jie["x"] < -20


def test_s04_bin_takes_the_jue_and_sits_on_his_mat_facing_south(capsys):
    # 賔坐左執爵祭脯醢 … 興席末坐啐酒: on his 席 (牖前南面), seated, the 爵 in hand
    who = _s01_state(capsys, "興席末坐啐酒")
    bin_ = who["bin"]
    assert bin_["facing"]["dir"] == "南" and bin_["posture"] == "坐"
    assert "jue" in _s01_holds(bin_)
    assert bin_["y"] > 26 and -13 < bin_["x"] < -6   # the 賔席 west of the 户, before the 牖


def test_s06_the_zhi_is_set_down_and_not_held(capsys):
    # 賔北面坐奠觶于薦東 (注: 酬酒不舉): nobody holds the 酬's 觶; the 賔 back at the 西階上
    who = _s01_state(capsys, "賔北面坐奠觶于薦東")
    assert all("zhi_chou" not in _s01_holds(a) for a in who.values())
    assert who["bin"]["facing"]["dir"] == "北"


def test_s07_offering_the_jie_facing_south_west(capsys):
    # 主人實爵介之席前西南面獻介 (張爾岐: 介立西階上在席南故主人西南面向之)
    who = _s01_state(capsys, "介之席前西南面獻介")
    zhu, jie = who["zhuren"], who["jie"]
    assert zhu["facing"]["dir"] == "西南" and "jue" in _s01_holds(zhu)
    assert jie["facing"]["dir"] == "北" and jie["region"] == "堂"
    assert zhu["x"] > jie["x"] and zhu["y"] > jie["y"]   # north-east of him, before the 介席


def test_s07_the_jie_does_not_taste(capsys):
    # 祭如賔禮不嚌肺不啐酒 (注: 不嚌啐下賔): he ends on his 席 (西階上東面) standing with the 爵,
    # not seated at the 席末 as the 賔 (啐酒)
    who = _s01_state(capsys, "祭如賔禮不嚌肺不啐酒")
    jie = who["jie"]
    assert jie["facing"]["dir"] == "東" and jie["posture"] == "立"
    assert "jue" in _s01_holds(jie)
    assert abs(jie["x"] + 21) < 1 and abs(jie["y"] - 6) < 1   # the 介席's middle


def test_s08_the_jie_hands_the_empty_jue_between_the_pillars(capsys):
    # 授主人爵于兩楹之間 (注: 就尊南授之介不自酌)
    who = _s01_state(capsys, "授主人爵于兩楹之間")
    zhu, jie = who["zhuren"], who["jie"]
    assert "jue" in _s01_holds(zhu) and "jue" not in _s01_holds(jie)
    assert abs(zhu["y"] - 10) < 1 and abs(jie["y"] - 10) < 1 and jie["x"] < zhu["x"]


def test_s09_the_zhongbin_below_facing_east_north_at_the_head(capsys):
    # 主人以爵降奠于篚: every 衆賔 back at his place below (記: 立者東面北上), the 介 south of the
    # 賔 (介降立于賔南), the 主人 at the 洗 with empty hands
    who = _s01_state(capsys, "主人以爵降奠于篚", "--set", "衆賔=9")
    row = [who["bin"], who["jie"]] + [who[f"zhongbin{i}"] for i in range(1, 10)]
    assert all(a["region"] == "庭" and a["facing"]["dir"] == "東" for a in row)
    ys = [a["y"] for a in row]
    assert ys == sorted(ys, reverse=True)   # 北上: the 賔, the 介, then by age southward
    assert len({round(a["x"]) for a in row}) == 1
    assert _s01_holds(who["zhuren"]) == set()
