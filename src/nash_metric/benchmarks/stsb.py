"""STS Benchmark check: NASH must keep general semantics (Spearman/Pearson with gold, Base vs +NASH).

Reads the original STS-B TSV release (``sts-dev.tsv``/``sts-test.tsv``): tab-separated, gold score 0-5 in
column 5, the two sentences in columns 6 and 7, optional source columns after them; no quoting (sentences
contain quote characters). A line that does not fit fails with its line number.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .registry import ScorerSource, scorer_factory, with_baseline


@dataclass(frozen=True)
class STSPair:
    line: int
    score: float
    sentence1: str
    sentence2: str


def read_stsb(path: str | Path, limit: int | None = None) -> list[STSPair]:
    """Pairs of an STS-B TSV file in file order (``limit``: the first N)."""
    from ..common.io import InputFileError, read_text

    path = Path(path)
    pairs: list[STSPair] = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 7:
            raise InputFileError(path, number, f"expected at least 7 tab-separated fields (genre, file, year, id, "
                                 f"score, sentence1, sentence2), got {len(fields)}")
        try:
            score = float(fields[4])
        except ValueError:
            raise InputFileError(path, number, f"score field (column 5) is not a number: {fields[4]!r}") from None
        if not (math.isfinite(score) and 0.0 <= score <= 5.0):
            raise InputFileError(path, number, f"score {score} outside the STS range 0-5")
        s1, s2 = fields[5].strip(), fields[6].strip()
        if not s1 or not s2:
            raise InputFileError(path, number, f"empty sentence{'1' if not s1 else '2'} (column {6 if not s1 else 7})")
        pairs.append(STSPair(number, score, s1, s2))
        if limit is not None and len(pairs) >= limit:
            break
    if not pairs:
        raise InputFileError(path, None, "no sentence pairs")
    return pairs


def correlations(pred: np.ndarray, gold: np.ndarray) -> dict[str, float]:
    from scipy.stats import pearsonr, spearmanr

    return {"spearman": float(spearmanr(pred, gold).statistic), "pearson": float(pearsonr(pred, gold).statistic)}


def run_stsb(scorer, pairs: list[STSPair], show_progress: bool = True) -> dict[str, Any]:
    """Spearman and Pearson of the baseline and of NASH against the gold scores; one scoring pass."""
    if len(pairs) < 3:
        raise ValueError(f"need at least 3 pairs for a correlation, got {len(pairs)}")
    gold = np.array([p.score for p in pairs])
    out = with_baseline(scorer).score([p.sentence1 for p in pairs], [p.sentence2 for p in pairs],
                                      show_progress=show_progress)
    with_numbers = np.array([a != 1.0 for a in out.alpha])
    # Numbers on one side only give S_num = 0 by definition: the main way NASH can lower a general-domain score.
    n_a, n_b = out.alignment.n_a[out.pair_index], out.alignment.n_b[out.pair_index]
    result: dict[str, Any] = {"pairs": len(pairs), "pairs_with_numbers": int(with_numbers.sum()),
                              "pairs_numbers_one_side": int(((n_a > 0) != (n_b > 0)).sum()),
                              "base": correlations(out.baseline, gold), "nash": correlations(out.nash, gold),
                              "threshold": out.config["threshold"]}
    if with_numbers.sum() >= 3:
        result["with_numbers"] = {"base": correlations(out.baseline[with_numbers], gold[with_numbers]),
                                  "nash": correlations(out.nash[with_numbers], gold[with_numbers])}
    return result


def results_markdown(results: dict[str, Any]) -> str:
    from ..common.reporting import markdown_table

    rows = []
    for m in ("spearman", "pearson"):
        b, n = results["base"][m], results["nash"][m]
        rows.append([f"{m.capitalize()} (all {results['pairs']} pairs)", b, n, f"{n - b:+.3f}"])
    if "with_numbers" in results:
        for m in ("spearman", "pearson"):
            b, n = results["with_numbers"]["base"][m], results["with_numbers"]["nash"][m]
            label = f"{m.capitalize()} ({results['pairs_with_numbers']} pairs with numbers)"
            rows.append([label, b, n, f"{n - b:+.3f}"])
    table = markdown_table(["STS-B", "Base", "+NASH", "Δ abs."], rows, digits=4)
    return table + f"\n\nPairs with scorable numbers on one side only (S_num = 0): {results['pairs_numbers_one_side']}"


def evaluate(scorer: ScorerSource, data: str | Path, *, limit: int | None = None,
             show_progress: bool = True) -> dict[str, Any]:
    """``nash bench stsb`` on an STS-B TSV file (``limit``: its first N pairs), as a result envelope.

    ``scorer`` is a NASH scorer or a factory ``f() -> NASH``.
    """
    from ..common.reporting import result_envelope

    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive integer, got {limit}")
    pairs = read_stsb(data, limit)
    nash = scorer_factory(scorer)()
    if show_progress:
        print(f"STS-B from {data}: {len(pairs)} pairs; model {nash.echo['model']} ({nash.backend})",
              file=sys.stderr)
    results = run_stsb(nash, pairs, show_progress=show_progress)
    config = {**nash.echo, "hashcode": nash.hashcode, "data": str(data), "limit": limit}
    return result_envelope("stsb", config, results)


def markdown(result: dict[str, Any]) -> str:
    """The table ``nash bench stsb`` prints, from ``evaluate``'s result."""
    return results_markdown(result["results"])
