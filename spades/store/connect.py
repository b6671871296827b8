"""Where the database is, and the SQLite engine the store talks to it through.

The database is chosen by :func:`resolve_url`: an explicit URL, else ``SPADES_DB_URL``,
else a SQLite file in the per-user data directory (``SPADES_DATA_DIR`` or
``~/.local/share/spades``). The UI layer may pass a URL from Streamlit secrets. SQLite runs
in WAL mode so that pages reading and games writing do not block each other, and a write
takes the write lock up front so that it waits for another writer instead of failing.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing, suppress
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine


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


def sqlite_file(url: str) -> Path | None:
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


def empty_file(path: Path, busy_timeout: float) -> bool:
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


#: Connections a server keeps open, and how many more it may open at a busy moment: every
#: page of a shared table reads the table each second, and a page waiting for a connection
#: shows a move late. PostgreSQL allows 100 connections by default, so that two servers
#: sharing it stay under that; a SQLite connection costs only a file handle.
SQLITE_POOL: Final[dict[str, int]] = {"pool_size": 20, "max_overflow": 80}
POSTGRES_POOL: Final[dict[str, int]] = {"pool_size": 20, "max_overflow": 20}


def sqlite_engine(url: str, busy_timeout: float) -> Engine:
    """An engine for a SQLite URL: WAL, the busy timeout, foreign keys, and writes that
    begin with the write lock (a connection run with ``spades_write=True``)."""
    database = sa.make_url(url).database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    memory = not database or database == ":memory:"
    engine = sa.create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": busy_timeout},
        poolclass=sa.StaticPool if memory else None,
        **({} if memory else SQLITE_POOL),
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
