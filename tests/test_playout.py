"""The bots' batched random playouts follow the engine's rules card by card."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from engine_helpers import random_rules, snapshot

from spades.bots.playout import (
    PlayoutBatch,
    bench_playouts,
    finish_bidding,
    legal_play_masks,
    random_playouts,
    random_playouts_of,
)
from spades.engine.cards import JOKER_RANKINGS, JokerRanking, cards_mask
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase, deck_for, legal_play_mask


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


def _alike(seed: int, count: int) -> list[HandState]:
    """``count`` different deals under one random set of rules, each played at random to
    the same random point of the hand, at least one trick before its end (so that their
    plays can differ)."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    cards_played = rng.randrange(48)
    states = []
    for deal in range(count):
        state = finish_bidding(
            HandState.deal(rules, dealer=deal % 4, seed=seed * 100 + deal, scores=(0, 200)), rng
        )
        for _ in range(cards_played):
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


POSITIONS = _positions(120)
GROUPS = [_alike(seed, 6) for seed in range(40)]


def _cards_left(state: HandState) -> int:
    return sum(len(state.hand(seat)) for seat in range(4))


def _replayed(state: HandState, cards: np.ndarray) -> list[int]:
    """The engine's tricks after playing ``cards`` from ``state`` through the checked API,
    which raises on any illegal card."""
    state = state.clone()
    for card in cards:
        state.apply(int(card))
    assert state.is_over
    return state.tricks_won


@pytest.mark.parametrize(
    ("jokers", "lead_free", "no_first"),
    list(itertools.product([None, *JOKER_RANKINGS], [False, True], [False, True])),
)
def test_legal_play_masks_is_the_engine_rule_over_arrays(
    jokers: JokerRanking | None, lead_free: bool, no_first: bool
) -> None:
    rng = np.random.default_rng(7)
    size = 4000
    masks = deck_for(jokers).suit_masks
    # Small random hands, so that voids, spade-only hands and single cards are common.
    hands = np.zeros(size, dtype=np.uint64)
    for row in range(size):
        for card in rng.choice(52, size=rng.integers(1, 14), replace=False):
            hands[row] |= np.uint64(1) << np.uint64(card)
    trick_len = rng.integers(0, 4, size=size).astype(np.intp)
    led_mask = np.array(masks, dtype=np.uint64)[rng.integers(0, 4, size=size)]
    broken = rng.random(size) < 0.5
    first = rng.random(size) < 0.5
    fast = legal_play_masks(
        hands, trick_len, led_mask, broken, first, lead_free, no_first, masks[SPADES]
    )
    kinds = set()
    for row in range(size):
        hand, led = int(hands[row]), int(led_mask[row])
        slow = legal_play_mask(
            hand,
            int(trick_len[row]),
            led,
            bool(broken[row]),
            bool(first[row]),
            lead_free,
            no_first,
            masks[SPADES],
        )
        assert int(fast[row]) == slow, row
        kinds.add("whole hand" if slow == hand else "follow" if slow == hand & led else "side")
    expected = {"whole hand", "follow"} | ({"side"} if no_first or not lead_free else set())
    assert kinds == expected


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


def test_every_batched_card_is_legal_and_the_tricks_are_the_engines() -> None:
    for index, group in enumerate(GROUPS):
        states = group * 4
        plays = np.full((len(states), _cards_left(group[0])), -1, dtype=np.int8)
        won = random_playouts_of(states, np.random.default_rng(index), plays=plays)
        for state, cards, tricks in zip(states, plays, won, strict=True):
            assert _replayed(state, cards) == tricks.tolist(), (index, state.rules)


@pytest.mark.parametrize("ranking", JOKER_RANKINGS)
def test_batched_playouts_are_the_engines_tricks_under_each_joker_ranking(
    ranking: JokerRanking,
) -> None:
    rules = Rules(jokers=True, joker_ranking=ranking)
    rng = random.Random(ranking)
    for cards_played in (0, 17, 30):
        states = []
        for deal in range(4):
            state = finish_bidding(HandState.deal(rules, dealer=deal, seed=deal), rng)
            for _ in range(cards_played):
                state.apply(rng.choice(state.legal_actions()))
            states.append(state)
        plays = np.full((len(states) * 3, _cards_left(states[0])), -1, dtype=np.int8)
        won = random_playouts_of(states * 3, np.random.default_rng(cards_played), plays=plays)
        for state, cards, tricks in zip(states * 3, plays, won, strict=True):
            assert _replayed(state, cards) == tricks.tolist()


def test_single_positions_anywhere_in_the_hand_play_out_as_the_engine_allows() -> None:
    for index, state in enumerate(POSITIONS):
        plays = np.full((3, _cards_left(state)), -1, dtype=np.int8)
        won = random_playouts_of([state] * 3, np.random.default_rng(index), plays=plays)
        for cards, tricks in zip(plays, won, strict=True):
            assert _replayed(state, cards) == tricks.tolist(), (index, state.rules)


def test_every_game_ends_with_13_tricks_and_the_states_are_left_alone() -> None:
    for index, group in enumerate(GROUPS):
        before = [snapshot(state) for state in group]
        batch = PlayoutBatch.of(group)
        arrays = [array.copy() for array in vars(batch).values()]
        won = random_playouts(batch, group[0].rules, np.random.default_rng(index))
        assert (won.sum(axis=1) == 13).all()
        assert (won >= batch.won).all()
        assert [snapshot(state) for state in group] == before
        for array, kept in zip(vars(batch).values(), arrays, strict=True):
            assert (array == kept).all()


def test_the_first_card_is_chosen_uniformly_among_the_legal_cards() -> None:
    state = finish_bidding(HandState.deal(Rules(), dealer=0, seed=3), random.Random(3))
    legal = state.legal_actions()
    assert len(legal) >= 5
    games = 300 * len(legal)
    plays = np.zeros((games, 52), dtype=np.int8)
    random_playouts_of([state] * games, np.random.default_rng(0), plays=plays)
    counts = np.bincount(plays[:, 0], minlength=52)
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = games / len(legal)
    chi_square = float((((counts[legal] - expected) ** 2) / expected).sum())
    # Far above the 99.9th percentile for these degrees of freedom, yet far below the
    # thousands that a lean towards any card gives over this many games.
    assert chi_square < 3 * (len(legal) - 1) + 30


def test_the_forced_first_card_is_played_and_the_rest_is_random() -> None:
    state = finish_bidding(HandState.deal(Rules(), dealer=1, seed=5), random.Random(5))
    legal = state.legal_actions()
    forced = np.repeat(np.array(legal, dtype=np.intp), 20)
    plays = np.zeros((len(forced), 52), dtype=np.int8)
    won = random_playouts_of(
        [state] * len(forced), np.random.default_rng(1), first_cards=forced, plays=plays
    )
    assert (plays[:, 0] == forced).all()
    assert len({tuple(row) for row in plays[:20, 1:]}) > 1
    for cards, tricks in zip(plays, won, strict=True):
        assert _replayed(state, cards) == tricks.tolist()


def test_games_sharing_random_numbers_play_alike_from_the_same_position() -> None:
    for index, group in enumerate(GROUPS[:12]):
        states = [state for state in group for _ in range(3)]
        plays = np.full((len(states), _cards_left(group[0])), -1, dtype=np.int8)
        batch = PlayoutBatch.of(states)
        won = random_playouts(
            batch, group[0].rules, np.random.default_rng(index), plays=plays, common=3
        )
        runs = plays.reshape(len(group), 3, -1)
        assert (runs == runs[:, :1]).all()
        assert len({tuple(run[0]) for run in runs}) == len(group)
        for state, cards, tricks in zip(states, plays, won, strict=True):
            assert _replayed(state, cards) == tricks.tolist(), (index, state.rules)


def test_shared_random_numbers_keep_forced_first_cards_legal_and_the_rest_random() -> None:
    state = finish_bidding(HandState.deal(Rules(), dealer=1, seed=5), random.Random(5))
    legal = state.legal_actions()
    runs = 40
    forced = np.tile(np.array(legal, dtype=np.intp), runs)
    plays = np.zeros((len(forced), 52), dtype=np.int8)
    won = random_playouts(
        PlayoutBatch.of([state] * len(forced)),
        state.rules,
        np.random.default_rng(3),
        first_cards=forced,
        plays=plays,
        common=len(legal),
    )
    assert (plays[:, 0] == forced).all()
    assert len({tuple(row) for row in plays[:: len(legal), 1:]}) == runs
    for cards, tricks in zip(plays, won, strict=True):
        assert _replayed(state, cards) == tricks.tolist()
    with pytest.raises(ValueError, match="common must be a positive divisor of the 6 games"):
        random_playouts(
            PlayoutBatch.of([state] * 6), state.rules, np.random.default_rng(0), common=4
        )


def test_an_illegal_forced_first_card_is_refused() -> None:
    state = finish_bidding(HandState.deal(Rules(), dealer=1, seed=5), random.Random(5))
    assert state.current is not None
    held = state.hand((state.current + 1) % 4)[0]
    with pytest.raises(ValueError, match="not legal in game 0"):
        random_playouts_of([state], np.random.default_rng(1), first_cards=np.array([held]))


def test_games_with_different_numbers_of_cards_left_are_refused() -> None:
    start = finish_bidding(HandState.deal(Rules(), dealer=0, seed=2), random.Random(2))
    later = start.clone()
    later.apply(later.legal_actions()[0])
    with pytest.raises(ValueError, match="same number of cards left: game 0 has 52, game 1"):
        random_playouts_of([start, later], np.random.default_rng(0))


def test_a_batch_takes_one_set_of_rules_and_only_hands_in_the_play() -> None:
    start = finish_bidding(HandState.deal(Rules(), dealer=0, seed=2), random.Random(2))
    other = finish_bidding(HandState.deal(Rules(jokers=True), dealer=0, seed=2), random.Random(2))
    with pytest.raises(ValueError, match="state 1 is played under other rules"):
        random_playouts_of([start, other], np.random.default_rng(0))
    with pytest.raises(ValueError, match="state 0 is not in the play phase"):
        random_playouts_of([HandState.deal(Rules(), dealer=0, seed=1)], np.random.default_rng(0))


def test_random_playouts_are_reproducible_from_the_seed() -> None:
    group = GROUPS[0]
    first = random_playouts_of(group * 10, np.random.default_rng(42))
    again = random_playouts_of(group * 10, np.random.default_rng(42))
    assert (first == again).all()


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


def test_the_bench_plays_whole_batches_of_full_hands() -> None:
    figures = bench_playouts(0, size=64)
    assert figures["playout_batch"] == 64
    assert figures["fast_playouts_per_s"] > 0
