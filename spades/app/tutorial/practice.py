"""The guided practice hand (the last lesson): the learner plays South against bots, with
the expert's advice at every turn and a review at the end.

The hand is the engine's; the page gets only :class:`~spades.app.tutorial.views.PracticeView`,
built from South's observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spades.bots.hint import Hint, hint
from spades.cards import NORTH, SOUTH, Action, bid_action, bid_label
from spades.drive import drive
from spades.observation import Observation
from spades.state import HandState, Phase

from .positions import RULES, refusal, seeded_rng, table_bot_name
from .questions import sentence
from .views import PracticeView, table_view

#: The bids the learner is offered: nil, then 1 to 13, every trick of the hand.
BIDS: Final = tuple(range(14))


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
        from spades.bots import make_bot

        rng = seeded_rng("practice", seed)
        self.seed = seed
        self.state = HandState.deal(RULES, dealer=rng.randrange(4), seed=rng.getrandbits(32))
        level = table_bot or table_bot_name()
        self.bots = {seat: make_bot(level, seed=seed * 4 + seat) for seat in (0, 1, 3)}
        self.turns: list[Turn] = []
        self.note = ""
        self._advice: tuple[int, Hint] | None = None
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

    def view(self) -> PracticeView:
        """What the learner sees of the hand now, all of it from South's observation."""
        seen = self.observation()
        legal = frozenset(seen.legal_actions)
        bidding = seen.phase is Phase.BIDDING
        hand = seen.hand or ()
        offered = tuple(bid_action(n) for n in BIDS) if bidding else hand
        last = seen.tricks[-1] if seen.tricks else None
        return PracticeView(
            table=table_view(seen),
            bidding=bidding,
            hand=hand,
            legal=legal,
            refused={a: refusal(self.state, a) for a in offered if a not in legal},
            bids=BIDS,
            turn=len(self.state.history),
            last_trick=tuple(last.plays()) if last else (),
            last_winner=last.winner if last else None,
        )

    def describe(self, action: Action) -> str:
        """An action in words (``play A♠``, ``bid 4``), as this hand's deck names it."""
        return self.state.describe(action)

    def advice(self) -> Hint:
        """The expert's choice for the learner's turn, worked out once per turn."""
        if self.state.current_player != SOUTH:
            raise ValueError("it is not your turn")
        turn = len(self.state.history)
        if self._advice is None or self._advice[0] != turn:
            self._advice = (turn, hint(self.observation()))
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
        for team, name in ((0, "Your team"), (1, "East/West")):
            tally = result.teams[team]
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
