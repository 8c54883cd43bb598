"""NumFinE's defaults, shared by the build, the evaluation and the `nash` flags (light: `nash --help` reads it)."""

K_DEFAULT = 9  # variants per unit
ALIGNMENT_ROWS = 1000  # (anchor, closest variant) pairs of the alignment check
CARD_NAME = "NumFinE"  # pretty name on the dataset card
CARD_LICENSE = "other"  # Hub licence id of a build; a build should inherit its source's
