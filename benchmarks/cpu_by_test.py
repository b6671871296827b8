"""Each test's CPU time, by kind of process: a pytest plugin, and its report.

As a plugin it notes, around each test (its set-up, call and tear-down), the CPU time of
the test process itself and of every process under it, grouped by kind as ``suite_cpu.py``
groups them (Chromium's renderers, its other processes, the app servers, Playwright's
driver...), with ``ended`` for the processes this one has collected. A process that ends
counts under its parent from then on: a test's renderers, which end with its browser
contexts, count among Chromium's other processes. Each test is one line of JSON in
``CPU_BY_TEST`` (default ``cpu_by_test.jsonl``). A test process's first test also pays for
what its session starts (the browser, the shared app server); its last is read before its
tear-down, which closes them. Each line also counts the test's page loads (Playwright's
``Page.goto`` and ``Page.reload``, wrapped by the plugin) and the browser contexts it made
(``Browser.new_context``): a new context loads a page with nothing cached.

    PYTHONPATH=benchmarks python -m pytest -m browser -p cpu_by_test
    python benchmarks/cpu_by_test.py [cpu_by_test.jsonl] [--top 30]

Linux only: it reads ``/proc``.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from browser_clock import descendants, process_seconds
from playwright.sync_api import Browser, Page
from suite_cpu import command_of, kind_of

_STARTED = pytest.StashKey[tuple[float, defaultdict[str, float]]]()
_ENDED = pytest.StashKey[defaultdict[str, float]]()
#: What the running test has done in the browser: ``loads`` and ``contexts``.
_DONE: Counter[str] = Counter()
#: The counts of each line, apart from its CPU times.
COUNTS = ("loads", "contexts")


def _counting(method: Any, what: str) -> Any:
    def counted(*args: Any, **kwargs: Any) -> Any:
        _DONE[what] += 1
        return method(*args, **kwargs)

    return counted


Page.goto = _counting(Page.goto, "loads")  # type: ignore[method-assign]
Page.reload = _counting(Page.reload, "loads")  # type: ignore[method-assign]
Browser.new_context = _counting(Browser.new_context, "contexts")  # type: ignore[method-assign]


def cpu_now() -> defaultdict[str, float]:
    """The CPU seconds of this process and of every process under it, by kind."""
    times = os.times()
    totals: defaultdict[str, float] = defaultdict(float)
    totals["this process"] = times.user + times.system
    totals["ended"] = times.children_user + times.children_system
    for pid in descendants(os.getpid()):
        totals[_kind(pid)] += process_seconds(pid)
    return totals


def _kind(pid: int) -> str:
    """A process's kind by its command line, or by its name while it ends (a renderer of
    a closing browser context has no command line left)."""
    command = command_of(pid)
    if not command:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return "other"
        command = stat[stat.find("(") + 1 : stat.rfind(")")]
    return kind_of(command)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    _DONE.clear()
    item.stash[_STARTED] = (time.monotonic(), cpu_now())
    yield
    start, before = item.stash[_STARTED]
    after = item.stash.get(_ENDED, None) or cpu_now()
    row: dict[str, Any] = {"test": item.nodeid, "wall": round(time.monotonic() - start, 2)}
    row |= {kind: round(after[kind] - before[kind], 2) for kind in {*after, *before}}
    row |= {what: _DONE[what] for what in COUNTS}
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
    kinds = sorted({kind for row in rows for kind in row} - {"test", "wall", *COUNTS})
    for row in rows:
        row["cpu"] = sum(row.get(kind, 0.0) for kind in kinds)
    rows.sort(key=lambda row: -row["cpu"])
    counts = ", ".join(f"{sum(row.get(what, 0) for row in rows)} {what}" for what in COUNTS)
    print(f"{len(rows)} tests, {sum(row['cpu'] for row in rows):.0f} s of CPU, {counts}; by kind:")
    for number, kind in enumerate(kinds, 1):
        print(f"  {number}. {kind}: {sum(row.get(kind, 0.0) for row in rows):.0f} s")
    header = " ".join(f"{n:>6}" for n in range(1, len(kinds) + 1))
    print(f"{'CPU':>7} {'wall':>6} {'loads':>5} {header}")
    for row in rows[: options.top]:
        split = " ".join(f"{row.get(kind, 0.0):6.1f}" for kind in kinds)
        loads = row.get("loads", 0)
        print(f"{row['cpu']:7.1f} {row['wall']:6.1f} {loads:5d} {split}  {row['test']}")


if __name__ == "__main__":
    main()
