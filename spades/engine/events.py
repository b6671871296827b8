"""What happened: the frozen record of one applied action.

:meth:`spades.engine.state.HandState.apply` returns one and the hand keeps them in order in
its log (:attr:`~spades.engine.state.HandState.events`), as a match does for all its hands.
Whoever draws or tells a game reads who acted, what they did, which trick ended and who
won it, and how the hand scored from here, never working any of it out again.

>>> from spades.engine.rules import Rules
>>> from spades.engine.state import HandState
>>> from spades.engine.cards import bid_action
>>> hand = HandState.deal(Rules(), dealer=3, seed=7)
>>> hand.apply(bid_action(3))
Event(seat=0, action=55, trick=None, result=None)
"""

from __future__ import annotations

from typing import NamedTuple

from spades.engine.cards import Action, Seat
from spades.engine.deck import Trick
from spades.engine.scoring import HandResult


class Event(NamedTuple):
    """One action applied to a hand: the ``seat`` that acted and its ``action``; the
    ``trick`` it finished, with its winner (None unless it played a trick's last card);
    and the hand's ``result`` when it ended the hand (the last card, or a claim)."""

    seat: Seat
    action: Action
    trick: Trick | None = None
    result: HandResult | None = None
