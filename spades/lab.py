"""The bot lab: play matches between bots in a worker process and store them as
simulated games, a chunk a transaction, so the app that started it stays responsive.

>>> from spades.rules import Rules
>>> store = Store("sqlite://")
>>> ids = run_lab(store, LabSpec(("random",) * 4, Rules(), matches=3, seed=5))
>>> len(ids), len(store.list_games())
(3, 3)
"""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from multiprocessing.synchronize import Event
from typing import Final

from spades.bots import bot_names
from spades.cards import SEAT_NAMES
from spades.cli import play_match
from spades.match import Match
from spades.rules import Rules
from spades.store import Store

CHUNK_SECONDS: Final = 0.5
MAX_MATCHES: Final = 10_000


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
    stop: Event | None = None,
) -> list[str]:
    """Play the matches and store them, committing about every half second.

    ``done`` counts the stored matches as they land; setting ``stop`` ends the run after
    the current chunk is stored. Returns the new game ids.
    """
    levels = dict(enumerate(spec.bots))
    ids: list[str] = []
    batch: list[tuple[Match, tuple[str, str, str, str], dict[int, str]]] = []
    last_commit = time.monotonic()
    for index in range(spec.matches):
        if stop is not None and stop.is_set():
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


def _worker(url: str, spec: LabSpec, done: Synchronized[int], stop: Event) -> None:
    run_lab(Store(url), spec, done=done, stop=stop)


class LabJob:
    """A lab run in its own process (so bot play never holds up the app's server)."""

    def __init__(self, url: str, spec: LabSpec) -> None:
        context = multiprocessing.get_context("spawn")
        self.spec = spec
        self._done: Synchronized[int] = context.Value("i", 0)
        self._stop = context.Event()
        self._process = context.Process(
            target=_worker, args=(url, spec, self._done, self._stop), daemon=True
        )
        self._process.start()

    @property
    def done(self) -> int:
        """Matches stored so far."""
        return int(self._done.value)

    @property
    def running(self) -> bool:
        return self._process.is_alive()

    @property
    def failed(self) -> bool:
        """Whether the worker ended with an error."""
        return not self.running and self._process.exitcode not in (0, None)

    @property
    def stopped(self) -> bool:
        """Whether a stop was asked for."""
        return self._stop.is_set()

    def stop(self) -> None:
        """Ask the worker to stop after storing its current chunk."""
        self._stop.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the worker to end; whether it has."""
        self._process.join(timeout)
        return not self._process.is_alive()
