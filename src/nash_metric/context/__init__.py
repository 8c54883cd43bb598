"""What a number means where it stands: tables read by row and column, the words and periods around a figure.

Text-level (no model): the support verdict's second step reads it (`pipeline.support`).
"""
