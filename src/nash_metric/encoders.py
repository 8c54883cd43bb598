"""Backbone encoders: one batched forward pass per unique text.

Each text yields, from the *same* forward pass, its token states (the BERTScore inputs), the
contextual vector of every numeric mention (mean of its sub-token states) and, for
sentence-transformers models, the pooled sentence embedding. Texts longer than the model window
are encoded in further overlapping windows and stitched back, so no token (and no number) is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
        self, texts: Sequence[str], spans: Sequence[Sequence[Span]], show_progress: bool = False
    ) -> list[Encoding]:
        tokenized = [self.tokenize(t) for t in texts]
        windows: list[tuple[int, int]] = []  # (text index, content start)
        for i, tok in enumerate(tokenized):
            windows.extend((i, start) for start in self.window_starts(len(tok.ids)))
        # Longest first, as bert-score does: padding is minimal and OOM shows up at once.
        order = sorted(range(len(windows)), key=lambda w: -min(self.window, len(tokenized[windows[w][0]].ids)))
        window_states: list[torch.Tensor | None] = [None] * len(windows)
        window_pooled: list[torch.Tensor | None] = [None] * len(windows)
        batches = range(0, len(order), self.batch_size)
        for b in tqdm(batches, desc="encoding", unit="batch", disable=not show_progress or len(batches) < 2):
            idx = order[b : b + self.batch_size]
            seqs = [self.window_ids(tokenized[windows[w][0]].ids, windows[w][1]) for w in idx]
            ids, mask = self.pad(seqs)
            with torch.inference_mode():
                states = self.forward(ids, mask)
                pooled = self.pool(states, mask)
            states = states.float().cpu()
            for row, w in enumerate(idx):
                window_states[w] = states[row, : len(seqs[row])]
                if pooled is not None:
                    window_pooled[w] = pooled[row].float().cpu()
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
                )
            )
            cursor += n
        return out

    # -- tokenisation, windows and batches (public for tests and the throughput benchmark) --------
    def tokenize(self, text: str) -> _Tokenized:
        enc = self.tokenizer(
            text, add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False
        )
        return _Tokenized(list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]])

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
    def _assemble(self, tok: _Tokenized, spans: Sequence[Span], windows, states, pooled) -> Encoding:
        n = len(tok.ids)
        lead = len(self.prefix)
        if len(windows) == 1:
            full = states[0]
            content = full[lead : lead + n]
        else:
            # Each token takes its state from the window where it sits farthest from an edge.
            starts = np.array([s for _, s in windows])
            pos = np.arange(n)[:, None] - starts[None, :]
            margin = np.minimum(pos, self.window - 1 - pos)
            margin[(pos < 0) | (pos >= self.window)] = -1
            best = margin.argmax(axis=1)
            content = torch.stack([states[k][lead + pos[t, k]] for t, k in enumerate(best)]) if n else states[0][:0]
            full = torch.cat([states[0][:lead], content, states[-1][lead + self.window :]])
        special = np.ones(full.shape[0], dtype=bool)
        special[lead : lead + n] = False
        vectors, has_tokens = self._mention_vectors(content, tok.offsets, spans)
        enc = Encoding(mention_vectors=vectors, mention_has_tokens=has_tokens, n_windows=len(windows), n_tokens=n)
        if self.keep_states:
            enc.states = torch.nn.functional.normalize(full, dim=-1)
            enc.token_ids = np.asarray(self.prefix + tok.ids + self.suffix, dtype=np.int64)
            enc.special = special
        if pooled[0] is not None:
            if len(windows) == 1:
                enc.pooled = pooled[0]
            else:  # the model's own pooling over the stitched sequence
                dtype = next(self.model.parameters()).dtype  # the states were cast to float32 for the similarities
                mask = torch.ones(1, full.shape[0], dtype=torch.long, device=self.device)
                stitched = self.pool(full[None].to(self.device, dtype), mask)
                enc.pooled = stitched[0].float().cpu()
            enc.pooled = torch.nn.functional.normalize(enc.pooled, dim=-1)
        return enc

    @staticmethod
    def _mention_vectors(content: torch.Tensor, offsets: list[Span], spans: Sequence[Span]):
        h = content.shape[-1]
        vectors = np.zeros((len(spans), h), dtype=np.float32)
        has = np.zeros(len(spans), dtype=bool)
        if not spans:
            return vectors, has
        off = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        for m, (start, end) in enumerate(spans):
            rows = np.nonzero((off[:, 0] < end) & (off[:, 1] > start) & (off[:, 1] > off[:, 0]))[0]
            if rows.size:
                v = content[rows].mean(dim=0)
                vectors[m] = torch.nn.functional.normalize(v, dim=-1).numpy()
                has[m] = True
        return vectors, has


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
