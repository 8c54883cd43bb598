"""The Gradio Space's layout: BERTScore and embedding cosine next to NASH, with the reasons shown.

Tabs: Compare (one pair, highlighted numbers with A's unsupported figures flagged, masked texts, alignment heat
map with its key, numeric support), Rank (one anchor, several candidates, two rankings), Check figures (a generated
text's figures against a long source: supported, computed, misplaced, contradicted or unsupported, and where), Batch
(CSV/JSONL upload, CSV download, a key to the marks), About (method, options). Compare and Check figures open on
their examples scored when the page loads (kept, not scored again for every visitor); the heat map is hidden while
there is no figure to show.
The shared controls (model, backbone, tau) take their choices, defaults and help from `NASHConfig`;
the handlers live in `handlers`, the HTML in `render`, the heat map in `nash_metric.reports.plot` (shared with
`NASH.plot`), the Batch tab's files in `batch_files` (read by the command line's reader).
What a deployment allows (models, time, uploads, queue) comes from `SpaceLimits` and is stated on the page.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from ..config import BACKENDS, DEFAULT_MODEL, option_default, option_doc
from ..reports.method import METHOD_STEPS
from . import scorers
from .batch_files import Downloads, limits_text
from .handlers import BATCH_LABELS, SpaceHandlers
from .limits import MAX_CANDIDATES, MAX_CHARS, MAX_MODEL_CHARS, MAX_SOURCE_CHARS, SpaceLimits, limits_lines, source_part
from .render import CHECK_HEADER, CSS, batch_key_html

ANCHOR = "Revenue increased by 4%."
FULL_TABLE = 100_000  # px: a table's max_height that shows every row (gradio's default, 500, hid the ninth)
# Of the Batch table's 10 columns: the widest header word (as embedding or similarity) fits its column at 1280 px.
BATCH_WIDTHS = ["18.5%", "18.5%", "8%", "8%", "6%", "8.5%", "8.5%", "6%", "7%", "11%"]
# Compare's "Aligned numbers": 10 columns summing to 100%, so that a long status wraps in its column instead of
# pushing the verdict column past a 1280-pixel window (sized to its content, the table scrolled sideways).
COMPARE_HEADER = ["direction", "number", "value", "aligned to", "value ", "cosine", "status", "magnitude sim",
                  "contribution", "verdict (A's figure)"]
COMPARE_WIDTHS = ["8%", "10%", "9%", "11%", "9%", "6.5%", "15%", "8.5%", "10%", "13%"]
# Gradio's default theme with bold for its semibold: the SemiBold files gradio ships hold a few dozen glyphs (A and B
# among them), so semibold text mixed two fonts ("NᴀSH", "Text ᴀ"); the Bold files hold every glyph.
THEME = gr.themes.Default(
    font=(gr.themes.LocalFont("Source Sans Pro", weights=(400, 700)), "ui-sans-serif", "system-ui", "sans-serif"),
    font_mono=(gr.themes.LocalFont("IBM Plex Mono", weights=(400, 700)), "ui-monospace", "Consolas", "monospace"),
)
CANDIDATES = ["Revenue increased by 3.56%.", "Revenue increased by 40%.", "Revenue increased by 4.1%."]
EXAMPLES = [
    ["Revenue increased by 4%.", "Revenue increased by 40%."],
    ["Revenue increased by 4%.", "Revenue increased by 3.56%."],
    ["Operating profit rose to EUR 13.1 mn from EUR 8.7 mn.", "Operating profit rose to EUR 8.7 mn from EUR 13.1 mn."],
    ["The company hired 250 engineers in 2019.", "The company hired 2,500 engineers in 2019."],
    ["Which stocks have a P/E ratio above 200?", "Stock ABC has a P/E ratio of 180."],
    ["净利润增长12.5%至3億元。", "净利润增长15%至3.2億元。"],
    ["The company raised its dividend to $0.15 per share and cut net debt below $25 billion.",
     "The dividend of $0.13 per share was kept; net debt was $25 billion after a $3 billion bond."],
]
# The Check figures tab opens on this: a filing-like source (a markdown table with a "2019 | 2018" header, and a
# paragraph) and a generated text with a figure of each verdict: $1,452.4 million (and the year) supported,
# $790.3 million misplaced (Consumer's 2018 value stated for 2019), $0.55 unsupported (the source says $0.52).
CHECK_SOURCE = """ACME Industries, Inc. - Annual Report 2019 (excerpt)

Item 7. Management's Discussion and Analysis

Net sales by segment (in millions)

| Segment | 2019 | 2018 |
|---|---|---|
| Industrial | $ 1,452.4 | $ 1,146.2 |
| Consumer | 812.7 | 790.3 |
| Services | 236.9 | 241.5 |
| Total | $ 2,502.0 | $ 2,178.0 |

Net sales rose 14.9% in 2019, driven by Industrial volume and pricing. Operating margin improved to 11.8% from \
10.9% in 2018. The Board raised the quarterly dividend to $0.52 per share in 2019, and the company employed about \
9,800 people at year end."""
CHECK_TEXT = ("In 2019, Industrial net sales were $1,452.4 million and Consumer net sales were $790.3 million. "
              "The quarterly dividend was raised to $0.55 per share.")
CHECK_INTRO = (
    "Paste a source (prose, markdown or HTML tables, TSV/CSV, aligned columns) and a text generated from it. "
    "Each figure of the text is judged in two steps: its **value** (stated nowhere in the source, but given by a "
    "derivation of the source's numbers bound to what the text states, such as a change, a sum, a share, a "
    "ratio or an average: **computed**, which counts as supported and shows its derivation; otherwise "
    "**unsupported**, with the closest derivation when there is one), then what its places are **bound** to "
    "(only another year's column, another row or another subject, while a number of another value is bound to "
    "what the text states: **misplaced**; a change stated in the other direction: **contradicted**); otherwise "
    "it is **supported**. Table cells are read by row and column. "
    f"τ does not change the verdicts. A source longer than {MAX_SOURCE_CHARS:,} characters is checked part by part "
    "(the page says which characters were checked; **Check the next part** goes on). On the command line, with no "
    "limit: `nash check --source FILE --text FILE`."
)
ABOUT = "\n### How NASH scores a pair\n\n" + METHOD_STEPS + r"""
**Numeric support** (beside NASH, not part of it): with A the prediction and B the reference (a summary, or
the whole source), each figure of A is judged in two steps. Its *value*: no number of B states it at the
precision A wrote it with, and it is *unsupported* (✗, outlined in red), unless a derivation of B's numbers bound
to what A states gives it (a difference, a sum, a percentage change, a share, a ratio, an average, a change in
points): then it is *computed* (Σ, teal; its hover text shows the derivation, "(62.4 − 50.2) / 50.2 = 24.3%").
Its *binding*: when B states its value
only for another period, row or subject (last year's column, another segment) and a number of another value is
bound to what A states, it is *misplaced* (↷, orange); when A states a change and B states its value as a
change in the other direction, it is *contradicted* (⇅, purple); otherwise *supported* (✓). The numeric support
is the share of A's figures that are supported or computed. The Check figures tab does this against a whole
source.

The baselines are numerically blind: "Revenue increased by 4%." looks closer to "…40%." than to
"…3.56%.". NASH ranks them the right way. Paper: Huang et al., *NASH: Numerically Aware Scoring
Heuristic for Robust Semantic Similarity*, Findings of ACL 2026. Code: the `nash-metric` package.
"""


def _options_markdown() -> str:
    """The options the Space exposes, documented from `NASHConfig` (the same text as `nash --help`)."""
    return (
        "### Options\n\n"
        f"- **Model**: {option_doc('model')}\n"
        f"- **Backbone**: {option_doc('backend')}\n"
        f"- **τ**: {option_doc('threshold')} Here, “use the model's τ” is the per-model default (or its "
        "calibrated τ); unticked, the slider's value is used.\n"
    )


def _limits_markdown(limits: SpaceLimits) -> str:
    return "\n".join(f"- {line}" for line in limits_lines(limits, DEFAULT_MODEL))


def _model_info(limits: SpaceLimits) -> str:
    if limits.allow_any_model:
        return option_doc("model")
    extra = "".join(f", {m}" for m in limits.allowed_models)
    return f"Served here: {DEFAULT_MODEL}{extra}, and hub models already downloaded on this server."


def build_demo(limits: SpaceLimits | None = None) -> gr.Blocks:
    """The Blocks app with its queue set from `limits` (None: `SpaceLimits.from_env()`).

    Pass `CSS`, `THEME` and `max_file_size=limits.max_file_bytes` to `launch`, as gradio 6 takes them there
    (`serve` does all three).
    """
    limits = limits or SpaceLimits.from_env()
    scorers.configure(limits.max_loaded_models)
    h = SpaceHandlers(limits)
    # delete_cache: Batch downloads and uploads are removed once `download_seconds` old (all of them on close).
    with gr.Blocks(title="NASH vs BERTScore", delete_cache=limits.delete_cache) as demo:
        gr.Markdown("# NASH: numerically aware similarity\nBERTScore and embedding cosine are numerically blind. "
                    "NASH scores the words and the numbers separately, then mixes them.")
        with gr.Accordion("Limits of this Space", open=False, elem_id="limits"):
            gr.Markdown(_limits_markdown(limits))
        with gr.Row():
            label = "Model (hub id or local path)" if limits.allow_any_model else "Model"
            model = gr.Textbox(DEFAULT_MODEL, label=label, scale=3, info=_model_info(limits), elem_id="model",
                               max_length=MAX_MODEL_CHARS)
            backend = gr.Radio(list(BACKENDS), value=option_default("backend"), label="NASH backbone", scale=2,
                               info=option_doc("backend"), elem_id="backend")
            with gr.Column(scale=2):
                use_model_tau = gr.Checkbox(True, label="Use the model's τ", elem_id="use-model-tau")
                tau = gr.Slider(-1.0, 1.0, value=0.0, step=0.0001, label="τ (alignment threshold)", interactive=False,
                                info="Loading the model's τ…", elem_id="tau")
        tau_inputs = [model, backend, use_model_tau]
        gr.on([demo.load, backend.change, model.submit, model.blur, use_model_tau.change], h.tau_control,
              tau_inputs, tau, api_name="tau", show_progress="minimal")
        scoring = [model, backend, use_model_tau, tau]
        _compare_tab(h, scoring, demo)
        _rank_tab(h, scoring)
        _check_tab(h, scoring, demo)
        _batch_tab(h, scoring, limits)
        with gr.Tab("About"):
            gr.Markdown(ABOUT + _options_markdown() + "\n### Limits of this Space\n\n" + _limits_markdown(limits),
                        latex_delimiters=[{"left": "$", "right": "$", "display": False}])
    # Per-event concurrency, and a bounded queue: a crowd gets "queue full" instead of unbounded waits.
    return demo.queue(default_concurrency_limit=limits.concurrency, max_size=limits.max_queue)


def _compare_tab(h: SpaceHandlers, scoring: list[Any], demo: gr.Blocks) -> None:
    """The Compare tab, opening on its first example scored (`SpaceHandlers.compare_example`)."""
    with gr.Tab("Compare"):
        with gr.Row():
            text_a = gr.Textbox(EXAMPLES[0][0], label="Text A", lines=2, max_length=MAX_CHARS, elem_id="compare-a")
            text_b = gr.Textbox(EXAMPLES[0][1], label="Text B", lines=2, max_length=MAX_CHARS, elem_id="compare-b")
        compare_btn = gr.Button("Compare", variant="primary", elem_id="compare-button")
        cards = gr.HTML(elem_id="compare-scores")
        panels = gr.HTML(elem_id="compare-texts")
        # Hidden until it holds a figure: an empty plot is a large blank box.
        heatmap = gr.Plot(label="Alignment heat map", visible="hidden", elem_id="compare-heatmap")
        heat_key = gr.HTML(elem_id="compare-heatmap-key")  # the map's key, left-aligned under it ("" without a map)
        table = gr.Dataframe(headers=COMPARE_HEADER, label="Aligned numbers", interactive=False, wrap=True,
                             max_height=FULL_TABLE, column_widths=COMPARE_WIDTHS, elem_id="compare-table")
        gr.Examples(EXAMPLES, [text_a, text_b], label="Cases")
        inputs, outputs = [text_a, text_b, *scoring], [cards, panels, heatmap, heat_key, table]
        opening = demo.load(h.compare_example, inputs, outputs, api_name=False, show_progress="minimal")
        # A click replaces the opening example, never the other way round (a late example would overwrite it).
        compare_btn.click(h.compare, inputs, outputs, api_name="compare", cancels=[opening])
        heatmap.change(heat_map_visibility, heatmap, heatmap, api_name=False, show_progress="hidden")


def heat_map_visibility(figure: Any) -> Any:
    """Show the heat map when a result holds one, hide it otherwise (an error, nothing to align)."""
    return gr.update(visible=True if figure is not None else "hidden")


def _rank_tab(h: SpaceHandlers, scoring: list[Any]) -> None:
    with gr.Tab("Rank"):
        anchor = gr.Textbox(ANCHOR, label="Anchor", elem_id="rank-anchor", max_length=MAX_CHARS)
        candidates = gr.Textbox("\n".join(CANDIDATES), label=f"Candidates (one per line, at most {MAX_CANDIDATES})",
                                lines=5, elem_id="rank-candidates")
        rank_btn = gr.Button("Rank", variant="primary", elem_id="rank-button")
        ranking = gr.HTML(elem_id="rank-output")
        rank_btn.click(h.rank, [anchor, candidates, *scoring], ranking, api_name="rank")


def _check_tab(h: SpaceHandlers, scoring: list[Any], demo: gr.Blocks) -> None:
    with gr.Tab("Check figures"):
        gr.Markdown(CHECK_INTRO)
        with gr.Row():
            # No max_length: a browser cuts a longer paste silently. The handler checks the source part by part.
            source = gr.Textbox(CHECK_SOURCE, label=f"Source (checked {MAX_SOURCE_CHARS:,} characters at a time)",
                                lines=14, elem_id="check-source")
            text = gr.Textbox(CHECK_TEXT, label="Generated text", lines=14, max_length=MAX_CHARS,
                              elem_id="check-text")
        with gr.Row():
            check_btn = gr.Button("Check figures", variant="primary", elem_id="check-button", scale=4)
            first = gr.Number(1, label="Check from character", precision=0, minimum=1, scale=1, min_width=160,
                              elem_id="check-first")
            next_btn = gr.Button("Check the next part", visible=False, elem_id="check-next", scale=1)
        summary = gr.HTML(elem_id="check-output")
        # Our own HTML, not gr.HighlightedText, which spaced the highlights apart ("in  2023  .") and broke words.
        marked = gr.HTML(elem_id="check-marked")
        # Tall enough for every figure of a 2,000-character text: no row hidden below a scroll bar.
        table = gr.Dataframe(headers=CHECK_HEADER, label="Figures", interactive=False, wrap=True, max_height=FULL_TABLE,
                             column_widths=["14%", "12%", "37%", "37%"], elem_id="check-table")
        inputs, outputs = [source, text, *scoring, first], [summary, marked, table, next_btn]
        check_btn.click(h.check, inputs, outputs, api_name="check")
        next_btn.click(next_part, [source, first], first, api_name=False, show_progress="hidden").then(
            h.check, inputs, outputs, api_name=False)
        source.change(None, None, first, js="() => [1]")  # a new source starts at its first character
        demo.load(h.check_example, inputs, outputs, api_name=False, show_progress="minimal")


def next_part(source: str, first: int | None) -> int:
    """The character the part after the one checked from `first` starts at (1 past the end: from the start)."""
    try:
        part = source_part(source or "", int(first or 1))
    except ValueError:
        return 1
    return part.next_first or 1


def _batch_tab(h: SpaceHandlers, scoring: list[Any], limits: SpaceLimits) -> None:
    with gr.Tab("Batch"):
        gr.Markdown(f"Upload pairs to score. {limits_text(limits.max_file_bytes)} A request stops after "
                    f"{limits.request_seconds:g} s and returns the pairs scored so far. The CSV has the table's "
                    "columns; its `baseline` is the backbone's own score of the pair, named in the table: the "
                    "embedding cosine (sentence backbone) or the backbone token F1 (token backbone).")
        upload = gr.File(label="Pairs file", file_types=[".csv", ".tsv", ".jsonl", ".json"], elem_id="batch-upload")
        batch_btn = gr.Button("Score file", variant="primary", elem_id="batch-button")
        summary = gr.HTML(elem_id="batch-summary")
        # Ten columns in 1280 px: the texts wrap in their share, the headers between words (`batch_labels`).
        results = gr.Dataframe(headers=BATCH_LABELS, label="Scores", interactive=False, wrap=True,
                               max_height=FULL_TABLE, column_widths=BATCH_WIDTHS, elem_id="batch-table")
        gr.HTML(batch_key_html(), elem_id="batch-key")  # what the marks in "unsupported figures" mean
        download = gr.File(label="Download scores (CSV)", elem_id="batch-download")
        h.downloads = Downloads(download.move_resource_to_block_cache)  # gradio's cache: delete_cache empties it
        batch_btn.click(h.batch, [upload, *scoring], [summary, results, download], api_name="batch")


def serve(limits: SpaceLimits | None = None, host: str | None = "127.0.0.1", port: int | None = 7860,
          **kwargs: Any) -> gr.Blocks:
    """Build and launch the app; returns the running Blocks (close it with `.close()`).

    `max_file_size` makes gradio refuse a larger upload while it streams in (HTTP 413), before it is stored.
    """
    limits = limits or SpaceLimits.from_env()
    demo = build_demo(limits)
    demo.launch(server_name=host, server_port=port, inbrowser=False, css=CSS, theme=THEME,
                max_file_size=limits.max_file_bytes, **kwargs)
    return demo


def launch(host: str | None = "127.0.0.1", port: int | None = 7860, limits: SpaceLimits | None = None,
           **kwargs: Any) -> None:
    """Serve the app (None limits: `SpaceLimits.from_env()`); never opens a browser (headless servers, CI)."""
    serve(limits, host, port, **kwargs)
