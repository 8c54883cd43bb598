"""The committed dataset cards (datasets/*/README.md): Hub metadata that matches the Parquet files, and the
sections a published card owes its readers (citation, limitations, how it was built)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml

from nash_metric.common.citations import NASH_BIBTEX

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO / "datasets"
# Each card cites the paper(s) its dataset implements, and NASH.
PAPER_KEYS = {
    "numfine": {"huang-etal-2026-nash"},
    "embednum1k": {"deng-etal-2026-revealing", "huang-etal-2026-nash"},
    "nquad": {"chen2021nquad", "huang-etal-2026-nash"},
}
REQUIRED = ("source_datasets", "annotations_creators", "language_creators", "multilinguality", "language",
            "license", "size_categories", "task_categories", "pretty_name", "dataset_info", "configs")
# The Hub's vocabularies for the provenance fields (huggingface_hub.DatasetCardData).
CREATORS = {"found", "crowdsourced", "expert-generated", "machine-generated", "no-annotation", "other"}
MULTILINGUALITY = {"monolingual", "multilingual", "translation", "other"}
SIZES = {"n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M", "other"}


def split_card(path: Path) -> tuple[dict[str, Any], str]:
    """(YAML front matter, Markdown body) of a card."""
    text = path.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n(.*)", text, re.DOTALL)
    assert match, f"{path}: no YAML front matter"
    return yaml.safe_load(match.group(1)), match.group(2)


def section(body: str, heading: str) -> str:
    """The text under the first ``## `` heading matching ``heading`` (a regex), up to the next ``## ``."""
    match = re.search(rf"^## (?:{heading})[^\n]*\n(.*?)(?=^## |\Z)", body, re.MULTILINE | re.DOTALL)
    return match.group(1).strip() if match else ""


def bibtex_entries(text: str) -> dict[str, str]:
    """``@type{key, ...}`` entries by key; raises ValueError on an entry whose braces do not balance."""
    entries = {}
    for match in re.finditer(r"@(\w+)\{([^,\s]+),", text):
        depth, start = 0, match.start() + len(match.group(1)) + 1
        for i in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                entries[match.group(2)] = text[match.start():i + 1]
                break
        else:
            raise ValueError(f"unbalanced braces in BibTeX entry {match.group(2)!r}")
    return entries


def has_field(entry: str, name: str) -> bool:
    return re.search(rf"^\s*{name}\s*=\s*\S", entry, re.MULTILINE) is not None


def info_entries(meta: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``dataset_info`` by config name: a list with ``config_name`` each, or one mapping (config ``default``)."""
    info = meta["dataset_info"]
    entries = info if isinstance(info, list) else [info]
    return {e.get("config_name", "default"): e for e in entries}


def cards() -> list[str]:
    return sorted(p.parent.name for p in DATASETS.glob("*/README.md"))


def test_every_dataset_folder_has_a_card_under_test():
    assert cards() == sorted(PAPER_KEYS)


@pytest.mark.parametrize("name", sorted(PAPER_KEYS))
def test_front_matter_fields_are_present_and_use_the_hub_vocabulary(name):
    meta, _ = split_card(DATASETS / name / "README.md")
    for field in REQUIRED:
        value = meta.get(field)
        assert value, f"{name}: {field} missing or empty"
        if isinstance(value, list):
            assert all(v for v in value), f"{name}: {field} has an empty item"
    assert set(meta["annotations_creators"]) <= CREATORS and set(meta["language_creators"]) <= CREATORS
    assert meta["multilinguality"] in MULTILINGUALITY
    assert set(meta["size_categories"]) <= SIZES
    assert all(s == "original" or s.startswith("extended") for s in meta["source_datasets"])


@pytest.mark.parametrize("name", sorted(PAPER_KEYS))
def test_dataset_info_matches_the_parquet_files_of_every_config(name):
    folder = DATASETS / name
    meta, _ = split_card(folder / "README.md")
    infos = info_entries(meta)
    for config in meta["configs"]:
        info = infos[config["config_name"]]  # a config without dataset_info fails here
        splits = {s["name"]: s for s in info["splits"]}
        download = arrow = 0
        for data in config["data_files"]:
            files = sorted(folder.glob(data["path"]))
            assert files, f"{name}/{config['config_name']}: {data['path']} matches no file"
            split = splits[data["split"]]
            assert split["num_examples"] == sum(pq.read_metadata(f).num_rows for f in files)
            # num_bytes is the Arrow in-memory size (what the Hub records), not the Parquet size
            assert split["num_bytes"] == sum(pq.read_table(f).nbytes for f in files)
            assert [f["name"] for f in info["features"]] == pq.read_schema(files[0]).names
            download += sum(f.stat().st_size for f in files)
            arrow += split["num_bytes"]
        assert info["download_size"] == download and info["dataset_size"] == arrow


@pytest.mark.parametrize("name", sorted(PAPER_KEYS))
def test_citation_section_cites_the_papers_and_nash_verbatim(name):
    _, body = split_card(DATASETS / name / "README.md")
    citation = section(body, "Citation")
    entries = bibtex_entries(citation)
    assert set(entries) == PAPER_KEYS[name]
    for key, entry in entries.items():
        assert has_field(entry, "title") and has_field(entry, "year"), key
    assert NASH_BIBTEX in citation  # the canonical entry, not a retyped copy


@pytest.mark.parametrize("name", sorted(PAPER_KEYS))
def test_limitations_section_is_there_and_says_something(name):
    _, body = split_card(DATASETS / name / "README.md")
    limitations = section(body, "Bias, risks and limitations|Limitations")
    assert len(re.findall(r"^- \S", limitations, re.MULTILINE)) >= 3, f"{name}: limitations missing or thin"


@pytest.mark.parametrize("name", sorted(PAPER_KEYS))
def test_build_section_gives_a_command_and_the_seed_of_the_build(name):
    folder = DATASETS / name
    _, body = split_card(folder / "README.md")
    built = section(body, "How each config was built")
    block = re.search(r"```bash\n(.*?)```", built, re.DOTALL)
    assert block and re.search(r"nash build-data|_builder\.py", block.group(1)), f"{name}: no build command"
    seeds = {int(s) for s in re.findall(r"--seed (\d+)", block.group(1))}
    assert seeds == {recorded_seed(folder, body)}, f"{name}: the command's seed is not the build's"


def recorded_seed(folder: Path, body: str) -> int:
    """The seed the build recorded: build_report.json, or the card's own build configuration block."""
    report = folder / "build_report.json"
    if report.is_file():
        data = json.loads(report.read_text(encoding="utf-8"))
        return data["seed"] if "seed" in data else data["config"]["seed"]
    return json.loads(re.search(r"```json\n(.*?)```", body, re.DOTALL).group(1))["seed"]


def test_bibtex_checker_rejects_broken_entries():
    good = "@article{a, title={X {Y}}, year={2020}}"
    assert list(bibtex_entries(good)) == ["a"] and has_field("@a{k,\n  year = 1}", "year")
    with pytest.raises(ValueError, match="unbalanced"):
        bibtex_entries("@article{b, title={X, year={2020}")
    assert not has_field("@misc{c,\n  title={T}\n}", "year")


def test_nash_bibtex_is_written_once_in_the_sources():
    sources = [p for root in ("src", "metrics", "datasets") for p in (REPO / root).rglob("*.py")]
    holders = [p.relative_to(REPO).as_posix() for p in sources
               if "@inproceedings{huang-etal-2026-nash" in p.read_text(encoding="utf-8")]
    assert holders == ["src/nash_metric/common/citations.py"]
