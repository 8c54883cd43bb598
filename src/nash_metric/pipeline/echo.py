"""The configuration echo of a fitted scorer and its hashcode.

The echo states every option that can change a score (`NASHConfig`'s `scores=True` fields) in the form that
decides the scores: as given, or resolved as `RESOLVERS` says (model -> resolved name, threshold -> tau, idf ->
table digest, ...), then the versions. `hashcode` digests it without its provenance entries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..config import NASHConfig, score_options
from ..verdicts.rules import RULE
from .weighting import REFERENCES


class Resolvable(Protocol):
    """What the echo reads of a `fitted.Fitted` (a protocol, not the class: `fitted` imports this module)."""

    config: NASHConfig
    model: Any  # ResolvedModel
    backend: str
    num_layers: int
    tau: float | None
    tau_source: str
    idf: Any  # IDF | None
    rescale: Any  # RescaleBaseline | None

# Echo keys ending so say where a value came from (a hub id or the embedded copy, a file or the corpus it was
# fitted on), not what it is: two results scored alike share a hashcode however their options were spelled.
PROVENANCE = "_source"


def score_determinants(config: Mapping[str, Any]) -> dict[str, Any]:
    """What determines the scores: the config echo (each score-changing option, resolved, and the versions;
    `NASH.echo`) without its provenance entries."""
    return {key: value for key, value in config.items() if not key.endswith(PROVENANCE)}


def hashcode(config: Mapping[str, Any]) -> str:
    """A readable label as evaluate's bertscore hashcode, then a digest of everything that determines the scores.

    The digest identifies the scores; the label names the choices a reader looks for first.
    """
    tau = config["threshold"]
    tau_s = f"{tau:.4f}" if isinstance(tau, float) else str(tau)
    digest = hashlib.sha1(repr(sorted(score_determinants(config).items())).encode()).hexdigest()[:8]
    dtype = config.get("dtype", "float32")
    return (
        f"{config['model']}_L{config['num_layers']}_{config['backend']}_tau={tau_s}_idf={config['idf']}"
        f"{'_cmp' if config['comparisons'] else ''}{'_paper' if config.get('numbers') == 'paper' else ''}"
        f"{'_twopass' if config.get('text_channel') == 'two-pass' and config.get('numbers') != 'paper' else ''}"
        f"{'' if dtype == 'float32' else '_' + dtype}{'_rescaled' if config.get('rescale_baseline') else ''}"
        f"_version={config['nash_metric']}"
        f"(hug_trans={config['transformers']})_{digest}"
    )


@dataclass(frozen=True)
class Resolver:
    """How the echo states an option whose resolved form, not its spelling, decides the scores."""

    key: str  # its key in the echo
    value: Callable[[Resolvable], Any]  # what decides the scores (the hashcode digests it)
    source: Callable[[Resolvable], Any] | None = None  # where that came from, echoed as `<key>_source` (not digested)

    def entries(self, fitted: Resolvable) -> dict[str, Any]:
        provenance = {self.key + PROVENANCE: self.source(fitted)} if self.source else {}
        return {self.key: self.value(fitted), **provenance}


# The score-changing options echoed in a resolved form; every other one is echoed as given (test_hashcode).
RESOLVERS: dict[str, Resolver] = {
    "model": Resolver("model", lambda f: f.model.name, lambda f: f.model.source),
    "backend": Resolver("backend", lambda f: f.backend),
    "num_layers": Resolver("num_layers", lambda f: f.num_layers),
    "threshold": Resolver("threshold", lambda f: "auto" if f.tau is None else f.tau, lambda f: f.tau_source),
    "idf": Resolver("idf", lambda f: f.idf.digest if f.idf else REFERENCES,
                    lambda f: f.idf.source if f.idf else REFERENCES),
    "text_channel": Resolver("text_channel", lambda f: "one-pass" if f.config.one_pass else "two-pass"),
    # The shipped rule's switches are part of what it is: a change echoes, and so hashes, differently.
    "verdict": Resolver("verdict", lambda f: f.config.verdict if f.config.verdict == "argmax" else RULE.describe()),
    "glossary": Resolver("glossary", lambda f: None if f.config.glossary is None else dict(sorted(
        f.config.glossary.items()))),
    "baseline_path": Resolver("rescale_baseline", lambda f: f.rescale.digest if f.rescale else None,
                              lambda f: f.rescale.source if f.rescale else None),
}


def echo(fitted: Resolvable) -> dict[str, Any]:
    """Every option that can change a score, resolved as `RESOLVERS` says or as given, then the versions."""
    import transformers

    from .._version import __version__

    entries: dict[str, Any] = {}
    for name in score_options():
        resolver = RESOLVERS.get(name)
        entries.update(resolver.entries(fitted) if resolver else {name: getattr(fitted.config, name)})
    return {**entries, "nash_metric": __version__, "transformers": transformers.__version__}
