"""Where a command's CPU time goes, by kind of process, and how busy the machine was.

Runs the command (by default ``python -m pytest``) and, once a second, reads every
process's CPU time from ``/proc``; a process's last reading is its share (a process that
lives under a second may be missed). The processes are grouped by kind: Chromium's
renderers and its other processes, the app servers the browser tests start, the test
processes, PostgreSQL and the rest. Every five seconds it also notes how busy the
machine's cores were (whatever ran on them), and prints the stretches in which they were
less than three quarters busy.

    python benchmarks/suite_cpu.py [-- command ...]

Linux only. Processes that were running before the command are left out.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = [sys.executable, "-m", "pytest"]
TICKS = os.sysconf("SC_CLK_TCK")
#: Cores less busy than this, over five seconds, count as idle stretches.
BUSY = 75
KINDS = (
    ("chromium renderer", re.compile(r"chrom.*--type=renderer")),
    ("chromium, other processes", re.compile(r"chrom")),
    ("app servers", re.compile(r"streamlit run|serve\.py")),
    ("test processes", re.compile(r"pytest|xdist|exec\(eval\(sys\.stdin")),
    ("PostgreSQL", re.compile(r"postgres")),
    ("Playwright's driver", re.compile(r"playwright|node")),
)


def _ticks() -> dict[int, int]:
    """Each process's CPU time so far, in clock ticks."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        found[int(entry)] = int(stat[11]) + int(stat[12])
    return found


def command_of(pid: int) -> str:
    """A process's command line ("" once it has ended)."""
    try:
        return (
            Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        )
    except OSError:
        return ""


def _cores() -> tuple[int, int]:
    """(all, idle) clock ticks of the machine so far."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields), fields[3] + fields[4]


def kind_of(command: str) -> str:
    """The kind of process a command line names (:data:`KINDS`, else "other")."""
    return next((name for name, pattern in KINDS if pattern.search(command)), "other")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("command", nargs="*", help="the command (default: python -m pytest)")
    command = parser.parse_args().command or DEFAULT
    before = set(_ticks())
    last: dict[int, int] = {}
    commands: dict[int, str] = {}
    busy: list[tuple[float, float]] = []
    start = time.monotonic()
    cores = _cores()
    proc = subprocess.Popen(command, cwd=ROOT)
    while proc.poll() is None:
        time.sleep(1)
        for pid, ticks in _ticks().items():
            if pid not in before:
                last[pid] = max(ticks, last.get(pid, 0))
                # Read once a process, not every second.
                commands[pid] = commands.get(pid) or command_of(pid)
        if time.monotonic() - start >= 5 * (len(busy) + 1):
            now = _cores()
            spent = now[0] - cores[0]
            busy.append((time.monotonic() - start, 100 * (spent - now[1] + cores[1]) / spent))
            cores = now
    wall = time.monotonic() - start
    by_kind: Counter[str] = Counter()
    for pid, ticks in last.items():
        by_kind[kind_of(commands[pid])] += ticks
    total = sum(by_kind.values()) / TICKS
    cores_n = os.cpu_count() or 1
    print(f"\nexit code {proc.returncode}, wall time {wall:.0f} s, CPU time {total:.0f} s")
    print(f"its processes kept {100 * total / wall / cores_n:.0f}% of {cores_n} cores busy")
    for kind, ticks in by_kind.most_common():
        print(f"  {ticks / TICKS:7.1f} s  {100 * ticks / TICKS / total:4.1f}%  {kind}")
    idle = [f"{at - 5:.0f}-{at:.0f} s ({share:.0f}%)" for at, share in busy if share < BUSY]
    print(f"the machine's cores under {BUSY}% busy: {', '.join(idle) or 'never'}")
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
