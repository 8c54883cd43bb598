"""`make lock`: resolve the development environment afresh into requirements/dev.lock.

The lock pins every package that `pip install -e ".[offline,parquet,plot,hf,bench,app,docs,dev]"` (every extra) brings,
pip, setuptools and torch included, for the interpreter it targets: CPython 3.11 on linux x86_64, without hashes. pip
resolves the newest releases that pyproject.toml's ranges admit, in a throwaway venv, with torch from TORCH_SPEC (the
CPU wheel on these machines) and gradio at the Space card's sdk_version (`nash export` refuses the two apart). torch
is written with its public version (2.13.0, not 2.13.0+cpu), which a CPU and a CUDA build both satisfy: TORCH_SPEC
chooses the build.

`make install` installs through the lock (`pip install -c requirements/dev.lock`), so every machine tests the same
versions. The library keeps its ranges in pyproject.toml: the lock binds this repo's venv, CI and the Space's
requirements, never a user who runs `pip install nash-metric`.

Usage (run by `make lock`, which then regenerates the files derived from the lock and reinstalls .venv):
    python scripts/lock.py --torch-spec "torch==2.13.0" [--output requirements/dev.lock]
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from nash_metric.ecosystem.export import KINDS, LOCK, as_locked, card_field, source_root

TARGET = ((3, 11), "linux", "x86_64")
EXTRAS = "offline,parquet,plot,hf,bench,app,docs,dev"  # every extra, as the Makefile's EXTRAS


def check_interpreter() -> None:
    """The lock is resolved for one interpreter: pip picks wheels (and so versions) for the one it runs on."""
    python, system, machine = TARGET
    here = (sys.version_info[:2], sys.platform, platform.machine())
    if platform.python_implementation() != "CPython" or here != TARGET:
        raise SystemExit(f"make lock: the lock targets CPython {python[0]}.{python[1]} on {system} {machine}; this is "
                         f"{platform.python_implementation()} {here[0][0]}.{here[0][1]} on {here[1]} {here[2]}: "
                         f"run it with PYTHON=python{python[0]}.{python[1]} on such a machine")


def run(step: str, command: list[str]) -> str:
    print(f"[lock] {step}", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"make lock: {step} failed:\n{done.stderr[-4000:]}")
    return done.stdout


def resolve(root: Path, torch_spec: str, gradio: str) -> dict[str, str]:
    """{canonical name: version} of everything a fresh venv holds after the development install."""
    with tempfile.TemporaryDirectory(prefix="nash-lock-") as tmp:
        venv = Path(tmp) / "venv"
        run("a throwaway venv", [sys.executable, "-m", "venv", str(venv)])
        pip = [str(venv / "bin" / "python"), "-m", "pip"]
        run("the newest pip", [*pip, "install", "--quiet", "--upgrade", "pip"])
        run(f"{torch_spec}, first", [*pip, "install", "--quiet", *shlex.split(torch_spec)])
        run(f".[{EXTRAS}] and gradio=={gradio}: the newest releases pyproject.toml admits (a few minutes)",
            [*pip, "install", "--quiet", f"{root}[{EXTRAS}]", f"gradio=={gradio}"])
        listed = json.loads(run("reading what was installed", [*pip, "list", "--format=json"]))
    return as_locked((item["name"], item["version"]) for item in listed)


def lock_text(versions: dict[str, str], torch_spec: str) -> str:
    python, system, machine = TARGET
    header = [
        f"# The development lock: every package of `pip install -e '.[{EXTRAS}]'`, resolved by `make lock`",
        "# (scripts/lock.py). `make install` installs through it. Do not edit by hand: widen or narrow a range in",
        "# pyproject.toml, then run `make lock`.",
        f"# python: {python[0]}.{python[1]}",
        f"# platform: {system} {machine} (CPython)",
        f"# torch: {torch_spec!r} chose the build; the public version below matches a CPU or CUDA build",
    ]
    return "\n".join([*header, *(f"{name}=={version}" for name, version in versions.items())]) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torch-spec", required=True, help="how pip installs torch: the Makefile's TORCH_SPEC")
    parser.add_argument("--output", type=Path, default=None, help=f"the lock to write (default: {LOCK})")
    args = parser.parse_args(argv)
    check_interpreter()
    root = source_root()
    gradio = card_field(root / KINDS["space"].source / "README.md", "sdk_version")
    versions = resolve(root, args.torch_spec, gradio)
    output = args.output or root / LOCK
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(lock_text(versions, args.torch_spec), encoding="utf-8")
    print(f"[lock] wrote {output}: {len(versions)} packages")


if __name__ == "__main__":
    main()
