"""The one table service: friends and bots at one match, each person on their own page;
and the Play page's game, a private table of one person and the bots.

What the lobby, a table's page and the Play page do to a table, with no Streamlit in it.
Every fact comes from the store (:mod:`spades.store.tables`) and every rule from the
engine, so any server can answer any page of any table, and a page that moves to another
server carries on. A move is checked by the engine once, on a copy of the match the
server keeps, stored, and the copy kept for the table's next version.

- A Play game is a private table (:meth:`TableService.play_table`): its page acts as its
  :class:`Owner`, moves its bots when it likes (:meth:`TableService.step`), and no clock
  or sweep touches it.

- A person holds a seat by its secret token. :meth:`TableService.view` gives a page what
  its seat may see: the public table and, for a seated person, their own observation
  (their own hand, never another's). A page without a token is a spectator's.
- A move names the table version the page drew; a move for a seat the token does not
  hold, out of turn, illegal, or made on a table that has moved on since, is refused with
  a message (:class:`TableRefusal`) and nothing changes.
- :meth:`TableService.advance` moves the table on by one step when its time has come: a
  bot's move at the table's pace, a bot standing in for a person who has let their turn
  run past the limit, the end of the match, or the close of a table no person has looked
  at for half an hour. The server's clock (:class:`Sweeper`) calls it as soon as a table's
  pace has passed after a move and again once its turn limit has, any page that looks at
  the table calls it too, and the
  store's guarded writes make two servers advancing one table at once store one move.
  :meth:`TableService.sweep` closes every idle table, whether or not a page polls it; the
  server's clock runs it too.
- A page need not poll to learn of a move: :meth:`TableService.follow` tells it as soon as
  the move is stored, through whichever server made it.
- The table's game is the table's: only this service moves it. Its creator (the player,
  whatever their seat) seats bots, starts, frees an absent person's seat, closes the
  table, offers a rematch with the same seats, and may hand these powers to another person
  at the table.

A database that cannot be used raises :class:`~spades.store.StoreUnavailable`, whose
message is already written for players; every other refusal of the store becomes a
:class:`TableRefusal`.
"""

from __future__ import annotations

import functools
import heapq
import logging
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Final, NamedTuple, TypeVar

from spades.app import sound
from spades.app.moves import bot_move, seat_why_not, undo_point
from spades.app.seat_events import SeatEvent, seat_events
from spades.app.sound import TableMoment
from spades.app.table_view import FinishedHand, TableView, finished_hands, observed_view
from spades.bots import bot_names
from spades.bots.hint import Hint, hint
from spades.engine.cards import (
    CLAIM,
    SEAT_NAMES,
    Action,
    Seat,
    action_card,
    card_str,
)
from spades.engine.events import Event
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.scoring import Outcome
from spades.engine.state import IllegalAction
from spades.store import StaleWrite, Store, StoreError, StoreUnavailable
from spades.store.checks import tidy_name
from spades.store.digest import history_digest, next_digest
from spades.store.rows import utc_now
from spades.store.tables import CREATOR_SEAT, MAX_OPEN, TableInfo, Tables

__all__ = [
    "ABSENT_AFTER",
    "IDLE",
    "MAX_OPEN",
    "PACE",
    "PACES",
    "SEEN_EVERY",
    "SWEEP_EVERY",
    "TABLE_PACES",
    "TURN_LIMIT",
    "Owner",
    "SharedView",
    "Sweeper",
    "TableInfo",
    "TableMovedOn",
    "TableRefusal",
    "TableService",
    "seat_names",
    "seat_table_view",
    "seat_undo_point",
    "tidy_name",
]

T = TypeVar("T")
#: A table's match at one version: the table, its game, the version.
MatchKey = tuple[str, str, int]

#: Seconds between two bot moves (and how long a finished trick stays on the table) at
#: each pace a player picks.
PACES: Final[dict[str, float]] = {"slow": 1.6, "normal": 0.9, "fast": 0.4, "instant": 0.0}
#: The bots' paces a table's creator picks from: seconds between two bot moves (Play's
#: paces but instant, which would leave the people at a table no time to see a move).
TABLE_PACES: Final = {name: seconds for name, seconds in PACES.items() if seconds > 0}
#: The pace of a table whose creator picked none, and of a table this server has not read.
PACE: Final = PACES["normal"]
#: The bot that fills a seat when the creator names none: a partner who plays like a
#: person who knows the game.
DEFAULT_BOT: Final = "standard"
#: Seconds a person may take over a move before a bot plays it for them.
TURN_LIMIT: Final = 60
#: A table that no person has looked at for this long is closed.
IDLE: Final = timedelta(minutes=30)
#: How many times a view is read again when a move lands while it is being read.
_READS: Final = 5
#: How often a polling page's sign of life is written (a write per poll is not needed).
SEEN_EVERY: Final = timedelta(seconds=10)
#: A person a bot plays for whose page has not looked for this long is absent: their seat
#: may be freed (three signs of life missed).
ABSENT_AFTER: Final = 3 * SEEN_EVERY
#: Seconds between two sweeps of the idle tables by the server.
SWEEP_EVERY: Final = 60.0
#: Matches a server keeps for its pages (one a table in play is enough: a table's pages
#: all ask for its latest version).
_KEPT: Final = 512
#: Seconds the server's clock waits past a table's pace, so that the pace has surely passed.
_MARGIN: Final = 0.05
_log = logging.getLogger("spades.tables")


class TableRefusal(Exception):
    """A request the table refuses; the message says why, in a player's words."""


class TableMovedOn(TableRefusal):
    """A request made on a table that has moved on since the page drew it."""


@dataclass(frozen=True, slots=True)
class Owner:
    """Who acts at the Play page's private table: its player, as the server knows them
    from their session (never a value a browser sent), where a shared table's seat is
    held by its secret token."""

    player: str


#: A seat's holder: its secret token at a shared table, its owner at a private one.
Holder = str | Owner


@dataclass(frozen=True, slots=True)
class SharedView:
    """What one page of a table may draw."""

    table: TableInfo
    #: The page's seat, or None for a spectator.
    seat: Seat | None
    #: The seat's own observation (its hand and its legal moves); None for a spectator.
    own: Observation | None
    #: The match's scores so far, and its outcome once it is over.
    scores: tuple[int, ...]
    outcome: Outcome | None
    #: The table as the page's seat sees it (a spectator sees it from South, with no
    #: hand), for the same renderer as the Play page's; None before the match starts.
    drawn: TableView | None = None
    #: The hands of the match that are over, public now.
    finished: tuple[FinishedHand, ...] = ()
    #: The table as the sounds follow it, and the sounds for the page's seat of what
    #: happened since the moment the page last heard.
    moment: TableMoment | None = None
    cues: tuple[str, ...] = ()

    @property
    def creator(self) -> bool:
        """Whether the page is the table's creator's (who may seat bots, start, close the
        table, free an absent person's seat, offer a rematch and hand these over)."""
        return _is_creator(self.table, self.seat)

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
        self._matches = _Matches()
        #: Each table's pace and turn limit as last read here, for the server's clock
        #: (bounded like the matches kept: a table not in it keeps the defaults until read).
        self._timings: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._timings_lock = threading.Lock()

    # ----------------------------------------------------------------- the lobby
    def create(
        self,
        player: str,
        name: str,
        rules: Rules,
        *,
        bot_level: str | None = None,
        turn_limit: int = TURN_LIMIT,
        public: bool = False,
        hints: bool = False,
        undo: bool = False,
        pace: str = "normal",
        client: str | None = None,
    ) -> tuple[str, str]:
        """A new table with ``player`` at South; its id and their seat token.
        ``client`` is the address the request came from: an address makes at most
        :data:`MAX_OPEN` tables in :data:`IDLE` on one server, a bound that holds when a
        browser drops its cookies and so becomes a new player each time;
        ``pace`` names the bots' pace (one of :data:`TABLE_PACES`);
        ``turn_limit`` is how many seconds a person has for a move before a bot plays it;
        ``public`` lists the table in the lobby (otherwise only its link joins it);
        ``hints`` and ``undo`` let every seat ask for a hint and take its last move back."""
        if pace not in TABLE_PACES:
            raise TableRefusal(f"Pick the bots' pace from {', '.join(TABLE_PACES)}.")
        if client is not None and not _CREATIONS.take(client, self.now()):
            raise TableRefusal(
                f"{MAX_OPEN} tables were made from your address in the last half hour: "
                "play at one of them, or make another later."
            )
        table_id, token = self._asked(
            lambda: self.tables.create(
                creator=player,
                name=tidy_name(name),
                rules=rules,
                pace=TABLE_PACES[pace],
                turn_limit=turn_limit,
                bot_level=_level(bot_level),
                public=public,
                hints=hints,
                undo=undo,
            )
        )
        self._timed(table_id, TABLE_PACES[pace], turn_limit)
        return table_id, token

    def pace_of(self, table_id: str) -> float:
        """The seconds between two bot moves at the table, as last read on this server."""
        return self._timings.get(table_id, (PACE, TURN_LIMIT))[0]

    def turn_limit_of(self, table_id: str) -> int:
        """The seconds a person has for a move at the table, as last read on this server."""
        return self._timings.get(table_id, (PACE, TURN_LIMIT))[1]

    def _timed(self, table_id: str, pace: float, turn_limit: int) -> None:
        with self._timings_lock:
            self._timings[table_id] = (pace, turn_limit)
            self._timings.move_to_end(table_id)
            while len(self._timings) > _KEPT:
                self._timings.popitem(last=False)

    def join(self, table_id: str, seat: Seat, player: str, name: str) -> str:
        """Sit ``player`` at an open seat (during the match too); their seat token."""
        return self._asked(
            lambda: self.tables.join(table_id, seat, player=player, name=tidy_name(name))
        )

    def seat_bot(self, table_id: str, token: str, seat: Seat, level: str) -> None:
        """The creator puts a bot of ``level`` at an open seat before the start."""
        info = self._creators(table_id, token)
        if info.status != "waiting" or info.seats[_seat(seat, info.rules)].kind != "open":
            raise TableRefusal("Only an open seat of a table not yet started takes a bot.")
        self._asked(lambda: self.tables.set_seat(table_id, seat, "bot", level=_level(level)))

    def remove(self, table_id: str, token: str, seat: Seat) -> None:
        """The creator frees a person's seat and opens it again: before the start, for
        anyone; during the match, only an absent person's (a bot is playing for them), and
        the bot plays on until somebody joins."""
        info = self._creators(table_id, token)
        holder = info.seats[_seat(seat, info.rules)]
        if holder.player == info.creator or holder.kind != "human":
            raise TableRefusal("Only another person's seat can be freed.")
        if info.status == "playing" and seat not in self.absent(info):
            raise TableRefusal(
                "Only an absent player's seat can be freed during the match: a bot plays "
                "for them while they are away, and they may take their seat back."
            )
        level = _level(holder.level or None)
        self._asked(lambda: self.tables.set_seat(table_id, seat, "open", level=level))

    def absent(self, info: TableInfo) -> list[Seat]:
        """The seats of the people (the creator aside) a bot plays for whose page has not
        looked at the table for :data:`ABSENT_AFTER`: gone, not only slow. A person whose
        turn ran out while their page is open is away from it for a turn, not absent."""
        now = self.now()
        return [
            seat.seat
            for seat in info.seats
            if seat.kind == "human"
            and seat.player != info.creator
            and seat.stand_in
            and (seat.seen_at is None or now - seat.seen_at >= ABSENT_AFTER)
        ]

    def start(self, table_id: str, token: str, *, seed: int | None = None) -> str:
        """The creator starts the match, bots in the seats still open; the game's id."""
        info = self._creators(table_id, token)
        seat = info.seat_of_player(info.creator)
        assert seat is not None, "a creator holds a seat"
        level = info.seats[seat].level
        chosen = _seed(seed)
        return self._asked(lambda: self.tables.start(table_id, seed=chosen, bot_level=level))

    def rematch(self, table_id: str, token: str, *, seed: int | None = None) -> str:
        """The creator starts a new match once the last is over, with everyone in the
        same seat; the new game's id."""
        info = self._creators(table_id, token)
        if info.status != "finished":
            raise TableRefusal("A rematch starts once the match is over.")
        chosen = _seed(seed)
        return self._asked(lambda: self.tables.rematch(table_id, seed=chosen))

    def close(self, table_id: str, token: Holder) -> None:
        """The creator gives the table up: it closes for everyone, and a match in play is
        stored as abandoned."""
        self._creators(table_id, token)
        self._asked(lambda: self.tables.close(table_id, "closed"))

    def hand_over(self, table_id: str, token: str, seat: Seat) -> None:
        """The creator hands their powers to the person at ``seat``."""
        info = self._creators(table_id, token)
        holder = info.seats[_seat(seat, info.rules)]
        if holder.kind != "human" or holder.player is None or holder.player == info.creator:
            raise TableRefusal("The table can be handed only to another person sitting at it.")
        player = holder.player
        self._asked(lambda: self.tables.hand_over(table_id, player))

    def listed(self) -> list[TableInfo]:
        """The public tables waiting for players and those in play, newest first (an idle
        table is not listed even before it is swept)."""
        since = self.now() - IDLE
        return self._asked(lambda: self.tables.listed(seen_since=since))

    # ----------------------------------------------------------------- a page
    def view(
        self, table_id: str, token: str | None, *, heard: TableMoment | None = None
    ) -> SharedView:
        """What the page holding ``token`` (None for a spectator) may draw now, with the
        sounds of what happened since ``heard`` (the moment the page last heard)."""
        seat = self._asked(lambda: self.tables.seat_of(table_id, token)) if token else None
        info = self._asked(lambda: self.tables.info(table_id))
        if seat is not None and self._sign_of_life(info, seat):
            info = self._asked(lambda: self.tables.info(table_id))
        info, match = self._consistent(info)
        if match is None:
            return SharedView(info, seat, None, (0, 0), None)
        hand = match.finished[-1] if match.is_over else match.hand
        own = hand.observation(seat) if seat is not None else None
        outcome = match.outcome if match.is_over else None
        drawn = seat_table_view(info, match, seat)
        finished = finished_hands(match)
        moment = sound.moment(match, holding=False, game=info.game_id)
        cues = sound.cues_between(heard, moment, match, drawn.seat)
        return SharedView(info, seat, own, match.scores, outcome, drawn, finished, moment, cues)

    def events(self, table_id: str, token: str | None, since: int) -> list[SeatEvent]:
        """The moves of the table's match after its first ``since``, as the seat holding
        ``token`` (None for a spectator) may be told them."""
        seat = self._asked(lambda: self.tables.seat_of(table_id, token)) if token else None
        _, match = self._consistent(self._asked(lambda: self.tables.info(table_id)))
        if match is None:
            return []
        try:
            return seat_events(match, seat, since)
        except ValueError as err:
            raise TableRefusal(_plain(str(err))) from None

    def version(self, table_id: str) -> int:
        """How many changes the table has had: one number, cheap to poll."""
        return self._asked(lambda: self.tables.version(table_id))

    def follow(self, table_id: str, heard: Callable[[int], None]) -> tuple[int, Callable[[], None]]:
        """Call ``heard(version)`` each time the table's version moves on, as the store's
        news brings it (from any server sharing the database); returns the table's version
        now, read once the news is followed (so no change falls between the two), and the
        call that stops following. A page told nothing still finds every change by
        :meth:`version`."""

        def table_heard(moved: str, version: int) -> None:
            if moved == table_id:
                heard(version)

        stop = self.store.news.listen(table_heard)
        try:
            return self.version(table_id), stop  # a table that does not exist is refused
        except BaseException:
            stop()
            raise

    def news_of(self, table_id: str, version: int) -> str:
        """The public move that brought ``table_id`` to ``version`` (:func:`public_move`),
        as this server heard it, or "" (none, or not heard here)."""
        return self.store.news.move(table_id, version)

    def act(self, table_id: str, token: Holder, action: Action, version: int) -> Event:
        """The move of the page holding ``token``, made on the table as it stood at
        ``version``, and what it did; :class:`TableRefusal` says why it was not made.

        The engine checks the move once, as it makes it on a copy of the table's match;
        the move is stored, and the copy kept as the match of the table's next version.
        """
        seat, info, read = self._turn_of(table_id, token, version)
        if read.match.current_player != seat:
            raise TableRefusal("It is not your turn.")
        try:
            moved, event = read.moved(action)
        except IllegalAction as err:
            raise TableRefusal(str(err)) from None
        self._written(lambda: self._store_move(info, read, moved, seat, action, person=True))
        return event

    def step(self, table_id: str, token: Holder, version: int) -> Event | None:
        """At the Play page's private table, the bot to move moves now (its person's page
        sets the pace); what it did, or None when it is not a bot's turn."""
        seat, info, read = self._turn_of(table_id, token, version)
        if not info.solo:
            raise TableRefusal("The bots at this table move at the table's own pace.")
        mover = read.match.current_player
        assert mover is not None, "a match in play has a seat to act"
        if mover == seat:
            return None
        action = bot_move(read.match, mover, info.seats[mover].level)
        moved, event = read.moved(action)
        self._written(lambda: self._store_move(info, read, moved, mover, action, person=False))
        return event

    def play_table(self, game_id: str, player: str) -> str:
        """The id of the Play page's private table of ``player``'s game in play
        ``game_id`` (made the first time); the page acts at it as :class:`Owner`."""
        return self._asked(lambda: self.tables.play(game_id, player))

    def table_of(self, game_id: str) -> str | None:
        """The id of the table whose match is ``game_id``, if one is (a watcher reads the
        game there)."""
        return self._asked(lambda: self.tables.of_game(game_id))

    def match_of(self, table_id: str) -> tuple[int, Match]:
        """The table's version and its match then, as this server keeps it: shared with
        its other pages, so only read, never moved. A private table whose match is over
        is ended first (stored finished), as a shared table's clock ends one."""
        info, match = self._consistent(self._asked(lambda: self.tables.info(table_id)))
        if match is not None and info.solo and match.is_over and info.status == "playing":
            self._finish(info, match)
            info, match = self._consistent(self._asked(lambda: self.tables.info(table_id)))
        if match is None:
            raise TableRefusal("There is no match at this table.")
        return info.version, match

    def _store_move(
        self,
        info: TableInfo,
        read: _Kept,
        moved: _Kept,
        seat: Seat,
        action: Action,
        *,
        person: bool,
    ) -> None:
        """Store ``action`` of ``seat`` as the next move of the match ``read`` (``moved``
        is a copy of it with the move made), by the seat's person or a bot, with its
        public form for the table's news. The copy is kept as the match of the table's
        next version."""
        version = self.tables.act(
            info.table_id,
            seat,
            action,
            after=read.match.history,
            person=person,
            public=public_move(read.match.rules, seat, action),
        )
        self._kept(info, moved, version)

    def _kept(self, info: TableInfo, moved: _Kept, version: int) -> None:
        """Keep ``moved`` as the match of the table's ``version``."""
        assert info.game_id is not None
        self._matches.put((info.table_id, info.game_id, version), moved)

    def hint(self, table_id: str, token: str, version: int) -> Hint:
        """The suggested move for the seat holding ``token``, on its turn at a table whose
        options offer hints (the same advice as on the Play page)."""
        seat, info, read = self._turn_of(table_id, token, version)
        if not info.hints:
            raise TableRefusal("Hints are switched off at this table.")
        if read.match.current_player != seat:
            raise TableRefusal("A hint is given on your turn.")
        return hint(read.match.hand.observation(seat))

    def undo(self, table_id: str, token: Holder, version: int) -> None:
        """The seat holding ``token`` takes its last bid or card of the hand back, with
        the bots' moves after it, at a table whose options allow it."""
        seat, info, read = self._turn_of(table_id, token, version)
        match = read.match
        if not info.undo:
            raise TableRefusal("Undo is switched off at this table.")
        point = seat_undo_point(info, match, seat)
        if point is None:
            raise TableRefusal(
                "There is no bid or card of yours to take back: only your last move of "
                "this hand can be, and only while no other person has moved since."
            )
        moved = match.clone()
        while moved.ply > point:
            moved.undo()
        kept = _Kept(moved, history_digest(moved.history))

        def take_back() -> None:
            self._kept(info, kept, self.tables.take_back(table_id, point, after=match.history))

        self._written(take_back)

    def _turn_of(self, table_id: str, token: Holder, version: int) -> tuple[Seat, TableInfo, _Kept]:
        """The seat of ``token``, the table and its match, as the page drew them at
        ``version``; a refusal when they have moved on or there is no match in play."""
        seat, info = self._seat_at(table_id, token)
        if seat is None:
            raise TableRefusal("You do not hold a seat at this table.")
        if info.version != version:
            raise TableMovedOn(_MOVED_ON)
        read = self._read_match(info)[0]
        if info.status != "playing" or read is None or read.match.is_over:
            raise TableRefusal("There is no match in play at this table.")
        return seat, info, read

    def take_back(self, table_id: str, token: str) -> None:
        """The person holding ``token`` takes their seat back from the bot standing in."""
        seat = self._asked(lambda: self.tables.seat_of(table_id, token))
        if seat is None:
            raise TableRefusal("You do not hold a seat at this table.")
        self._asked(lambda: self.tables.stand_in(table_id, seat, False))

    # ----------------------------------------------------------------- the clock
    def advance(self, table_id: str) -> bool:
        """Move the table on by one step if its time has come; whether it moved."""
        info = self._asked(lambda: self.tables.info(table_id))
        if info.solo:
            return False  # its person's page moves it
        self._timed(table_id, info.pace, info.turn_limit)
        now = self.now()
        if info.status not in ("waiting", "playing"):
            return False
        if now - info.human_at > IDLE:
            return self._close_idle(table_id)
        if (now - info.updated_at).total_seconds() < min(info.pace, info.turn_limit):
            # Nothing is due so soon after the last change: no need to read the match.
            return False
        read = self._read_match(info)[0]
        if read is None:
            return False
        match = read.match
        if match.is_over:
            return self._finish(info, match)
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
        action = bot_move(match, seat, holder.level)
        moved, _ = read.moved(action)
        try:
            self._store_move(info, read, moved, seat, action, person=False)
        except StaleWrite:
            return False  # another server moved the table on first
        except StoreUnavailable:
            raise
        except StoreError as err:
            raise TableRefusal(_plain(str(err))) from None
        return True

    def sweep(self) -> int:
        """Close every table no person has looked at for :data:`IDLE`; how many closed."""
        idle = self._asked(lambda: self.tables.idle(self.now() - IDLE))
        return sum(self._close_idle(table_id) for table_id in idle)

    # ----------------------------------------------------------------- inside
    def _close_idle(self, table_id: str) -> bool:
        """Close an idle table; whether this call closed it (another server may have)."""
        try:
            self.tables.close(table_id, "closed")
        except StoreUnavailable:
            raise
        except StoreError:
            return False
        return True

    def _finish(self, info: TableInfo, match: Match) -> bool:
        """Store the finished game and end the table; whether this call ended it. Another
        server, or this one's clock while a page looks, may take either step first: a step
        found done is not a refusal."""
        assert info.game_id is not None
        game_id, table_id = info.game_id, info.table_id
        self._unless_done(
            lambda: self.store.finish(game_id, match),
            done=lambda: self.store.game_info(game_id).status != "playing",
        )
        return self._unless_done(
            lambda: self.tables.close(table_id, "finished"),
            done=lambda: self.tables.info(table_id).status == "finished",
        )

    def _unless_done(self, step: Callable[[], object], *, done: Callable[[], bool]) -> bool:
        """Take a step in the store; whether it was taken. A step the store refuses is
        :meth:`_asked`'s refusal, unless ``done()`` finds it taken already (by another
        server, or by this one's clock)."""
        try:
            step()
        except StoreUnavailable:
            raise
        except StoreError as err:
            if not self._asked(done):
                raise TableRefusal(_plain(str(err))) from None
            return False
        return True

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
            read, current = self._read_match(info)
            if current:
                break
            info = self._asked(lambda: self.tables.info(table_id))
        else:
            read = self._read_match(info)[0]
        return info, read.match if read is not None else None

    def _read_match(self, info: TableInfo) -> tuple[_Kept | None, bool]:
        """The table's match and whether it is the one of ``info``'s version.

        A match read while the version stayed put is the version's, and is kept for the
        server's other pages of the table (:class:`_Matches`). The store's actions are the
        truth and a kept match a copy of them: the next version's match is the table's
        latest kept one moved on by the actions stored since (:meth:`_moved_on`), and the
        game is replayed from its start only when this server has none of it, or the
        actions stored since do not follow it (a move was taken back).
        """
        if info.game_id is None:
            return None, True
        game_id, table_id, version = info.game_id, info.table_id, info.version

        def load() -> tuple[_Kept, bool]:
            kept = self._matches.latest(table_id, game_id)
            read = self._moved_on(game_id, kept) if kept is not None else None
            if read is None:
                match = self._asked(lambda: self.store.load(game_id)).match
                read = _Kept(match, history_digest(match.history))
            return read, self._asked(lambda: self.tables.version(table_id)) == version

        return self._matches.read((table_id, game_id, version), load)

    def _moved_on(self, game_id: str, kept: _Kept) -> _Kept | None:
        """``kept`` moved on by the actions stored since (a copy: pages may be reading
        it); None when the stored game does not follow it, or has moved back."""
        digest, since = self._asked(lambda: self.store.actions_since(game_id, kept.match.ply))
        if not since:
            return kept if digest == kept.digest else None
        match, moved = kept.match.clone(), kept.digest
        try:
            for action in since:
                match.apply(action)
                moved = next_digest(moved, action)
        except ValueError:  # an illegal action too: the game is read again, whole
            return None
        return _Kept(match, moved) if moved == digest else None

    def _seat_at(self, table_id: str, token: Holder) -> tuple[Seat | None, TableInfo]:
        """The seat ``token`` holds at the table (None if none) and the table, read after."""
        if isinstance(token, Owner):
            info = self._asked(lambda: self.tables.info(table_id))
            return (info.seat_of_player(token.player) if info.solo else None), info
        seat = self._asked(lambda: self.tables.seat_of(table_id, token))
        return seat, self._asked(lambda: self.tables.info(table_id))

    def _creators(self, table_id: str, token: Holder) -> TableInfo:
        """The table, when ``token`` holds its creator's seat; else a refusal."""
        seat, info = self._seat_at(table_id, token)
        if not _is_creator(info, seat):
            raise TableRefusal("Only the table's creator can do that.")
        return info

    @classmethod
    def _written(cls, write: Callable[[], None]) -> None:
        """A person's guarded write to the table's match; a match that moved on since the
        page drew it is refused as such, any other store refusal as :meth:`_asked` does."""

        def guarded() -> None:
            try:
                write()
            except StaleWrite:
                raise TableMovedOn(_MOVED_ON) from None

        cls._asked(guarded)

    @staticmethod
    def _asked(ask: Callable[[], T]) -> T:
        """The store's answer, or its refusal as a :class:`TableRefusal` (a database that
        cannot be used stays a :class:`~spades.store.StoreUnavailable`)."""
        try:
            return ask()
        except StoreUnavailable:
            raise
        except StoreError as err:
            raise TableRefusal(_plain(str(err))) from None


class _Kept(NamedTuple):
    """A table's match as this server keeps it, and the digest of its history."""

    match: Match
    digest: str

    def moved(self, action: Action) -> tuple[_Kept, Event]:
        """A copy of the match with ``action`` made (the engine's one check of it, which
        raises ``IllegalAction``), and what it did; the match kept is left as it was."""
        match = self.match.clone()
        event = match.apply(action)
        return _Kept(match, next_digest(self.digest, action)), event


class _Matches:
    """The matches of the tables' latest versions that this server has read, shared by its
    pages; bounded, the least recently used forgotten first.

    A table's version moves on with every change to its game (in the same transaction),
    so a match kept under a version stays true for it. A kept match is only read, never
    moved on: the next version's is a copy of it moved on. Pages that ask for one version
    at once wait for the first one's read instead of each reading it.
    """

    def __init__(self, size: int = _KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[MatchKey, _Kept] = OrderedDict()
        #: Each table game's latest version kept, to be moved on to the next.
        self._latest: OrderedDict[tuple[str, str], tuple[int, _Kept]] = OrderedDict()
        self._reading: dict[MatchKey, _Reading] = {}
        self._lock = threading.Lock()

    def latest(self, table_id: str, game_id: str) -> _Kept | None:
        """The match of the table's game at the latest version kept here, if any."""
        with self._lock:
            found = self._latest.get((table_id, game_id))
        return found[1] if found is not None else None

    def read(self, key: MatchKey, load: Callable[[], tuple[_Kept, bool]]) -> tuple[_Kept, bool]:
        """The match of ``key``'s version, kept or read by ``load`` (which also says
        whether the version stayed put while it read, and so whether it may be kept)."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found, True
            reading = self._reading.get(key)
            first = reading is None
            if reading is None:
                reading = self._reading[key] = _Reading()
        if not first:
            reading.done.wait()
            return reading.result if reading.result is not None else load()
        try:
            reading.result = load()
        finally:
            with self._lock:
                del self._reading[key]
                if reading.result is not None and reading.result[1]:
                    self._keep(key, reading.result[0])
            reading.done.set()
        return reading.result

    def put(self, key: MatchKey, kept: _Kept) -> None:
        """Keep ``kept`` as the match of ``key``'s version (a move made here)."""
        with self._lock:
            self._keep(key, kept)

    def _keep(self, key: MatchKey, kept: _Kept) -> None:
        """Keep ``kept`` under ``key`` (the lock held), and as its game's latest unless a
        later version is kept already."""
        self._kept[key] = kept
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        table_id, game_id, version = key
        game = (table_id, game_id)
        before = self._latest.pop(game, None)
        self._latest[game] = (version, kept) if before is None or before[0] <= version else before
        while len(self._latest) > self.size:
            self._latest.popitem(last=False)


@dataclass(slots=True)
class _Reading:
    """One page's read of a match that other pages wait for (``result`` stays None when the
    read failed: each of them then reads it for itself)."""

    done: threading.Event = field(default_factory=threading.Event)
    result: tuple[_Kept, bool] | None = None


class Sweeper:
    """The server's own clock for the tables, a daemon thread:

    - it hears every table's news (:meth:`TableService.follow`, for all tables) and moves
      the table on once the table's pace has passed, and again once its turn limit has, so
      a bot moves on time, and stands in for a person who let their turn run out, whether
      or not a page looks at the table then (a table this server has not read yet, one
      made on another server, is read at the first wake, and waited for by its own pace
      and limit from then on);
    - every ``every`` seconds it sweeps the idle tables, so a table nobody looks at still
      closes and leaves the lobby.

    Each server sharing a database runs one; when two move one table at once, the store's
    guarded writes keep one move.
    """

    def __init__(
        self,
        service: TableService,
        *,
        every: float = SWEEP_EVERY,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.every = every
        #: The clock its waits are measured on (seconds, never going back).
        self.monotonic = monotonic
        self.stopped = threading.Event()
        #: The wakes to come: when, for which table, when its news was heard, and which
        #: of its waits (0 its pace, 1 its turn limit) they end.
        self._due: list[tuple[float, str, float, int]] = []
        self._woken = threading.Condition()
        self._deaf: Callable[[], None] | None = None
        self.thread = threading.Thread(target=self._run, name="spades-table-clock", daemon=True)

    def start(self) -> Sweeper:
        """Start hearing the tables and sweeping; the sweeper itself."""
        self._deaf = self.service.store.news.listen(self._heard)
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stop at the end of the current step."""
        if self._deaf is not None:
            self._deaf()
        with self._woken:
            self.stopped.set()
            self._woken.notify()
        self.thread.join()

    def _heard(self, table_id: str, version: int) -> None:
        with self._woken:
            now = self.monotonic()
            for which in (0, 1):
                heapq.heappush(
                    self._due, (self._due_at(table_id, now, which), table_id, now, which)
                )
            self._woken.notify()

    def _due_at(self, table_id: str, heard_at: float, which: int) -> float:
        """When a wait (0 the table's pace, 1 its turn limit) heard at ``heard_at`` ends, by
        the table's pace and turn limit as this server last read them."""
        waits = (self.service.pace_of(table_id), self.service.turn_limit_of(table_id))
        return heard_at + waits[which] + _MARGIN

    def _set_again(self, woken: list[tuple[float, str, float, int]], now: float) -> None:
        """Set every wake of the tables just moved on by their pace and turn limit as read
        now: a table not read here yet when its news came (one made on another server) was
        waited for by the defaults. A wake that ended before the table's own wait waits on."""
        tables = {table_id for _, table_id, _, _ in woken}
        with self._woken:
            kept = []
            for due, table_id, heard_at, which in self._due:
                if table_id in tables:
                    due = self._due_at(table_id, heard_at, which)
                kept.append((due, table_id, heard_at, which))
            for _, table_id, heard_at, which in woken:
                again = self._due_at(table_id, heard_at, which)
                if again > now:
                    kept.append((again, table_id, heard_at, which))
            heapq.heapify(kept)
            self._due = kept

    def _run(self) -> None:
        sweep_at = self.monotonic() + self.every
        while not self.stopped.is_set():
            with self._woken:
                wake = min([sweep_at, *(due for due, *_ in self._due[:1])])
                self._woken.wait(max(0.0, wake - self.monotonic()))
                now = self.monotonic()
                ready = []
                while self._due and self._due[0][0] <= now:
                    ready.append(heapq.heappop(self._due))
            if self.stopped.is_set():
                return
            for table_id in dict.fromkeys(table_id for _, table_id, _, _ in ready):
                self._step(functools.partial(self.service.advance, table_id), "moved on")
            self._set_again(ready, now)
            if now >= sweep_at:
                sweep_at = now + self.every
                self._step(self.service.sweep, "swept")

    @staticmethod
    def _step(step: Callable[[], object], done: str) -> None:
        try:
            step()
        except (StoreError, TableRefusal):
            # The next step tries again; a database fault is logged by the store.
            _log.warning("the tables could not be %s", done, exc_info=True)


def public_move(rules: Rules, seat: Seat, action: Action) -> str:
    """A move as every page at the table may be told it, the moment it is stored: a card
    played (``1:card:AS``); any other move (a bid, a card passed to a partner, a look)
    is "", and a page learns of it by drawing its seat's view.

    >>> public_move(Rules(), 1, 51), public_move(Rules(), 1, 52)
    ('1:card:AS', '')
    """
    card = action_card(action)
    if card is None:
        return ""
    return f"{seat}:card:{card_str(card, jokers=rules.joker_deck)}"


class _Creations:
    """When each client address made its tables on this server (in the last :data:`IDLE`),
    so that one address makes at most :data:`MAX_OPEN` in that time: a table nobody looks
    at closes after :data:`IDLE`, so that bounds the tables an address keeps open as the
    store's limit bounds a player's. Bounded in addresses as the matches kept are."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._made: OrderedDict[str, list[datetime]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, now: datetime) -> bool:
        """Note a table made from ``client`` at ``now``; False (noting nothing) when the
        address has made its tables for now."""
        with self._lock:
            made = [when for when in self._made.pop(client, []) if now - when < IDLE]
            taken = len(made) < MAX_OPEN
            if taken:
                made.append(now)
            self._made[client] = made
            while len(self._made) > self.size:
                self._made.popitem(last=False)
            return taken


_CREATIONS: Final = _Creations()


def closed_for_idleness(info: TableInfo) -> bool:
    """Whether a closed table was closed because no person looked at it for :data:`IDLE`
    (the server's sweep) rather than by its creator, whose page looked at it moments
    before: no person had been seen for that long when it closed."""
    return info.status == "closed" and info.updated_at - info.human_at >= IDLE


def seat_names(info: TableInfo) -> tuple[str, ...]:
    """Each seat's name at the table: a person's own (``Bob (bot playing)`` while a bot
    stands in), a bot's by seat and level (``North · standard bot``)."""

    def name(seat: int) -> str:
        held = info.seats[seat]
        if held.kind == "human":
            return f"{held.name} (bot playing)" if held.stand_in else held.name
        bot = f"{SEAT_NAMES[seat]} · {held.level} bot"
        return bot if held.kind == "bot" else f"{bot} (open seat)"

    return tuple(map(name, info.rules.seats))


def seat_table_view(info: TableInfo, match: Match, seat: Seat | None) -> TableView:
    """The table as ``seat`` sees it (a spectator, ``None``, from South with no hand): the
    same view model the Play page draws. Each click carries the table's version."""
    players = seat_names(info)
    over = match.is_over
    hand = match.finished[-1] if over else match.hand
    obs = hand.observation(CREATOR_SEAT if seat is None else seat)
    if seat is None:
        obs = replace(obs, hand=None, legal_actions=(), can_claim=False, passed=(), received=())
    to_act = seat is not None and not over and hand.current_player == seat
    # A finished trick lies on the table until the next lead, unless this seat leads it.
    held = obs.tricks[-1] if obs.tricks and not obs.trick and not over and not to_act else None

    def why_not(action: Action) -> str | None:
        if seat is None:
            return "You are watching this table"
        if over:
            return "The match is over"
        return seat_why_not(hand, seat, action, players)

    seen = observed_view(
        obs,
        players,
        why_not,
        ply=info.version,
        held=held,
        scores=match.scores if over else None,
        bags=match.bags if over else None,
    )
    return replace(
        seen,
        live=not over,
        read_only=seat is None,
        watching=seat is None and not over,
        human_to_act=to_act,
        can_claim=to_act and hand.can(CLAIM),
        undo_allowed=info.undo and seat is not None,
        can_undo=seat is not None and seat_undo_point(info, match, seat) is not None,
        hints=info.hints and seat is not None,
    )


def seat_undo_point(info: TableInfo, match: Match, seat: Seat) -> int | None:
    """How many of the match's moves stay when ``seat`` takes its last move back
    (:func:`~spades.app.moves.undo_point`: while no other person has moved since); None
    when the table's options have undo off."""
    if not info.undo:
        return None
    people = {held.seat for held in info.seats if held.kind == "human"}
    return undo_point(match, seat, people)


_MOVED_ON: Final = "The table moved on before your click arrived; look again."


def _is_creator(info: TableInfo, seat: Seat | None) -> bool:
    """Whether ``seat`` is held by the table's creator (a player, not a seat: the powers
    pass only by a hand-over, and end when the creator's data is deleted)."""
    return seat is not None and info.creator is not None and info.seats[seat].player == info.creator


def _plain(text: str) -> str:
    """A store refusal as a sentence: capitalised, ended with a full stop, bounded.

    >>> _plain("that seat is not open")
    'That seat is not open.'
    """
    text = text[:300].strip()
    if not text:
        return "The table refused that."
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _seed(seed: int | None) -> int:
    return random.SystemRandom().randrange(2**31) if seed is None else seed


def _seat(seat: object, rules: Rules) -> Seat:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in rules.seats:
        raise TableRefusal("There is no such seat.")
    return seat


def _level(level: str | None) -> str:
    if level is None:
        return DEFAULT_BOT
    if level not in bot_names():
        raise TableRefusal(f"There is no bot level called {level[:40]!r}.")
    return level
