"""What a seat may do now, in the engine's words: the action a click on a card in the hand
stands for, why a bid or card is refused to a seat (another seat is to act, or the
engine's own reason), and who made each move of the hand in play. The Play controller and
a shared table answer their pages with these.
"""

from __future__ import annotations

from collections.abc import Sequence

from spades.engine.cards import EXCHANGE_BASE, Action, Card, Seat, card_action, hand_cards
from spades.engine.match import Match
from spades.engine.observation import Phase
from spades.engine.state import HandState, IllegalAction


def hand_card_action(phase: Phase, card: Card) -> Action:
    """The action a click on ``card`` in the hand stands for in ``phase``: pass it in the
    exchange, else play it.

    >>> hand_card_action(Phase.EXCHANGE, 51) - EXCHANGE_BASE, hand_card_action(Phase.PLAYING, 51)
    (51, 51)
    """
    return EXCHANGE_BASE + card if phase is Phase.EXCHANGE else card_action(card)


def seat_why_not(hand: HandState, seat: Seat, action: Action, players: Sequence[str]) -> str | None:
    """Why ``seat`` may not take ``action`` in ``hand`` now, in the engine's words, or None:
    another seat is to act (named from ``players``), or the engine refuses it."""
    current = hand.current_player
    if current is None:
        return "The hand is over"
    if current != seat:
        doing = "bid" if hand.phase is Phase.BIDDING else "play"
        return f"Wait for your turn: {players[current]} is to {doing}"
    try:
        hand.verify(action)
    except IllegalAction as err:
        return str(err)
    return None


def hand_actors(match: Match) -> list[Seat]:
    """The seat behind each move of the hand in play, in order: the hand is dealt again
    from its cards and its moves replayed (a match's earlier hands are not)."""
    hand = match.hand
    again = HandState.from_hands(
        match.rules,
        [hand_cards(cards) for cards in hand.initial_hands],
        dealer=hand.dealer,
        scores=match.scores,
        bags=match.bags,
        out=hand.out,
    )
    seats: list[Seat] = []
    for action in hand.history:
        seat = again.current_player
        assert seat is not None, "a move was made by a seat to act"
        seats.append(seat)
        again.apply(action)
    return seats
