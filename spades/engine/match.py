"""A match: hands in order, the dealer's rotation, running scores and bags, the winner.

Everything follows from (rules, seed, actions): the seed fixes the first dealer and every
deal, and the actions are applied in order, hand after hand.

The seed is an int; anything else, a bool included, raises ``ValueError``.

The scores and bags are one a side: a team, or in cutthroat a player, and the winner is
a side (see :meth:`~spades.engine.rules.Rules.sides`).

Three-handed cutthroat knocks a player at or below the mercy score out (:attr:`Match.out`,
see :func:`spades.engine.scoring.match_outcome`): the other two play on. The hands after that
are still dealt three-handed, the cards of the seat that is out left out unseen, and the
deal passes over that seat: it rotates among the players in, so the dealer, who bids
last, is always one of them. The score and bags of a seat that is out stay as they were.

>>> from spades.engine.rules import Rules
>>> m = Match(Rules(), seed=3)
>>> m.hand.dealer == m.first_dealer, m.scores, m.bags
(True, (0, 0), (0, 0))
>>> Match(Rules(), seed=True)
Traceback (most recent call last):
...
ValueError: seed must be an int, not True
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from spades.engine.cards import Action, Seat
from spades.engine.events import Event
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.scoring import HandResult, Outcome, match_outcome
from spades.engine.state import HandState


def _deal_seed(seed: int, index: int) -> int:
    """The shuffle seed of hand ``index`` of a match seeded with ``seed``."""
    return random.Random(f"spades:{seed}:{index}").getrandbits(64)


class Match:
    """A match to the target score. Drive it with :meth:`apply`; it deals on by itself."""

    __slots__ = (
        "rules",
        "seed",
        "first_dealer",
        "hand",
        "finished",
        "results",
        "scores",
        "bags",
        "outcome",
    )

    rules: Rules
    seed: int
    first_dealer: Seat
    hand: HandState
    finished: list[HandState]
    results: list[HandResult]
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    outcome: Outcome

    def __init__(self, rules: Rules, *, seed: int) -> None:
        if not isinstance(rules, Rules):
            raise TypeError("rules must be a Rules")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an int, not {seed!r}")
        self.rules = rules
        self.seed = seed
        self.first_dealer = random.Random(f"spades:{seed}:dealer").randrange(rules.players)
        self.finished = []
        self.results = []
        zeros = (0,) * len(rules.sides())
        self.scores = zeros
        self.bags = zeros
        self.outcome = match_outcome(rules, zeros)
        self.hand = self._deal()

    @classmethod
    def replay(cls, rules: Rules, *, seed: int, actions: Iterable[Action]) -> Match:
        """Rebuild a match from its seed and actions (raises ``IllegalAction``, and
        ``ValueError`` for a seed that is not an int, as the constructor does)."""
        match = cls(rules, seed=seed)
        for action in actions:
            match.apply(action)
        return match

    def clone(self) -> Match:
        """An independent copy. The hands that are over are shared: nothing changes them
        again (:meth:`undo` takes back into a copy of one), so a copy costs one hand's.

        >>> m = Match(Rules(), seed=3)
        >>> other = m.clone()
        >>> event = other.apply(other.legal_actions()[0])
        >>> m.ply, other.ply
        (0, 1)
        """
        other = Match.__new__(Match)
        other.rules = self.rules
        other.seed = self.seed
        other.first_dealer = self.first_dealer
        other.finished = self.finished[:]
        other.results = self.results[:]
        other.scores = self.scores
        other.bags = self.bags
        other.outcome = self.outcome
        other.hand = other.finished[-1] if self.is_over else self.hand.clone()
        return other

    def _deal(self) -> HandState:
        index = len(self.finished)
        out = self.outcome.out
        dealer = self.first_dealer
        if index:
            # Clockwise from the last dealer, over any seat that is out.
            dealer = (self.finished[-1].dealer + 1) % self.rules.players
            while dealer in out:
                dealer = (dealer + 1) % self.rules.players
        return HandState.deal(
            self.rules,
            dealer=dealer,
            seed=_deal_seed(self.seed, index),
            scores=self.scores,
            bags=self.bags,
            out=out,
        )

    @property
    def is_over(self) -> bool:
        return self.outcome.over

    @property
    def winner(self) -> int | None:
        """The winning side (the team 0 N/S or 1 E/W, or in cutthroat the seat), or None
        while playing or after a draw (see :attr:`outcome`)."""
        return self.outcome.winner

    @property
    def out(self) -> tuple[Seat, ...]:
        """The seats knocked out of a three-handed match, the first one out (who finishes
        last) first; empty in every other game."""
        return self.outcome.out

    @property
    def events(self) -> list[Event]:
        """What each action of every hand did, in order (see :class:`Event`): the hands'
        logs one after the other, the match's one log."""
        hands = self.finished if self.is_over else [*self.finished, self.hand]
        return [event for hand in hands for event in hand.events]

    @property
    def history(self) -> list[Action]:
        """Every action of the match, in order (read from :attr:`events`)."""
        return [event.action for event in self.events]

    @property
    def ply(self) -> int:
        """How many actions the match has taken: ``len(self.history)``, without the list."""
        done = sum(len(hand.events) for hand in self.finished)
        return done if self.is_over else done + len(self.hand.events)

    @property
    def current_player(self) -> Seat | None:
        return None if self.is_over else self.hand.current_player

    @property
    def hand_number(self) -> int:
        """The current hand's number, from 1."""
        return len(self.finished) + (0 if self.is_over else 1)

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self.hand.legal_actions()

    def observation(self, seat: Seat) -> Observation:
        """What ``seat`` may know of the current hand (the last one once the match is over)."""
        return self.hand.observation(seat)

    def apply(self, action: Action) -> Event:
        """Apply an action to the current hand and return what happened (also kept in
        :attr:`events`): the event holds the hand's result when the action ends it.

        Raises ``IllegalAction`` (and changes nothing) for an illegal action, and
        ``ValueError`` once the match is over.
        """
        if self.is_over:
            raise ValueError("the match is over")
        event = self.hand.apply(action)
        result = event.result
        if result is None:
            return event
        self.finished.append(self.hand)
        self.results.append(result)
        sides = result.sides
        self.scores = tuple(
            score + side.points for score, side in zip(self.scores, sides, strict=True)
        )
        self.bags = tuple(side.bags_after for side in sides)
        self.outcome = match_outcome(self.rules, self.scores, self.outcome.out)
        if not self.outcome.over:
            self.hand = self._deal()
        return event

    def undo(self) -> Event:
        """Take back the last action, in whichever hand it was, and return its event, as
        python-chess's ``pop`` does: the match is then as it was before that action (a
        hand's last card takes its score back, and the deal after it goes). Raises
        ``ValueError`` before the first action.

        >>> m = Match(Rules(), seed=3)
        >>> event = m.apply(m.legal_actions()[0])
        >>> m.undo() == event, m.history
        (True, [])
        """
        hand = self.hand
        if self.is_over or not hand.events:
            if not self.finished:
                raise ValueError("there is no action to take back")
            # A copy: the hand over may be shared with a clone of this match.
            hand = self.hand = self.finished.pop().clone()
            self.results.pop()
            self.scores = hand.scores
            self.bags = hand.bags
            # As the hand before it left the match: decided from the seats out before it
            # (a seat knocked out in it is one it knocked out).
            before = self.finished[-1].out if self.finished else ()
            self.outcome = match_outcome(self.rules, hand.scores, before)
        return hand.undo()

    def places(self) -> tuple[int, ...]:
        """Each side's place as the match stands, 1 the winner's (see :class:`Outcome`):
        the sides still in by their scores, then those knocked out, a later hand's above
        an earlier one's and those of the same hand by their scores. Level sides share a
        place.

        >>> m = Match(Rules(players=3, partnerships=False), seed=1)
        >>> m.places()
        (1, 1, 1)
        """
        return self.outcome.places

    def score_history(self) -> list[tuple[int, ...]]:
        """The running scores after each finished hand."""
        totals = []
        running = (0,) * len(self.scores)
        for result in self.results:
            running = tuple(
                score + side.points for score, side in zip(running, result.sides, strict=True)
            )
            totals.append(running)
        return totals
