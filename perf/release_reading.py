"""Time reading the authors' NumFinE layout at the paper's size: check, flatten, build a folder, load it back.

No model is loaded: this measures what `nash bench numfine --data RELEASE` and `nash build-data numfine --released`
add before scoring. The release is synthetic (records written here in the toolkit's layout, seeded), with the
paper's counts: 14,651 triplet and listwise records (9 candidates each) and a cross-pair per two units
(7,325; the paper has 7,320).

    python perf/release_reading.py [--units 14651] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path


def sentence(text: str, num: str) -> dict[str, str]:
    return {"text": text, "num": num}


def write_release(folder: Path, units: int, seed: int) -> None:
    """triplet_hard.json, listwise.json (9 candidates a record) and crosspair.json, one unit per listwise record."""
    rng = random.Random(seed)
    lists, triplets = [], []
    for i in range(units):
        value = rng.randint(10, 5000)
        anchor = sentence(f"Segment {i} reported operating income of ${value} million in fiscal 2023.", str(value))
        candidates = [sentence(anchor["text"].replace(f"${value} ", f"${c} "), str(c))
                      for c in rng.sample(range(1, 10_000), 9)]
        labels = {"source": "10K", "category": "Monetary", "subcategory": "money"}
        lists.append({"id": i, **labels, "sentence_a": anchor, "candidates": candidates})
        triplets.append({"id": i, **labels, "sentence_a": anchor, "sentence_b": candidates[0],
                         "sentence_c": candidates[1]})
    pairs = [{"pair_id": k, "source": "10K", "category": "Monetary", "subcategory": "money",
              "sentence_a": x["sentence_a"], "sentence_b": x["candidates"][0], "sentence_c": y["sentence_a"],
              "sentence_d": y["candidates"][0]} for k, (x, y) in enumerate(zip(lists[0::2], lists[1::2], strict=False))]
    for name, records in (("triplet_hard", triplets), ("listwise", lists), ("crosspair", pairs)):
        (folder / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, default=14_651)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    from nash_metric.benchmarks.numfine.evaluation import load_data
    from nash_metric.benchmarks.numfine.released_publish import build_released

    with tempfile.TemporaryDirectory() as tmp:
        release, built = Path(tmp) / "release", Path(tmp) / "built"
        release.mkdir()
        write_release(release, args.units, args.seed)
        timings = {}
        for step, run in (("check and flatten the files", lambda: load_data(release)),
                          ("build the folder", lambda: build_released(built, release)),
                          ("load the folder back", lambda: load_data(built))):
            start = time.perf_counter()
            result = run()
            timings[step] = time.perf_counter() - start
        rows = {c: len(r) for c, r in result.tables.items()}
    print(f"synthetic release, {args.units} units: rows {rows}")
    print("| step | seconds |\n|---|---|")
    for step, seconds in timings.items():
        print(f"| {step} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
