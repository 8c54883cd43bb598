"""requirements/dev.lock: it admits pyproject's ranges, the venv follows it, its reader refuses what it cannot read."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from nash_metric.ecosystem.export import LOCK, ExportError, as_locked, read_lock

ROOT = Path(__file__).resolve().parents[2]
# The extras `make install` installs (and `make lock` resolves): every one, so the venv holds the whole project.
EXTRAS = tuple(re.search(r"^EXTRAS := (\S+)$", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)[1].split(","))


@pytest.fixture(scope="module")
def latest_script():
    """scripts/test_latest.py, whose installed() and difference() compare a venv with the lock."""
    spec = importlib.util.spec_from_file_location("test_latest", ROOT / "scripts" / "test_latest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def declared() -> list[Requirement]:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+, the lock's Python
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = [*project["dependencies"], *(line for extra in EXTRAS for line in project["optional-dependencies"][extra])]
    return [Requirement(line) for line in lines]


def test_the_development_install_and_the_lock_take_every_extra() -> None:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert set(EXTRAS) == set(project["optional-dependencies"])
    spec = importlib.util.spec_from_file_location("lock_script", ROOT / "scripts" / "lock.py")
    lock_script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lock_script)
    assert lock_script.EXTRAS.split(",") == list(EXTRAS)


def test_the_lock_pins_every_declared_dependency_within_its_range() -> None:
    lock = read_lock(ROOT / LOCK)
    assert lock.python == "3.11"
    outside = []
    for requirement in declared():
        version = lock.versions.get(canonicalize_name(requirement.name))
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            outside.append(f"{requirement} (locked: {version})")
    assert not outside, f"run `make lock`: {outside}"
    assert "torch" in lock.versions and "+" not in lock.versions["torch"]  # the public version: TORCH_SPEC's build


def test_the_venv_follows_the_lock(latest_script) -> None:
    """Bound to the lock by design (`make test-latest` leaves it out): a stale .venv is caught here, not as an odd
    score elsewhere. `make install` reinstalls when the lock is newer than the venv's stamp."""
    locked = dict(read_lock(ROOT / LOCK).versions)
    here = {name: version for name, version in latest_script.installed().items() if name in locked}
    differ = latest_script.difference(locked, here)
    assert not differ, "the venv is not the lock's; run `make install`:\n" + "\n".join(differ)


def test_the_lock_reader_says_what_it_cannot_read(tmp_path) -> None:
    path = tmp_path / "dev.lock"
    path.write_text("# python: 3.11\ntorch==2.13.0\nnumpy>=2\n", encoding="utf-8")
    with pytest.raises(ExportError, match=r"line 3: 'numpy>=2' is not NAME==VERSION"):
        read_lock(path)
    path.write_text("torch==2.13.0\n", encoding="utf-8")
    with pytest.raises(ExportError, match=r"no `# python: X\.Y` line"):
        read_lock(path)
    with pytest.raises(ExportError, match=r"no .*missing\.lock: .*make lock"):
        read_lock(tmp_path / "missing.lock")
    path.write_text("# python: 3.11\nHuggingface_Hub==2.4.0\n", encoding="utf-8")
    assert read_lock(path).versions == {"huggingface-hub": "2.4.0"}


def test_a_venv_is_read_as_the_lock_writes_it() -> None:
    pairs = [("Torch", "2.13.0+cpu"), ("nash_metric", "0.2.0"), ("Huggingface_Hub", "2.4.0")]
    assert as_locked(pairs) == {"huggingface-hub": "2.4.0", "torch": "2.13.0"}
    assert list(as_locked(pairs)) == ["huggingface-hub", "torch"]


def test_test_latest_leaves_out_only_tests_that_exist(latest_script) -> None:
    assert latest_script.LOCK_BOUND
    for test, reason in latest_script.LOCK_BOUND.items():
        path, name = test.split("::")
        assert re.search(rf"^def {name}\(", (ROOT / path).read_text(encoding="utf-8"), re.M), test
        assert len(reason) > 20, test
    locked = {"a": "1.0", "b": "2.0", "c": "3.0"}
    assert latest_script.difference(locked, {"a": "1.0", "b": "2.1", "d": "4.0"}) == [
        "  ~ b 2.0 -> 2.1 (newer)", "  - c 3.0 (locked, not installed now)", "  + d 4.0 (not in the lock)"]
