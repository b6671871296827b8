"""The guided practice hand (the last lesson): the learner plays South against bots, with
the expert's advice at every turn and a review at the end.

The hand is the engine's; the page gets only South's
:class:`~spades.app.table_view.TableView` of it, the Play table's model, built from South's
observation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spades.app.moves import seat_why_not
from spades.app.seats import bot_seats
from spades.app.table_view import Notice, TableView, observed_view
from spades.bots.drive import drive
from spades.bots.hint import Hint, hint
from spades.engine.cards import NORTH, SEAT_NAMES, SOUTH, Action, bid_label
from spades.engine.observation import Observation
from spades.engine.state import HandState, Phase

from .positions import RULES, seeded_rng, table_bot_name
from .questions import sentence
from .views import PLAYERS


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision of the learner in the practice hand, beside the expert's advice."""

    trick: int
    action: Action
    advice: Hint

    @property
    def agreed(self) -> bool:
        """Whether the learner chose what the expert chose."""
        return self.action == self.advice.action


class PracticeHand:
    """One hand with the learner at South and bots at the other seats.

    Every action goes through the engine; before each of the learner's actions the
    expert's advice is taken, so that a different choice can be explained.
    """

    def __init__(self, seed: int, *, table_bot: str | None = None) -> None:
        from spades.bots import bot_seed, live_bot

        rng = seeded_rng("practice", seed)
        self.seed = seed
        self.state = HandState.deal(
            RULES, dealer=rng.randrange(RULES.players), seed=rng.getrandbits(32)
        )
        level = table_bot or table_bot_name()
        self.bots = {seat: live_bot(level, seed=bot_seed(seed, seat)) for seat in bot_seats(RULES)}
        self.turns: list[Turn] = []
        self.note = ""
        #: The last finished trick is shown below the table (the learner may hide it).
        self.show_last_trick = True
        self._advice: tuple[int, Hint] | None = None
        self._hinted: int | None = None
        self._bots_act()

    def _bots_act(self) -> None:
        drive(self.state, self.bots)

    @property
    def is_over(self) -> bool:
        """Whether the hand has been played out."""
        return self.state.is_over

    def observation(self) -> Observation:
        """What the learner sees now."""
        return self.state.observation(SOUTH)

    @property
    def ply(self) -> int:
        """How many actions the hand has had: a click carries it, so that a click on a
        table that has moved on since is dropped."""
        return len(self.state.history)

    @property
    def to_act(self) -> bool:
        """Whether it is the learner's turn."""
        return self.state.current_player == SOUTH

    def view(self) -> TableView:
        """The table as the learner sees it now, all of it from South's observation: the
        engine's refusals, the expert's advice once asked for on this turn, and the note
        on the learner's last choice while the hand goes on."""
        to_act = self.to_act
        seen = observed_view(
            self.observation(),
            PLAYERS,
            lambda action: seat_why_not(self.state, SOUTH, action, PLAYERS),
            ply=self.ply,
        )
        return replace(
            seen,
            human_to_act=to_act,
            hint=self.advice() if to_act and self._hinted == self.ply else None,
            notice=Notice("info", self.note) if self.note and not self.is_over else None,
            show_last_trick=self.show_last_trick,
            hints=True,
        )

    def ask_hint(self, ply: int) -> None:
        """Show the expert's advice for the learner's turn, asked on the table drawn at
        ``ply`` (a click from an earlier turn is dropped)."""
        if ply == self.ply and self.to_act:
            self._hinted = ply

    def advice(self) -> Hint:
        """The expert's choice for the learner's turn, worked out once per turn."""
        if not self.to_act:
            raise ValueError("it is not your turn")
        if self._advice is None or self._advice[0] != self.ply:
            self._advice = (self.ply, hint(self.observation()))
        return self._advice[1]

    def act(self, action: Action) -> str:
        """Apply the learner's action (or raise ``IllegalAction``), let the bots reply,
        and return the one-line note when the expert would have chosen otherwise."""
        self.state.verify(action)
        advice = self.advice()
        trick = len(self.state.tricks) + 1 if self.state.phase is Phase.PLAYING else 0
        self.state.apply(action)
        turn = Turn(trick, action, advice)
        self.turns.append(turn)
        self.note = "" if turn.agreed else _differs(self.state, turn)
        self._bots_act()
        return self.note

    def review(self) -> list[str]:
        """The end-of-hand review: bids against tricks, the points, and the choices that
        differed from the expert's."""
        result = self.state.result()
        bids, won = self.state.bids, self.state.tricks_won
        lines = [
            f"You bid {bid_label(bids[SOUTH])} and took {won[SOUTH]}; "
            f"North bid {bid_label(bids[NORTH])} and took {won[NORTH]}."
        ]
        mine = RULES.side_of(SOUTH)
        for side, seats in enumerate(RULES.sides()):
            name = "Your team" if side == mine else "/".join(SEAT_NAMES[seat] for seat in seats)
            tally = result.sides[side]
            detail = "; ".join(f"{line.text} ({line.points:+d})" for line in tally.lines)
            lines.append(f"{name}: {tally.points:+d} points ({detail or 'nothing'}).")
        agreed = sum(turn.agreed for turn in self.turns)
        lines.append(f"You chose as the expert would in {agreed} of {len(self.turns)} decisions.")
        lines += [_differs(self.state, turn) for turn in self.turns if not turn.agreed]
        return lines


def _differs(state: HandState, turn: Turn) -> str:
    where = f"Trick {turn.trick}" if turn.trick else "Bid"
    said = (
        f"{where}: you chose to {state.describe(turn.action)}; "
        f"the expert would {state.describe(turn.advice.action)}."
    )
    return f"{said} {sentence(turn.advice.reason)}" if turn.advice.reason else said
