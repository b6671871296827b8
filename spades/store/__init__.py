"""The game store: every game, hand, action and player, in SQLite by default (SQLAlchemy 2).

The database is chosen by :func:`resolve_url`: an explicit URL, else ``SPADES_DB_URL``,
else a SQLite file in the per-user data directory (``SPADES_DATA_DIR`` or
``~/.local/share/spades``). The UI layer may pass a URL from Streamlit secrets.

Three tables hold the games (rules, variant, seats, bot levels, kind, owner, times, result,
undo), the scored hands (dealer, bids, tricks, points breakdown, bags: by team in the
partnership game, and in cutthroat by player, in a fourth) and every action, so any game
replays through the engine. Another holds the players: a display name, a handle and a
colour, table preferences, the signed-in account linked to them, if any, and the hash of
the secret token a browser presents to be that player again. A
``schema_version`` table names the layout; an older file is upgraded in place and a newer
or foreign one is refused. Every write is one transaction, and SQLite runs in WAL mode so
that pages reading and games writing do not block each other.

A write to a game in play names the history its copy of the game had, which the store
compares with the game's action count and digest (:mod:`~spades.store.digest`) under a
row lock. Two sessions on one game cannot both write: the second is refused with
:class:`StaleWrite`, no ply ever holds two actions, and a copy from before an undo is
refused even when the game has been played back to the same length. The same holds on
SQLite and on PostgreSQL, where several servers may share one database. A database that
cannot be used (damaged, read-only, busy, empty, or written by a newer version) raises
:class:`StoreUnavailable` with a message for people; the details go to the server log,
never into the message.

The modules, each with one job: :mod:`~spades.store.schema` (the tables),
:mod:`~spades.store.connect` (where the database is, and the SQLite engine),
:mod:`~spades.store.errors` (the errors, and faults turned into them),
:mod:`~spades.store.checks` (what callers hand in), :mod:`~spades.store.rows` (labels, hand
rows, :class:`GameFilter`), :mod:`~spades.store.queries` (the reads and writes operations
share), :mod:`~spades.store.digest` (a history in sixteen digits),
:mod:`~spades.store.migrate` (creating and upgrading a database),
:mod:`~spades.store.imports` (an imported record's store facts),
:mod:`~spades.store.store` (:class:`Store`, through which every read and write of a game
goes), :mod:`~spades.store.reports` (the figures the Explore pages and the Leaderboard
draw, read in SQL and handed out as plain rows), :mod:`~spades.store.tables` (shared
tables and their seats),
:mod:`~spades.store.ratings` (whom a rating belongs to, which games move the ratings by the
rating maths it is handed, and the writes),
:mod:`~spades.store.profiles` (players' handles, colours and accounts, and a player's data
exported or deleted whole) and :mod:`~spades.store.cookies` (the single-use codes through
which the server sets a browser's cookies).

>>> from spades.engine.rules import Rules
>>> store = Store("sqlite://")
>>> gid = store.new_game(rules=Rules(), seed=1, players=("N", "E", "You", "W"),
...                      kind="human", bot_levels={0: "random", 1: "random", 3: "random"})
>>> first = store.load(gid).match.legal_actions()[0]
>>> store.append_action(gid, first, after=[])
>>> len(store.load(gid).match.history)
1
>>> try:
...     store.append_action(gid, first, after=[])
... except StaleWrite as err:
...     (err.expected, err.stored)
(0, 1)
"""

from __future__ import annotations

from spades.store.connect import default_db_path, resolve_url
from spades.store.errors import StaleWrite, StoreError, StoreUnavailable, UnavailableReason
from spades.store.reports import BoardFilter
from spades.store.rows import (
    HAND_COLUMNS,
    PLAYER_HAND_COLUMNS,
    GameFilter,
    GameInfo,
    MyGames,
    Selection,
    bot_levels_label,
    hand_rows,
    player_hand_rows,
    rule_set_label,
    variant_of,
)
from spades.store.schema import (
    COLOURS,
    CUTTHROAT_3,
    CUTTHROAT_4,
    HANDLE_MAX,
    HANDLE_MIN,
    HUMAN,
    KINDS,
    NAME_MAX,
    NO_SEAT,
    PARTNERSHIP,
    PREFS_MAX_BYTES,
    SCHEMA_VERSION,
    SEAT_KEYS,
    TEAM_KEYS,
    VARIANTS,
    Kind,
)
from spades.store.store import Store

__all__ = [
    "COLOURS",
    "CUTTHROAT_3",
    "CUTTHROAT_4",
    "HANDLE_MAX",
    "HANDLE_MIN",
    "HAND_COLUMNS",
    "HUMAN",
    "KINDS",
    "NAME_MAX",
    "NO_SEAT",
    "PARTNERSHIP",
    "PLAYER_HAND_COLUMNS",
    "PREFS_MAX_BYTES",
    "SCHEMA_VERSION",
    "SEAT_KEYS",
    "TEAM_KEYS",
    "VARIANTS",
    "BoardFilter",
    "GameFilter",
    "GameInfo",
    "Kind",
    "MyGames",
    "Selection",
    "StaleWrite",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "UnavailableReason",
    "bot_levels_label",
    "default_db_path",
    "hand_rows",
    "player_hand_rows",
    "resolve_url",
    "rule_set_label",
    "variant_of",
]
