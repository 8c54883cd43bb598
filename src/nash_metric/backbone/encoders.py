"""Backbone encoders: one batched forward pass per unique text.

Each text yields, from the *same* forward pass, its token states (the BERTScore inputs), the
contextual vector of every numeric mention (mean of its sub-token states) and, for
sentence-transformers models, the pooled sentence embedding. Texts longer than the model window
are encoded in further overlapping windows and stitched back, so no token (and no number) is lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import torch
from tqdm.auto import tqdm

from .models import ResolvedModel, default_num_layers, model_load_error

Span = tuple[int, int]


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


@dataclass
class _Tokenized:
    ids: list[int]
    offsets: list[Span]


class Encoder:
    """Shared windowing, batching and mention pooling; subclasses provide the forward pass."""

    keep_states: bool = False

    def __init__(self, tokenizer, device: torch.device, max_length: int, batch_size: int) -> None:
        self.tokenizer = tokenizer
        self.device = device
        self.batch_size = batch_size
        self.prefix, self.suffix = _special_affixes(tokenizer)
        self.max_length = max_length
        self.window = max_length - len(self.prefix) - len(self.suffix)  # content tokens per window
        if self.window < 8:
            raise ValueError(f"model window of {max_length} tokens is too small")
        self.stride = max(1, self.window * 3 // 4)

    # -- subclass hooks ---------------------------------------------------------------------------
    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Token states [B, L, H] for a padded batch."""
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
        keep = [self._kept_tokens(tok, left_out[i]) for i, tok in enumerate(tokenized)] if left_out else None
        windows: list[tuple[int, int]] = []  # (text index, content start)
        for i, tok in enumerate(tokenized):
            windows.extend((i, start) for start in self.window_starts(len(tok.ids)))
        # Longest first, as bert-score does: padding is minimal and OOM shows up at once.
        order = sorted(range(len(windows)), key=lambda w: -min(self.window, len(tokenized[windows[w][0]].ids)))
        window_states: list[torch.Tensor | None] = [None] * len(windows)
        window_pooled: list[tuple[torch.Tensor, torch.Tensor | None] | None] = [None] * len(windows)
        batches = range(0, len(order), self.batch_size)
        for b in tqdm(batches, desc="encoding", unit="batch", disable=not show_progress or len(batches) < 2):
            idx = order[b : b + self.batch_size]
            seqs = [self.window_ids(tokenized[windows[w][0]].ids, windows[w][1]) for w in idx]
            ids, mask = self.pad(seqs)
            with torch.inference_mode():
                states = self.forward(ids, mask)
                pooled = self.pool(states, mask)
                channel = None
                if pooled is not None and keep is not None:
                    kept = self._window_keep([keep[windows[w][0]] for w in idx], [windows[w][1] for w in idx], mask)
                    channel = self.pool(states, kept)
            states = states.float().cpu()  # one transfer a batch, then rows
            pooled = pooled.float().cpu() if pooled is not None else None
            channel = channel.float().cpu() if channel is not None else None
            for row, w in enumerate(idx):
                window_states[w] = states[row, : len(seqs[row])].clone()  # a view would keep the padded batch
                if pooled is not None:
                    window_pooled[w] = (pooled[row], channel[row] if channel is not None else None)
            if on_batch is not None:
                on_batch(b + len(idx), len(order))
        out: list[Encoding] = []
        cursor = 0
        for i, tok in enumerate(tokenized):
            n = len(self.window_starts(len(tok.ids)))
            out.append(
                self._assemble(
                    tok,
                    spans[i],
                    windows[cursor : cursor + n],
                    window_states[cursor : cursor + n],
                    window_pooled[cursor : cursor + n],
                    keep[i] if keep is not None else None,
                )
            )
            cursor += n
        return out

    # -- tokenisation, windows and batches (public for tests and the throughput benchmark) --------
    def tokenize(self, text: str) -> _Tokenized:
        return self.tokenize_batch([text])[0]

    def tokenize_batch(self, texts: Sequence[str]) -> list[_Tokenized]:
        """Content token ids and character offsets of every text, in one call of the fast tokenizer."""
        if not texts:
            return []
        enc = self.tokenizer(
            list(texts), add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False
        )
        return [_Tokenized(ids, offsets) for ids, offsets in zip(enc["input_ids"], enc["offset_mapping"])]

    def window_starts(self, n: int) -> list[int]:
        if n <= self.window:
            return [0]
        starts = list(range(0, n - self.window, self.stride))
        return [*starts, n - self.window]

    def window_ids(self, ids: list[int], start: int) -> list[int]:
        return self.prefix + ids[start : start + self.window] + self.suffix

    def pad(self, seqs: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        width = max(len(s) for s in seqs)
        ids = torch.full((len(seqs), width), pad, dtype=torch.long)
        mask = torch.zeros((len(seqs), width), dtype=torch.long)
        for r, s in enumerate(seqs):
            ids[r, : len(s)] = torch.tensor(s, dtype=torch.long)
            mask[r, : len(s)] = 1
        return ids.to(self.device), mask.to(self.device)

    # -- internals --------------------------------------------------------------------------------
    @staticmethod
    def _kept_tokens(tok: _Tokenized, left_out: Sequence[Span]) -> np.ndarray:
        """[n] bool: the content tokens outside every left-out span (a token touching one leaves with it)."""
        keep = np.ones(len(tok.ids), dtype=bool)
        if left_out and tok.ids:
            keep[_overlaps(tok.offsets, left_out)[1]] = False
        return keep

    def _window_keep(self, keeps: list[np.ndarray], starts: list[int], mask: torch.Tensor) -> torch.Tensor:
        """The attention mask of a padded batch with the left-out tokens of each window zeroed (for pooling)."""
        kept = mask.clone()
        lead = len(self.prefix)
        for row, (keep, start) in enumerate(zip(keeps, starts)):
            part = keep[start : start + self.window]
            kept[row, lead : lead + len(part)] = torch.from_numpy(part).to(mask.device, mask.dtype)
        return kept

    def _assemble(self, tok: _Tokenized, spans: Sequence[Span], windows, states, pooled, keep) -> Encoding:
        n = len(tok.ids)
        lead = len(self.prefix)
        if len(windows) == 1:
            full = states[0]
            content = full[lead : lead + n]
        else:
            # Each token takes its state from the window where it sits farthest from an edge, i.e. whose centre is
            # nearest (the earlier window on a tie). Windows are equal and ordered, so each owns one run of tokens,
            # cut where 2t passes s_k + s_k+1 + window - 1: linear in the text, not tokens x windows.
            starts = np.array([s for _, s in windows])
            cuts = np.searchsorted(starts[:-1] + starts[1:] + self.window - 1, 2 * np.arange(n), side="left")
            bounds = np.searchsorted(cuts, np.arange(len(windows) + 1), side="left")  # first token of each run
            content = torch.cat([states[k][lead + bounds[k] - starts[k] : lead + bounds[k + 1] - starts[k]]
                                 for k in range(len(windows))])
            full = torch.cat([states[0][:lead], content, states[-1][lead + self.window :]])
        special = np.ones(full.shape[0], dtype=bool)
        special[lead : lead + n] = False
        vectors, has_tokens = self._mention_vectors(content, tok.offsets, spans)
        enc = Encoding(mention_vectors=vectors, mention_has_tokens=has_tokens, n_windows=len(windows), n_tokens=n)
        if keep is not None:
            enc.channel_keep = np.concatenate([np.ones(lead, bool), keep, np.ones(full.shape[0] - lead - n, bool)])
            enc.channel_empty = not keep.any()
        if self.keep_states:
            enc.states = torch.nn.functional.normalize(full, dim=-1)
            enc.token_ids = np.asarray(self.prefix + tok.ids + self.suffix, dtype=np.int64)
            enc.special = special
        if pooled[0] is not None:
            if len(windows) == 1:
                enc.pooled, enc.channel_pooled = pooled[0]
            else:  # the model's own pooling over the stitched sequence
                enc.pooled = self._pool_stitched(full, np.ones(full.shape[0], bool))
                if keep is not None:
                    enc.channel_pooled = self._pool_stitched(full, enc.channel_keep)
            enc.pooled = torch.nn.functional.normalize(enc.pooled, dim=-1)
            if enc.channel_pooled is not None:
                enc.channel_pooled = torch.nn.functional.normalize(enc.channel_pooled, dim=-1)
        return enc

    def _pool_stitched(self, full: torch.Tensor, keep: np.ndarray) -> torch.Tensor:
        """The model's pooling over a stitched sequence of windows, over the tokens `keep` marks."""
        dtype = next(self.model.parameters()).dtype  # the states were cast to float32 for the similarities
        mask = torch.from_numpy(keep.astype(np.int64))[None].to(self.device)
        with torch.inference_mode():
            return self.pool(full[None].to(self.device, dtype), mask)[0].float().cpu()

    @staticmethod
    def _mention_vectors(content: torch.Tensor, offsets: list[Span], spans: Sequence[Span]):
        """The mean state of the sub-tokens overlapping each span, L2-normalised, gathered in one segmented sum."""
        h = content.shape[-1]
        vectors = np.zeros((len(spans), h), dtype=np.float32)
        has = np.zeros(len(spans), dtype=bool)
        if not spans or not offsets:
            return vectors, has
        off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        mention, rows = _overlaps(offsets, spans)
        real = off[rows, 1] > off[rows, 0]  # zero-width tokens hold no part of a span
        mention, rows = mention[real], rows[real]  # grouped by mention, in order
        counts = np.bincount(mention, minlength=len(spans))
        has = counts > 0
        if has.any():  # one segmented sum (numpy: small torch ops on CPU cost more than the work)
            starts = (np.cumsum(counts) - counts)[has]
            means = np.add.reduceat(content.numpy()[rows], starts, axis=0) / counts[has, None].astype(np.float32)
            vectors[has] = means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12)
        return vectors, has


def _overlaps(offsets: Sequence[Span], spans: Sequence[Span]) -> tuple[np.ndarray, np.ndarray]:
    """(span, token) index pairs of every token whose character range overlaps a span, grouped by span, in order."""
    off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    bounds = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    if (np.diff(off, axis=0) >= 0).all():
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


def channel_view(enc: Encoding) -> Encoding:
    """The one-pass text channel of an encoding: its token states without the left-out ones (token backend),
    its pooling over the kept tokens (sentence backend)."""
    keep = enc.channel_keep
    if keep is None:
        return enc
    view = replace(enc, pooled=enc.channel_pooled, channel_keep=None, channel_pooled=None)
    if enc.states is not None and not keep.all():
        view.states = enc.states[torch.from_numpy(keep)]
        view.token_ids, view.special = enc.token_ids[keep], enc.special[keep]
    return view


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

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        out = self.model(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True)
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

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        features = {"input_ids": input_ids, "attention_mask": attention_mask}
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
