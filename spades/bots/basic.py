"""``basic``: the simple rules a beginner plays by.

- It always looks at its cards (never blind nil) and bids the tricks a beginner counts:
  side-suit aces, side kings with a card under them in a suit of at most five, the top
  spades it can protect, and spades beyond the fourth. (Counting only the sure aces made
  its matches last sixty hands and more: every side made its bid with bags to spare.)
- It wins a trick cheaply while its team still needs tricks, and otherwise plays the
  lowest card that does not win.
- It never trumps or overtakes a partner's winning card.
- It cashes a top card when it has one and otherwise leads low from its longest side suit.

The rules are deterministic; the seed is accepted for the common ``make_bot`` signature.
"""

from __future__ import annotations

from spades.bots.base import register, require_turn
from spades.bots.knowledge import SIDE_SUITS, Knowledge, closest_bid, exchange_pass
from spades.engine.cards import LOOK, Action, Card, card_action
from spades.engine.observation import Observation
from spades.engine.state import SPADES, Phase


@register("basic")
class BasicBot:
    """A beginner: sure winners for the bid, cheap wins, low cards otherwise."""

    name = "basic"

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        """Choose a legal action for the observing seat."""
        require_turn(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.BIDDING:
            if observation.hand is None:
                return LOOK
            k = Knowledge(observation)
            return closest_bid(legal, max(1, counted_tricks(k)))
        k = Knowledge(observation)
        if observation.phase is Phase.EXCHANGE:
            return exchange_pass(k)
        if observation.trick:
            return card_action(_follow(k, k.legal_cards()))
        return card_action(_lead(k, k.legal_cards()))


def counted_tricks(k: Knowledge) -> int:
    """The tricks a beginner counts: side aces, side kings with a card under them in a
    suit of at most five, each spade that is the top spade once the higher ones are gone
    and has enough spades under it, and spades beyond four."""
    spades = k.my_cards(SPADES)
    top = max(k.deck.power[c] for c in k.deck.chunks(k.deck.suit_masks[SPADES]))
    count = 0
    for suit in SIDE_SUITS:
        held = k.my_cards(suit)
        for card in held:
            power = k.deck.power[card]
            count += power == 12 or (power == 11 and 2 <= len(held) <= 5)
    for card in spades:
        place = top - k.deck.power[card]
        if place < len(spades) and place <= 1:
            count += 1
    return count + max(0, len(spades) - 4)


def _team_needs_tricks(k: Knowledge) -> bool:
    if k.is_nil(k.seat):
        return False
    return k.need(k.team) > 0


def _follow(k: Knowledge, legal: list[Card]) -> Card:
    cards = sorted(legal, key=k.deck.power.__getitem__)
    following = k.suit(cards[0]) == k.led_suit
    losers = [c for c in cards if not k.wins_now(c)]
    assert k.winner is not None
    partner_winning = k.winner[0] == k.partner
    if partner_winning or not _team_needs_tricks(k):
        if losers:
            return losers[0] if following else _discard(k, losers)
        return cards[0]
    winners = [c for c in cards if k.wins_now(c)]
    if winners:
        return winners[0]
    return cards[0] if following else _discard(k, cards)


def _discard(k: Knowledge, cards: list[Card]) -> Card:
    """The lowest side card, or the lowest spade when only spades are left."""
    side = [c for c in cards if k.suit(c) != SPADES]
    return min(side or cards, key=k.deck.power.__getitem__)


def _lead(k: Knowledge, legal: list[Card]) -> Card:
    side = [c for c in legal if k.suit(c) != SPADES]
    if not side:
        spades = sorted(legal, key=k.deck.power.__getitem__)
        return spades[-1] if k.is_master(spades[-1]) else spades[0]
    for card in side:
        if k.is_master(card) and k.deck.power[card] == 12:
            return card
    longest = max(SIDE_SUITS, key=lambda s: (k.count(k.hand, s), -s))
    return min((c for c in side if k.suit(c) == longest), key=k.deck.power.__getitem__)
