"""SummEdits' reference choices, shared by the evaluation and the `nash` flags (light: no numpy)."""

REFERENCE_MODES = ("original", "doc")  # score the summary against the original summary, or the source document
REFERENCE_CHOICES = (*REFERENCE_MODES, "both")
DEFAULT_REFERENCE = "both"
