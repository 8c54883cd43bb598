"""The Gradio Space: BERTScore and embedding cosine next to NASH, with the reasons shown.

Tabs: Compare (one pair, highlighted numbers, masked texts, alignment heat map), Rank (one anchor,
several candidates, two rankings), Batch (CSV/JSONL upload, CSV download), About (method, cases).
Every handler returns a readable error panel instead of raising, and all user text is HTML-escaped
in `app_render`. Models are loaded once per (model, backend) and reused by every request.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import gradio as gr

from .app_batch import LIMITS_TEXT, BatchFileError, parse_pairs, write_csv
from .app_plot import alignment_heatmap
from .app_render import CSS, error_html, info_html, ranking_html, score_cards, text_panel
from .models import DEFAULT_MODEL, is_sentence_transformer, resolve_model
from .scorer import NASH

MAX_CHARS = 2_000
MAX_CANDIDATES = 20
DEFAULT_TAU = 0.3763
ANCHOR = "Revenue increased by 4%."
CANDIDATES = ["Revenue increased by 3.56%.", "Revenue increased by 40%.", "Revenue increased by 4.1%."]
EXAMPLES = [
    ["Revenue increased by 4%.", "Revenue increased by 40%."],
    ["Revenue increased by 4%.", "Revenue increased by 3.56%."],
    ["Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.", "Operating profit rose to EUR 8.7 mn from EUR 13.1 mn."],
    ["The company hired 250 engineers in 2019.", "The company hired 2,500 engineers in 2019."],
    ["Which stocks have a P/E ratio above 200?", "Stock ABC has a P/E ratio of 180."],
    ["净利润增长12.5%至3億元。", "净利润增长15%至3.2億元。"],
]
ABOUT = r"""
### How NASH scores a pair

1. **Modal separation**: every number (`5.2 %`, `EUR 205.5 mn`, `(1.2)`, `twenty-four`, `3億元`, …) is
   found with its value and replaced by `[NUM]`.
2. **Text channel**: $S_\text{text}$ = the backbone metric on the masked texts (BERTScore F1 for the
   token backbone, cosine of pooled embeddings for the sentence backbone).
3. **Number channel**: each number gets a context vector (the mean of its sub-token states); every number
   aligns to the number of the other text with the highest cosine, kept when that cosine is at least
   $\tau$, and contributes $\frac{1}{1 + |v-u| / N(v,u)}$ with $N(v,u) = 1 + \frac{|v|+|u|}{2}$.
   $S_\text{num}$ averages both directions (no numbers anywhere → 1, numbers on one side only → 0).
4. **Mixing**: $\text{NASH} = \alpha\, S_\text{text} + (1-\alpha)\, S_\text{num}$, where $\alpha$ is the IDF
   mass of the words over that of words and `[NUM]` tokens.

The baselines are numerically blind: "Revenue increased by 4%." looks closer to "…40%." than to
"…3.56%.". NASH ranks them the right way. Paper: Huang et al., *NASH: Numerically Aware Scoring
Heuristic for Robust Semantic Similarity*, Findings of ACL 2026. Code: the `nash-metric` package.
"""

_lock = threading.Lock()
_scorers: dict[tuple[str, str], NASH] = {}
_bertscorers: dict[tuple[str, int], Any] = {}


def get_scorer(model: str, backend: str) -> NASH:
    """One loaded scorer per (model, backend), shared by all requests."""
    key = (model.strip() or DEFAULT_MODEL, backend)
    with _lock:
        if key not in _scorers:
            _scorers[key] = NASH(model=key[0], backend=backend, device="cpu")
        return _scorers[key]


def bertscore_f1(scorer: NASH, candidates: list[str], references: list[str]) -> list[float]:
    """BERTScore F1 from the `bert-score` package on the scorer's own model and layer."""
    import bert_score

    key = (scorer.resolved.path, scorer.num_layers)
    with _lock:
        if key not in _bertscorers:
            _bertscorers[key] = bert_score.BERTScorer(model_type=key[0], num_layers=key[1], device="cpu")
        bs = _bertscorers[key]
    return [float(f) for f in bs.score(candidates, references)[2]]


def embedding_cosine(model: str, a: list[str], b: list[str]) -> list[float] | None:
    """Cosine of pooled sentence embeddings, for sentence-transformers models; None otherwise."""
    if not is_sentence_transformer(resolve_model(model.strip() or DEFAULT_MODEL)):
        return None
    return get_scorer(model, "sentence").score(a, b).baseline.tolist()


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} is empty: type a sentence.")
    if len(value) > MAX_CHARS:
        raise ValueError(f"{name} has {len(value)} characters; the limit here is {MAX_CHARS}.")
    return value.strip()


def _safe(n_outputs: int, error_slot: int = 0) -> Callable:
    """Turn any exception into an error panel in output `error_slot` (users never see a traceback)."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)  # gradio reads the signature (and its gr.Progress default) through __wrapped__
        def handler(*args: Any, **kwargs: Any):
            try:
                return fn(*args, **kwargs)
            except (ValueError, TypeError, OSError, BatchFileError) as exc:
                message = str(exc)
            except Exception as exc:  # pragma: no cover - last resort, still no traceback
                message = f"internal error ({type(exc).__name__}): {exc}"
            out: list[Any] = [None] * n_outputs
            out[error_slot] = error_html(message)
            return tuple(out) if n_outputs > 1 else out[0]

        return handler

    return wrap


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def _scorable_positions(mentions: list[dict[str, Any]]) -> dict[int, int]:
    """Full mention index -> row of the similarity matrix (which holds scored mentions only)."""
    return {i: k for k, i in enumerate(i for i, m in enumerate(mentions) if m["scored"])}


@_safe(n_outputs=4)
def compare(text_a: str, text_b: str, model: str, backend: str, tau: float, progress=gr.Progress()):
    """Score one pair: baselines vs NASH, highlighted numbers, alignment heat map and table."""
    a, b = _text(text_a, "Text A"), _text(text_b, "Text B")
    progress(0.1, desc="loading the model (first time only)")
    scorer = get_scorer(model, backend).with_threshold(float(tau))
    progress(0.4, desc="scoring with NASH")
    info = scorer.explain(a, b)
    progress(0.7, desc="scoring with BERTScore")
    bert = bertscore_f1(scorer, [a], [b])[0]
    cosine = embedding_cosine(model, [a], [b])
    s = info["scores"]
    cards = score_cards({"bertscore": bert, "baseline": cosine[0] if cosine else None, "nash": s["nash"],
                         "text": s["text"], "numeric": s["numeric"]}, "Embedding cosine", info["alpha"])
    ma, mb = info["mentions"]["a"], info["mentions"]["b"]
    panels = (text_panel("Text A", a, ma, info["masked"]["a"], "A")
              + text_panel("Text B", b, mb, info["masked"]["b"], "B"))
    pa, pb = _scorable_positions(ma), _scorable_positions(mb)
    figure = None
    if pa and pb:
        accepted_ab = [(pa[r["source"]], pb[r["target"]]) for r in info["alignments"]["a_to_b"] if r["valid"]]
        accepted_ba = [(pb[r["source"]], pa[r["target"]]) for r in info["alignments"]["b_to_a"] if r["valid"]]
        # A best match that fell below tau: crossed out, so the gate's effect is visible on the map.
        rejected = [(pa[r["source"]], pb[r["target"]]) for r in info["alignments"]["a_to_b"]
                    if r["target"] is not None and not r["valid"]]
        rejected += [(pa[r["target"]], pb[r["source"]]) for r in info["alignments"]["b_to_a"]
                     if r["target"] is not None and not r["valid"]]
        figure = alignment_heatmap([m["text"] for m in ma if m["scored"]], [m["text"] for m in mb if m["scored"]],
                                   info["similarity_matrix"], info["threshold"], accepted_ab, accepted_ba, rejected)
    else:
        panels += info_html("No alignment to show: numbers on at most one side "
                            f"(S_num = {s['numeric']:.0f} by definition).")
    rows = []
    for key, src, dst in (("a_to_b", ma, mb), ("b_to_a", mb, ma)):
        for r in info["alignments"][key]:
            target = dst[r["target"]] if r["target"] is not None else None
            rows.append([key.replace("_to_", " → ").upper(), src[r["source"]]["text"], src[r["source"]]["value"],
                         target["text"] if target else "–", target["value"] if target else None,
                         *(_round(r[k]) for k in ("cosine", "status", "magnitude_similarity", "contribution"))])
    return cards, panels, figure, rows


@_safe(n_outputs=1)
def rank(anchor: str, candidates: str, model: str, backend: str, tau: float, progress=gr.Progress()):
    """Rank candidates against one anchor by BERTScore and by NASH, side by side."""
    anchor = _text(anchor, "Anchor")
    cands = [c.strip() for c in (candidates or "").splitlines() if c.strip()]
    if len(cands) < 2:
        raise ValueError("Give at least 2 candidates, one per line.")
    if len(cands) > MAX_CANDIDATES:
        raise ValueError(f"{len(cands)} candidates; the limit here is {MAX_CANDIDATES}.")
    cands = [_text(c, f"Candidate {i + 1}") for i, c in enumerate(cands)]
    progress(0.1, desc="loading the model (first time only)")
    scorer = get_scorer(model, backend).with_threshold(float(tau))
    progress(0.4, desc="scoring with NASH")
    nash = scorer.score([anchor] * len(cands), cands).nash.tolist()
    progress(0.7, desc="scoring with BERTScore")
    bert = bertscore_f1(scorer, cands, [anchor] * len(cands))
    return ranking_html(anchor, cands, bert, nash)


BATCH_HEADER = ["a", "b", "bertscore_f1", "baseline", "nash", "text_similarity", "numeric_similarity", "alpha"]


@_safe(n_outputs=3)
def batch(file: Any, model: str, backend: str, tau: float, progress=gr.Progress()):
    """Score every pair of an uploaded CSV/JSONL file; returns a summary, a table and a CSV to download."""
    pairs = parse_pairs(getattr(file, "name", file))
    progress(0.1, desc=f"loading the model, {len(pairs)} pairs read")
    scorer = get_scorer(model, backend).with_threshold(float(tau))
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    progress(0.3, desc="scoring with NASH")
    out = scorer.score(a, b)
    progress(0.7, desc="scoring with BERTScore")
    bert = bertscore_f1(scorer, a, b)
    rows = [[x, y, f, base, n, t, s, al] for x, y, f, base, n, t, s, al in
            zip(a, b, bert, out.baseline, out.nash, out.text, out.numeric, out.alpha)]
    rows = [[*r[:2], *(round(float(v), 6) for v in r[2:])] for r in rows]
    summary = info_html(
        f"{len(rows)} pairs · mean BERTScore F1 {sum(bert) / len(bert):.4f} · mean NASH {out.nash.mean():.4f} · "
        f"{sum(out.numeric < 1)} pairs with a number mismatch (S_num < 1) · {len(out.unscored)} unscored numbers · "
        f"{out.hashcode}")
    return summary, rows, write_csv(BATCH_HEADER, rows)


def build_demo() -> gr.Blocks:
    """The Blocks app (pass `CSS` to `launch`, as gradio 6 takes styles there)."""
    with gr.Blocks(title="NASH vs BERTScore") as demo:
        gr.Markdown("# NASH: numerically aware similarity\nBERTScore and embedding cosine are numerically blind. "
                    "NASH scores the words and the numbers separately, then mixes them.")
        with gr.Row():
            model = gr.Textbox(DEFAULT_MODEL, label="Model (hub id or local path)", scale=3,
                               info="The default is the embedded all-MiniLM-L6-v2 (works offline).")
            backend = gr.Radio(["sentence", "token"], value="sentence", label="NASH backbone", scale=2,
                               info="sentence: cosine of pooled embeddings · token: BERTScore F1")
            tau = gr.Slider(-1.0, 1.0, value=DEFAULT_TAU, step=0.0001, label="τ (alignment threshold)", scale=2)
        with gr.Tab("Compare"):
            with gr.Row():
                text_a = gr.Textbox(EXAMPLES[0][0], label="Text A", lines=2, max_length=MAX_CHARS, elem_id="compare-a")
                text_b = gr.Textbox(EXAMPLES[0][1], label="Text B", lines=2, max_length=MAX_CHARS, elem_id="compare-b")
            compare_btn = gr.Button("Compare", variant="primary", elem_id="compare-button")
            cards = gr.HTML(elem_id="compare-scores")
            panels = gr.HTML(elem_id="compare-texts")
            heatmap = gr.Plot(label="Alignment heat map")
            table = gr.Dataframe(headers=["direction", "number", "value", "aligned to", "value ", "cosine", "status",
                                          "magnitude sim", "contribution"], label="Aligned numbers",
                                 interactive=False, wrap=True)
            gr.Examples(EXAMPLES, [text_a, text_b], label="Cases")
            compare_btn.click(compare, [text_a, text_b, model, backend, tau], [cards, panels, heatmap, table],
                              api_name="compare")
        with gr.Tab("Rank"):
            anchor = gr.Textbox(ANCHOR, label="Anchor", elem_id="rank-anchor", max_length=MAX_CHARS)
            candidates = gr.Textbox("\n".join(CANDIDATES), label=f"Candidates (one per line, at most {MAX_CANDIDATES})",
                                    lines=5, elem_id="rank-candidates")
            rank_btn = gr.Button("Rank", variant="primary", elem_id="rank-button")
            ranking = gr.HTML(elem_id="rank-output")
            rank_btn.click(rank, [anchor, candidates, model, backend, tau], ranking, api_name="rank")
        with gr.Tab("Batch"):
            gr.Markdown(f"Upload pairs to score. {LIMITS_TEXT}")
            upload = gr.File(label="Pairs file", file_types=[".csv", ".tsv", ".jsonl", ".json"])
            batch_btn = gr.Button("Score file", variant="primary")
            summary = gr.HTML(elem_id="batch-summary")
            results = gr.Dataframe(headers=BATCH_HEADER, label="Scores", interactive=False, wrap=True)
            download = gr.File(label="Download scores (CSV)")
            batch_btn.click(batch, [upload, model, backend, tau], [summary, results, download], api_name="batch")
        with gr.Tab("About"):
            gr.Markdown(ABOUT, latex_delimiters=[{"left": "$", "right": "$", "display": False}])
    return demo


def launch(host: str | None = "127.0.0.1", port: int | None = 7860, **kwargs: Any) -> None:
    """Serve the app; never opens a browser (headless servers, CI)."""
    build_demo().queue().launch(server_name=host, server_port=port, inbrowser=False, css=CSS, **kwargs)
