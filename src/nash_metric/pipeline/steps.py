"""The method, top to bottom (docs/method.md §1): `score_chunk(fitted, predictions, references) -> ScoredCall`.

0. reading               `read_texts`                   (pool.py; other scripts' digits as ASCII, full reader)
1. modal separation      `TextPool.build`               (pool.py; numbers/ finds and masks the numbers)
2. encoding              `Encoder.encode`               (backbone/encoders.py; one forward pass per distinct text)
3. mention vectors       `TextPool.mention_table`       (mean sub-token state of each number; what the verdict
                                                         compares of each, `verdicts.keys`)
4. text channel          `text_similarity`              (backbone/similarity.py; S_text without numbers; with
                                                         baseline=True the backbone score on the originals)
5. alignment             `align_numbers`                (alignment.py; directional argmax)
6. tau gate, magnitude   `Matches.accepted`, `value_similarity` (magnitude; calendar distance for periods; 0 for
                                                         figures of different kinds, `kinds_fit`)
7. S_num                 `numeric_similarity`           (per direction: the mean over that side's numbers)
7b. numeric support      `context_verdicts`             (verdicts/decide.py; a verdict per figure of the prediction:
                                                         its value, then its context)
8. weights and alpha     `pair_alphas`                  (weighting.py; every token 1, or an IDF table)
9. mixing                `mixed`                        (mixing.py: F, precision and recall)
9b. blank texts          `zero_blank_pairs`             (blank.py; a blank prediction or reference scores 0)
10. rescaling (optional) `RescaleBaseline.apply`        (calibration/rescale.py; (s - b) / (1 - b), as bert-score)

One forward pass per distinct text (the default, `text_channel="one-pass"`): its words cannot attend to its
numbers, so its words' states are those of the text without its numbers (S_text, `encoders.channel_view`) while its
numbers' states read the whole text (their context vectors); `baseline=True` adds one plain pass over the distinct
originals for the backbone's own score. With `text_channel="two-pass"` (and always with numbers="paper") the
text-channel forms are pooled with the originals and encoded apart, as the paper does, and the originals' pass
gives the number vectors and the baseline.

A chunk's encodings die with its call, so memory stays flat. What a whole corpus decides is fixed in `Fitted`
before the first chunk (`fitted.fit_corpus`); everything else is a function of the pair alone, so a chunk, a
shard or a process scores each pair exactly as one call over the whole corpus would.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
from tqdm.auto import tqdm

from ..backbone.encoders import Encoding, channel_view
from ..backbone.similarity import PRF, text_similarity
from ..common.blank import BlankCount, blank_pairs, count_blank, zero_blank_pairs
from ..common.memory import release_freed_memory
from ..verdicts.argmax import argmax_verdicts
from ..verdicts.decide import FigureVerdict, context_verdicts, support_fields
from .alignment import Alignment, MentionTable, NumberScores, align_numbers
from .echo import echo, hashcode
from .fitted import Fitted
from .mixing import mixed
from .output import NASHOutput
from .pool import TextPool, read_flat_pairs
from .read_ahead import Ahead, read_ahead
from .weighting import IDF, pair_alphas

Block = tuple[list[str], list[str]]  # predictions and references of one chunk, read
Advance = Callable[[int], object]  # a progress bar's update: this many more pairs scored
OnBatch = Callable[[int, int], object]  # the encoder's report after each batch: (windows encoded, windows in all)


@dataclass(frozen=True)
class ScoredCall:
    """What one chunk's scoring computed: its output, and what `explain` reads (nothing is computed twice)."""

    pool: TextPool
    encodings: list[Encoding]
    tau: float
    idf: IDF
    output: NASHOutput  # what `score` returns (rescaled when the scorer rescales)
    raw: NASHOutput  # before rescaling: nash = alpha text + (1 - alpha) numeric holds here
    number_scores: NumberScores  # per input pair
    comparisons: bool
    backbone_name: str
    mentions: MentionTable  # the call's scorable mentions, stacked (alignment input)


def score_chunk(
    fitted: Fitted, preds: list[str], refs: list[str], show_progress: bool = False, keep_cosines: bool = False,
    on_batch: OnBatch | None = None,
) -> ScoredCall:
    """One chunk of read pairs, under a `Fitted` whose corpus decisions are fixed; its encodings die with it.
    `on_batch` hears of each encoded batch (a progress bar finer than the chunk)."""
    assert fitted.corpus_fixed, "fix what the corpus decides with fit_corpus first"
    config = fitted.config
    # 1-3. Modal separation, one forward pass per distinct text, the context vector of every number.
    # One pass (the default): the words of each text cannot attend to its numbers, so the text channel is read from
    # the same pass as the numbers' vectors (encoders: `_number_blind`).
    pool = TextPool.build([*preds, *refs], config.numbers, one_pass=config.one_pass,
                          glossary=config.glossary)
    encodings = fitted.encoder.encode(pool.texts, pool.spans(), show_progress=show_progress,
                                      left_out=pool.left_out_spans(), on_batch=on_batch)
    mentions = pool.mention_table(encodings)

    # 4. Text channel on the pairs without their numbers, and (on request) the backbone score on the originals.
    channel = [channel_view(e) for e in encodings] if pool.one_pass else encodings
    s_text = _text_similarity(fitted, channel, pool, pool.channel_ids(preds), pool.channel_ids(refs), True)
    backbone = _baseline(fitted, pool, encodings, preds, refs) if config.baseline else None

    # 5-7. Number channel: each distinct pair aligned once, gated at tau, scored by magnitude.
    pairs, pair_index = np.unique(
        np.stack([pool.original_ids(preds), pool.original_ids(refs)], 1), axis=0, return_inverse=True
    )
    pair_index = pair_index.reshape(-1)
    conditions = _condition_scores(pool, pairs) if config.comparisons else None
    alignment = align_numbers(mentions, pairs[:, 0], pairs[:, 1], conditions, keep_cosines=keep_cosines,
                              kinds=config.numbers != "paper")
    number_scores = alignment.numeric_similarity(fitted.tau).map(lambda s: s[pair_index])
    # 7b. The support verdict of each figure of the prediction.
    verdicts = (context_verdicts(mentions, pairs.tolist()) if config.verdict == "context"
                else argmax_verdicts(alignment, fitted.tau))

    # 8. alpha from the weights of words and [NUM] tokens.
    alpha = pair_alphas(fitted.idf, [pool.masked[t] for t in preds], [pool.masked[t] for t in refs])
    parts = _Parts(alpha, s_text, backbone, number_scores, alignment, verdicts, pair_index)
    raw = _mixed_output(fitted, parts, pool, preds, refs)
    if raw.blank is not None and raw.blank.any():
        number_scores = number_scores.map(lambda s: np.where(raw.blank, 0.0, s))  # what `explain` shows
    # 10. Optional: rescale with a random-pair baseline, (s - b) / (1 - b), as bert-score does (a blank
    # pair's raw 0 too, as bert-score rescales an empty candidate's 0).
    output = fitted.rescale.apply(raw) if fitted.rescale is not None else raw
    return ScoredCall(pool, encodings, fitted.tau, fitted.idf, output, raw, number_scores, config.comparisons,
                      fitted.backbone_name, mentions)


def _baseline(fitted: Fitted, pool: TextPool, encodings: list[Encoding], preds: list[str], refs: list[str]) -> PRF:
    """The backbone's own score of the original pairs: from the originals' pass with two passes, else from one more
    plain forward pass over the distinct originals (the one pass is number-blind, not the backbone's)."""
    if pool.one_pass:
        encodings = fitted.encoder.encode(pool.texts, [[] for _ in pool.texts])
    return _text_similarity(fitted, encodings, pool, pool.original_ids(preds), pool.original_ids(refs), False)


class _Parts(NamedTuple):
    """What a chunk's steps computed, per distinct pair (`pair_index` maps each input pair to its row)."""

    alpha: np.ndarray
    s_text: PRF
    backbone: PRF | None
    number_scores: NumberScores
    alignment: Alignment
    verdicts: list[list[FigureVerdict]]
    pair_index: np.ndarray


def _mixed_output(fitted: Fitted, parts: _Parts, pool: TextPool, preds: list[str], refs: list[str]) -> NASHOutput:
    """7b, 9, 9b: the support verdicts, NASH = alpha S_text + (1 - alpha) S_num (and likewise its precision and
    recall from the channels'), every field in one output; a blank prediction or reference scores 0 on every
    channel, alpha 1, as bert-score (blank.py)."""
    config, blank = echo(fitted), blank_pairs(preds, refs)
    alpha, s_text, backbone, number_scores, alignment, verdicts, pair_index = parts
    raw = NASHOutput(
        **mixed(alpha, s_text.f1, s_text.precision, s_text.recall, number_scores),
        **support_fields(verdicts, pair_index),
        text=s_text.f1, text_precision=s_text.precision, text_recall=s_text.recall, alpha=alpha,
        baseline=None if backbone is None else backbone.f1,
        baseline_precision=None if backbone is None else backbone.precision,
        baseline_recall=None if backbone is None else backbone.recall,
        config=config, hashcode=hashcode(config), unscored=pool.unscored(preds, refs), alignment=alignment,
        pair_index=pair_index, blank=blank,
    )
    return zero_blank_pairs(raw, blank)


def _text_similarity(
    fitted: Fitted, encodings: list[Encoding], pool: TextPool, xs: np.ndarray, ys: np.ndarray, channel: bool
) -> PRF:
    """The backbone metric of text pairs (xs[k], ys[k]): the text channel's forms or the originals."""
    weights = fitted.bertscore_idf[channel].weights(encodings) if fitted.config.bertscore_idf else None
    return text_similarity(
        encodings,
        xs,
        ys,
        fitted.backend,
        empty=np.array([not t.strip() or (channel and e.channel_empty) for t, e in zip(pool.texts, encodings)]),
        token_weights=weights,
        device=fitted.device,
        # On a CPU larger padded batches cost more to lay out than they save (fresh memory for every copy).
        batch_size=max(1, fitted.config.batch_size * (1 if fitted.device.type == "cpu" else 4)),
    )


def _condition_scores(pool: TextPool, pairs: np.ndarray) -> dict[int, np.ndarray]:
    """Comparison-aware mode: per aligned pair, how each number satisfies a condition the other text states."""
    from ..numbers.comparisons import constraint_matrix

    out = {}
    for k, (x, y) in enumerate(pairs):
        a, b = pool.texts[x], pool.texts[y]
        ma = [pool.mentions[a][i] for i in pool.scorable[a]]
        mb = [pool.mentions[b][i] for i in pool.scorable[b]]
        if ma and mb:
            scores = constraint_matrix(a, ma, b, mb)
            if not np.isnan(scores).all():
                out[k] = scores
    return out


# -- chunks and streams -------------------------------------------------------------------------------------


def score_blocks(fitted: Fitted, blocks: Iterable[Block], show_progress: bool, total: int | None,
                 advance: Advance | None = None, on_batch: OnBatch | None = None) -> Iterator[NASHOutput]:
    """`score_chunk` each block of read pairs in turn, freeing its encodings; unscored indices count from the start.

    Progress moves per encoded batch (`batch_size` windows), not per chunk: a chunk's pairs are spread over its
    batches. `advance` takes the pairs scored in place of this function's own bar (a caller's bar); `on_batch`
    hears each chunk's `(windows encoded, windows in all)` besides."""
    seen = 0
    with tqdm(total=total, desc="NASH", unit="pair", disable=not show_progress or advance is not None) as bar:
        for preds, refs in _read_ahead(fitted, blocks):
            share = bar_share(advance or bar.update, len(preds))
            heard = share if on_batch is None else _both(share, on_batch)
            out = score_chunk(fitted, preds, refs, on_batch=heard).output
            share(1, 1)  # the chunk's last pairs: what its encoding left
            release_freed_memory()
            if seen:
                out = replace(out, unscored=[{**u, "index": u["index"] + seen} for u in out.unscored])
            seen += len(preds)
            yield out


def _read_ahead(fitted: Fitted, blocks: Iterable[Block]) -> Iterator[Block]:
    """The blocks, each read by `workers` processes (`read_ahead`) before it is scored and the next one's reading
    under way while it is; with no workers, as they come."""
    config = fitted.config
    if not config.workers:
        yield from blocks
        return

    def start(block: Block) -> Ahead:
        return read_ahead([*block[0], *block[1]], config.numbers, config.glossary, config.workers)

    blocks = iter(blocks)
    block = next(blocks, None)
    reading = start(block) if block is not None else None
    while block is not None and reading is not None:
        reading.wait()
        following = next(blocks, None)
        reading = start(following) if following is not None else None
        yield block
        block = following


def _both(first: OnBatch, second: OnBatch) -> OnBatch:
    def hear(done: int, of: int) -> None:
        first(done, of)
        second(done, of)

    return hear


def bar_share(advance: Advance, units: int) -> OnBatch:
    """`units` steps of a bar spread over a piece of work that reports `(done, of)`: the bar is moved to
    `units * done // of` in whole steps, never back, so it ends at `units` exactly when the work does."""
    shown = 0

    def to(done: int, of: int) -> None:
        nonlocal shown
        target = units * done // of if of else units
        if target > shown:
            advance(target - shown)
            shown = target

    return to


def score_pairs(fitted: Fitted, preds: list[str], refs: list[str], show_progress: bool,
                advance: Advance | None = None, on_batch: OnBatch | None = None) -> NASHOutput:
    """Read pairs scored in chunks of `chunk_size`, as one output (`advance`, `on_batch`: see `score_blocks`)."""
    size = fitted.config.chunk_size
    blocks = ((preds[i : i + size], refs[i : i + size]) for i in range(0, len(preds), size))
    return NASHOutput.concat(list(score_blocks(fitted, blocks, show_progress, total=len(preds), advance=advance,
                                               on_batch=on_batch)))


def score_stream(fitted: Fitted, pairs: Iterable[tuple[str, str]], show_progress: bool, total: int | None
                 ) -> Iterator[tuple[NASHOutput, BlankCount]]:
    """A stream of pairs scored chunk by chunk: each chunk's output with its blank texts' count."""
    if not fitted.corpus_fixed:
        raise ValueError(
            "iter_score needs a fixed tau and IDF, but threshold='auto', idf='references' and bertscore_idf "
            "are decided by the whole corpus: call scorer.for_corpus(predictions, references) first, or pass "
            "a number as threshold and an IDF file from `nash fit-idf` as idf"
        )
    # One output per block, in order: tee holds at most the block being scored.
    blocks, counts = itertools.tee(stream_blocks(pairs, fitted.config.chunk_size, fitted.config.numbers))
    outputs = score_blocks(fitted, (block for block, _ in blocks), show_progress, total)
    for out, (_, count) in zip(outputs, counts):
        yield out, count


def stream_blocks(pairs: Iterable[tuple[str, str]], chunk_size: int, reader: str
                  ) -> Iterator[tuple[Block, BlankCount]]:
    """A stream of (prediction, reference) pairs as checked, read blocks of `chunk_size`, each with its blank count
    (pair indices from the start of the stream)."""
    iterator, seen = iter(pairs), 0
    while block := list(itertools.islice(iterator, chunk_size)):
        for k, pair in enumerate(block):
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise TypeError(f"pairs[{seen + k}] must be a (prediction, reference) pair, got {pair!r:.80}")
        preds, refs = read_flat_pairs([a for a, _ in block], [b for _, b in block], reader)
        yield (preds, refs), count_blank(preds, refs, offset=seen)
        seen += len(block)
