"""Shared tables in the store: friends and bots at one match, each seat held by a secret token.

A table is made by a player, who sits South; the other seats are open until a person
joins (and gets a token for the seat) or the creator puts a bot there. A table is private
(joined by its link) unless its creator lists it in the lobby, and a player keeps at most
:data:`MAX_OPEN` tables open at once. Starting the table stores its match as a game marked
as the table's (``at_table``: the Play page never offers it or plays it), and from then on
every move is a guarded write to that game made in the same transaction as the table's
``version`` moves on, so a page learns that something changed by reading one number. A
rematch stores a new game for the same seats. Nothing about a table lives only in one
server's memory. A table has a seat for each player of its rules: four, or three for
cutthroat's three-handed game.

The creator's powers (seating bots, starting, freeing an absent person's seat, closing the
table) are the player's who created it, not their seat's: they pass only when the creator
hands them over to another person at the table, and end when the creator's data is
deleted.

Only the hash of a seat's token is stored, as for players. Every method checks what it
is given, and a refusal is a :class:`~spades.store.errors.StoreError` that says why.
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spades.engine.cards import SOUTH
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.store.checks import check_levels, check_name, check_players, token_hash
from spades.store.errors import StoreError
from spades.store.queries import (
    NewGame,
    append,
    guarded_game_row,
    insert_games,
    player_row,
    truncate,
)
from spades.store.rows import utc_now
from spades.store.schema import HUMAN, SEAT_KEYS, SEAT_KINDS, games, seats, shared_tables
from spades.store.store import Store

#: The seat a table's creator takes.
CREATOR_SEAT: Final = SOUTH
#: How many tables a player may have open (waiting or in play) at once.
MAX_OPEN: Final = 5
#: The longest a table id or seat token may be (``secrets.token_urlsafe(16)`` and (32)).
_ID_MAX: Final = 32
_TOKEN_MAX: Final = 64


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """What everyone may know of a seat: who sits there and whether a bot stands in."""

    seat: int
    kind: str
    name: str
    level: str
    player: str | None
    stand_in: bool
    seen_at: datetime | None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What everyone may know of a table (no token, no hand)."""

    table_id: str
    status: str
    rules: Rules
    creator: str | None
    game_id: str | None
    pace: float
    turn_limit: int
    version: int
    created_at: datetime
    updated_at: datetime
    human_at: datetime
    #: Listed in the lobby; a private table is joined by its link only.
    public: bool
    #: The table's options: every seat may ask for a hint, and take its last move back.
    hints: bool
    undo: bool
    #: One a seat of the rules (three or four).
    seats: tuple[SeatInfo, ...]
    #: The Play page's private table (:meth:`Tables.play`): its person's page alone moves
    #: it, and it is never closed for idleness.
    solo: bool = False

    def open_seats(self) -> list[int]:
        """The seats nobody holds yet."""
        return [s.seat for s in self.seats if s.kind == "open"]

    def seat_of_player(self, player: str | None) -> int | None:
        """The seat ``player`` holds here, if any."""
        if player is None:
            return None
        return next((s.seat for s in self.seats if s.player == player), None)


def _check_seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise StoreError(f"there is no such seat as {seat!r} at a table"[:80])
    return seat


def _check_id(table_id: object) -> str:
    if not isinstance(table_id, str) or not 0 < len(table_id) <= _ID_MAX:
        raise StoreError("no such table")
    return table_id


class Tables:
    """The shared tables of one store (it shares the store's connections). ``now`` is the
    clock the tables' times are kept by (UTC)."""

    def __init__(self, store: Store, *, now: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.now = now

    # ----------------------------------------------------------------- reading
    def info(self, table_id: str) -> TableInfo:
        """A table as everyone may see it; :class:`StoreError` when there is none."""
        with self.store._read() as conn:
            return _info(conn, _table_row(conn, _check_id(table_id)))

    def version(self, table_id: str) -> int:
        """How many changes the table has had: cheap to poll."""
        with self.store._read() as conn:
            found = conn.execute(
                sa.select(shared_tables.c.version).where(shared_tables.c.id == _check_id(table_id))
            ).scalar_one_or_none()
        if found is None:
            raise StoreError("no such table")
        return int(found)

    def listed(self, *, seen_since: datetime) -> list[TableInfo]:
        """The public tables waiting for players or in play that a person has looked at
        since ``seen_since``, newest first."""
        with self.store._read() as conn:
            rows = conn.execute(
                sa.select(shared_tables)
                .where(
                    shared_tables.c.status.in_(_OPEN),
                    shared_tables.c.public,
                    shared_tables.c.human_at >= seen_since,
                )
                .order_by(shared_tables.c.created_at.desc(), shared_tables.c.num.desc())
                .limit(200)
            ).all()
            return [_info(conn, row) for row in rows]

    def seat_of(self, table_id: str, token: object) -> int | None:
        """The seat ``token`` holds at the table, if it holds one."""
        if not isinstance(token, str) or not 0 < len(token) <= _TOKEN_MAX:
            return None
        if not token.isascii():
            return None
        with self.store._read() as conn:
            found = conn.execute(
                sa.select(seats.c.seat)
                .join(shared_tables, shared_tables.c.num == seats.c.table_num)
                .where(shared_tables.c.id == _check_id(table_id))
                .where(seats.c.token_hash == token_hash(token))
            ).scalar_one_or_none()
        return None if found is None else int(found)

    # ----------------------------------------------------------------- the lobby
    def create(
        self,
        *,
        creator: str,
        name: str,
        rules: Rules,
        pace: float,
        turn_limit: int,
        bot_level: str,
        public: bool = False,
        hints: bool = False,
        undo: bool = False,
    ) -> tuple[str, str]:
        """A new table waiting for players, its creator at South; its id and their token.

        ``bot_level`` is the level of the bot that stands in for an absent person;
        ``public`` lists the table in the lobby; ``hints`` and ``undo`` are the table's
        options. A creator with :data:`MAX_OPEN` tables open already is refused.
        """
        if not isinstance(rules, Rules):
            raise StoreError("rules: expected a Rules")
        if not (isinstance(pace, int | float) and 0 <= pace <= 10):
            raise StoreError("pace: expected 0 to 10 seconds between bot moves")
        if isinstance(turn_limit, bool) or not isinstance(turn_limit, int):
            raise StoreError("turn_limit: expected whole seconds")
        if not 10 <= turn_limit <= 600:
            raise StoreError("turn_limit: a turn may last 10 seconds to 10 minutes")
        for option, flag in (("public", public), ("hints", hints), ("undo", undo)):
            if not isinstance(flag, bool):
                raise StoreError(f"{option}: expected True or False")
        table_id, token, now = secrets.token_urlsafe(16), secrets.token_urlsafe(32), self.now()
        with self.store._write() as conn:
            player_row(conn, creator)
            held = conn.execute(
                sa.select(sa.func.count())
                .select_from(shared_tables)
                .where(
                    shared_tables.c.creator == creator,
                    shared_tables.c.status.in_(_OPEN),
                    ~shared_tables.c.solo,
                )
            ).scalar_one()
            if held >= MAX_OPEN:
                raise StoreError(
                    f"you already have {MAX_OPEN} tables open: close one (or let it finish) "
                    "before you make another"
                )
            inserted = conn.execute(
                shared_tables.insert().values(
                    id=table_id,
                    status="waiting",
                    rules=json.dumps(rules.to_dict()),
                    creator=creator,
                    game=None,
                    pace=float(pace),
                    turn_limit=turn_limit,
                    version=0,
                    created_at=now,
                    updated_at=now,
                    human_at=now,
                    public=public,
                    hints=hints,
                    undo=undo,
                )
            ).inserted_primary_key
            assert inserted is not None
            num = inserted[0]
            for seat in range(rules.players):
                mine = seat == CREATOR_SEAT
                conn.execute(
                    seats.insert().values(
                        table_num=num,
                        seat=seat,
                        kind="human" if mine else "open",
                        player=creator if mine else None,
                        token_hash=token_hash(token) if mine else None,
                        name=check_name(name) if mine else "",
                        level=_check_level(bot_level),
                        seen_at=now if mine else None,
                        stand_in=False,
                    )
                )
        return table_id, token

    def join(self, table_id: str, seat: int, *, player: str, name: str) -> str:
        """Sit ``player`` at an open seat of a waiting table, or of a table in play (taking
        over from the bot that plays an opened seat); the seat's new token."""
        seat, token, now = _check_seat(seat), secrets.token_urlsafe(32), self.now()
        with self._changing(table_id, ("waiting", "playing")) as (conn, row):
            player_row(conn, player)
            held = conn.execute(
                sa.select(seats.c.seat).where(
                    seats.c.table_num == row.num, seats.c.player == player
                )
            ).first()
            if held is not None:
                raise StoreError("you already have a seat at this table")
            taken = conn.execute(
                seats.update()
                .where(seats.c.table_num == row.num, seats.c.seat == seat, seats.c.kind == "open")
                .values(
                    kind="human",
                    player=player,
                    token_hash=token_hash(token),
                    name=check_name(name),
                    seen_at=now,
                    stand_in=False,
                )
            ).rowcount
            if taken != 1:
                raise StoreError("that seat is not open")
        return token

    def set_seat(self, table_id: str, seat: int, kind: str, *, level: str = "") -> None:
        """Put a bot of ``level`` at a seat (``kind="bot"``) or open it again
        (``kind="open"``), freeing a person's seat; the caller checks who may. A seat
        opened during the match is played by a bot of ``level`` until somebody joins."""
        seat = _check_seat(seat)
        if kind not in ("bot", "open"):
            raise StoreError(f"kind: a seat is made a bot or opened, not {kind!r}"[:80])
        with self._changing(table_id, _OPEN) as (conn, row):
            held = {s.seat: s for s in _info(conn, row).seats}
            if seat not in held:
                raise StoreError("there is no such seat at this table")
            if row.creator is not None and held[seat].player == row.creator:
                raise StoreError("the creator's seat stays theirs")
            values: dict[str, Any] = {"kind": kind, "token_hash": None, "player": None}
            values["name"] = "" if kind == "open" else BOT_NAME
            if kind == "bot" or row.status == "playing":
                values["level"] = _check_level(level)
            conn.execute(
                seats.update()
                .where(seats.c.table_num == row.num, seats.c.seat == seat)
                .values(**values, stand_in=False)
            )

    def start(self, table_id: str, *, seed: int, bot_level: str) -> str:
        """Start the match: bots of ``bot_level`` take the seats still open; the game's id.

        The game is stored in the same transaction, so a table never starts twice and never
        leaves a game behind that it does not point to.
        """
        level = _check_level(bot_level)
        with self._changing(table_id, ("waiting",)) as (conn, row):
            info = _info(conn, row)
            levels = {
                seat.seat: seat.level if seat.kind == "bot" else level
                for seat in info.seats
                if seat.kind != "human"
            }
            for seat, level_of in levels.items():
                conn.execute(
                    seats.update()
                    .where(seats.c.table_num == row.num, seats.c.seat == seat)
                    .values(kind="bot", level=level_of, name=BOT_NAME, token_hash=None)
                )
            return self._new_game(conn, row, seed=seed)

    def rematch(self, table_id: str, *, seed: int) -> str:
        """Start a new match at a table whose match is over, with the same people and bots
        in the same seats; the new game's id."""
        with self._changing(table_id, ("finished",)) as (conn, row):
            return self._new_game(conn, row, seed=seed)

    def _new_game(self, conn: Connection, row: sa.Row[Any], *, seed: int) -> str:
        """Store the table's next match, for its seats as they are now, and put the table
        in play. It is stored in the table's own transaction, so a table never starts
        twice and never leaves a game behind that it does not point to."""
        info = _info(conn, row)
        game = NewGame(
            game_id=uuid.uuid4().hex,
            match=Match(info.rules, seed=seed),
            players=check_players(
                [s.name if s.kind != "open" else BOT_NAME for s in info.seats], info.rules.players
            ),
            kind="human",
            levels=check_levels(
                {seat.seat: seat.level for seat in info.seats if seat.kind != "human"},
                info.rules.players,
            ),
            undo_allowed=info.undo,
            undo_used=False,
            started_at=self.now(),
            finished_at=None,
            owner=info.creator,
            at_table=True,
        )
        insert_games(conn, [game])
        conn.execute(
            shared_tables.update()
            .where(shared_tables.c.num == row.num)
            .values(status="playing", game=game.game_id)
        )
        return game.game_id

    # ----------------------------------------------------------------- play
    def act(
        self,
        table_id: str,
        seat: int,
        action: int,
        *,
        after: Sequence[int],
        person: bool,
        public: str = "",
    ) -> int:
        """Store ``action``, made for ``seat`` after the history ``after``, as the table's
        next move; the table's version now. ``person`` says the seat's holder made it (not
        a bot standing in), and ``public`` is the move as the table's news may tell it (the
        caller decides what is public; :mod:`spades.store.news`).

        The caller has checked that the action is legal for that seat; a stale ``after``
        raises :class:`StaleWrite` and nothing changes.
        """
        seat = _check_seat(seat)
        if isinstance(action, bool) or not isinstance(action, int) or action < 0:
            raise StoreError("action: expected an action number")
        with self._changing(table_id, ("playing",), move=public) as (conn, row):
            game = guarded_game_row(conn, row.game, after, "no more moves can be made")
            append(conn, game, action)
            if person:
                self._seen(conn, row.num, seat, back=True)
        return int(row.version) + 1

    def take_back(self, table_id: str, length: int, *, after: Sequence[int]) -> int:
        """Undo at the table: keep the first ``length`` actions of its match, whose
        history the caller read as ``after`` (a stale one raises :class:`StaleWrite`); the
        table's version now. The caller checks that the moves taken back are the asking
        seat's and the bots'."""
        with self._changing(table_id, ("playing",)) as (conn, row):
            game = guarded_game_row(conn, row.game, after, "it cannot be taken back")
            truncate(conn, game, length, after)
        return int(row.version) + 1

    def of_game(self, game_id: str) -> str | None:
        """The id of the table whose match is ``game_id`` (a Play game's private table, or
        a shared table's current game), if one is."""
        with self.store._read() as conn:
            found = conn.execute(
                sa.select(shared_tables.c.id).where(shared_tables.c.game == _check_id(game_id))
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def play(self, game_id: str, player: str) -> str:
        """The id of the Play page's private table of ``player``'s game in play
        ``game_id``. It is made the first time (a game just stored, or one stored before
        Play's games had tables): ``player`` at South and the game's bots at the other
        seats, with hints, and undo as the game allows it. Its seat has no token: the page
        acts for the player the server knows (the caller checks who that is)."""
        now = self.now()
        with self.store._write() as conn:
            game = conn.execute(
                sa.select(games).where(games.c.id == _check_id(game_id)).with_for_update()
            ).one_or_none()
            if (
                game is None
                or game.owner != player
                or game.at_table
                or game.kind != "human"
                or game.level_s != HUMAN
            ):
                raise StoreError("this game is not yours to play")
            if game.status != "playing":
                raise StoreError("this game is over")
            num = conn.execute(
                sa.select(shared_tables.c.num).where(
                    shared_tables.c.game == game.id, shared_tables.c.solo
                )
            ).scalar_one_or_none()
            if num is None:
                return self._solo(conn, game, now)
            table_id = conn.execute(
                sa.select(shared_tables.c.id).where(shared_tables.c.num == num)
            ).scalar_one()
        return str(table_id)

    def _solo(self, conn: Connection, game: sa.Row[Any], now: datetime) -> str:
        """Make the private table of the Play page's ``game``; its id."""
        table_id = secrets.token_urlsafe(16)
        rules = Rules.from_dict(json.loads(game.rules))
        inserted = conn.execute(
            shared_tables.insert().values(
                id=table_id,
                status="playing",
                rules=game.rules,
                creator=game.owner,
                game=game.id,
                pace=0.0,
                turn_limit=0,
                version=0,
                created_at=now,
                updated_at=now,
                human_at=now,
                public=False,
                hints=True,
                undo=game.undo_allowed,
                solo=True,
            )
        ).inserted_primary_key
        assert inserted is not None
        columns = game._mapping
        for seat in rules.seats:
            key = SEAT_KEYS[seat]
            mine = seat == CREATOR_SEAT
            conn.execute(
                seats.insert().values(
                    table_num=inserted[0],
                    seat=seat,
                    kind="human" if mine else "bot",
                    player=game.owner if mine else None,
                    token_hash=None,
                    name=columns[f"player_{key}"],
                    level=columns[f"level_{key}"],
                    seen_at=now if mine else None,
                    stand_in=False,
                )
            )
        return table_id

    def stand_in(self, table_id: str, seat: int, on: bool) -> None:
        """Mark that a bot plays for the person at ``seat`` (or no longer does)."""
        seat = _check_seat(seat)
        with self._changing(table_id, ()) as (conn, row):
            conn.execute(
                seats.update()
                .where(seats.c.table_num == row.num, seats.c.seat == seat)
                .where(seats.c.kind == "human")
                .values(stand_in=on)
            )

    def seen(self, table_id: str, seat: int) -> None:
        """A sign of life from the person at ``seat`` (their page polled the table); a
        bot standing in for them goes on until they move or take the seat back."""
        seat = _check_seat(seat)
        with self.store._write() as conn:
            row = _table_row(conn, _check_id(table_id), lock=True)
            self._seen(conn, row.num, seat, back=False)

    def hand_over(self, table_id: str, player: str) -> None:
        """Make ``player``, who holds a seat at the table, its creator (the caller checks
        that the creator asks)."""
        with self._changing(table_id, _OPEN) as (conn, row):
            if _info(conn, row).seat_of_player(player) is None:
                raise StoreError("only a person seated at this table can be handed it")
            conn.execute(
                shared_tables.update().where(shared_tables.c.num == row.num).values(creator=player)
            )

    def idle(self, before: datetime) -> list[str]:
        """The open tables no person has looked at since ``before``."""
        with self.store._read() as conn:
            return list(
                conn.execute(
                    sa.select(shared_tables.c.id).where(
                        shared_tables.c.status.in_(_OPEN),
                        shared_tables.c.human_at < before,
                        ~shared_tables.c.solo,
                    )
                ).scalars()
            )

    def close(self, table_id: str, status: str) -> None:
        """End a table: ``finished`` once its match is over, ``closed`` when given up."""
        if status not in ("finished", "closed"):
            raise StoreError(f"status: a table ends finished or closed, not {status!r}"[:80])
        with self._changing(table_id, ()) as (conn, row):
            if row.status in ("finished", "closed"):
                raise StoreError("this table is already over")
            conn.execute(
                shared_tables.update().where(shared_tables.c.num == row.num).values(status=status)
            )
            if row.game is not None and status == "closed":
                now = self.now()
                conn.execute(
                    games.update()
                    .where(games.c.id == row.game, games.c.status == "playing")
                    .values(status="abandoned", finished_at=now, updated_at=now)
                )

    # ----------------------------------------------------------------- inside
    @contextmanager
    def _changing(
        self, table_id: str, statuses: tuple[str, ...], *, move: str = ""
    ) -> Iterator[tuple[Connection, sa.Row[Any]]]:
        """A change to a table (in one of ``statuses``, if any are given), its row locked;
        the table's version moves on with it, and the news of it goes out once it is stored
        (:mod:`spades.store.news`), but for a private table, which has no other page to
        tell and no clock to wake."""
        with self.store._write() as conn:
            row = _table_row(conn, _check_id(table_id), lock=True)
            if statuses and row.status not in statuses:
                raise StoreError(_STATE_WORDS.get(row.status, "this table cannot change now"))
            yield conn, row
            conn.execute(
                shared_tables.update()
                .where(shared_tables.c.num == row.num)
                .values(version=row.version + 1, updated_at=self.now())
            )
            if not row.solo:
                self.store.news.send(conn, row.id, row.version + 1, move)
        if not row.solo:
            self.store.news.announce(row.id, row.version + 1, move)

    def _seen(self, conn: Connection, num: int, seat: int, *, back: bool) -> None:
        """Note the person at ``seat`` now, and with ``back`` end any stand-in for them."""
        now = self.now()
        values: dict[str, Any] = {"seen_at": now}
        if back:
            values["stand_in"] = False
        conn.execute(
            seats.update()
            .where(seats.c.table_num == num, seats.c.seat == seat, seats.c.kind == "human")
            .values(**values)
        )
        conn.execute(shared_tables.update().where(shared_tables.c.num == num).values(human_at=now))


#: The states of a table that is not over.
_OPEN: Final = ("waiting", "playing")
#: The name a bot goes by at its seat.
BOT_NAME: Final = "Bot"

_STATE_WORDS: Final = {
    "waiting": "this table has not started yet",
    "playing": "this table has already started",
    "finished": "this table's match is over",
    "closed": "this table is closed",
}


def _check_level(level: object) -> str:
    if not isinstance(level, str) or not level or len(level) > 40:
        raise StoreError("level: expected a bot level")
    return level


def _table_row(conn: Connection, table_id: str, *, lock: bool = False) -> sa.Row[Any]:
    stmt = sa.select(shared_tables).where(shared_tables.c.id == table_id)
    row = conn.execute(stmt.with_for_update() if lock else stmt).one_or_none()
    if row is None:
        raise StoreError("no such table")
    return row


def _info(conn: Connection, row: sa.Row[Any]) -> TableInfo:
    found = conn.execute(
        sa.select(seats).where(seats.c.table_num == row.num).order_by(seats.c.seat)
    ).all()
    held = tuple(
        SeatInfo(
            seat=s.seat,
            kind=s.kind if s.kind in SEAT_KINDS else "open",
            name=s.name,
            level=s.level,
            player=s.player,
            stand_in=s.stand_in,
            seen_at=s.seen_at,
        )
        for s in found
    )
    rules = Rules.from_dict(json.loads(row.rules))
    if tuple(s.seat for s in held) != tuple(rules.seats):
        raise StoreError(f"table {row.id} is corrupt: it has {len(held)} seats")
    return TableInfo(
        table_id=row.id,
        status=row.status,
        rules=rules,
        creator=row.creator,
        game_id=row.game,
        pace=row.pace,
        turn_limit=row.turn_limit,
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        human_at=row.human_at,
        public=row.public,
        hints=row.hints,
        undo=row.undo,
        seats=held,
        solo=row.solo,
    )
