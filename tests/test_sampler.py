"""The expert's deal sampler: every deal agrees with what the seat knows, the draws are
uniform over those deals, and bids shift the weights the way a reader of bids expects."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from engine_helpers import finish_bidding_randomly, late_position, random_rules

from spades.bots.sampler import DealSampler, InconsistentObservation
from spades.engine.cards import FULL_DECK, bid_action, parse_card
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase, deck_for


def _check_deal(obs: Observation, deal: tuple[int, int, int, int]) -> None:
    deck = deck_for(obs.rules.joker_deck)
    assert deal[obs.seat] == obs.hand_mask
    assert deal[0] | deal[1] | deal[2] | deal[3] | obs.played_mask == FULL_DECK
    assert sum(m.bit_count() for m in deal) + obs.played_mask.bit_count() == 52
    for seat in range(4):
        assert deal[seat].bit_count() == obs.hand_sizes[seat]
        assert not deal[seat] & obs.played_mask
        for suit in range(4):
            if obs.known_voids()[seat] >> suit & 1:
                assert not deal[seat] & deck.suit_masks[suit], (seat, suit)
    if obs.received:
        unplayed = [c for c in obs.passed if not obs.played_mask >> c & 1]
        assert all(deal[obs.partner] >> c & 1 for c in unplayed)


def test_every_sampled_deal_agrees_with_hand_played_cards_voids_and_sizes() -> None:
    rng = random.Random(11)
    checked = voids_seen = 0
    for seed in range(60):
        rules = random_rules(random.Random(seed))
        state = HandState.deal(rules, dealer=seed % 4, seed=seed, scores=(0, 150))
        finish_bidding_randomly(state, rng)
        for _ in range(rng.randrange(1, 48)):
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        assert seat is not None
        obs = state.observation(seat)
        voids_seen += any(obs.known_voids())
        sampler = DealSampler(obs, bid_weight=True)
        for _ in range(20):
            deal, weight = sampler.sample(rng)
            _check_deal(obs, deal)
            assert 0 < weight <= 1
            checked += 1
    assert checked == 1200 and voids_seen > 10


def test_cards_passed_in_the_exchange_stay_with_the_partner() -> None:
    rules = Rules(blind_nil_exchange=True)
    rng = random.Random(5)
    for seed in range(40):
        state = HandState.deal(rules, dealer=3, seed=seed, scores=(0, 200))
        # North bids blind nil; the exchange follows the bidding.
        state.apply(66)
        while state.phase is Phase.BIDDING:
            legal = [a for a in state.legal_actions() if a != 66]
            state.apply(rng.choice(legal))
        while state.phase is Phase.EXCHANGE:
            state.apply(rng.choice(state.legal_actions()))
        for _ in range(rng.randrange(0, 20)):
            state.apply(rng.choice(state.legal_actions()))
        obs = state.observation(2) if state.current_player != 0 else state.observation(0)
        assert obs.received
        sampler = DealSampler(obs)
        for _ in range(10):
            deal, _ = sampler.sample(rng)
            _check_deal(obs, deal)


def _consistent_deals(obs: Observation) -> list[tuple[int, int, int, int]]:
    """Every deal that agrees with the observation, by brute force."""
    deck = deck_for(obs.rules.joker_deck)
    others = [s for s in range(4) if s != obs.seat]
    unseen = [c for c in range(52) if obs.unseen_mask >> c & 1]
    voids = obs.known_voids()
    deals = set()
    for order in itertools.permutations(unseen):
        hands = [0, 0, 0, 0]
        hands[obs.seat] = obs.hand_mask
        start = 0
        for seat in others:
            size = obs.hand_sizes[seat]
            for card in order[start : start + size]:
                hands[seat] |= 1 << card
            start += size
        if all(
            not (voids[s] >> deck.suit[c] & 1)
            for s in others
            for c in range(52)
            if hands[s] >> c & 1
        ):
            deals.add((hands[0], hands[1], hands[2], hands[3]))
    return sorted(deals)


def _late_position_with_voids() -> Observation:
    """A seeded position, two tricks from the end, where someone has shown a void that
    rules out some of the deals."""
    for seed in range(500):
        state = late_position(seed, 2)
        seat = state.current_player
        assert seat is not None
        obs = state.observation(seat)
        if any(obs.known_voids()[s] & ~(1 << 3) for s in range(4) if s != seat):
            deals = _consistent_deals(obs)
            if 4 <= len(deals) < 90:
                return obs
    raise AssertionError("no seeded position with voids found")


def test_draws_are_uniform_over_the_deals_that_agree_with_the_voids() -> None:
    obs = _late_position_with_voids()
    deals = _consistent_deals(obs)
    sampler = DealSampler(obs)
    rng = random.Random(3)
    per_deal = 300
    counts = Counter(sampler.sample(rng)[0] for _ in range(per_deal * len(deals)))
    assert set(counts) == set(deals)
    # Pearson's chi-square against the uniform law; the bound is far in the tail of the
    # chi-square law with len(deals) - 1 degrees of freedom (mean k, sd sqrt(2k)).
    chi2 = sum((counts[d] - per_deal) ** 2 / per_deal for d in deals)
    k = len(deals) - 1
    assert chi2 < k + 5 * (2 * k) ** 0.5


def test_a_seat_void_in_every_unseen_suit_is_inconsistent() -> None:
    obs = _late_position_with_voids()
    other = next(s for s in range(4) if s != obs.seat and obs.hand_sizes[s])
    all_void = tuple(0b1111 if s == other else v for s, v in enumerate(obs.known_voids()))

    class Voided(Observation):
        __slots__ = ()

        def known_voids(self) -> tuple[int, int, int, int]:
            return (all_void[0], all_void[1], all_void[2], all_void[3])

    fields = {name: getattr(obs, name) for name in Observation.__slots__}
    with pytest.raises(InconsistentObservation):
        DealSampler(Voided(**fields))


def test_a_nil_bidder_is_weighted_away_from_the_ace_of_spades() -> None:
    state = HandState.deal(Rules(), dealer=2, seed=4)
    ace = parse_card("AS")
    watcher = next(s for s in range(4) if not state.initial_hands[s] >> ace & 1)
    nil_seat = next(s for s in range(4) if s != watcher)
    while state.phase is Phase.BIDDING:
        seat = state.current_player
        state.apply(bid_action(0 if seat == nil_seat else 3))
    sampler = DealSampler(state.observation(watcher), bid_weight=True)
    rng = random.Random(8)
    plain = weighted = total = 0.0
    for _ in range(3000):
        deal, weight = sampler.sample(rng)
        holds = deal[nil_seat] >> ace & 1
        plain += holds
        weighted += weight * holds
        total += weight
    assert plain / 3000 > 0.25
    assert weighted / total < 0.1
