"""Deal sampling for search bots: complete deals that agree with what one seat knows.

A seat knows its own hand, every card played, the suits each seat has shown it lacks
(:meth:`Observation.known_voids`), how many cards each seat holds, and the cards it passed
in a blind-nil exchange. :class:`DealSampler` draws the hidden cards uniformly among all
the deals that agree with those facts. Cards of one suit are interchangeable as far as the
constraints go, so an exact count of the deals (a small dynamic programme over how many
cards of each suit go to each seat) lets it draw without bias even when voids make most
random deals impossible.

Three players hold 17 cards each, and the sampler deals them (``deal[3]`` stays empty).
The card they set aside is known when it is the 2♣. The unseen cards that no player holds
(a card set aside unseen, the hand of a player knocked out) are drawn like one more
hidden hand, which no deal returns.

Bids are softer evidence. With ``bid_weight`` each draw comes with an importance weight
that says how well each bidder's original hand fits the bid, so that in weighted
averages a nil bidder rarely holds the A♠ and a bid of 5 comes with high cards.

>>> from spades.engine.rules import Rules
>>> from spades.engine.state import HandState
>>> from spades.engine.cards import parse_card
>>> import random
>>> state = HandState.deal(Rules(), dealer=0, seed=1)
>>> obs = state.observation(1)
>>> deal, weight = DealSampler(obs).sample(random.Random(0))
>>> deal[1] == obs.hand_mask, sum(m.bit_count() for m in deal)
(True, 52)
>>> weight
1.0
>>> three = HandState.deal(Rules(players=3, partnerships=False), dealer=0, seed=1)
>>> deal, _ = DealSampler(three.observation(1)).sample(random.Random(0))
>>> [hand.bit_count() for hand in deal], (deal[0] | deal[1] | deal[2]) >> parse_card("2C") & 1
([17, 17, 17, 0], 0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from spades.engine.cards import Card, Mask, Seat, cards_mask
from spades.engine.observation import Observation
from spades.engine.state import SPADES, Deck, deck_for

Deal = tuple[Mask, Mask, Mask, Mask]

# Below this weight a bid still does not rule a hand out: bots and people misbid.
_MIN_WEIGHT: Final = 0.03


class InconsistentObservation(ValueError):
    """No deal agrees with the observation (the known facts contradict each other)."""


@lru_cache(maxsize=4096)
def _splits(count: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split ``count`` cards among ``seats`` seats."""
    if seats == 1:
        return ((count,),)
    return tuple(
        (first, *rest) for first in range(count + 1) for rest in _splits(count - first, seats - 1)
    )


def _multinomial(parts: Sequence[int]) -> int:
    total = 0
    result = 1
    for part in parts:
        total += part
        result *= math.comb(total, part)
    return result


def _cards(mask: Mask) -> list[Card]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def _mask(cards: Sequence[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class DealSampler:
    """Draws full deals (four hand masks, indexed by seat) consistent with ``observation``.

    The observing seat's own hand is kept as it is; the other seats get the unseen cards.
    While the observing seat has not yet looked at its cards (a blind-nil choice), its own
    hand is drawn too. With three players the fourth mask is 0; the unseen cards no
    player holds go to that slot while drawing (it has no voids) and are dropped from
    the deal.
    """

    def __init__(
        self, observation: Observation, *, bid_weight: bool = False, use_voids: bool = True
    ) -> None:
        self.observation = observation
        self.deck: Deck = deck_for(observation.rules.joker_deck, observation.rules.jokers_added)
        me = observation.seat
        self.fixed: list[Mask] = [0, 0, 0, 0]
        hidden_seats = [s for s in observation.seats_in if s != me]
        if observation.hand is None:
            hidden_seats = list(observation.seats_in)
        else:
            self.fixed[me] = observation.hand_mask
        unseen = observation.unseen_mask
        # Cards passed to the partner in a finished exchange are in the partner's hand
        # until played.
        mate = observation.partner
        if observation.received and observation.hand is not None and mate is not None:
            self.fixed[mate] = cards_mask(observation.passed) & unseen
            unseen &= ~self.fixed[mate]
        sizes = [*observation.hand_sizes, 0][:4]
        # Three players: the spare fourth slot holds the unseen cards nobody plays.
        spare = unseen.bit_count() - sum(sizes[s] - self.fixed[s].bit_count() for s in hidden_seats)
        self.spare = observation.rules.players == 3 and spare > 0
        if self.spare:
            hidden_seats.append(3)
            sizes[3] = spare
        self.seats: tuple[Seat, ...] = tuple(hidden_seats)
        self.capacity: tuple[int, ...] = tuple(
            sizes[s] - self.fixed[s].bit_count() for s in hidden_seats
        )
        if sum(self.capacity) != unseen.bit_count() or min(self.capacity, default=0) < 0:
            raise InconsistentObservation("the hand sizes do not match the unseen cards")
        voids = [*observation.known_voids(), 0][:4] if use_voids else [0, 0, 0, 0]
        # Group the unseen cards by suit; each group may go only to the seats that have
        # not shown a void in it.
        by_allowed: dict[tuple[int, ...], list[Card]] = {}
        for suit in range(4):
            cards = _cards(unseen & self.deck.suit_masks[suit])
            if not cards:
                continue
            allowed = tuple(i for i, s in enumerate(self.seats) if not voids[s] >> suit & 1)
            if not allowed:
                raise InconsistentObservation(f"nobody can hold the unseen suit {suit}")
            by_allowed.setdefault(allowed, []).extend(cards)
        # Suits open to the same seats form one group; the least open groups come first,
        # so the last group (often open to everyone) just takes what room is left.
        self.groups: list[tuple[list[Card], tuple[int, ...]]] = sorted(
            ((cards, allowed) for allowed, cards in by_allowed.items()),
            key=lambda group: (len(group[1]), group[1]),
        )
        self.free = all(len(allowed) == len(self.seats) for _, allowed in self.groups)
        self.unseen = unseen
        self._counts: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[
            tuple[int, tuple[int, ...]],
            tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[int], int],
        ] = {}
        if not self.free and self._count(0, self.capacity) == 0:
            raise InconsistentObservation("the known voids leave no possible deal")
        self.bid_weight = bid_weight and any(
            b is not None and s != me for s, b in enumerate(observation.bids)
        )
        self._played_by = self._cards_played_by_seat()

    # ------------------------------------------------------------- uniform draws
    def _count(self, index: int, capacity: tuple[int, ...]) -> int:
        """How many ways the groups from ``index`` on fill ``capacity`` exactly."""
        if index == len(self.groups):
            return 1 if not any(capacity) else 0
        key = (index, capacity)
        cached = self._counts.get(key)
        if cached is not None:
            return cached
        total = 0
        for split, rest in self._options(index, capacity):
            total += _multinomial(split) * self._count(index + 1, rest)
        self._counts[key] = total
        return total

    def _options(
        self, index: int, capacity: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        cards, allowed = self.groups[index]
        if index == len(self.groups) - 1:
            # The last group must fill the remaining room exactly.
            split = tuple(capacity[i] for i in allowed)
            if sum(split) != len(cards) or sum(capacity) != len(cards):
                return []
            return [(split, (0,) * len(capacity))]
        options = []
        for split in _splits(len(cards), len(allowed)):
            rest = list(capacity)
            for seat_index, take in zip(allowed, split, strict=True):
                rest[seat_index] -= take
            if min(rest) >= 0:
                options.append((split, tuple(rest)))
        return options

    def sample_uniform(self, rng: random.Random) -> Deal:
        """One deal drawn uniformly among those that agree with the hard facts."""
        hands = self.fixed[:]
        if self.free:
            cards = _cards(self.unseen)
            rng.shuffle(cards)
            start = 0
            for seat, size in zip(self.seats, self.capacity, strict=True):
                hands[seat] |= _mask(cards[start : start + size])
                start += size
            return self._deal(hands)
        capacity = self.capacity
        for index, (cards, allowed) in enumerate(self.groups):
            key = (index, capacity)
            choice = self._choices.get(key)
            if choice is None:
                options = self._options(index, capacity)
                weights = [
                    _multinomial(split) * self._count(index + 1, rest) for split, rest in options
                ]
                choice = self._choices[key] = (options, weights, sum(weights))
            options, weights, total = choice
            pick = rng.randrange(total)
            chosen = 0
            while pick >= weights[chosen]:
                pick -= weights[chosen]
                chosen += 1
            split, rest = options[chosen]
            shuffled = cards[:]
            rng.shuffle(shuffled)
            start = 0
            for seat_index, take in zip(allowed, split, strict=True):
                hands[self.seats[seat_index]] |= _mask(shuffled[start : start + take])
                start += take
            capacity = rest
        return self._deal(hands)

    def _deal(self, hands: list[Mask]) -> Deal:
        """The deal of the drawn hands, without the card set aside unseen."""
        return (hands[0], hands[1], hands[2], 0 if self.spare else hands[3])

    # ---------------------------------------------------------------- bid evidence
    def _cards_played_by_seat(self) -> list[Mask]:
        played = [0, 0, 0, 0]
        for trick in self.observation.tricks:
            for seat, card in trick.plays():
                played[seat] |= 1 << card
        for seat, card in self.observation.trick:
            played[seat] |= 1 << card
        return played

    def weight(self, deal: Deal) -> float:
        """How well the deal fits the other seats' bids, between ``_MIN_WEIGHT`` and 1."""
        obs = self.observation
        weight = 1.0
        for seat, bid in enumerate(obs.bids):
            if bid is None or seat == obs.seat or obs.blind[seat]:
                continue
            original = deal[seat] | self._played_by[seat]
            if bid == 0:
                weight *= nil_fit(self.deck, original)
            else:
                weight *= bid_fit(self.deck, original, bid)
        return max(weight, _MIN_WEIGHT)

    def sample(self, rng: random.Random) -> tuple[Deal, float]:
        """One deal drawn uniformly over the hard facts, with its bid-fit weight (1.0
        when bids are not read); weighted averages over such draws follow the bids."""
        deal = self.sample_uniform(rng)
        return deal, self.weight(deal) if self.bid_weight else 1.0


def estimate_tricks(deck: Deck, hand: Mask) -> float:
    """A quick count of the tricks a 13-card hand should take (for reading bids)."""
    power = deck.power
    total = 0.0
    for suit in range(4):
        cards = _cards(hand & deck.suit_masks[suit])
        length = len(cards)
        if not length:
            continue
        ranks = sorted((power[c] for c in cards), reverse=True)
        if suit == SPADES:
            # Top spades win; length past three wins with the small ones.
            total += sum(1.0 for r in ranks if r >= 11) + sum(0.5 for r in ranks if 9 <= r <= 10)
            total += max(0, length - 3) * 0.8
        else:
            if ranks[0] >= 12:
                total += 1.0
            if length >= 2 and 11 in ranks:
                total += 0.8 if length <= 5 else 0.4
            if length >= 3 and 10 in ranks:
                total += 0.3
    return total


def bid_fit(deck: Deck, hand: Mask, bid: int) -> float:
    """A likelihood that a player bids ``bid`` with ``hand`` (a Gaussian in the error)."""
    error = estimate_tricks(deck, hand) - bid
    return math.exp(-error * error / 4.5)


def nil_fit(deck: Deck, hand: Mask) -> float:
    """A likelihood that a player bids nil with ``hand``: high cards and long spades hurt."""
    power = deck.power
    fit = 1.0
    spades = _cards(hand & deck.suit_masks[SPADES])
    for card in spades:
        if power[card] >= 12:
            fit *= 0.05
        elif power[card] == 11:
            fit *= 0.25
        elif power[card] == 10:
            fit *= 0.5
    if len(spades) >= 4:
        fit *= 0.5 ** (len(spades) - 3)
    for suit in range(3):
        cards = _cards(hand & deck.suit_masks[suit])
        if cards and power[cards[-1]] >= 12 and len(cards) <= 3:
            fit *= 0.4
    return fit
