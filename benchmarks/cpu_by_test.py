"""Each test's CPU time, by kind of process: a pytest plugin, and its report.

As a plugin it notes, around each test (its set-up, call and tear-down), the CPU time of
the test process itself and of every process under it, grouped as Chromium, the
Playwright driver, others (the app servers, the bot lab's workers) and the processes
already ended (their time is counted when their parent collects them). Each test is one
line of JSON in ``CPU_BY_TEST`` (default ``cpu_by_test.jsonl``). A test process's first
test also pays for what its session starts (the browser, the shared app server); its last
is read before its tear-down, which closes them.

    PYTHONPATH=benchmarks python -m pytest -m browser -p cpu_by_test
    python benchmarks/cpu_by_test.py [cpu_by_test.jsonl] [--top 30]

Linux only: it reads ``/proc``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

TICKS = os.sysconf("SC_CLK_TCK")
KINDS = ("chromium", "driver", "others", "ended", "test process")
_STARTED = pytest.StashKey[tuple[float, dict[str, float]]]()
_ENDED = pytest.StashKey[dict[str, float]]()


def _processes() -> dict[int, tuple[int, str, float]]:
    """Every process: its parent, its name and its CPU seconds with its collected children's."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (int(fields[1]), name, sum(map(int, fields[11:15])) / TICKS)
    return found


def _kind(name: str) -> str:
    if "chrom" in name.lower():
        return "chromium"
    # Playwright's driver runs Node, whose main thread names the process.
    return "driver" if name.startswith("node") else "others"


def cpu_now() -> dict[str, float]:
    """The CPU seconds of this process and of every process under it, by kind."""
    processes = _processes()
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in processes.items():
        children.setdefault(parent, []).append(pid)
    times = os.times()
    totals = dict.fromkeys(KINDS, 0.0)
    totals["test process"] = times.user + times.system
    totals["ended"] = times.children_user + times.children_system
    waiting = list(children.get(os.getpid(), []))
    while waiting:
        pid = waiting.pop()
        _, name, seconds = processes[pid]
        totals[_kind(name)] += seconds
        waiting.extend(children.get(pid, []))
    return totals


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    item.stash[_STARTED] = (time.monotonic(), cpu_now())
    yield
    start, before = item.stash[_STARTED]
    after = item.stash.get(_ENDED, None) or cpu_now()
    row: dict[str, Any] = {"test": item.nodeid, "wall": round(time.monotonic() - start, 2)}
    row |= {kind: round(after[kind] - before[kind], 2) for kind in KINDS}
    with open(os.environ.get("CPU_BY_TEST", "cpu_by_test.jsonl"), "a") as out:
        out.write(json.dumps(row) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    if nextitem is None:
        # The session's fixtures end in this tear-down: the browser closes, and the time
        # its processes spent is no longer under this process.
        item.stash[_ENDED] = cpu_now()
    yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("path", nargs="?", default="cpu_by_test.jsonl")
    parser.add_argument("--top", type=int, default=30)
    options = parser.parse_args()
    rows = [json.loads(line) for line in Path(options.path).read_text().splitlines()]
    for row in rows:
        row["cpu"] = sum(row[kind] for kind in KINDS)
    rows.sort(key=lambda row: -row["cpu"])
    print(f"{len(rows)} tests, {sum(row['cpu'] for row in rows):.0f} s of CPU")
    print(f"{'CPU':>7} {'wall':>6} " + " ".join(f"{kind:>12}" for kind in KINDS) + "  test")
    for row in rows[: options.top]:
        kinds = " ".join(f"{row[kind]:12.1f}" for kind in KINDS)
        print(f"{row['cpu']:7.1f} {row['wall']:6.1f} {kinds}  {row['test']}")


if __name__ == "__main__":
    main()
