"""The deck and the trick: which suit each card plays as and how strong it is (the jokers
deck included), which card takes a trick, and which cards a hand may play.

The lowest layer of the rules after :mod:`spades.cards`: :mod:`spades.observation` and
:mod:`spades.state` both build on it (``spades.state`` re-exports its names).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, NamedTuple

from spades.cards import (
    BIG_JOKER,
    CARDS_IN_CHUNK,
    LITTLE_JOKER,
    NUM_CARDS,
    SUIT_MASKS,
    Card,
    Mask,
    Seat,
    card_label,
)

SPADES: Final = 3


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, and who won it."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat

    def plays(self) -> list[tuple[Seat, Card]]:
        """(seat, card) in play order (a finished trick holds one card a seat)."""
        seats = len(self.cards)
        return [((self.leader + i) % seats, card) for i, card in enumerate(self.cards)]


@dataclass(frozen=True, slots=True)
class Deck:
    """Per-rules card facts: effective suit and trick-taking power of every card."""

    jokers: bool
    suit: tuple[int, ...]
    power: tuple[int, ...]
    suit_masks: tuple[Mask, Mask, Mask, Mask]

    def label(self, card: Card) -> str:
        return card_label(card, jokers=self.jokers)

    def is_trump(self, card: Card) -> bool:
        """Whether ``card`` is a trump: a spade, or a joker in the jokers deck.

        >>> from spades.cards import BIG_JOKER, parse_card as c
        >>> deck_for(False).is_trump(c("2S")), deck_for(False).is_trump(c("AH"))
        (True, False)
        >>> deck_for(False).is_trump(BIG_JOKER), deck_for(True).is_trump(BIG_JOKER)
        (False, True)
        """
        return self.suit[card] == SPADES

    def beats(self, card: Card, other: Card) -> bool:
        """Whether ``card``, played after ``other`` (the card led or the one winning so
        far), takes the trick from it: a higher card of its suit, or any spade over a
        side suit.

        >>> from spades.cards import parse_card as c
        >>> d = deck_for(False)
        >>> d.beats(c("2S"), c("AH")), d.beats(c("KH"), c("AH")), d.beats(c("AD"), c("2H"))
        (True, False, False)
        """
        suit, other_suit = self.suit[card], self.suit[other]
        if suit == other_suit:
            return self.power[card] > self.power[other]
        return suit == SPADES

    def chunks(self, mask: Mask) -> list[Card]:
        return [
            *CARDS_IN_CHUNK[0][mask & 0x1FFF],
            *CARDS_IN_CHUNK[1][mask >> 13 & 0x1FFF],
            *CARDS_IN_CHUNK[2][mask >> 26 & 0x1FFF],
            *CARDS_IN_CHUNK[3][mask >> 39 & 0x1FFF],
        ]


def trick_winner(deck: Deck, plays: Sequence[tuple[Seat, Card]]) -> tuple[Seat, Card]:
    """The seat and card winning a trick so far, from its (seat, card) plays in order."""
    win_seat, win_card = plays[0]
    for seat, card in plays[1:]:
        if deck.beats(card, win_card):
            win_seat, win_card = seat, card
    return win_seat, win_card


@lru_cache(maxsize=2)
def deck_for(jokers: bool) -> Deck:
    """The card facts for the standard deck or the jokers deck."""
    suit = [c // 13 for c in range(NUM_CARDS)]
    power = [c % 13 for c in range(NUM_CARDS)]
    masks = list(SUIT_MASKS)
    if jokers:
        for card, rank in ((LITTLE_JOKER, 13), (BIG_JOKER, 14)):
            masks[suit[card]] &= ~(1 << card)
            masks[SPADES] |= 1 << card
            suit[card] = SPADES
            power[card] = rank
    return Deck(jokers, tuple(suit), tuple(power), (masks[0], masks[1], masks[2], masks[3]))


def legal_play_mask(
    hand: int,
    trick_len: int,
    led_mask: int,
    broken: bool,
    first: bool,
    lead_free: bool,
    no_first: bool,
    spades: int,
) -> int:
    """The playable cards of ``hand`` (a bitmask): the one statement of the play rules.

    ``led_mask`` is the led suit's card mask (ignored when leading), ``first`` whether
    this is the hand's first trick, ``lead_free`` and ``no_first`` the house options
    ``spades_lead_any_time`` and ``no_spades_first_trick``.
    """
    if trick_len:
        legal = hand & led_mask
        if legal:
            return legal
        if first and no_first and hand & ~spades:
            return hand & ~spades
        return hand
    if ((not broken and not lead_free) or (first and no_first)) and hand & ~spades:
        return hand & ~spades
    return hand
