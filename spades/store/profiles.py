"""Players' profiles in the store: handle, display name and colour, the signed-in account a
profile is linked to, and a player's own data, exported whole or deleted whole.

A handle is what others know a player by: chosen once they want one, unique, and kept in
lower case so that ``Ada`` and ``ada`` are one handle. An account is the stable id of a
sign-in (the issuer and subject of its identity token): one player an account, so the same
person finds their profile on any device they sign in on.

Deleting a player removes, in one transaction, the games they own with their hands and
actions, their rating and its history, and the player; the seats they held at shared
tables are let go (a live table's seat opens, and a bot plays it until somebody joins), and
their name at those tables and in their games becomes :data:`LEFT`. A shared table's game
stays, since it is the other people's too: it only stops being theirs. Other players' and
bots' ratings keep what they earned against them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spades.engine.record import to_json_dict
from spades.store.checks import check_account, check_colour, check_handle, check_name
from spades.store.errors import StoreError
from spades.store.queries import exported_record, free_handle, player_row
from spades.store.ratings import person
from spades.store.rows import utc_now
from spades.store.schema import (
    SEAT_KEYS,
    actions,
    games,
    hands,
    player_hands,
    players,
    rating_events,
    ratings,
    seats,
    shared_tables,
)
from spades.store.store import Store

#: What an export says it is, and the version of its layout.
EXPORT_FORMAT: Final = "spades-player-data"
EXPORT_VERSION: Final = 1
#: The name a deleted player's seats and games show instead of theirs.
LEFT: Final = "(a player who left)"
#: The table states in which a seat let go opens again for somebody else.
_LIVE: Final = ("waiting", "playing")


@dataclass(frozen=True, slots=True)
class Profile:
    """What a player is known by: handle (None until chosen), display name and colour,
    and the signed-in account they are linked to, if any."""

    player_id: str
    handle: str | None
    name: str
    colour: str
    account: str | None
    created_at: datetime
    seen_at: datetime


def _profile(row: sa.Row[Any]) -> Profile:
    return Profile(
        player_id=row.id,
        handle=row.handle,
        name=row.name,
        colour=row.colour,
        account=row.account,
        created_at=row.created_at,
        seen_at=row.seen_at,
    )


class Profiles:
    """The profiles of one store (it shares the store's connections)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ----------------------------------------------------------------- reading
    def profile(self, player_id: str) -> Profile:
        """A player's profile; :class:`StoreError` for an unknown player."""
        with self.store._read() as conn:
            return _profile(player_row(conn, player_id))

    def player_for_account(self, account: str) -> str | None:
        """The player linked to a signed-in account, if one is."""
        checked = check_account(account)
        with self.store._read() as conn:
            found = conn.execute(
                sa.select(players.c.id).where(players.c.account == checked)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    # ----------------------------------------------------------------- changing
    def update(
        self,
        player_id: str,
        *,
        handle: str | None = None,
        name: str | None = None,
        colour: str | None = None,
    ) -> Profile:
        """Set any of a player's handle, display name and colour, all or none: a handle
        another player has is refused and nothing changes. The profile as it is now."""
        values: dict[str, str] = {}
        if handle is not None:
            values["handle"] = check_handle(handle)
        if name is not None:
            values["name"] = check_name(name)
        if colour is not None:
            values["colour"] = check_colour(colour)
        with self.store._write() as conn:
            player_row(conn, player_id)
            if "handle" in values:
                free_handle(conn, values["handle"], player_id)
            if values:
                conn.execute(players.update().where(players.c.id == player_id).values(**values))
            return _profile(player_row(conn, player_id))

    def link_account(self, player_id: str, account: str) -> None:
        """Tie a player to a signed-in account. Refused when the account is another
        player's, or the player is linked to another account already."""
        checked = check_account(account)
        with self.store._write() as conn:
            row = player_row(conn, player_id)
            if row.account == checked:
                return
            if row.account is not None:
                raise StoreError("account: this profile is linked to another account already")
            holder = conn.execute(
                sa.select(players.c.id).where(players.c.account == checked)
            ).scalar_one_or_none()
            if holder is not None:
                raise StoreError("account: it is linked to another profile already")
            conn.execute(players.update().where(players.c.id == player_id).values(account=checked))

    # ----------------------------------------------------------- a player's data
    def export(self, player_id: str) -> dict[str, Any]:
        """Everything kept of one player, as one JSON-ready document: the profile, the
        preferences, the rating and its history, and the games they own that are over
        (each as the record :meth:`Store.export_json` gives)."""
        subject = person(player_id)
        with self.store._read() as conn:
            row = player_row(conn, player_id)
            rating = conn.execute(
                sa.select(ratings).where(ratings.c.subject == subject)
            ).one_or_none()
            e = rating_events.c
            events = conn.execute(
                sa.select(games.c.id, e.at, e.seats, e.won, e.mu_before, e.sigma_before)
                .add_columns(e.mu, e.sigma)
                .join(games, games.c.num == e.game)
                .where(e.subject == subject)
                .order_by(e.at, e.game)
            ).all()
            owned = conn.execute(
                sa.select(games)
                .where(games.c.owner == player_id, games.c.status != "playing")
                .order_by(games.c.started_at, games.c.num)
            ).all()
            records = [to_json_dict(exported_record(conn, game)) for game in owned]
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "exported_at": utc_now().isoformat(),
            "profile": {
                "id": row.id,
                "handle": row.handle,
                "name": row.name,
                "colour": row.colour,
                "account": row.account,
                "created_at": row.created_at.isoformat(),
                "seen_at": row.seen_at.isoformat(),
            },
            "preferences": _prefs(row.prefs),
            "rating": None
            if rating is None
            else {
                "subject": subject,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "games": rating.games,
                "wins": rating.wins,
                "updated_at": rating.updated_at.isoformat(),
            },
            "rating_history": [
                {
                    "game_id": event.id,
                    "at": event.at.isoformat(),
                    "seats": event.seats,
                    "won": event.won,
                    "mu_before": event.mu_before,
                    "sigma_before": event.sigma_before,
                    "mu": event.mu,
                    "sigma": event.sigma,
                }
                for event in events
            ],
            "games": records,
        }

    def export_json(self, player_id: str) -> str:
        """:meth:`export` as JSON text."""
        return json.dumps(self.export(player_id), ensure_ascii=False, indent=1)

    def delete(self, player_id: str) -> None:
        """Remove one player's data in one transaction (see the module's description)."""
        with self.store._write() as conn:
            player_row(conn, player_id)
            _delete_owned_games(conn, player_id)
            _let_go_of_seats(conn, player_id)
            subject = person(player_id)
            conn.execute(rating_events.delete().where(rating_events.c.subject == subject))
            conn.execute(ratings.delete().where(ratings.c.subject == subject))
            conn.execute(players.delete().where(players.c.id == player_id))


def _prefs(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return {}


def _delete_owned_games(conn: Connection, player_id: str) -> None:
    """Delete the player's own games; a shared table's game only stops being theirs."""
    nums = (
        conn.execute(
            sa.select(games.c.num).where(games.c.owner == player_id, sa.not_(games.c.at_table))
        )
        .scalars()
        .all()
    )
    # One by one in the order the keys need, whether or not the database cascades.
    for table, column in (
        (rating_events, rating_events.c.game),
        (hands, hands.c.game),
        (player_hands, player_hands.c.game),
        (actions, actions.c.game),
        (games, games.c.num),
    ):
        conn.execute(table.delete().where(column.in_(nums)))
    conn.execute(games.update().where(games.c.owner == player_id).values(owner=None))


def _let_go_of_seats(conn: Connection, player_id: str) -> None:
    """Let go of the player's seats and tables; their name there becomes :data:`LEFT`."""
    held = conn.execute(
        sa.select(seats.c.table_num, seats.c.seat, shared_tables.c.status, shared_tables.c.game)
        .join(shared_tables, shared_tables.c.num == seats.c.table_num)
        .where(seats.c.player == player_id)
    ).all()
    now = utc_now()
    for seat in held:
        values: dict[str, Any] = {"player": None, "token_hash": None, "stand_in": False}
        if seat.status in _LIVE:
            values.update(kind="open", name="")
        else:
            values.update(name=LEFT)
        conn.execute(
            seats.update()
            .where(seats.c.table_num == seat.table_num, seats.c.seat == seat.seat)
            .values(**values)
        )
        if seat.game is not None:
            conn.execute(
                games.update()
                .where(games.c.id == seat.game)
                .values({f"player_{SEAT_KEYS[seat.seat]}": LEFT})
            )
        conn.execute(
            shared_tables.update()
            .where(shared_tables.c.num == seat.table_num)
            .values(version=shared_tables.c.version + 1, updated_at=now)
        )
    # A table still waiting for its creator to start it never would be.
    conn.execute(
        shared_tables.update()
        .where(shared_tables.c.creator == player_id, shared_tables.c.status == "waiting")
        .values(status="closed", version=shared_tables.c.version + 1, updated_at=now)
    )
    conn.execute(
        shared_tables.update().where(shared_tables.c.creator == player_id).values(creator=None)
    )
