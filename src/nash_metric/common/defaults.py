"""The defaults that option docs, CLI help and the method text quote, each stated once.

A leaf (no imports): `config` builds its option docs from these, so they cannot live in modules that import
`config` (the backbone's model table, calibration). Their owners re-export them; change a value here only.
"""

DEFAULT_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
DEFAULT_LAYER = 6  # all-MiniLM-L6-v2's last layer, which both backbones read for this model
# tau for (canonical model, layer): the authors' toolkit uses 0.3763 for all-MiniLM-L6-v2. A model without an
# entry calibrates tau = mu + sigma once on the built-in corpus (`backbone.models.default_threshold`).
DEFAULT_THRESHOLDS: dict[tuple[str, int], float] = {(DEFAULT_MODEL, DEFAULT_LAYER): 0.3763}
DEFAULT_TAU = DEFAULT_THRESHOLDS[(DEFAULT_MODEL, DEFAULT_LAYER)]

AUTO_CALIBRATION_TEXTS = 2000  # threshold='auto': distinct texts of a corpus that its tau is calibrated on
CALIBRATION_PAIRS = 2000  # random sentence pairs of a tau calibration (`calibrate_threshold`, `nash calibrate`)
# `perf/calibration_minimum.py` (all-MiniLM-L6-v2, the 1,004 TAT-QA annual-report sentences with a number,
# full tau 0.524, sigma 0.227; 200 random subsets per size): 95% of subsets land within 0.49 of the full tau at
# 2 sentences (2 sigma), 0.16 at 5, 0.11 at 10 and 0.07 at 20. At 20 the error stays under a third of sigma,
# inside the mu-sigma..mu+2sigma band where results are stable (docs/method.md §1.5), while a small corpus of one's own
# (and the built-in one, 98 sentences) still qualifies.
MIN_CALIBRATION_SENTENCES = 20
BASELINE_PAIRS = 10_000  # random sentence pairs of a rescale baseline (`fit_rescale_baseline`, `nash fit-baseline`)
