"""The game store: every game, hand and action, in SQLite by default (SQLAlchemy 2).

The database is chosen by :func:`resolve_url`: an explicit URL, else ``SPADES_DB_URL``,
else a SQLite file in the per-user data directory (``SPADES_DATA_DIR`` or
``~/.local/share/spades``). The UI layer may pass a URL from Streamlit secrets.

Three tables hold the games (rules, seats, bot levels, kind, times, result, undo), the
scored hands (dealer, bids, tricks, points breakdown, bags) and every action, so any game
replays through the engine. A ``schema_version`` table names the layout; an older file is
upgraded in place and a newer or foreign one is refused. Every write is one transaction,
and SQLite runs in WAL mode so that pages reading and games writing do not block each other.

>>> from spades.rules import Rules
>>> store = Store("sqlite://")
>>> gid = store.new_game(rules=Rules(), seed=1, players=("N", "E", "You", "W"),
...                      kind="human", bot_levels={0: "random", 1: "random", 3: "random"})
>>> store.append_action(gid, store.load(gid).match.legal_actions()[0])
>>> len(store.load(gid).match.history)
1
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
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

SCHEMA_VERSION: Final = 2
SEAT_KEYS: Final = ("n", "e", "s", "w")
TEAM_KEYS: Final = ("ns", "ew")
HUMAN: Final = "human"
Kind = Literal["human", "simulated"]
KINDS: Final = ("human", "simulated")


class StoreError(ValueError):
    """A store operation that cannot be done; the message says why."""


# ------------------------------------------------------------------------------ schema
metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata, sa.Column("version", sa.Integer, nullable=False)
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
    sa.Index("ix_games_kind_started", "kind", "started_at"),
)

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
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("action", sa.Integer, nullable=False),
    # Clustered on (game, ply): SQLite keeps the rows in that order, with no second index.
    sqlite_with_rowid=False,
)

_OUR_TABLES: Final = frozenset({"schema_version", "games", "hands", "actions"})

# Version 1 keyed games, and their actions, by the text id alone; it had no undo columns,
# no rule-set or bot-level labels and no hands table (analytics replayed the actions).
# The upgrade renames the old tables, creates the new ones, copies the rows across, and
# fills the hands by replaying every finished game through the engine.
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


def _sqlite_engine(url: str) -> Engine:
    database = sa.make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    memory = not database or database == ":memory:"
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        poolclass=sa.StaticPool if memory else None,
    )

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin event issue BEGIN itself, so writes can take the
        # write lock up front (BEGIN IMMEDIATE) and wait for it instead of failing.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("spades_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


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
    """Which games an analytics query covers; ``None`` means no restriction."""

    kinds: tuple[str, ...] | None = None
    start: date | None = None
    end: date | None = None
    rule_sets: tuple[str, ...] | None = None
    bot_levels: tuple[str, ...] | None = None
    finished_only: bool = True

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on the ``games`` table."""
        c = games.c
        parts: list[sa.ColumnElement[bool]] = []
        if self.finished_only:
            parts.append(c.status != "playing")
        if self.kinds is not None:
            parts.append(c.kind.in_(self.kinds))
        if self.start is not None:
            parts.append(c.started_at >= datetime.combine(self.start, datetime.min.time()))
        if self.end is not None:
            end = datetime.combine(self.end, datetime.min.time()) + timedelta(days=1)
            parts.append(c.started_at < end)
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


class Store:
    """The games of one database. Thread-safe; share one per URL (:meth:`default`)."""

    _shared: ClassVar[dict[str, Store]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, url: str | None = None) -> None:
        self.url = resolve_url(url)
        try:
            dialect = sa.make_url(self.url).get_backend_name()
        except sa.exc.ArgumentError as err:
            raise StoreError(f"database URL: {err}") from None
        self.engine = (
            _sqlite_engine(self.url)
            if dialect == "sqlite"
            else sa.create_engine(self.url, pool_pre_ping=True)
        )
        self._open()

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
    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with (
            self.engine.connect().execution_options(spades_write=True) as conn,
            conn.begin(),
        ):
            yield conn

    # ------------------------------------------------------------------ schema
    def _open(self) -> None:
        with self._write() as conn:
            tables = set(sa.inspect(conn).get_table_names()) & _OUR_TABLES
            if not tables:
                metadata.create_all(conn)
                conn.execute(schema_version.insert().values(version=SCHEMA_VERSION))
                return
            if "schema_version" not in tables:
                raise StoreError(
                    f"{self._where()} has spades tables but no schema_version table; "
                    "it was not written by this program and is left untouched"
                )
            found = conn.execute(sa.select(schema_version.c.version)).scalars().all()
            if len(found) != 1:
                raise StoreError(f"{self._where()}: the schema_version table is damaged")
            version = found[0]
            if version == SCHEMA_VERSION:
                return
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._where()} uses schema version {version}, newer than this "
                    f"program's {SCHEMA_VERSION}; upgrade spades to open it"
                )
            if version == 1:
                self._upgrade_v1(conn)
                return
            raise StoreError(f"{self._where()}: unknown schema version {version}")

    def _where(self) -> str:
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
        conn.execute(schema_version.update().values(version=SCHEMA_VERSION))

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
    ) -> str:
        """Record a new game with no actions yet; returns its id (32 hex digits)."""
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
        )
        with self._write() as conn:
            self._insert_games(conn, [game])
        return game.game_id

    def append_action(self, game_id: str, action: int, *, undo_used: bool = False) -> None:
        """Append one action to a game in play (one transaction)."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise StoreError(f"action: expected an int, not {action!r}")
        if not 0 <= action < NUM_ACTIONS:
            raise StoreError(f"action: {action} is not an action")
        with self._write() as conn:
            row = self._game_row(conn, game_id)
            if row.status != "playing":
                raise StoreError(f"game {game_id} is over; no more actions can be stored")
            values: dict[str, Any] = {"actions_count": row.actions_count + 1, "updated_at": _now()}
            if undo_used:
                values["undo_used"] = True
            conn.execute(
                actions.insert().values(game=row.num, ply=row.actions_count, action=action)
            )
            conn.execute(games.update().where(games.c.num == row.num).values(**values))

    def truncate(self, game_id: str, length: int) -> None:
        """Undo: keep the first ``length`` actions of a game in play, mark undo as used."""
        with self._write() as conn:
            row = self._game_row(conn, game_id)
            if row.status != "playing":
                raise StoreError(f"game {game_id} is over; it cannot be taken back")
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

    def finish(self, game_id: str, match: Match) -> None:
        """Mark a game over with its winner, scores and hands; ``match`` must be its replay."""
        if not match.is_over:
            raise StoreError(f"finish: the match of game {game_id} is not over")
        with self._write() as conn:
            row = self._game_row(conn, game_id)
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

    # ----------------------------------------------------------- import / export
    def export_json(self, game_id: str) -> str:
        """The game as a JSON record (``spades.record``), with its store facts in ``meta``."""
        with self.engine.connect() as conn:
            row = self._game_row(conn, game_id)
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
        with self.engine.connect() as conn:
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
        with self.engine.connect() as conn:
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
        with self.engine.connect() as conn:
            result = conn.execute(stmt)
            keys = list(result.keys())
            rows = result.all()
        if not rows:
            return pd.DataFrame(columns=keys)
        # Column by column: pandas builds a frame from a list of rows far more slowly.
        return pd.DataFrame(dict(zip(keys, zip(*rows, strict=True), strict=True)))

    def revision(self) -> tuple[int, int, str]:
        """Changes whenever a game is added, moves on, is taken back or ends (a cache key)."""
        with self.engine.connect() as conn:
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
        with self.engine.connect() as conn:
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
    def _game_row(self, conn: Connection, game_id: str) -> sa.Row[Any]:
        if not isinstance(game_id, str) or len(game_id) > 64:
            raise StoreError(f"no game with id {game_id!r}")
        row = conn.execute(sa.select(games).where(games.c.id == game_id)).one_or_none()
        if row is None:
            raise StoreError(f"no game with id {game_id!r}")
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
