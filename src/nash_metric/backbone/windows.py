"""Texts longer than the model window, in memory that grows with their mentions, not with their tokens.

A text longer than the window is encoded in overlapping windows (`Encoder.window_starts`), and each token takes its
state from the window where it sits farthest from an edge. `LongText` assembles such a text window by window as
its batches come out of the forward pass, keeping only what the scores need:

* the mean state of each mention's sub-tokens (its context vector), computed as soon as its last sub-token has
  come, from a buffer of one window's tokens;
* the sentence model's pooling over the stitched sequence (mean, max, CLS, last token), summed as the windows
  come (`StreamPooling`), and over the tokens the one-pass text channel keeps;
* every token state only where a score reads them all: the token backend's BERTScore, or a sentence model whose
  pooling cannot be summed in pieces.

`tokenize_in_pieces` tokenizes a long text in overlapping pieces spliced where both agree, so the tokenizer's
per-token Python objects never exist for the whole text at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import torch

Span = tuple[int, int]
Tokens = tuple[np.ndarray, np.ndarray]  # ids [n] int64, character offsets [n, 2] int64

# A text longer than this (characters) is tokenized in pieces of this size that overlap by `TOKENIZE_OVERLAP`.
TOKENIZE_PIECE = 100_000
TOKENIZE_OVERLAP = 2_000


# -- tokenisation ----------------------------------------------------------------------------------------------


def tokenize_in_pieces(tokenize: Callable[[str], Tokens], text: str, piece: int = TOKENIZE_PIECE,
                       overlap: int = TOKENIZE_OVERLAP) -> Tokens:
    """The tokens of `text` as `tokenize(text)` gives them, tokenized in overlapping pieces.

    Two consecutive pieces are spliced at a token both read alike (same id and offsets, and the same token before
    it) in the middle of their overlap: far from the end of the first piece and from the start of the second, where
    a tokenizer reads differently (a word cut in two, a prefix space). Offsets out of text order, or an overlap
    with no such token (a run of characters with no token boundary), fall back to one call on the whole text."""
    if len(text) <= piece:
        return tokenize(text)
    overlap = min(overlap, piece // 2)
    ids_parts: list[np.ndarray] = []
    off_parts: list[np.ndarray] = []
    start, first = 0, 0  # the current piece starts at `start`; its tokens are kept from index `first`
    ids, off = _shifted(tokenize, text, start, piece)
    while True:
        if not _in_order(off):
            return tokenize(text)
        if start + piece >= len(text):
            ids_parts.append(ids[first:])
            off_parts.append(off[first:])
            break
        nxt = start + piece - overlap
        ids_b, off_b = _shifted(tokenize, text, nxt, piece)
        if not _in_order(off_b):
            return tokenize(text)
        splice = _splice(ids, off, ids_b, off_b, low=nxt + overlap // 2, high=start + piece - overlap // 4)
        if splice is None:
            return tokenize(text)
        k_a, k_b = splice
        ids_parts.append(ids[first:k_a])
        off_parts.append(off[first:k_a])
        start, first, ids, off = nxt, k_b, ids_b, off_b
    return np.concatenate(ids_parts), np.concatenate(off_parts)


def _shifted(tokenize: Callable[[str], Tokens], text: str, start: int, piece: int) -> Tokens:
    ids, off = tokenize(text[start : start + piece])
    return ids, off + start


def _in_order(off: np.ndarray) -> bool:
    """Tokens in text order (a character's bytes may be several tokens over the same characters)."""
    return bool((off[1:, 0] >= off[:-1, 0]).all())


def _splice(ids_a: np.ndarray, off_a: np.ndarray, ids_b: np.ndarray, off_b: np.ndarray, low: int, high: int
            ) -> tuple[int, int] | None:
    """(k_a, k_b): token k_a of piece a is token k_b of piece b, starting between characters `low` and `high`,
    the first token of its character, and so is the token before each; None when no token there agrees so."""
    a0, a1 = np.searchsorted(off_a[:, 0], [low, high], side="left")
    seen = {(s, e, i): a0 + k for k, ((s, e), i) in enumerate(zip(off_a[a0:a1].tolist(), ids_a[a0:a1].tolist()))}
    for k_b in range(max(1, int(np.searchsorted(off_b[:, 0], low))), len(ids_b)):
        s, e = (int(x) for x in off_b[k_b])
        if s == off_b[k_b - 1, 0]:
            continue
        if s > high:
            return None
        k_a = seen.get((s, e, int(ids_b[k_b])))
        if (k_a is not None and k_a > 0 and ids_a[k_a - 1] == ids_b[k_b - 1]
                and (off_a[k_a - 1] == off_b[k_b - 1]).all()):
            return k_a, k_b
    return None


def overlaps(offsets: Sequence[Span] | np.ndarray, spans: Sequence[Span]) -> tuple[np.ndarray, np.ndarray]:
    """(span, token) index pairs of every token whose character range overlaps a span, grouped by span, in order."""
    off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    bounds = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    if (off[1:] >= off[:-1]).all():
        # Tokens in text order: the tokens of a span are one run of rows, from the first whose end passes the
        # span's start to the last whose start precedes its end. Memory linear in the tokens and spans.
        lo = np.searchsorted(off[:, 1], bounds[:, 0], side="right")
        hi = np.searchsorted(off[:, 0], bounds[:, 1], side="left")
        lengths = np.maximum(hi - lo, 0)
        span = np.repeat(np.arange(len(bounds)), lengths)
        first = np.repeat(np.cumsum(lengths) - lengths, lengths)  # where each span's run starts in the output
        return span, np.arange(lengths.sum()) - first + np.repeat(lo, lengths)
    # Offsets out of order (a tokenizer's odd token): every span against every token.
    return np.nonzero((off[None, :, 0] < bounds[:, 1:]) & (off[None, :, 1] > bounds[:, :1]))


def batch_mention_vectors(states: np.ndarray, lead: int, offsets: Sequence[np.ndarray],
                          spans: Sequence[Sequence[Span]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per row r of a batch's states [B, W, H] (content tokens from column `lead`, their character `offsets[r]`):
    the mean state of the sub-tokens overlapping each of `spans[r]`, L2-normalised (a zero row where none does),
    and which spans have one. One segmented sum for the batch, its texts laid end to end: numpy's cost per call,
    not the arithmetic, is what a sentence's few mentions cost."""
    width, h = states.shape[1], states.shape[2]
    counts = np.array([len(s) for s in spans], np.int64)
    vectors, has = np.zeros((int(counts.sum()), h), np.float32), np.zeros(int(counts.sum()), bool)
    rows = [r for r in range(len(spans)) if len(spans[r]) and len(offsets[r])]
    if rows:
        off = [np.asarray(offsets[r], np.int64).reshape(-1, 2) for r in rows]
        bounds = [np.asarray(spans[r], np.int64).reshape(-1, 2) for r in rows]
        n_tok, n_span = np.array([len(o) for o in off]), counts[rows]
        laid = _end_to_end(off, bounds)
        if laid is not None:  # else a text's tokens are out of order: one text at a time
            all_off = laid[0]
            text = np.repeat(np.arange(len(rows)), n_tok)
            first = np.cumsum(n_tok) - n_tok
            flat = np.asarray(rows)[text] * width + lead + np.arange(len(text)) - first[text]  # row of each token
            span, token = overlaps(*laid)
            at = (np.cumsum(counts) - counts)[rows]  # where each text's spans start among all spans
            chosen = np.repeat(at - (np.cumsum(n_span) - n_span), n_span)[span] + span
            _segment_means(states.reshape(-1, h), flat[token], chosen, all_off[token], vectors, has)
        else:
            for r, o, b, a in zip(rows, off, bounds, (np.cumsum(counts) - counts)[rows]):
                span, token = overlaps(o, b)
                _segment_means(states[r, lead:], token, span + a, o[token], vectors, has)
    ends = np.cumsum(counts)
    return [(vectors[e - c : e], has[e - c : e]) for c, e in zip(counts.tolist(), ends.tolist())]


def kept_tokens(offsets: Sequence[np.ndarray], left_out: Sequence[Sequence[Span]]) -> list[np.ndarray]:
    """Per text, [n] bool: its tokens (character `offsets[t]`) outside every span of `left_out[t]` (a token touching
    one leaves with it); the texts laid end to end for one `overlaps` call."""
    sizes = np.array([len(o) for o in offsets], np.int64)
    starts = np.cumsum(sizes) - sizes  # each text's first token, all texts' tokens laid end to end
    flat = np.ones(int(sizes.sum()), bool)
    rows = [r for r in range(len(offsets)) if len(left_out[r]) and sizes[r]]
    off = [np.asarray(offsets[r], np.int64).reshape(-1, 2) for r in rows]
    bounds = [np.asarray(left_out[r], np.int64).reshape(-1, 2) for r in rows]
    laid = _end_to_end(off, bounds) if rows else None
    if laid is not None:
        token = overlaps(*laid)[1]  # among the tokens of `rows` only
        owner = np.repeat(np.arange(len(rows)), sizes[rows])[token]
        flat[(starts[rows] - (np.cumsum(sizes[rows]) - sizes[rows]))[owner] + token] = False
    else:  # a text's tokens out of order: one text at a time
        for r, o, b in zip(rows, off, bounds):
            flat[starts[r] + overlaps(o, b)[1]] = False
    return np.split(flat, starts[1:]) if len(offsets) else []


def _end_to_end(off: Sequence[np.ndarray], bounds: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """The token offsets [N, 2] and spans [S, 2] of several texts (each with both) laid end to end, each text's
    characters past the last one's, so that one `overlaps` call finds each text's own; None when a text's tokens
    are out of order (`overlaps` then reads each text alone)."""
    n_off, n_bounds = np.array([len(o) for o in off]), np.array([len(b) for b in bounds])
    all_off, all_bounds = np.concatenate(off), np.concatenate(bounds)
    # Each text's furthest character, token or span, + 1 (one reduction for all the texts: each has both).
    reach = np.maximum(np.maximum.reduceat(all_off[:, 1], np.cumsum(n_off) - n_off),
                       np.maximum.reduceat(all_bounds[:, 1], np.cumsum(n_bounds) - n_bounds)) + 1
    shift = np.cumsum(reach) - reach
    all_off = all_off + np.repeat(shift, n_off)[:, None]
    if not (all_off[1:] >= all_off[:-1]).all():
        return None
    return all_off, all_bounds + np.repeat(shift, n_bounds)[:, None]


def _segment_means(states: np.ndarray, rows: np.ndarray, span: np.ndarray, off: np.ndarray, vectors: np.ndarray,
                   has: np.ndarray) -> None:
    """Into `vectors`/`has`, in place: per span, the L2-normalised mean of `states[rows]` of its tokens (`span`
    grouped and in order; `off` their character ranges: a zero-width token holds no part of a span)."""
    real = off[:, 1] > off[:, 0]
    span, rows = span[real], rows[real]
    if not len(span):
        return
    cuts = np.flatnonzero(np.r_[True, span[1:] != span[:-1]])
    counts = np.diff(np.r_[cuts, len(span)])
    means = np.add.reduceat(states[rows], cuts, axis=0) / counts[:, None].astype(np.float32)
    vectors[span[cuts]] = means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12)
    has[span[cuts]] = True


# -- pooling in pieces -----------------------------------------------------------------------------------------


STREAMING_MODES = ("cls", "max", "mean", "mean_sqrt_len_tokens", "lasttoken")
# sentence-transformers < 6 names its modes by flags, in the order its Pooling concatenates them.
_MODE_FLAGS = (("cls", "pooling_mode_cls_token"), ("max", "pooling_mode_max_tokens"),
               ("mean", "pooling_mode_mean_tokens"), ("mean_sqrt_len_tokens", "pooling_mode_mean_sqrt_len_tokens"),
               ("weightedmean", "pooling_mode_weightedmean_tokens"), ("lasttoken", "pooling_mode_lasttoken"))
# Modules after the pooling that read only the sentence embedding.
_AFTER_POOLING = ("Normalize", "Dense")


def pooling_modes(modules: Sequence[torch.nn.Module]) -> tuple[str, ...] | None:
    """The modes of a sentence-transformers model's pooling (its modules after the first), when they can be
    summed window by window and only modules that read the pooled vector follow; else None."""
    if not modules or type(modules[0]).__name__ != "Pooling":
        return None
    if any(type(m).__name__ not in _AFTER_POOLING for m in modules[1:]):
        return None
    pooling = modules[0]
    mode = getattr(pooling, "pooling_mode", None)
    if isinstance(mode, str):
        modes: tuple[str, ...] = (mode,)
    elif isinstance(mode, (tuple, list)):
        modes = tuple(mode)
    else:
        modes = tuple(name for name, flag in _MODE_FLAGS if getattr(pooling, flag, False) is True)
    return modes if modes and all(m in STREAMING_MODES for m in modes) else None


class StreamPooling:
    """The pooling of one sequence fed in pieces (each with the mask of its tokens that count): sums in float64
    for the means, running maximum, first and last counted token."""

    def __init__(self, modes: Sequence[str]) -> None:
        self.modes = tuple(modes)
        self.total: torch.Tensor | None = None
        self.count = 0
        self.max: torch.Tensor | None = None
        self.first: torch.Tensor | None = None
        self.last: torch.Tensor | None = None

    def add(self, states: torch.Tensor, mask: np.ndarray | None = None) -> None:
        x = states if mask is None else states.index_select(0, torch.from_numpy(np.flatnonzero(mask)))
        if not len(x):
            return
        if self.first is None:
            self.first = x[0].clone()
        self.last = x[-1].clone()
        total = x.double().sum(0)
        self.total = total if self.total is None else self.total + total
        top = x.max(0).values
        self.max = top if self.max is None else torch.maximum(self.max, top)
        self.count += len(x)

    def vector(self) -> torch.Tensor:
        """The concatenated modes, as sentence-transformers' Pooling gives them (float32)."""
        parts = []
        for mode in self.modes:
            if mode == "cls":
                parts.append(self.first)
            elif mode == "lasttoken":
                parts.append(self.last)
            elif mode == "max":
                parts.append(self.max)
            else:
                count = max(float(self.count), 1e-9)
                parts.append((self.total / (count if mode == "mean" else math.sqrt(count))).float())
        return torch.cat([p.float() for p in parts])


# -- one long text, window by window ---------------------------------------------------------------------------


class LongText:
    """One text of more than one window, assembled as its windows' states come (in window order): each token's
    state from the window whose centre is nearest (the earlier one on a tie); mention vectors as soon as their
    tokens are in; the sentence model's pooling summed (`pooling`: one `StreamPooling` for the whole sequence,
    and one for the text channel's kept tokens, or None); every token state only with `keep_all`."""

    def __init__(self, n: int, starts: Sequence[int], window: int, lead: int, offsets: np.ndarray,
                 spans: Sequence[Span], keep: np.ndarray | None, pooling: tuple[StreamPooling, ...] | None,
                 keep_all: bool) -> None:
        self.n, self.window, self.lead = n, window, lead
        self.starts = np.asarray(starts, np.int64)
        # Windows are equal and ordered, so each owns one run of tokens, cut where 2t passes s_k + s_k+1 + window - 1.
        cuts = np.searchsorted(self.starts[:-1] + self.starts[1:] + window - 1, 2 * np.arange(n), side="left")
        self.bounds = np.searchsorted(cuts, np.arange(len(self.starts) + 1), side="left")  # first token of each run
        self.keep, self.pooling, self.keep_all = keep, pooling, keep_all
        self.parts: list[torch.Tensor] = []  # with keep_all: [prefix specials, each window's run, suffix specials]
        self.received = 0  # windows assembled so far
        self.pending: dict[int, torch.Tensor] = {}  # windows that came before their turn (none in practice)
        self._mentions = _MentionSums(offsets, spans)

    @property
    def complete(self) -> bool:
        return self.received == len(self.starts)

    def add(self, start: int, states: torch.Tensor) -> None:
        """The states [lead + window + suffix, H] of the window starting at content token `start`."""
        k = int(np.searchsorted(self.starts, start))
        self.pending[k] = states
        while self.received in self.pending:
            self._take(self.received, self.pending.pop(self.received))
            self.received += 1

    def _take(self, k: int, states: torch.Tensor) -> None:
        lead, a, b = self.lead, int(self.bounds[k]), int(self.bounds[k + 1])
        s = int(self.starts[k])
        run = states[lead + a - s : lead + b - s]
        pieces = [(run, None if self.keep is None else self.keep[a:b])]
        if k == 0:
            pieces.insert(0, (states[:lead], None))
        if k == len(self.starts) - 1:
            pieces.append((states[lead + self.window :], None))
        for part, kept in pieces:
            if self.pooling is not None:
                self.pooling[0].add(part)
                if len(self.pooling) > 1:
                    self.pooling[1].add(part, kept)
            if self.keep_all:
                self.parts.append(part.clone())  # a view would keep the whole batch
        self._mentions.add(run.numpy(), a, b)

    def mention_vectors(self) -> tuple[np.ndarray, np.ndarray]:
        return self._mentions.result()

    def full_states(self) -> torch.Tensor:
        """Every token state, special tokens included (with `keep_all`)."""
        return torch.cat(self.parts)


class _MentionSums:
    """The mean state of each span's sub-tokens, L2-normalised, from runs of content tokens that come in order; a
    mention is averaged as soon as its last sub-token is in, with the same sums, in the same order, as one
    `np.add.reduceat` over the stitched text would do them (so the vectors are those of the whole text)."""

    def __init__(self, offsets: np.ndarray, spans: Sequence[Span]) -> None:
        self.size = len(spans)
        self.vectors: np.ndarray | None = None
        if not spans or not len(offsets):
            self.rows, self.counts = np.zeros(0, np.int64), np.zeros(self.size, np.int64)
            self.order, self.last = np.zeros(0, np.int64), np.zeros(0, np.int64)
            self.first = np.zeros(0, np.int64)
            self._init_buffer()
            return
        off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        mention, rows = overlaps(off, spans)
        real = off[rows, 1] > off[rows, 0]  # zero-width tokens hold no part of a span
        mention, rows = mention[real], rows[real]  # grouped by mention, in order
        self.rows = rows
        self.counts = np.bincount(mention, minlength=self.size)
        self.segment = np.cumsum(self.counts) - self.counts  # where each mention's rows start in `rows`
        placed = np.flatnonzero(self.counts > 0)
        low = np.minimum.reduceat(rows, self.segment[placed]) if len(placed) else np.zeros(0, np.int64)
        high = np.maximum.reduceat(rows, self.segment[placed]) if len(placed) else np.zeros(0, np.int64)
        by_last = np.argsort(high, kind="stable")
        self.order, self.last = placed[by_last], high[by_last]
        # The first row still needed once the mentions before position p (in `order`) are done.
        self.first = np.minimum.accumulate(low[by_last][::-1])[::-1]
        self._init_buffer()

    def _init_buffer(self) -> None:
        self.done = 0  # mentions of `order` averaged
        self.buffer: np.ndarray | None = None  # content states of tokens [buffer_start, end of the runs so far)
        self.buffer_start = 0

    def add(self, run: np.ndarray, a: int, b: int) -> None:
        """The states of content tokens [a, b), the next run."""
        if self.vectors is None:
            self.vectors = np.zeros((self.size, run.shape[1]), dtype=np.float32)
        if self.done == len(self.order):
            return
        self.buffer = run if self.buffer is None else np.concatenate([self.buffer, run])
        end = int(np.searchsorted(self.last, b, side="left"))  # mentions whose last token is before b
        if end > self.done:
            ms = self.order[self.done : end]
            if (np.diff(ms) > 0).all():  # in mention order: one reduceat, as over the whole text
                self._average(ms)
            else:
                for m in ms:
                    self._average(np.array([m]))
            self.done = end
        keep_from = min(b, int(self.first[self.done])) if self.done < len(self.order) else b
        self.buffer = self.buffer[keep_from - self.buffer_start :].copy()
        self.buffer_start = keep_from

    def _average(self, ms: np.ndarray) -> None:
        counts = self.counts[ms]
        take = np.concatenate([self.rows[s : s + c] for s, c in zip(self.segment[ms], counts)])
        starts = np.cumsum(counts) - counts
        means = np.add.reduceat(self.buffer[take - self.buffer_start], starts, axis=0) / counts[:, None].astype(
            np.float32)
        self.vectors[ms] = means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12)

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        assert self.vectors is not None, "a long text has windows"
        return self.vectors, self.counts > 0
