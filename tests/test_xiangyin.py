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


# §10–16 and §24 (author B)

def _s10_state(capsys, clause: str, *more: str) -> dict[str, dict]:
    """Everyone present, by id, at the end of the step citing the clause."""
    code = main(["state", "--rite", "鄉飲酒禮", "--after", clause, "--json", *more])
    out, _ = capsys.readouterr()
    assert code == 0
    return {a["id"]: a for a in json.loads(out)["actors"]}


def _s10_holds(actor: dict) -> set[str]:
    return {h["id"] for h in actor["holding"]}


def test_s10_jie_and_the_three_elders_go_up_to_their_mats(capsys):
    # 賔厭介升介厭衆賔升衆賔序升即席: the 介 at his 席 西階上東面 (注 陳設), the three 長 (張: 三賔堂上
    # 有席者) each on his own 席 west of the 賔's, 南面, the eldest at the east; the rest below
    who = _s10_state(capsys, "衆賔序升即席")
    jie, z1, z2, z3 = who["jie"], who["zhongbin1"], who["zhongbin2"], who["zhongbin3"]
    assert jie["region"] == "堂" and jie["facing"]["dir"] == "東" and jie["x"] < -18 and jie["y"] < 10
    for z in (z1, z2, z3):
        assert z["region"] == "堂" and z["facing"]["dir"] == "南" and z["y"] > 26
    assert who["bin"]["x"] > z1["x"] > z2["x"] > z3["x"]
    assert who["zhongbin4"]["region"] == "庭"


def test_s10_the_zhi_is_left_at_the_jian_west(capsys):
    # 進坐奠觶于薦西 … 賔坐奠觶于其所 (注: 所薦西也): the 賔 back at his 席, empty-handed, the 觶 not
    # in anyone's hands; the 舉觶者 goes down (舉觶者降)
    who = _s10_state(capsys, "舉觶者降")
    assert who["bin"]["facing"]["dir"] == "南" and not _s10_holds(who["bin"])
    assert who["juzhi1"]["region"] == "庭" and not _s10_holds(who["juzhi1"])


def test_s11_xiangzhe_kneel_facing_east_and_hand_the_se(capsys):
    # 工入升自西階北面坐相者東面坐遂授瑟: the 工 seated on their 席 facing north; the first two hold
    # the 瑟, their 相者 kneel facing east
    who = _s10_state(capsys, "相者東面坐遂授瑟")
    for g in ("gong1", "gong2", "gong3", "gong4"):
        assert who[g]["posture"] == "坐" and who[g]["facing"]["dir"] == "北" and who[g]["region"] == "堂"
    assert _s10_holds(who["gong1"]) == {"se1"} and _s10_holds(who["gong2"]) == {"se2"}
    for x in ("xianggong1", "xianggong2", "xianggong3", "xianggong4"):
        assert who[x]["facing"]["dir"] == "東" and who[x]["posture"] == "坐" and not _s10_holds(who[x])
    assert who["gong1"]["x"] > who["gong2"]["x"] > who["gong3"]["x"] > who["gong4"]["x"]  # 東上


def test_s11_zhuren_bows_at_the_top_of_his_own_stair(capsys):
    # 工左瑟一人拜不興受爵主人阼階上拜送爵: the 工之長 seated with the 爵; the 主人 at the 阼階上
    who = _s10_state(capsys, "不興受爵主人阼階上拜送爵")
    assert "jue_gong" in _s10_holds(who["gong1"]) and who["gong1"]["posture"] == "坐"
    assert who["zhuren"]["place"] == "阼階上"


def test_s12_sheng_stand_south_of_the_qing_facing_north(capsys):
    # 笙入堂下磬南北面立 (記: 磬階間縮霤北面鼓之): in the 庭, between the stairs, south of the 磬
    who = _s10_state(capsys, "笙入堂下磬南北面立")
    for s in ("sheng1", "sheng2", "sheng3", "sheng4"):
        a = who[s]
        assert a["region"] == "庭" and a["facing"]["dir"] == "北"
        # the 磬 at y −2 between the stairs (x ±20); the 笙 behind the 擊磬者's room south of it (疏:
        # 在擊磬者之南北面也), at y −8
        assert -20 < a["x"] < 20 and -10 < a["y"] < -5.5


def test_s12_first_sheng_takes_the_jue_on_the_last_step(capsys):
    # 一人拜盡階不升堂受爵: up to the last 等, not onto the 堂, the 爵 in hand; the 主人 on the 西階上
    who = _s10_state(capsys, "盡階不升堂受爵")
    assert "jue_gong" in _s10_holds(who["sheng1"]) and who["sheng1"]["region"] != "堂"
    assert who["zhuren"]["place"] == "西階上" and who["zhuren"]["facing"]["dir"] == "西南"  # 敖: 西南面


def test_s16_sizheng_stands_south_of_his_zhi_between_the_stairs(capsys):
    # 階間北面坐奠觶 … 退立于觶南 (注: 階間北面東西節也其南北當中庭): on the axis, in the middle of
    # the 庭, facing north, empty-handed
    who = _s10_state(capsys, "退立于觶南")
    sz = who["sizheng"]
    assert sz["label"] == "司正" and sz["facing"]["dir"] == "北" and not _s10_holds(sz)
    assert abs(sz["x"]) < 0.5 and -50 < sz["y"] < -40


def test_s24_zunzhe_come_only_when_there_are_any(capsys):
    # 賔若有遵者諸公大夫則既一人舉觶乃入: with 遵者=0 nobody comes; with one, the 大夫 is on his 席
    # east of the 尊 (席于賔東; 張: 其實在酒尊東也) by the time the music begins, facing south
    none = _s10_state(capsys, "設席於堂亷東上", "--set", "遵者=0")
    assert "dafu" not in none and "zhugong" not in none
    one = _s10_state(capsys, "設席於堂亷東上")
    assert one["dafu"]["region"] == "堂" and one["dafu"]["facing"]["dir"] == "南"
    assert one["dafu"]["x"] > 0 and one["dafu"]["y"] > 26
    assert one["jie"]["facing"]["dir"] == "東" and one["bin"]["facing"]["dir"] == "南"


# §17–23 and §25 (author C)

def _s17_state(capsys, clause: str, *more: str) -> dict[str, dict]:
    """Everyone present, by id, at the end of the step citing the clause."""
    code = main(["state", "--rite", "鄉飲酒禮", "--after", clause, "--json", *more])
    out, _ = capsys.readouterr()
    assert code == 0
    return {a["id"]: a for a in json.loads(out)["actors"]}


def _s17_holds(actor: dict) -> set[str]:
    return {h["id"] if isinstance(h, dict) else h for h in actor["holding"]}


def test_s17_bin_toasts_the_host_at_the_top_of_his_stair(capsys):
    # 賔 … 阼階上北面酬主人主人降席立于賔東 … 主人受觶賔拜送于主人之西 (注: 旅酬同階禮殺): both on
    # the 堂 at the 阼階, facing north, the 賔 on the west; the 主人 holds the 觶 of 一人舉觶
    who = _s17_state(capsys, "賔拜送于主人之西")
    zhu, bin_ = who["zhuren"], who["bin"]
    assert zhu["region"] == bin_["region"] == "堂"
    assert zhu["facing"]["dir"] == bin_["facing"]["dir"] == "北"
    assert bin_["x"] < zhu["x"] and zhu["x"] > 15 and zhu["y"] < 5
    assert "zhi_lv" in _s17_holds(zhu) and not _s17_holds(bin_)


def test_s18_the_jie_keeps_the_cup_at_the_top_of_the_west_stair(capsys):
    # 主人西階上酬介介降席自南方立于主人之西 … 主人揖復席: the 介 at the 西階上 facing north with the
    # 觶, the 主人 back on his 席 (阼階上西面)
    who = _s17_state(capsys, "主人揖復席")
    jie, zhu = who["jie"], who["zhuren"]
    assert jie["region"] == "堂" and jie["facing"]["dir"] == "北" and "zhi_lv" in _s17_holds(jie)
    assert -25 < jie["x"] < -20 and jie["y"] < 4
    assert zhu["facing"]["dir"] == "西" and zhu["x"] > 20 and not _s17_holds(zhu)


def test_s19_the_first_to_receive_stands_on_the_jie_right(capsys):
    # 司正退立于序端東面; 受酬者自介右 (注: 由介東也尊介使不失故位): with no 遵者 the eldest 衆賔,
    # called, stands east of the 介, both facing north; the 司正 at the 西序端 facing east
    who = _s17_state(capsys, "司正退立于序端東面", "--set", "遵者=0")
    jie, z1, sz = who["jie"], who["zhongbin1"], who["sizheng"]
    assert jie["facing"]["dir"] == z1["facing"]["dir"] == "北"
    assert z1["x"] > jie["x"] and abs(z1["y"] - jie["y"]) < 1
    assert sz["facing"]["dir"] == "東" and sz["region"] == "堂" and sz["x"] < jie["x"]


def test_s19_with_a_dafu_he_drinks_before_the_zhongbin(capsys):
    # 敖繼公: 若有遵者則先衆賔酬之 … 若尊者受介酬亦然自介右: the 大夫 (遵者=1) is called first
    who = _s17_state(capsys, "司正退立于序端東面", "--set", "遵者=1")
    assert who["dafu"]["x"] > who["jie"]["x"] and who["dafu"]["facing"]["dir"] == "北"
    assert who["zhongbin1"]["y"] > 26   # still on his 席


def test_s20_the_cups_are_left_for_the_wusuanjue(capsys):
    # 皆進薦西奠之 … 介則薦南奠之 … 賔介奠于其所 (no 遵者): both back on their 席 empty-handed, the
    # 賔 facing south, the 介 east; the two men gone down
    who = _s17_state(capsys, "賔介奠于其所", "--set", "遵者=0")
    bin_, jie = who["bin"], who["jie"]
    assert bin_["facing"]["dir"] == "南" and not _s17_holds(bin_) and bin_["y"] > 26
    assert jie["facing"]["dir"] == "東" and not _s17_holds(jie)
    assert who["juzhi1"]["region"] == who["juzhi2"]["region"] == "庭"


def test_s21_all_come_down_in_order_after_the_zu(capsys):
    # 衆賔皆降 (敖繼公: 主人降立于阼階東介在賔南大夫在介南衆賔又在大夫南少退): in the 庭, the 賔
    # west of the 西階 facing east, the 介, the 大夫 and the eldest 衆賔 each further south; the 主人
    # east of the 阼階 facing west; the 俎 in their men's hands outside the gate (記: 賔介遵者之俎受者以降
    # 遂出授從者), none in theirs
    who = _s17_state(capsys, "衆賔皆降", "--set", "遵者=1")
    order = [who[i] for i in ("bin", "jie", "dafu", "zhongbin1")]
    assert all(a["region"] == "庭" and a["facing"]["dir"] == "東" for a in order)
    assert order[0]["y"] > order[1]["y"] > order[2]["y"] > order[3]["y"]
    assert who["zhuren"]["facing"]["dir"] == "西" and who["zhuren"]["x"] > 20
    assert not any(_s17_holds(a) for a in order)
    assert [_s17_holds(who[c]) for c in ("congzhe1", "congzhe2", "congzhe3")] == \
        [{"bin_zu"}, {"jie_zu"}, {"dafu_zu"}]


def test_s23_the_host_bows_outside_the_gate_facing_west(capsys):
    # 主人送于門外再拜 (注: 門東西面拜也)
    who = _s17_state(capsys, "主人送于門外再拜", "--set", "遵者=0")
    zhu = who["zhuren"]
    assert zhu["facing"]["dir"] == "西" and zhu["x"] > 0 and zhu["y"] < -91
