"""The game store: every game, hand, action and player, in SQLite by default (SQLAlchemy 2).

The database is chosen by :func:`resolve_url`: an explicit URL, else ``SPADES_DB_URL``,
else a SQLite file in the per-user data directory (``SPADES_DATA_DIR`` or
``~/.local/share/spades``). The UI layer may pass a URL from Streamlit secrets.

Three tables hold the games (rules, seats, bot levels, kind, owner, times, result, undo), the
scored hands (dealer, bids, tricks, points breakdown, bags) and every action, so any game
replays through the engine. A fourth holds the players: a display name, table preferences
and the hash of the secret token a browser presents to be that player again. A
``schema_version`` table names the layout; an older file is upgraded in place and a newer
or foreign one is refused. Every write is one transaction, and SQLite runs in WAL mode so
that pages reading and games writing do not block each other.

A write to a game in play names the ply it was made at. Two sessions on one game cannot
both write: the second is refused with :class:`StaleWrite`, and no ply ever holds two
actions. A database that cannot be used (damaged, read-only, busy, empty, or written by a
newer version) raises :class:`StoreUnavailable` with a message for people; the details go
to the server log, never into the message.

>>> from spades.rules import Rules
>>> store = Store("sqlite://")
>>> gid = store.new_game(rules=Rules(), seed=1, players=("N", "E", "You", "W"),
...                      kind="human", bot_levels={0: "random", 1: "random", 3: "random"})
>>> first = store.load(gid).match.legal_actions()[0]
>>> store.append_action(gid, first, ply=0)
>>> len(store.load(gid).match.history)
1
>>> try:
...     store.append_action(gid, first, ply=0)
... except StaleWrite as err:
...     (err.expected, err.stored)
(0, 1)
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import secrets
import sqlite3
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spades.cards import NUM_ACTIONS
from spades.match import Match
from spades.record import GameRecord, LoadedGame, RecordError, dumps, loads
from spades.rules import Rules
from spades.state import IllegalAction

SCHEMA_VERSION: Final = 3
SEAT_KEYS: Final = ("n", "e", "s", "w")
TEAM_KEYS: Final = ("ns", "ew")
HUMAN: Final = "human"
Kind = Literal["human", "simulated"]
KINDS: Final = ("human", "simulated")
#: The longest display name a player may have.
NAME_MAX: Final = 40
#: The most a player's preferences may take, as UTF-8 JSON.
PREFS_MAX_BYTES: Final = 4096
# How long a player's seen_at may lag: it is bookkeeping, not worth a write on every visit.
_SEEN_EVERY: Final = timedelta(hours=1)
# A token is URL-safe base64 (``secrets.token_urlsafe(32)`` gives 43 characters); anything
# longer or with other characters is refused before it is hashed.
_TOKEN_MAX: Final = 128
_TOKEN_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_HEX: Final = frozenset("0123456789abcdef")

_log = logging.getLogger("spades.store")


class StoreError(ValueError):
    """A store operation that cannot be done; the message says why."""


class StaleWrite(StoreError):
    """The game has moved on: its stored actions are not the ones the writer's copy had.

    ``expected`` is the number of actions the writer's copy had, ``stored`` the number the
    store holds. Nothing was written; reload the game to see where it stands.
    """

    def __init__(self, game_id: str, *, expected: int, stored: int) -> None:
        super().__init__(
            f"game {game_id} has moved on elsewhere: it holds {stored} actions, "
            f"where this copy has {expected}"
        )
        self.game_id = game_id
        self.expected = expected
        self.stored = stored


UnavailableReason = Literal["damaged", "read_only", "busy", "newer", "empty", "unreachable"]

_UNAVAILABLE: Final[dict[UnavailableReason, str]] = {
    "damaged": (
        "The game database is damaged, so it cannot be used. Nothing was changed; restore it "
        "from a backup or move it aside to start a new one."
    ),
    "read_only": (
        "The game database is read-only, so games cannot be saved. Nothing was lost; it can "
        "be used again once this program may write to it."
    ),
    "busy": (
        "The game database is busy: another program holds it. Nothing was lost; try again "
        "in a moment."
    ),
    "newer": (
        "The game database was written by a newer version of spades, so this one cannot "
        "use it. Nothing was changed; upgrade spades to open it."
    ),
    "empty": (
        "The game database file is empty, perhaps cut short, so it was not opened. Nothing "
        "was changed; restore it from a backup or move it aside to start a new one."
    ),
    "unreachable": (
        "The game database cannot be reached right now. Nothing was changed; try again later."
    ),
}


class StoreUnavailable(StoreError):
    """The database cannot be used at all; ``reason`` says why, the message says it plainly.

    The message is written for players: it names no file, SQL or error text (those are
    logged on the server, on the ``spades.store`` logger).
    """

    def __init__(self, reason: UnavailableReason) -> None:
        super().__init__(_UNAVAILABLE[reason])
        self.reason: UnavailableReason = reason


# ------------------------------------------------------------------------------ schema
metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
)

players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    # Only the token's hash is kept: a copy of the database does not let anyone act as
    # the players in it.
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(NAME_MAX), nullable=False),
    sa.Column("prefs", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime, nullable=False),
    sa.Column("seen_at", sa.DateTime, nullable=False),
)

games = sa.Table(
    "games",
    metadata,
    # Actions and hands refer to a game by this small number rather than by its id, which
    # keeps the one-row-per-action table compact.
    sa.Column("num", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(32), nullable=False, unique=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("started_at", sa.DateTime, nullable=False),
    sa.Column("updated_at", sa.DateTime, nullable=False),
    sa.Column("finished_at", sa.DateTime),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("rule_set", sa.Text, nullable=False),
    *(sa.Column(f"player_{k}", sa.String(200), nullable=False) for k in SEAT_KEYS),
    *(sa.Column(f"level_{k}", sa.String(40), nullable=False) for k in SEAT_KEYS),
    sa.Column("bot_levels", sa.String(200), nullable=False),
    sa.Column("undo_allowed", sa.Boolean, nullable=False),
    sa.Column("undo_used", sa.Boolean, nullable=False),
    sa.Column("actions_count", sa.Integer, nullable=False),
    sa.Column("hands_count", sa.Integer, nullable=False),
    sa.Column("score_ns", sa.Integer, nullable=False),
    sa.Column("score_ew", sa.Integer, nullable=False),
    sa.Column("bags_ns", sa.Integer, nullable=False),
    sa.Column("bags_ew", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer),
    sa.Column("outcome", sa.String(200), nullable=False),
    # Simulated, imported and older games belong to nobody.
    sa.Column("owner", sa.String(32), sa.ForeignKey("players.id", ondelete="SET NULL")),
    sa.Index("ix_games_kind_started", "kind", "started_at"),
)
_GAMES_OWNER_INDEX: Final = sa.Index("ix_games_owner", games.c.owner)

hands = sa.Table(
    "hands",
    metadata,
    sa.Column("game", sa.Integer, sa.ForeignKey("games.num", ondelete="CASCADE"), primary_key=True),
    sa.Column("hand_no", sa.Integer, primary_key=True),
    sa.Column("dealer", sa.Integer, nullable=False),
    sa.Column("claimed_by", sa.Integer),
    *(sa.Column(f"bid_{k}", sa.Integer, nullable=False) for k in SEAT_KEYS),
    *(sa.Column(f"blind_{k}", sa.Boolean, nullable=False) for k in SEAT_KEYS),
    *(sa.Column(f"tricks_{k}", sa.Integer, nullable=False) for k in SEAT_KEYS),
    *(
        sa.Column(f"{name}_{t}", sa.Integer, nullable=False)
        for t in TEAM_KEYS
        for name in (
            "team_bid",
            "team_tricks",
            "points",
            "bags",
            "bags_before",
            "bags_after",
            "penalty",
            "score",
        )
    ),
    *(sa.Column(f"made_{t}", sa.Boolean) for t in TEAM_KEYS),
    sa.Column("breakdown", sa.Text, nullable=False),
    sqlite_with_rowid=False,
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game", sa.Integer, sa.ForeignKey("games.num", ondelete="CASCADE"), primary_key=True),
    # The key (game, ply) is what makes two actions for one ply impossible, whatever the
    # writers do; the ply check in each write makes the loser hear about it.
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    # Clustered on (game, ply): SQLite keeps the rows in that order, with no second index.
    sqlite_with_rowid=False,
)

_OUR_TABLES: Final = frozenset({"schema_version", "games", "hands", "actions", "players"})

# Version 1 keyed games, and their actions, by the text id alone; it had no undo columns,
# no rule-set or bot-level labels and no hands table (analytics replayed the actions).
# The upgrade renames the old tables, creates the current ones, copies the rows across,
# and fills the hands by replaying every finished game through the engine. It lands on
# the current layout in one step, so the later upgrades have nothing left to do.
_V1_GAME_COLUMNS: Final = (
    "id, kind, status, started_at, updated_at, finished_at, seed, rules, "
    "player_n, player_e, player_s, player_w, level_n, level_e, level_s, level_w, "
    "actions_count, score_ns, score_ew, bags_ns, bags_ew, winner, outcome"
)
_V1_SET_ASIDE: Final = (
    "ALTER TABLE actions RENAME TO actions_v1",
    "ALTER TABLE games RENAME TO games_v1",
)
_V1_COPY: Final = (
    f"INSERT INTO games ({_V1_GAME_COLUMNS}, rule_set, bot_levels, undo_allowed, undo_used, "
    f"hands_count) SELECT {_V1_GAME_COLUMNS}, '', '', TRUE, FALSE, 0 FROM games_v1",
    "INSERT INTO actions (game, ply, action) SELECT g.num, a.ply, a.action "
    "FROM actions_v1 a JOIN games g ON g.id = a.game_id",
    "DROP TABLE actions_v1",
    "DROP TABLE games_v1",
)
# Version 2 had no players and no game owners: the upgrade adds the table, the column
# (empty, so every earlier game belongs to nobody) and its index.
_V2_ADD_OWNER: Final = (
    "ALTER TABLE games ADD COLUMN owner VARCHAR(32) REFERENCES players (id) ON DELETE SET NULL"
)


# ------------------------------------------------------------------------- locations
def default_db_path() -> Path:
    """The SQLite file used when nothing else is configured."""
    base = os.environ.get("SPADES_DATA_DIR")
    if base:
        return Path(base) / "spades.db"
    xdg = os.environ.get("XDG_DATA_HOME")
    root = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return root / "spades" / "spades.db"


def resolve_url(url: str | None = None) -> str:
    """The database URL: ``url``, else ``SPADES_DB_URL``, else the per-user SQLite file."""
    if url:
        return url
    env = os.environ.get("SPADES_DB_URL")
    if env:
        return env
    path = default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def _sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL, or None for an in-memory database or another dialect."""
    parsed = sa.make_url(url)
    database = parsed.database
    if parsed.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        if parsed.query.get("mode") == "memory":
            return None
        database = database.removeprefix("file:")
    return Path(database)


def _empty_file(path: Path, busy_timeout: float) -> bool:
    """Whether ``path`` is a zero-length file that no one is writing a new store into.

    Another server creating the same new store makes the file, empty, a moment before
    it takes the write lock and fills it: waiting for that lock tells the two apart.
    """
    if not path.is_file() or path.stat().st_size != 0:
        return False
    with suppress(sqlite3.Error), closing(sqlite3.connect(path, timeout=busy_timeout)) as probe:
        probe.isolation_level = None
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
    return path.stat().st_size == 0


def _sqlite_engine(url: str, busy_timeout: float) -> Engine:
    database = sa.make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    memory = not database or database == ":memory:"
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": busy_timeout},
        poolclass=sa.StaticPool if memory else None,
    )

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event issue BEGIN itself, so writes can take the
        # write lock up front (BEGIN IMMEDIATE) and wait for it instead of failing.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={round(busy_timeout * 1000)}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("spades_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


# ---------------------------------------------------------------------------- faults
# Words of the DB-API error (SQLite's error name, then its message) that tell why the
# database cannot be used, checked in this order; other drivers' messages use the same words.
_FAULT_WORDS: Final[tuple[tuple[UnavailableReason, tuple[str, ...]], ...]] = (
    (
        "busy",
        ("sqlite_busy", "sqlite_locked", "locked", "lock timeout", "could not obtain lock"),
    ),
    ("read_only", ("sqlite_readonly", "readonly", "read-only", "read only")),
    (
        "damaged",
        (
            "sqlite_corrupt",
            "sqlite_notadb",
            "sqlite_ioerr",
            "malformed",
            "not a database",
            "disk i/o",
            "no such table",
            "no such column",
        ),
    ),
)
_CANNOT_OPEN: Final = ("sqlite_cantopen", "unable to open")


def _read_only_place(path: Path | None) -> bool:
    """Whether a SQLite file, or the folder it is in, may be read but not written."""
    if path is None:
        return False
    if path.exists() and not os.access(path, os.W_OK):
        return True
    return path.parent.is_dir() and not os.access(path.parent, os.W_OK)


def _fault_reason(err: BaseException, path: Path | None) -> UnavailableReason:
    """Why a database error means the database cannot be used."""
    if isinstance(err, OSError):
        return "read_only" if isinstance(err, PermissionError) else "unreachable"
    orig = err.orig if isinstance(err, sa.exc.DBAPIError) else err
    text = f"{getattr(orig, 'sqlite_errorname', '')} {orig}".lower()
    for reason, words in _FAULT_WORDS:
        if any(word in text for word in words):
            return reason
    if any(word in text for word in _CANNOT_OPEN) and _read_only_place(path):
        # SQLite cannot open a WAL database whose folder it may not write to: the
        # -wal and -shm files beside it cannot be made.
        return "read_only"
    return "unreachable"


def _value_error(err: BaseException) -> bool:
    """Whether ``err`` is a value the database cannot hold, rather than a database fault."""
    if isinstance(err, sa.exc.DataError | OverflowError):
        return True
    return isinstance(err, sa.exc.StatementError) and not isinstance(err, sa.exc.DBAPIError)


@contextmanager
def _plain_faults(where: str, path: Path | None) -> Iterator[None]:
    """Turn the database's own errors into plain :class:`StoreError` messages.

    The driver's text names files, SQL and parameters; it goes to the server log only.
    """
    try:
        yield
    except StoreError:
        raise
    except sa.exc.IntegrityError:
        _log.warning("%s refused a write", where, exc_info=True)
        raise StoreError(
            "the game database refused the change: it clashes with what another "
            "session stored meanwhile, so nothing was stored"
        ) from None
    except (sa.exc.StatementError, sqlite3.Error, OverflowError, OSError) as err:
        if _value_error(err):
            _log.warning("%s refused a value", where, exc_info=True)
            raise StoreError(
                "a value is out of the range the game database can hold, so nothing was stored"
            ) from None
        reason = _fault_reason(err, path)
        level = logging.WARNING if reason == "busy" else logging.ERROR
        _log.log(level, "%s cannot be used (%s)", where, reason, exc_info=True)
        raise StoreUnavailable(reason) from None


def rule_set_label(rules: Rules) -> str:
    """A short name for a rule set: ``standard``, or the options that differ from it.

    >>> rule_set_label(Rules())
    'standard'
    >>> rule_set_label(Rules(target_score=300, jokers=True))
    'target_score=300, jokers=True'
    """
    standard = Rules().to_dict()
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if standard[k] != v]
    return ", ".join(changed) or "standard"


def bot_levels_label(levels: Sequence[str]) -> str:
    """The distinct bot levels of a game's four seats, joined with ``+`` (humans left out).

    >>> bot_levels_label(["random", "human", "basic", "random"])
    'basic+random'
    """
    return "+".join(sorted({level for level in levels if level != HUMAN}))


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def hand_rows(match: Match) -> list[dict[str, Any]]:
    """One dict a finished hand of ``match``, in the ``hands`` table's columns."""
    rows: list[dict[str, Any]] = []
    for number, (hand, result) in enumerate(zip(match.finished, match.results, strict=True), 1):
        row: dict[str, Any] = {
            "hand_no": number,
            "dealer": hand.dealer,
            "claimed_by": hand.claimed_by,
        }
        for seat, key in enumerate(SEAT_KEYS):
            row[f"bid_{key}"] = hand.bids[seat]
            row[f"blind_{key}"] = hand.blind[seat]
            row[f"tricks_{key}"] = hand.tricks_won[seat]
        breakdown = {}
        for team, key in zip(result.teams, TEAM_KEYS, strict=True):
            row[f"team_bid_{key}"] = team.bid
            row[f"team_tricks_{key}"] = team.tricks
            row[f"points_{key}"] = team.points
            row[f"bags_{key}"] = team.bags
            row[f"bags_before_{key}"] = team.bags_before
            row[f"bags_after_{key}"] = team.bags_after
            row[f"penalty_{key}"] = team.penalty
            row[f"made_{key}"] = team.made
            breakdown[key] = [
                {"kind": line.kind, "points": line.points, "text": line.text} for line in team.lines
            ]
        row["breakdown"] = json.dumps(breakdown, ensure_ascii=False)
        rows.append(row)
    ns = ew = 0
    for row in rows:
        ns += row["points_ns"]
        ew += row["points_ew"]
        row["score_ns"], row["score_ew"] = ns, ew
    return rows


# ---------------------------------------------------------------------------- filters
@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games an analytics query covers; ``None`` means no restriction.

    ``owner`` keeps one player's games only, and with ``others_finished`` also every game
    that is over, whoever played it; a game in play is never shown to anyone but its owner.
    """

    kinds: tuple[str, ...] | None = None
    start: date | None = None
    end: date | None = None
    rule_sets: tuple[str, ...] | None = None
    bot_levels: tuple[str, ...] | None = None
    finished_only: bool = True
    owner: str | None = None
    others_finished: bool = False

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on the ``games`` table."""
        c = games.c
        parts: list[sa.ColumnElement[bool]] = []
        if self.finished_only:
            parts.append(c.status != "playing")
        if self.owner is not None:
            mine = c.owner == self.owner
            parts.append(sa.or_(mine, c.status != "playing") if self.others_finished else mine)
        if self.kinds is not None:
            parts.append(c.kind.in_(self.kinds))
        if self.start is not None:
            parts.append(c.started_at >= datetime.combine(self.start, time.min))
        if self.end is not None:
            # The end of the day rather than the next midnight: date.max has no next day.
            parts.append(c.started_at <= datetime.combine(self.end, time.max))
        if self.rule_sets is not None:
            parts.append(c.rule_set.in_(self.rule_sets))
        if self.bot_levels is not None:
            allowed = (*self.bot_levels, HUMAN)
            parts.extend(getattr(c, f"level_{k}").in_(allowed) for k in SEAT_KEYS)
        return sa.and_(sa.true(), *parts)


# ------------------------------------------------------------------------------ store
@dataclass(frozen=True, slots=True)
class _NewGame:
    game_id: str
    match: Match
    players: tuple[str, str, str, str]
    kind: str
    levels: tuple[str, str, str, str]
    undo_allowed: bool
    undo_used: bool
    started_at: datetime
    finished_at: datetime | None
    owner: str | None = None


def _shown(value: object) -> str:
    """A value for a message, cut short: a hostile caller's megabyte is not echoed."""
    text = repr(value)
    return text if len(text) <= 70 else text[:69] + "…"


def _check_players(players: Sequence[str]) -> tuple[str, str, str, str]:
    if len(players) != 4 or not all(isinstance(p, str) for p in players):
        raise StoreError("players: four names are needed, for N, E, S and W")
    if any(len(p) > 200 for p in players):
        raise StoreError("players: a name is longer than 200 characters")
    return (players[0], players[1], players[2], players[3])


def _check_levels(bot_levels: Mapping[int, str]) -> tuple[str, str, str, str]:
    for seat, level in bot_levels.items():
        if seat not in (0, 1, 2, 3):
            raise StoreError(f"bot_levels: {seat!r} is not a seat 0..3")
        if not isinstance(level, str) or not level or level == HUMAN or len(level) > 40:
            raise StoreError(f"bot_levels: {level!r} is not a bot level")
    levels = [bot_levels.get(seat, HUMAN) for seat in range(4)]
    return (levels[0], levels[1], levels[2], levels[3])


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise StoreError(f"kind: expected 'human' or 'simulated', not {kind!r}")
    return kind


def _check_ply(ply: int) -> int:
    if isinstance(ply, bool) or not isinstance(ply, int):
        raise StoreError(f"ply: expected an int, not {_shown(ply)}")
    return ply


def _check_name(name: str) -> str:
    """A display name, trimmed (runs of spaces, tabs and line breaks become one space)."""
    if not isinstance(name, str):
        raise StoreError(f"name: expected text, not {_shown(name)}")
    trimmed = " ".join(name.split())
    if not trimmed:
        raise StoreError("name: a name needs at least one letter")
    if len(trimmed) > NAME_MAX:
        raise StoreError(f"name: a name is at most {NAME_MAX} characters long")
    if not trimmed.isprintable():
        raise StoreError("name: a name cannot hold control characters")
    return trimmed


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _is_player_id(value: object) -> bool:
    return isinstance(value, str) and len(value) == 32 and set(value) <= _HEX


class Store:
    """The games of one database. Thread-safe; share one per URL (:meth:`default`).

    ``busy_timeout`` (seconds, SQLite only) is how long a write waits for another writer
    before the store gives up with :class:`StoreUnavailable` (reason ``busy``).
    """

    _shared: ClassVar[dict[str, Store]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, url: str | None = None, *, busy_timeout: float = 30.0) -> None:
        if isinstance(busy_timeout, bool) or not isinstance(busy_timeout, int | float):
            raise StoreError(f"busy_timeout: expected seconds, not {_shown(busy_timeout)}")
        if not (math.isfinite(busy_timeout) and busy_timeout >= 0):
            raise StoreError(f"busy_timeout: {busy_timeout} is not a number of seconds")
        with _plain_faults("the default database folder", None):
            self.url = resolve_url(url)
        try:
            dialect = sa.make_url(self.url).get_backend_name()
        except sa.exc.ArgumentError as err:
            raise StoreError(f"database URL: {err}") from None
        self._file = _sqlite_file(self.url)
        self._busy_timeout = busy_timeout
        with self._faults():
            self.engine = (
                _sqlite_engine(self.url, busy_timeout)
                if dialect == "sqlite"
                else sa.create_engine(self.url, pool_pre_ping=True)
            )
        try:
            self._open()
        except StoreError:
            # Let go of the file now: a refused database is left as it was found.
            self.engine.dispose()
            raise

    @classmethod
    def default(cls, url: str | None = None) -> Store:
        """One shared store per database URL (resolved as :func:`resolve_url` does)."""
        key = resolve_url(url)
        with cls._shared_lock:
            store = cls._shared.get(key)
            if store is None:
                store = cls._shared[key] = cls(key)
            return store

    def close(self) -> None:
        """Release the connections."""
        self.engine.dispose()

    # ----------------------------------------------------------------- transactions
    def _faults(self) -> AbstractContextManager[None]:
        return _plain_faults(self._where(), self._file)

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._faults(), self.engine.connect() as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with (
            self._faults(),
            self.engine.connect().execution_options(spades_write=True) as conn,
            conn.begin(),
        ):
            yield conn

    # ------------------------------------------------------------------ schema
    def _open(self) -> None:
        # SQLite takes a zero-length file for a new database and would write one into it:
        # a file cut short would silently become an empty store. Look before connecting,
        # since connecting creates the file when it is missing.
        if self._file is not None and _empty_file(self._file, self._busy_timeout):
            _log.error("%s is an empty file; it is left as it is", self._where())
            raise StoreUnavailable("empty")
        with self._write() as conn:
            tables = set(sa.inspect(conn).get_table_names()) & _OUR_TABLES
            if not tables:
                metadata.create_all(conn)
                conn.execute(schema_version.insert().values(version=SCHEMA_VERSION))
                return
            if "schema_version" not in tables:
                _log.error("%s has spades tables but no schema_version table", self._where())
                raise StoreError(
                    "the game database has tables named like spades' but no schema version; "
                    "it was not written by this program and is left untouched"
                )
            found = conn.execute(sa.select(schema_version.c.version)).scalars().all()
            version = found[0] if len(found) == 1 and isinstance(found[0], int) else None
            if version == SCHEMA_VERSION:
                return
            if version is not None and version > SCHEMA_VERSION:
                _log.error(
                    "%s uses schema version %s, newer than this program's %s",
                    self._where(),
                    version,
                    SCHEMA_VERSION,
                )
                raise StoreUnavailable("newer")
            if version == 1:
                self._upgrade_v1(conn)
            elif version == 2:
                self._upgrade_v2(conn)
            else:
                _log.error("%s: schema_version holds %r", self._where(), found)
                raise StoreUnavailable("damaged")
            conn.execute(schema_version.update().values(version=SCHEMA_VERSION))

    def _where(self) -> str:
        """The database for the server log (never for a message a player sees)."""
        return f"the database {sa.make_url(self.url).render_as_string(hide_password=True)}"

    def _upgrade_v1(self, conn: Connection) -> None:
        for statement in _V1_SET_ASIDE:
            conn.exec_driver_sql(statement)
        metadata.create_all(conn)
        for statement in _V1_COPY:
            conn.exec_driver_sql(statement)
        for row in conn.execute(sa.select(games)).all():
            match = self._replay(conn, row)
            levels = [row._mapping[f"level_{k}"] for k in SEAT_KEYS]
            conn.execute(
                games.update()
                .where(games.c.num == row.num)
                .values(
                    rule_set=rule_set_label(match.rules),
                    bot_levels=bot_levels_label(levels),
                    hands_count=len(match.finished),
                )
            )
            if row.status != "playing":
                self._insert_hands(conn, row.num, match)

    @staticmethod
    def _upgrade_v2(conn: Connection) -> None:
        players.create(conn)
        conn.exec_driver_sql(_V2_ADD_OWNER)
        _GAMES_OWNER_INDEX.create(conn)

    # -------------------------------------------------------------------- writes
    def new_game(
        self,
        *,
        rules: Rules,
        seed: int,
        players: tuple[str, str, str, str],
        kind: Kind,
        bot_levels: Mapping[int, str],
        undo_allowed: bool = True,
        owner: str | None = None,
    ) -> str:
        """Record a new game with no actions yet; returns its id (32 hex digits).

        ``owner`` is the player (:meth:`new_player`) whose game it is, if anyone's.
        """
        game = _NewGame(
            game_id=uuid.uuid4().hex,
            match=Match(rules, seed=seed),
            players=_check_players(players),
            kind=_check_kind(kind),
            levels=_check_levels(bot_levels),
            undo_allowed=undo_allowed,
            undo_used=False,
            started_at=_now(),
            finished_at=None,
            owner=owner,
        )
        with self._write() as conn:
            if owner is not None:
                self._player_row(conn, owner)
            self._insert_games(conn, [game])
        return game.game_id

    def append_action(
        self, game_id: str, action: int, *, ply: int, undo_used: bool = False
    ) -> None:
        """Store ``action`` as action number ``ply`` of a game in play (one transaction).

        ``ply`` is how many actions the caller's copy of the game had before this one.
        When the store holds another number, the game has moved on elsewhere:
        :class:`StaleWrite` is raised and nothing is stored.
        """
        if isinstance(action, bool) or not isinstance(action, int):
            raise StoreError(f"action: expected an int, not {_shown(action)}")
        if not 0 <= action < NUM_ACTIONS:
            raise StoreError(f"action: {action} is not an action")
        with self._guarded(game_id, ply, "no more actions can be stored") as (conn, row):
            values: dict[str, Any] = {"actions_count": ply + 1, "updated_at": _now()}
            if undo_used:
                values["undo_used"] = True
            conn.execute(actions.insert().values(game=row.num, ply=ply, action=action))
            conn.execute(games.update().where(games.c.num == row.num).values(**values))

    @contextmanager
    def _guarded(
        self, game_id: str, ply: int, refused: str
    ) -> Iterator[tuple[Connection, sa.Row[Any]]]:
        """A write to a game in play that the caller saw at ``ply`` actions: the game row,
        locked, or :class:`StaleWrite` when the store holds another count, or a
        :class:`StoreError` ending in ``refused`` when the game is over."""
        _check_ply(ply)
        with self._write() as conn:
            row = self._game_row(conn, game_id, lock=True)
            if ply != row.actions_count:
                raise StaleWrite(game_id, expected=ply, stored=row.actions_count)
            if row.status != "playing":
                raise StoreError(f"game {game_id} is over; {refused}")
            yield conn, row

    def truncate(self, game_id: str, length: int, *, ply: int) -> None:
        """Undo: keep the first ``length`` actions of a game in play, mark undo as used.

        ``ply`` is how many actions the caller's copy had before the undo; as in
        :meth:`append_action`, another stored number raises :class:`StaleWrite`.
        """
        with self._guarded(game_id, ply, "it cannot be taken back") as (conn, row):
            if not row.undo_allowed:
                raise StoreError(f"undo is switched off for game {game_id}")
            if not 0 <= length <= row.actions_count:
                raise StoreError(
                    f"truncate: game {game_id} has {row.actions_count} actions, "
                    f"cannot keep {length}"
                )
            conn.execute(actions.delete().where(actions.c.game == row.num, actions.c.ply >= length))
            conn.execute(
                games.update()
                .where(games.c.num == row.num)
                .values(actions_count=length, undo_used=True, updated_at=_now())
            )

    def abandon(self, game_id: str, *, ply: int) -> None:
        """Mark a game in play as given up by its player (it stays, with its actions).

        ``ply`` is how many actions the caller's copy has; as in :meth:`append_action`,
        another stored number raises :class:`StaleWrite` and nothing changes.
        """
        with self._guarded(game_id, ply, "it cannot be abandoned") as (conn, row):
            now = _now()
            conn.execute(
                games.update()
                .where(games.c.num == row.num)
                .values(status="abandoned", finished_at=now, updated_at=now)
            )

    def unfinished_game(self, owner: str) -> str | None:
        """The id of the player's newest game still in play, if they have one."""
        with self._read() as conn:
            found = conn.execute(
                sa.select(games.c.id)
                .where(games.c.owner == owner, games.c.status == "playing")
                .order_by(games.c.updated_at.desc(), games.c.num.desc())
                .limit(1)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def finish(self, game_id: str, match: Match) -> None:
        """Mark a game over with its winner, scores and hands; ``match`` must be its replay."""
        if not match.is_over:
            raise StoreError(f"finish: the match of game {game_id} is not over")
        with self._write() as conn:
            row = self._game_row(conn, game_id, lock=True)
            if row.status != "playing":
                raise StoreError(f"game {game_id} is already finished")
            stored = self._actions(conn, row.num)
            if stored != list(match.history) or row.seed != match.seed:
                raise StoreError(
                    f"finish: the match given is not the one stored as game {game_id} "
                    f"({len(stored)} stored actions, {len(match.history)} in the match)"
                )
            conn.execute(
                games.update()
                .where(games.c.num == row.num)
                .values(**self._result_values(match, _now()))
            )
            self._insert_hands(conn, row.num, match)

    def save_match(
        self,
        match: Match,
        *,
        players: tuple[str, str, str, str],
        kind: Kind,
        bot_levels: Mapping[int, str],
        undo_used: bool = False,
        started_at: datetime | None = None,
    ) -> str:
        """Store a whole match (finished, or stopped short) in one transaction."""
        return self.save_matches(
            [(match, players, bot_levels)], kind=kind, undo_used=undo_used, started_at=started_at
        )[0]

    def save_matches(
        self,
        items: Iterable[tuple[Match, tuple[str, str, str, str], Mapping[int, str]]],
        *,
        kind: Kind,
        undo_used: bool = False,
        started_at: datetime | None = None,
    ) -> list[str]:
        """Store many (match, players, bot levels) in one transaction; returns their ids."""
        when = started_at or _now()
        batch = [
            _NewGame(
                game_id=uuid.uuid4().hex,
                match=match,
                players=_check_players(players),
                kind=_check_kind(kind),
                levels=_check_levels(levels),
                undo_allowed=True,
                undo_used=undo_used,
                started_at=when,
                finished_at=when,
            )
            for match, players, levels in items
        ]
        with self._write() as conn:
            self._insert_games(conn, batch)
        return [game.game_id for game in batch]

    # -------------------------------------------------------------------- players
    def new_player(self, name: str = "You") -> tuple[str, str]:
        """A new player: returns ``(player_id, token)``.

        The token is the player's secret (a browser keeps it to be this player again);
        only its hash is stored, so it cannot be looked up later: hand it over now.
        """
        checked = _check_name(name)
        player_id = uuid.uuid4().hex
        token = secrets.token_urlsafe(32)
        now = _now()
        with self._write() as conn:
            conn.execute(
                players.insert().values(
                    id=player_id,
                    token_hash=_token_hash(token),
                    name=checked,
                    prefs="{}",
                    created_at=now,
                    seen_at=now,
                )
            )
        return player_id, token

    def player_for_token(self, token: str) -> str | None:
        """The player whose token this is; None for an unknown, malformed or over-long one."""
        if not isinstance(token, str) or not 0 < len(token) <= _TOKEN_MAX:
            return None
        if not set(token) <= _TOKEN_CHARS:
            return None
        with self._read() as conn:
            row = conn.execute(
                sa.select(players.c.id, players.c.seen_at).where(
                    players.c.token_hash == _token_hash(token)
                )
            ).one_or_none()
        if row is None:
            return None
        now = _now()
        if row.seen_at < now - _SEEN_EVERY:
            # seen_at is bookkeeping: a busy or read-only database must not turn a known
            # player away. The fault is in the server log already.
            with suppress(StoreUnavailable), self._write() as conn:
                conn.execute(players.update().where(players.c.id == row.id).values(seen_at=now))
        return str(row.id)

    def player_name(self, player_id: str) -> str:
        """A player's display name."""
        with self._read() as conn:
            return str(self._player_row(conn, player_id).name)

    def rename_player(self, player_id: str, name: str) -> None:
        """Change a player's display name (trimmed, at most :data:`NAME_MAX` characters)."""
        checked = _check_name(name)
        with self._write() as conn:
            self._player_row(conn, player_id)
            conn.execute(players.update().where(players.c.id == player_id).values(name=checked))

    def player_prefs(self, player_id: str) -> dict[str, Any]:
        """A player's saved preferences (empty when none are, or they do not read back)."""
        with self._read() as conn:
            text = self._player_row(conn, player_id).prefs
        try:
            prefs = json.loads(text)
        except ValueError:
            _log.warning("%s: the preferences of player %s do not read", self._where(), player_id)
            return {}
        return prefs if isinstance(prefs, dict) else {}

    def save_player_prefs(self, player_id: str, prefs: Mapping[str, Any]) -> None:
        """Keep a player's preferences (JSON, at most :data:`PREFS_MAX_BYTES` bytes)."""
        try:
            text = json.dumps(dict(prefs), ensure_ascii=False, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as err:
            raise StoreError(f"preferences: they cannot be saved as JSON ({err})") from None
        size = len(text.encode("utf-8"))
        if size > PREFS_MAX_BYTES:
            raise StoreError(
                f"preferences: they take {size} bytes, more than the {PREFS_MAX_BYTES} kept"
            )
        with self._write() as conn:
            self._player_row(conn, player_id)
            conn.execute(players.update().where(players.c.id == player_id).values(prefs=text))

    # ----------------------------------------------------------- import / export
    def export_json(self, game_id: str) -> str:
        """The game as a JSON record (``spades.record``), with its store facts in ``meta``.

        Only a game that is over: the record holds every hand and the seed, so a game in
        play would give away the cards still hidden and every deal still to come.
        """
        with self._read() as conn:
            row = self._game_row(conn, game_id)
            if row.status == "playing":
                raise StoreError(
                    f"game {game_id} is still being played; it can be exported once it is over"
                )
            match = self._replay(conn, row)
        meta = {
            "game_id": game_id,
            "kind": row.kind,
            "started_at": row.started_at.isoformat(),
            "levels": ",".join(row._mapping[f"level_{k}"] for k in SEAT_KEYS),
            "undo_allowed": str(row.undo_allowed).lower(),
            "undo_used": str(row.undo_used).lower(),
        }
        return dumps(GameRecord.of(match, players=self._players(row), meta=meta))

    def import_json(self, text: str | bytes) -> str:
        """Validate a JSON record through the engine and store it; returns the game id."""
        return self.import_many([text])[0]

    def import_many(self, texts: Iterable[str | bytes]) -> list[str]:
        """Import several records, all or nothing: one bad record stores none of them."""
        batch: list[_NewGame] = []
        for index, text in enumerate(texts):
            try:
                loaded = loads(text)
            except RecordError as err:
                raise StoreError(f"import refused, record {index + 1}: {err}") from None
            batch.append(self._imported(loaded, index))
        ids = [game.game_id for game in batch]
        if len(set(ids)) != len(ids):
            raise StoreError("import refused: the same game appears twice")
        with self._write() as conn:
            taken = conn.execute(sa.select(games.c.id).where(games.c.id.in_(ids))).scalars().all()
            if taken:
                raise StoreError(f"import refused: game {taken[0]} is already stored")
            self._insert_games(conn, batch)
        return ids

    def _imported(self, loaded: LoadedGame, index: int) -> _NewGame:
        meta = loaded.record.meta
        where = f"import refused, record {index + 1}"
        game_id = meta.get("game_id") or uuid.uuid4().hex
        if len(game_id) != 32 or any(ch not in "0123456789abcdef" for ch in game_id):
            raise StoreError(f"{where}: meta.game_id {game_id!r} is not 32 hex digits")
        kind = meta.get("kind", "human")
        if kind not in KINDS:
            raise StoreError(f"{where}: meta.kind {kind!r} is not 'human' or 'simulated'")
        levels_text = meta.get("levels")
        if levels_text is None:
            levels = {seat: "unknown" for seat in (0, 1, 3)}
        else:
            parts = levels_text.split(",")
            if len(parts) != 4:
                raise StoreError(f"{where}: meta.levels needs four comma-separated levels")
            levels = {seat: level for seat, level in enumerate(parts) if level != HUMAN}
        try:
            started = datetime.fromisoformat(meta["started_at"]) if "started_at" in meta else None
            checked_levels = _check_levels(levels)
        except (ValueError, StoreError) as err:
            raise StoreError(f"{where}: {err}") from None
        when = started.replace(tzinfo=None) if started else _now()
        return _NewGame(
            game_id=game_id,
            match=loaded.match,
            players=loaded.record.players,
            kind=kind,
            levels=checked_levels,
            undo_allowed=meta.get("undo_allowed", "true") == "true",
            undo_used=meta.get("undo_used", "false") == "true",
            started_at=when,
            finished_at=when if loaded.match.is_over else None,
        )

    # -------------------------------------------------------------------- reads
    def load(self, game_id: str) -> LoadedGame:
        """The game replayed through the engine; :class:`StoreError` if unknown or corrupt."""
        with self._read() as conn:
            row = self._game_row(conn, game_id)
            match = self._replay(conn, row)
        if row.status != "playing" and (match.scores != (row.score_ns, row.score_ew)):
            raise StoreError(
                f"game {game_id} is corrupt: its actions replay to {match.scores}, "
                f"but the stored score is {(row.score_ns, row.score_ew)}"
            )
        meta = {"game_id": game_id, "kind": row.kind}
        return LoadedGame(GameRecord.of(match, players=self._players(row), meta=meta), match)

    def game_info(self, game_id: str) -> dict[str, Any]:
        """The ``games`` row of a game as a dict."""
        with self._read() as conn:
            return dict(self._game_row(conn, game_id)._mapping)

    def list_games(
        self, game_filter: GameFilter | None = None, *, limit: int | None = None
    ) -> pd.DataFrame:
        """Games, newest first, as a DataFrame of the ``games`` columns (rules left out)."""
        where = (game_filter or GameFilter(finished_only=False)).clause()
        columns = [c for c in games.c if c.name not in ("rules", "num")]
        stmt = (
            sa.select(*columns).where(where).order_by(games.c.started_at.desc(), games.c.num.desc())
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        return self.frame(stmt)

    def frame(self, stmt: sa.Select[Any] | sa.CompoundSelect[Any]) -> pd.DataFrame:
        """Run a query and return the rows as a DataFrame."""
        with self._read() as conn:
            result = conn.execute(stmt)
            keys = list(result.keys())
            rows = result.all()
        if not rows:
            return pd.DataFrame(columns=keys)
        # Column by column: pandas builds a frame from a list of rows far more slowly.
        return pd.DataFrame(dict(zip(keys, zip(*rows, strict=True), strict=True)))

    def revision(self) -> tuple[int, int, str]:
        """Changes whenever a game is added, moves on, is taken back or ends (a cache key)."""
        with self._read() as conn:
            count, total, latest = conn.execute(
                sa.select(
                    sa.func.count(),
                    sa.func.coalesce(sa.func.sum(games.c.actions_count), 0),
                    sa.func.max(games.c.updated_at),
                )
            ).one()
        return int(count), int(total), str(latest)

    def choices(self) -> dict[str, list[str]]:
        """The distinct rule sets and bot levels stored (for filter widgets)."""
        with self._read() as conn:
            rule_sets = (
                conn.execute(sa.select(games.c.rule_set).distinct().order_by(games.c.rule_set))
                .scalars()
                .all()
            )
            levels = (
                conn.execute(sa.union(*(sa.select(games.c[f"level_{k}"]) for k in SEAT_KEYS)))
                .scalars()
                .all()
            )
        return {
            "rule_sets": list(rule_sets),
            "bot_levels": sorted(level for level in levels if level != HUMAN),
        }

    # ---------------------------------------------------------------- internals
    def _game_row(self, conn: Connection, game_id: str, *, lock: bool = False) -> sa.Row[Any]:
        """A game's row; ``lock`` holds it until the transaction ends (SQLite, which
        ignores FOR UPDATE, already holds the whole database from BEGIN IMMEDIATE)."""
        if not isinstance(game_id, str) or len(game_id) > 64:
            raise StoreError(f"no game with id {_shown(game_id)}")
        stmt = sa.select(games).where(games.c.id == game_id)
        row = conn.execute(stmt.with_for_update() if lock else stmt).one_or_none()
        if row is None:
            raise StoreError(f"no game with id {game_id!r}")
        return row

    def _player_row(self, conn: Connection, player_id: str) -> sa.Row[Any]:
        row = None
        if _is_player_id(player_id):
            row = conn.execute(sa.select(players).where(players.c.id == player_id)).one_or_none()
        if row is None:
            raise StoreError(f"no player with id {_shown(player_id)}")
        return row

    def _actions(self, conn: Connection, num: int) -> list[int]:
        return list(
            conn.execute(
                sa.select(actions.c.action).where(actions.c.game == num).order_by(actions.c.ply)
            ).scalars()
        )

    def _replay(self, conn: Connection, row: sa.Row[Any]) -> Match:
        game_id = row.id
        try:
            rules = Rules.from_dict(json.loads(row.rules))
        except (ValueError, TypeError) as err:
            raise StoreError(f"game {game_id} is corrupt: its rules do not load ({err})") from None
        moves = self._actions(conn, row.num)
        match = Match(rules, seed=row.seed)
        for ply, action in enumerate(moves):
            try:
                match.apply(action)
            except (IllegalAction, ValueError) as err:
                raise StoreError(
                    f"game {game_id} is corrupt: action {ply} ({action}) does not replay: {err}"
                ) from None
        return match

    @staticmethod
    def _players(row: sa.Row[Any]) -> tuple[str, str, str, str]:
        return (row.player_n, row.player_e, row.player_s, row.player_w)

    @staticmethod
    def _result_values(match: Match, when: datetime | None) -> dict[str, Any]:
        status = "finished" if match.is_over else ("playing" if when is None else "abandoned")
        return {
            "status": status,
            "finished_at": when,
            "updated_at": when or _now(),
            "actions_count": len(match.history),
            "hands_count": len(match.finished),
            "score_ns": match.scores[0],
            "score_ew": match.scores[1],
            "bags_ns": match.bags[0],
            "bags_ew": match.bags[1],
            "winner": match.winner,
            "outcome": match.outcome.reason,
        }

    def _insert_games(self, conn: Connection, batch: Sequence[_NewGame]) -> None:
        if not batch:
            return
        game_rows = []
        for game in batch:
            match = game.match
            row: dict[str, Any] = {
                "id": game.game_id,
                "kind": game.kind,
                "started_at": game.started_at,
                "seed": match.seed,
                "rules": json.dumps(match.rules.to_dict()),
                "rule_set": rule_set_label(match.rules),
                "bot_levels": bot_levels_label(game.levels),
                "undo_allowed": game.undo_allowed,
                "undo_used": game.undo_used,
                "owner": game.owner,
                **self._result_values(match, game.finished_at),
            }
            row["updated_at"] = game.started_at
            for seat, key in enumerate(SEAT_KEYS):
                row[f"player_{key}"] = game.players[seat]
                row[f"level_{key}"] = game.levels[seat]
            game_rows.append(row)
        conn.execute(games.insert(), game_rows)
        new_ids = [game.game_id for game in batch]
        nums = {
            game_id: num
            for game_id, num in conn.execute(
                sa.select(games.c.id, games.c.num).where(games.c.id.in_(new_ids))
            )
        }
        action_rows: list[dict[str, Any]] = []
        hand_rows_all: list[dict[str, Any]] = []
        for game in batch:
            num = nums[game.game_id]
            action_rows.extend(
                {"game": num, "ply": ply, "action": action}
                for ply, action in enumerate(game.match.history)
            )
            if game.finished_at is not None:
                hand_rows_all.extend({"game": num, **h} for h in hand_rows(game.match))
        if action_rows:
            conn.execute(actions.insert(), action_rows)
        if hand_rows_all:
            conn.execute(hands.insert(), hand_rows_all)

    def _insert_hands(self, conn: Connection, num: int, match: Match) -> None:
        rows = [{"game": num, **h} for h in hand_rows(match)]
        conn.execute(hands.delete().where(hands.c.game == num))
        if rows:
            conn.execute(hands.insert(), rows)
