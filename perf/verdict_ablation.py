"""How the figure verdict was chosen: every rule measured leave-one-domain-out on dev data, beside value-anywhere.

    python perf/verdict_ablation.py --claims CLAIMS.jsonl [--summedits ../shared/data/summedits]
                                    [--data-to-text ../shared/data] [--cache DIR] [--output docs/verdict_ablation]

Dev sets, never a held-out one: SummEdits' five dev domains (figure edits vs consistent edits, each summary
against its document), FilingClaims' tune half (`nash build-data filing-claims`; claims about TAT-QA tables,
every form and group), and real errors in data-to-text (`--data-to-text`): Rotowire's summaries against their box
scores (per figure: a figure overlapping a NUMBER error is wrong), quintd's three domains against their prompts (per
output: one with a wrong figure is wrong) and TabFact's statement pairs (per claim). Each (text, reference) pair
is encoded once per set with the default model; every variant then recomputes the verdicts from the same mentions
(`verdicts.rules.VerdictRule`):

  value only         step 1 alone: a figure is supported when its value is stated anywhere at its precision;
  + counts           a number that counts things never supports money, nor stands at a scale;
  + durations        a length of time agrees only with the same unit of time ("20 years", "20 minutes");
  + direction        contradicted: a change stated in the opposite direction;
  + tables / prose   misplaced on a table cell's / a clause's binding (period, row, column, subject);
  + nouns            misplaced on the noun a count counts ("ten jobs" for "10 machines");
  ratio R            rivals at most R times apart;
  computed           a figure stated nowhere that a derivation of the numbers bound to what it names gives
                     (`verdicts.derivations`; "all but computed" is the shipped rule without it);
  all but X          the shipped rule without one of the rules of data (entities, records, attributes, cells,
                     extremes, words, aggregates, ...; `verdicts.rules`), and "no data rules" without all of them; the
                     same for qualifiers, comparisons, year_columns and intervals, one by one.

Leave-one-domain-out: for each set left out, the variant with the best mean balanced accuracy on the other sets
is chosen, and reported on the one left out, beside the value step alone and the value-anywhere check (V). The
shipped rule must lose nothing to the value step alone on any left-out set (or gain where the error it targets
is and lose at most 0.005 elsewhere), nor to itself without its last switch (computed); the script says whether
it does. Cells: ROC AUC of `numeric_support`,
balanced accuracy of the verdict (no figure flagged) and the false-alarm rate (consistent texts with a flag).
SummEdits against the original summaries is reported beside, for the reference-summary use.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import sys
from dataclasses import dataclass, replace
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np

from nash_metric import NASH
from nash_metric.benchmarks.summedits.data import read_summedits, subset_labels
from nash_metric.benchmarks.summedits.metrics import balanced_accuracy, roc_auc
from nash_metric.benchmarks.value_anywhere import value_anywhere_share
from nash_metric.common.reporting import markdown_table
from nash_metric.pipeline.pool import read_pairs
from nash_metric.pipeline.steps import score_chunk
from nash_metric.verdicts.decide import context_verdicts, support_fields
from nash_metric.verdicts.rules import RULE, VALUE_ONLY, VerdictRule
from nash_metric.verdicts.spec import COMPUTED, SUPPORTING

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "summedits"
DATA_RULES = ("entities", "records", "days", "attributes", "cells", "leads", "extremes", "words", "aggregates",
              "pairs", "any_table", "operand_columns")
# Other switches measured one by one too ("all but intervals").
SINGLE_RULES = ("qualifiers", "comparisons", "year_columns", "intervals")
VARIANTS: dict[str, VerdictRule] = {
    "value only": VALUE_ONLY,
    "+ counts": replace(VALUE_ONLY, counts=True),
    "+ counts, durations": replace(VALUE_ONLY, counts=True, durations=True),
    "+ counts, direction": replace(VALUE_ONLY, counts=True, direction=True),
    "+ counts, tables": replace(VALUE_ONLY, counts=True, tables=True),
    "+ counts, prose": replace(VALUE_ONLY, counts=True, prose=True),
    "+ counts, tables, prose": replace(VALUE_ONLY, counts=True, tables=True, prose=True),
    "+ counts, tables, prose, nouns": replace(VALUE_ONLY, counts=True, tables=True, prose=True, nouns=True),
    "all, ratio 3": replace(RULE, ratio=3.0),
    "all, ratio 10": RULE,
    "all, ratio 30": replace(RULE, ratio=30.0),
    "all, ratio 10 in tables too": replace(RULE, ratio_in_tables=True),
    "all, any ratio": replace(RULE, ratio=float("inf")),
    "all but computed": replace(RULE, computed=False),
    # Each rule of data flipped from the shipped rule: "all but X" when it ships on, "all and X" when off.
    **{f"all {'but' if getattr(RULE, name) else 'and'} {name}": replace(RULE, **{name: not getattr(RULE, name)})
       for name in (*DATA_RULES, *SINGLE_RULES)},
    "no data rules": replace(RULE, **dict.fromkeys(DATA_RULES, False)),
}
SHIPPED = next(name for name, rule in VARIANTS.items() if rule == RULE)
BASE = "value only"
# The last switch added: the shipped rule must not lose to the same rule without it either.
WITHOUT_LAST = "all but computed"
TOLERANCE = 0.005  # what a rule may lose on a left-out set without the error it targets


@dataclass
class DevSet:
    name: str
    predictions: list[str]
    references: list[str]
    labels: np.ndarray  # 1 supported / consistent, 0 not
    # Per pair, the spans a person marked wrong, when the set is judged per figure (Rotowire) or per output from
    # its figures (quintd); None: per text, by `labels`.
    wrong: list[tuple[tuple[int, int], ...]] | None = None
    unit: str = "text"  # "figure": each figure a case (a figure overlapping a wrong span is wrong)


def summedits_sets(folder: str, mode: str) -> list[DevSet]:
    _, domains = read_summedits(folder)
    out = []
    for domain, rows in sorted(domains.items()):
        labels = subset_labels(rows, "figure_edits_vs_consistent")
        kept = [row for row, y in zip(rows, labels) if y >= 0]
        out.append(DevSet(f"SummEdits {domain}", [r.summary for r in kept], [r.reference(mode) for r in kept],
                          labels[labels >= 0]))
    return out


def claims_set(path: str, split: str) -> DevSet:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    rows = [r for r in rows if r.get("split", split) == split]
    return DevSet(f"FilingClaims {split}", [r["claim"] for r in rows], [r["source"] for r in rows],
                  np.array([int(r["label"]) for r in rows]))


def data_to_text_sets(folder: str, tabfact_pairs: int) -> list[DevSet]:
    from nash_metric.benchmarks.data_to_text.quintd import quintd_texts, read_quintd
    from nash_metric.benchmarks.data_to_text.rotowire import read_rotowire, rotowire_texts
    from nash_metric.benchmarks.data_to_text.tabfact import read_tabfact, tabfact_texts

    root = Path(folder)
    games = rotowire_texts(read_rotowire(root / "rotowire")[1])[0]
    out = [DevSet("Rotowire", [t.prediction for t in games], [t.source for t in games], np.ones(len(games), int),
                  [t.wrong for t in games], "figure")]
    outputs = read_quintd(root / "quintd")[1]
    for domain in sorted({o.domain for o in outputs}):
        texts = [t for o, t in zip(outputs, quintd_texts(outputs)) if o.domain == domain]
        out.append(DevSet(f"quintd {domain}", [t.prediction for t in texts], [t.source for t in texts],
                          np.ones(len(texts), int), [t.wrong for t in texts], "output"))
    claims = tabfact_texts(read_tabfact(root / "tabfact", limit=tabfact_pairs)[1])
    out.append(DevSet("TabFact", [t.prediction for t in claims], [t.source for t in claims],
                      np.array([t.label for t in claims])))
    return out


def _overlaps(entry: dict, spans: tuple[tuple[int, int], ...]) -> bool:
    return any(a < entry["end"] and entry["start"] < b for a, b in spans)


def by_figure(dev: DevSet, verdicts: list) -> tuple[np.ndarray, np.ndarray]:
    """(labels, support share) per figure (Rotowire) or per output with a figure (quintd) of a set judged so."""
    y, share = [], []
    for entries, spans in zip(verdicts, dev.wrong or []):
        wrong = [_overlaps(e, spans) for e in entries]
        supported = [e["verdict"] in SUPPORTING for e in entries]
        if dev.unit == "figure":
            y += [not w for w in wrong]
            share += [float(s) for s in supported]
        elif entries:
            y.append(not any(wrong))
            share.append(float(all(supported)))
    return np.array(y, int), np.array(share)


def encoded(dev: DevSet, scorer: NASH, cache: Path | None, tag: str) -> tuple:
    """The pool, mention table and (prediction, reference) text ids of a set: encoded once, cached if asked."""
    path = cache / f"{tag}.{dev.name.replace(' ', '_')}.pkl" if cache else None
    if path is not None and path.exists():
        return pickle.loads(path.read_bytes())
    preds, refs, _ = read_pairs(dev.predictions, dev.references, scorer.config.numbers)
    print(f"{dev.name}: encoding {len(preds)} pairs", file=sys.stderr)
    call = score_chunk(scorer.fitted, preds, refs, show_progress=True)
    pairs = np.stack([call.pool.original_ids(preds), call.pool.original_ids(refs)], 1).tolist()
    found = (call.pool, replace(call.mentions, support=None), pairs)  # recomputed by the code under test
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(found))
    return found


def measure(y: np.ndarray, share: np.ndarray) -> dict[str, float]:
    return {"auc": roc_auc(y, share), "ba": balanced_accuracy(y, share == 1.0),
            "false alarms": float(np.mean(share[y == 1] < 1.0))}


def evaluate(dev: DevSet, scorer: NASH, cache: Path | None, tag: str) -> dict[str, dict[str, float]]:
    pool, mentions, pairs = encoded(dev, scorer, cache, tag)
    mentions = replace(mentions, support=pool.support_keys(mentions.offsets, len(mentions.values)))
    index = np.arange(len(pairs))
    anywhere = np.array([value_anywhere_share(p, r) for p, r in zip(dev.predictions, dev.references)])
    out = {} if dev.wrong is not None else {"V (value anywhere)": measure(dev.labels, anywhere)}
    for name, rule in VARIANTS.items():
        verdicts = context_verdicts(mentions, pairs, rule)
        if dev.wrong is not None:
            y, share = by_figure(dev, verdicts)
            if name == BASE:  # V at the same unit: a figure's (an output's) digit strings stated nowhere
                out["V (value anywhere)"] = measure(y, _value_anywhere(dev, verdicts))
        else:
            y, share = dev.labels, support_fields(verdicts, index)["numeric_support"]
        out[name] = {**measure(y, share),
                     "flagged": sum(e["verdict"] not in SUPPORTING for v in verdicts for e in v),
                     "computed": sum(e["verdict"] == COMPUTED for v in verdicts for e in v)}
    return out


def _value_anywhere(dev: DevSet, verdicts: list) -> np.ndarray:
    """The value-anywhere check at the unit of a set judged per figure or per output (`by_figure`'s rows)."""
    share = []
    for entries, prediction, source in zip(verdicts, dev.predictions, dev.references):
        found = [value_anywhere_share(prediction[e["start"]:e["end"]], source) == 1.0 for e in entries]
        if dev.unit == "figure":
            share += [float(f) for f in found]
        elif entries:
            share.append(float(all(found)))
    return np.array(share)


def leave_one_out(results: dict[str, dict[str, dict[str, float]]]) -> tuple[list[list], bool]:
    """Per left-out set: the variant chosen on the other sets, its cells there, the value step's and V's, and
    whether the shipped rule holds there (no loss to the value step beyond `TOLERANCE`)."""
    rows, holds = [], True
    for left in results:
        rest = [name for name in results if name != left]
        chosen = max(VARIANTS, key=lambda v: (np.mean([results[s][v]["ba"] for s in rest]), v == SHIPPED))
        cell = results[left]
        loss = max(cell[other]["ba"] for other in (BASE, WITHOUT_LAST, "no data rules")) - cell[SHIPPED]["ba"]
        ok = loss <= TOLERANCE
        holds &= ok
        rows.append([left, chosen, *(f"{cell[v]['auc']:.3f} / {cell[v]['ba']:.3f} / {cell[v]['false alarms']:.3f}"
                                     for v in (chosen, SHIPPED, WITHOUT_LAST, "no data rules", BASE,
                                               "V (value anywhere)")),
                     "yes" if ok else "NO"])
    return rows, holds


def variant_table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    sets = list(results)
    rows = [[v, *(f"{results[s][v]['auc']:.3f} / {results[s][v]['ba']:.3f}" for s in sets)]
            for v in ["V (value anywhere)", *VARIANTS]]
    return markdown_table(["variant (AUC / BA)", *sets], rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--summedits", default=str(DATA))
    parser.add_argument("--claims", required=True, help="FilingClaims JSONL (nash build-data filing-claims)")
    parser.add_argument("--split", default="tune", help="the claims' split used as a dev set (default: tune)")
    parser.add_argument("--data-to-text", default=None, metavar="DIR",
                        help="the folder holding rotowire/, quintd/ and tabfact/ (../shared/data)")
    parser.add_argument("--tabfact-pairs", type=int, default=500, help="TabFact pairs used (default: 500)")
    parser.add_argument("--cache", default=None, help="a folder to keep the encoded sets in between runs")
    parser.add_argument("--output", default=None, help="write OUTPUT.json and OUTPUT.md")
    args = parser.parse_args()
    scorer = NASH()
    cache = Path(args.cache) if args.cache else None
    dev = [*summedits_sets(args.summedits, "doc"), claims_set(args.claims, args.split),
           *(data_to_text_sets(args.data_to_text, args.tabfact_pairs) if args.data_to_text else [])]
    results = {d.name: evaluate(d, scorer, cache, "doc") for d in dev}
    summary = {d.name: evaluate(d, scorer, cache, "original") for d in summedits_sets(args.summedits, "original")}
    rows, holds = leave_one_out(results)
    header = ["left-out set", "chosen on the other sets", "chosen: AUC / BA / false alarms",
              f"shipped ({SHIPPED})", WITHOUT_LAST, "no data rules", BASE, "V (value anywhere)",
              "shipped loses nothing"]
    text = (f"# How the figure verdict was chosen\n\n`python perf/verdict_ablation.py --claims FC.jsonl --output "
            f"docs/verdict_ablation` (FilingClaims from `nash build-data filing-claims`, seed 0): "
            f"{scorer.echo['model']}, verdict rule `{RULE.describe()}`, {os.cpu_count()} CPU cores "
            f"({platform.machine()}), dev data only. Cells: ROC AUC of numeric_support / balanced accuracy of the "
            f"verdict / false alarms (consistent texts with a flag).\n\n"
            f"### Leave one domain out (against the source)\n\n{markdown_table(header, rows)}\n\n"
            f"Shipped rule holds on every left-out set: {'yes' if holds else 'NO'}\n\n"
            f"### Every variant, against the source\n\n{variant_table(results)}\n\n"
            f"### Every variant, SummEdits against the original summary\n\n{variant_table(summary)}\n")
    print(text)
    if args.output:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(f"{args.output}.json").write_text(json.dumps(
            {"shipped": RULE.describe(), "model": scorer.echo["model"], "holds": holds,
             "against_source": results, "against_summary": summary}, indent=1))
        Path(f"{args.output}.md").write_text(text)
    return 0 if holds else 1


if __name__ == "__main__":
    raise SystemExit(main())
