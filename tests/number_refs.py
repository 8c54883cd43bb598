"""A `NumberRef` of a source as the verdict writes it, for tests that hand-make figure verdicts: its text, span and
value, and its table cell's labels as the library's own reader gives them (`context.words.mention_contexts`)."""

from __future__ import annotations

from nash_metric.context.words import mention_contexts
from nash_metric.numbers import extract_numbers


def number_ref(source: str, needle: str, value: float = 0.0) -> dict:
    start = source.index(needle)
    end = start + len(needle)
    mentions = [m for m in extract_numbers(source) if m.value is not None]
    label = next((c.label for m, c in zip(mentions, mention_contexts(source, mentions))
                  if m.start <= start and end <= m.end), None)
    cell = None if label is None else {"section": label.section, "row": label.row, "column": label.column}
    return {"text": needle, "start": start, "end": end, "value": value, "cell": cell}
