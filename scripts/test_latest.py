"""`make test-latest`: the whole suite against the newest releases, in the throwaway venv `make` just built.

Prints how that venv differs from requirements/dev.lock, then runs every test (`pytest -m ""`, as `make test`) but
the ones bound to the lock by design, each named below with its reason. Its exit status is pytest's; it gates
neither `make test` nor CI. A test that a new release breaks is marked `xfail` with that release and the reason,
or the code is fixed; it is never added to LOCK_BOUND.

Run by `make test-latest`, with the interpreter of .venv-latest.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

from packaging.version import Version

from nash_metric.ecosystem.export import LOCK, as_locked, read_lock

# Test id -> why it cannot pass off the lock.
LOCK_BOUND = {
    "tests/unit/test_lock.py::test_the_venv_follows_the_lock": (
        "asserts that the installed versions are the lock's, which this venv deliberately does not hold"
    ),
}


def installed() -> dict[str, str]:
    """This interpreter's packages as the lock writes them."""
    return as_locked((d.metadata["Name"], d.version) for d in metadata.distributions())


def difference(locked: dict[str, str], here: dict[str, str]) -> list[str]:
    """One line per package whose version here is not the lock's, sorted by name."""
    lines = []
    for name in sorted(locked.keys() | here.keys()):
        old, new = locked.get(name), here.get(name)
        if old == new:
            continue
        if old is None:
            lines.append(f"  + {name} {new} (not in the lock)")
        elif new is None:
            lines.append(f"  - {name} {old} (locked, not installed now)")
        else:
            arrow = "newer" if Version(new) > Version(old) else "older"
            lines.append(f"  ~ {name} {old} -> {new} ({arrow})")
    return lines


def main() -> int:
    changed = difference(dict(read_lock().versions), installed())
    print(f"[test-latest] this venv against {LOCK}: {len(changed)} package(s) differ")
    print("\n".join(changed) or "  none: the newest releases are the locked ones")
    print(f"[test-latest] left out, bound to the lock by design ({len(LOCK_BOUND)}):")
    for test, reason in LOCK_BOUND.items():
        print(f"  {test}: {reason}")
    deselect = [arg for test in LOCK_BOUND for arg in ("--deselect", test)]
    return subprocess.call([sys.executable, "-m", "pytest", "-m", "", *deselect])


if __name__ == "__main__":
    sys.exit(main())
