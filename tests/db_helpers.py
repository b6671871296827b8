"""Raw SQL for the store's tests, on SQLite or PostgreSQL alike, past the store's own API."""

from __future__ import annotations

from typing import Any

import pandas as pd
import sqlalchemy as sa

from spades.store import Store
from spades.store.schema import CUTTHROAT_COLUMNS, SEAT_KEYS

#: Statements that take a store back to version 10: no private tables of the Play page.
SOLO_V10 = ("ALTER TABLE tables DROP COLUMN solo",)
#: Statements that take a store back to version 9: as :data:`SOLO_V10`, and no cookie codes.
COOKIES_V9 = (*SOLO_V10, "DROP TABLE cookie_codes")
#: Statements that take a store back to version 8: as :data:`COOKIES_V9`, and no mark on a
#: shared table's games, and no table options (listed or private, hints, undo).
TABLES_V8 = (
    *COOKIES_V9,
    "ALTER TABLE games DROP COLUMN at_table",
    *(f"ALTER TABLE tables DROP COLUMN {name}" for name in ("public", "hints", "undo")),
)
#: Statements that take a store back to version 7: as :data:`TABLES_V8`, and no cutthroat
#: (no variant or players' columns in the games, no player_hands).
GAMES_V7 = (
    *TABLES_V8,
    "DROP TABLE player_hands",
    "ALTER TABLE games DROP COLUMN variant",
    *(f"ALTER TABLE games DROP COLUMN {n}_{k}" for n in CUTTHROAT_COLUMNS for k in SEAT_KEYS),
)
#: Statements that take a store back to version 6: as :data:`GAMES_V7`, and a players
#: table with no handle, colour or account.
PLAYERS_V6 = (
    *GAMES_V7,
    "DROP INDEX ux_players_handle",
    "DROP INDEX ux_players_account",
    "ALTER TABLE players DROP COLUMN handle",
    "ALTER TABLE players DROP COLUMN colour",
    "ALTER TABLE players DROP COLUMN account",
)


def run_sql(db_url: str, statement: str, **params: Any) -> list[tuple[Any, ...]]:
    """Run one statement (``:name`` parameters) in a transaction of its own; its rows, if
    it returns any."""
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as conn:
            result = conn.execute(sa.text(statement), params)
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        engine.dispose()


def select_frame(store: Store, stmt: sa.Select[Any]) -> pd.DataFrame:
    """The rows of a query on a store's database, past its API, as a frame."""
    with store.engine.connect() as conn:
        result = conn.execute(stmt)
        return pd.DataFrame(result.all(), columns=list(result.keys()))
