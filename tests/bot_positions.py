"""Scripted positions shared by the bot and hint tests: four hands as rows of card
codes in seat order North, East, South, West."""

from __future__ import annotations

from engine_helpers import cards

from spades.engine.cards import Action, bid_action
from spades.engine.rules import Rules
from spades.engine.state import HandState

# Position: West dealt, so North bids first and leads; South holds K♥ 10♥ 4♥.
NIL_COVER_HANDS = (
    "9H 2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",
    "2H 3H 6C 7C 8C 7D 8D 9D 5S 6S 7S 8S 9S",
    "10H KH 4H 9C 10C JC 10D JD QD 10S JS QS KS",
    "AH QH JH 8H 7H 6H 5H QC KC AC KD AD AS",
)
# Position: South dealt, so West bids first and leads; South has no hearts.
VOID_HANDS = (
    "AH KH QH 7C 8C 9C 6D 7D 8D 6S 7S 8S 9S",
    "3H 4H 5H 6H 10C JC 9D 10D JD 10S JS QS KS",
    "2C 3C 4C 5C 6C 2D 3D 4D 5D 2S 3S 4S 5S",
    "2H 7H 8H 9H 10H JH QC KC AC QD KD AD AS",
)
# The same, but West holds the top hearts.
TRUMP_HANDS = (
    "2H 7H 8H 7C 8C 9C 6D 7D 8D 6S 7S 8S 9S",
    "3H 4H 5H 6H 10C JC 9D 10D JD 10S JS QS KS",
    "2C 3C 4C 5C 6C 2D 3D 4D 5D 2S 3S 4S 5S",
    "AH KH QH 9H 10H JH QC KC AC QD KD AD AS",
)
# Position: West dealt; North cashes two aces, then leads a heart to South's A♥ 9♥.
BAGS_HANDS = (
    "AC AD 5H 2C 3C 2D 3D 6H 7H 2S 3S 4S 5S",
    "4C 5C 6C 4D 5D 10H JH QH 6S 7S 8S 9S 10S",
    "AH 9H 3H 7C 8C 9C 6D 7D 8D 9D 2H 4H JS",
    "10C JC QC KC 10D JD QD KD 8H KH QS KS AS",
)
TEXTBOOK_NIL = "2S 3S 2H 3H 4H 7H 2D 3D 5D 8D 2C 4C 6C"
ACE_KING = "AS KS QS 5S AH KH 3H AD KD 4D AC 9C 6C"


def bids(*tricks: int) -> list[Action]:
    """Bid actions for the given tricks in bidding order (0 is nil)."""
    return [bid_action(t) for t in tricks]


def position(rows: tuple[str, str, str, str], dealer: int, actions: list[Action]) -> HandState:
    """A hand from four rows of card codes (N, E, S, W), with ``actions`` applied."""
    state = HandState.from_hands(Rules(), [cards(row) for row in rows], dealer=dealer)
    for action in actions:
        state.apply(action)
    return state


def with_south(row: str, *, dealer: int = 1, rules: Rules | None = None) -> HandState:
    """A fresh hand where South holds ``row`` and the other seats share the rest."""
    south = cards(row)
    rest = [c for c in range(52) if c not in south]
    hands = [rest[0:13], rest[13:26], south, rest[26:39]]
    return HandState.from_hands(rules or Rules(), hands, dealer=dealer)


# Position: West dealt, so North leads; South holds 3♣ 10♣ K♣ behind East.
BUST_HANDS = (
    "2C 4C 5C 6C 2D 3D 4D 5D 2H 3H 2S 3S 4S",
    "9C 7C 8C 6D 7D 8D 4H 5H 6H 5S 6S 7S 8S",
    "3C 10C KC 9D 10D JD 7H 8H 9H 9S 10S JS QS",
    "JC QC AC QD KD AD 10H JH QH KH AH KS AS",
)
