"""The expert's heuristic rollout: a hand played out fast on bitmasks, each seat choosing by
simple card-play rules (win cheaply, duck under a nil, follow the partner), to score a
candidate card or bid.

In cutthroat every seat plays for itself: it has no partner to duck under or cover, and
each player's own bid is its contract. Only the seats in play take turns (a player
knocked out of a three-handed match sits the hand out).

It is a speed copy of the engine's play rules and trick winners: the rules themselves live
in :mod:`spades.engine.deck` and :mod:`spades.engine.state`, and ``tests/test_expert.py`` plays it
against the engine over random games under random house rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from spades.engine.cards import Card, Mask, Seat, parse_card
from spades.engine.deck import seats_after
from spades.engine.rules import Rules
from spades.engine.state import SPADES, Deck, deck_for, legal_play_mask, trick_winner

_ACE_OF_SPADES: Final = parse_card("AS")


def _lowbit(mask: Mask) -> Card:
    return (mask & -mask).bit_length() - 1


def _nth_bit(mask: Mask, n: int) -> Card:
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


class RolloutTable:
    """Per-decision constants for rollouts: the deck, the rules and the roles."""

    __slots__ = (
        "deck",
        "suits",
        "power",
        "masks",
        "spades",
        "out_of_order",
        "tops",
        "lead_free",
        "no_first",
        "nil_live",
        "live",
        "bidders",
        "contract",
        "settled",
        "epsilon",
        "players",
        "seats_in",
        "next_seat",
        "tricks",
        "mates",
        "partnerships",
        "sides",
    )

    def __init__(
        self,
        rules: Rules,
        bids: Sequence[int | None],
        *,
        epsilon: float,
        seats_in: Sequence[Seat] | None = None,
    ) -> None:
        """``bids`` are the roles of the seats (None: not bid yet), and ``seats_in`` the
        seats that play (by default every seat of the table)."""
        self.deck: Deck = deck_for(rules.joker_deck, rules.jokers_added)
        self.suits = self.deck.suit
        self.power = self.deck.power
        self.masks = self.deck.suit_masks
        self.spades = self.masks[SPADES]
        # The trumps above the A♠ whose bits are below its own (the jokers that replace
        # two cards, and under the ranking "deuces" the 2♦ and 2♠), highest first: the
        # only cards whose bit order is not their order of power.
        self.tops = [c for c in reversed(self.deck.above_ace) if c < _ACE_OF_SPADES]
        self.out_of_order = sum(1 << card for card in self.tops)
        self.lead_free = rules.spades_lead_any_time
        self.no_first = rules.no_spades_first_trick
        self.nil_live = [b == 0 for b in bids]
        self.live = self.nil_live[:]
        self.seats_in = rules.seats if seats_in is None else tuple(seats_in)
        self.players = len(self.seats_in)
        # The seat that plays after each seat in play.
        out = tuple(seat for seat in rules.seats if seat not in self.seats_in)
        self.next_seat = seats_after(rules.players, out)
        self.tricks = rules.hand_size
        self.partnerships = rules.partnerships
        # A cutthroat seat is its own "mate": every test on the mate then fails, as the
        # seat's own nil is handled first and it never wins a trick before playing to it.
        self.mates = [
            seat if (mate := rules.partner(seat)) is None else mate for seat in rules.seats
        ]
        # The seats whose tricks count toward their side's contract, and the contracts
        # of the teams, or in cutthroat of the players (0 while unknown: then nobody
        # plays for bags).
        counts_nil = rules.nil_tricks_count_toward_bid
        self.bidders = [counts_nil or b != 0 for b in bids]
        known = all(bids[s] is not None for s in self.seats_in)
        sides = rules.sides()
        self.contract = [sum(bids[s] or 0 for s in seats) if known else 0 for seats in sides]
        self.sides = sides
        self.settled = False
        self.epsilon = epsilon

    def start(self, won: Sequence[int]) -> list[bool]:
        """Set up a rollout from a position where the seats have taken ``won`` tricks: the
        nils still alive (returned, and kept for :meth:`choose`) and whether every side
        has made its contract."""
        self.live = [nil and not won[s] for s, nil in enumerate(self.nil_live)]
        self.settle(won)
        return self.live

    def settle(self, won: Sequence[int]) -> None:
        """Note whether every side has made its contract."""
        contract, bidders = self.contract, self.bidders
        if self.partnerships:
            (a, c), (b, d) = self.sides
            self.settled = bool(contract[0] or contract[1]) and (
                won[a] * bidders[a] + won[c] * bidders[c] >= contract[0]
                and won[b] * bidders[b] + won[d] * bidders[d] >= contract[1]
            )
        else:
            self.settled = any(contract) and all(won[s] >= contract[s] for s in self.seats_in)

    # Card orderings inside one suit; the trumps in :attr:`tops` are the only cards out
    # of bit order, and they rank above every other card of their suit.
    def low_in(self, mask: Mask) -> Card:
        if mask & self.out_of_order:
            plain = mask & ~self.out_of_order
            if plain:
                return _lowbit(plain)
            return next(card for card in reversed(self.tops) if mask >> card & 1)
        return _lowbit(mask)

    def high_in(self, mask: Mask) -> Card:
        if mask & self.out_of_order:
            return next(card for card in self.tops if mask >> card & 1)
        return mask.bit_length() - 1

    def lowest(self, mask: Mask) -> Card:
        """The cheapest card: the lowest side card, or the lowest spade."""
        best = -1
        for suit in range(3):
            cards = mask & self.masks[suit]
            if cards:
                card = _lowbit(cards)
                if best < 0 or card % 13 < best % 13:
                    best = card
        if best >= 0:
            return best
        return self.low_in(mask & self.spades)

    def highest(self, mask: Mask) -> Card:
        """The most dangerous card to keep: the highest, spades first on equal rank."""
        best = -1
        best_power = -1
        for suit in (SPADES, 2, 1, 0):
            cards = mask & self.masks[suit]
            if cards:
                card = self.high_in(cards)
                if self.power[card] > best_power:
                    best, best_power = card, self.power[card]
        return best

    def above(self, mask: Mask, card: Card) -> Mask:
        """The cards of ``mask`` (all of ``card``'s suit) that outrank ``card``."""
        if not self.out_of_order or not (mask | 1 << card) & self.out_of_order:
            return mask & ~((2 << card) - 1)
        power = self.power
        result = 0
        rest = mask
        while rest:
            low = rest & -rest
            other = low.bit_length() - 1
            if power[other] > power[card]:
                result |= low
            rest ^= low
        return result

    def choose(
        self,
        hands: list[Mask],
        seat: Seat,
        legal: Mask,
        trick_len: int,
        led: int,
        win_seat: Seat,
        win_card: Card,
    ) -> Card:
        """The rollout policy: win cheaply, duck a partner's winner, cover and bust nils,
        and duck once both contracts are made (every further trick is a bag)."""
        nil_live = self.live
        masks = self.masks
        mate = self.mates[seat]
        if not trick_len:
            if nil_live[seat]:
                return self.lowest(legal)
            if nil_live[mate]:
                return self.highest(legal & ~self.spades or legal)
            if self.settled:
                return self.lowest(legal)
            others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
            for suit in (0, 1, 2, SPADES):
                cards = legal & masks[suit]
                if cards:
                    top = self.high_in(cards)
                    rest = others & masks[suit]
                    if not rest or self.power[top] > self.power[self.high_in(rest)]:
                        return top
            return self.lowest(legal)
        win_suit = self.suits[win_card]
        if legal & masks[led]:
            beat = self.above(legal, win_card) if win_suit == led else 0
        elif win_suit == SPADES:
            beat = self.above(legal & self.spades, win_card)
        else:
            beat = legal & self.spades
        duck = legal & ~beat
        if nil_live[seat]:
            return self.highest(duck) if duck else self.lowest(beat)
        if win_seat == mate:
            if nil_live[mate] and beat:
                return self.lowest(beat)
            return self.lowest(duck) if duck else self.lowest(beat)
        if nil_live[win_seat] or self.settled:
            return self.highest(duck) if duck else self.lowest(beat)
        if not beat:
            return self.lowest(duck)
        players = self.players
        if trick_len < players - 1:
            # Win with the cheapest card that the players still to come cannot beat
            # (following the suit, or trumping when void); when no card is that safe,
            # second hand plays low.
            threat = 0
            later_seat = seat
            for _ in range(1, players - trick_len):
                later_seat = self.next_seat[later_seat]
                later = hands[later_seat]
                follow = later & masks[led]
                threat |= follow if follow else later & self.spades
            if led != SPADES and beat & masks[led] and threat & self.spades:
                safe = 0
            else:
                rival = threat & masks[self.suits[_lowbit(beat)]]
                safe = self.above(beat, self.high_in(rival)) if rival else beat
            if safe:
                return self.low_in(safe)
            if trick_len == 1 and duck:
                return self.lowest(duck)
        return self.lowest(beat)


def trick_start(
    deck: Deck, trick: Sequence[tuple[Seat, Card]], seat: Seat
) -> tuple[int, Seat, Card]:
    """Where a rollout starts in the current trick, for ``seat`` to play: the suit led,
    and the seat and card winning it so far (on a lead, ``seat`` and no card)."""
    if not trick:
        return 0, seat, -1
    win_seat, win_card = trick_winner(deck, trick)
    return deck.suit[trick[0][1]], win_seat, win_card


def heuristic_rollout(
    table: RolloutTable,
    hands: list[Mask],
    seat: Seat,
    trick_len: int,
    led: int,
    win_seat: Seat,
    win_card: Card,
    broken: bool,
    first: bool,
    won: list[int],
    forced: Card,
    rnd: Callable[[], float],
) -> list[int]:
    """Play the rest of the hand from raw state with the heuristic policy (``hands`` and
    ``won`` are changed), the first card being ``forced``; returns the tricks per seat."""
    suits, power, masks, spades = table.suits, table.power, table.masks, table.spades
    lead_free, no_first = table.lead_free, table.no_first
    epsilon = table.epsilon
    choose = table.choose
    players = table.players
    next_seat = table.next_seat
    left = table.tricks - sum(won)
    live = table.start(won)
    card = forced
    while True:
        hand = hands[seat]
        if card < 0:
            legal = legal_play_mask(
                hand,
                trick_len,
                masks[led] if trick_len else 0,
                broken,
                first,
                lead_free,
                no_first,
                spades,
            )
            if not legal & (legal - 1):
                card = _lowbit(legal)
            elif rnd() < epsilon:
                card = _nth_bit(legal, int(rnd() * legal.bit_count()))
            else:
                card = choose(hands, seat, legal, trick_len, led, win_seat, win_card)
        hands[seat] = hand ^ (1 << card)
        suit = suits[card]
        if suit == SPADES:
            broken = True
        if not trick_len:
            led, win_seat, win_card = suit, seat, card
        elif suit == suits[win_card]:
            if power[card] > power[win_card]:
                win_seat, win_card = seat, card
        elif suit == SPADES:
            win_seat, win_card = seat, card
        card = -1
        trick_len += 1
        if trick_len < players:
            seat = next_seat[seat]
            continue
        won[win_seat] += 1
        left -= 1
        if not left:
            return won
        live[win_seat] = False
        table.settle(won)
        trick_len = 0
        first = False
        seat = win_seat
