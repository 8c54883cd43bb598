"""The vocabulary: every word list the readers use, one module per language (`en`, `zh`).

The number readers (`numbers`), the context and binding readers (`context`) and the verdicts read words against
these sets; a word list is spelled once here, and a set that overlaps another (the hedges, the scale words, the
nouns of change) is derived from a base set. Plain data only: this room imports nothing of nash_metric.
"""
