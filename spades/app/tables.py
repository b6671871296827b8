"""Shared tables: friends and bots at one match, each person on their own page.

What the lobby and a table's page do, with no Streamlit in it. Every fact comes from the
store (:mod:`spades.store.tables`) and every rule from the engine, so any server can
answer any page of any table, and a page that moves to another server carries on.

- A person holds a seat by its secret token. :meth:`TableService.view` gives a page what
  its seat may see: the public table and, for a seated person, their own observation
  (their own hand, never another's). A page without a token is a spectator's.
- A move names the table version the page drew; a move for a seat the token does not
  hold, out of turn, illegal, or made on a table that has moved on since, is refused with
  a message (:class:`TableRefusal`) and nothing changes.
- :meth:`TableService.advance` moves the table on by one step when its time has come: a
  bot's move at the table's pace, a bot standing in for a person who has let their turn
  run past the limit, the end of the match, or the close of a table no person has looked
  at for half an hour. Any page that polls the table calls it, and the store's guarded
  writes make two servers advancing one table at once store one move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, TypeVar

from spades.bots import bot_names, make_bot
from spades.cards import Action, Card, Seat
from spades.deck import Trick
from spades.match import Match
from spades.observation import Observation, Phase
from spades.rules import Rules
from spades.state import IllegalAction
from spades.store import StaleWrite, Store, StoreError
from spades.store.rows import utc_now
from spades.store.tables import CREATOR_SEAT, TableInfo, Tables

T = TypeVar("T")

#: Seconds between two bot moves at a shared table.
PACE: Final = 0.9
#: Seconds a person may take over a move before a bot plays it for them.
TURN_LIMIT: Final = 60
#: A table that no person has looked at for this long is closed.
IDLE: Final = timedelta(minutes=30)
#: How many times a view is read again when a move lands while it is being read.
_READS: Final = 5
#: How often a polling page's sign of life is written (a write per poll is not needed).
SEEN_EVERY: Final = timedelta(seconds=10)


class TableRefusal(Exception):
    """A request the table refuses; the message says why, in a player's words."""


@dataclass(frozen=True, slots=True)
class PublicHand:
    """What everyone at or around the table may see of the hand in play."""

    phase: Phase
    dealer: Seat
    current_player: Seat | None
    hand_sizes: tuple[int, int, int, int]
    bids: tuple[int | None, int | None, int | None, int | None]
    blind: tuple[bool, bool, bool, bool]
    tricks_won: tuple[int, int, int, int]
    trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[Trick, ...]
    scores: tuple[int, int]
    bags: tuple[int, int]

    @classmethod
    def of(cls, obs: Observation) -> PublicHand:
        """The public part of any seat's observation."""
        return cls(
            phase=obs.phase,
            dealer=obs.dealer,
            current_player=obs.current_player,
            hand_sizes=obs.hand_sizes,
            bids=obs.bids,
            blind=obs.blind,
            tricks_won=obs.tricks_won,
            trick=obs.trick,
            tricks=obs.tricks,
            scores=obs.scores,
            bags=obs.bags,
        )


@dataclass(frozen=True, slots=True)
class SharedView:
    """What one page of a table may draw."""

    table: TableInfo
    #: The page's seat, or None for a spectator.
    seat: Seat | None
    #: The hand in play as everyone sees it (None before the match starts).
    public: PublicHand | None
    #: The seat's own observation (its hand and its legal moves); None for a spectator.
    own: Observation | None
    #: The match's scores so far, and its outcome once it is over.
    scores: tuple[int, int]
    outcome: str | None

    @property
    def creator(self) -> bool:
        """Whether the page is the table's creator's (who may seat bots and start)."""
        return self.seat == CREATOR_SEAT

    @property
    def to_act(self) -> bool:
        """Whether the page's seat is to move now."""
        return self.own is not None and bool(self.own.legal_actions)


class TableService:
    """The shared tables of one store. ``now`` is the clock (UTC, as the store keeps it)."""

    def __init__(self, store: Store, *, now: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.tables = Tables(store, now=now)
        self.now = now

    # ----------------------------------------------------------------- the lobby
    def create(
        self,
        player: str,
        name: str,
        rules: Rules,
        *,
        bot_level: str | None = None,
        turn_limit: int = TURN_LIMIT,
    ) -> tuple[str, str]:
        """A new table with ``player`` at South; its id and their seat token.
        ``turn_limit`` is how many seconds a person has for a move before a bot plays it."""
        return self._asked(
            lambda: self.tables.create(
                creator=player,
                name=name,
                rules=rules,
                pace=PACE,
                turn_limit=turn_limit,
                bot_level=_level(bot_level),
            )
        )

    def join(self, table_id: str, seat: Seat, player: str, name: str) -> str:
        """Sit ``player`` at an open seat (during the match too); their seat token."""
        return self._asked(lambda: self.tables.join(table_id, seat, player=player, name=name))

    def seat_bot(self, table_id: str, token: str, seat: Seat, level: str) -> None:
        """The creator puts a bot of ``level`` at an open seat before the start."""
        info = self._creators(table_id, token)
        if info.status != "waiting" or info.seats[seat].kind != "open":
            raise TableRefusal("Only an open seat of a table not yet started takes a bot.")
        self._asked(lambda: self.tables.set_seat(table_id, seat, "bot", level=_level(level)))

    def remove(self, table_id: str, token: str, seat: Seat) -> None:
        """The creator frees a person's seat and opens it again: before the start, for
        anyone; during the match, only an absent person's (a bot is playing for them), and
        the bot plays on until somebody joins."""
        info = self._creators(table_id, token)
        holder = info.seats[seat]
        if seat == CREATOR_SEAT or holder.kind != "human":
            raise TableRefusal("Only another person's seat can be freed.")
        if info.status == "playing" and not holder.stand_in:
            raise TableRefusal("Only an absent player's seat can be freed during the match.")
        level = _level(holder.level or None)
        self._asked(lambda: self.tables.set_seat(table_id, seat, "open", level=level))

    def start(self, table_id: str, token: str, *, seed: int | None = None) -> str:
        """The creator starts the match, bots in the seats still open; the game's id."""
        info = self._creators(table_id, token)
        level = info.seats[CREATOR_SEAT].level
        chosen = random.SystemRandom().randrange(2**31) if seed is None else seed
        return self._asked(lambda: self.tables.start(table_id, seed=chosen, bot_level=level))

    def listed(self) -> list[TableInfo]:
        """The tables waiting for players and those in play, newest first."""
        return self._asked(self.tables.listed)

    # ----------------------------------------------------------------- a page
    def view(self, table_id: str, token: str | None) -> SharedView:
        """What the page holding ``token`` (None for a spectator) may draw now."""
        seat = self.tables.seat_of(table_id, token) if token else None
        info = self._asked(lambda: self.tables.info(table_id))
        if seat is not None and self._sign_of_life(info, seat):
            info = self._asked(lambda: self.tables.info(table_id))
        info, match = self._consistent(info)
        if match is None:
            return SharedView(info, seat, None, None, (0, 0), None)
        hand = match.finished[-1] if match.is_over else match.hand
        public = PublicHand.of(hand.observation(0))
        own = hand.observation(seat) if seat is not None else None
        outcome = match.outcome.reason if match.is_over else None
        return SharedView(info, seat, public, own, match.scores, outcome)

    def act(self, table_id: str, token: str, action: Action, version: int) -> None:
        """The move of the page holding ``token``, made on the table as it stood at
        ``version``; :class:`TableRefusal` says why it was not made."""
        seat = self.tables.seat_of(table_id, token)
        if seat is None:
            raise TableRefusal("You do not hold a seat at this table, so you cannot play here.")
        info = self._asked(lambda: self.tables.info(table_id))
        if info.version != version:
            raise TableRefusal("The table moved on before your move arrived; look again.")
        match = self._match(info)
        if match is None or match.is_over:
            raise TableRefusal("There is no match in play at this table.")
        if match.current_player != seat:
            raise TableRefusal("It is not your turn.")
        try:
            match.hand.verify(action)
        except IllegalAction as err:
            raise TableRefusal(str(err)) from None
        try:
            self.tables.act(table_id, seat, action, after=match.history, person=True)
        except StaleWrite:
            raise TableRefusal("The table moved on before your move arrived; look again.") from None
        except StoreError as err:
            raise TableRefusal(str(err)) from None

    def take_back(self, table_id: str, token: str) -> None:
        """The person holding ``token`` takes their seat back from the bot standing in."""
        seat = self.tables.seat_of(table_id, token)
        if seat is None:
            raise TableRefusal("You do not hold a seat at this table.")
        self._asked(lambda: self.tables.stand_in(table_id, seat, False))

    # ----------------------------------------------------------------- the clock
    def advance(self, table_id: str) -> bool:
        """Move the table on by one step if its time has come; whether it moved."""
        info = self._asked(lambda: self.tables.info(table_id))
        now = self.now()
        if info.status in ("finished", "closed"):
            return False
        if now - info.human_at > IDLE:
            self._asked(lambda: self.tables.close(table_id, "closed"))
            return True
        match = self._match(info)
        if match is None:
            return False
        if match.is_over:
            self._finish(info, match)
            return True
        seat = match.current_player
        assert seat is not None, "a match in play has a seat to act"
        holder = info.seats[seat]
        waited = (now - info.updated_at).total_seconds()
        if holder.kind == "human" and not holder.stand_in:
            if waited < info.turn_limit:
                return False
            self._asked(lambda: self.tables.stand_in(table_id, seat, True))
            return True
        if waited < info.pace:
            return False
        bot = make_bot(holder.level, seed=len(match.history) * 4 + seat)
        action = bot.act(match.hand.observation(seat))
        try:
            self.tables.act(table_id, seat, action, after=match.history, person=False)
        except StaleWrite:
            return False  # another server moved the table on first
        return True

    # ----------------------------------------------------------------- inside
    def _finish(self, info: TableInfo, match: Match) -> None:
        assert info.game_id is not None
        game_id = info.game_id
        if self.store.game_info(game_id)["status"] == "playing":
            self._asked(lambda: self.store.finish(game_id, match))
        self._asked(lambda: self.tables.close(info.table_id, "finished"))

    def _sign_of_life(self, info: TableInfo, seat: Seat) -> bool:
        """Note, now and then, that the person at ``seat`` is looking; whether it was."""
        seen = info.seats[seat].seen_at
        if info.status not in ("waiting", "playing") or not (
            seen is None or self.now() - seen >= SEEN_EVERY
        ):
            return False
        self._asked(lambda: self.tables.seen(info.table_id, seat))
        return True

    def _consistent(self, info: TableInfo) -> tuple[TableInfo, Match | None]:
        """The table and its match as of one version: a move that lands between the two
        reads is read again, so a page never shows a position under an older version (a
        move made on it would be refused as stale)."""
        table_id = info.table_id
        for _ in range(_READS):
            match = self._match(info)
            if self._asked(lambda: self.tables.version(table_id)) == info.version:
                return info, match
            info = self._asked(lambda: self.tables.info(table_id))
        return info, self._match(info)

    def _match(self, info: TableInfo) -> Match | None:
        if info.game_id is None:
            return None
        game_id = info.game_id
        return self._asked(lambda: self.store.load(game_id)).match

    def _creators(self, table_id: str, token: str) -> TableInfo:
        if self.tables.seat_of(table_id, token) != CREATOR_SEAT:
            raise TableRefusal("Only the table's creator can do that.")
        return self._asked(lambda: self.tables.info(table_id))

    @staticmethod
    def _asked(ask: Callable[[], T]) -> T:
        """The store's answer, or its refusal as a :class:`TableRefusal`."""
        try:
            return ask()
        except StoreError as err:
            raise TableRefusal(str(err)[:300]) from None


def _level(level: str | None) -> str:
    names = bot_names()
    if level is None:
        return "standard" if "standard" in names else names[0]
    if level not in names:
        raise TableRefusal(f"There is no bot level called {level[:40]!r}.")
    return level
