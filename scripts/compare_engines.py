"""Old engine against new on the same texts: extraction and every output field, for every configuration.

A refactor must not move a score. Dump the code before it and the code after it, then compare:

    git archive <old-commit> --prefix=old/ | tar -x -C /tmp
    python scripts/compare_engines.py dump /tmp/old/src old.pkl
    python scripts/compare_engines.py dump src new.pkl
    python scripts/compare_engines.py compare old.pkl new.pkl

The dump reads ../shared/data (Financial PhraseBank, annual-report sentences, STS-B dev, SummEdits summaries) plus
edge cases: extraction and masking with both readers and the comparison conditions of every distinct text, and
for 14 configurations (both backbones; comparisons, threshold 'auto' and 0.5, bertscore_idf, the paper reader,
one pass, references IDF, rescaling) every output field of 300 pairs, a multi-reference call, `at_threshold` and
`explain`. The comparison is exact (floats bit for bit) and lists hashcode differences apart.
"""

from __future__ import annotations

import csv
import json
import math
import pickle
import sys
import warnings
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
EDGE_CASES = [
    "", "   ", "1.2.3", "1e308", "10^30", "1e400", "营收增长了百分之三十五，达到3億元。", "Q3 2010 vs FY2019",
    "from 2018 to 2020", "2018-19", "'19", "March 3, '21", "12/31/19", "31.12.2019", "5-10%", "$3.5bn", "(1,234)",
    "one hundred and twenty-three", "a dozen", "twenty twenty", "1990s", "the 90s", "10:30 am", "3/4 of", "-5 °C",
    "EUR74 .8 m", "5.2 %", "nine-month period", "H1 2020", "fiscal 2018", "2019/20", "Note 12", "ISO 9001",
    "above 200", "at least 3 times", "between 1 and 2", "more than half", "up 4 % to EUR 3.1 mn", "1st", "21st century",
]
CONFIGS: dict[str, dict[str, Any]] = {
    "sentence": {"backend": "sentence"}, "token": {"backend": "token"},
    "sentence_cmp": {"backend": "sentence", "comparisons": True},
    "token_cmp": {"backend": "token", "comparisons": True},
    "sentence_auto": {"backend": "sentence", "threshold": "auto"},
    "token_bsidf": {"backend": "token", "bertscore_idf": True},
    "sentence_paper": {"backend": "sentence", "numbers": "paper"},
    "token_paper": {"backend": "token", "numbers": "paper"},
    "sentence_onepass": {"backend": "sentence", "text_channel": "one-pass"},
    "token_onepass": {"backend": "token", "text_channel": "one-pass"},
    "sentence_idfref": {"backend": "sentence", "idf": "references"},
    "token_rescale": {"backend": "token", "rescale_with_baseline": True},
    "sentence_rescale": {"backend": "sentence", "rescale_with_baseline": True},
    "token_tau05": {"backend": "token", "threshold": 0.5},
}


def _texts() -> tuple[list[str], list[str], list[str]]:
    """(every distinct text, predictions, references) from the shared data and the edge cases."""
    with open(DATA / "financial_phrasebank/all-data.csv", encoding="latin-1", newline="") as f:
        phrasebank = [row[1] for row in csv.reader(f)]
    reports = (DATA / "annual_reports/tatqa_dev_sentences.txt").read_text(encoding="utf-8").splitlines()
    stsb = [s for line in (DATA / "stsb/sts-dev.tsv").read_text(encoding="utf-8").splitlines()
            if len(fields := line.split("\t")) >= 7 for s in fields[5:7]]
    summaries = [r[key] for path in sorted((DATA / "summedits").glob("*.json"))
                 for r in json.loads(path.read_text(encoding="utf-8")) for key in ("summary", "original_summary")]
    texts = list(dict.fromkeys(phrasebank + reports + stsb + summaries + EDGE_CASES))
    predictions = phrasebank[:120] + reports[:100] + stsb[0:80:2] + EDGE_CASES[:20]
    references = phrasebank[120:240] + reports[100:200] + stsb[1:80:2] + EDGE_CASES[20:40]
    return texts, predictions, references


def dump(src: str, out: str) -> None:
    sys.path.insert(0, src)
    import nash_metric
    from nash_metric import NASH
    from nash_metric.numbers import extract_numbers
    from nash_metric.numbers.extract import masked_for_scoring

    assert Path(nash_metric.__file__).resolve().is_relative_to(Path(src).resolve()), nash_metric.__file__
    warnings.simplefilter("ignore")
    try:
        from nash_metric.numbers.comparisons import find_constraints
    except ImportError:  # before 0.3
        from nash_metric.comparisons import find_constraints
    texts, predictions, references = _texts()
    extraction = {(reader, t): (repr(extract_numbers(t, reader)), masked_for_scoring(t, reader))
                  for reader in ("full", "paper") for t in texts}
    extraction.update({("cmp", t): repr(find_constraints(t, extract_numbers(t))) for t in texts})
    loaded: dict[str, NASH] = {}
    scores = {}
    for name, options in CONFIGS.items():
        backend = options["backend"]
        loaded.setdefault(backend, NASH(backend=backend, batch_size=16))
        scorer = loaded[backend].with_options(**{k: v for k, v in options.items() if k != "backend"})
        out_ = scorer.score(predictions, references)
        several = [[b, a] for a, b in zip(predictions[:30], references[:30])]
        scores[name] = {"out": out_.to_dict(), "multi": scorer.score(predictions[:30], several).to_dict(),
                        "at": out_.at_threshold(0.6).to_dict(), "hashcode": scorer.hashcode,
                        "explain": [scorer.explain(a, b) for a, b in list(zip(predictions, references))[::25]]}
        print(name, scorer.hashcode, file=sys.stderr)
    Path(out).write_bytes(pickle.dumps({"extract": extraction, "scores": scores}))


def _differences(old: Any, new: Any, path: list[Any], found: dict[str, list]) -> None:
    import numpy as np

    if isinstance(old, dict) and isinstance(new, dict):
        if set(old) != set(new):
            found["keys"].append((path, sorted(map(str, set(old) ^ set(new)))))
        for key in set(old) & set(new):
            _differences(old[key], new[key], [*path, key], found)
    elif isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            _differences(a, b, [*path, i], found)
    elif isinstance(old, np.ndarray) or isinstance(new, np.ndarray):
        if not np.array_equal(np.asarray(old), np.asarray(new), equal_nan=True):
            found["values"].append((path, old, new))
    elif not _same(old, new):
        found["hashcodes" if "hashcode" in map(str, path) else "values"].append((path, old, new))


def _same(old: Any, new: Any) -> bool:
    both_nan = isinstance(old, float) and isinstance(new, float) and math.isnan(old) and math.isnan(new)
    return bool(old == new) or both_nan


def compare(old_path: str, new_path: str) -> int:
    old, new = (pickle.loads(Path(p).read_bytes()) for p in (old_path, new_path))
    found: dict[str, list] = {"keys": [], "values": [], "hashcodes": []}
    _differences(old, new, [], found)
    mentions = sum(v[0].count("NumericMention(") for k, v in old["extract"].items() if k[0] == "full")
    print(f"{len(old['extract'])} extraction entries ({mentions} full-reader mentions), "
          f"{len(old['scores'])} configurations")
    for kind, items in found.items():
        print(f"{kind} differing: {len(items)}")
        for item in items[:10]:
            print("  ", repr(item)[:300])
    return 1 if found["keys"] or found["values"] else 0


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "dump":
        dump(*args)
    else:
        sys.exit(compare(*args))
