"""The bot lab: play matches between bots in a worker process and store them as
simulated games, a chunk a transaction, so the app that started it stays responsive.

A server runs at most :data:`MAX_RUNS` lab runs at once and one a player. A run stops by
itself, keeping what it stored, when the page that started it stops checking in
(:meth:`LabJob.beat`), when it reaches its time limit, or when the server process is gone.

>>> from spades.engine.rules import Rules
>>> store = Store("sqlite://")
>>> ids = run_lab(store, LabSpec(("random",) * 4, Rules(), matches=3, seed=5))
>>> len(ids), len(store.list_games())
(3, 3)
"""

from __future__ import annotations

import enum
import multiprocessing
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from typing import Final

from spades.bots import bot_names
from spades.bots.drive import play_match
from spades.engine.cards import SEAT_NAMES
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.store import Store

CHUNK_SECONDS: Final = 0.5
MAX_MATCHES: Final = 10_000
#: Runs a server plays at once: each takes a core, and the app's own pages need one.
MAX_RUNS: Final = 2
#: A run stops when its page has not checked in for this long. Browsers wake the timers of a
#: tab left in the background as seldom as once a minute, so a shorter wait would stop the
#: runs of players who only looked at another tab.
HEARTBEAT_SECONDS: Final = 90.0
#: How long one run may play; it stops then, keeping what it stored.
MAX_RUN_SECONDS: Final = 15 * 60.0


class LabBusy(ValueError):
    """A run refused: its player already has one going, or the server is at :data:`MAX_RUNS`."""


class StopReason(enum.IntEnum):
    """Why a run ended before it had played all its matches."""

    ASKED = 1
    """:meth:`LabJob.stop` was called."""
    UNWATCHED = 2
    """No beat came from the run's page for its heartbeat period."""
    TIME_LIMIT = 3
    """The run played for its time limit."""
    SERVER_GONE = 4
    """The process that started the run ended."""


@dataclass(frozen=True, slots=True)
class LabSpec:
    """What to simulate: the bots in seats N, E, S, W, the rules, how many, the first seed."""

    bots: tuple[str, str, str, str]
    rules: Rules
    matches: int
    seed: int

    def __post_init__(self) -> None:
        known = bot_names()
        for name in self.bots:
            if name not in known:
                raise ValueError(f"no bot named {name!r} (known: {', '.join(known)})")
        if not 1 <= self.matches <= MAX_MATCHES:
            raise ValueError(f"matches: 1 to {MAX_MATCHES}, not {self.matches}")

    @property
    def players(self) -> tuple[str, str, str, str]:
        """Seat names with their bot, such as ``North (random)``."""
        n, e, s, w = (f"{SEAT_NAMES[seat]} ({bot})" for seat, bot in enumerate(self.bots))
        return (n, e, s, w)


def run_lab(
    store: Store,
    spec: LabSpec,
    *,
    done: Synchronized[int] | None = None,
    stop: Callable[[], bool] | None = None,
) -> list[str]:
    """Play the matches and store them, committing about every half second.

    ``done`` counts the stored matches as they land. ``stop`` is asked before each match;
    once it answers true, the run stores the matches it has played and ends. Returns the new
    game ids.
    """
    levels = dict(enumerate(spec.bots))
    ids: list[str] = []
    batch: list[tuple[Match, tuple[str, str, str, str], dict[int, str]]] = []
    last_commit = time.monotonic()
    for index in range(spec.matches):
        if stop is not None and stop():
            break
        batch.append((play_match(spec.rules, spec.seed + index, spec.bots), spec.players, levels))
        now = time.monotonic()
        if now - last_commit >= CHUNK_SECONDS or index == spec.matches - 1:
            ids += store.save_matches(batch, kind="simulated")
            batch = []
            last_commit = now
            if done is not None:
                done.value = len(ids)
    if batch:
        ids += store.save_matches(batch, kind="simulated")
        if done is not None:
            done.value = len(ids)
    return ids


@dataclass(frozen=True, slots=True)
class _Limits:
    """What a worker checks between matches, shared with the process that started it.

    ``stop`` holds 0 or the :class:`StopReason` once the run is stopping, and ``beat`` the
    ``clock()`` of the page's last beat. Both processes read the clock, so it must be one
    they share: ``time.monotonic`` is the same in every process on Linux, and unlike
    ``time.time`` it never jumps.
    """

    stop: Synchronized[int]
    beat: Synchronized[float]
    parent: int
    heartbeat_seconds: float
    max_seconds: float
    clock: Callable[[], float]

    def reason(self, started: float) -> StopReason | None:
        """Why the run should stop now, if it should."""
        now = self.clock()
        # Polled, not PR_SET_PDEATHSIG: that signal follows the thread that started the
        # worker, and the app's script threads end after every rerun.
        if os.getppid() != self.parent:
            return StopReason.SERVER_GONE
        if now - started >= self.max_seconds:
            return StopReason.TIME_LIMIT
        # The worker's own start counts as a beat, so a slow start does not use up the wait.
        if now - max(self.beat.value, started) >= self.heartbeat_seconds:
            return StopReason.UNWATCHED
        return None


def _worker(url: str, spec: LabSpec, done: Synchronized[int], limits: _Limits) -> None:
    started = limits.clock()

    def stopping() -> bool:
        with limits.stop.get_lock():
            if not limits.stop.value:
                limits.stop.value = limits.reason(started) or 0
            return bool(limits.stop.value)

    run_lab(Store(url), spec, done=done, stop=stopping)


@contextmanager
def _main_script_hidden() -> Iterator[None]:
    """Hide the main script while a worker starts, so that the worker never runs it.

    A spawned process runs its parent's main script again (as ``__mp_main__``) before its
    target. In the app that script is the page being drawn: Streamlit puts each run's
    script in ``sys.modules`` as ``__main__``. Run again in the worker, with no page to
    draw on, it would only log Streamlit's warnings and slow the start.
    """
    script = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = script


# The server's running jobs by owner. Each job's reaper thread takes its job out.
_lock = threading.Lock()
_running: dict[str, LabJob] = {}


def running_job(owner: str) -> LabJob | None:
    """The owner's run that is still going, if there is one."""
    with _lock:
        return _running.get(owner)


class LabJob:
    """A lab run in its own process (so bot play never holds up the app's server).

    Starting one raises :class:`LabBusy` when ``owner`` already has a run going or the server
    has :data:`MAX_RUNS` going. The run stops by itself when :meth:`beat` was not called for
    ``heartbeat_seconds``, after ``max_seconds``, or when this process ends.

    ``clock`` measures those seconds, in this process and in the worker's: it is pickled to
    start the worker, so it is a function, or an object of a class, defined in a module
    the worker imports (not in the main script, which the worker never runs).
    """

    def __init__(
        self,
        url: str,
        spec: LabSpec,
        *,
        owner: str,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        max_seconds: float = MAX_RUN_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.spec = spec
        self.owner = owner
        self._done: Synchronized[int] = context.Value("i", 0)
        self._limits = _Limits(
            stop=context.Value("i", 0),
            beat=context.Value("d", clock()),
            parent=os.getpid(),
            heartbeat_seconds=heartbeat_seconds,
            max_seconds=max_seconds,
            clock=clock,
        )
        self._process = context.Process(
            target=_worker, args=(url, spec, self._done, self._limits), daemon=True
        )
        self._ended = threading.Event()
        with _lock:
            if owner in _running:
                raise LabBusy("You already have a run going: stop it or wait for it to finish.")
            if len(_running) >= MAX_RUNS:
                raise LabBusy("The lab is busy with other players' runs; try again in a minute.")
            with _main_script_hidden():
                self._process.start()
            _running[owner] = self
        threading.Thread(target=self._reap, name="lab-reaper", daemon=True).start()

    def _reap(self) -> None:
        """Wait for the worker to end, so that it is never left defunct, and free its place.

        The only wait on the worker: two threads waiting on one process can leave the
        loser of the race thinking the process still runs.
        """
        self._process.join()
        with _lock:
            del _running[self.owner]
        self._ended.set()

    @property
    def pid(self) -> int | None:
        """The worker's process id."""
        return self._process.pid

    @property
    def done(self) -> int:
        """Matches stored so far."""
        return int(self._done.value)

    @property
    def running(self) -> bool:
        """Whether the worker is still going."""
        return not self._ended.is_set()

    @property
    def failed(self) -> bool:
        """Whether the worker ended with an error."""
        return not self.running and self._process.exitcode not in (0, None)

    @property
    def stop_reason(self) -> StopReason | None:
        """Why the run stopped (or is stopping) early; ``None`` if it was not stopped."""
        reason = int(self._limits.stop.value)
        return StopReason(reason) if reason else None

    def beat(self) -> None:
        """Tell the worker its page is still open."""
        self._limits.beat.value = self._limits.clock()

    def stop(self) -> None:
        """Ask the worker to stop after the match it is playing, storing what it played."""
        with self._limits.stop.get_lock():
            if not self._limits.stop.value:
                self._limits.stop.value = StopReason.ASKED

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the worker to end; whether it has."""
        return self._ended.wait(timeout)
