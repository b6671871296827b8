"""A click's confirmation at the server: from a person's move to the server's answer, the
move checked, stored and made, with no page around it.

- Play: ``GameController.act`` on a game stored in a SQLite file, at its private table (the
  bots' replies are played between two clicks, untimed, as the pacing timer would play
  them).
- A shared table: ``TableService.act`` by the seat's token, and the seat's view that the
  page reads next (a shared table's page draws its answer from that view), with standard
  bots in the other three seats, moved on between two clicks by the table's clock.

Each series plays whole matches (new ones as they end) until it has ``--clicks`` samples,
and prints the median, p95 and max in milliseconds, as JSON.

    python benchmarks/act_confirm.py [--clicks 400] [--db postgresql+psycopg://…]

Without ``--db`` the store is a temporary SQLite file. To compare two commits, run this
script from each (``PYTHONPATH`` at its checkout) one after the other, and again.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from spades.app.play import GameController
from spades.app.tables import TableService
from spades.engine.cards import LOOK
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store
from spades.store.rows import utc_now

LEVELS = {0: "standard", 1: "standard", 3: "standard"}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def summary(samples: list[float]) -> dict[str, float | int]:
    ms = [s * 1000 for s in samples]
    return {
        "clicks": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p95_ms": round(percentile(ms, 0.95), 3),
        "max_ms": round(max(ms), 3),
    }


def play(store: Store, clicks: int) -> list[float]:
    """Seconds of each click's ``GameController.act`` at Play."""
    owner = store.new_player("Ada")[0]
    service = TableService(store)
    samples: list[float] = []
    seed = 0
    while len(samples) < clicks:
        controller = GameController.new(
            Rules(),
            seed=seed,
            player_name="Ada",
            bot_levels=LEVELS,
            undo_allowed=True,
            service=service,
            owner=owner,
        )
        controller.set_pace("normal")
        seed += 1
        while not controller.match.is_over and len(samples) < clicks:
            if controller.summary_for is not None:
                controller.next_hand()
            if controller.human_to_act:
                legal = controller.match.hand.legal_actions()
                action = LOOK if LOOK in legal else legal[len(legal) // 2]
                start = time.perf_counter()
                assert controller.act(action, controller.ply)
                samples.append(time.perf_counter() - start)
            else:
                controller.hold = False
                controller.step()
    return samples


class Clock:
    """A clock that jumps past the table's pace each time the table is moved on."""

    def __init__(self) -> None:
        self.at = utc_now()

    def __call__(self) -> datetime:
        return self.at

    def jump(self) -> None:
        self.at += timedelta(seconds=5)


def table(store: Store, clicks: int) -> list[float]:
    """Seconds of each click's ``TableService.act`` and the seat's view read after it."""
    clock = Clock()
    service = TableService(store, now=clock)
    samples: list[float] = []
    seed = 0
    while len(samples) < clicks:
        player = store.new_player("Ada")[0]
        table_id, token = service.create(player, "Bench", Rules(), pace="fast")
        service.start(table_id, token, seed=seed)
        seed += 1
        while len(samples) < clicks:
            view = service.view(table_id, token)
            if view.outcome is not None or view.table.status != "playing":
                break
            if view.own is not None and view.own.legal_actions:
                legal = view.own.legal_actions
                action = LOOK if LOOK in legal else legal[len(legal) // 2]
                start = time.perf_counter()
                service.act(table_id, token, action, view.table.version)
                service.view(table_id, token)
                samples.append(time.perf_counter() - start)
            else:
                clock.jump()
                service.advance(table_id)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=400)
    parser.add_argument("--db", default=None, help="a database URL (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'games.db'}"
        store = Store(url, rater=RATER)
        try:
            report = {
                "play": summary(play(store, args.clicks)),
                "table": summary(table(store, args.clicks)),
                "load_average": [round(v, 2) for v in os.getloadavg()],
            }
        finally:
            store.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
