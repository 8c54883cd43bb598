"""Chinese numeral extraction: the value, kind and unit of every form (issue 5), and what must not match."""

from __future__ import annotations

import pytest

from nash_metric.benchmarks.nquad.text import split_sentences_zh
from nash_metric.numbers import extract_chinese_numbers, extract_numbers, mask_numbers, parse_chinese_number


def one(text: str):
    found = extract_chinese_numbers(text)
    assert len(found) == 1, found
    m = found[0]
    assert text[m.start:m.end] == m.text
    return m


@pytest.mark.parametrize("text, span, value, kind, unit", [
    # Arabic and full-width digits, % and ％
    ("营收达到1234元", "1234元", 1234.0, "monetary", "CNY"),
    ("营收１２３．５亿元", "１２３．５亿元", 12_350_000_000.0, "monetary", "CNY"),
    ("同比增长３５％", "３５％", 35.0, "percentage", "%"),
    ("股价上涨1.986%", "1.986%", 1.986, "percentage", "%"),
    ("下跌-3.5%", "-3.5%", -3.5, "percentage", "%"),
    ("余额为4,567.8万元", "4,567.8万元", 45_678_000.0, "monetary", "CNY"),
    # 百分之…, 个百分点, 成
    ("占比百分之三十五", "百分之三十五", 35.0, "percentage", "%"),
    ("下降百分之8.5", "百分之8.5", 8.5, "percentage", "%"),
    ("增长百分之十八点五", "百分之十八点五", 18.5, "percentage", "%"),
    ("负百分之二", "负百分之二", -2.0, "percentage", "%"),
    ("提升1.5个百分点", "1.5个百分点", 1.5, "percentage", "pp"),
    ("增长三成", "三成", 30.0, "percentage", "%"),
    # Chinese numerals: 三 十二 两 零 and scale characters 十 百 千 万/萬 亿/億 兆
    ("新增三家门店", "三", 3.0, "quantity", None),
    ("共有十二项", "十二", 12.0, "quantity", None),
    ("两家公司", "两", 2.0, "quantity", None),
    ("新增零点八吉瓦", "零点八", 0.8, "quantity", None),
    ("船舶一百二十三艘", "一百二十三", 123.0, "quantity", None),
    ("门店两千家", "两千", 2000.0, "quantity", None),
    ("员工一千零五十名", "一千零五十", 1050.0, "quantity", None),
    ("供水三千二百万吨", "三千二百万", 32_000_000.0, "quantity", None),
    ("余额一萬五千八百億元", "一萬五千八百億元", 1.58e12, "monetary", "CNY"),
    ("规模突破2兆元", "2兆元", 2e12, "monetary", "CNY"),
    # mixed forms
    ("销量2.5萬辆", "2.5萬", 25_000.0, "quantity", None),
    ("净利润3億元", "3億元", 300_000_000.0, "monetary", "CNY"),
    ("保单12萬5千笔", "12萬5千", 125_000.0, "quantity", None),
    ("投资1.5萬億元", "1.5萬億元", 1.5e12, "monetary", "CNY"),
    ("收入3亿5000万元", "3亿5000万元", 350_000_000.0, "monetary", "CNY"),
    ("十二点五万", "十二点五万", 125_000.0, "quantity", None),
    # decimals with 点/點
    ("目标为三點五吉瓦", "三點五", 3.5, "quantity", None),
    ("三点五倍", "三点五倍", 3.5, "quantity", "x"),
    # currencies
    ("出口2.3億美元", "2.3億美元", 230_000_000.0, "monetary", "USD"),
    ("每股0.35港元", "0.35港元", 0.35, "monetary", "HKD"),
    ("以人民幣4.6億元收购", "人民幣4.6億元", 460_000_000.0, "monetary", "CNY"),
    ("收入3亿人民币", "3亿人民币", 300_000_000.0, "monetary", "CNY"),
    ("售价¥300", "¥300", 300.0, "monetary", "CNY"),
    ("一兆日元", "一兆日元", 1e12, "monetary", "JPY"),
    # fractions
    ("三分之一的股东", "三分之一", 1 / 3, "quantity", None),
    # years, quarters, months, days
    ("2023年营收", "2023年", 2023.0, "temporal", "year"),
    ("二〇二三年", "二〇二三年", 2023.0, "temporal", "year"),
    ("第一季度", "一季度", 1.0, "temporal", "quarter"),
    ("十一月", "十一月", 11.0, "temporal", "month"),
])
def test_values_of_every_form(text, span, value, kind, unit):
    m = one(text)
    assert m.text == span
    assert m.value == pytest.approx(value, rel=1e-12)
    assert (m.kind, m.unit, m.error) == (kind, unit, None)


def test_date_gives_year_month_day():
    found = extract_chinese_numbers("2022年12月31日公布")
    assert [(m.text, m.value, m.unit) for m in found] == [
        ("2022年", 2022.0, "year"), ("12月", 12.0, "month"), ("31日", 31.0, "day")]
    assert all(m.kind == "temporal" for m in found)


@pytest.mark.parametrize("text", [
    "一些公司", "统一行动", "一致同意", "万一出现", "千万不要", "十分重要", "上一次回购", "核心一级资本", "之一",
    "三一重工", "百家争鸣", "千家万户", "一成不变", "三三两两", "两岸", "三", "零", "5G手机", "A50指数",
])
def test_words_are_not_numbers(text):
    assert extract_chinese_numbers(text) == []


def test_si_prefix_is_not_a_scale():
    # 千瓦时 = kWh: 3500亿千瓦时 is 3500亿 (kWh), not 3500亿千
    m = one("发电量3500億千瓦时")
    assert (m.text, m.value) == ("3500億", 3.5e11)
    assert one("重五千克").value == 5.0


@pytest.mark.parametrize("text, span, fragment", [
    ("三四十家", "三四十", "approximate range"),
    ("七八个", "七八", "approximate range"),
    ("数百万美元", "数百万美元", "vague quantity"),
    ("版本1.2.3发布", "1.2.3", "malformed"),
])
def test_unscorable_mentions_have_none_and_error(text, span, fragment):
    m = one(text)
    assert m.text == span and m.value is None and fragment in m.error


def test_parse_chinese_number_errors_and_values():
    assert parse_chinese_number("一百二十三万四千五百六十七") == 1_234_567
    assert parse_chinese_number("3兆5000億") == 3.5e12
    with pytest.raises(ValueError, match="cannot parse"):
        parse_chinese_number("九千九百万亿亿")
    with pytest.raises(ValueError, match="overflows"):
        parse_chinese_number("9" * 400)


def test_offsets_survive_fullwidth_and_traditional_normalisation():
    text = "海澄地產：銷售額１２３．５億元，同比下降８．２％；均價１２５２５元。"
    for m in extract_chinese_numbers(text):
        assert text[m.start:m.end] == m.text
    assert [m.value for m in extract_chinese_numbers(text)] == [12_350_000_000.0, 8.2, 12525.0]


def test_public_extractor_and_masking_use_chinese_rules():
    text = "青禾食品淨利潤達3億元，同比增長18.2%。"
    assert [(m.text, m.value) for m in extract_numbers(text)] == [("3億元", 3e8), ("18.2%", 18.2)]
    masked, _ = mask_numbers(text)
    assert masked == "青禾食品淨利潤達[NUM]，同比增長[NUM]。"


def test_sentence_splitter_keeps_offsets_and_quotes():
    text = "营收增长35%。他说：“利润翻倍！”  下半年呢？计划投资2亿元；预计年底完工"
    parts = split_sentences_zh(text)
    assert [p.text for p in parts] == ["营收增长35%。", "他说：“利润翻倍！”", "下半年呢？", "计划投资2亿元；",
                                       "预计年底完工"]
    assert all(text[p.start:p.end] == p.text for p in parts)
    assert split_sentences_zh("") == []


def test_rejects_non_string():
    with pytest.raises(TypeError):
        extract_chinese_numbers(None)  # type: ignore[arg-type]
