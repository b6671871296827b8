"""The store's errors, and how a database fault becomes one with a message for people.

A database that cannot be used (damaged, read-only, busy, empty, or written by a newer
version) raises :class:`StoreUnavailable`; the driver's own text, which names files, SQL and
parameters, goes to the server log on the ``spades.store`` logger and never into a message.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final, Literal

import sqlalchemy as sa

_log = logging.getLogger("spades.store")


class StoreError(ValueError):
    """A store operation that cannot be done; the message says why."""


class StaleWrite(StoreError):
    """The game has moved on: its stored actions are not the ones the writer's copy had.

    ``expected`` is the number of actions the writer's copy had, ``stored`` the number the
    store holds (the same number when an undo and other moves made it as long again).
    Nothing was written; reload the game to see where it stands.
    """

    def __init__(self, game_id: str, *, expected: int, stored: int) -> None:
        where = (
            "its actions were taken back and played again"
            if expected == stored
            else f"it holds {stored} actions, where this copy has {expected}"
        )
        super().__init__(f"game {game_id} has moved on elsewhere: {where}")
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
_IO_WORDS: Final = ("sqlite_ioerr", "disk i/o")


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
    if any(word in text for word in _IO_WORDS) and _read_only_place(path):
        # SQLite reports a write to a read-only disk as an I/O error, not as damage.
        return "read_only"
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
def plain_faults(where: str, path: Path | None) -> Iterator[None]:
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
