"""The Chinese vocabulary: the characters, words and tables of the Chinese reader (`numbers.chinese`).

Data only, no logic and no import of nash_metric. Characters are simplified: the reader maps traditional ones
to these first (`TO_SIMPLIFIED`), one character for one, so offsets stay those of the input.
"""

from __future__ import annotations

# Full-width digits -> ASCII digits ("１２" -> "12").
FULLWIDTH_DIGITS = {chr(0xFF10 + i): str(i) for i in range(10)}
# Full-width and other signs -> ASCII or the usual sign ("％" -> "%", "￥" -> "¥").
FULLWIDTH_SIGNS = {"．": ".", "％": "%", "＋": "+", "－": "-", "−": "-", "￥": "¥", "＄": "$"}
# Traditional numeral, currency and measure characters -> simplified ("萬" -> "万", "億" -> "亿").
TO_SIMPLIFIED = {
    "萬": "万", "億": "亿", "點": "点", "兩": "两", "幣": "币", "歐": "欧", "鎊": "镑", "圓": "元",
    "個": "个", "臺": "台", "韓": "韩", "餘": "余", "數": "数", "幾": "几", "負": "负", "變": "变",
}
# The digit characters (〇 and 零 are zero, 两 is two).
DIGITS = "零〇一二三四五六七八九两"
# The scale characters, smallest first: 十 10, 百 100, 千 1000, 万 10^4, 亿 10^8, 兆 10^12 (its financial sense).
SCALES = "十百千万亿兆"
# A digit character -> its value.
DIGIT_VALUE = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}
# The units after 千 that make it the SI prefix kilo (千瓦 kW, 千克 kg, 千米 km), not a thousand.
KILO_UNITS = "瓦克米焦帕赫卡"
# The units after 兆 that make it the SI prefix mega (兆瓦 MW, 兆赫 MHz, 兆字 MB), not 10^12.
MEGA_UNITS = "瓦赫帕焦字"
# The denominators of a percentage fraction (百分之五 5%, 千分之五 0.5%, 万分之五 0.05%) -> what divides the
# numerator to give a percent.
PERCENT_DENOMINATORS = {"百": 1, "千": 10, "万": 100}
# Percent, percentage points and basis points after a number -> unit, longest first.
PERCENT_SUFFIXES = (("个百分点", "pp"), ("百分点", "pp"), ("基点", "bp"), ("%", "%"))
# Currencies after a number -> ISO code, longest first (元人民币 before 元).
CURRENCY_SUFFIXES = (("元人民币", "CNY"), ("美元", "USD"), ("港元", "HKD"), ("港币", "HKD"), ("欧元", "EUR"),
                     ("日元", "JPY"), ("英镑", "GBP"), ("韩元", "KRW"), ("新台币", "TWD"), ("台币", "TWD"),
                     ("人民币", "CNY"), ("元", "CNY"))
# Currencies before a number -> ISO code (¥ is the yuan's in Chinese text).
CURRENCY_PREFIXES = (("人民币", "CNY"), ("港币", "HKD"), ("RMB", "CNY"), ("HK$", "HKD"), ("US$", "USD"),
                     ("¥", "CNY"), ("$", "USD"))
# Measure words and units after a numeral run: they make a run of numeral characters a number (十家, 两万个).
MEASURE_WORDS = (
    *"个家名人位次项件条股手只支台辆架艘座套份张本吨克米亩岁周天秒届期轮款种类批笔户所间层度场部倍年月日号成分",
    "公斤", "千克", "公里", "平方米", "小时", "分钟", "季度", "千瓦", "兆瓦", "吉瓦", "瓦",
)
