"""What an imported record becomes before it is stored: its store facts read from ``meta``
and checked, the game itself already replayed and validated by :mod:`spades.engine.record`.

An import may hold any game the engine plays, the partnership game or cutthroat for three
or four; ``meta.levels`` names a level for each seat the game has.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from spades.engine.cards import SOUTH
from spades.engine.record import LoadedGame
from spades.store.checks import check_levels, tidy_name
from spades.store.errors import StoreError
from spades.store.queries import NewGame
from spades.store.rows import utc_now
from spades.store.schema import HUMAN, KINDS


def imported_game(loaded: LoadedGame, index: int) -> NewGame:
    """The game to store for a loaded record, the ``index``-th of an import (from 0)."""
    meta = loaded.record.meta
    seats = loaded.match.rules.players
    where = f"import refused, record {index + 1}"
    game_id = meta.get("game_id") or uuid.uuid4().hex
    if len(game_id) != 32 or any(ch not in "0123456789abcdef" for ch in game_id):
        raise StoreError(f"{where}: meta.game_id {game_id!r} is not 32 hex digits")
    kind = meta.get("kind", "human")
    if kind not in KINDS:
        raise StoreError(f"{where}: meta.kind {kind!r} is not 'human' or 'simulated'")
    levels_text = meta.get("levels")
    if levels_text is None:
        levels = {seat: "unknown" for seat in range(seats) if seat != SOUTH}
    else:
        parts = levels_text.split(",")
        if len(parts) != seats:
            raise StoreError(
                f"{where}: meta.levels needs {seats} comma-separated levels, one a seat"
            )
        levels = {seat: level for seat, level in enumerate(parts) if level != HUMAN}
    try:
        started = datetime.fromisoformat(meta["started_at"]) if "started_at" in meta else None
        checked_levels = check_levels(levels, seats)
    except (ValueError, StoreError) as err:
        raise StoreError(f"{where}: {err}") from None
    when = started.replace(tzinfo=None) if started else utc_now()
    # Tidied as every name typed on the site is: no bidi override may turn a name round,
    # and no NUL or zero-width character is kept.
    players = tuple(
        tidy_name(name) or f"Player {seat + 1}" for seat, name in enumerate(loaded.record.players)
    )
    return NewGame(
        game_id=game_id,
        match=loaded.match,
        players=players,
        kind=kind,
        levels=checked_levels,
        undo_allowed=meta.get("undo_allowed", "true") == "true",
        undo_used=meta.get("undo_used", "false") == "true",
        started_at=when,
        finished_at=when if loaded.match.is_over else None,
        imported=True,
    )
