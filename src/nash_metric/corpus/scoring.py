"""Scoring a corpus of pairs: chunks in, one row per pair out in input order, a summary with bootstrap intervals.

`score_corpus` is what `nash score --pairs / --candidates --references` runs. The pairs come from a `PairSource`
(`pair_files`: a file checked and indexed when opened, then read chunk by chunk), so memory holds one chunk's texts
and encodings and, per pair, only the summary's numeric columns (float64, about 100 bytes a pair). What a corpus
decides (`NASH.for_corpus`: threshold='auto', idf='references', bertscore_idf) is fixed by one streaming pass over
the file before the first chunk, made only when an option needs it. One process streams each chunk's rows to the
output. Under `torchrun` / `accelerate launch` (`distributed.Launch`) every rank scores its contiguous shard,
reading only that part of the file: rank 0 writes its rows as it goes, every other rank keeps its rows in a private
temporary file and sends them one chunk at a time once rank 0 is ready for them, and rank 0 appends them in rank
order, so the output is the one a single process writes. Only the summary columns and the first unscored mentions
are gathered.
"""

from __future__ import annotations

import contextlib
import functools
import pickle
import sys
import tempfile
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from tqdm.auto import tqdm

from ..common.blank import BlankTextWarning
from ..common.interrupt import check_interrupt
from ..common.validation import echoed
from ..pipeline.echo import hashcode
from ..pipeline.output import PUBLIC_FIELDS, public_fields
from ..pipeline.pool import read_pairs
from ..pipeline.steps import Advance, bar_share, score_pairs
from ..scorer import NASH
from ..verdicts.spec import UNSUPPORTED_COUNT
from .distributed import Launch
from .pair_files import PairSource
from .rows import RowWriter
from .summary import UNSUPPORTED_RATE, corpus_summary, summary_fields

ROW_COLUMNS = ("index", *PUBLIC_FIELDS)  # the baseline's only with baseline=True (`public_fields`)
SUPPORT_COLUMNS = (UNSUPPORTED_COUNT, "unsupported_numbers")
SHOWN_UNSCORED = 10  # unscored mentions printed to stderr; the rest are counted (column `unscored`, summary)


def score_corpus(
    scorer: NASH,
    corpus: PairSource,
    output: str | Path | None = None,
    launch: Launch | None = None,
    show_progress: bool = True,
    seed: int = 0,
) -> dict[str, Any] | None:
    """Score every pair of `corpus`, write one row per pair to `output`, return the summary (rank 0; else None).

    Rows: index, every score field (`output.public_fields`: the baseline's with `baseline=True`), best_reference
    (with several references per prediction),
    unsupported (the count of the prediction's figures the reference does not support), unsupported_numbers
    (those figures with their spans and verdicts: `support.FigureVerdict` entries, a list in JSONL and Parquet,
    JSON text in CSV/TSV; `rows.RowWriter`) and unscored (mentions left out of the number channel). Blank texts
    score 0, with one `BlankTextWarning` for the whole corpus. The progress bar moves per encoded batch.
    """
    chunk = scorer.config.chunk_size
    fixed = scorer.for_corpus(functools.partial(corpus.chunks, chunk), show_progress=show_progress)

    columns, fields = _columns(fixed.config.baseline, corpus.multi_reference)
    shard = launch.shard(len(corpus)) if launch else slice(0, len(corpus))
    main = launch is None or launch.is_main
    summary_values = np.empty((len(fields), shard.stop - shard.start))  # fields x this shard's pairs
    unscored = Unscored()
    with contextlib.ExitStack() as stack:
        sink: RowWriter | _Part | None = None
        if output is not None:
            sink = stack.enter_context(RowWriter(output, columns)) if main else _Part(stack.enter_context(
                tempfile.TemporaryFile()))
        quiet = not (show_progress and main)
        with tqdm(total=shard.stop - shard.start, desc="NASH", unit="pair", disable=quiet) as bar:
            starts = range(shard.start, shard.stop, chunk)
            for start, (preds, refs) in zip(starts, corpus.chunks(chunk, shard.start, shard.stop)):
                stop = start + len(preds)
                rows, items = _chunk_rows(fixed, preds, refs, start, bar.update)
                if sink is not None:
                    sink.write(rows)
                summary_values[:, start - shard.start : stop - shard.start] = _summary_columns(rows, fields)
                unscored.add(items)
        if launch is not None and sink is not None:  # the other ranks' rows, appended in rank order
            if isinstance(sink, _Part):
                launch.send_stream(sink.rows())
            else:
                for rows in launch.receive_streams():
                    sink.write(rows)

    if launch is not None:
        gathered = launch.gather((summary_values, unscored))
        if gathered is None:
            return None
        summary_values = np.concatenate([values for values, _ in gathered], axis=1)
        unscored = Unscored.merged(part for _, part in gathered)

    _warn_unscored(unscored)
    corpus.blank.warn(stacklevel=2)
    summary = corpus_summary(dict(zip(fields, summary_values)), fields=fields, n_unscored=unscored.count,
                             hashcode=hashcode(fixed.echo), seed=seed, empty_predictions=corpus.blank.predictions)
    return {**summary, "config": fixed.echo, "processes": launch.world_size if launch else 1,
            "inputs": corpus.sources, **({"output": str(output)} if output is not None else {})}


def _columns(baseline: bool, multi_reference: bool) -> tuple[list[str], tuple[str, ...]]:
    """The columns of a corpus's rows and the fields of its summary (the baseline's with `baseline=True`)."""
    columns = ["index", *public_fields(baseline), *(("best_reference",) if multi_reference else ()),
               *SUPPORT_COLUMNS, "unscored"]
    return columns, summary_fields(baseline)


def _chunk_rows(scorer: NASH, preds: list[str], refs: list[str] | list[list[str]], start: int, advance: Advance
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One chunk's rows (pair indices from `start`) and its unscored mentions, scored as `NASH.score` scores them
    (its corpus decisions fixed), with `advance` told of the rows done after each encoded batch."""
    check_interrupt()  # a Ctrl-C a finaliser swallowed during the last chunk stops the run here
    flat_preds, flat_refs, groups = read_pairs(preds, refs, scorer.fitted.config.numbers)
    if groups is not None:  # several references a row: the bar counts rows, the scoring pairs
        advance = _per_row(advance, len(preds), len(flat_preds))
    with warnings.catch_warnings():  # one warning for the whole corpus (score_corpus), not one per chunk
        warnings.simplefilter("ignore", BlankTextWarning)
        out = score_pairs(scorer.fitted, flat_preds, flat_refs, show_progress=False, advance=advance)
    out = out.best_of(groups) if groups is not None else out
    items = [{**u, "index": u["index"] + start} for u in out.unscored]
    rows = {
        "index": np.arange(start, start + len(preds), dtype=np.int64),
        **out.columns(),
        **support_columns(out.unsupported_numbers),
        "unscored": np.bincount([u["index"] - start for u in items], minlength=len(preds)),
    }
    return rows, items


def _per_row(advance: Advance, rows: int, pairs: int) -> Advance:
    """`advance` of a bar counting rows, fed with pairs scored (a row's several references are several pairs)."""
    share, done = bar_share(advance, rows), 0

    def add(scored: int) -> None:
        nonlocal done
        done += scored
        share(done, pairs)

    return add


def support_columns(unsupported: Sequence[Sequence[dict[str, Any]]]) -> dict[str, Any]:
    """Per pair: how many of the prediction's figures are not supported, and which (a list of `FigureVerdict`
    entries per pair; `RowWriter` keeps it a list in JSONL and Parquet, JSON text in CSV/TSV)."""
    return {
        UNSUPPORTED_COUNT: np.array([len(entries) for entries in unsupported], np.int64),
        "unsupported_numbers": [list(entries) for entries in unsupported],
    }


def _summary_columns(rows: Mapping[str, np.ndarray], fields: Sequence[str]) -> np.ndarray:
    """A chunk's summary `fields` (fields x pairs, float64): all the summary keeps of a pair."""
    return np.stack([rows[UNSUPPORTED_COUNT] > 0 if name == UNSUPPORTED_RATE else rows[name] for name in fields]
                    ).astype(np.float64)


@dataclass
class Unscored:
    """Unscored mentions of a corpus: the first `SHOWN_UNSCORED` (pair index in the corpus, side, text, reason),
    and how many there are."""

    shown: list[dict[str, Any]] = field(default_factory=list)
    count: int = 0

    def add(self, items: Sequence[dict[str, Any]]) -> None:
        self.shown += items[: SHOWN_UNSCORED - len(self.shown)]
        self.count += len(items)

    @classmethod
    def merged(cls, parts: Iterable[Unscored]) -> Unscored:
        """The mentions of consecutive shards, in shard order."""
        whole = cls()
        for part in parts:
            whole.shown += part.shown[: SHOWN_UNSCORED - len(whole.shown)]
            whole.count += part.count
        return whole


class _Part:
    """A rank's rows until rank 0 takes them, one chunk after another in an anonymous temporary file.

    The file is this process's own (`tempfile.TemporaryFile`: unlinked at creation, no other process can open it),
    so pickle, which keeps every array exactly as scored, reads back nothing it did not write.
    """

    def __init__(self, file: IO[bytes]) -> None:
        self._file = file

    def write(self, rows: Mapping[str, np.ndarray]) -> None:
        pickle.dump(dict(rows), self._file, protocol=pickle.HIGHEST_PROTOCOL)

    def rows(self) -> Iterator[dict[str, np.ndarray]]:
        """The chunks written, in order."""
        self._file.seek(0)
        while True:
            try:
                yield pickle.load(self._file)
            except EOFError:
                return


def _warn_unscored(unscored: Unscored) -> None:
    for item in unscored.shown:
        where = f"pair {item['index']}, {item['side']}" + (f" {item['reference']}" if "reference" in item else "")
        print(f"warning: unscored mention {echoed(item['text'])} ({where}): {item['reason']}", file=sys.stderr)
    if unscored.count > SHOWN_UNSCORED:
        print(f"warning: {unscored.count - SHOWN_UNSCORED} more unscored mentions (column 'unscored' counts them "
              "per pair)", file=sys.stderr)
