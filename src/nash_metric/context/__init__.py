"""What a number means where it stands: tables read by row and column, what a figure is bound to (its row,
column, period, subject noun, direction of change), the words around it.

Text-level (no model): the figure verdict's second step reads it (`verdicts.placement`).
"""
