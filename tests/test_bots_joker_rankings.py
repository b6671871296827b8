"""The bots under each ranking of the jokers deck: they play whole hands legally, the
expert's rollouts order the trumps as the deck does, the sampler deals the 2♦ of the
ranking "deuces" as a spade, and the hints read it as one."""

from __future__ import annotations

import random

import pytest
from engine_helpers import cards
from test_joker_rankings import DEUCE_HANDS, DEUCES, DIAMOND_VOID_HANDS, ready

from spades.bots import make_bot
from spades.bots.hint import blunder, explain
from spades.bots.rollout import RolloutTable
from spades.bots.sampler import DealSampler
from spades.engine.cards import JOKER_RANKINGS, JokerRanking, parse_card
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase

# An expert quick enough for whole hands in a test, still searching every decision.
FAST_EXPERT = {"time_budget": 0.004}
LINE_UP = ("random", "basic", "standard", "expert")


@pytest.mark.parametrize("ranking", JOKER_RANKINGS)
def test_every_bot_plays_whole_hands_legally_under_each_joker_ranking(
    ranking: JokerRanking,
) -> None:
    rules = Rules(jokers=True, joker_ranking=ranking)
    for deal in range(2):
        bots = {
            seat: make_bot(
                LINE_UP[(seat + deal) % 4],
                seed=seat,
                **(FAST_EXPERT if LINE_UP[(seat + deal) % 4] == "expert" else {}),
            )
            for seat in range(4)
        }
        state = HandState.deal(rules, dealer=deal, seed=deal, scores=(0, 150))
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.observation(seat)
            action = bots[seat].act(view)
            assert action in state.legal_actions(), (seat, action)
            if state.phase is Phase.PLAYING:
                assert explain(view, action)
            state.apply(action)
        assert sum(state.tricks_won) == 13


@pytest.mark.parametrize("ranking", [None, *JOKER_RANKINGS])
def test_the_rollouts_order_each_suit_as_the_deck_ranks_it(ranking: JokerRanking | None) -> None:
    rules = Rules(jokers=ranking is not None, joker_ranking=ranking or "ace")
    table = RolloutTable(rules, [3, 3, 3, 3], epsilon=0.0)
    deck = table.deck
    rng = random.Random(3)
    for suit_mask in deck.suit_masks:
        suit = deck.chunks(suit_mask)
        for _ in range(200):
            held = rng.sample(suit, rng.randint(1, len(suit)))
            mask = sum(1 << card for card in held)
            by_power = sorted(held, key=deck.power.__getitem__)
            assert table.low_in(mask) == by_power[0]
            assert table.high_in(mask) == by_power[-1]
            card = rng.choice(suit)
            higher = [c for c in held if deck.power[c] > deck.power[card]]
            assert table.above(mask, card) == sum(1 << c for c in higher)


def test_a_player_who_shows_out_of_diamonds_may_still_hold_the_two_of_diamonds() -> None:
    # North leads a diamond; East, whose only "diamond" is the 2♦ (a trump), discards a
    # club: East is void in diamonds yet may hold the 2♦.
    state = ready(DIAMOND_VOID_HANDS, DEUCES)
    for card in cards("3D 4C", jokers="deuces"):
        state.apply(card)
    view = state.observation(2)
    sampler = DealSampler(view)
    rng = random.Random(2)
    two = parse_card("2D")
    holders = set()
    for _ in range(200):
        deal, _weight = sampler.sample(rng)
        holders |= {seat for seat in range(4) if deal[seat] >> two & 1}
        assert not deal[1] & sampler.deck.suit_masks[1]
    assert 1 in holders


def test_the_hints_read_the_two_of_diamonds_as_a_trump_under_deuces() -> None:
    # South, void in clubs, may trump North's club lead with the 2♦: a ruff, not a
    # discard of a diamond.
    state = ready(DEUCE_HANDS, DEUCES)
    for card in cards("3C KC", jokers="deuces"):
        state.apply(card)
    view = state.observation(2)
    two = parse_card("2D")
    assert state.deck.suit[two] == SPADES
    reason = explain(view, two)
    assert reason.startswith("Trump: you have no clubs"), reason
    assert blunder(view, two) is None
