"""The game controller of the Play page: one match against the bots, and its pacing.

The controller holds no widget. The page asks it what to draw and hands it the player's
clicks; a refused or stale click becomes a message, never an exception. Bots act one at a
time through :meth:`GameController.tick`, which the page calls from a timed fragment, so the
table shows each bid and card before the next one; with the ``instant`` pace they all act at
once.

A Play game is a private table (:mod:`spades.app.tables`): once the player has moved, the
game is stored and every move is made by the table service, which checks it once with the
engine, stores it, and keeps the match it made for the next version; the controller reads
that match, never moves it. Before the player's first move nothing is stored, so a visit
that plays nothing leaves nothing behind: the bots' first moves are made on the
controller's own match, and stored with the player's.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from spades.app import sound
from spades.app.moves import bot_move, seat_why_not, turn_problem, undo_point
from spades.app.seat_events import SeatEvent, seat_events
from spades.app.seats import HUMAN_SEAT, bot_seats, player_names
from spades.app.table_view import FinishedHand, Notice, TableView, finished_hands, observed_view
from spades.app.tables import PACES, Owner, TableMovedOn, TableRefusal, TableService
from spades.bots import bot_names
from spades.bots.hint import Hint, hint
from spades.engine.cards import (
    CLAIM,
    Action,
    Seat,
    is_card,
)
from spades.engine.events import Event
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.scoring import Outcome
from spades.engine.state import HandState, IllegalAction, Trick
from spades.store import StoreError, StoreUnavailable
from spades.store.digest import history_digest

#: Seconds a finished trick stays on show at least, whatever the pace.
TRICK_HOLD: Final = 0.6
#: How long a finished trick stays on the table, as the player likes it: with the bots'
#: pace (None; at ``instant`` it flashes over the next trick), a number of seconds at
#: every pace, or until the player taps it (forever).
TRICK_STAYS: Final[dict[str, float | None]] = {
    "pace": None,
    "1": 1.0,
    "2": 2.0,
    "3": 3.0,
    "tap": math.inf,
}
READ_ONLY: Final = "This is another player's game: you may watch it, not play it"
AT_TABLE: Final = (
    "This game belongs to a shared table: only its seats move it there. "
    "You may watch it here, not play it"
)
MOVED_ON: Final = "This game was continued in another window; here is where it stands now."


def default_bot_level() -> str:
    """The strongest everyday level that is installed (``standard`` when it exists)."""
    names = bot_names()
    for name in ("standard", "basic", "random"):
        if name in names:
            return name
    return names[0]


class GameController:
    """One match of the human (South) against three bots, with pacing, undo and saving."""

    def __init__(
        self,
        match: Match,
        *,
        players: tuple[str, ...],
        bot_levels: dict[Seat, str],
        undo_allowed: bool,
        undo_used: bool = False,
        service: TableService | None = None,
        game_id: str | None = None,
        table: tuple[str, int] | None = None,
        owner: str | None = None,
        read_only: bool = False,
        at_table: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.match = match
        self.players = players
        self.bot_levels = dict(bot_levels)
        self.undo_allowed = undo_allowed
        self.undo_used = undo_used
        self.service = service
        self.game_id = game_id
        # The game's table once it has one (its private table, where its player plays it,
        # or a shared table's, only watched here): its id, and the table's version this
        # copy of the match is of.
        self.table = table
        # The player the game belongs to; the page sets it before the first human move,
        # which is when a new game is first stored.
        self.owner = owner
        # Someone else's game, or a shared table's, opened by its link: shown, never played.
        self.at_table = at_table
        self.read_only = read_only or at_table
        self.clock = clock
        self.pace: str = "normal"
        # The player's comforts (off by default): how long a finished trick stays, and
        # whether a card that is the only one they may play plays itself.
        self.trick_stay: float | None = None
        self.auto_play = False
        self.hold = False
        # At the instant pace the bots play on at once, and the trick they finished is
        # shown over the table for a moment instead (until the player's next click).
        self.flash: Trick | None = None
        # The table the page last drew, and when the next beat may move it on: a beat
        # counts from the drawing, never from the move.
        self.drawn_state: tuple[int, bool, int | None] | None = None
        self.ready_at = 0.0
        # A hand that has just ended is shown (its summary) until the player moves on;
        # after a reload, a fresh hand with no action yet means the summary was not seen.
        self.summary_for: int | None = (
            len(match.finished) - 1
            if match.finished and not match.hand.history and not match.is_over
            else None
        )
        self.notice: Notice | None = None
        # The hint asked for, with the ply of the position it is for.
        self.hint: tuple[int, Hint] | None = None
        self.show_last_trick = False
        # Set when the stored game has moved on without this session (another window
        # played it): this copy stops and the page reopens the stored game.
        self.elsewhere = False

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        seed: int,
        player_name: str,
        bot_levels: dict[Seat, str],
        undo_allowed: bool,
        service: TableService | None = None,
        owner: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> GameController:
        """A fresh match. It is stored with the human's first move, not before, so a
        visit that plays nothing leaves nothing behind (without a ``service``, never)."""
        return cls(
            Match(rules, seed=seed),
            players=player_names(rules, player_name),
            bot_levels=bot_levels,
            undo_allowed=undo_allowed,
            service=service,
            owner=owner,
            clock=clock,
        )

    @classmethod
    def resume(
        cls,
        service: TableService,
        game_id: str,
        *,
        viewer: str | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> GameController:
        """The stored game ``game_id``; :class:`StoreError` says why it cannot be opened.

        Only its owner may play it, at its private table: for anyone else (``viewer``) it
        opens read-only. A shared table's game opens read-only for everyone, its creator
        too: only the table moves it (:mod:`spades.app.tables`).
        """
        store = service.store
        loaded = store.load(game_id)
        info = store.game_info(game_id)
        if info.kind != "human" or info.level_s != "human":
            raise StoreError(f"game {game_id} was played by bots only; it cannot be resumed")
        if info.status == "abandoned":
            raise StoreError(f"game {game_id} was abandoned; it cannot be resumed")
        known = bot_names()
        stored = (info.level_n, info.level_e, info.level_s, info.level_w)
        levels = {
            seat: stored[seat] if stored[seat] in known else default_bot_level()
            for seat in bot_seats(loaded.match.rules)
        }
        read_only = info.owner is None or info.owner != viewer or info.at_table
        match, table = loaded.match, None
        if info.status == "playing":
            # Its player plays it at its private table (made the first time), and anyone
            # else watches the game at its table, if it has one.
            try:
                if read_only or info.owner is None:
                    table_id = service.table_of(game_id)
                else:
                    table_id = service.play_table(game_id, info.owner)
                if table_id is not None:
                    version, match = service.match_of(table_id)
                    table = (table_id, version)
            except TableRefusal as err:
                if store.game_info(game_id).status == "playing":
                    raise StoreError(str(err)) from None
                match = store.load(game_id).match  # it ended meanwhile, in another window
        return cls(
            match,
            players=loaded.record.players,
            bot_levels=levels,
            undo_allowed=info.undo_allowed,
            undo_used=info.undo_used,
            service=service,
            game_id=game_id,
            table=table,
            owner=info.owner,
            read_only=read_only,
            at_table=info.at_table,
            clock=clock,
        )

    # ------------------------------------------------------------------- queries
    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self.match.rules

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
        return self.match.is_over

    @property
    def outcome(self) -> Outcome:
        """How the match stands: its winner and why, once it is over."""
        return self.match.outcome

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score so far."""
        return self.match.scores

    @property
    def history(self) -> list[Action]:
        """Every action of the match so far, in order."""
        return self.match.history

    @property
    def ply(self) -> int:
        """How many actions the match has had: a click carries it to detect stale clicks."""
        return self.match.ply

    @property
    def interval(self) -> float:
        """Seconds between two beats at the chosen pace."""
        return PACES.get(self.pace, PACES["normal"])

    @property
    def beat(self) -> float:
        """Seconds between two ticks of the table's timer while it is busy: the pace's
        interval, or at ``instant`` (where only the match's last trick waits) half a hold."""
        return self.interval or TRICK_HOLD / 2

    @property
    def shown_hand(self) -> HandState:
        """The hand on the table: the one just finished while its summary is up."""
        if self.match.is_over:
            return self.match.finished[-1]
        if self.summary_for is not None:
            return self.match.finished[self.summary_for]
        return self.match.hand

    @property
    def shown_hand_number(self) -> int:
        """The number of the hand on the table (1 for the first), as :attr:`shown_hand`."""
        if self.summary_for is not None:
            return self.summary_for + 1
        return self.match.hand_number

    def observation(self) -> Observation:
        """What the human may see of the hand on the table."""
        return self.shown_hand.observation(HUMAN_SEAT)

    @property
    def bots_to_act(self) -> bool:
        """Whether a bot is to act next (and may: no summary up, this copy current)."""
        match = self.match
        return (
            not match.is_over
            and not self.elsewhere
            and not self.read_only
            and self.summary_for is None
            and match.current_player is not None
            and match.current_player != HUMAN_SEAT
        )

    @property
    def human_to_act(self) -> bool:
        """Whether the human is to act now."""
        return (
            not self.match.is_over
            and not self.read_only
            and self.summary_for is None
            and self.match.current_player == HUMAN_SEAT
        )

    @property
    def human_won(self) -> bool:
        """Whether the match is over and won by the human's side (their team, or in
        cutthroat the human alone)."""
        match = self.match
        return match.is_over and match.winner == match.rules.side_of(HUMAN_SEAT)

    @property
    def forced_card(self) -> Action | None:
        """The human's only legal card, when they want such a card played for them."""
        if not self.auto_play or not self.human_to_act or self.elsewhere:
            return None
        legal = self.match.hand.legal_actions()
        return legal[0] if len(legal) == 1 and is_card(legal[0]) else None

    @property
    def waits_for_tap(self) -> bool:
        """Whether a finished trick stays on the table until the player taps it."""
        return self.hold and self.trick_stay == math.inf

    @property
    def busy(self) -> bool:
        """Whether the table will change by itself (a bot to act, a trick on show for a
        time, or a forced card to play)."""
        return (
            (self.hold and not self.waits_for_tap)
            or self.bots_to_act
            or self.forced_card is not None
        )

    @property
    def show_summary(self) -> bool:
        """Whether the end-of-hand summary is up (after the last trick has been shown)."""
        return self.summary_for is not None and not self.hold

    @property
    def held_trick(self) -> Trick | None:
        """The finished trick still on show before it goes to its winner."""
        if not self.hold:
            return None
        tricks = self.shown_hand.tricks
        return tricks[-1] if tricks else None

    def why_not(self, action: Action) -> str | None:
        """Why the human may not take ``action`` now (the engine's words), or None."""
        return self._closed() or seat_why_not(self.match.hand, HUMAN_SEAT, action, self.players)

    def _closed(self) -> str | None:
        """Why the human may not move at all now, whatever the move, or None."""
        if self.match.is_over:
            return "The match is over"
        if self.read_only:
            return self.read_only_reason
        if self.summary_for is not None:
            return "The hand is over: see the summary"
        return None

    @property
    def read_only_reason(self) -> str:
        """Why this game is only watched here."""
        return AT_TABLE if self.at_table else READ_ONLY

    def can_undo(self) -> bool:
        """Whether undo is on and the human has a bid or card to take back in this hand."""
        return not self.read_only and self.undo_allowed and self._undo_point() is not None

    def _undo_point(self) -> int | None:
        if self.summary_for is not None:
            return None
        return undo_point(self.match, HUMAN_SEAT, ())

    @property
    def in_progress(self) -> bool:
        """Whether this is the player's own stored game, not over yet (so a new game would
        give it up)."""
        return self.game_id is not None and not self.read_only and not self.match.is_over

    def abandon(self) -> bool:
        """Give this game up: its table closes, and the game stays in the store marked
        abandoned; whether it was given up (a game moved on elsewhere is reopened instead)."""
        service, table = self.service, self.table
        if service is None or table is None or not self.in_progress:
            return True
        return self._at_table(lambda owner: service.close(table[0], owner), "Giving up the game")

    def can_claim(self) -> bool:
        """Whether the human may claim the rest now (the engine's claim check)."""
        return self.human_to_act and self.match.hand.can(CLAIM)

    # ------------------------------------------------------------------- actions
    def act(self, action: Action, ply: int) -> bool:
        """The human's click on ``action``, drawn when the match had ``ply`` actions.

        Returns whether it was applied; otherwise :attr:`notice` says why. A click made on a
        table that has moved on since (the second click of a double click, say) is dropped
        without a word: the page already shows the table as it is now.
        """
        if ply != self.ply:
            return False
        problem = self._closed() or turn_problem(self.match.hand, HUMAN_SEAT, self.players)
        if problem is not None:
            self.notice = Notice("warning", problem)
            return False
        self.notice = None
        self.flash = None
        if not self._apply(action, clicked=True):
            return False
        if self.pace == "instant":
            self.run_bots()
        return True

    def _apply(self, action: Action | None, *, clicked: bool = False) -> bool:
        """Make the human's ``action``, or with None the bot's move; whether it was made.
        The engine checks it once, as it makes it: a ``clicked`` move it refuses is told
        with its reason. At the game's table the table service makes it; before the
        human's first move this copy does, and the first move stores the game."""
        if self.table is not None:
            event = self._at_table_move(action, clicked=clicked)
        else:
            event = self._here(action, clicked=clicked)
        if event is None:
            return False
        match = self.match
        self.hint = None
        # At the instant pace the bots do not wait for a finished trick: it is flashed over
        # the next one instead, but the match's last trick has none, so it is held as well.
        instant = self.pace == "instant" and not match.is_over and self.trick_stay is None
        self.hold = event.trick is not None and not instant
        if event.trick is not None and instant:
            self.flash = event.trick
        if event.result is not None and not match.is_over:
            self.summary_for = len(match.finished) - 1
        return True

    def _here(self, action: Action | None, *, clicked: bool) -> Event | None:
        """Make a move on this copy of the match (not stored yet): the bot's, or the
        human's, whose first move stores the game and opens its table."""
        match = self.match
        seat = match.current_player
        assert seat is not None
        if action is None:
            action = bot_move(match, seat, self.bot_levels[seat])
        try:
            event = match.apply(action)
        except IllegalAction as err:
            if not clicked:
                raise
            self.notice = Notice("warning", str(err))
            return None
        if seat == HUMAN_SEAT and self.service is not None and not self._stored():
            match.undo()
            return None
        return event

    def _stored(self) -> bool:
        """Store this game with its moves so far and open its table; whether it was."""
        service, owner = self.service, self.owner
        assert service is not None
        if owner is None:
            self.notice = Notice("error", "This move could not be saved: nobody plays it.")
            return False
        store = service.store
        history = self.match.history
        try:
            game_id = store.new_game(
                rules=self.rules,
                seed=self.match.seed,
                players=self.players,
                kind="human",
                bot_levels=self.bot_levels,
                undo_allowed=self.undo_allowed,
                owner=owner,
            )
            for ply, earlier in enumerate(history):
                store.append_action(game_id, earlier, after=history[:ply])
            table_id = service.play_table(game_id, owner)
            version, self.match = service.match_of(table_id)
        except (StoreError, TableRefusal) as err:
            self.notice = Notice(
                "error", f"This move could not be saved, so it was not made: {err}"
            )
            return False
        self.game_id, self.table = game_id, (table_id, version)
        return True

    def _at_table_move(self, action: Action | None, *, clicked: bool) -> Event | None:
        """Have the game's table make the human's ``action`` (or with None, the bot's move);
        what it did, or None when it was refused, and why. A move refused because the table
        moved on elsewhere reopens it, and only a ``clicked`` one tells the player so: a
        bot's or a forced card's was made in the other window as well."""
        service, table = self.service, self.table
        assert service is not None and table is not None
        table_id, version = table
        owner = Owner(self.owner or "")
        try:
            if action is None:
                event = service.step(table_id, owner, version)
            else:
                event = service.act(table_id, owner, action, version)
            self._read_table()
        except TableMovedOn:
            self._moved_on(told=clicked)
            return None
        except StoreUnavailable as err:
            self.notice = Notice(
                "error", f"This move could not be saved, so it was not made: {err}"
            )
            return None
        except TableRefusal as err:
            self.notice = Notice("warning", str(err))
            return None
        return event

    def _read_table(self) -> None:
        """Read the game's table again: its version and its match now."""
        service, table = self.service, self.table
        assert service is not None and table is not None
        version, self.match = service.match_of(table[0])
        self.table = (table[0], version)

    def _at_table(self, ask: Callable[[Owner], object], what: str) -> bool:
        """Ask the game's table something as its owner; whether it was done (a table that
        moved on elsewhere is reopened instead, and anything else refused is told)."""
        try:
            ask(Owner(self.owner or ""))
        except TableMovedOn:
            self._moved_on(told=True)
            return False
        except (TableRefusal, StoreError) as err:
            self.notice = Notice("error", f"{what} could not be saved, so it was not made: {err}")
            return False
        return True

    def in_step_with_store(self) -> bool:
        """Whether this copy is of the stored game as it stands (not moved on elsewhere):
        at its table, of the table's version; a game with no table, of its stored actions."""
        if self.service is None or self.game_id is None:
            return True
        try:
            if self.table is not None:
                return self.service.version(self.table[0]) == self.table[1]
            info = self.service.store.game_info(self.game_id)
        except (StoreError, TableRefusal):
            return False
        return info.actions_count == self.ply and info.digest == history_digest(self.match.history)

    def step(self) -> bool:
        """Advance the table by one beat: gather a finished trick, play the human's forced
        card, or let one bot act."""
        if self.hold:
            if self.waits_for_tap:
                return False
            self.hold = False
            return True
        forced = self.forced_card
        if forced is not None:
            return self._apply(forced)
        if not self.bots_to_act:
            return False
        return self._apply(None)

    def _moved_on(self, *, told: bool) -> None:
        """The stored game is ahead of this copy: stop here, so the page reopens it. The
        player is ``told`` when a move of theirs was refused for it; the bots of two
        windows of one game racing to make the same move is no news to them."""
        self.elsewhere = True
        if told:
            self.notice = Notice("warning", MOVED_ON)

    @property
    def told_elsewhere(self) -> bool:
        """Whether the player was told that the game went on in another window."""
        return self.notice is not None and self.notice.text == MOVED_ON

    def moved_by_hand(self, earlier: Sequence[Action]) -> bool:
        """Whether this match has a move of the player's that the copy of it with the
        actions ``earlier`` lacks (a move made in another window)."""
        history = self.match.history
        common = 0
        for ours, theirs in zip(history, earlier, strict=False):
            if ours != theirs:
                break
            common += 1
        return any(event.seat == HUMAN_SEAT for event in self.match.events[common:])

    def tick(self) -> bool:
        """One beat of the animation when its time has come; returns whether it moved."""
        if self.pace == "instant" and not self.hold and self.forced_card is None:
            return self.run_bots()
        if self.drawn_state != self._table_state():
            # The table as it stands has not been drawn yet: a late beat must not skip it.
            return False
        if self.clock() < self.ready_at:
            return False
        return self.step()

    def _table_state(self) -> tuple[int, bool, int | None]:
        return self.ply, self.hold, self.summary_for

    def drawn(self) -> None:
        """The page has drawn the table as it stands: its beat starts now, so no bid, card
        or finished trick is moved on before the player has had it in front of them."""
        state = self._table_state()
        if state != self.drawn_state:
            self.drawn_state = state
            # Half a beat of slack, so that a timer firing a little early still moves the
            # table; a finished trick stays its full time.
            slack = self.interval / 2
            stay = max(slack, TRICK_HOLD) if self.trick_stay is None else self.trick_stay
            self.ready_at = self.clock() + (stay if self.hold else slack)

    def run_bots(self) -> bool:
        """Let every bot act (and the human's forced cards play) until it is the human's
        turn or the hand is over; the match's last trick, and every trick when the player
        wants tricks to stay, keeps its moment on the table."""
        if self.match.is_over or (self.hold and self.trick_stay is not None):
            return False
        moved = self.hold
        self.hold = False
        while self.bots_to_act or self.forced_card is not None:
            if not self.step():
                break
            moved = True
            if self.hold and (self.match.is_over or self.trick_stay is not None):
                # The match's last trick, or any trick the player wants to stay.
                break
            self.hold = False
        return moved

    def gather(self) -> None:
        """The player taps the finished trick on show: it goes to its winner now."""
        if not self.hold:
            return
        self.hold = False
        if self.pace == "instant":
            self.run_bots()

    def set_comforts(self, *, trick_stay: str, auto_play: bool) -> None:
        """The player's comforts: how long a finished trick stays (a :data:`TRICK_STAYS`
        name; anything else is the pace) and whether a forced card plays itself."""
        self.trick_stay = TRICK_STAYS.get(trick_stay)
        self.auto_play = auto_play

    def set_pace(self, pace: str) -> None:
        """Change the animation pace (``slow``, ``normal``, ``fast`` or ``instant``)."""
        self.pace = pace if pace in PACES else "normal"
        if self.pace != "instant":
            self.flash = None

    def next_hand(self) -> None:
        """Close the end-of-hand summary and deal on."""
        self.summary_for = None
        self.hold = False
        self.flash = None
        self.notice = None
        self.show_last_trick = False
        if self.pace == "instant":
            self.run_bots()

    def undo(self, ply: int) -> bool:
        """Take back the human's last bid or card in this hand, with the bots' replies."""
        if ply != self.ply:
            self.notice = Notice(
                "warning", "That undo came after the table had moved on, so it was ignored."
            )
            return False
        if self.read_only:
            self.notice = Notice("warning", self.read_only_reason)
            return False
        if not self.undo_allowed:
            self.notice = Notice("warning", "Undo is switched off for this game.")
            return False
        point = self._undo_point()
        if point is None:
            self.notice = Notice("warning", "There is no bid or card of yours to take back.")
            return False
        service, table = self.service, self.table
        if service is not None and table is not None:

            def take_back(owner: Owner) -> None:
                service.undo(table[0], owner, table[1])
                self._read_table()

            if not self._at_table(take_back, "The undo"):
                return False
        else:
            while self.match.ply > point:
                self.match.undo()
        self.undo_used = True
        self.hold = False
        self.flash = None
        self.hint = None
        self.notice = Notice("info", "Your last move was taken back.")
        return True

    def ask_hint(self, ply: int) -> None:
        """Work out the suggested action for the human's current position."""
        if ply != self.ply or not self.human_to_act:
            self.notice = Notice("warning", "A hint is given on your turn.")
            return
        advice = hint(self.match.hand.observation(HUMAN_SEAT))
        self.hint = (self.ply, advice)
        self.notice = None

    def current_hint(self) -> Hint | None:
        """The hint for the position on the table, if one was asked for."""
        return self.hint[1] if self.hint is not None and self.hint[0] == self.ply else None

    def events(self, since: int) -> list[SeatEvent]:
        """The moves after the first ``since``, as the human's seat may be told them."""
        return seat_events(self.match, HUMAN_SEAT, since)

    def describe(self, action: Action) -> str:
        """An action in words, such as ``play A♠``."""
        return self.match.hand.describe(action)

    def played_hands(self) -> tuple[FinishedHand, ...]:
        """The public record of every hand of the match that is over."""
        return finished_hands(self.match)

    def heard(self, before: sound.TableMoment | None) -> tuple[sound.TableMoment, tuple[str, ...]]:
        """The table as the sounds follow it now, and the cues of what happened at it since
        ``before`` (see :mod:`spades.app.sound`)."""
        now = sound.moment(self.match, holding=self.hold, game=self.game_id)
        return now, sound.cues_between(before, now, self.match)

    def view(self) -> TableView:
        """What the page draws of the table now, seen from the human's seat."""
        controller = self
        match = controller.match
        shown = controller.shown_hand
        held = controller.held_trick
        summary = controller.show_summary
        seen = observed_view(
            shown.observation(HUMAN_SEAT),
            controller.players,
            controller.why_not,
            ply=controller.ply,
            held=held,
            scores=match.scores if summary else None,
            bags=match.bags if summary else None,
        )
        return replace(
            seen,
            live=shown is match.hand,
            flash=controller.flash if held is None else None,
            summary=summary,
            read_only=controller.read_only,
            watching=controller.read_only and not match.is_over,
            human_to_act=controller.human_to_act,
            hint=controller.current_hint(),
            notice=controller.notice,
            can_claim=controller.can_claim(),
            undo_allowed=controller.undo_allowed,
            can_undo=controller.can_undo(),
            show_last_trick=controller.show_last_trick,
            hints=True,
            waits_for_tap=controller.waits_for_tap,
        )
