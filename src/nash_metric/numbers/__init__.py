"""Numeric mention extraction and masking: NASH's modal separation step (docs/method.md §1.1).

One job per module: ``mention`` (the record, the mask token, masking, the overlap rule; imports nothing
else from the package), ``normalize`` (digits of other scripts as ASCII), ``periods`` (calendar periods, their
values and distances), ``calendar`` (the one date grammar: whole dates and times, and the numerals of a date
for the digit reader), ``lexicon`` (the English readers' characters and patterns), ``numerals`` (the exact
value of a digit token), ``reading`` (what the two English readers share: the candidate, spans back to the input,
sign and currency), ``english`` (the digit reader; the extraction rules), ``written`` (written English
numbers), ``chinese`` (Chinese numerals), ``paper`` (the authors' toolkit's reader), ``extract`` (runs the
readers and resolves overlaps), ``precision`` (the precision a figure was written with). Their words are the
vocabulary's (``nash_metric.vocabulary``: ``en``, ``zh``).
"""

from __future__ import annotations

from .chinese import extract_chinese_numbers, parse_chinese_number
from .extract import extract_numbers, mask_numbers
from .mention import MASK_TOKEN, NumericMention, resolve_overlaps

__all__ = [
    "MASK_TOKEN",
    "NumericMention",
    "extract_chinese_numbers",
    "extract_numbers",
    "mask_numbers",
    "parse_chinese_number",
    "resolve_overlaps",
]
