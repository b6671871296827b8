"""News of the tables: which table's version moved on, for whoever waits on it.

A change to a table is announced once its transaction has committed, as the table's id
and new version, with the move that made it when the caller says it is public (a card
played or a bid, as words such as ``1:card:AS``; never a hidden card):

- to the listeners in this server process at once;
- on PostgreSQL, also through ``NOTIFY`` on :data:`CHANNEL` (sent by the database at
  commit), which a thread of each server that has listeners hears and passes on, so that
  a move made through one server reaches the pages of every server sharing the database.

A server does not tell its listeners its own news twice (it marks what it sends), but a
listener must not rely on hearing every version: the news only says "look again". A page that
hears nothing still finds the table by looking, as it always could.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

#: The PostgreSQL channel the tables' news goes out on.
CHANNEL: Final = "spades_tables"
#: How long the listening thread waits before it connects again after losing the database.
RETRY_SECONDS: Final = 2.0
#: Tables whose last public move is kept for the pages' news.
MOVES_KEPT: Final = 10_000

Listener = Callable[[str, int], None]

_log = logging.getLogger("spades.store")


class TableNews:
    """The tables' news of one database, for this server process. Thread-safe.

    ``url`` is the database's SQLAlchemy URL: on PostgreSQL the news of the other servers
    is heard through it, from the first listener on.
    """

    def __init__(self, url: str) -> None:
        self.url = sa.make_url(url)
        self._lock = threading.Lock()
        self._listeners: dict[int, Listener] = {}
        self._next = 0
        self._hearing: threading.Thread | None = None
        #: Each table's last public move, with the version it made (bounded).
        self._moves: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._stopped = threading.Event()
        # Marks this process's own news in the database's, which it has already told.
        self._own = uuid.uuid4().hex

    def listen(self, heard: Listener) -> Callable[[], None]:
        """Call ``heard(table_id, version)`` on every table's news from now on, from the
        thread that brings it (keep it short); returns the call that stops it."""
        with self._lock:
            key = self._next
            self._next += 1
            self._listeners[key] = heard
            if self._hearing is None and self.url.get_backend_name() == "postgresql":
                self._hearing = threading.Thread(
                    target=self._hear_database, name="spades-table-news", daemon=True
                )
                self._hearing.start()

        def stop() -> None:
            with self._lock:
                self._listeners.pop(key, None)

        return stop

    def announce(self, table_id: str, version: int, move: str = "") -> None:
        """Tell this server's listeners that ``table_id`` is at ``version`` now, made by
        the public ``move`` (if any: see :meth:`move`)."""
        with self._lock:
            if move:
                self._moves[table_id] = (version, move)
                self._moves.move_to_end(table_id)
                while len(self._moves) > MOVES_KEPT:
                    self._moves.popitem(last=False)
            listeners = list(self._listeners.values())
        for heard in listeners:
            try:
                heard(table_id, version)
            except Exception:
                _log.exception("a listener to the tables' news failed")

    def send(self, conn: Connection, table_id: str, version: int, move: str = "") -> None:
        """Inside the transaction that moves ``table_id`` to ``version`` (by the public
        ``move``, if any): on PostgreSQL, the news for the other servers, delivered when
        the transaction commits."""
        if conn.dialect.name == "postgresql":
            payload = f"{self._own} {table_id} {version} {move}".rstrip()
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    def move(self, table_id: str, version: int) -> str:
        """The public move that brought ``table_id`` to ``version``, as announced, or ""
        (none was public, or it was not heard here)."""
        with self._lock:
            found = self._moves.get(table_id)
        return found[1] if found is not None and found[0] == version else ""

    def close(self) -> None:
        """Stop hearing the database (its thread ends within a second)."""
        self._stopped.set()
        if self._hearing is not None:
            self._hearing.join(timeout=5)

    def _hear_database(self) -> None:
        import psycopg

        conninfo = self.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stopped.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stopped.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._heard(note.payload)
            except psycopg.Error:
                if self._stopped.is_set():
                    return
                _log.warning("the tables' news could not be heard; trying again", exc_info=True)
                self._stopped.wait(RETRY_SECONDS)

    def _heard(self, payload: str) -> None:
        sender, table_id, version, move = [*payload.split(" ", 3), "", "", "", ""][:4]
        if sender != self._own and version.isdigit():
            self.announce(table_id, int(version), move)
