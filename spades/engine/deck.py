"""The deck and the trick: which suit each card plays as and how strong it is (the jokers
decks included), which card takes a trick, and which cards a hand may play.

The lowest layer of the rules after :mod:`spades.engine.cards`: :mod:`spades.engine.observation` and
:mod:`spades.engine.state` both build on it (``spades.engine.state`` re-exports its names).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Final, NamedTuple

from spades.engine.cards import (
    ADDED_BIG_JOKER,
    ADDED_JOKERS,
    ADDED_LITTLE_JOKER,
    CARDS_IN_CHUNK,
    FULL_DECK,
    NUM_CARDS,
    SUIT_MASKS,
    Card,
    JokerRanking,
    Mask,
    Seat,
    card_label,
    parse_card,
)

SPADES: Final = 3


def play_order(leader: Seat, seats: int, out: tuple[Seat, ...] = ()) -> list[Seat]:
    """The seats of a table of ``seats`` in play order from ``leader``: round the table,
    passing over the seats ``out`` (knocked out of a three-handed match).

    >>> play_order(2, 4), play_order(2, 3, out=(1,))
    ([2, 3, 0, 1], [2, 0])
    """
    order = [(leader + i) % seats for i in range(seats)]
    return [seat for seat in order if seat not in out] if out else order


def seats_after(seats: int, out: tuple[Seat, ...] = ()) -> tuple[Seat, ...]:
    """The seat that plays after each seat of a table of ``seats``, passing over the seats
    ``out`` (the seat after one that is out is the next one in).

    >>> seats_after(4), seats_after(3, out=(1,))
    ((1, 2, 3, 0), (2, 2, 0))
    """
    return tuple(play_order(seat + 1, seats, out)[0] for seat in range(seats))


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, and who won it; ``out`` names
    the seats knocked out of a three-handed match, which play no card.
    """

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat
    out: tuple[Seat, ...] = ()

    def plays(self) -> list[tuple[Seat, Card]]:
        """(seat, card) in play order (a finished trick holds one card a seat in play).

        >>> Trick(2, (5, 9, 1), 0).plays(), Trick(2, (5, 9), 0, out=(1,)).plays()
        ([(2, 5), (0, 9), (1, 1)], [(2, 5), (0, 9)])
        """
        cards = self.cards
        if not self.out:
            seats = len(cards)
            return [((self.leader + i) % seats, card) for i, card in enumerate(cards)]
        order = play_order(self.leader, len(cards) + len(self.out), self.out)
        return list(zip(order, cards, strict=True))


@dataclass(frozen=True, slots=True)
class Deck:
    """Per-rules card facts: effective suit and trick-taking power of every card.

    ``jokers`` is the ranking of the deck whose jokers replace two of its cards (None:
    no jokers there), ``jokers_added`` the 54-card deck of three players, and ``cards``
    the mask of every card in the deck; ``above_ace`` holds the trumps that rank above
    the A♠, from the lowest up.

    Two tables, derived once from :meth:`is_trump` and :meth:`beats`, serve the engine's
    play of a card: ``trump[card]``, and ``takes[other][card]``, whether ``card`` takes a
    trick from ``other``. Indexing them costs less than the calls, or than masks of 52
    bits, which Python builds anew for every operation.
    """

    jokers: JokerRanking | None
    suit: tuple[int, ...]
    power: tuple[int, ...]
    suit_masks: tuple[Mask, Mask, Mask, Mask]
    jokers_added: bool
    cards: Mask
    above_ace: tuple[Card, ...]
    trump: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    takes: tuple[tuple[bool, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = range(len(self.suit))
        object.__setattr__(self, "trump", tuple(self.is_trump(card) for card in cards))
        takes = tuple(tuple(self.beats(card, other) for card in cards) for other in cards)
        object.__setattr__(self, "takes", takes)

    def label(self, card: Card) -> str:
        return card_label(card, jokers=self.jokers)

    def is_trump(self, card: Card) -> bool:
        """Whether ``card`` is a trump: a spade, or a joker in the jokers deck.

        >>> from spades.engine.cards import BIG_JOKER, parse_card as c
        >>> deck_for(None).is_trump(c("2S")), deck_for(None).is_trump(c("AH"))
        (True, False)
        >>> deck_for(None).is_trump(BIG_JOKER), deck_for("ace").is_trump(BIG_JOKER)
        (False, True)
        >>> deck_for("ace_no_2h").is_trump(c("2D")), deck_for("deuces").is_trump(c("2D"))
        (False, True)
        """
        return self.suit[card] == SPADES

    def beats(self, card: Card, other: Card) -> bool:
        """Whether ``card``, played after ``other`` (the card led or the one winning so
        far), takes the trick from it: a higher card of its suit, or any spade over a
        side suit.

        >>> from spades.engine.cards import parse_card as c
        >>> d = deck_for(None)
        >>> d.beats(c("2S"), c("AH")), d.beats(c("KH"), c("AH")), d.beats(c("AD"), c("2H"))
        (True, False, False)
        """
        suit, other_suit = self.suit[card], self.suit[other]
        if suit == other_suit:
            return self.power[card] > self.power[other]
        return suit == SPADES

    def chunks(self, mask: Mask) -> list[Card]:
        """The sorted card ids of a mask of this deck's cards."""
        return [
            *CARDS_IN_CHUNK[0][mask & 0x1FFF],
            *CARDS_IN_CHUNK[1][mask >> 13 & 0x1FFF],
            *CARDS_IN_CHUNK[2][mask >> 26 & 0x1FFF],
            *CARDS_IN_CHUNK[3][mask >> 39 & 0x1FFF],
        ]


@dataclass(frozen=True, slots=True)
class _JokersAddedDeck(Deck):
    """The 54-card deck, whose masks hold the two jokers above the 52 cards (a class of
    its own so that the other decks' :meth:`chunks` pay nothing for them)."""

    def chunks(self, mask: Mask) -> list[Card]:
        """The sorted card ids of a mask of this deck's cards.

        >>> deck_for(None, jokers_added=True).chunks(1 << 53 | 1 << 51 | 1)
        [0, 51, 53]
        """
        cards = Deck.chunks(self, mask)
        if mask >> NUM_CARDS & 1:
            cards.append(ADDED_LITTLE_JOKER)
        if mask >> ADDED_BIG_JOKER & 1:
            cards.append(ADDED_BIG_JOKER)
        return cards


def trick_winner(deck: Deck, plays: Sequence[tuple[Seat, Card]]) -> tuple[Seat, Card]:
    """The seat and card winning a trick so far, from its (seat, card) plays in order."""
    win_seat, win_card = plays[0]
    for seat, card in plays[1:]:
        if deck.beats(card, win_card):
            win_seat, win_card = seat, card
    return win_seat, win_card


class TrickReason(Enum):
    """Why a card of a finished trick took it, or did not (:func:`trick_reasons`)."""

    #: The highest trump, and a trump was led.
    TOP_TRUMP_LED = "top_trump_led"
    #: The highest trump played on a side suit led: a trump beats every side suit.
    TOP_TRUMP = "top_trump"
    #: The highest card of the suit led, and nobody played a trump.
    TOP_OF_LED = "top_of_led"
    #: A card of the winner's own suit, lower than it.
    LOWER = "lower"
    #: A card of the suit led, beaten by a trump.
    TRUMPED = "trumped"
    #: Neither of the suit led nor a trump, so it could not win.
    OFF_SUIT = "off_suit"


def trick_reasons(deck: Deck, trick: Trick) -> tuple[Seat, dict[Seat, TrickReason]]:
    """The seat that takes ``trick`` and why each card did or did not, by the deck's own
    suits and powers (:meth:`Deck.beats`).

    >>> from spades.engine.cards import parse_card as c
    >>> won, why = trick_reasons(deck_for(None), Trick(0, (c("KH"), c("AH"), c("2S"), c("3C")), 2))
    >>> won, [reason.value for _, reason in sorted(why.items())]
    (2, ['trumped', 'trumped', 'top_trump', 'off_suit'])
    """
    plays = trick.plays()
    winner, best = trick_winner(deck, plays)
    led = deck.suit[plays[0][1]]
    reasons: dict[Seat, TrickReason] = {}
    for seat, card in plays:
        if seat == winner:
            if deck.is_trump(plays[0][1]):
                reasons[seat] = TrickReason.TOP_TRUMP_LED
            elif deck.is_trump(best):
                reasons[seat] = TrickReason.TOP_TRUMP
            else:
                reasons[seat] = TrickReason.TOP_OF_LED
        elif deck.suit[card] == deck.suit[best]:
            reasons[seat] = TrickReason.LOWER
        elif deck.suit[card] == led:
            reasons[seat] = TrickReason.TRUMPED
        else:
            reasons[seat] = TrickReason.OFF_SUIT
    return winner, reasons


#: The trumps above the A♠ in each joker ranking, from the lowest up.
_ABOVE_ACE: Final[dict[JokerRanking, tuple[str, ...]]] = {
    "ace": ("LJ", "BJ"),
    "deuces": ("2S", "2D", "LJ", "BJ"),
    "ace_no_2h": ("LJ", "BJ"),
}


@lru_cache(maxsize=5)
def deck_for(jokers: JokerRanking | None, jokers_added: bool = False) -> Deck:
    """The card facts for the standard deck, a jokers deck (``jokers``: the ranking of
    the jokers that replace the 2♣ and the 2♦ or 2♥) or the 54-card deck
    (``jokers_added``): pass the options of the table's
    :class:`~spades.engine.rules.Rules` (``Rules.joker_deck`` and ``jokers_added``).

    >>> deck = deck_for(None, jokers_added=True)
    >>> deck.power[53] > deck.power[52] > deck.power[51], deck.is_trump(52), deck.cards >> 53
    (True, True, 1)

    Under the ranking "deuces" the 2♦ is a trump between the Little Joker and the 2♠, and
    the 2♠ ranks above the A♠:

    >>> from spades.engine.cards import parse_card as c
    >>> deck = deck_for("deuces")
    >>> [deck.power[card] for card in (0, 26, c("2D"), c("2S"), c("AS"))]
    [16, 15, 14, 13, 12]
    """
    suit = [c // 13 for c in range(NUM_CARDS)]
    power = [c % 13 for c in range(NUM_CARDS)]
    masks = list(SUIT_MASKS)
    above_ace: tuple[Card, ...] = ()
    if jokers is not None:
        above_ace = tuple(parse_card(code, jokers=jokers) for code in _ABOVE_ACE[jokers])
    if jokers_added:
        suit += [SPADES, SPADES]
        power += [0, 0]
        above_ace = (ADDED_LITTLE_JOKER, ADDED_BIG_JOKER)
    for rank, card in enumerate(above_ace, start=13):
        masks[suit[card]] &= ~(1 << card)
        masks[SPADES] |= 1 << card
        suit[card] = SPADES
        power[card] = rank
    kind = _JokersAddedDeck if jokers_added else Deck
    return kind(
        jokers,
        tuple(suit),
        tuple(power),
        (masks[0], masks[1], masks[2], masks[3]),
        jokers_added,
        FULL_DECK | ADDED_JOKERS if jokers_added else FULL_DECK,
        above_ace,
    )


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
