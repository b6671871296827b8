"""The bots' fast random playouts follow the engine's rules card by card."""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_rules, snapshot

from spades.cards import cards_mask
from spades.playout import finish_bidding, random_playout
from spades.rules import Rules
from spades.state import SPADES, HandState, Phase, legal_play_mask


def engine_playout(state: HandState, rng: random.Random) -> list[int]:
    """The same random playout through the checked API: the k-th legal card, sorted."""
    state = state.clone()
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    return state.tricks_won


def _positions(count: int) -> list[HandState]:
    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        rules = random_rules(rng)
        state = finish_bidding(
            HandState.deal(rules, dealer=seed % 4, seed=seed, scores=(0, 200)), rng
        )
        for _ in range(rng.randrange(52)):
            state.apply(rng.choice(state.legal_actions()))
        positions.append(state)
    return positions


POSITIONS = _positions(120)


def test_random_playout_makes_the_same_choices_as_the_engine() -> None:
    for index, state in enumerate(POSITIONS):
        for draw in range(3):
            fast = random_playout(state, random.Random(index * 10 + draw))
            slow = engine_playout(state, random.Random(index * 10 + draw))
            assert fast == slow, (index, state.rules)


def test_random_playout_ends_with_13_tricks_and_leaves_the_state_alone() -> None:
    for index, state in enumerate(POSITIONS):
        before = snapshot(state)
        won = random_playout(state, random.Random(index))
        assert sum(won) == 13
        assert all(w >= t for w, t in zip(won, state.tricks_won, strict=True))
        assert snapshot(state) == before


def test_legal_play_mask_matches_the_engine_at_every_card() -> None:
    rng = random.Random(0)
    checked = 0
    for state in POSITIONS[:40]:
        state = state.clone()
        rules = state.rules
        while not state.is_over:
            masks = state.deck.suit_masks
            seat = state.current_player
            assert seat is not None
            trick = state.trick
            mask = legal_play_mask(
                state.hands[seat],
                len(trick),
                masks[state.deck.suit[trick[0]]] if trick else 0,
                state.spades_broken,
                not state.tricks,
                rules.spades_lead_any_time,
                rules.no_spades_first_trick,
                masks[SPADES],
            )
            assert mask == cards_mask(state.legal_actions())
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 500


def test_random_playout_before_the_play_changes_nothing() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=1)
    assert random_playout(state, random.Random(1)) == [0, 0, 0, 0]


@pytest.mark.parametrize("seed", range(5))
def test_finish_bidding_returns_a_copy_ready_to_play(seed: int) -> None:
    rules = Rules(blind_nil_exchange=True, blind_nil_deficit=0)
    state = HandState.deal(rules, dealer=seed % 4, seed=seed)
    before = snapshot(state)
    ready = finish_bidding(state, random.Random(seed))
    assert ready.phase is Phase.PLAYING
    assert all(bid is not None for bid in ready.bids)
    assert all(len(ready.hand(s)) == 13 for s in range(4))
    assert snapshot(state) == before
