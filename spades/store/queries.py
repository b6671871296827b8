"""The reads and writes that the store's operations share, each on a connection it is given.

They run inside a transaction the caller opened, so that a whole operation (a game and its
actions and hands, say) is stored or refused as one. A game is read back by replaying its
actions through the engine: a stored action the rules refuse means the game is corrupt.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spades.engine.match import Match
from spades.engine.record import GameRecord
from spades.engine.rules import Rules
from spades.engine.state import IllegalAction
from spades.store.checks import check_history, is_player_id, shown
from spades.store.digest import history_digest, next_digest
from spades.store.errors import StaleWrite, StoreError
from spades.store.rows import (
    bot_levels_label,
    hand_rows,
    player_hand_rows,
    rule_set_label,
    utc_now,
    variant_of,
)
from spades.store.schema import (
    CUTTHROAT_3,
    NO_SEAT,
    PARTNERSHIP,
    SEAT_KEYS,
    actions,
    games,
    hands,
    player_hands,
    players,
)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game about to be stored, with its match so far and the facts kept beside it:
    ``players`` names each seat the game has, and ``levels`` each of the four."""

    game_id: str
    match: Match
    players: tuple[str, ...]
    kind: str
    levels: tuple[str, str, str, str]
    undo_allowed: bool
    undo_used: bool
    started_at: datetime
    finished_at: datetime | None
    owner: str | None = None
    imported: bool = False
    #: A shared table's match (see :mod:`spades.store.tables`).
    at_table: bool = False


def game_row(conn: Connection, game_id: str, *, lock: bool = False) -> sa.Row[Any]:
    """A game's row; ``lock`` holds it until the transaction ends (SQLite, which
    ignores FOR UPDATE, already holds the whole database from BEGIN IMMEDIATE)."""
    if not isinstance(game_id, str) or len(game_id) > 64:
        raise StoreError(f"no game with id {shown(game_id)}")
    stmt = sa.select(games).where(games.c.id == game_id)
    row = conn.execute(stmt.with_for_update() if lock else stmt).one_or_none()
    if row is None:
        raise StoreError(f"no game with id {game_id!r}")
    return row


def guarded_game_row(
    conn: Connection, game_id: str, after: Sequence[int], refused: str
) -> sa.Row[Any]:
    """The row of a game in play, locked, for a writer whose copy has the history
    ``after``: :class:`StaleWrite` when the store holds another history, a
    :class:`StoreError` ending in ``refused`` when the game is over."""
    history = check_history(after)
    row = game_row(conn, game_id, lock=True)
    if len(history) != row.actions_count or history_digest(history) != row.digest:
        raise StaleWrite(game_id, expected=len(history), stored=row.actions_count)
    if row.status != "playing":
        raise StoreError(f"game {game_id} is over; {refused}")
    return row


def append(conn: Connection, row: sa.Row[Any], action: int, *, undo_used: bool = False) -> None:
    """Add ``action`` after the actions of the game in ``row`` (locked by the caller)."""
    values: dict[str, Any] = {
        "actions_count": row.actions_count + 1,
        "digest": next_digest(row.digest, action),
        "updated_at": utc_now(),
    }
    if undo_used:
        values["undo_used"] = True
    conn.execute(actions.insert().values(game=row.num, ply=row.actions_count, action=action))
    conn.execute(games.update().where(games.c.num == row.num).values(**values))


def truncate(conn: Connection, row: sa.Row[Any], length: int, after: Sequence[int]) -> None:
    """Undo: keep the first ``length`` actions of the game in ``row`` (locked by the
    caller, whose copy's history is ``after``), and mark undo as used."""
    if not row.undo_allowed:
        raise StoreError(f"undo is switched off for game {row.id}")
    if isinstance(length, bool) or not isinstance(length, int):
        raise StoreError(f"truncate: expected a number of actions, not {shown(length)}")
    if not 0 <= length <= row.actions_count:
        raise StoreError(
            f"truncate: game {row.id} has {row.actions_count} actions, cannot keep {length}"
        )
    conn.execute(actions.delete().where(actions.c.game == row.num, actions.c.ply >= length))
    conn.execute(
        games.update()
        .where(games.c.num == row.num)
        .values(
            actions_count=length,
            digest=history_digest(list(after)[:length]),
            undo_used=True,
            updated_at=utc_now(),
        )
    )


def player_row(conn: Connection, player_id: str) -> sa.Row[Any]:
    """A player's row; :class:`StoreError` for an unknown or malformed id."""
    row = None
    if is_player_id(player_id):
        row = conn.execute(sa.select(players).where(players.c.id == player_id)).one_or_none()
    if row is None:
        raise StoreError(f"no player with id {shown(player_id)}")
    return row


def stored_actions(conn: Connection, num: int, since: int = 0) -> list[int]:
    """The actions of the game numbered ``num`` from its ply ``since`` on, in the order
    they were played."""
    return list(
        conn.execute(
            sa.select(actions.c.action)
            .where(actions.c.game == num, actions.c.ply >= since)
            .order_by(actions.c.ply)
        ).scalars()
    )


def replay(conn: Connection, row: sa.Row[Any]) -> Match:
    """The match of a game's row, rebuilt from its rules, seed and stored actions."""
    game_id = row.id
    try:
        rules = Rules.from_dict(json.loads(row.rules))
    except (ValueError, TypeError) as err:
        raise StoreError(f"game {game_id} is corrupt: its rules do not load ({err})") from None
    moves = stored_actions(conn, row.num)
    match = Match(rules, seed=row.seed)
    for ply, action in enumerate(moves):
        try:
            match.apply(action)
        except (IllegalAction, ValueError) as err:
            raise StoreError(
                f"game {game_id} is corrupt: action {ply} ({action}) does not replay: {err}"
            ) from None
    return match


def seat_keys(row: sa.Row[Any]) -> tuple[str, ...]:
    """The keys of the seats a game's row has: N, E, S, W, or N, E, S in three-handed
    cutthroat."""
    return SEAT_KEYS[:3] if row.variant == CUTTHROAT_3 else SEAT_KEYS


def seat_names(row: sa.Row[Any]) -> tuple[str, str, str, str]:
    """The players' names of a game's row, one a seat it has (typed for four, as
    :class:`~spades.engine.record.GameRecord` is; three-handed cutthroat has three)."""
    names: Any = tuple(row._mapping[f"player_{k}"] for k in seat_keys(row))
    return names  # type: ignore[no-any-return]


def player_values(row: sa.Row[Any], name: str) -> tuple[Any, ...]:
    """A cutthroat game's row's column ``name`` (``score``, ``bags``, ``place``) of each
    player."""
    return tuple(row._mapping[f"{name}_{k}"] for k in seat_keys(row))


def stored_scores(row: sa.Row[Any]) -> tuple[int, ...]:
    """The scores a game's row holds: a team's, or in cutthroat a player's."""
    if row.variant == PARTNERSHIP:
        return (row.score_ns, row.score_ew)
    return player_values(row, "score")


def exported_record(conn: Connection, row: sa.Row[Any]) -> GameRecord:
    """The record of a game that is over (``row``), with its store facts in ``meta``."""
    meta = {
        "game_id": row.id,
        "kind": row.kind,
        "started_at": row.started_at.isoformat(),
        "levels": ",".join(row._mapping[f"level_{k}"] for k in seat_keys(row)),
        "undo_allowed": str(row.undo_allowed).lower(),
        "undo_used": str(row.undo_used).lower(),
    }
    return GameRecord.of(replay(conn, row), players=seat_names(row), meta=meta)


def free_handle(conn: Connection, handle: str, player_id: str) -> None:
    """Refuse a (checked) handle that a player other than ``player_id`` has already."""
    holder = conn.execute(
        sa.select(players.c.id).where(players.c.handle == handle)
    ).scalar_one_or_none()
    if holder is not None and holder != player_id:
        raise StoreError(f"handle: @{handle} is taken; choose another")


def result_values(match: Match, when: datetime | None) -> dict[str, Any]:
    """The ``games`` columns that say how far a match went; ``when`` it stopped, if it did."""
    status = "finished" if match.is_over else ("playing" if when is None else "abandoned")
    values: dict[str, Any] = {
        "status": status,
        "finished_at": when,
        "updated_at": when or utc_now(),
        "actions_count": match.ply,
        "hands_count": len(match.finished),
        "winner": match.winner,
        "outcome": match.outcome.reason,
    }
    if match.rules.partnerships:
        teams = {"score_ns": match.scores[0], "score_ew": match.scores[1]}
        return values | teams | {"bags_ns": match.bags[0], "bags_ew": match.bags[1]}
    values |= {"score_ns": 0, "score_ew": 0, "bags_ns": 0, "bags_ew": 0}
    placed = match.places() if match.is_over else (None,) * match.rules.players
    for seat, key in enumerate(SEAT_KEYS[: match.rules.players]):
        values[f"score_{key}"] = match.scores[seat]
        values[f"bags_{key}"] = match.bags[seat]
        values[f"place_{key}"] = placed[seat]
    return values


def insert_games(conn: Connection, batch: Sequence[NewGame]) -> list[int]:
    """Store new games with their actions, and the hands of those that have stopped;
    returns their numbers, in the batch's order."""
    if not batch:
        return []
    game_rows = []
    for game in batch:
        match = game.match
        row: dict[str, Any] = {
            "id": game.game_id,
            "kind": game.kind,
            "variant": variant_of(match.rules),
            "started_at": game.started_at,
            "seed": match.seed,
            "rules": json.dumps(match.rules.to_dict()),
            "rule_set": rule_set_label(match.rules),
            "bot_levels": bot_levels_label(game.levels),
            "undo_allowed": game.undo_allowed,
            "undo_used": game.undo_used,
            "owner": game.owner,
            "imported": game.imported,
            "at_table": game.at_table,
            "digest": history_digest(match.history),
            **result_values(match, game.finished_at),
        }
        row["updated_at"] = game.started_at
        for seat, key in enumerate(SEAT_KEYS):
            row[f"player_{key}"] = game.players[seat] if seat < len(game.players) else NO_SEAT
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
    by_table: dict[sa.Table, list[dict[str, Any]]] = {hands: [], player_hands: []}
    for game in batch:
        num = nums[game.game_id]
        action_rows.extend(
            {"game": num, "ply": ply, "action": action}
            for ply, action in enumerate(game.match.history)
        )
        if game.finished_at is not None:
            table, rows = _hands_of(game.match)
            by_table[table].extend({"game": num, **h} for h in rows)
    if action_rows:
        conn.execute(actions.insert(), action_rows)
    for table, rows in by_table.items():
        if rows:
            conn.execute(table.insert(), rows)
    return [nums[game.game_id] for game in batch]


def _hands_of(match: Match) -> tuple[sa.Table, list[dict[str, Any]]]:
    """The table that keeps the hands of ``match`` (by team, or in cutthroat by player),
    and its rows for them."""
    if match.rules.partnerships:
        return hands, hand_rows(match)
    return player_hands, player_hand_rows(match)


def insert_hands(conn: Connection, num: int, match: Match) -> None:
    """Replace the stored hands of the game numbered ``num`` with those of ``match``."""
    table, found = _hands_of(match)
    rows = [{"game": num, **h} for h in found]
    conn.execute(table.delete().where(table.c.game == num))
    if rows:
        conn.execute(table.insert(), rows)
