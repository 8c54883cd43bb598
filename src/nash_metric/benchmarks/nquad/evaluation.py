"""NQuAD evaluation: pick the option whose body sentence is most similar to the stem.

Systems (each scores sim(stem, option sentence) for the 4 options and picks the highest):

* string baselines of the paper's Table 3, from ``textdistance`` at character level (Chinese has no
  spaces): cosine, overlap coefficient, Monge-Elkan (inner Damerau-Levenshtein), MLIPNS. They see the
  stem without the ``[MASK]`` string. textdistance's Monge-Elkan divides by the stem length twice; the
  stem is the first argument, so that factor is constant within a question and the ranking is unchanged.
* the NASH scorer with the sentence backend (its baseline is the embedding cosine) and with the token
  backend (its baseline is BERTScore F1 on the same model), both on the stem as written (``[MASK]`` is a
  special token of BERT vocabularies).
* numeral-aware variants: score + λ·A(v), with A(v) = mean over the other numbers u of the stem of the
  magnitude similarity 1 / (1 + |v-u| / (1 + (|v|+|u|)/2)) (docs/method.md §1.3) and v the option value; A = 0
  when the stem holds no such number (the variant then equals its base). "all" uses every other stem
  number; "same kind" only those of the option's kind (percentage, monetary, temporal, quantity), since
  a month in the headline says nothing about the size of a percentage. An option's kind is read with the
  option in the stem's blank (the release's options are bare numerals: ``35`` in ``增[MASK]%`` is a percentage).

Accuracy gives fractional credit on ties (1/k when the answer is among k tied best options, the
expectation of a random tie-break), so constant scorers sit at chance (0.25) instead of 0 or 1. Several
options often share one body sentence; the "answer sentence (ceiling)" row scores 1 for every option in the
answer's sentence, the best any sim(stem, sentence) picker can reach.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...common.protocols import bootstrap_ci
from ...pipeline.alignment import magnitude_similarity
from ..registry import ScorerSource, scorer_factory, with_baseline
from .construction import DIFF_BINS, diff_bin
from .defaults import DEFAULT_LABEL, DEFAULT_SPLIT, MASK, N_OPTIONS, NUMERAL_WEIGHT
from .text import mention_at, mentions


def load_split(data: str | Path, split: str) -> list[dict[str, Any]]:
    """Rows of ``data/data/{split}-*.parquet`` (or ``data/{split}-*.parquet``), validated; ``all`` = both."""
    import pyarrow.parquet as pq

    if split == "all":
        return [*load_split(data, "train"), *load_split(data, "test")]
    data = Path(data)
    if not data.is_dir():
        raise FileNotFoundError(f"{data}: no such dataset folder")
    files = sorted(glob.glob(str(data / "data" / f"{split}-*.parquet"))) or \
        sorted(glob.glob(str(data / f"{split}-*.parquet")))
    if not files:
        raise FileNotFoundError(f"{data}: no {split}-*.parquet under data/ (build it with `nash build-data nquad`)")
    rows = []
    for f in files:
        for i, row in enumerate(pq.read_table(f).to_pylist()):
            _check_row(row, f"{f} row {i}")
            rows.append(row)
    return rows


def _check_row(row: dict[str, Any], where: str) -> None:
    for field in ("stem", "options", "option_values", "option_sentences", "answer"):
        if field not in row or row[field] is None:
            raise ValueError(f"{where}: missing field {field!r}")
    for field in ("options", "option_values", "option_sentences"):
        if len(row[field]) != N_OPTIONS:
            raise ValueError(f"{where}: field {field!r} has {len(row[field])} entries, expected {N_OPTIONS}")
    if not 0 <= row["answer"] < N_OPTIONS:
        raise ValueError(f"{where}: answer {row['answer']} outside 0..{N_OPTIONS - 1}")


def tie_credit(scores: np.ndarray, answer: int) -> float:
    """1/k when the answer is among the k best options (scores rounded to 12 decimals), else 0."""
    s = np.round(np.asarray(scores, dtype=np.float64), 12)
    best = s == s.max()
    return float(best[answer]) / float(best.sum())


def string_metrics() -> dict[str, Callable[[str, str], float]]:
    import textdistance

    return {
        "cosine (char)": textdistance.Cosine(qval=1).similarity,
        "overlap (char)": textdistance.Overlap(qval=1).similarity,
        "Monge-Elkan (char)": textdistance.MongeElkan(qval=1).similarity,
        "MLIPNS (char)": textdistance.MLIPNS(qval=1).similarity,
    }


def stem_agreement(rows: Sequence[dict[str, Any]], same_kind: bool, mask: str = MASK) -> np.ndarray:
    """A(v) per (question, option): mean magnitude similarity of v to the stem's other numbers, else 0."""
    out = np.zeros((len(rows), N_OPTIONS))
    for i, row in enumerate(rows):
        stem = row["stem"]
        k = stem.find(mask)
        others = [m for m in mentions(stem)
                  if m.value is not None and not (k >= 0 and m.start < k + len(mask) and m.end > k)]
        for j, (text, v) in enumerate(zip(row["options"], row["option_values"], strict=True)):
            kind = _kind(stem, k, mask, text)
            us = [m.value for m in others if not same_kind or m.kind == kind]
            if us:
                out[i, j] = float(magnitude_similarity(v, np.asarray(us, dtype=np.float64)).mean())
    return out


def _kind(stem: str, k: int, mask: str, option: str) -> str | None:
    """The option's kind as the reader sees it in the stem's blank at ``k`` (-1: none), else read alone."""
    if k >= 0 and (seen := mention_at(stem[:k] + option + stem[k + len(mask):], k, k + len(option))):
        return seen.kind
    found = [m for m in mentions(option) if m.value is not None]
    return found[0].kind if len(found) == 1 else None


def evaluate_questions(rows: Sequence[dict[str, Any]], scorers: Sequence[Any], numeral_weight: float = NUMERAL_WEIGHT,
                       show_progress: bool = True) -> dict[str, Any]:
    """Per-system accuracy (with a bootstrap 95 % CI) and accuracy per option–answer difference bin."""
    from tqdm.auto import tqdm

    if not rows:
        raise ValueError("no questions to evaluate")
    answers = np.array([r["answer"] for r in rows])
    stems = [r["stem"] for r in rows]
    sentences = [s for r in rows for s in r["option_sentences"]]
    scores: dict[str, tuple[str, np.ndarray]] = {}
    for name, fn in string_metrics().items():
        mat = np.array([[fn(r["stem"].replace(MASK, ""), s) for s in r["option_sentences"]]
                        for r in tqdm(rows, desc=name, disable=not show_progress)])
        scores[name] = ("string", mat)
    # Ceiling of any sentence-based picker: options sharing the answer's sentence cannot be told apart.
    ceiling = np.array([[float(s == r["option_sentences"][r["answer"]]) for s in r["option_sentences"]] for r in rows])
    scores["answer sentence (ceiling)"] = ("ceiling", ceiling)
    agreement = {"all": stem_agreement(rows, same_kind=False), "same kind": stem_agreement(rows, same_kind=True)}
    for scorer in scorers:
        tag = scorer.backend
        # One call per backend: NASH encodes each unique text once.
        out = with_baseline(scorer).score([s for s in stems for _ in range(N_OPTIONS)], sentences,
                                          show_progress=show_progress)
        base = np.asarray(out.baseline).reshape(len(rows), N_OPTIONS)
        nash = np.asarray(out.nash).reshape(len(rows), N_OPTIONS)
        scores[f"{scorer.backbone_name} ({tag})"] = ("embedding", base)
        scores[f"NASH ({tag})"] = ("NASH", nash)
        for variant, agree in agreement.items():
            scores[f"NASH ({tag}) + stem magnitude, {variant}"] = ("NASH numeral-aware", nash + numeral_weight * agree)
    bins = [diff_bin(r["avg_option_diff"]) for r in rows]
    results = []
    for name, (family, mat) in scores.items():
        credit = np.array([tie_credit(mat[i], answers[i]) for i in range(len(rows))])
        lo, hi = bootstrap_ci(credit, seed=0)
        per_bin = {f"[{a:g}, {b:g})": _bin_mean(credit, bins, f"[{a:g}, {b:g})") for a, b in DIFF_BINS}
        results.append({"system": name, "family": family, "accuracy": float(credit.mean()), "ci95": [lo, hi],
                        "n": len(rows), "accuracy_by_avg_option_diff": per_bin})
    bin_counts = {f"[{a:g}, {b:g})": bins.count(f"[{a:g}, {b:g})") for a, b in DIFF_BINS}
    return {"systems": results, "chance": 1.0 / N_OPTIONS, "n_questions": len(rows),
            "questions_with_stem_numbers": {k: int((a.sum(axis=1) > 0).sum()) for k, a in agreement.items()},
            "bin_counts": bin_counts}


def _bin_mean(credit: np.ndarray, bins: list[str], label: str) -> float | None:
    idx = [i for i, b in enumerate(bins) if b == label]
    return float(credit[idx].mean()) if idx else None


def results_markdown(results: dict[str, Any], label: str) -> str:
    from ...common.reporting import markdown_table

    main = markdown_table(["system", "family", "accuracy", "95% CI"],
                          [[r["system"], r["family"], r["accuracy"], f"{r['ci95'][0]:.3f}–{r['ci95'][1]:.3f}"]
                           for r in results["systems"]])
    labels = list(results["bin_counts"])
    by_bin = markdown_table(["system", *[f"{b} (n={results['bin_counts'][b]})" for b in labels]],
                            [[r["system"], *[r["accuracy_by_avg_option_diff"][b] for b in labels]]
                             for r in results["systems"]])
    return (f"NQuAD accuracy on {label}: {results['n_questions']} questions, chance = {results['chance']:.2f}; "
            f"stems holding another number: {results['questions_with_stem_numbers']['all']} "
            f"({results['questions_with_stem_numbers']['same kind']} of an option's kind).\n\n{main}\n\n"
            f"Accuracy by average option–answer difference (relative to the answer):\n\n{by_bin}\n")


# ------------------------------------------------------------------------------- benchmark entry points

def evaluate(scorer: ScorerSource, data: str | Path, *, limit: int | None = None, split: str = DEFAULT_SPLIT,
             backend: str = "auto", numeral_weight: float = NUMERAL_WEIGHT, label: str = DEFAULT_LABEL,
             show_progress: bool = True) -> dict[str, Any]:
    """``nash bench nquad`` on the folder ``data``, as a result envelope (with the data ``label``).

    ``scorer`` is a NASH scorer or a factory ``f(backend=...) -> NASH``; ``backend="auto"`` runs both NASH
    backends (sentence: cosine baseline; token: BERTScore baseline), otherwise only the one named.
    """
    from ...common.reporting import result_envelope

    rows = load_split(data, split)
    if limit is not None:
        if limit < 1:
            raise ValueError(f"--limit must be >= 1, got {limit}")
        rows = rows[:limit]
    make = scorer_factory(scorer)
    scorers = [make(backend=b) for b in (["sentence", "token"] if backend == "auto" else [backend])]
    results = evaluate_questions(rows, scorers, numeral_weight=numeral_weight, show_progress=show_progress)
    config = {"data": str(data), "split": split, "limit": limit, "numeral_weight": numeral_weight,
              "scorers": {s.backend: s.echo for s in scorers}}
    return result_envelope("nquad", config, results, label=label)


def markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench nquad`` prints, from ``evaluate``'s result."""
    return results_markdown(result["results"], result["label"])
