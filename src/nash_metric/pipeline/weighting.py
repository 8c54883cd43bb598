"""IDF weights over masked sentences and the mixing weight alpha (docs/method.md §1.4); the mix itself is `mixing.py`.

One masked sentence is one document and `[NUM]` is a token like any word, so alpha is the share
of IDF mass the words of a pair carry against its numbers:
alpha = W_text / (W_text + W_num). Smoothed IDF, idf(t) = ln((N + 1) / (df(t) + 1)) + 1, keeps
every token's weight positive (a one-pair corpus still mixes by token counts) and gives tokens
never seen in the corpus the largest weight.

The default is `uniform`: every token weighs 1, so alpha is the share of word tokens in the pair, as
in the authors' toolkit, and a pair's score depends on that pair alone with nothing to fit. An IDF
fitted on the references of a call (`references`, the paper's corpus IDF) moves every score with the
rest of the call, so a corpus scored in shards or chunks should fit its IDF once (`nash fit-idf`) and
pass the saved table, which is fixed again. On a single pair the two coincide (every df is 1).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..common.atomic import write_text
from ..common.io import InputFileError, read_utf8
from ..common.validation import check_texts
from ..numbers import MASK_TOKEN
from ..numbers.extract import masked_for_scoring

# CJK characters are one token each (Chinese has no spaces); other words are runs of letters/digits.
_TOKEN_RE = re.compile(re.escape(MASK_TOKEN) + r"|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_]+")


def mixing_tokens(masked_text: str) -> list[str]:
    return [t if t == MASK_TOKEN else t.lower() for t in _TOKEN_RE.findall(masked_text)]


UNIFORM = "uniform"
REFERENCES = "references"


@dataclass
class IDF:
    """Document frequencies over a corpus of masked sentences, fixed weights from a dict, or uniform weights."""

    n_documents: int = 0
    df: Counter[str] = field(default_factory=Counter)
    fixed: dict[str, float] | None = None
    source: str = REFERENCES
    uniform: bool = False

    @classmethod
    def uniform_weights(cls) -> IDF:
        """Every token weighs 1: alpha is the share of word tokens (the authors' toolkit's default)."""
        return cls(source=UNIFORM, uniform=True)

    @property
    def digest(self) -> str:
        """What the weights are, not where they came from: `uniform`, or a content digest of the table."""
        if self.uniform:
            return UNIFORM
        table = sorted(self.fixed.items()) if self.fixed is not None else [self.n_documents, sorted(self.df.items())]
        return hashlib.sha256(json.dumps(table, ensure_ascii=False).encode()).hexdigest()[:12]

    @classmethod
    def from_masked(cls, masked_sentences: Iterable[str], source: str = REFERENCES) -> IDF:
        """One document per distinct sentence (repeats add nothing). The sentences may be a stream (a file read
        chunk by chunk): one already counted is known by a 16-byte digest, so memory holds the digests, not texts."""
        seen: set[bytes] = set()
        df: Counter[str] = Counter()
        for doc in masked_sentences:
            key = hashlib.blake2b(doc.encode("utf-8", "surrogatepass"), digest_size=16).digest()
            if key not in seen:
                seen.add(key)
                df.update(set(mixing_tokens(doc)))
        return cls(n_documents=len(seen), df=df, source=source)

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
            data = json.loads(read_utf8(path))  # a folder, binary or UTF-16 file named as such
        except FileNotFoundError:
            raise FileNotFoundError(f"IDF file {path} not found") from None
        except (InputFileError, IsADirectoryError) as exc:
            raise ValueError(f"IDF file {exc}; expected the JSON `nash fit-idf` writes") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"IDF file {path} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
        if isinstance(data, dict) and "df" in data and "n_documents" in data:
            if not isinstance(data["n_documents"], int) or data["n_documents"] < 0:
                raise ValueError(f"IDF file {path}: field 'n_documents' must be a non-negative integer")
            df = data["df"]
            if not isinstance(df, dict) or not all(_is_count(v) for v in df.values()):
                raise ValueError(f"IDF file {path}: field 'df' must map tokens to non-negative integer counts")
            return cls(n_documents=data["n_documents"], df=Counter(df), source=f"file:{path.name}")
        if isinstance(data, dict) and "idf" in data and isinstance(data["idf"], dict):
            return cls.from_dict(data["idf"], source=f"file:{path.name}")
        raise ValueError(f"IDF file {path}: expected an object with 'n_documents' and 'df', or with 'idf'")

    def save(self, path: str | Path, **metadata: object) -> Path:
        """Write the table as JSON (`metadata`, e.g. the corpus and reader, is kept beside it for readers)."""
        if self.uniform:
            raise ValueError("uniform weights have no table to save; pass idf='uniform'")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = (
            {"idf": self.fixed}
            if self.fixed is not None
            else {"n_documents": self.n_documents, "df": dict(sorted(self.df.items()))}
        )
        payload = {**metadata, "digest": self.digest, **payload}
        write_text(path, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
        return path

    def weight(self, token: str) -> float:
        if self.uniform:
            return 1.0
        if self.fixed is not None:
            return self.fixed.get(token, max(self.fixed.values()))
        return math.log((self.n_documents + 1) / (self.df.get(token, 0) + 1)) + 1.0

    def masses(self, masked_a: str, masked_b: str) -> tuple[float, float]:
        """(W_text, W_num): IDF mass of the words and of the `[NUM]` tokens of both masked texts."""
        return self.token_masses(mixing_tokens(masked_a) + mixing_tokens(masked_b))

    def token_masses(self, tokens: Sequence[str]) -> tuple[float, float]:
        """(W_text, W_num) of `tokens` (`mixing_tokens`), summed in their order."""
        if self.uniform:  # sums of ones: the counts, exactly
            n_num = tokens.count(MASK_TOKEN)
            return float(len(tokens) - n_num), float(n_num)
        w_text = w_num = 0.0
        for token in tokens:
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
    if idf.uniform:  # the masses are counts, which add: each distinct text counted once, every pair in arrays
        # `token_masses` counts under uniform weights, which case does not change: the tokens as found suffice.
        counts = {t: idf.token_masses(_TOKEN_RE.findall(t)) for t in {*masked_a, *masked_b}}
        a, b = (np.array([counts[t] for t in side], np.float64).reshape(-1, 2) for side in (masked_a, masked_b))
        w_text, w_num = (a + b).T
        total = w_text + w_num
        return np.where(total > 0, w_text / np.where(total > 0, total, 1.0), 1.0)  # `alpha_from_masses`
    tokens = {t: mixing_tokens(t) for t in {*masked_a, *masked_b}}  # each distinct text's tokens, read once
    cache: dict[tuple[str, str], float] = {}
    alpha = np.empty(len(masked_a))
    for k, (a, b) in enumerate(zip(masked_a, masked_b)):
        if (a, b) not in cache:
            cache[a, b] = alpha_from_masses(*idf.token_masses(tokens[a] + tokens[b]))
        alpha[k] = cache[a, b]
    return alpha


def fit_idf(corpus: Iterable[str], reader: str = "full", source: str = REFERENCES) -> IDF:
    """Document frequencies over the masked forms of `corpus` (one distinct sentence, one document); `corpus` may
    be a stream."""
    return IDF.from_masked((masked_for_scoring(t, reader) for t in corpus), source=source)


def load_idf(
    spec: Mapping[str, float] | Sequence[str] | str | os.PathLike[str] | None, reader: str = "full"
) -> IDF | None:
    """The mixing IDF an `idf` option describes: 'uniform' (or None), a dict, a JSON path or a corpus.

    'references' gives None: the table is fitted on the references of each scoring call (`fit_idf`).
    """
    if spec is None or spec == UNIFORM:
        return IDF.uniform_weights()
    if spec == REFERENCES:
        return None
    if isinstance(spec, Mapping):
        return IDF.from_dict(spec)
    if isinstance(spec, (str, os.PathLike)):
        return IDF.load(Path(spec))
    corpus = check_texts(spec, "idf corpus")
    return fit_idf(corpus, reader, source=f"corpus({len(corpus)} sentences)")


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
