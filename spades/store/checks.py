"""The checks on what callers hand the store, before any of it reaches the database.

A refused value raises :class:`~spades.store.errors.StoreError` with a message that shows
at most a short, cut-down copy of the value: a hostile caller's megabyte is not echoed.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final

from spades.engine.record import MAX_ACTIONS
from spades.store.errors import StoreError
from spades.store.schema import (
    ACCOUNT_MAX,
    COLOURS,
    HANDLE_MAX,
    HANDLE_MIN,
    HUMAN,
    KINDS,
    NAME_MAX,
    NO_SEAT,
    SEAT_KEYS,
)

# A token is URL-safe base64 (``secrets.token_urlsafe(32)`` gives 43 characters); anything
# longer or with other characters is refused before it is hashed.
TOKEN_MAX: Final = 128
TOKEN_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
_HEX: Final = frozenset("0123456789abcdef")
_HANDLE: Final = re.compile(rf"[A-Za-z0-9_]{{{HANDLE_MIN},{HANDLE_MAX}}}")
_COLOUR: Final = re.compile(r"#[0-9A-Fa-f]{6}")


def shown(value: object) -> str:
    """A value for a message, cut short: a hostile caller's megabyte is not echoed."""
    text = repr(value)
    return text if len(text) <= 70 else text[:69] + "…"


def check_players(players: Sequence[str], seats: int = 4) -> tuple[str, ...]:
    """The names of a game's ``seats`` seats (N, E, S, W; three-handed cutthroat has no
    W), each at most 200 characters."""
    if isinstance(players, str) or len(players) != seats:
        needed = (
            "four names are needed, for N, E, S and W" if seats == 4 else "three names are needed"
        )
        raise StoreError(f"players: {needed}")
    if not all(isinstance(p, str) for p in players):
        raise StoreError("players: every name must be text")
    if any(len(p) > 200 for p in players):
        raise StoreError("players: a name is longer than 200 characters")
    return tuple(players)


def check_levels(bot_levels: Mapping[int, str], seats: int = 4) -> tuple[str, str, str, str]:
    """The level of each of the four seats: its bot's, :data:`HUMAN` for a seat of the game
    with no bot, and :data:`NO_SEAT` for one the game has not (``seats`` is 3)."""
    for seat, level in bot_levels.items():
        if isinstance(seat, bool) or seat not in range(seats):
            raise StoreError(f"bot_levels: {seat!r} is not a seat 0..{seats - 1}")
        if not isinstance(level, str) or not level or level == HUMAN or len(level) > 40:
            raise StoreError(f"bot_levels: {level!r} is not a bot level")
    levels = [
        bot_levels.get(seat, HUMAN) if seat < seats else NO_SEAT for seat in range(len(SEAT_KEYS))
    ]
    return (levels[0], levels[1], levels[2], levels[3])


def check_kind(kind: str) -> str:
    """A game's kind, one of :data:`KINDS`."""
    if kind not in KINDS:
        raise StoreError(f"kind: expected 'human' or 'simulated', not {kind!r}")
    return kind


def check_history(after: Sequence[int]) -> list[int]:
    """The history a writer's copy of a game had, as a list of action numbers."""
    if isinstance(after, (str, bytes)) or not isinstance(after, Sequence):
        raise StoreError(f"after: expected the copy's actions, not {shown(after)}")
    if len(after) > MAX_ACTIONS or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in after
    ):
        raise StoreError(f"after: expected at most {MAX_ACTIONS} action numbers")
    return list(after)


def check_name(name: str) -> str:
    """A display name, trimmed (runs of spaces, tabs and line breaks become one space)."""
    if not isinstance(name, str):
        raise StoreError(f"name: expected text, not {shown(name)}")
    trimmed = " ".join(name.split())
    if not trimmed:
        raise StoreError("name: a name needs at least one letter")
    if len(trimmed) > NAME_MAX:
        raise StoreError(f"name: a name is at most {NAME_MAX} characters long")
    if not trimmed.isprintable():
        raise StoreError("name: a name cannot hold control characters")
    return trimmed


def tidy_name(name: str) -> str:
    """A name as typed, made fit to keep: invisible and control characters (a zero-width
    space, a line break) dropped, runs of spaces made one, cut to :data:`NAME_MAX`.

    >>> tidy_name(" A\\u200bda\\x07Lovelace\\n")
    'Ada Lovelace'
    """
    # A control character (a tab, a line break) parts words; an invisible one does not.
    shown = "".join(
        ch if ch.isprintable() else " " if unicodedata.category(ch) == "Cc" else "" for ch in name
    )
    return " ".join(shown.split())[:NAME_MAX].strip()


def token_hash(token: str) -> str:
    """What the store keeps of a player's token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def is_player_id(value: object) -> bool:
    """Whether ``value`` has the form of a player id (32 lowercase hex digits)."""
    return isinstance(value, str) and len(value) == 32 and set(value) <= _HEX


def check_handle(handle: str) -> str:
    """A handle, in lower case: 3 to 20 letters, digits and ``_``, spaces around it trimmed.

    >>> check_handle(" Ada_99 ")
    'ada_99'
    """
    if not isinstance(handle, str):
        raise StoreError(f"handle: expected text, not {shown(handle)}")
    trimmed = handle.strip()
    if not _HANDLE.fullmatch(trimmed):
        raise StoreError(
            f"handle: {shown(trimmed)} is not a handle; use {HANDLE_MIN} to {HANDLE_MAX} "
            "letters, digits and _ (no spaces or accents)"
        )
    return trimmed.lower()


def check_colour(colour: str) -> str:
    """A colour as ``#rrggbb``, in lower case."""
    if not isinstance(colour, str) or not _COLOUR.fullmatch(colour):
        raise StoreError(f"colour: expected a colour like #1f77b4, not {shown(colour)}")
    return colour.lower()


def check_account(account: str) -> str:
    """The id of a signed-in account: printable text of at most :data:`ACCOUNT_MAX`."""
    if not isinstance(account, str) or not account.strip():
        raise StoreError("account: expected the id of a signed-in account")
    if len(account) > ACCOUNT_MAX or not account.isprintable():
        raise StoreError(
            f"account: an account id is printable text of at most {ACCOUNT_MAX} characters"
        )
    return account


def default_colour(player_id: str) -> str:
    """The colour a new player starts with: one of :data:`COLOURS`, chosen by their id."""
    return COLOURS[int(hashlib.sha256(player_id.encode()).hexdigest(), 16) % len(COLOURS)]
