"""One measured child process for the perf scripts: its peak RSS and wall time, killed past a memory or time cap.

The peak RSS is the child's own (its rusage from wait4, as RUSAGE_CHILDREN reads it), so each scenario runs in a
fresh interpreter; the machine is shared, so a child past `max_rss_kb` (or `timeout` seconds) is killed and
reported as such rather than left to swap.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Child:
    """What a capped child did: peak RSS (MB), wall seconds, why it was killed ("" if it was not), its exit code,
    its stdout and the last line of its stderr."""

    peak_rss_mb: float
    seconds: float
    killed: str
    code: int
    stdout: str
    last_error: str


def run_capped(argv: list[str], env: dict[str, str], max_rss_kb: int, timeout: float | None = None) -> Child:
    """Run `argv`; kill it past `max_rss_kb` of RSS or `timeout` seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        errors = Path(tmp) / "stderr.txt"
        with errors.open("wb") as err:  # a file, not a pipe: the child's output can neither fill it nor block it
            start = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, env=env)
            killed = ""
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)  # not poll(): it would reap the rusage
                if pid:
                    break
                if not killed and _rss_kb(proc.pid) > max_rss_kb:
                    proc.kill()
                    killed = f"killed above {max_rss_kb / 1024 ** 2:.1f} GB"
                elif not killed and timeout is not None and time.perf_counter() - start > timeout:
                    proc.kill()
                    killed = f"killed after {timeout:.0f} s"
                time.sleep(0.05)
            wall = time.perf_counter() - start
        stdout = proc.stdout.read().decode() if proc.stdout else ""
        last = (errors.read_text(errors="replace").strip().splitlines() or [""])[-1]
    return Child(usage.ru_maxrss / 1024, wall, killed, os.waitstatus_to_exitcode(status), stdout, last)


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
    except (FileNotFoundError, StopIteration):
        return 0
