"""How much the core install and the full one pull in, and how long `import nash_metric` takes in each.

Builds this checkout's wheel (as `nash export` does: from a copy, offline) and two fresh venvs: the core (torch, then
the wheel, no extra) and the full one (every extra but dev: `[offline,parquet,plot,hf,bench,app]`), counts the
distributions each holds (pip itself left out; torch and nash-metric counted), checks that the core holds none of the
packages the extras bring, and times `python -c "import nash_metric"` and `python -c "from nash_metric import NASH"`
in each (the median of `--runs` fresh interpreters). docs/install.md records its output with the machine it ran on.

    python scripts/install_size.py [--torch-spec "torch==2.13.0"] [--runs 11] [--keep DIR] [--json out.json]

It needs a package index (or the machine's pip configuration) for every dependency; it takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the extras bring and the core must not (issue 40): the benchmark, plot, Hugging Face and Space stacks.
NOT_IN_CORE = ("datasets", "evaluate", "pandas", "matplotlib", "bert-score", "pyarrow", "gradio", "textdistance",
               "num2words", "text2num")
IMPORTS = {"import nash_metric": "import nash_metric", "from nash_metric import NASH": "from nash_metric import NASH"}


def extras() -> list[str]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [name for name in project["optional-dependencies"] if name != "dev"]


def run(command: list[str], **options: object) -> str:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **options)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(command)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def build(venv: Path, torch_spec: str, target: str) -> float:
    """A fresh venv at `venv` with torch, then `target` (the wheel with or without extras); the seconds taken."""
    started = time.perf_counter()
    run([sys.executable, "-m", "venv", str(venv)])
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run([*pip, *shlex.split(torch_spec)])
    run([*pip, target])
    return time.perf_counter() - started


def installed(venv: Path) -> dict[str, str]:
    listed = json.loads(run([str(venv / "bin" / "python"), "-m", "pip", "list", "--format=json"]))
    return {item["name"].lower().replace("_", "-"): item["version"] for item in listed if item["name"] != "pip"}


def import_seconds(venv: Path, code: str, runs: int) -> float:
    """The median wall time of `python -c code` in fresh interpreters (one warm-up run first, not counted)."""
    python = str(venv / "bin" / "python")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    run([python, "-c", code], env=env)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run([python, "-c", code], env=env)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(folder: Path, torch_spec: str, runs: int, reuse: bool = False) -> dict[str, dict]:
    """Both installs under `folder` (with `reuse`, venvs already there are measured again, not rebuilt)."""
    sys.path.insert(0, str(ROOT / "src"))
    from nash_metric.ecosystem.export import build_wheel

    full = ",".join(extras())
    results = {}
    for name in ("core", "full"):
        venv = folder / name
        if reuse and (venv / "bin" / "python").is_file():
            print(f"[install_size] {name}: reusing {venv}", file=sys.stderr, flush=True)
            seconds = None
        else:
            wheel = next(folder.glob("nash_metric-*.whl"), None) or build_wheel(ROOT, folder)
            target = str(wheel) if name == "core" else f"{wheel}[{full}]"
            print(f"[install_size] {name}: {target}", file=sys.stderr, flush=True)
            seconds = round(build(venv, torch_spec, target), 1)
        packages = installed(venv)
        results[name] = {
            "extras": "" if name == "core" else full,
            "packages": len(packages),
            "install_seconds": seconds,
            "heavy": sorted(p for p in NOT_IN_CORE if p in packages),
            "import_seconds": {label: round(import_seconds(venv, code, runs), 2) for label, code in IMPORTS.items()},
            "names": sorted(packages),
        }
    return results


def machine() -> str:
    cpus = os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.machine()} Linux {platform.release()}, {cpus} CPUs (load {load:.1f}), CPython "
            f"{platform.python_version()}")


def markdown(results: dict[str, dict], torch_spec: str, runs: int) -> str:
    lines = [f"Machine: {machine()}; {torch_spec} first; import times the median of {runs} fresh interpreters.", "",
             "| install | packages | `import nash_metric` | `from nash_metric import NASH` | of the extras' packages |",
             "|---|---|---|---|---|"]
    for name, r in results.items():
        extra = f"[{r['extras']}]" if r["extras"] else ""
        label = f"{name}: `pip install 'nash-metric{extra}'`"
        times = list(r["import_seconds"].values())
        heavy = ", ".join(r["heavy"]) or "none"
        lines.append(f"| {label} | {r['packages']} | {times[0]:.2f} s | {times[1]:.2f} s | {heavy} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torch-spec", default="torch==2.13.0", help="what pip installs torch from (the Makefile's "
                        "TORCH_SPEC)")
    parser.add_argument("--runs", type=int, default=11, help="fresh interpreters timed per import")
    parser.add_argument("--keep", type=Path, default=None, help="build the venvs here and keep them; venvs already "
                        "there are measured again, not rebuilt (delete the folder for a fresh install)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results (package names too) here")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        results = measure(args.keep, args.torch_spec, args.runs, reuse=True)
    else:
        with tempfile.TemporaryDirectory(prefix="nash-install-size-") as tmp:
            results = measure(Path(tmp), args.torch_spec, args.runs)
    if args.json is not None:
        args.json.write_text(json.dumps({"machine": machine(), **results}, indent=2) + "\n", encoding="utf-8")
    print(markdown(results, args.torch_spec, args.runs))
    return 1 if results["core"]["heavy"] else 0


if __name__ == "__main__":
    sys.exit(main())
