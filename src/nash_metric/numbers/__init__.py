"""Numeric mention extraction and masking: NASH's modal separation step (DESIGN.md §1.1).

One job per module: ``mention`` (the record, the mask token, masking, the overlap rule; imports nothing
else from the package), ``english`` (digits and written English; the extraction rules), ``chinese``
(Chinese numerals), ``extract`` (runs the readers and resolves overlaps).
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
