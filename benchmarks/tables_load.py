"""Shared tables under load, through the application layer: many tables of four simulated
people on one process and one database.

Each person is a thread with a seat at a table (made with ``TableService.create``/``join``/
``start``, no bots). A person looks at the table's version every ``--poll`` seconds, as the
table's page does, and, as the page does, also follows the table's news
(``TableService.follow``), which ends the wait the moment a move is stored (``--no-news``:
looks only). When the version has moved they read their view and, on their turn, make a
random legal move at once. With ``--servers 2`` the people are spread over two stores,
as over two servers: on PostgreSQL each hears the other's moves through the database.
Reported:

- move → visible: from a move's commit (its first announcement, which the server that
  stored it makes right after the commit) to the moment each of the other three people
  first sees it (median, p95, max);
- move stored: from a person's move to its return, stored (the check of the move and the
  write, queued behind the server's other writes);
- the store's writes a second (the moves, plus the people's signs of life);
- that no move was lost or doubled: each table's stored game holds exactly the moves its
  people made, one a ply, and replays through the engine.

    python benchmarks/tables_load.py [--tables 50] [--seconds 60] [--poll 0.5]
        [--no-news] [--servers 2] [--db postgresql+psycopg://user@host:port/db]

Without ``--db`` the store is a temporary SQLite file; the figures in docs/benchmarks.md
are on PostgreSQL (one local server, as ``.ci/run`` starts it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browser_clock import load_average, percentile

from spades.app.tables import TableRefusal, TableService
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store


@dataclass
class Board:
    """What the people of all tables share: when each table version was stored (the first
    announcement of it, made by the server that stored it right after the commit) and when
    each person first saw each version they saw."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    stored: dict[tuple[str, int], float] = field(default_factory=dict)
    seen: list[tuple[str, int, float]] = field(default_factory=list)
    moves: Counter[str] = field(default_factory=Counter)
    move_ms: list[float] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)


def _person(
    service: TableService,
    board: Board,
    table_id: str,
    token: str,
    until: float,
    poll: float,
    news: bool,
) -> None:
    rng = random.Random(token)
    seen = -1
    heard = threading.Event()
    stop = service.follow(table_id, lambda version: heard.set())[1] if news else None
    while time.monotonic() < until:
        heard.clear()
        service.advance(table_id)  # as every page of the table does at each look
        version = service.tables.version(table_id)
        if version != seen:
            if seen >= 0:
                with board.lock:
                    board.seen.append((table_id, version, time.monotonic()))
            seen = version
            view = service.view(table_id, token)
            if view.table.status != "playing":
                return
            if view.to_act and view.own is not None:
                action = rng.choice(view.own.legal_actions)
                clicked = time.monotonic()
                try:
                    service.act(table_id, token, action, view.table.version)
                except TableRefusal as err:
                    with board.lock:
                        board.refused[str(err)[:60]] += 1
                    continue
                with board.lock:
                    board.moves[table_id] += 1
                    board.move_ms.append((time.monotonic() - clicked) * 1000)
                seen = view.table.version + 1  # one's own move is seen at once
                continue
        heard.wait(poll)  # the table's news, if followed, ends the wait at once
    if stop is not None:
        stop()


def _tables(service: TableService, count: int) -> list[tuple[str, list[str]]]:
    """``count`` started tables of four people; each table's id and the four tokens."""
    made = []
    rules = Rules(target_score=300, mercy_score=None)
    for number in range(count):
        people = [service.store.new_player(f"P{number}-{seat}")[0] for seat in range(4)]
        table_id, host = service.create(people[2], "Host", rules, bot_level="random")
        tokens = {2: host}
        for seat in (0, 1, 3):
            tokens[seat] = service.join(table_id, seat, people[seat], f"Seat {seat}")
        service.start(table_id, host, seed=number)
        made.append((table_id, [tokens[seat] for seat in range(4)]))
    return made


def _checked(
    store: Store, service: TableService, board: Board, tables: list[Any]
) -> dict[str, Any]:
    """Every table's stored game against the moves its people made."""
    lost_or_doubled, replayed = [], 0
    for table_id, _ in tables:
        game_id = service.tables.info(table_id).game_id or ""
        match = store.load(game_id).match  # replays every action through the engine
        replayed += 1
        if match.ply != board.moves[table_id]:
            lost_or_doubled.append((table_id, match.ply, board.moves[table_id]))
    return {"games_replayed": replayed, "lost_or_doubled": lost_or_doubled}


def _spread(times: list[float]) -> dict[str, Any]:
    return {
        "n": len(times),
        "median": round(statistics.median(times), 1) if times else None,
        "p95": round(percentile(times, 0.95), 1) if times else None,
        "max": round(max(times), 1) if times else None,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="spades-tables-") as folder:
        url = args.db or f"sqlite:///{Path(folder) / 'tables.db'}"
        store = Store(url, rater=RATER)
        service = TableService(store)
        tables = _tables(service, args.tables)
        # Each "server" has its own store, hence its own news: on PostgreSQL the news of a
        # move made through one reaches the others through the database.
        servers = [service] + [
            TableService(Store(url, rater=RATER)) for _ in range(args.servers - 1)
        ]
        board = Board()

        def stored(table_id: str, version: int) -> None:
            with board.lock:
                board.stored.setdefault((table_id, version), time.monotonic())

        for server in servers:
            server.store.news.listen(stored)  # the benchmark's, whether people follow or not
        load_start, start = load_average(), time.monotonic()
        until = start + args.seconds
        people = [
            threading.Thread(
                target=_person,
                args=(
                    servers[seat % len(servers)],
                    board,
                    table_id,
                    token,
                    until,
                    args.poll,
                    args.news,
                ),
            )
            for table_id, tokens in tables
            for seat, token in enumerate(tokens)
        ]
        for person in people:
            person.start()
        for person in people:
            person.join()
        wall = time.monotonic() - start
        moves = sum(board.moves.values())
        seen = [
            (when - board.stored[(table_id, version)]) * 1000
            for table_id, version, when in board.seen
            if (table_id, version) in board.stored
        ]
        found = {
            "database": store.engine.dialect.name,
            "tables": args.tables,
            "people": len(people),
            "poll_seconds": args.poll,
            "news": args.news,
            "servers": args.servers,
            "seconds": round(wall, 1),
            "moves": moves,
            "moves_per_second": round(moves / wall, 1),
            # Each move is one write; each person's sign of life is one every 10 s at most.
            "writes_per_second_at_most": round(moves / wall + len(people) / 10, 1),
            "move_to_visible_ms": _spread(seen),
            "move_stored_ms": _spread(board.move_ms),
            "refused": dict(board.refused),
            "load_start": load_start,
            "load_end": load_average(),
            **_checked(store, service, board, tables),
        }
        for server in servers:
            server.store.close()
        return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between two looks")
    parser.add_argument("--db", help="the store's SQLAlchemy URL (default: a SQLite file)")
    parser.add_argument(
        "--news",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="each person also follows the table's news, as a page does (--no-news: looks only)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="stores the people are spread over, by seat"
    )
    found = run(parser.parse_args(argv))
    print(json.dumps(found, indent=2))
    return 1 if found["lost_or_doubled"] else 0


if __name__ == "__main__":
    sys.exit(main())
