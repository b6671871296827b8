"""What one seat may know: the only view of a hand that bots and the UI get."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from spades.engine.cards import Action, Card, Mask, Seat, cards_mask
from spades.engine.deck import SPADES, Trick, deck_for, legal_play_mask
from spades.engine.rules import Rules


class Phase(IntEnum):
    """Where a hand stands."""

    BIDDING = 0
    EXCHANGE = 1
    PLAYING = 2
    OVER = 3


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a hand.

    ``hand`` is None while a blind-nil candidate has not yet chosen blind nil or looked
    at the cards. ``legal_actions`` is empty unless it is this seat's turn. ``leader``
    leads the current trick (before the play, the first one: the dealer's left).

    The per-seat tuples have one entry a seat (four, or three in three-handed cutthroat),
    and ``scores`` and ``bags`` one a side: a team, or in cutthroat a player (see
    :meth:`~spades.engine.rules.Rules.sides`). ``set_aside`` is
    the mask of the card three players set aside when everyone knows it (the 2♣), and
    0 otherwise: a card set aside unseen stays among the unseen cards.

    ``out`` names the seats knocked out of a three-handed match by the mercy score (see
    :func:`spades.engine.scoring.match_outcome`); :attr:`seats_in` the seats that play. A seat
    that is out holds no cards, has no bid (None) and takes no tricks, and its turn is
    passed over; the 17 cards dealt to it are left out unseen, so they stay among the
    unseen cards of every view, as a card set aside unseen does.

    With the 54-card deck (``rules.jokers_added``) the cards include the jokers 52 and 53,
    which ``legal_actions`` lists by the actions that play them
    (:func:`spades.engine.cards.card_action`).
    """

    seat: Seat
    rules: Rules
    dealer: Seat
    phase: Phase
    current_player: Seat | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    tricks_won: tuple[int, ...]
    leader: Seat
    trick: tuple[tuple[Seat, Card], ...]
    tricks: tuple[Trick, ...]
    spades_broken: bool
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    can_claim: bool
    blind_nil_eligible: bool
    passed: tuple[Card, ...]
    received: tuple[Card, ...]
    set_aside: Mask = 0
    out: tuple[Seat, ...] = ()

    @property
    def team(self) -> int:
        """This seat's side: its team, or in cutthroat the seat itself."""
        return self.rules.side_of(self.seat)

    @property
    def partner(self) -> Seat | None:
        """This seat's partner, or None in cutthroat."""
        return self.rules.partner(self.seat)

    @property
    def seats_in(self) -> tuple[Seat, ...]:
        """The seats that play this hand: every seat but those knocked out."""
        return tuple(seat for seat in self.rules.seats if seat not in self.out)

    @property
    def hand_mask(self) -> Mask:
        return cards_mask(self.hand or ())

    @property
    def played_mask(self) -> Mask:
        """Every card played so far, in finished tricks and the current one."""
        mask = cards_mask(card for _, card in self.trick)
        for trick in self.tricks:
            mask |= cards_mask(trick.cards)
        return mask

    @property
    def unseen_mask(self) -> Mask:
        """The cards the other seats may hold (and the card set aside unseen, if any, and
        the cards left out with a seat knocked out)."""
        cards = deck_for(self.rules.joker_deck, self.rules.jokers_added).cards
        return cards & ~self.played_mask & ~self.hand_mask & ~self.set_aside

    def known_voids(self) -> tuple[int, ...]:
        """For each seat, a bitmask of the suits it has shown it no longer holds.

        Read from the play rule itself: a seat that played a card the rule forbids to a
        hand holding any card of some suit held none of that suit. So a seat that did not
        follow is void in the suit led, and one that led an unbroken spade, or played a
        spade to the first trick where that is barred, held nothing but spades.
        """
        rules = self.rules
        deck = deck_for(rules.joker_deck, rules.jokers_added)
        masks = deck.suit_masks
        voids: list[int] = [0] * len(self.hand_sizes)
        broken = False
        plays = [trick.plays() for trick in self.tricks]
        plays.append(list(self.trick))
        for number, trick_plays in enumerate(plays):
            if not trick_plays:
                continue
            led_mask = masks[deck.suit[trick_plays[0][1]]]
            for position, (seat, card) in enumerate(trick_plays):
                bit = 1 << card
                for suit in range(4):
                    if voids[seat] >> suit & 1:
                        continue
                    others = masks[suit] & ~bit
                    holding = bit | (others & -others)  # the card and one of the suit
                    legal = legal_play_mask(
                        holding,
                        position,
                        led_mask,
                        broken,
                        number == 0,
                        rules.spades_lead_any_time,
                        rules.no_spades_first_trick,
                        masks[SPADES],
                    )
                    if not legal & bit:
                        voids[seat] |= 1 << suit
                broken = broken or deck.suit[card] == SPADES
        return tuple(voids)
