"""Keeping the skill ratings: who a rating belongs to, which games count, who sat where,
and the writes, each on a connection inside the caller's transaction.

The store holds the ratings and the games; what a game does to the ratings is the rating
maths' (:mod:`spades.stats.ratings`), which the store is handed as a :class:`Rater` when it
is opened and asks inside the transaction that writes the game.

Whom a rating belongs to is a *subject*: ``person:<player id>`` or ``bot:<level>``.
A game counts once it is finished, when it was played on this server by people: kind
``human``, not imported (a record anyone could have written), every seat's subject known
and at least one of them a person. A partnership game ranks its two teams, and cutthroat
its players by their places. Simulated games never count. A Play-page game has its owner
at South and bots at the other seats; a shared table's seats say who held them at the end
(a seat opened during the match was played by a bot of its level).

:func:`rate_game` moves the ratings in the transaction that marks a game finished, so a
game is rated exactly once (the key of ``rating_events`` holds that even against racing
writers); :func:`rebuild` computes every rating again from the games that count, in the
order they finished, and writes the same rows the updates one by one did.

>>> person("a"), bot("basic"), is_person(person("a")), is_person(bot("basic"))
('person:a', 'bot:basic', True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, NamedTuple, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from spades.engine.cards import SOUTH
from spades.store.errors import StoreError
from spades.store.queries import player_values, seat_keys
from spades.store.schema import (
    HUMAN,
    PARTNERSHIP,
    games,
    rating_events,
    ratings,
    seats,
    shared_tables,
)

PERSON: Final = "person:"
BOT: Final = "bot:"


def person(player_id: str) -> str:
    """The subject of a person (a player id of the store)."""
    return PERSON + player_id


def bot(level: str) -> str:
    """The subject of a bot level (``basic``, ``standard``, ``expert`` …)."""
    return BOT + level


def is_person(subject: str) -> bool:
    """Whether ``subject`` is a person rather than a bot level."""
    return subject.startswith(PERSON)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game that counts, as the rating maths takes it: the subject at each seat
    (N, E, S, W, or three), the winner (the team in the partnership game, the seat in
    cutthroat; None for a tie) and, in cutthroat only, each seat's place (1 the best)."""

    subjects: tuple[str, ...]
    winner: int | None
    places: tuple[int, ...] | None = None


class Skill(Protocol):
    """A rating: mean and uncertainty."""

    @property
    def mu(self) -> float: ...

    @property
    def sigma(self) -> float: ...


class Move(Protocol):
    """What one game did to one subject: its rating before and after, the seats it held
    (a bit a seat, N = 1) and whether it won (None for a tie)."""

    @property
    def subject(self) -> str: ...

    @property
    def before(self) -> Skill: ...

    @property
    def after(self) -> Skill: ...

    @property
    def seats(self) -> int: ...

    @property
    def won(self) -> bool | None: ...


class Rater(Protocol):
    """The rating maths the store moves the ratings by (:data:`spades.stats.ratings.RATER`)."""

    @property
    def start(self) -> Skill:
        """The rating of a subject no game has moved yet."""

    def moving(self, game: RatedGame) -> Sequence[str]:
        """The subjects whose ratings ``game`` moves."""

    def rate(self, game: RatedGame, known: Mapping[str, Skill]) -> Sequence[Move]:
        """What ``game`` does to the ratings ``known`` so far, one move a subject it moves
        (a subject missing from ``known`` starts at :attr:`start`)."""


class _Kept(NamedTuple):
    """A rating as its row keeps it."""

    mu: float
    sigma: float


def needed(rater: Rater | None, what: str) -> Rater:
    """The rater a store was opened with, which ``what`` needs."""
    if rater is None:
        raise StoreError(f"{what} moves the ratings: open the store with the rating maths")
    return rater


def counting() -> sa.ColumnElement[bool]:
    """The condition on ``games`` of a game that may move the ratings (its seats decide)."""
    c = games.c
    return sa.and_(c.kind == HUMAN, c.status == "finished", sa.not_(c.imported))


def seat_subjects(
    row: sa.Row[Any], table_seats: Sequence[sa.Row[Any]] | None
) -> tuple[str, ...] | None:
    """The subjects at the seats of a game's row (N, E, S, W, or three), or None when the
    game does not count: a seat nobody can be named for, or no person at all.

    ``table_seats`` are the seats of the shared table that played the game, if one did.
    """
    found: list[str | None] = []
    if table_seats is not None:
        for held in sorted(table_seats, key=lambda s: s.seat):
            if held.kind == "human":
                found.append(None if held.player is None else person(held.player))
            else:
                found.append(bot(held.level) if held.level else None)
    else:
        for seat, key in enumerate(seat_keys(row)):
            level = row._mapping[f"level_{key}"]
            if level != HUMAN:
                found.append(bot(level))
            elif seat == SOUTH and row.owner is not None:
                found.append(person(row.owner))
            else:
                found.append(None)
    known = [subject for subject in found if subject is not None]
    if len(known) != len(seat_keys(row)) or not any(is_person(subject) for subject in known):
        return None
    return tuple(known)


def rated_game(row: sa.Row[Any], table_seats: Sequence[sa.Row[Any]] | None) -> RatedGame | None:
    """A counting game's row as the rating maths takes it, or None when its seats keep it
    out (see :func:`seat_subjects`)."""
    subjects = seat_subjects(row, table_seats)
    if subjects is None:
        return None
    if row.variant == PARTNERSHIP:
        return RatedGame(subjects, row.winner)
    return RatedGame(subjects, row.winner, player_values(row, "place"))


def _table_seats(conn: Connection, game_ids: Iterable[str]) -> dict[str, list[sa.Row[Any]]]:
    """The seats of the shared tables that played these games, by game id."""
    wanted = list(game_ids)
    if not wanted:
        return {}
    stmt: sa.Select[Any] = (
        sa.select(shared_tables.c.game, seats.c.seat, seats.c.kind, seats.c.player, seats.c.level)
        .join(seats, seats.c.table_num == shared_tables.c.num)
        .where(shared_tables.c.game.in_(wanted))
    )
    rows = conn.execute(stmt).all()
    found: dict[str, list[sa.Row[Any]]] = {}
    for row in rows:
        found.setdefault(row.game, []).append(row)
    return found


def _event_rows(num: int, at: datetime, updates: Sequence[Move]) -> list[dict[str, Any]]:
    return [
        {
            "game": num,
            "subject": u.subject,
            "seats": u.seats,
            "won": u.won,
            "mu": u.after.mu,
            "sigma": u.after.sigma,
            "mu_before": u.before.mu,
            "sigma_before": u.before.sigma,
            "at": at,
        }
        for u in updates
    ]


def _insert_missing(conn: Connection, subjects: Sequence[str], at: datetime, start: Skill) -> None:
    """Give the subjects without a rating row the starting one, leaving the others alone.

    Racing writers both adding a subject's first row must not fail a game's finish: the
    insert skips a row another transaction holds, after waiting for it.
    """
    new = {"mu": start.mu, "sigma": start.sigma, "games": 0, "wins": 0, "updated_at": at}
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    insert = dialect.insert(ratings).values([{"subject": s, **new} for s in subjects])
    conn.execute(insert.on_conflict_do_nothing())


def _current(conn: Connection, subjects: Sequence[str], *, lock: bool) -> dict[str, Skill]:
    stmt = sa.select(ratings.c.subject, ratings.c.mu, ratings.c.sigma).where(
        ratings.c.subject.in_(subjects)
    )
    # In one order, so that two games locking the same subjects cannot deadlock.
    stmt = stmt.order_by(ratings.c.subject)
    found = conn.execute(stmt.with_for_update() if lock else stmt).all()
    return {row.subject: _Kept(row.mu, row.sigma) for row in found}


def rate_game(conn: Connection, num: int, rater: Rater | None) -> bool:
    """Move the ratings by the game numbered ``num``, if it counts; whether it did. A
    store opened without the rating maths (``rater`` None) refuses a game that counts."""
    row = conn.execute(sa.select(games).where(games.c.num == num, counting())).one_or_none()
    if row is None:
        return False
    game = rated_game(row, _table_seats(conn, [row.id]).get(row.id))
    if game is None:
        return False
    rater = needed(rater, f"game {row.id}")
    moving = rater.moving(game)
    at = row.finished_at
    if moving:
        _insert_missing(conn, moving, at, rater.start)
    known = _current(conn, moving, lock=True)
    others = sorted(set(game.subjects) - set(moving))
    if others:
        known.update(_current(conn, others, lock=False))
    updates = rater.rate(game, known)
    if not updates:
        return True
    conn.execute(rating_events.insert(), _event_rows(num, at, updates))
    for u in updates:
        r = ratings.c
        conn.execute(
            ratings.update()
            .where(r.subject == u.subject)
            .values(
                mu=u.after.mu,
                sigma=u.after.sigma,
                games=r.games + 1,
                wins=r.wins + int(u.won is True),
                updated_at=at,
            )
        )
    return True


def rebuild(conn: Connection, rater: Rater) -> int:
    """Compute every rating again from the games that count, in the order they finished
    (the same order :func:`rate_game` met them in); returns how many games counted."""
    if conn.dialect.name == "postgresql":
        # Finishes wait until the rebuild is done, and it sees every one made before it.
        conn.exec_driver_sql("LOCK TABLE ratings, rating_events IN EXCLUSIVE MODE")
    conn.execute(rating_events.delete())
    conn.execute(ratings.delete())
    rows = conn.execute(
        sa.select(games).where(counting()).order_by(games.c.finished_at, games.c.num)
    ).all()
    table_seats = _table_seats(conn, (row.id for row in rows))
    known: dict[str, Skill] = {}
    tally: dict[str, tuple[int, int, datetime]] = {}
    events: list[dict[str, Any]] = []
    counted = 0
    for row in rows:
        game = rated_game(row, table_seats.get(row.id))
        if game is None:
            continue
        counted += 1
        updates = rater.rate(game, known)
        events.extend(_event_rows(row.num, row.finished_at, updates))
        for u in updates:
            known[u.subject] = u.after
            played, won, _ = tally.get(u.subject, (0, 0, row.finished_at))
            tally[u.subject] = (played + 1, won + int(u.won is True), row.finished_at)
    if events:
        conn.execute(rating_events.insert(), events)
    if tally:
        conn.execute(ratings.insert(), _rating_rows(known, tally))
    return counted


def _rating_rows(
    known: Mapping[str, Skill], tally: Mapping[str, tuple[int, int, datetime]]
) -> list[dict[str, Any]]:
    return [
        {
            "subject": subject,
            "mu": known[subject].mu,
            "sigma": known[subject].sigma,
            "games": played,
            "wins": won,
            "updated_at": at,
        }
        for subject, (played, won, at) in tally.items()
    ]
