"""IDF weights over masked sentences, the mixing weight alpha, and the NASH mix (DESIGN §1.4).

One masked sentence is one document and `[NUM]` is a token like any word, so alpha is the share
of IDF mass the words of a pair carry against its numbers:
alpha = W_text / (W_text + W_num). Smoothed IDF, idf(t) = ln((N + 1) / (df(t) + 1)) + 1, keeps
every token's weight positive (a one-pair corpus still mixes by token counts) and gives tokens
never seen in the corpus the largest weight.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .numbers import MASK_TOKEN
from .numbers.extract import masked_for_scoring
from .validation import check_texts

# CJK characters are one token each (Chinese has no spaces); other words are runs of letters/digits.
_TOKEN_RE = re.compile(re.escape(MASK_TOKEN) + r"|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+")


def mixing_tokens(masked_text: str) -> list[str]:
    return [t if t == MASK_TOKEN else t.lower() for t in _TOKEN_RE.findall(masked_text)]


@dataclass
class IDF:
    """Document frequencies over a corpus of masked sentences, or fixed weights from a dict."""

    n_documents: int = 0
    df: Counter[str] = field(default_factory=Counter)
    fixed: dict[str, float] | None = None
    source: str = "references"

    @classmethod
    def from_masked(cls, masked_sentences: Iterable[str], source: str = "references") -> IDF:
        docs = sorted(set(masked_sentences))  # one document per distinct sentence: repeats add nothing
        df: Counter[str] = Counter()
        for doc in docs:
            df.update(set(mixing_tokens(doc)))
        return cls(n_documents=len(docs), df=df, source=source)

    @classmethod
    def from_dict(cls, weights: Mapping[str, float], source: str = "dict") -> IDF:
        fixed = {}
        for token, weight in weights.items():
            if not isinstance(token, str):
                raise TypeError(f"IDF dict keys must be strings, got {token!r}")
            if (
                not isinstance(weight, (int, float))
                or isinstance(weight, bool)
                or not math.isfinite(weight)
                or weight < 0
            ):
                raise ValueError(f"IDF weight for {token!r} must be a finite number >= 0, got {weight!r}")
            fixed[token if token == MASK_TOKEN else token.lower()] = float(weight)
        if MASK_TOKEN not in fixed:
            raise ValueError(f"IDF dict has no weight for the number token {MASK_TOKEN!r}")
        return cls(fixed=fixed, source=source)

    @classmethod
    def load(cls, path: str | Path) -> IDF:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileNotFoundError(f"IDF file {path} not found") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"IDF file {path} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
        if isinstance(data, dict) and "df" in data and "n_documents" in data:
            if not isinstance(data["n_documents"], int) or data["n_documents"] < 0:
                raise ValueError(f"IDF file {path}: field 'n_documents' must be a non-negative integer")
            return cls(n_documents=data["n_documents"], df=Counter(data["df"]), source=f"file:{path.name}")
        if isinstance(data, dict) and "idf" in data and isinstance(data["idf"], dict):
            return cls.from_dict(data["idf"], source=f"file:{path.name}")
        raise ValueError(f"IDF file {path}: expected an object with 'n_documents' and 'df', or with 'idf'")

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        payload = (
            {"idf": self.fixed}
            if self.fixed is not None
            else {"n_documents": self.n_documents, "df": dict(sorted(self.df.items()))}
        )
        path.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return path

    def weight(self, token: str) -> float:
        if self.fixed is not None:
            return self.fixed.get(token, max(self.fixed.values()))
        return math.log((self.n_documents + 1) / (self.df.get(token, 0) + 1)) + 1.0

    def masses(self, masked_a: str, masked_b: str) -> tuple[float, float]:
        """(W_text, W_num): IDF mass of the words and of the `[NUM]` tokens of both masked texts."""
        w_text = w_num = 0.0
        for token in mixing_tokens(masked_a) + mixing_tokens(masked_b):
            if token == MASK_TOKEN:
                w_num += self.weight(token)
            else:
                w_text += self.weight(token)
        return w_text, w_num


def alpha_from_masses(w_text: float, w_num: float) -> float:
    """alpha = W_text / (W_text + W_num); 1 (all text) when the pair has no weighted token at all."""
    total = w_text + w_num
    return 1.0 if total <= 0 else w_text / total


def pair_alphas(idf: IDF, masked_a: Sequence[str], masked_b: Sequence[str]) -> np.ndarray:
    """alpha of each masked pair (masked_a[k], masked_b[k]), each distinct pair computed once."""
    cache: dict[tuple[str, str], float] = {}
    alpha = np.empty(len(masked_a))
    for k, pair in enumerate(zip(masked_a, masked_b)):
        if pair not in cache:
            cache[pair] = alpha_from_masses(*idf.masses(*pair))
        alpha[k] = cache[pair]
    return alpha


def mix(alpha: np.ndarray, s_text: np.ndarray, s_num: np.ndarray) -> np.ndarray:
    """NASH = alpha * S_text + (1 - alpha) * S_num, clipped to [-1, 1]."""
    return np.clip(alpha * s_text + (1 - alpha) * s_num, -1.0, 1.0)


def load_idf(
    spec: Mapping[str, float] | Sequence[str] | str | os.PathLike[str] | None, reader: str = "full"
) -> IDF | None:
    """The mixing IDF an `idf` option describes: None (the call's references), a dict, a JSON path or a corpus."""
    if spec is None:
        return None
    if isinstance(spec, Mapping):
        return IDF.from_dict(spec)
    if isinstance(spec, (str, os.PathLike)):
        return IDF.load(Path(spec))
    corpus = check_texts(spec, "idf corpus")
    return IDF.from_masked((masked_for_scoring(t, reader) for t in corpus), source=f"corpus({len(corpus)} sentences)")
