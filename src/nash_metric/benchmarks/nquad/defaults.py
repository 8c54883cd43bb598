"""NQuAD's defaults and choices, shared by the build, the evaluation and the `nash` flags (light: no numpy)."""

SPLITS = ("train", "test")
EVALUATION_SPLITS = (*SPLITS, "all")  # all = train + test
DEFAULT_SPLIT = "test"
TEST_FRACTION = 0.2  # share of articles in the test split
ANSWER_RTOL = 0.1  # largest relative gap between the headline numeral and its answer
NUMERAL_WEIGHT = 1.0  # lambda of the numeral-aware variant
DEFAULT_LABEL = "nash-metric sample (not the official NQuAD data)"
MASK = "[MASK]"  # the masked numeral in a question's stem (a special token of BERT vocabularies)
N_OPTIONS = 4
RELEASE_LAYOUT = "question-level release"  # the build report's source_layout of a build from the authors' release
