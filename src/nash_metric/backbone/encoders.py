"""Backbone encoders: one batched forward pass per unique text.

Each text yields, from the *same* forward pass, its token states (the BERTScore inputs), the
contextual vector of every numeric mention (mean of its sub-token states) and, for
sentence-transformers models, the pooled sentence embedding. Texts longer than the model window
are encoded in further overlapping windows and stitched back, so no token (and no number) is lost; such a text is
assembled window by window as its batches come (`windows.LongText`), keeping its mention vectors and pooling, not
its token states (but where the token backend's BERTScore reads them all), so a source of any size is encoded in
memory that grows with its mentions. Under the one-pass text channel, texts of one window that differ only in their
numbers share a row (`variants`).
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch
from tqdm.auto import tqdm

from .models import ResolvedModel, default_num_layers, model_load_error
from .text_cache import TextCache
from .variants import PackedRow, member_states, packed_batch, packed_rows
from .windows import (
    TOKENIZE_PIECE,
    LongText,
    StreamPooling,
    batch_mention_vectors,
    kept_tokens,
    pooling_modes,
    tokenize_in_pieces,
)

Span = tuple[int, int]
# A sentence model pools a text of up to this many tokens over its stitched token states, as it always did (bit for
# bit); a longer text's pooling is summed window by window (`windows.StreamPooling`: the same up to float rounding,
# without holding its states). 12 MB of states for all-MiniLM-L6-v2.
STITCHED_TOKENS = 8192
# On CPU the windows of a long text are encoded in batches of at most this many tokens: 64 full windows of
# all-MiniLM-L6-v2 take 0.5 GB of activations, 16 (this budget) 0.15 GB, no slower on CPU.
CPU_BATCH_TOKENS = 4096
# On CPU a batch of texts of one window (or of packed rows, `variants`) holds at most `batch_size` of them and at
# most this many tokens, padding included: the long ones come in smaller batches, where texts of unequal length pad
# less and a packed row's attention stays small (`perf/throughput.py` compares NASH with a plain pass in batches of 64).
CPU_SHORT_BATCH_TOKENS = 2048


@dataclass
class Encoding:
    """What the scorer needs of one text."""

    mention_vectors: np.ndarray  # [M, H] float32, L2-normalised; a zero row where a mention has no sub-token
    mention_has_tokens: np.ndarray  # [M] bool
    n_windows: int
    n_tokens: int  # content tokens (without special tokens)
    states: torch.Tensor | None = None  # [T, H] normalised token states incl. special tokens (token backend)
    token_ids: np.ndarray | None = None  # [T] ids matching `states`
    special: np.ndarray | None = None  # [T] bool
    pooled: torch.Tensor | None = None  # [H'] normalised sentence embedding (sentence backend)
    # One-pass text channel (`left_out` given to `Encoder.encode`): the rows of `states` it keeps (token backend),
    # the model's pooling over those tokens (sentence backend), and whether no content token is left.
    channel_keep: np.ndarray | None = None  # [T] bool
    channel_pooled: torch.Tensor | None = None  # [H']
    channel_empty: bool = False
    # One pass, token backend: the rows of `states` the text channel keeps, gathered with the rest of its batch
    # (`channel_view`; None for a text of several windows or of a packed row).
    channel_states: torch.Tensor | None = None


@dataclass
class _Tokenized:
    ids: np.ndarray  # [n] int64 content token ids
    offsets: np.ndarray  # [n, 2] int64 character offsets


class Encoder:
    """Shared windowing, batching and mention pooling; subclasses provide the forward pass."""

    keep_states: bool = False
    streaming_pooling: tuple[str, ...] | None = None  # the pooling modes `StreamPooling` sums (sentence models)
    # The first position id of a sequence (RoBERTa's count from its padding index + 1), or None when the model's
    # forward takes no position ids (`position_offset`).
    position_offset: int | None = 0
    # One pass: texts that differ only in their numbers share a row (`variants`); off, every text has its own row.
    pack_variants: bool = True

    def __init__(self, tokenizer, device: torch.device, max_length: int, batch_size: int) -> None:
        self.tokenizer = tokenizer
        self.device = device
        self.batch_size = batch_size
        self.prefix, self.suffix = _special_affixes(tokenizer)
        self._affixes = (np.asarray(self.prefix, np.int64), np.asarray(self.suffix, np.int64))
        self.max_length = max_length
        self.window = max_length - len(self.prefix) - len(self.suffix)  # content tokens per window
        if self.window < 8:
            raise ValueError(f"model window of {max_length} tokens is too small")
        self.stride = max(1, self.window * 3 // 4)
        self._tokens: TextCache[_Tokenized] = TextCache()  # this tokenizer's tokens of the texts it met, by content

    # -- subclass hooks ---------------------------------------------------------------------------
    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                position_ids: torch.Tensor | None = None) -> torch.Tensor:
        """Token states [B, L, H] for a padded batch; `attention_mask` [B, L], or [B, 1, L, L] additive."""
        raise NotImplementedError

    def pool(self, states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor | None:
        """Sentence embeddings [B, H'] from token states, or None for token-level models."""
        return None

    # -- public -----------------------------------------------------------------------------------
    def encode(
        self,
        texts: Sequence[str],
        spans: Sequence[Sequence[Span]],
        show_progress: bool = False,
        left_out: Sequence[Sequence[Span]] | None = None,
        on_batch: Callable[[int, int], object] | None = None,
    ) -> list[Encoding]:
        """Encode each text once. `spans[i]`: the mentions whose vectors text i needs; `left_out[i]` (one-pass
        text channel): the character spans whose tokens the text channel leaves out of that same pass; `on_batch`
        hears `(windows encoded, windows in all)` after each batch (a caller's progress bar)."""
        tokenized = self.tokenize_batch(texts)
        keep = kept_tokens([tok.offsets for tok in tokenized], left_out) if left_out else None
        out: list[Encoding | None] = [None] * len(texts)
        rows = self._variant_rows(tokenized, keep) if keep is not None else []
        packed = {i for row in rows for i in row.members}
        windows: list[tuple[int, int]] = []  # (text index, content start)
        for i, tok in enumerate(tokenized):
            if i not in packed:
                windows.extend((i, start) for start in self.window_starts(len(tok.ids)))
        total = len(windows) + len(packed)

        def heard(first: int) -> Callable[[int], object] | None:  # windows done so far, as `on_batch` hears them
            return None if on_batch is None else (lambda done: on_batch(first + done, total))

        self._encode_packed(rows, tokenized, spans, keep, out, show_progress, heard(0))
        self._encode_windows(windows, tokenized, spans, keep, out, show_progress, heard(len(packed)))
        return out  # type: ignore[return-value]  # every text has a window

    def _encode_windows(self, windows: list[tuple[int, int]], tokenized: list[_Tokenized],
                        spans: Sequence[Sequence[Span]], keep: list[np.ndarray] | None, out: list[Encoding | None],
                        show_progress: bool, on_batch: Callable[[int], object] | None) -> None:
        """Encode `windows` ((text index, content start)) in batches, longest first, into `out`."""
        # Longest first, as bert-score does: padding is minimal and OOM shows up at once.
        order = sorted(range(len(windows)), key=lambda w: -min(self.window, len(tokenized[windows[w][0]].ids)))
        # A text of several windows is assembled as its windows come (their order is kept: equal keys, stable sort).
        long = {i: self._long_text(tok, spans[i], keep[i] if keep is not None else None)
                for i, tok in enumerate(tokenized) if len(tok.ids) > self.window}
        batches = self._batches([windows[w][0] in long for w in order],
                                [len(self.prefix) + min(self.window, len(tokenized[windows[w][0]].ids))
                                 + len(self.suffix) for w in order])
        for b, size in tqdm(batches, desc="encoding", unit="batch", disable=not show_progress or len(batches) < 2):
            idx = order[b : b + size]
            seqs = [self.window_ids(tokenized[windows[w][0]].ids, windows[w][1]) for w in idx]
            ids, mask = self.pad(seqs)
            kept = self._window_keep([keep[windows[w][0]] for w in idx], [windows[w][1] for w in idx], mask) \
                if keep is not None else None
            with torch.inference_mode():
                states = self.forward(ids, *self._number_blind(mask, kept)) if kept is not None \
                    else self.forward(ids, mask)
                pooled = self.pool(states, mask)
                channel = self.pool(states, kept) if pooled is not None and kept is not None else None
            states, normed, pooled, channel = self._on_cpu(states, pooled, channel)
            found = self._mentions_of(states, [windows[w][0] for w in idx], tokenized, spans, long)
            # A text of several windows reads its channel from its stitched states: none of its rows are gathered.
            kept_rows = _kept_rows(normed, kept * torch.tensor([windows[w][0] not in long for w in idx],
                                                               device=kept.device)[:, None]) \
                if normed is not None and kept is not None else None
            for row, w in enumerate(idx):
                i, start = windows[w]
                if i in long:
                    long[i].add(start, states[row, : len(seqs[row])])
                    if long[i].complete:
                        out[i] = self._long_encoding(tokenized[i], long.pop(i), keep[i] if keep is not None else None)
                    continue
                window_pooled = (pooled[row], channel[row] if channel is not None else None) if pooled is not None \
                    else None
                out[i] = self._assemble(tokenized[i], found[row], states[row, : len(seqs[row])],
                                        normed[row, : len(seqs[row])] if normed is not None else None, window_pooled,
                                        keep[i] if keep is not None else None)
                if kept_rows is not None:
                    out[i].channel_states = kept_rows[row]
            del states, normed, pooled, channel
            if on_batch is not None:
                on_batch(b + len(idx))

    def _on_cpu(self, states: torch.Tensor, pooled: torch.Tensor | None, channel: torch.Tensor | None
                ) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None, torch.Tensor | None]:
        """A batch's states (and, token backend, the same L2-normalised), its pooling and its text channel's pooling
        as float32 on the CPU: one transfer a batch, then rows. Normalised for the whole batch at once: a text's rows
        are views of it (its padding is the only waste; 2,000 small normalisations cost more than the arithmetic on a
        CPU)."""
        states = states.float().cpu()
        normed = torch.nn.functional.normalize(states, dim=-1) if self.keep_states else None
        return states, normed, *(x.float().cpu() if x is not None else None for x in (pooled, channel))

    def _variant_rows(self, tokenized: list[_Tokenized], keep: list[np.ndarray]) -> list[PackedRow]:
        """The rows of texts of one window that share their words (`variants`), where the model takes position ids."""
        if not self.pack_variants or self.position_offset is None:
            return []
        lead, trail = np.ones(len(self.prefix), bool), np.ones(len(self.suffix), bool)
        # Only texts whose kept words another text has too can share a row: found by their bytes, in one pass.
        words: dict[bytes, list[int]] = {}
        for i, (tok, k) in enumerate(zip(tokenized, keep)):
            if len(tok.ids) <= self.window and not k.all():
                words.setdefault(tok.ids[k].tobytes(), []).append(i)
        shared = {i for members in words.values() if len(members) > 1 for i in members}
        return packed_rows([self.window_ids(tok.ids, 0) if i in shared else [] for i, tok in enumerate(tokenized)],
                           [np.concatenate([lead, k, trail]) if i in shared else None for i, k in enumerate(keep)],
                           self.max_length)

    def _encode_packed(self, rows: list[PackedRow], tokenized: list[_Tokenized], spans: Sequence[Sequence[Span]],
                       keep: list[np.ndarray], out: list[Encoding | None], show_progress: bool,
                       on_batch: Callable[[int], object] | None) -> None:
        """Encode the texts of `rows` (`variants`: each row's shared words once) into `out`, as their own rows would."""
        dtype = next(self.model.parameters()).dtype
        done = 0
        rows = sorted(rows, key=lambda r: -len(r.ids))
        batches = [rows[b : b + size] for b, size in self._batches([False] * len(rows), [len(r.ids) for r in rows])]
        for batch in tqdm(batches, desc="encoding variants", unit="batch",
                          disable=not show_progress or len(batches) < 2):
            members = [i for row in batch for i in row.members]
            sizes = [len(self.prefix) + len(tokenized[i].ids) + len(self.suffix) for i in members]
            with torch.inference_mode():
                states = self.forward(*packed_batch(batch, self.pad_id, self.position_offset, dtype, self.device))
                full, mask, kept = member_states(states, batch)
                pooled = self.pool(full, mask)
                channel = self.pool(full, kept) if pooled is not None else None
            full, normed, pooled, channel = self._on_cpu(full, pooled, channel)
            found = self._mentions_of(full, members, tokenized, spans)
            for v, (i, n) in enumerate(zip(members, sizes)):
                out[i] = self._assemble(tokenized[i], found[v], full[v, :n], normed[v, :n] if normed is not None
                                        else None, (pooled[v], channel[v]) if pooled is not None else None, keep[i])
            done += len(members)
            if on_batch is not None:
                on_batch(done)

    # -- tokenisation, windows and batches (public for tests and the throughput benchmark) --------
    def tokenize(self, text: str) -> _Tokenized:
        return self.tokenize_batch([text])[0]

    def tokenize_batch(self, texts: Sequence[str]) -> list[_Tokenized]:
        """Content token ids and character offsets of every text: the short ones in one call of the fast tokenizer, a
        long one in overlapping pieces (`windows.tokenize_in_pieces`: the same tokens); a text tokenized by an earlier
        call, as it was then (`text_cache`: read-only arrays, kept by content)."""
        out: list[_Tokenized | None] = [self._tokens.find(t) for t in texts]
        new = [i for i, tok in enumerate(out) if tok is None]
        short = [i for i in new if len(texts[i]) <= TOKENIZE_PIECE]
        for i, (ids, offsets) in zip(short, self._tokenize([texts[i] for i in short])):
            out[i] = _Tokenized(ids, offsets)
        for i in new:  # a long text in pieces: the tokenizer's Python lists stay small
            if out[i] is None:
                out[i] = _Tokenized(*tokenize_in_pieces(lambda piece: self._tokenize([piece])[0], texts[i]))
            out[i].ids.flags.writeable = out[i].offsets.flags.writeable = False
            self._tokens.keep(texts[i], texts[i], out[i])
        return out  # type: ignore[return-value]

    def _tokenize(self, texts: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
        if not texts:
            return []
        backend = getattr(self.tokenizer, "_tokenizer", None)
        if getattr(backend, "truncation", True) is None and getattr(backend, "padding", True) is None:
            # The fast tokenizer's own batch call, which the wrapper below makes too (when it neither truncates nor
            # pads), without the wrapper's conversion of every text's tokens into Python dicts.
            return [(np.asarray(e.ids, dtype=np.int64), np.asarray(e.offsets, dtype=np.int64).reshape(-1, 2))
                    for e in backend.encode_batch(list(texts), add_special_tokens=False)]
        enc = self.tokenizer(
            list(texts), add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False
        )
        return [(np.asarray(ids, dtype=np.int64), np.asarray(offsets, dtype=np.int64).reshape(-1, 2))
                for ids, offsets in zip(enc["input_ids"], enc["offset_mapping"])]

    def window_starts(self, n: int) -> list[int]:
        if n <= self.window:
            return [0]
        starts = list(range(0, n - self.window, self.stride))
        return [*starts, n - self.window]

    def window_ids(self, ids: Sequence[int] | np.ndarray, start: int) -> list[int]:
        return self.prefix + np.asarray(ids)[start : start + self.window].tolist() + self.suffix

    def _batches(self, of_long: Sequence[bool], lengths: Sequence[int]) -> list[tuple[int, int]]:
        """(first, size) of each batch of the windows in encoding order (longest first; `lengths` in tokens):
        `batch_size` windows; on CPU, windows of texts longer than the window in batches of their own of at most
        `CPU_BATCH_TOKENS` tokens, others at most `CPU_SHORT_BATCH_TOKENS`."""
        cap = max(1, CPU_BATCH_TOKENS // (len(self.prefix) + self.window + len(self.suffix)))
        out, b = [], 0
        while b < len(of_long):
            size = min(self.batch_size, len(of_long) - b)
            if of_long[b] and self.device.type == "cpu":
                size = min(size, cap)
                size = next((k for k in range(1, size) if not of_long[b + k]), size)
            elif self.device.type == "cpu":
                size = min(size, max(1, CPU_SHORT_BATCH_TOKENS // lengths[b]))
            out.append((b, size))
            b += size
        return out

    @property
    def pad_id(self) -> int:
        return self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0

    def pad(self, seqs: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Ids [B, L] padded with `pad_id` and their attention mask, laid out in numpy at once (a tensor per row
        cost more than the tiny model's forward pass)."""
        lengths = np.array([len(s) for s in seqs], np.int64)
        mask = np.arange(lengths.max())[None, :] < lengths[:, None]
        ids = np.full(mask.shape, self.pad_id, np.int64)
        ids[mask] = np.fromiter(itertools.chain.from_iterable(seqs), np.int64, int(lengths.sum()))
        return torch.from_numpy(ids).to(self.device), torch.from_numpy(mask.astype(np.int64)).to(self.device)

    # -- internals --------------------------------------------------------------------------------
    def _window_keep(self, keeps: list[np.ndarray], starts: list[int], mask: torch.Tensor) -> torch.Tensor:
        """The attention mask of a padded batch with the left-out tokens of each window zeroed: what the text
        channel reads (its pooling, and `_number_blind`'s mask)."""
        kept = mask.clone()
        parts = [keep[start : start + self.window] for keep, start in zip(keeps, starts)]
        lengths = np.array([len(part) for part in parts], np.int64)
        if lengths.any():  # each row's window of its kept tokens, at once
            inside = torch.from_numpy(np.arange(lengths.max())[None, :] < lengths[:, None]).to(mask.device)
            values = torch.from_numpy(np.concatenate(parts)).to(mask.device, mask.dtype)
            kept[:, len(self.prefix) : len(self.prefix) + inside.shape[1]][inside] = values
        return kept

    def _number_blind(self, mask: torch.Tensor, kept: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The one-pass text channel's attention (docs/scoring/text-channel.md): a kept token (a word, a special token)
        attends to the kept tokens only, a left-out one (a number) to every token; as a 4-D additive mask [B, 1, L, L].
        The words' position ids count the kept tokens only, so that their states are those of the text without its
        numbers (the second pass of `text_channel="two-pass"`); a number keeps its own position in the text, which
        aligns same-kind figures of one sentence better on the NumFinE dev builds than a position counted without
        the numbers. Position ids are None where the model takes none (its own positions then)."""
        dtype = next(self.model.parameters()).dtype
        real, word = mask.bool(), kept.bool()
        allowed = real[:, None, :] & (word[:, None, :] | ~word[:, :, None])  # [B, query, key]
        blind = torch.zeros(allowed.shape, dtype=dtype, device=mask.device)
        blind.masked_fill_(~allowed, torch.finfo(dtype).min)
        positions = None
        if self.position_offset is not None:
            compact = (torch.cumsum(word.long(), 1) - word.long()) * real.long()
            natural = torch.arange(mask.shape[1], device=mask.device)[None].expand_as(compact)
            positions = torch.where(word, compact, natural) + self.position_offset
        return blind[:, None], positions

    def _assemble(self, tok: _Tokenized, mentions: tuple[np.ndarray, np.ndarray], full: torch.Tensor,
                  normed: torch.Tensor | None, pooled: tuple[torch.Tensor, torch.Tensor | None] | None,
                  keep: np.ndarray | None) -> Encoding:
        """The encoding of a text of one window: `mentions` its mention vectors and which have tokens
        (`_mentions_of`), `full` its states, `normed` the same L2-normalised (token backend), `pooled` the model's
        pooling of the window (and of its kept tokens, one pass)."""
        enc = Encoding(mention_vectors=mentions[0], mention_has_tokens=mentions[1], n_windows=1, n_tokens=len(tok.ids))
        self._finish(enc, tok, normed, full.shape[0], keep)
        if pooled is not None:
            enc.pooled, enc.channel_pooled = pooled
            self._normalise_pooled(enc)
        return enc

    def _mentions_of(self, states: torch.Tensor, texts: Sequence[int], tokenized: list[_Tokenized],
                     spans: Sequence[Sequence[Span]], skip: Collection[int] = ()
                     ) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per row of a batch's CPU states (text `texts[row]` from column `len(prefix)`): its mentions' vectors,
        for the whole batch at once; none for the texts of `skip` (those of several windows)."""
        return batch_mention_vectors(states.numpy(), len(self.prefix), [tokenized[i].offsets for i in texts],
                                     [spans[i] if i not in skip else () for i in texts])

    def _long_text(self, tok: _Tokenized, spans: Sequence[Span], keep: np.ndarray | None) -> LongText:
        stream = (self.streaming_pooling is not None and len(tok.ids) > STITCHED_TOKENS
                  and self._streaming_checked())
        pooling = tuple(StreamPooling(self.streaming_pooling) for _ in range(1 + (keep is not None))) if stream \
            else None
        keep_all = self.keep_states or (self.has_pooling and not stream)
        return LongText(len(tok.ids), self.window_starts(len(tok.ids)), self.window, len(self.prefix), tok.offsets,
                        spans, keep, pooling, keep_all)

    def _long_encoding(self, tok: _Tokenized, text: LongText, keep: np.ndarray | None) -> Encoding:
        """The encoding of a text of several windows, once its last window is in."""
        n = len(tok.ids)
        width = len(self.prefix) + n + len(self.suffix)
        vectors, has_tokens = text.mention_vectors()
        enc = Encoding(mention_vectors=vectors, mention_has_tokens=has_tokens, n_windows=len(text.starts),
                       n_tokens=n)
        full = text.full_states() if text.keep_all else None
        normed = torch.nn.functional.normalize(full, dim=-1) if self.keep_states and full is not None else None
        self._finish(enc, tok, normed, width, keep)
        if text.pooling is not None:  # the model's pooling over the stitched sequence, summed window by window
            enc.pooled = self._after_pooling(text.pooling[0].vector())
            if keep is not None:
                enc.channel_pooled = self._after_pooling(text.pooling[1].vector())
        elif self.has_pooling:
            enc.pooled = self._pool_stitched(full, np.ones(width, bool))
            if keep is not None:
                enc.channel_pooled = self._pool_stitched(full, enc.channel_keep)
        if enc.pooled is not None:
            self._normalise_pooled(enc)
        return enc

    def _finish(self, enc: Encoding, tok: _Tokenized, normed: torch.Tensor | None, width: int,
                keep: np.ndarray | None) -> None:
        """The one-pass channel's kept tokens, and with `normed` (the token backend) the normalised token states."""
        n, lead = len(tok.ids), len(self.prefix)
        if keep is not None:
            enc.channel_keep = np.ones(width, bool)
            enc.channel_keep[lead : lead + n] = keep
            enc.channel_empty = not keep.any()
        if normed is not None:
            enc.special = np.ones(width, dtype=bool)
            enc.special[lead : lead + n] = False
            enc.states = normed
            enc.token_ids = np.concatenate([self._affixes[0], tok.ids, self._affixes[1]])

    @staticmethod
    def _normalise_pooled(enc: Encoding) -> None:
        enc.pooled = torch.nn.functional.normalize(enc.pooled, dim=-1)
        if enc.channel_pooled is not None:
            enc.channel_pooled = torch.nn.functional.normalize(enc.channel_pooled, dim=-1)

    @property
    def has_pooling(self) -> bool:
        return False

    def _after_pooling(self, pooled: torch.Tensor) -> torch.Tensor:
        """A pooled vector through the model's modules after its pooling (Dense, Normalize)."""
        return pooled

    def _streaming_checked(self) -> bool:
        return True

    def _pool_stitched(self, full: torch.Tensor, keep: np.ndarray) -> torch.Tensor:
        """The model's pooling over a stitched sequence of windows, over the tokens `keep` marks."""
        dtype = next(self.model.parameters()).dtype  # the states were cast to float32 for the similarities
        mask = torch.from_numpy(keep.astype(np.int64))[None].to(self.device)
        with torch.inference_mode():
            return self.pool(full[None].to(self.device, dtype), mask)[0].float().cpu()


def channel_view(enc: Encoding) -> Encoding:
    """The one-pass text channel of an encoding: its token states without the left-out ones (token backend),
    its pooling over the kept tokens (sentence backend)."""
    keep = enc.channel_keep
    if keep is None:
        return enc
    view = replace(enc, pooled=enc.channel_pooled, channel_keep=None, channel_pooled=None, channel_states=None)
    if enc.states is not None and not keep.all():
        # index_select, not a boolean mask: boolean indexing cost ~8 ms a call on a loaded 2-core CPU (10 us this way)
        view.states = enc.channel_states if enc.channel_states is not None \
            else enc.states.index_select(0, torch.from_numpy(np.flatnonzero(keep)))
        view.token_ids, view.special = enc.token_ids[keep], enc.special[keep]
    return view


def _kept_rows(normed: torch.Tensor, kept: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Per row of a batch's normalised states [B, L, H], the states of the tokens its text channel keeps (`kept`,
    [B, L], 0 on padding), in order: one gather for the batch, each row's a view of it (`channel_view`)."""
    flat = np.flatnonzero(kept.cpu().numpy())
    gathered = normed.reshape(-1, normed.shape[-1]).index_select(0, torch.from_numpy(flat))
    return torch.split(gathered, kept.sum(dim=1).cpu().tolist())


# Where Hugging Face encoders keep their list of layers (BERT, RoBERTa, ELECTRA...; DistilBERT; T5; others).
_LAYER_LISTS = ("encoder.layer", "transformer.layer", "encoder.layers", "layers", "block", "layer")


def position_offset(model: torch.nn.Module | None) -> int | None:
    """The position id of a sequence's first token in a Hugging Face model (RoBERTa's count from its padding
    index + 1, else 0), or None when its forward takes no position ids."""
    if model is None or "position_ids" not in inspect.signature(model.forward).parameters:
        return None
    embeddings = getattr(model, "embeddings", None)
    if hasattr(embeddings, "create_position_ids_from_input_ids"):
        return int(embeddings.padding_idx) + 1
    return 0


def _special_affixes(tokenizer) -> tuple[list[int], list[int]]:
    """The special tokens a tokenizer puts before and after a single sequence ([CLS] ... [SEP] for BERT)."""
    plain = tokenizer("nash", add_special_tokens=False)["input_ids"]
    full = tokenizer("nash", add_special_tokens=True)["input_ids"]
    for start in range(len(full) - len(plain) + 1):
        if full[start : start + len(plain)] == plain:
            return list(full[:start]), list(full[start + len(plain) :])
    raise ValueError(f"cannot locate the special tokens of tokenizer {type(tokenizer).__name__}")


class TokenEncoder(Encoder):
    """Any Hugging Face encoder; states of hidden layer `num_layers` (bert-score's convention)."""

    keep_states = True

    def __init__(
        self, resolved: ResolvedModel, num_layers: int | None, device: torch.device, batch_size: int,
        dtype: torch.dtype = torch.float32,
    ) -> None:
        from transformers import AutoModel, AutoTokenizer

        try:
            tokenizer = AutoTokenizer.from_pretrained(resolved.path)
            model = AutoModel.from_pretrained(resolved.path)
        except Exception as exc:
            raise model_load_error(resolved, exc) from exc
        if not getattr(tokenizer, "is_fast", True) and not hasattr(tokenizer, "_tokenizer"):
            raise ValueError(f"model {resolved.name!r} has no fast tokenizer: character offsets are needed")
        model.eval()
        if hasattr(model, "decoder") and hasattr(model, "encoder"):
            model = model.encoder
        total = int(model.config.num_hidden_layers)
        layer = default_num_layers(resolved, total) if num_layers is None else int(num_layers)
        if not 0 <= layer <= total:
            raise ValueError(f"num_layers must be between 0 and {total} for {resolved.name!r}, got {layer}")
        self.num_layers = layer
        self.model = model.to(device=device, dtype=dtype)
        limit = min(int(tokenizer.model_max_length), int(getattr(model.config, "max_position_embeddings", 512)))
        if getattr(model.config, "model_type", "") in ("roberta", "xlm-roberta", "camembert"):
            limit = min(limit, model.config.max_position_embeddings - 2)
        super().__init__(tokenizer, device, limit, batch_size)
        self.position_offset = position_offset(model)
        if layer < total:
            self._drop_layers_after(layer)

    def _drop_layers_after(self, layer: int) -> None:
        """Leave out the layers after `layer`, whose states nothing reads (bert-score truncates its model the same
        way): a quarter of the layers at bert-base's default layer 9 of 12. Kept only where a probe text's
        states at `layer` are the full model's (a model whose layers live elsewhere keeps them all)."""
        for path in _LAYER_LISTS:
            *parents, name = path.split(".")
            owner = functools.reduce(lambda obj, attr: getattr(obj, attr, None), parents, self.model)
            layers = getattr(owner, name, None)
            if isinstance(layers, torch.nn.ModuleList) and len(layers) > layer:
                break
        else:
            return
        probe = self.pad([self.window_ids(self.tokenize("Revenue rose 4% to $3.2 million in 2019.").ids, 0)])
        with torch.inference_mode():
            full = self.forward(*probe)
            setattr(owner, name, torch.nn.ModuleList(list(layers)[:layer]))
            try:
                same = torch.allclose(self.forward(*probe), full, atol=1e-5, rtol=0)
            except Exception:  # any model that fails without its later layers keeps them
                same = False
        if not same:
            setattr(owner, name, layers)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                position_ids: torch.Tensor | None = None) -> torch.Tensor:
        extra = {} if position_ids is None else {"position_ids": position_ids}
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True, **extra)
        return out.hidden_states[self.num_layers]


class SentenceEncoder(Encoder):
    """A sentence-transformers model: its first module gives token states, the rest pool them."""

    def __init__(
        self, resolved: ResolvedModel, device: torch.device, batch_size: int, dtype: torch.dtype = torch.float32
    ) -> None:
        from sentence_transformers import SentenceTransformer

        try:
            model = SentenceTransformer(resolved.path, device=str(device))
        except Exception as exc:
            raise model_load_error(resolved, exc) from exc
        model.eval()
        self.model = model.to(dtype=dtype)
        self.num_layers = (
            int(getattr(model[0].auto_model.config, "num_hidden_layers", 0)) if hasattr(model[0], "auto_model") else 0
        )
        super().__init__(model.tokenizer, device, int(model.max_seq_length), batch_size)
        self.position_offset = position_offset(getattr(model[0], "auto_model", None))
        self.streaming_pooling = pooling_modes(list(model)[1:])
        self._streaming_ok: bool | None = None

    @property
    def has_pooling(self) -> bool:
        return True

    def _after_pooling(self, pooled: torch.Tensor) -> torch.Tensor:
        features = {"sentence_embedding": pooled[None].to(self.device, next(self.model.parameters()).dtype)}
        with torch.inference_mode():
            for module in list(self.model)[2:]:
                features = module(features)
        return features["sentence_embedding"][0].float().cpu()

    def _streaming_checked(self) -> bool:
        """Whether the pooling summed in pieces is the model's own (checked once, on random states in two pieces
        with some tokens masked); if not, a long text keeps its token states and the model pools them whole."""
        if self._streaming_ok is None:
            with torch.inference_mode():
                hidden = self.forward(*self.pad([self.prefix + self.suffix])).shape[-1]
            dtype = next(self.model.parameters()).dtype
            states = torch.randn(9, hidden, generator=torch.Generator().manual_seed(0)).to(dtype).float()
            keep = np.array([1, 1, 0, 1, 1, 0, 0, 1, 1], bool)
            summed = StreamPooling(self.streaming_pooling)
            summed.add(states[:4], keep[:4])
            summed.add(states[4:], keep[4:])
            whole = torch.nn.functional.normalize(self._pool_stitched(states, keep), dim=-1)
            pieces = torch.nn.functional.normalize(self._after_pooling(summed.vector()), dim=-1)
            self._streaming_ok = float(whole @ pieces) > 1 - 1e-4
            if not self._streaming_ok:
                self.streaming_pooling = None
        return self._streaming_ok

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                position_ids: torch.Tensor | None = None) -> torch.Tensor:
        features = {"input_ids": input_ids, "attention_mask": attention_mask}
        if position_ids is not None:
            features["position_ids"] = position_ids
        if "token_type_ids" in self.tokenizer.model_input_names:
            features["token_type_ids"] = torch.zeros_like(input_ids)
        return self.model[0](features)["token_embeddings"]

    def pool(self, states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        features = {"token_embeddings": states, "attention_mask": attention_mask}
        for module in list(self.model)[1:]:
            features = module(features)
        return features["sentence_embedding"]


def load_encoder(
    resolved: ResolvedModel,
    backend: str,
    num_layers: int | None,
    device: torch.device,
    batch_size: int,
    dtype: str = "float32",
) -> Encoder:
    """The backbone `backend` names, in precision `dtype` ('float32', 'float16', 'bfloat16')."""
    torch_dtype = getattr(torch, dtype)
    if backend == "sentence":
        if num_layers is not None:
            raise ValueError("num_layers applies to the token backend only; sentence models use their own output")
        return SentenceEncoder(resolved, device, batch_size, torch_dtype)
    return TokenEncoder(resolved, num_layers, device, batch_size, torch_dtype)


def torch_device(device: str | torch.device | None) -> torch.device:
    """The requested device, or CUDA when available; a clear error for unknown or unavailable devices."""
    if device is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError) as exc:
        raise ValueError(f"unknown device {device!r}: {exc}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r} requested but CUDA is not available on this machine")
    return dev
