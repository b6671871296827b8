"""Bring a database to the current layout: create it when empty, upgrade an older one in place.

A database that is newer than this program, or whose ``schema_version`` does not read, is
refused with :class:`~spades.store.errors.StoreUnavailable`; one with tables named like the
store's but no version is refused and left untouched, since this program did not write it.
"""

from __future__ import annotations

import logging
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spades.store.checks import default_colour
from spades.store.digest import history_digest
from spades.store.errors import StoreError, StoreUnavailable
from spades.store.queries import insert_hands, replay, stored_actions
from spades.store.ratings import Rater, needed, rebuild
from spades.store.rows import bot_levels_label, rule_set_label
from spades.store.schema import (
    COLOURS,
    CUTTHROAT_COLUMNS,
    GAMES_OWNER_INDEX,
    OUR_TABLES,
    PARTNERSHIP,
    PLAYERS_ACCOUNT_INDEX,
    PLAYERS_HANDLE_INDEX,
    SCHEMA_VERSION,
    SEAT_KEYS,
    cookie_codes,
    games,
    metadata,
    player_hands,
    players,
    rating_events,
    ratings,
    schema_version,
    seats,
    shared_tables,
)

_log = logging.getLogger("spades.store")

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
# Version 3 guarded writes by the number of actions alone: the upgrade adds each game's
# digest of its actions (spades.store.digest).
_V3_ADD_DIGEST: Final = "ALTER TABLE games ADD COLUMN digest VARCHAR(16) NOT NULL DEFAULT ''"
# Version 5 did not mark imported games. An import from before cannot be told apart now,
# but it never names a person (an import has no owner and no table), so it counts for no
# rating either way.
_V5_ADD_IMPORTED: Final = "ALTER TABLE games ADD COLUMN imported BOOLEAN NOT NULL DEFAULT FALSE"
# Version 6 kept no profile beyond a display name: players gain a handle (none until they
# choose one), a colour and the signed-in account they are linked to (none yet).
_V6_ADD_PROFILE: Final = (
    "ALTER TABLE players ADD COLUMN handle VARCHAR(20)",
    f"ALTER TABLE players ADD COLUMN colour VARCHAR(7) NOT NULL DEFAULT '{COLOURS[0]}'",
    "ALTER TABLE players ADD COLUMN account VARCHAR(320)",
)

# Version 7 kept partnership games only: the games gain their variant (all partnership) and
# cutthroat's columns a player, empty, and cutthroat's hands get a table of their own.
_V7_ADD_VARIANT: Final = (
    f"ALTER TABLE games ADD COLUMN variant VARCHAR(16) NOT NULL DEFAULT '{PARTNERSHIP}'",
    *(
        f"ALTER TABLE games ADD COLUMN {name}_{k} INTEGER"
        for name in CUTTHROAT_COLUMNS
        for k in SEAT_KEYS
    ),
)

# Version 8 did not mark a shared table's games, nor list a table by choice (every table
# was listed), nor keep a table's options. A table's current game is marked (its earlier
# ones are over); every table becomes private, joined by its link, which its people
# already have, with hints and undo off as before.
_V8_ADD_AT_TABLE: Final = "ALTER TABLE games ADD COLUMN at_table BOOLEAN NOT NULL DEFAULT FALSE"
_V8_ADD_TABLE_OPTIONS: Final = tuple(
    f"ALTER TABLE tables ADD COLUMN {name} BOOLEAN NOT NULL DEFAULT FALSE"
    for name in ("public", "hints", "undo")
)


# Version 10 kept the Play page's games apart from the tables: every table was shared.
# The Play page's games in play become private tables when next opened.
_V10_ADD_SOLO: Final = "ALTER TABLE tables ADD COLUMN solo BOOLEAN NOT NULL DEFAULT FALSE"


def prepare(conn: Connection, where: str, rater: Rater | None) -> None:
    """Create, check or upgrade the tables, within the caller's write transaction.

    ``where`` names the database in the server log; ``rater`` is the rating maths, which an
    upgrade from before the ratings were kept computes them by.
    """
    tables = set(sa.inspect(conn).get_table_names()) & OUR_TABLES
    if not tables:
        metadata.create_all(conn)
        conn.execute(schema_version.insert().values(version=SCHEMA_VERSION))
        return
    if "schema_version" not in tables:
        _log.error("%s has spades tables but no schema_version table", where)
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
            where,
            version,
            SCHEMA_VERSION,
        )
        raise StoreUnavailable("newer")
    if version == 1:
        _upgrade_v1(conn)
    elif version in (2, 3, 4, 5, 6, 7, 8, 9, 10):
        if version == 2:
            _upgrade_v2(conn)
        if version <= 3:
            _upgrade_v3(conn)
        if version <= 4:
            _upgrade_v4(conn)
        if version <= 5:
            _upgrade_v5(conn)
        if 3 <= version <= 6:
            # Version 2 had no players: its upgrade made the table in this layout already.
            _upgrade_v6(conn)
        if version <= 7:
            _upgrade_v7(conn)
        if version <= 8:
            # Version 4 had no shared tables: its upgrade made them in this layout already.
            _upgrade_v8(conn, tables_made=version <= 4)
        if version <= 9:
            _upgrade_v9(conn)
        if version >= 5:
            # Version 4 had no shared tables: its upgrade made them in this layout already.
            conn.exec_driver_sql(_V10_ADD_SOLO)
        if version <= 5:
            # Once the games have every column the ratings read.
            rebuild(conn, needed(rater, "the upgrade of this database"))
    else:
        _log.error("%s: schema_version holds %r", where, found)
        raise StoreUnavailable("damaged")
    conn.execute(schema_version.update().values(version=SCHEMA_VERSION))


def _upgrade_v1(conn: Connection) -> None:
    for statement in _V1_SET_ASIDE:
        conn.exec_driver_sql(statement)
    metadata.create_all(conn)
    for statement in _V1_COPY:
        conn.exec_driver_sql(statement)
    for row in conn.execute(sa.select(games)).all():
        match = replay(conn, row)
        levels = [row._mapping[f"level_{k}"] for k in SEAT_KEYS]
        conn.execute(
            games.update()
            .where(games.c.num == row.num)
            .values(
                rule_set=rule_set_label(match.rules),
                bot_levels=bot_levels_label(levels),
                hands_count=len(match.finished),
                digest=history_digest(match.history),
            )
        )
        if row.status != "playing":
            insert_hands(conn, row.num, match)


def _upgrade_v2(conn: Connection) -> None:
    players.create(conn)
    conn.exec_driver_sql(_V2_ADD_OWNER)
    GAMES_OWNER_INDEX.create(conn)


def _upgrade_v3(conn: Connection) -> None:
    conn.exec_driver_sql(_V3_ADD_DIGEST)
    for num in conn.execute(sa.select(games.c.num)).scalars().all():
        digest = history_digest(stored_actions(conn, num))
        conn.execute(games.update().where(games.c.num == num).values(digest=digest))


def _upgrade_v4(conn: Connection) -> None:
    """Version 4 had no shared tables: the upgrade adds them, empty."""
    shared_tables.create(conn)
    seats.create(conn)


def _upgrade_v5(conn: Connection) -> None:
    """Version 5 kept no ratings: the upgrade adds their tables, which the end of the
    upgrade fills from the finished games that count (spades.store.ratings)."""
    conn.exec_driver_sql(_V5_ADD_IMPORTED)
    ratings.create(conn)
    rating_events.create(conn)


def _upgrade_v6(conn: Connection) -> None:
    """Version 6 kept no profile: every player gets a colour of their own, and no handle."""
    for statement in _V6_ADD_PROFILE:
        conn.exec_driver_sql(statement)
    PLAYERS_HANDLE_INDEX.create(conn)
    PLAYERS_ACCOUNT_INDEX.create(conn)
    for player_id in conn.execute(sa.select(players.c.id)).scalars().all():
        conn.execute(
            players.update()
            .where(players.c.id == player_id)
            .values(colour=default_colour(player_id))
        )


def _upgrade_v7(conn: Connection) -> None:
    """Version 7 kept no cutthroat games: every game it holds is a partnership one."""
    for statement in _V7_ADD_VARIANT:
        conn.exec_driver_sql(statement)
    player_hands.create(conn)


def _upgrade_v8(conn: Connection, *, tables_made: bool) -> None:
    """Version 8 did not mark a shared table's game: the games its tables hold now are."""
    conn.exec_driver_sql(_V8_ADD_AT_TABLE)
    if not tables_made:
        for statement in _V8_ADD_TABLE_OPTIONS:
            conn.exec_driver_sql(statement)
    held = sa.select(shared_tables.c.game).where(shared_tables.c.game.is_not(None))
    conn.execute(games.update().where(games.c.id.in_(held)).values(at_table=True))


def _upgrade_v9(conn: Connection) -> None:
    """Version 9 set the browser's cookies from the page: the upgrade adds the table of the
    codes through which the server sets them now, empty."""
    cookie_codes.create(conn)
