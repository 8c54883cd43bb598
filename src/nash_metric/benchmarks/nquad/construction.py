"""NQuAD construction: Chinese news numeral cloze questions (docs/method.md §2.3), and their publication.

An article qualifies with at least one numeral (with a value) in its headline and at least
``min_body_numerals`` (4) in its body. Each headline numeral gives one question:

* ``stem``: the headline with that numeral's span (unit included, e.g. ``35%``, ``3亿元``) replaced by
  ``MASK`` = ``[MASK]``;
* ``options``: the 4 distinct body values closest to the target value, ranked by
  (|value - target|, value, position) so ties break deterministically; each option is the first body
  mention holding that value, as written, with the body sentence (split on 。！？；) that contains it;
* ``answer``: the option closest to the target. It must lie within ``answer_rtol`` (10 %) of the target
  (headlines round: 近3成 vs 28.7%) and be strictly closer than the next option, else the question is
  skipped and counted in the report (never silently dropped);
* options are shuffled with a seed derived from (seed, article id, question index), so the answer
  position is not fixed; articles (not questions) are split 80/20 into train/test with ``seed``.

The build report counts articles read/kept, skipped questions by reason, the answer positions and the
average option–answer difference bins (our edges on the relative difference; the paper's Table 6 bins
the same quantity).

``build_dataset`` (``nash build-data nquad``) also takes the authors' question-level release, whose questions
are read as released rather than constructed (``.questions``); both write the same schema (``features``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ...common.atomic import replacing, write_text
from ...numbers import NumericMention
from .card import card_text, is_release
from .defaults import ANSWER_RTOL, MASK, N_OPTIONS, RELEASE_LAYOUT, TEST_FRACTION
from .questions import Release, gather_sources, read_release, release_report
from .source import Article, read_articles
from .text import avg_option_diff, mentions, split_sentences_zh, value_key

__all__ = ["DIFF_BINS", "MASK", "N_OPTIONS", "BuildConfig", "build", "build_dataset", "build_from_file",
           "build_release", "diff_bin", "features", "mentions", "report_markdown", "split_by_article",
           "write_dataset"]
# Relative average option–answer difference: mean over distractors of |v - answer| / max(|answer|, 1).
DIFF_BINS = ((0.0, 0.1), (0.1, 0.5), (0.5, 1.0), (1.0, 5.0), (5.0, math.inf))


@dataclass(frozen=True)
class BuildConfig:
    seed: int = 0
    test_fraction: float = TEST_FRACTION
    min_body_numerals: int = 4
    answer_rtol: float = ANSWER_RTOL
    mask: str = MASK

    def __post_init__(self) -> None:
        if not 0.0 < self.test_fraction < 1.0:
            raise ValueError(f"test_fraction must be in (0, 1), got {self.test_fraction}")
        if self.min_body_numerals < N_OPTIONS:
            raise ValueError(f"min_body_numerals must be >= {N_OPTIONS}, got {self.min_body_numerals}")
        if self.answer_rtol < 0:
            raise ValueError(f"answer_rtol must be >= 0, got {self.answer_rtol}")


def diff_bin(value: float) -> str:
    for lo, hi in DIFF_BINS:
        if lo <= value < hi:
            return f"[{lo:g}, {hi:g})"
    raise ValueError(f"difference {value} outside the bins")


def article_questions(article: Article, config: BuildConfig, skipped: Counter) -> list[dict[str, Any]]:
    """The questions of one article (may be empty; reasons are counted in ``skipped``)."""
    head = [m for m in mentions(article.headline) if m.value is not None]
    body_all = mentions(article.content)
    body = [m for m in body_all if m.value is not None]
    skipped["body mentions without a value (not used as options)"] += len(body_all) - len(body)
    if not head:
        skipped["article: no headline numeral"] += 1
        return []
    if len(body) < config.min_body_numerals:
        skipped[f"article: fewer than {config.min_body_numerals} body numerals"] += 1
        return []
    first: dict[float, NumericMention] = {}
    for m in body:
        first.setdefault(value_key(m.value), m)
    sentences = split_sentences_zh(article.content)
    rows = []
    for k, target in enumerate(head):
        t = target.value
        ranked = sorted(first.values(), key=lambda m: (abs(m.value - t), m.value, m.start))[:N_OPTIONS]
        if len(ranked) < N_OPTIONS:
            skipped[f"question: fewer than {N_OPTIONS} distinct body values"] += 1
            continue
        best, runner = abs(ranked[0].value - t), abs(ranked[1].value - t)
        if best > config.answer_rtol * max(abs(t), abs(ranked[0].value)):
            skipped[f"question: no body value within {config.answer_rtol:g} of the target"] += 1
            continue
        if runner == best:
            skipped["question: two body values equally close to the target"] += 1
            continue
        answer_mention = ranked[0]
        order = list(range(N_OPTIONS))
        random.Random(f"{config.seed}|{article.id}|{k}").shuffle(order)
        opts = [ranked[i] for i in order]
        answer = order.index(0)
        a = answer_mention.value
        texts = [_sentence_of(sentences, m, article) for m in opts]
        rows.append({
            "id": f"{article.id}-{k}", "article_id": article.id, "date": article.date or "",
            "headline": article.headline,
            "stem": article.headline[: target.start] + config.mask + article.headline[target.end:],
            "target": target.text, "target_value": t, "target_kind": target.kind,
            "options": [m.text for m in opts], "option_values": [float(m.value) for m in opts],
            "option_sentences": texts, "option_sentence_lists": [[text] for text in texts],
            "answer": answer, "exact": a == t, "avg_option_diff": avg_option_diff([m.value for m in ranked], 0),
        })
    return rows


def _sentence_of(sentences, mention: NumericMention, article: Article) -> str:
    for s in sentences:
        if s.start <= mention.start < s.end:
            return s.text
    raise AssertionError(f"{article.where}: mention {mention.text!r} outside every sentence")  # splitter bug


def build(articles: list[Article], config: BuildConfig) -> tuple[dict[str, list[dict]], dict[str, Any]]:
    """Questions per split and the build report."""
    skipped: Counter = Counter()
    rows = [row for a in articles for row in article_questions(a, config, skipped)]
    splits = split_by_article(rows, config)
    report = build_report(articles, sorted({r["article_id"] for r in rows}), splits, skipped, config)
    return splits, report


def split_by_article(rows: list[dict[str, Any]], config: BuildConfig) -> dict[str, list[dict[str, Any]]]:
    """``rows`` into train/test by ``article_id`` (no article in both; row order kept inside each split): the
    sorted article ids shuffled with ``config.seed``, the first ``test_fraction`` of them to test."""
    kept = sorted({r["article_id"] for r in rows})
    if len(kept) < 2:
        raise ValueError(f"only {len(kept)} article(s) yield questions: need at least 2 for a train/test split")
    shuffled = kept[:]
    random.Random(config.seed).shuffle(shuffled)
    # Both splits keep at least one article: an empty split's Parquet makes load_dataset fail ("corresponds to no
    # data"), e.g. 2 articles at test_fraction 0.9.
    n_test = min(len(kept) - 1, max(1, round(config.test_fraction * len(kept))))
    test_ids = set(shuffled[:n_test])
    return {"train": [r for r in rows if r["article_id"] not in test_ids],
            "test": [r for r in rows if r["article_id"] in test_ids]}


def build_release(release: Release, config: BuildConfig) -> tuple[dict[str, list[dict]], dict[str, Any]]:
    """Questions per split and the build report of the question-level release: each file's split as its name
    says, or one file split by article (``split_by_article``)."""
    read = read_release(release.files)
    if release.split_by_name:
        splits = {f.split: list(rows) for f, rows in zip(release.files, read.rows, strict=True)}
    else:
        splits = split_by_article(list(read.rows[0]), config)
    for split, rows in splits.items():
        if not rows:
            raise ValueError(f"no question of the {split} split is kept (skipped: {dict(read.skipped)}): an empty "
                             "split cannot be published")
    kept = sorted({r["article_id"] for rows in splits.values() for r in rows})
    report = build_report(read.article_ids, kept, splits, read.skipped, config)
    return splits, {**report, **release_report(release, read, splits)}


def build_report(articles, kept, splits, skipped: Counter, config: BuildConfig) -> dict[str, Any]:
    rows = [r for split in splits.values() for r in split]
    bins = Counter(diff_bin(r["avg_option_diff"]) for r in rows)
    return {
        "config": asdict(config),
        "articles_read": len(articles), "articles_kept": len(kept),
        "articles_per_split": {s: len({r["article_id"] for r in v}) for s, v in splits.items()},
        "questions": len(rows), "questions_per_split": {s: len(v) for s, v in splits.items()},
        "skipped": dict(sorted(skipped.items())),
        "answer_positions": {str(i): sum(r["answer"] == i for r in rows) for i in range(N_OPTIONS)},
        "exact_answers": sum(r["exact"] for r in rows),
        "target_kinds": dict(sorted(Counter(r["target_kind"] for r in rows).items())),
        "avg_option_diff_bins": {f"[{lo:g}, {hi:g})": bins.get(f"[{lo:g}, {hi:g})", 0) for lo, hi in DIFF_BINS},
    }


def report_markdown(report: dict[str, Any]) -> str:
    from ...common.reporting import markdown_table

    order = "the release's order" if is_release(report) else "after the seeded shuffle"
    lines = ["# NQuAD build report", "",
             markdown_table(["quantity", "value"], [
                 *_release_lines(report),
                 ["articles read", report["articles_read"]], ["articles kept", report["articles_kept"]],
                 *[[f"articles {s}", n] for s, n in report["articles_per_split"].items()],
                 ["questions", report["questions"]],
                 *[[f"questions {s}", n] for s, n in report["questions_per_split"].items()],
                 ["answer equals target value", report["exact_answers"]],
                 *[[f"skipped: {k}", v] for k, v in report["skipped"].items()]]),
             "", f"Answer position ({order}):", "",
             markdown_table(["position", "questions"], list(report["answer_positions"].items())),
             "", "Average option–answer difference (relative to the answer value), as the paper's Table 6:", "",
             markdown_table(["bin", "questions"], list(report["avg_option_diff_bins"].items()))]
    return "\n".join(lines) + "\n"


def _release_lines(report: dict[str, Any]) -> list[list[Any]]:
    """The report rows only a build from the question-level release has (its layout, files and question counts)."""
    if not is_release(report):
        return []
    files = [[f"files {s}", ", ".join(f"`{f}`" for f in paths)] for s, paths in report["files"].items()]
    return [["source layout", f"{RELEASE_LAYOUT}, split by {report['split_by']}"], *files,
            ["questions read", report["questions_read"]], ["questions kept", report["questions_kept"]],
            ["articles in both splits", report["articles_in_both_splits"]]]


def features():
    """The ``datasets`` schema of the published dataset (also in the card's ``dataset_info``)."""
    import datasets

    s, f = datasets.Value("string"), datasets.Value("float64")
    return datasets.Features({
        "id": s, "article_id": s, "date": s, "headline": s, "stem": s, "target": s, "target_value": f,
        "target_kind": s, "options": datasets.List(s), "option_values": datasets.List(f),
        "option_sentences": datasets.List(s), "option_sentence_lists": datasets.List(datasets.List(s)),
        "answer": datasets.Value("int32"), "exact": datasets.Value("bool"),
        "avg_option_diff": f,
    })


def write_dataset(splits: dict[str, list[dict]], report: dict[str, Any], out: str | Path,
                  card: dict[str, Any] | None = None) -> list[Path]:
    """Parquet shards ``out/data/{split}-00000-of-00001.parquet``, ``out/build_report.{json,md}`` and the card
    ``out/README.md`` (``card``: the fields ``nquad.card.card_text`` takes)."""
    import datasets

    from ...common.reporting import write_json

    out = Path(out)
    (out / "data").mkdir(parents=True, exist_ok=True)
    written = []
    for split, rows in splits.items():
        path = out / "data" / f"{split}-00000-of-00001.parquet"
        with replacing(path) as partial:
            datasets.Dataset.from_list(rows, features=features()).to_parquet(str(partial))
        written.append(path)
    written.append(write_json(out / "build_report.json", report))
    write_text(out / "build_report.md", report_markdown(report))
    written.append(out / "build_report.md")
    # after the shards: the card's dataset_info is measured on the files just written
    write_text(out / "README.md", card_text(report, report_markdown(report), out, card))
    written.append(out / "README.md")
    return written


def build_from_file(source: str | Path, out: str | Path, config: BuildConfig,
                    card: dict[str, Any] | None = None, source_name: str | None = None) -> dict[str, Any]:
    """Build from ``source`` into ``out``; the report names the source ``source_name`` (default: as given)."""
    splits, report = build(read_articles(source), config)
    report["source"] = source_name or str(source)
    write_dataset(splits, report, out, card)
    return report


def build_dataset(out: str | Path, *, source: str | Path | Sequence[str | Path], seed: int = 0,
                  show_progress: bool = False, test_fraction: float = TEST_FRACTION,
                  answer_rtol: float = ANSWER_RTOL) -> dict[str, Any]:
    """Build NQuAD into ``out`` (what ``nash build-data nquad`` does); the build report.

    ``source``: one article file (raw ``.jsonl`` or article-level ``.json``), constructed by the rules above; or
    the question-level release (files and folders, see ``.questions``), read as released (``answer_rtol`` does
    not apply). ``show_progress`` is accepted for the common build signature; this build is quick and shows none.
    """
    config = BuildConfig(seed=seed, test_fraction=test_fraction, answer_rtol=answer_rtol)
    sources = gather_sources([source] if isinstance(source, (str, Path)) else list(source))
    if sources.release is None:
        return build_from_file(sources.article, out, config)
    splits, report = build_release(sources.release, config)
    write_dataset(splits, report, out)
    return report
