"""The tables `nash bench rotowire | quintd | tabfact` print (the JSON result holds every number of them)."""

from __future__ import annotations

from typing import Any

from .scoring import ALL

CHECK_HEADERS = ["unit", "n (right/wrong)", "verdict BA", "verdict: right flagged", "verdict: wrong flagged",
                 "V BA", "V: right flagged", "V: wrong flagged"]
UNITS_NOTE = ("Verdict: a figure is flagged when its verdict does not count as supported (supported and computed "
              "do); a text when one of its figures is. V: the value-anywhere check at the same unit (a figure: a "
              "digit string in it stated nowhere in the source; a text: one of its digit strings). BA = (wrong "
              "flagged + (1 − right flagged)) / 2.")


def _check_row(name: str, cell: dict[str, Any]) -> list[Any]:
    v, w = cell["verdict"], cell["value_anywhere"]
    return [name, f"{cell['right']}/{cell['wrong']}", v["ba"], v["flagged_right"], v["recall_wrong"],
            w["ba"], w["flagged_right"], w["recall_wrong"]]


def check_table(tables: dict[str, Any], text_unit: str = "texts") -> str:
    """One row per group and unit (figures, then texts), the groups in order and all last."""
    from ...common.reporting import markdown_table

    rows = []
    for group, cells in tables.items():
        prefix = "" if group == ALL and len(tables) == 1 else f"{group} · "
        rows.append(_check_row(f"{prefix}figures", cells["figures"]))
        rows.append(_check_row(f"{prefix}{text_unit}", cells["texts"]))
    return markdown_table(CHECK_HEADERS, rows)


def text_note(tables: dict[str, Any], text_unit: str = "texts") -> str:
    cell = tables[ALL]["texts"]
    return (f"{text_unit.capitalize()}: wrong = at least one wrong figure; right = at least one figure and none "
            f"wrong; {cell['left_out']} of {cell['texts']} without figures left out.")


def verdict_table(tables: dict[str, Any]) -> str:
    """The verdicts of the right and the wrong figures, all groups together."""
    from ...common.reporting import markdown_table

    cell = tables[ALL]["figures"]
    names = list(dict.fromkeys([*cell["verdicts_right"], *cell["verdicts_wrong"]]))
    rows = [[label, cell[label], *(cell[f"verdicts_{label}"].get(n, 0) for n in names)] for label in ("right", "wrong")]
    return markdown_table(["figures", "n", *names], rows)


def _ratio(part: int, whole: int, value: float | None) -> str:
    from ...common.reporting import format_cell

    return f"{part}/{whole} = {format_cell(value)}"


def span_table(spans: dict[str, Any], what: str) -> str:
    """Per check: its flagged figures, the wrong spans they overlap (recall) and the flags on a wrong span
    (precision)."""
    from ...common.reporting import markdown_table

    rows = [[name, c["flagged_figures"], _ratio(c["spans_found"], spans["spans"], c["recall"]),
             _ratio(c["flags_on_wrong"], c["flagged_figures"], c["precision"])]
            for name, c in (("verdict", spans["verdict"]), ("value-anywhere", spans["value_anywhere"]))]
    return markdown_table(["check", "flagged figures", f"{what} found (recall)", f"flags on {what} (precision)"],
                          rows)


def _scorer_line(config: dict[str, Any]) -> str:
    return f"{config['model']} ({config['backend']}) · hashcode {config['hashcode']}"


def _limited(config: dict[str, Any], what: str) -> str:
    return f" · --limit {config['limit']} ({what})" if config.get("limit") else ""


def rotowire_markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench rotowire`` prints."""
    res, config = result["results"], result["config"]
    placed, tables = res["placement"], res["tables"]
    forms = ", ".join(f"{form} {n}" for form, n in placed["texts_by_form"].items())
    fallbacks = "; ".join(f"{t}: {why}" for t, why in placed["fallbacks"].items())
    render = {"tables": "two Markdown tables (team lines, players)", "json": "the record's JSON"}[placed["render"]]
    spans = tables[ALL]["spans"]
    parts = [
        f"Rotowire (accuracy shared task) · {config['data']['path']} · {res['scoring']['texts']} texts"
        f"{_limited(config, 'first texts')} · {_scorer_line(config)}",
        f"Text scored: {placed['text_form']} asked; texts by form scored: {forms}"
        f"{f' (tokenised where the tokens were not found in order: {fallbacks})' if fallbacks else ''}; "
        f"{placed['skipped_characters']} punctuation characters of the detokenised texts held by no token. "
        f"Source: the box score as {render}.",
        f"Gold: {placed['number_errors']} NUMBER errors ({placed['number_errors_spelled_out']} spelled out, no "
        f"digit); {spans['spans_with_a_figure']} overlap a figure NASH reads. A figure is wrong when it overlaps one.",
        UNITS_NOTE, check_table(tables), text_note(tables),
        "### The shared task's measures (NUMBER errors)\n\n" + span_table(spans, "NUMBER errors"),
        "### Verdicts of the figures\n\n" + verdict_table(tables),
    ]
    return "\n\n".join(parts) + "\n"


def quintd_markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench quintd`` prints."""
    res, config = result["results"], result["config"]
    data, tables = config["data"], res["tables"]
    wrong = " or ".join(t.replace("-", " ").capitalize() for t in config.get("wrong", ["incorrect"]))
    parts = [
        f"quintd-1 · {data['path']} · {data['outputs_used']} of {data['annotated_outputs']} annotated outputs"
        f"{_limited(config, 'first outputs per domain')} · {_scorer_line(config)}",
        "Source: the whole prompt (the record inside it); prediction: the output. A figure is wrong when it overlaps "
        f"an {wrong} span (the union over an output's records). {UNITS_NOTE}",
        check_table(tables, "outputs"), text_note(tables, "outputs"),
        f"### {wrong} spans (all domains)\n\n" + span_table(tables[ALL]["spans"], f"{wrong} spans"),
        "### Verdicts of the figures\n\n" + verdict_table(tables),
    ]
    return "\n\n".join(parts) + "\n"


def tabfact_markdown(result: dict[str, Any]) -> str:
    """The tables ``nash bench tabfact`` prints."""
    from ...common.reporting import markdown_table

    res, config = result["results"], result["config"]
    data, cell = config["data"], res["tables"][ALL]["texts"]
    no_figures, verdicts = res["claims_without_figures"], res["verdicts_by_label"]
    names = list(dict.fromkeys(n for tally in verdicts.values() for n in tally))
    parts = [
        f"TabFact · {data['path']} · {data['pairs_used']} pairs, {cell['texts']} claims"
        f"{_limited(config, 'first pairs')} · {_scorer_line(config)}",
        "Source: the table as a Markdown pipe table; right = the entailed statement, wrong = the refuted rewrite "
        "(differs in a number). The verdict flags a claim when one of its figures is not supported (supported and "
        "computed count); V flags it when one of its digit strings is stated nowhere in the table.",
        markdown_table(["unit", *CHECK_HEADERS[1:]], [_check_row("claims", cell)]),
        f"Claims without figures (never flagged by the verdict): {no_figures['right']} entailed, "
        f"{no_figures['wrong']} refuted.",
        "### Verdicts of the claims' figures\n\n" + markdown_table(
            ["claims", "figures", *names],
            [[label, sum(tally.values()), *(tally.get(n, 0) for n in names)] for label, tally in verdicts.items()]),
    ]
    return "\n\n".join(parts) + "\n"
