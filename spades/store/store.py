"""The :class:`Store`: every read and write of games and players, each in one transaction.

A write to a game in play names the ply it was made at. Two sessions on one game cannot
both write: the second is refused with :class:`~spades.store.errors.StaleWrite`, and no ply
ever holds two actions. A database fault met in any of them becomes a plain
:class:`~spades.store.errors.StoreError` (see :mod:`spades.store.errors`).
"""

from __future__ import annotations

import json
import logging
import math
import secrets
import threading
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from datetime import datetime, timedelta
from typing import Any, ClassVar, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spades.engine.cards import NUM_ACTIONS
from spades.engine.match import Match
from spades.engine.record import GameRecord, LoadedGame, RecordError, dumps, loads
from spades.engine.rules import Rules
from spades.store.checks import (
    TOKEN_CHARS,
    TOKEN_MAX,
    check_handle,
    check_kind,
    check_levels,
    check_name,
    check_players,
    default_colour,
    shown,
    token_hash,
)
from spades.store.connect import (
    POSTGRES_POOL,
    empty_file,
    resolve_url,
    sqlite_engine,
    sqlite_file,
)
from spades.store.errors import StoreError, StoreUnavailable, plain_faults
from spades.store.imports import imported_game
from spades.store.migrate import prepare
from spades.store.news import TableNews
from spades.store.queries import (
    NewGame,
    append,
    exported_record,
    free_handle,
    game_row,
    guarded_game_row,
    insert_games,
    insert_hands,
    player_row,
    replay,
    result_values,
    seat_names,
    stored_actions,
    stored_scores,
)
from spades.store.ratings import Rater, needed, rate_game, rebuild
from spades.store.reports import Reports
from spades.store.rows import INFO_COLUMNS, GameFilter, GameInfo, utc_now
from spades.store.schema import (
    HUMAN,
    NO_SEAT,
    PREFS_MAX_BYTES,
    SEAT_KEYS,
    Kind,
    games,
    players,
)

# How long a player's seen_at may lag: it is bookkeeping, not worth a write on every visit.
_SEEN_EVERY: Final = timedelta(hours=1)

_log = logging.getLogger("spades.store")


class Store:
    """The games of one database. Thread-safe; share one per URL (:meth:`default`).

    ``rater`` is the rating maths (:data:`spades.stats.ratings.RATER`) by which finishing a
    game that counts moves the ratings, in the same transaction; a store opened without it
    keeps the games but refuses to finish or save one that counts, to rebuild the ratings,
    and to upgrade a database from before they were kept (see :mod:`spades.store.ratings`).
    ``busy_timeout`` (seconds, SQLite only) is how long a write waits for another writer
    before the store gives up with :class:`StoreUnavailable` (reason ``busy``).
    """

    _shared: ClassVar[dict[str, Store]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(
        self, url: str | None = None, *, rater: Rater | None = None, busy_timeout: float = 30.0
    ) -> None:
        if isinstance(busy_timeout, bool) or not isinstance(busy_timeout, int | float):
            raise StoreError(f"busy_timeout: expected seconds, not {shown(busy_timeout)}")
        if not (math.isfinite(busy_timeout) and busy_timeout >= 0):
            raise StoreError(f"busy_timeout: {busy_timeout} is not a number of seconds")
        with plain_faults("the default database folder", None):
            self.url = resolve_url(url)
        try:
            dialect = sa.make_url(self.url).get_backend_name()
        except sa.exc.ArgumentError as err:
            raise StoreError(f"database URL: {err}") from None
        self._file = sqlite_file(self.url)
        self._busy_timeout = busy_timeout
        # SQLite lets one connection write at a time, and one waiting for the lock sleeps
        # between tries: the server's own writers queue here instead, without holding a
        # connection while they wait (another process's writer is still waited for).
        self._writers = threading.Lock() if dialect == "sqlite" else None
        self._rater = rater
        with self._faults():
            self.engine = (
                sqlite_engine(self.url, busy_timeout)
                if dialect == "sqlite"
                else sa.create_engine(self.url, pool_pre_ping=True, **POSTGRES_POOL)
            )
        #: The tables' news (:mod:`spades.store.news`) of this database, in this process.
        self.news = TableNews(self.url)
        #: The figures the Explore pages and the Leaderboard draw (:mod:`spades.store.reports`).
        self.reports = Reports(self._read)
        try:
            self._open()
        except StoreError:
            # Let go of the file now: a refused database is left as it was found.
            self.engine.dispose()
            raise

    @classmethod
    def default(cls, url: str | None = None, *, rater: Rater) -> Store:
        """One shared store per database URL (resolved as :func:`resolve_url` does): the
        app's, which always moves the ratings (``rater``, given by the call that opens it)."""
        key = resolve_url(url)
        with cls._shared_lock:
            store = cls._shared.get(key)
            if store is None:
                store = cls._shared[key] = cls(key, rater=rater)
            return store

    def close(self) -> None:
        """Release the connections."""
        self.news.close()
        self.engine.dispose()

    # ----------------------------------------------------------------- transactions
    def _faults(self) -> AbstractContextManager[None]:
        return plain_faults(self._where(), self._file)

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._faults(), self.engine.connect() as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with (
            self._faults(),
            self._turn_to_write(),
            self.engine.connect().execution_options(spades_write=True) as conn,
            conn.begin(),
        ):
            yield conn

    @contextmanager
    def _turn_to_write(self) -> Iterator[None]:
        """This server's turn to write, waited for as long as the database's own lock is."""
        if self._writers is None:
            yield
            return
        if not self._writers.acquire(timeout=self._busy_timeout):
            _log.warning("%s cannot be used (busy): its writers queued too long", self._where())
            raise StoreUnavailable("busy")
        try:
            yield
        finally:
            self._writers.release()

    # ------------------------------------------------------------------ schema
    def _open(self) -> None:
        # SQLite takes a zero-length file for a new database and would write one into it:
        # a file cut short would silently become an empty store. Look before connecting,
        # since connecting creates the file when it is missing.
        if self._file is not None and empty_file(self._file, self._busy_timeout):
            _log.error("%s is an empty file; it is left as it is", self._where())
            raise StoreUnavailable("empty")
        with self._write() as conn:
            prepare(conn, self._where(), self._rater)

    def _where(self) -> str:
        """The database for the server log (never for a message a player sees)."""
        return f"the database {sa.make_url(self.url).render_as_string(hide_password=True)}"

    # -------------------------------------------------------------------- writes
    def new_game(
        self,
        *,
        rules: Rules,
        seed: int,
        players: tuple[str, ...],
        kind: Kind,
        bot_levels: Mapping[int, str],
        undo_allowed: bool = True,
        owner: str | None = None,
    ) -> str:
        """Record a new game with no actions yet; returns its id (32 hex digits).

        ``players`` names each seat the rules have (three for three-handed cutthroat), and
        ``owner`` is the player (:meth:`new_player`) whose game it is, if anyone's.
        """
        game = NewGame(
            game_id=uuid.uuid4().hex,
            match=Match(rules, seed=seed),
            players=check_players(players, rules.players),
            kind=check_kind(kind),
            levels=check_levels(bot_levels, rules.players),
            undo_allowed=undo_allowed,
            undo_used=False,
            started_at=utc_now(),
            finished_at=None,
            owner=owner,
        )
        with self._write() as conn:
            if owner is not None:
                player_row(conn, owner)
            insert_games(conn, [game])
        return game.game_id

    def append_action(
        self, game_id: str, action: int, *, after: Sequence[int], undo_used: bool = False
    ) -> None:
        """Store ``action`` as the next action of a game in play (one transaction).

        ``after`` is the history of the caller's copy of the game. When the store holds
        another history (another length, or the same length after an undo and other
        moves), the game has moved on elsewhere: :class:`StaleWrite` is raised and
        nothing is stored.
        """
        if isinstance(action, bool) or not isinstance(action, int):
            raise StoreError(f"action: expected an int, not {shown(action)}")
        if not 0 <= action < NUM_ACTIONS:
            raise StoreError(f"action: {action} is not an action")
        with self._guarded(game_id, after, "no more actions can be stored") as (conn, row):
            append(conn, row, action, undo_used=undo_used)

    @contextmanager
    def _guarded(
        self, game_id: str, after: Sequence[int], refused: str
    ) -> Iterator[tuple[Connection, sa.Row[Any]]]:
        """A write to a game in play whose caller's copy has the history ``after``: the
        game row, locked (see :func:`~spades.store.queries.guarded_game_row`)."""
        with self._write() as conn:
            yield conn, guarded_game_row(conn, game_id, after, refused)

    def unfinished_game(self, owner: str) -> str | None:
        """The id of the player's newest game still in play, if they have one (a shared
        table's game is the table's, never offered)."""
        with self._read() as conn:
            found = conn.execute(
                sa.select(games.c.id)
                .where(
                    games.c.owner == owner,
                    games.c.status == "playing",
                    sa.not_(games.c.at_table),
                )
                .order_by(games.c.updated_at.desc(), games.c.num.desc())
                .limit(1)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def finish(self, game_id: str, match: Match) -> None:
        """Mark a game over with its winner, scores and hands; ``match`` must be its replay.
        A game that counts for the ratings moves them in the same transaction."""
        if not match.is_over:
            raise StoreError(f"finish: the match of game {game_id} is not over")
        with self._write() as conn:
            row = game_row(conn, game_id, lock=True)
            if row.status != "playing":
                raise StoreError(f"game {game_id} is already finished")
            stored = stored_actions(conn, row.num)
            if stored != list(match.history) or row.seed != match.seed:
                raise StoreError(
                    f"finish: the match given is not the one stored as game {game_id} "
                    f"({len(stored)} stored actions, {match.ply} in the match)"
                )
            conn.execute(
                games.update()
                .where(games.c.num == row.num)
                .values(**result_values(match, utc_now()))
            )
            insert_hands(conn, row.num, match)
            rate_game(conn, row.num, self._rater)

    def save_match(
        self,
        match: Match,
        *,
        players: tuple[str, ...],
        kind: Kind,
        bot_levels: Mapping[int, str],
        undo_used: bool = False,
        started_at: datetime | None = None,
        owner: str | None = None,
    ) -> str:
        """Store a whole match (finished, or stopped short) in one transaction."""
        return self.save_matches(
            [(match, players, bot_levels)],
            kind=kind,
            undo_used=undo_used,
            started_at=started_at,
            owner=owner,
        )[0]

    def save_matches(
        self,
        items: Iterable[tuple[Match, tuple[str, ...], Mapping[int, str]]],
        *,
        kind: Kind,
        undo_used: bool = False,
        started_at: datetime | None = None,
        owner: str | None = None,
    ) -> list[str]:
        """Store many (match, players, bot levels) in one transaction; returns their ids.
        ``owner`` is the player at South in each; finished human games move the ratings.
        Each names the players and bot levels of the seats its rules have."""
        when = started_at or utc_now()
        batch = [
            NewGame(
                game_id=uuid.uuid4().hex,
                match=match,
                players=check_players(players, match.rules.players),
                kind=check_kind(kind),
                levels=check_levels(levels, match.rules.players),
                undo_allowed=True,
                undo_used=undo_used,
                started_at=when,
                finished_at=when,
                owner=owner,
            )
            for match, players, levels in items
        ]
        with self._write() as conn:
            if owner is not None:
                player_row(conn, owner)
            for num in insert_games(conn, batch):
                if kind == HUMAN:
                    rate_game(conn, num, self._rater)
        return [game.game_id for game in batch]

    def rebuild_ratings(self) -> int:
        """Compute every rating again from the games that count; how many counted."""
        rater = needed(self._rater, "a rebuild")
        with self._write() as conn:
            return rebuild(conn, rater)

    # -------------------------------------------------------------------- players
    def new_player(self, name: str = "You", *, handle: str | None = None) -> tuple[str, str]:
        """A new player: returns ``(player_id, token)``; a ``handle`` another player has
        already is refused, and then no player is made.

        The token is the player's secret (a browser keeps it to be this player again);
        only its hash is stored, so it cannot be looked up later: hand it over now.
        """
        checked = check_name(name)
        chosen = None if handle is None else check_handle(handle)
        player_id = uuid.uuid4().hex
        token = secrets.token_urlsafe(32)
        now = utc_now()
        with self._write() as conn:
            if chosen is not None:
                free_handle(conn, chosen, player_id)
            conn.execute(
                players.insert().values(
                    id=player_id,
                    token_hash=token_hash(token),
                    name=checked,
                    prefs="{}",
                    created_at=now,
                    seen_at=now,
                    handle=chosen,
                    colour=default_colour(player_id),
                )
            )
        return player_id, token

    def player_for_token(self, token: str) -> str | None:
        """The player whose token this is; None for an unknown, malformed or over-long one."""
        if not isinstance(token, str) or not 0 < len(token) <= TOKEN_MAX:
            return None
        if not set(token) <= TOKEN_CHARS:
            return None
        with self._read() as conn:
            row = conn.execute(
                sa.select(players.c.id, players.c.seen_at).where(
                    players.c.token_hash == token_hash(token)
                )
            ).one_or_none()
        if row is None:
            return None
        now = utc_now()
        if row.seen_at < now - _SEEN_EVERY:
            # seen_at is bookkeeping: a busy or read-only database must not turn a known
            # player away. The fault is in the server log already.
            with suppress(StoreUnavailable), self._write() as conn:
                conn.execute(players.update().where(players.c.id == row.id).values(seen_at=now))
        return str(row.id)

    def player_name(self, player_id: str) -> str:
        """A player's display name."""
        with self._read() as conn:
            return str(player_row(conn, player_id).name)

    def rename_player(self, player_id: str, name: str) -> None:
        """Change a player's display name (trimmed, at most :data:`NAME_MAX` characters)."""
        checked = check_name(name)
        with self._write() as conn:
            player_row(conn, player_id)
            conn.execute(players.update().where(players.c.id == player_id).values(name=checked))

    def player_prefs(self, player_id: str) -> dict[str, Any]:
        """A player's saved preferences (empty when none are, or they do not read back)."""
        with self._read() as conn:
            text = player_row(conn, player_id).prefs
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
            player_row(conn, player_id)
            conn.execute(players.update().where(players.c.id == player_id).values(prefs=text))

    # ----------------------------------------------------------- import / export
    def export_json(self, game_id: str) -> str:
        """The game as a JSON record (``spades.engine.record``), with its store facts in ``meta``.

        Only a game that is over: the record holds every hand and the seed, so a game in
        play would give away the cards still hidden and every deal still to come.
        """
        with self._read() as conn:
            row = game_row(conn, game_id)
            if row.status == "playing":
                raise StoreError(
                    f"game {game_id} is still being played; it can be exported once it is over"
                )
            return dumps(exported_record(conn, row))

    def import_json(self, text: str | bytes) -> str:
        """Validate a JSON record through the engine and store it; returns the game id."""
        return self.import_many([text])[0]

    def import_many(self, texts: Iterable[str | bytes]) -> list[str]:
        """Import several records, all or nothing: one bad record stores none of them."""
        batch: list[NewGame] = []
        for index, text in enumerate(texts):
            try:
                loaded = loads(text)
            except RecordError as err:
                raise StoreError(f"import refused, record {index + 1}: {err}") from None
            batch.append(imported_game(loaded, index))
        ids = [game.game_id for game in batch]
        if len(set(ids)) != len(ids):
            raise StoreError("import refused: the same game appears twice")
        with self._write() as conn:
            taken = conn.execute(sa.select(games.c.id).where(games.c.id.in_(ids))).scalars().all()
            if taken:
                raise StoreError(f"import refused: game {taken[0]} is already stored")
            insert_games(conn, batch)
        return ids

    # -------------------------------------------------------------------- reads
    def load(self, game_id: str) -> LoadedGame:
        """The game replayed through the engine; :class:`StoreError` if unknown or corrupt."""
        with self._read() as conn:
            row = game_row(conn, game_id)
            match = replay(conn, row)
        if row.status != "playing" and match.scores != stored_scores(row):
            raise StoreError(
                f"game {game_id} is corrupt: its actions replay to {match.scores}, "
                f"but the stored score is {stored_scores(row)}"
            )
        meta = {"game_id": game_id, "kind": row.kind}
        return LoadedGame(GameRecord.of(match, players=seat_names(row), meta=meta), match)

    def actions_since(self, game_id: str, ply: int) -> tuple[str, list[int]]:
        """A game's history from its ply ``ply`` on, and the digest of its whole history
        (:mod:`spades.store.digest`), read together: a copy of the game's first ``ply``
        actions is moved on by these when it ends in that digest, and is stale (an undo
        took some of it back) when it does not."""
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise StoreError(f"actions since: expected a ply, not {shown(ply)}")
        with self._read() as conn:
            row = game_row(conn, game_id)
            return row.digest, stored_actions(conn, row.num, ply)

    def game_info(self, game_id: str) -> GameInfo:
        """A game's facts: its ``games`` row (:class:`~spades.store.rows.GameInfo`)."""
        with self._read() as conn:
            return GameInfo.of(game_row(conn, game_id))

    def list_games(
        self, game_filter: GameFilter | None = None, *, limit: int | None = None
    ) -> list[GameInfo]:
        """Games, newest first, each as its :class:`~spades.store.rows.GameInfo`."""
        where = (game_filter or GameFilter(finished_only=False)).clause()
        stmt = (
            sa.select(*INFO_COLUMNS)
            .where(where)
            .order_by(games.c.started_at.desc(), games.c.num.desc())
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        with self._read() as conn:
            return [GameInfo.of(row) for row in conn.execute(stmt)]

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
        """The distinct variants, rule sets and bot levels stored (for filter widgets)."""
        with self._read() as conn:
            variants = (
                conn.execute(sa.select(games.c.variant).distinct().order_by(games.c.variant))
                .scalars()
                .all()
            )
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
            "variants": list(variants),
            "rule_sets": list(rule_sets),
            "bot_levels": sorted(level for level in levels if level not in (HUMAN, NO_SEAT)),
        }
