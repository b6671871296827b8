"""The bot lab's worker processes: how many run, and that each one ends and is reaped.

A run's heartbeat and time limit are measured by a :class:`SharedClock` that the test moves
by hand, so no test waits for them to pass.
"""

from __future__ import annotations

import multiprocessing
import select
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from spades.app.lab import MAX_MATCHES, MAX_RUNS, LabBusy, LabJob, LabSpec, StopReason
from spades.engine.rules import Rules
from spades.store import Store

ROOT = Path(__file__).resolve().parent.parent
#: Long enough that a run is still going whenever a test acts on it.
LONG = LabSpec(("random",) * 4, Rules(target_score=100), matches=MAX_MATCHES, seed=0)
DEADLINE = 60.0
HAS_PROC = Path("/proc/self/stat").exists()

# Started in its own process, which the test then kills: the process that started a run dies.
HELPER = """
import sys
from spades.app.lab import LabJob, LabSpec, MAX_MATCHES
from spades.engine.rules import Rules

job = LabJob(
    sys.argv[1],
    LabSpec(("random",) * 4, Rules(target_score=100), matches=MAX_MATCHES, seed=0),
    owner="helper",
    heartbeat_seconds=3600,
    max_seconds=3600,
)
while job.done == 0 and job.running:
    job.wait(timeout=0.05)
print(job.pid, flush=True)
job.wait()
"""

Start = Callable[..., LabJob]


class SharedClock:
    """A clock that stands still until the test moves it on, read alike by the test and by
    a run's worker process: its time lives in memory the two share."""

    def __init__(self) -> None:
        self._now = multiprocessing.get_context("spawn").Value("d", 0.0)

    def __call__(self) -> float:
        return float(self._now.value)

    def advance(self, seconds: float) -> None:
        with self._now.get_lock():
            self._now.value += seconds


@pytest.fixture
def url(tmp_path: Path) -> str:
    """A store made before any run starts, as the app's is."""
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    Store(url)
    return url


@pytest.fixture
def start(url: str) -> Iterator[Start]:
    """Starts runs on the test's store, and stops them all when the test ends."""
    jobs: list[LabJob] = []

    def start_job(owner: str, spec: LabSpec = LONG, **limits: Any) -> LabJob:
        job = LabJob(url, spec, owner=owner, **limits)
        jobs.append(job)
        return job

    yield start_job
    for job in jobs:
        job.stop()
    assert all(job.wait(timeout=DEADLINE) for job in jobs)


def _until(condition: Callable[[], bool], seconds: float = DEADLINE) -> bool:
    """Whether the condition came true before the deadline (checked every 50 ms)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _checked_since_now(job: LabJob) -> bool:
    """Whether the worker checked its limits after this call, before the deadline: it
    checks them before each match, and the matches of a chunk are played after the chunk
    before them is stored, so two more chunks stored (or the run ended) tell it did."""
    first = job.done
    if not _until(lambda: job.done > first or not job.running):
        return False
    second = job.done
    return _until(lambda: job.done > second or not job.running)


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and start time, or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    # The command name in parentheses may hold spaces; the fields after it do not.
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[19])


def _replays_all(url: str, count: int) -> None:
    store = Store(url)
    games = store.list_games()
    assert len(games) == count
    for game in games:
        assert store.load(game.id).match.is_over


def test_a_player_may_have_only_one_run_going(start: Start) -> None:
    start("ann")
    with pytest.raises(LabBusy, match="You already have a run going: stop it or wait"):
        start("ann")


def test_the_server_refuses_a_run_beyond_its_cap(start: Start) -> None:
    for number in range(MAX_RUNS):
        start(f"player {number}")
    with pytest.raises(LabBusy, match="The lab is busy with other players' runs"):
        start("one more")


def test_a_finished_run_frees_its_place(start: Start) -> None:
    first = start("player 0")
    for number in range(1, MAX_RUNS):
        start(f"player {number}")
    first.stop()
    assert first.wait(timeout=DEADLINE)
    assert start("player 0").running
    with pytest.raises(LabBusy, match="The lab is busy"):
        start("one more")


def test_a_run_whose_page_stops_beating_ends_by_itself_with_its_matches(
    start: Start, url: str
) -> None:
    clock = SharedClock()
    job = start("ann", heartbeat_seconds=5, clock=clock)
    assert _until(lambda: job.done > 0)
    clock.advance(5)
    assert job.wait(timeout=DEADLINE)
    assert job.stop_reason is StopReason.UNWATCHED
    assert not job.failed
    assert 0 < job.done < MAX_MATCHES
    _replays_all(url, job.done)


def test_a_run_whose_page_keeps_beating_keeps_going(start: Start) -> None:
    clock = SharedClock()
    job = start("ann", heartbeat_seconds=5, clock=clock)
    assert _until(lambda: job.done > 0)
    # 7.5 s since the run started, past its 5 s heartbeat, with a beat every 0.5 s.
    for _ in range(15):
        clock.advance(0.5)
        job.beat()
    assert _checked_since_now(job)
    assert job.running
    assert job.stop_reason is None


def test_a_run_ends_at_its_time_limit(start: Start, url: str) -> None:
    clock = SharedClock()
    job = start("ann", max_seconds=60, clock=clock)
    assert _until(lambda: job.done > 0)
    clock.advance(59)
    assert _checked_since_now(job)
    assert job.running
    clock.advance(1)
    assert job.wait(timeout=DEADLINE)
    assert job.stop_reason is StopReason.TIME_LIMIT
    assert 0 < job.done < MAX_MATCHES
    _replays_all(url, job.done)


def test_a_stopped_run_says_it_was_asked_to(start: Start) -> None:
    job = start("ann")
    job.stop()
    assert job.wait(timeout=DEADLINE)
    assert job.stop_reason is StopReason.ASKED


@pytest.mark.skipif(not HAS_PROC, reason="reads process states from /proc")
def test_a_run_ends_when_the_process_that_started_it_is_killed(url: str, tmp_path: Path) -> None:
    errors = tmp_path / "helper.err"
    with (
        errors.open("w") as err,
        subprocess.Popen(
            [sys.executable, "-c", HELPER, url],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        ) as helper,
    ):
        try:
            assert helper.stdout is not None
            ready, _, _ = select.select([helper.stdout], [], [], DEADLINE)
            line = helper.stdout.readline() if ready else ""
            assert line.strip().isdigit(), errors.read_text()
            pid = int(line)
            worker = _stat(pid)
            assert worker is not None and worker[0] != "Z"
            started = worker[1]
        finally:
            # SIGKILL: the helper ends without any clean-up, as a server killed with -9 does.
            helper.kill()

    def ended() -> bool:
        # The orphaned worker belongs to init now, which may leave it a zombie: that counts.
        now = _stat(pid)
        return now is None or now[0] in "ZX" or now[1] != started

    assert _until(ended, seconds=30)
    stored = len(Store(url).list_games())
    assert 0 < stored < MAX_MATCHES
    _replays_all(url, stored)


@pytest.mark.skipif(not HAS_PROC, reason="reads process states from /proc")
def test_a_finished_worker_is_reaped_without_anyone_asking(start: Start) -> None:
    job = start("ann", LabSpec(("random",) * 4, Rules(target_score=100), matches=3, seed=0))
    pid = job.pid
    assert pid is not None
    # A worker that ended but was not waited for stays in /proc as a zombie ("Z").
    assert _until(lambda: _stat(pid) is None)
    assert not job.running
    assert not job.failed
    assert job.stop_reason is None
    assert job.done == 3


def test_a_worker_never_runs_the_script_that_started_it(
    start: Start, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The app's page is the main script while it starts a run, as Streamlit runs it.
    ran = tmp_path / "ran"
    script = tmp_path / "page.py"
    script.write_text(f"open({str(ran)!r}, 'w').close()\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    job = start("ann", LabSpec(("random",) * 4, Rules(target_score=100), matches=1, seed=0))
    assert job.wait(timeout=DEADLINE)
    assert sys.modules["__main__"] is page
    assert (job.done, job.failed) == (1, False)
    assert not ran.exists()
