"""Keys and headers as the words a text writes: `wind_speed`, `FG3_PCT`, `ramGb` and `homeScore.period1` split
into their parts, and each abbreviation expanded from one vocabulary (`vocabulary.en.KEY_WORDS`: "pct" is
"percent", "reb" "rebounds"), to which a user's glossary adds
(`--glossary`, `glossary=`; `common.glossary`): a key or header, or a
part of one, mapped to the words it means.

A glossary entry for a whole key ("FG3_PCT": "three point percentage") wins over its parts'.
"""

from __future__ import annotations

import re
from types import MappingProxyType

from ..common.glossary import Glossary
from ..vocabulary.en import KEY_WORDS

__all__ = ["NO_GLOSSARY", "Glossary", "key_words"]

# A "%" is a part of its own: "FG%" reads "field goals percent", a column of percentages.
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+[A-Za-z]?(?![a-z])|[^\W\d_]+|%")
_SPLIT = re.compile(r"[\s_.\-/:\[\]()]+")
NO_GLOSSARY: Glossary = MappingProxyType({})  # no entries of a user


def key_words(text: str, glossary: Glossary = NO_GLOSSARY) -> str:
    """`text` (a key, a key path or a header) as words, lower case: parts split at `_ . - /`, case changes and
    digits ("FG3_PCT" -> "field goals 3 percent"; "fg3" is its own entry: "three pointers"), abbreviations
    expanded. A text with no key in it ("Fixed Price") comes back lower-cased."""
    if not text:
        return ""
    whole = glossary.get(text) or glossary.get(text.lower())
    if whole is not None:
        return whole.lower()
    out: list[str] = []
    for chunk in _SPLIT.split(text):
        if not chunk:
            continue
        lowered = chunk.lower()
        found = glossary.get(chunk) or glossary.get(lowered) or KEY_WORDS.get(lowered)
        if found is not None:
            out.append(found)
            continue
        for part in _PARTS.findall(chunk):
            low = part.lower()
            words = glossary.get(part) or glossary.get(low)
            out.append(words if words is not None else "percent" if part == "%" else KEY_WORDS.get(low, low))
    return " ".join(word for word in out if word).lower()
