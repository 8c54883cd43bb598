"""The English vocabulary: every word list of the number readers (`numbers.english`, `numbers.written`,
`numbers.lexicon`, `numbers.calendar`, `numbers.precision`), the context and binding readers (`context.binding`,
`context.words`, `context.tables`) and the computed-figure verdict (`verdicts.derivations`).

Data only, no logic and no import of nash_metric. A set that overlaps another is derived from a base set rather
than spelled again: the hedges (`HEDGE_WORDS`), the scale words (`SCALE_EXPONENTS`, `SCALE_WORDS`) and the words
of change (`RISE`, `FALL`, `RISE_NOUNS`, `FALL_NOUNS`, `EITHER_NOUNS`). Tuples keep an order their readers rely on
(a regex alternation, a number word's value); frozensets are for membership. Sets of stems are marked so (the
stems of `context.binding.stem`: lower case, a plural's "s" dropped).
"""

from __future__ import annotations


def _words(s: str) -> frozenset[str]:
    return frozenset(s.split())


# ------------------------------------------------------------------------------------------ currencies
# ISO 4217 codes read before or after a number ("EUR 5", "5 USD", "EUR74"), each its own code.
CURRENCY_CODES = _words(
    "USD EUR GBP JPY CNY SEK NOK DKK CHF RUB INR HKD AUD CAD SGD KRW PLN LVL LTL EEK ISK BRL MXN ZAR TRY NZD "
    "CZK HUF TWD THB MYR IDR PHP SAR AED ILS UAH RON"
)
# Currency codes that are common words or names in lower case: only their upper case counts ("TRY 5", not "try 5").
CODE_WORDS = ("try", "php", "rub", "eek", "lvl")
_UPPER_CODES = {c: c for c in CURRENCY_CODES} | {"RMB": "CNY"}  # "RMB": the yuan's
# Upper-case codes and "Rs" (the rupee's) -> ISO code.
CODES = _UPPER_CODES | {"Rs": "INR"}
# Every code read next to a number -> ISO code: the upper-case ones and their lower case ("0.33 eur", "usd 5"), but
# for the codes that are common words.
ANY_CODE = CODES | {c.lower(): v for c, v in _UPPER_CODES.items() if c.lower() not in CODE_WORDS}
# Currency symbols -> ISO code ("x20ac": Financial PhraseBank's broken rendering of the euro sign).
SYMBOLS = {"$": "USD", "US$": "USD", "A$": "AUD", "C$": "CAD", "HK$": "HKD", "S$": "SGD", "€": "EUR",
           "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "₽": "RUB", "x20ac": "EUR"}
# Currency words after a number ("5 euros", "2.5 mln euro") -> ISO code.
CURRENCY_WORDS = {"euro": "EUR", "euros": "EUR", "dollar": "USD", "dollars": "USD", "yen": "JPY",
                  "yuan": "CNY", "renminbi": "CNY", "sterling": "GBP", "kronor": "SEK", "kronur": "ISK",
                  "kroner": "NOK", "krona": "SEK", "kroons": "EEK", "roubles": "RUB", "rubles": "RUB",
                  "rupees": "INR", "litas": "LTL", "lats": "LVL", "lei": "RON"}
# Every word naming money after a figure (no count of things: "5 pounds" is money): the currency words and slang.
MONEY_NOUNS = frozenset(CURRENCY_WORDS) | {"pounds", "francs", "bucks", "quid"}

# ------------------------------------------------------------------------------------------ scales
# Every spelling of a scale after a number -> its power of ten ("5 million", "5mn", "5k", "5 crore"): the base
# of every set of scale words below.
SCALE_EXPONENTS = {"hundred": 2, "thousand": 3, "k": 3, "million": 6, "mn": 6, "mln": 6, "mio": 6, "m": 6,
                   "billion": 9, "bn": 9, "bln": 9, "b": 9, "trillion": 12, "tn": 12, "trn": 12,
                   "lakh": 5, "crore": 7}
# The scale words spelled in full, smallest first: written numbers ("two hundred", "three million") use these.
SCALE_WORDS = ("hundred", "thousand", "million", "billion", "trillion")
# The single letters that scale a number glued to it ("3.2m", "100M", "5k"); spaced, only with a currency.
SCALE_LETTERS = tuple(w for w in SCALE_EXPONENTS if len(w) == 1)
# The other spellings of a scale word: abbreviations and the Indian scales ("mn", "bn", "lakh").
SCALE_ABBREVIATIONS = tuple(w for w in SCALE_EXPONENTS if len(w) > 1 and w not in SCALE_WORDS)
# The scales a table states and a derivation writes ("in millions", "$1.2 million"), by value.
SCALE_NAMES = {10.0 ** SCALE_EXPONENTS[w]: w for w in SCALE_WORDS[1:4]}
# The scales a table's whole numeric cell may end in ("1.2 bn", "300k").
CELL_SCALES = (*SCALE_LETTERS[:2], "mn", "bn", *SCALE_NAMES.values())

# ------------------------------------------------------------------------------------------ number words
# The number words zero to nineteen, in order: a word's index is its value.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
# The tens, twenty to ninety, in order.
TENS_WORDS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
# The ordinal words first to ninth, in order: a word's index plus one is its number ("twenty-first" is no number;
# "third quarter" is the third).
ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
# The suffixes of an ordinal in digits ("3rd", "21st", "December 31st").
ORDINAL_SUFFIXES = ("st", "nd", "rd", "th")
# Percent and basis points glued to a number ("5pct", "25bps"); spaced forms are `numbers.lexicon`'s patterns.
PERCENT_SUFFIXES = ("percent", "pct", "pc")
BASIS_POINT_SUFFIXES = ("bp", "bps")

# ------------------------------------------------------------------------------------------ units and things
# Physical units glued to a number ("5kg", "20MW"), case-sensitive (MW megawatt, mW would be milliwatt), mapped
# to one spelling. "m" is million (a scale), never metres; "mm" is million only next to a currency.
UNITS = {u: u for u in _words(
    "mg g kg t kt Mt Gt lb lbs oz dwt TEU mm cm km ft nm µm m2 m3 km2 m² m³ km² ha sqm sqft ml cl l bbl boe mcf "
    "gal cc W kW MW GW TW Wh kWh MWh GWh TWh kV V mAh Hz kHz MHz GHz kB KB MB GB TB PB kbps Mbps Gbps mph kph "
    "ms sec min mins h hr hrs yr yrs fps x °C °F ° tCO2 tCO2e ktCO2e MtCO2e"
)} | {"μm": "µm", "mw": "MW", "kw": "kW", "gw": "GW", "kwh": "kWh", "mwh": "MWh", "gwh": "GWh", "KG": "kg",
      "Kg": "kg", "KM": "km", "mL": "ml", "mt": "t", "MT": "t", "tonnes": "t", "Mbit": "Mbps"}
# A video's lines before a glued "p" ("1080p", "720p@30fps"): a resolution, read as its lines with the unit "p";
# other integers before a "p" ("30p", the "50p" of pence) stay identifiers.
VIDEO_LINES = frozenset((144, 240, 360, 480, 576, 720, 1080, 1440, 2160, 4320))
# A bare integer in the year range followed by one of these counts things rather than naming a year.
COUNT_NOUNS = _words(
    "employees people persons workers staff jobs positions personnel members units shares tonnes tons "
    "metres meters square cubic kilometres kilometers km hectares barrels cars vehicles trucks stores shops "
    "outlets restaurants customers clients users subscribers households homes apartments flats rooms beds "
    "sites locations branches companies firms machines aircraft planes ships vessels phones handsets devices "
    "pieces items products contracts patients students children copies titles kg kilograms mw megawatts "
    "points times pixels")
# The count nouns that measure rather than count: "1.5 tonnes" may well be a decimal.
MEASURE_NOUNS = _words(
    "tonnes tons metres meters square cubic kilometres kilometers km hectares barrels kg kilograms mw megawatts "
    "points times")
# ... and the others, of indivisible things: "1.500 employees" can only be 1500, nobody counts 1.5 employees.
DISCRETE_NOUNS = COUNT_NOUNS - MEASURE_NOUNS
# Count nouns after a figure that name no things counted: "5 points", "3 times", "1,000 shares", "20 units".
UNCOUNTED_NOUNS = frozenset(("points", "times", "shares", "units"))
# What a figure in running text counts when one of these follows it ("2,477 hospitals"; `context.binding`).
COUNTED_NOUNS = COUNT_NOUNS - UNCOUNTED_NOUNS
# Words ending in "s" that are no plural noun, so no count after a figure ("5 is", "5 versus 6", "5 plus").
NOT_PLURALS = frozenset(("is", "was", "has", "as", "thus", "plus", "versus", "across", "less", "unless", "its",
                         "this"))
# The words after a figure that make it no count of things: no plurals, money, units, scales and uncounted nouns.
NOT_COUNTED_WORDS = (NOT_PLURALS | MONEY_NOUNS | {"points", "basis", "percent"} | UNCOUNTED_NOUNS
                     | {f"{w}s" for w in SCALE_WORDS[1:4]})
# The nouns of a length of time (stems): "20 years" and "20 minutes" are different figures, "25 countries" is
# no duration.
DURATIONS = frozenset(("second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade", "century"))
# The nouns of "per <unit>" after an amount ("$2.41 per share", "$15/hour", "$80 a barrel"): an amount per unit.
PER_UNIT_NOUNS = ("share", "unit", "hour", "hr", "day", "week", "month", "year", "person", "employee", "head",
                  "capita", "ton", "tonne", "barrel", "boe", "mwh", "kwh", "user", "subscriber", "customer", "store",
                  "sqft", "square")
# The words that may qualify a share in "per diluted share".
PER_UNIT_QUALIFIERS = ("diluted", "basic", "common", "ordinary")
# Names of an amount per share said as one word ("EPS of $2.41"): a figure with this subject is per unit.
PER_UNIT_NAMES = frozenset(("eps", "dps", "arpu"))

# ------------------------------------------------------------------------------------------ hedges and bounds
# Single words that hedge the number right after them ("about 25%"): the base of every hedge set below.
HEDGE_WORDS = frozenset(("about", "approximately", "approx", "around", "roughly", "nearly", "almost", "some"))
# Every hedge right before a figure (`numbers.precision`: it widens what the figure covers), phrases and signs
# included; "more than" is a bound, not a hedge.
HEDGES = (*sorted(HEDGE_WORDS), "circa", "estimated", "approx.", "ca.", "close to", "an estimated", "~", "≈",
          "just over", "just under")
# Words before a bare four-digit integer that make it an amount, not a year: hedges and bounds ("about 2000",
# "over 2000", "more than 2000", "exactly 2000"; `numbers.english`).
APPROX_WORDS = HEDGE_WORDS | {"over", "than", "exactly"}
# Adverbs of degree between a verb of change and its figure ("rose sharply by 20%").
DEGREE_ADVERBS = frozenset(("sharply", "significantly", "slightly", "modestly", "strongly"))
# What may stand between a verb of change and its figure (`context.binding`): "grew by 20%", "rose about 5%",
# "fell nearly 7.5%", "rose a further 3%".
CHANGE_GAP_WORDS = (HEDGE_WORDS | DEGREE_ADVERBS
                    | {"by", "over", "more", "than", "less", "just", "an", "a", "another", "further"})

# ------------------------------------------------------------------------------------------ change
# Verbs (and words) of a rise right before a figure: "grew 20%", "up 3%" (`context.binding`, `verdicts`).
RISE = ("rose", "rise", "rises", "rising", "risen", "grew", "grow", "grows", "growing", "grown", "increased",
        "increase", "increases", "increasing", "up", "gained", "gain", "gains", "climbed", "climb", "jumped",
        "jump", "improved", "improve", "expanded", "expand", "advanced", "surged", "soared", "higher", "added",
        "boosted", "raised", "accelerated")
# ... of a fall: "fell 7.5%", "down 3%".
FALL = ("fell", "fall", "falls", "falling", "fallen", "declined", "decline", "declines", "declining",
        "decreased", "decrease", "decreases", "decreasing", "down", "dropped", "drop", "drops", "lost", "slipped",
        "slid", "contracted", "contract", "shrank", "shrunk", "reduced", "lower", "lowered", "cut", "plunged",
        "tumbled", "sank", "eased", "weakened", "deteriorated")
# A word before a figure -> the direction it states (+1 a rise, -1 a fall).
DIRECTION_BEFORE = {**dict.fromkeys(RISE, 1), **dict.fromkeys(FALL, -1)}
# Nouns that name a change as a figure's subject ("the increase in revenue was $5 million"): a rise, a fall, or
# either, by the figure's own sign ("the change in costs was -6.7%", "increase/(decrease)").
RISE_NOUNS = frozenset(("increase", "growth", "rise", "improvement"))
FALL_NOUNS = frozenset(("decrease", "decline", "drop", "fall", "reduction"))
EITHER_NOUNS = frozenset(("change", "variance", "movement"))
# Nouns of change that name a table's column ("Increase (Decrease)", "Change"): a subject, unlike the verbs
# ("gain" and "loss" too, though alone they state no sign: "a gain on the sale", "net loss").
CHANGE_NOUNS = RISE_NOUNS | FALL_NOUNS | {"gain", "loss", "change"}
# A word right after a figure -> the direction it states: "a 5% increase", "20% growth", "3% lower".
DIRECTION_AFTER = {**dict.fromkeys(RISE_NOUNS | {"gain", "jump", "higher", "up"}, 1),
                   **dict.fromkeys(FALL_NOUNS | {"loss", "lower", "down"}, -1)}

# ------------------------------------------------------------------------------------------ subjects and clauses
# Verbs of reporting and linking, and words of no subject, near a figure ("revenue totaled", "reported",
# "respectively", "mainly"): never its subject (stems).
REPORTING_WORDS = frozenset((
    "yield", "yielding", "yielded", "reach", "reached", "reaching", "totaled", "totalled", "totaling", "amount",
    "amounted", "stood", "stand", "came", "come", "report", "reported", "post", "posted", "record", "recorded",
    "deliver", "delivered", "generate", "generated", "generating", "result", "resulted", "resulting", "compare",
    "compared", "comparing", "versus", "respectively", "period", "expect", "expected", "see", "saw", "said", "say",
    "says", "note", "noted", "mainly", "primarily", "further", "another"))
# The words of a figure's own unit (stems: "basis" is "basi"): never its subject.
UNIT_STEMS = frozenset(("percent", "percentage", "point", "basi", "bps", "bp", "dollar", "euro", "pound", "usd",
                        "eur", "gbp", "rmb", "cent"))
# Words after a figure that place it in the year before the one its sentence names ("compared with $1.4 billion
# a year earlier"; `context.binding`).
PRIOR_YEAR_PHRASES = ("a year earlier", "a year before", "a year ago", "one year earlier", "the year before",
                      "the prior year", "the previous year", "the preceding year", "last year", "prior-year")
# Verbs of change, reporting and linking, hedges, scale and unit words, the words that place a figure a year
# earlier: never a figure's subject (stems; the verbs of change that are also nouns, "increase", stay: they name a
# table's column). "about" is a stop word instead.
NOT_SUBJECT_WORDS = frozenset((*(w for w in (*RISE, *FALL) if w not in CHANGE_NOUNS),
                               *REPORTING_WORDS, *(HEDGE_WORDS - {"about"}), "approximate",
                               *SCALE_WORDS[1:], "mn", "bn", *UNIT_STEMS,
                               *(w for p in PRIOR_YEAR_PHRASES for w in p.split())))
# Qualifiers that name another measure of the same thing (stems): a figure qualified by one side is not stated by a
# number qualified by the other side alone ("GAAP EPS" vs "adjusted EPS"; `verdicts.placement`).
QUALIFIER_PAIRS: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset({"gaap"}), frozenset({"adjusted", "non-gaap", "underlying"})),
    (frozenset({"basic"}), frozenset({"diluted"})),
    (frozenset({"gross"}), frozenset({"net"})),
    (frozenset({"operating"}), frozenset({"total"})),
    (frozenset({"organic"}), frozenset({"reported"})),
)
# The words that end a figure's clause (besides punctuation): "Revenue grew 20% while costs grew 25%".
CLAUSE_WORDS = ("while", "whereas", "but", "and", "compared", "versus", "vs", "against", "which", "although",
                "though", "whilst")
# Stop words: no content word of a context (`context.words`).
STOP_WORDS = frozenset((
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "but", "as", "is",
    "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "than", "then",
    "there", "their", "they", "we", "our", "us", "you", "your", "he", "she", "his", "her", "i", "me", "my",
    "will", "would", "shall", "should", "can", "could", "may", "might", "do", "does", "did", "has", "have",
    "had", "not", "no", "so", "up", "down", "over", "under", "about", "into", "out", "per", "also", "which",
    "who", "whom", "what", "when", "where", "while", "during", "after", "before", "year", "years", "quarter",
    "quarters", "month", "months", "ended", "ending", "end", "total",
))
# What names a subject ("Total", "Net sales for the year") keeps "total": the stop words of a figure's subject.
SUBJECT_STOP_WORDS = STOP_WORDS - {"total"}

# ------------------------------------------------------------------------------------------ calendar
# The month names, January first (`numbers.calendar` derives the abbreviations: "Dec", "Sept").
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")
# Words before a hyphen that make the number after it a date, not an identifier: "mid-2010", "fiscal-2019".
HYPHEN_TIME_WORDS = _words("mid end early late pre post start year fiscal calendar full")
# The length of an interval ended on a day, in months ("three months ended", "12 months ended") -> months.
SPAN_MONTHS = {"three": 3, "six": 6, "nine": 9, "twelve": 12, "3": 3, "6": 6, "9": 9, "12": 12}
# ... in weeks ("13 weeks ended", "fifty-two weeks ended") -> the months they stand for.
SPAN_WEEKS = {"thirteen": 3, "twenty-six": 6, "thirty-nine": 9, "fifty-two": 12, "fifty-three": 12,
              "13": 3, "26": 6, "39": 9, "52": 12, "53": 12}

# ------------------------------------------------------------------------------------------ operations
# The words (stems, `context.words`) that name an operation near a computed figure (`verdicts.derivations`).
# A sum: "total", "combined".
SUM_WORDS = frozenset(("total", "combined", "sum", "together", "aggregate", "altogether", "overall"))
# An average: "average", "averaged", "mean".
AVERAGE_WORDS = frozenset(("average", "averaged", "averaging", "mean", "avg"))
# A share of a whole: "share", "accounted for".
SHARE_WORDS = frozenset(("share", "percentage", "proportion", "portion", "accounted", "account", "represented",
                         "represent", "comprised", "comprise", "made"))
# A ratio: "ratio", "3 times".
RATIO_WORDS = frozenset(("ratio", "time", "fold", "multiple"))
# A difference between two items: "difference", "gap".
DIFFERENCE_WORDS = frozenset(("difference", "gap", "spread"))
# A difference between two items rather than a change over periods: "$5 million more than Europe".
COMPARED_WORDS = frozenset(("more", "less", "higher", "lower", "exceed", "exceeded", "greater", "smaller"))

# ------------------------------------------------------------------------------------------ data keys
# A record's fields that name what it is about (`context.table_data`): its row label. Keys as `_`-joined lower-case
# parts ("dt_txt", "team_name", "player_name").
IDENTIFYING_KEYS = _words("name title label category type date time datetime dt_txt day year month period season "
                          "country city team team_name team_city player player_name first_name second_name "
                          "last_name entity location region state place station subject")
# A record of two fields that names one value ({"name": "Size", "value": "6.1 inches"}, {"key": ..., "value": ...}):
# the name is the value's attribute, a column of the record it stands in, not an entity of its own.
PAIR_NAME_KEYS = _words("name key label")
PAIR_VALUE_KEYS = _words("value val")
# A name/value record's value that says the thing named is absent ({"name": "3.5mm jack", "value": "No"}).
ABSENT_VALUES = _words("no none false n/a na absent")
# A field that identifies something and states no figure ("id": 802, "icon": "03n", "img": a URL).
IDENTIFIER_KEYS = _words("id uuid guid icon img image url href link code key hash sku isbn")
# Abbreviations in keys and headers, each as the words a text writes (`context.keys`): "FG_PCT" is "field goal
# percent", "wind_deg" the wind's "direction". One entry a word part; a user's glossary adds to it (`--glossary`).
KEY_WORDS = {
    "pct": "percent", "perc": "percent", "pc": "percent", "pts": "points", "pt": "points", "reb": "rebounds",
    "oreb": "offensive rebounds", "dreb": "defensive rebounds", "ast": "assists", "stl": "steals",
    "blk": "blocks", "tov": "turnovers", "pf": "personal fouls", "fg": "field goals",
    "fgm": "field goals made", "fga": "field goals attempted", "ft": "free throws", "ftm": "free throws made",
    "fta": "free throws attempted", "fg3": "three point", "fg3m": "three point made",
    "fg3a": "three point attempted", "3p": "three point", "3pt": "three point", "3pm": "three point made",
    "3pa": "three point attempted", "pointers": "point", "pointer": "point",
    "qtr": "quarter", "qtr1": "first quarter",
    "qtr2": "second quarter", "qtr3": "third quarter", "qtr4": "fourth quarter", "min": "minimum",
    "max": "maximum", "avg": "average", "temp": "temperature", "hum": "humidity", "deg": "direction degrees",
    "dt": "date", "txt": "", "qty": "quantity", "amt": "amount", "yr": "year", "yrs": "years", "pop": "population",
    "gdp": "gdp", "mah": "mah battery", "gb": "gb", "mb": "mb", "hz": "hz", "mp": "megapixel", "ram": "ram memory",
    "rom": "storage", "num": "number", "no": "number", "cnt": "count", "tot": "total", "pres": "pressure",
    "vis": "visitor", "gp": "games played", "wins": "wins", "ppg": "points per game",
    "mins": "minutes", "sec": "seconds", "secs": "seconds", "hr": "hours", "hrs": "hours", "km": "km",
    "kmh": "km per hour", "mph": "miles per hour", "ms": "metres per second",
}

# ------------------------------------------------------------------------------------------ aggregates
# The words (stems) that name an aggregate over a column or a list of records (`verdicts.aggregates`): "peaked at
# 9.1°C", "the lowest humidity", "an average of 71%", "a total of 5 goals".
MAXIMUM_WORDS = frozenset(("highest", "peak", "peaked", "peaking", "maximum", "max", "most", "top", "high", "best",
                           "largest", "biggest", "up"))
MINIMUM_WORDS = frozenset(("lowest", "minimum", "min", "fewest", "least", "low", "smallest", "worst", "bottom"))
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# A range stated over a column ("temperatures ranging from 2.8°C to 13.5°C", "between 1.3 and 2.7 m/s"): its
# bounds are the column's lowest and highest (`verdicts.aggregates.extreme`).
RANGE_WORDS = frozenset(("range", "ranging", "ranged", "between", "vary", "varying", "varied", "from"))
# A figure called the highest or lowest: only words that say so of a list ("a season-high 30" is no maximum here).
HIGHEST_WORDS = frozenset(("highest", "peak", "peaked", "peaking", "maximum", "max", "largest", "biggest"))
LOWEST_WORDS = frozenset(("lowest", "minimum", "min", "smallest"))
