"""The Space's event handlers: Compare, Rank, Check figures, Batch and the tau control, bound to one deployment's
limits.

Every scoring handler returns a readable error panel instead of raising (users never see a traceback),
and reports the tau it scored with (but Check figures, whose verdicts tau does not change). The tau inputs are
`use_model_tau` (take the loaded model's own tau) and `tau` (the slider, used only when `use_model_tau` is off).
Each request checks its model against the allow-list first and runs under a time budget (`budget.Deadline`),
checked between bounded steps. Compare's heat map is bounded too (`reports.plot.PLOT_BUDGET`), and left out, with
the reason, when it would not be drawn in the time left.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable
from typing import Any

import gradio as gr
import numpy as np

from ..pipeline.output import NASHOutput
from ..reports.explain_text import figure_verdicts, support_summary, verdict_rule
from ..reports.figure_rows import FigureRow, figure_rows
from ..reports.plot import CELL_HELP, PLOT_BUDGET, PlotBudget, explanation_figure, has_alignment
from ..verdicts.spec import MARKS, SPEC
from . import scorers
from .allow import allowed_model
from .batch_files import Downloads, parse_pairs
from .budget import LOCAL_HINT, Deadline, SourceSpeed, drawing_seconds, next_chunk
from .limits import MAX_CANDIDATES, MAX_CHARS, MAX_SOURCE_INPUT, SpaceLimits, source_part
from .render import (
    TAU_SOURCES,
    check_summary_html,
    colour_key_html,
    data_view_html,
    error_html,
    figure_table,
    heat_map_key_html,
    info_html,
    marked_text_html,
    ranking_html,
    score_cards,
    source_cut_html,
    support_html,
    tau_html,
    tau_text,
    text_panel,
)

# The Batch tab's columns (the CSV's header); the table shows them with spaces for underscores (`batch_labels`), so
# that a header wraps between words, never inside one.
BATCH_HEADER = ["a", "b", "bertscore_f1", "baseline", "nash", "text_similarity", "numeric_similarity", "alpha",
                "numeric_support", "unsupported_figures"]
# The table names what `baseline` (the backbone's own score of the pair) is, by the backbone that scored it.
BASELINE_LABELS = {"sentence": "embedding cosine", "token": "backbone token F1"}


def batch_labels(backend: str = "sentence") -> list[str]:
    """The Batch table's headers for a batch scored with `backend` (resolved: "sentence" or "token")."""
    return [BASELINE_LABELS.get(backend, name) if name == "baseline" else name.replace("_", " ")
            for name in BATCH_HEADER]


BATCH_LABELS = batch_labels()  # the headers the table opens with: the default model's sentence backbone
FIRST_CHUNK, LARGEST_CHUNK = 4, 32  # pairs per scoring step of a batch (the budget is checked between steps)
MAX_OPENINGS = 8  # opening examples kept (one per tab, model and settings a page loaded with)


def _text(value: Any, name: str, limit: int = MAX_CHARS) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} is empty: type a sentence.")
    if len(value) > limit:
        raise ValueError(f"{name} has {len(value):,} characters; the limit here is {limit:,}.")
    return value.strip()


def _safe(n_outputs: int, error_slot: int = 0, rest: Callable[[], list[Any]] | None = None) -> Callable:
    """Turn any exception into an error panel in output `error_slot` (users never see a traceback); the other
    outputs get None, or what `rest()` gives them."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)  # gradio reads the signature (and its gr.Progress default) through __wrapped__
        def handler(*args: Any, **kwargs: Any):
            try:
                return fn(*args, **kwargs)
            except (ValueError, TypeError, OSError) as exc:  # incl. refusals, budget and load errors
                message = str(exc)
            except Exception as exc:  # pragma: no cover - last resort, still no traceback
                message = f"internal error ({type(exc).__name__}): {exc}"
            out: list[Any] = rest() if rest else [None] * (n_outputs - 1)
            out.insert(error_slot, error_html(message))
            return tuple(out) if n_outputs > 1 else out[0]

        return handler

    return wrap


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) else value


def _baselines(scorer: Any, model: str, a: str, b: str,
               deadline: Deadline) -> tuple[tuple[float | None, float | None], str]:
    """(BERTScore F1, embedding cosine) of the pair and "", or (None, None) and a line naming the limit when NASH's
    scoring took the whole budget: its scores are complete by then, and shown without the baselines."""
    if deadline.expired():
        return (None, None), info_html(f"BERTScore and the embedding cosine were left out: scoring with NASH took "
                                       f"the whole time allowed ({deadline.allowance()}).")
    bert = scorers.bertscore_f1(scorer, [a], [b], timeout=deadline.remaining())[0]
    cosine = scorers.embedding_cosine(model, [a], [b], timeout=deadline.remaining())
    return (bert, cosine[0] if cosine else None), ""


def _heat_map(info: dict[str, Any], deadline: Deadline, budget: PlotBudget = PLOT_BUDGET) -> tuple[Any, str]:
    """The heat map of `NASH.plot` (cut to `budget`, its title says so) without its footer legend (the page shows
    `heat_map_key_html` under it) and "", or None and a line saying why not: nothing to align, too little time left
    to draw it, or a drawing that failed. The scores never depend on it: a figure that overran the budget or failed
    in gradio would lose the whole answer."""
    if not has_alignment(info):  # here an info line says it; no figure for nothing to align
        return None, info_html("No alignment to show: numbers on at most one side "
                               f"(S_num = {info['scores']['numeric']:.0f} by definition).")
    n_a, n_b = (sum(m["scored"] for m in info["mentions"][side]) for side in ("a", "b"))
    cells = budget.cells(n_a, n_b)
    seconds, left = drawing_seconds(cells), deadline.remaining()
    if seconds > left:
        return None, info_html(f"The heat map was left out: drawing its {cells:,} cells takes about {seconds:.0f} s "
                               f"and this request has {left:.0f} s left ({deadline.allowance()}). The scores, texts "
                               "and table are complete; `nash explain A B --plot map.png` draws it locally.")
    try:
        return explanation_figure(info, budget, legend=False), ""
    except Exception as exc:  # the scores are in hand: show them, and say what went wrong with the figure
        return None, info_html(f"The heat map could not be drawn ({type(exc).__name__}: {' '.join(str(exc).split())}"
                               "); the scores, texts and table are complete.")


def _source(value: Any) -> str:
    """The Check figures source as given (not stripped: the characters the notice counts are the box's)."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("Source is empty: paste the text the figures come from.")
    if len(value) > MAX_SOURCE_INPUT:
        raise ValueError(f"Source has {len(value):,} characters; this Space takes at most {MAX_SOURCE_INPUT:,} "
                         "(checked part by part). `nash check --source FILE --text FILE` has no limit.")
    return value


def _first(value: Any) -> int:
    """The "Check from character" box: a whole number from 1 (empty: 1)."""
    if value is None or value == "":
        return 1
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _later(rows: list[FigureRow], lines: int) -> list[FigureRow]:
    """`rows` placed in a part of the source that starts after `lines` line breaks: their line numbers the
    source's, not the part's."""
    if not lines:
        return rows

    def moved(place: Any) -> Any:
        return None if place is None else dataclasses.replace(place, line=place.line + lines)

    return [dataclasses.replace(row, found=moved(row.found), matched=moved(row.matched),
                                operands=tuple((text, moved(place)) for text, place in row.operands)) for row in rows]


def _unsupported_cell(entries: list[dict[str, Any]]) -> str:
    """The figures of a pair's prediction that are not supported, each with its mark: "✗ $0.15; ↷ 790.3"."""
    return "; ".join(f"{MARKS.get(e['verdict'], '')} {e['text']}".strip() for e in entries)


def _alignment_rows(info: dict[str, Any]) -> list[list[Any]]:
    """The Compare tab's table: every match both ways, with its verdict when A's figure has one."""
    ma, mb = info["mentions"]["a"], info["mentions"]["b"]
    rows = []
    for key, src, dst in (("a_to_b", ma, mb), ("b_to_a", mb, ma)):
        for r in info["alignments"][key]:
            target = dst[r["target"]] if r["target"] is not None else None
            spec = SPEC.get(r.get("verdict"))
            rows.append([key.replace("_to_", " → ").upper(), src[r["source"]]["text"], src[r["source"]]["value"],
                         target["text"] if target else "–", target["value"] if target else None,
                         *(_round(r[k]) for k in ("cosine", "status", "magnitude_similarity", "contribution")),
                         spec.label if spec is not None else ""])
    return rows


class SpaceHandlers:
    """The handlers of one served demo; `limits` decides the models allowed and the time per request."""

    def __init__(self, limits: SpaceLimits) -> None:
        self.limits = limits
        self.source_speed = SourceSpeed()
        self._opening: dict[tuple, tuple] = {}  # the opening examples' results (`_kept`)
        self.downloads = Downloads()  # the app hands it gradio's cache (`app._batch_tab`)

    def _model(self, model: str) -> str:
        return allowed_model(model, self.limits)

    def tau_control(self, model: str, backend: str, use_model_tau: bool):
        """Update of the tau slider: locked on the loaded model's own tau, or free for the user to set.

        Runs when the page loads and when the model, backbone or checkbox changes, so the slider shows the
        tau a request will use. A model that is refused or fails to load leaves the value and says why.
        """
        if not use_model_tau:
            return gr.update(interactive=True, info="your τ, used in every tab")
        try:
            scorer = scorers.get_scorer(self._model(model), backend, timeout=self.limits.request_seconds)
        except Exception as exc:  # the scoring handlers show the full error panel
            return gr.update(interactive=False, info=f"The model's τ is unknown: {' '.join(str(exc).split())[:300]}")
        source = scorer.threshold_source
        return gr.update(value=scorer.threshold, interactive=False, info=TAU_SOURCES.get(source, source))

    @_safe(n_outputs=5)
    def compare(self, text_a: str, text_b: str, model: str, backend: str, use_model_tau: bool, tau: float,
                progress=gr.Progress()):
        """Score one pair: baselines vs NASH, highlighted numbers (A's unsupported figures flagged), alignment heat
        map with its key, and table.

        Once NASH has scored the pair, its scores always come back: the baselines and the heat map are left out,
        with a line naming the limit, when the time left would not cover them (`_baselines`, `_heat_map`)."""
        deadline = Deadline(self.limits.request_seconds)
        a, b = _text(text_a, "Text A"), _text(text_b, "Text B")
        model = self._model(model)
        progress(0.1, desc="loading the model (first time only)")
        scorer = scorers.scorer_for(model, backend, use_model_tau, tau, timeout=deadline.remaining())
        progress(0.4, desc="scoring with NASH")
        info = scorer.explain(a, b)
        progress(0.7, desc="scoring with BERTScore")
        (bert, cosine), left_out = _baselines(scorer, model, a, b, deadline)
        s = info["scores"]
        cards = score_cards({"bertscore": bert, "baseline": cosine, "nash": s["nash"], "text": s["text"],
                             "numeric": s["numeric"], "numeric_support": s.get("numeric_support")},
                            "Embedding cosine", info["alpha"])
        cards += tau_html(info["threshold"], info["config"]["threshold_source"]) + left_out
        ma, mb = info["mentions"]["a"], info["mentions"]["b"]
        verdicts = {e["index"]: {"verdict": e["verdict"], "derivation": e["derivation"],
                                 "reference": mb[e["reference"]] if e["reference"] is not None else None}
                    for e in figure_verdicts(info)}
        support = support_html(s.get("numeric_support"), support_summary(info), ma, verdicts)
        panels = (colour_key_html() + text_panel("Text A (prediction)", a, ma, info["masked"]["a"], "A", verdicts,
                                                 support)
                  + text_panel("Text B (reference)", b, mb, info["masked"]["b"], "B"))
        progress(0.9, desc="drawing the heat map")
        figure, why_not = _heat_map(info, deadline)
        rule = verdict_rule(info)
        key = heat_map_key_html(info["threshold"], rule, CELL_HELP[rule]) if figure is not None else ""
        return cards, panels + why_not, figure, key, _alignment_rows(info)

    @_safe(n_outputs=1)
    def rank(self, anchor: str, candidates: str, model: str, backend: str, use_model_tau: bool, tau: float,
             progress=gr.Progress()):
        """Rank candidates against one anchor by BERTScore and by NASH, side by side."""
        deadline = Deadline(self.limits.request_seconds)
        anchor = _text(anchor, "Anchor")
        cands = [c.strip() for c in (candidates or "").splitlines() if c.strip()]
        if len(cands) < 2:
            raise ValueError("Give at least 2 candidates, one per line.")
        if len(cands) > MAX_CANDIDATES:
            raise ValueError(f"{len(cands)} candidates; the limit here is {MAX_CANDIDATES}.")
        cands = [_text(c, f"Candidate {i + 1}") for i, c in enumerate(cands)]
        model = self._model(model)
        progress(0.1, desc="loading the model (first time only)")
        scorer = scorers.scorer_for(model, backend, use_model_tau, tau, timeout=deadline.remaining())
        progress(0.4, desc="scoring with NASH")
        out = scorer.score([anchor] * len(cands), cands)
        deadline.check("BERTScore")
        progress(0.7, desc="scoring with BERTScore")
        bert = scorers.bertscore_f1(scorer, cands, [anchor] * len(cands), timeout=deadline.remaining())
        return ranking_html(anchor, cands, bert, out.nash.tolist()) + tau_html(
            out.config["threshold"], scorer.threshold_source
        )

    @_safe(n_outputs=4, rest=lambda: [None, None, gr.update(visible=False)])
    def check(self, source: str, text: str, model: str, backend: str, use_model_tau: bool, tau: float,
              first: int | None = 1, progress=gr.Progress()):
        """Judge each figure of a generated text against a source: a summary (and, for a source that holds data,
        its records as a table, the values the figures point at outlined: `data_view_html`), the text with each figure
        highlighted by its verdict, a table of where each value stands in the source, and the "Check the next
        part" button's update (shown while the source goes on past the part checked).

        One request checks at most `MAX_SOURCE_CHARS` characters of the source, from its `first` (`source_part`);
        a longer source is checked part by part, and a notice over the results says which characters were checked
        and how to check the rest (a figure whose value is not in the part reads "not in the part checked"). A part
        is scored in one step that cannot be stopped, so one this server would not check in the time left is
        refused before it starts (`budget.SourceSpeed`)."""
        deadline = Deadline(self.limits.request_seconds)
        part = source_part(_source(source), _first(first))
        text = _text(text, "Generated text")
        model = self._model(model)
        progress(0.1, desc="loading the model (first time only)")
        scorer = scorers.scorer_for(model, backend, use_model_tau, tau, timeout=deadline.remaining())
        deadline.check("checking the figures")
        self.source_speed.check(model, len(part.text), deadline)
        progress(0.3, desc=f"reading a source of {len(part.text):,} characters")
        started = time.monotonic()
        out = scorer.score([text], [part.text])
        self.source_speed.record(model, len(part.text), time.monotonic() - started)
        verdicts, support = out.figure_verdicts[0], float(out.numeric_support[0])
        rows = _later(figure_rows(part.text, verdicts), part.lines_before)
        summary = source_cut_html(part) + check_summary_html(support, verdicts) + data_view_html(part.text, verdicts)
        return summary, marked_text_html(text, verdicts), \
            figure_table(rows, cut=part.cut), gr.update(visible=part.next_first is not None)

    def _kept(self, handler: Callable[..., tuple], *inputs: Any) -> tuple:
        """`handler`'s result for what a tab opens on: scored once per tab, model and settings, then kept (every
        page load shows it, and a crowd of visitors should not each cost a scoring). An error is not kept: the
        next page load tries again (a model that failed to load may load then)."""
        key = (handler.__name__, *inputs)
        if key in self._opening:
            return self._opening[key]
        result = handler(*inputs)
        if "nash-error" not in result[0] and len(self._opening) < MAX_OPENINGS:
            self._opening[key] = result
        return result

    def check_example(self, source: str, text: str, model: str, backend: str, use_model_tau: bool, tau: float,
                      first: int | None = 1):
        """`check` of the Check figures tab's example, scored when a page loads (`_kept`)."""
        return self._kept(self.check, source, text, model, backend, use_model_tau, tau, first)

    def compare_example(self, text_a: str, text_b: str, model: str, backend: str, use_model_tau: bool, tau: float):
        """`compare` of the Compare tab's example, scored when a page loads (`_kept`), so the first screen shows
        its scores, texts, heat map and table without a click; a model that cannot load shows its error panel."""
        return self._kept(self._compare_drawn, text_a, text_b, model, backend, use_model_tau, tau)

    def _compare_drawn(self, *inputs: Any) -> tuple:
        """`compare` with its heat map drawn here, once: a kept matplotlib figure would be drawn again by every page
        load, concurrently, which matplotlib does not allow on one figure."""
        cards, panels, figure, key, rows = self.compare(*inputs)
        try:
            drawn = None if figure is None else gr.Plot(render=False).postprocess(figure)
        except Exception:  # pragma: no cover - the scores stand without their figure
            drawn, key = None, ""
        return cards, panels, drawn, key, rows

    @_safe(n_outputs=3)
    def batch(self, file: Any, model: str, backend: str, use_model_tau: bool, tau: float, progress=gr.Progress()):
        """Score every pair of an uploaded CSV/JSONL file; returns a summary, a table (``{"data", "headers"}``: the
        baseline's header names the backbone's score, `batch_labels`) and a CSV to download.

        Scored in small steps with the budget checked between them: a request out of time returns the pairs
        scored so far (table and CSV) with a message saying where it stopped.
        """
        deadline = Deadline(self.limits.request_seconds)
        parsed = parse_pairs(getattr(file, "name", file), self.limits.max_file_bytes)
        model = self._model(model)
        pairs, total = parsed.pairs, len(parsed.pairs)
        progress(0.05, desc=f"loading the model, {total} pairs read")
        scorer = scorers.scorer_for(model, backend, use_model_tau, tau, timeout=deadline.remaining())
        rows: list[list[Any]] = []
        parts, bert_all = [], []
        per_pair: float | None = None
        while len(rows) < total:
            size = next_chunk(deadline.remaining(), per_pair, FIRST_CHUNK, LARGEST_CHUNK)
            if size == 0:
                break
            step = pairs[len(rows): len(rows) + size]
            started = time.monotonic()
            a, b = [p[0] for p in step], [p[1] for p in step]
            out = scorer.score(a, b)  # under the Space's options a pair scores the same in any batch
            bert = scorers.bertscore_f1(scorer, a, b, timeout=deadline.remaining())
            per_pair = (time.monotonic() - started) / len(step)
            parts.append(out)
            bert_all += bert
            rows += [[x, y, *(round(float(v), 6) for v in vals), _unsupported_cell(lacking)] for x, y, *vals, lacking
                     in zip(a, b, bert, out.baseline, out.nash, out.text, out.numeric, out.alpha, out.numeric_support,
                            out.unsupported_numbers)]
            progress(len(rows) / total, desc=f"{len(rows)} of {total} pairs scored")
        return self._batch_result(parsed, rows, parts, bert_all, scorer, deadline)

    def _batch_result(self, parsed: Any, rows: list[list[Any]], parts: list[Any], bert: list[float], scorer: Any,
                      deadline: Deadline) -> tuple[str, dict[str, list[Any]] | None, str | None]:
        total = len(parsed.pairs)
        notes = [f"ignored columns: {', '.join(parsed.ignored)}"] if parsed.ignored else []
        if len(rows) < total:
            stopped = (f"stopped after {len(rows)} of {total} pairs: {deadline.allowance()}; {LOCAL_HINT}."
                       + (f" ({'; '.join(notes)})" if notes else ""))
            if not rows:
                return error_html(stopped), None, None
            partial = error_html(stopped)
        else:
            partial = ""
        out = NASHOutput.concat(parts)
        blank = out.blank if out.blank is not None else np.zeros(len(out), bool)  # blank texts score 0: not a mismatch
        if blank.any():
            notes.append(f"{int(blank.sum())} pairs with a blank text, scored 0 as bert-score does")
        summary = info_html(" · ".join([
            f"{len(rows)} pairs", f"mean BERTScore F1 {sum(bert) / len(bert):.4f}",
            f"mean NASH {out.nash.mean():.4f}",
            f"{int(((out.numeric < 1) & ~blank).sum())} pairs with a number mismatch (S_num < 1)",
            f"{sum(bool(cell) for *_, cell in rows)} with a figure the reference does not support",
            f"{len(out.unscored)} unscored numbers", tau_text(out.config["threshold"], scorer.threshold_source),
            out.hashcode, *notes]))
        prefix = "nash_batch_partial_" if partial else "nash_batch_"
        shown = [[a, b, *(round(v, 4) for v in scores), cell] for a, b, *scores, cell in rows]  # the CSV keeps 6
        table = {"data": shown, "headers": batch_labels(out.config["backend"])}
        return partial + summary, table, self.downloads.write(BATCH_HEADER, rows, prefix)

