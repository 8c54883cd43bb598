"""What a reader looks at: the method in words, explanations, heat maps.

    method        the method in words, once (quoted by the README, the card, the Space)
    explanation   `explain`: every step of a pair's score, read from the scoring call itself
    explain_text  terminal rendering of an explanation
    figure_rows   figure verdicts told to a person (line, table cell, snippet, summary): `nash check` and the Space
    plot          the alignment heat map
"""
