"""Perft: count every legal play sequence from fixed late-hand positions through the
engine, and again with the rules restated from scratch; both counts must agree."""

from __future__ import annotations

import pytest
from engine_helpers import late_position, ref_legal_plays, ref_suit, ref_trick_winner

from spades.engine.rules import Rules
from spades.engine.state import HandState

Hands = tuple[frozenset[int], ...]


def engine_perft(state: HandState, depth_counts: list[int], depth: int = 0) -> int:
    """Play sequences of ``len(depth_counts) - 1`` plies (or to the end of the hand) from
    ``state``; ``depth_counts[d]`` counts the positions ``d`` plies in."""
    depth_counts[depth] += 1
    if state.is_over or depth == len(depth_counts) - 1:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += engine_perft(child, depth_counts, depth + 1)
    return total


def reference_perft(
    hands: Hands,
    trick: tuple[tuple[int, int], ...],
    leader: int,
    broken: bool,
    first: bool,
    rules: Rules,
    depth_counts: list[int],
    depth: int = 0,
) -> int:
    """The same count from first principles: follow suit, the spade rules, and the
    winner of each trick leads the next."""
    depth_counts[depth] += 1
    if not any(hands) or depth == len(depth_counts) - 1:
        return 1
    seat = (leader + len(trick)) % 4
    total = 0
    for card in ref_legal_plays(hands[seat], trick, broken, first, rules):
        rest = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
        played = (*trick, (seat, card))
        now_broken = broken or ref_suit(card, rules.joker_deck) == 3
        if len(played) == 4:
            winner = ref_trick_winner(played, rules.joker_deck)
            total += reference_perft(
                rest, (), winner, now_broken, False, rules, depth_counts, depth + 1
            )
        else:
            total += reference_perft(
                rest, played, leader, now_broken, first, rules, depth_counts, depth + 1
            )
    return total


# (seed, tricks left, rules, pinned number of play sequences)
POSITIONS = [
    (1, 3, Rules(), 520),
    (2, 3, Rules(), 432),
    (3, 3, Rules(jokers=True), 320),
    (4, 3, Rules(spades_lead_any_time=True), 240),
    (5, 3, Rules(no_spades_first_trick=True), 816),
    (6, 2, Rules(), 4),
    (7, 3, Rules(), 176),
    (8, 3, Rules(jokers=True), 80),
]


@pytest.mark.parametrize(("seed", "tricks_left", "rules", "pinned"), POSITIONS)
def test_perft_counts_every_legal_play_sequence(
    seed: int, tricks_left: int, rules: Rules, pinned: int
) -> None:
    state = late_position(seed, tricks_left, rules)
    assert 13 - len(state.tricks) == tricks_left and not state.trick
    plies = 4 * tricks_left + 1
    engine_nodes = [0] * plies
    reference_nodes = [0] * plies
    engine_total = engine_perft(state.clone(), engine_nodes)
    hands = tuple(frozenset(state.hand(s)) for s in range(4))
    reference_total = reference_perft(
        hands, (), state.leader, state.spades_broken, False, rules, reference_nodes
    )
    assert engine_total == reference_total
    assert engine_nodes == reference_nodes
    assert engine_total == pinned


OPENINGS = [
    (21, Rules(), 296),
    (22, Rules(no_spades_first_trick=True), 266),
    (23, Rules(spades_lead_any_time=True), 356),
    (24, Rules(jokers=True), 165),
    (25, Rules(no_spades_first_trick=True, spades_lead_any_time=True), 188),
]


@pytest.mark.parametrize(("seed", "rules", "pinned"), OPENINGS)
def test_perft_of_the_first_trick_under_the_first_lead_rules(
    seed: int, rules: Rules, pinned: int
) -> None:
    state = late_position(seed, 13, rules)
    engine_nodes = [0] * 5
    reference_nodes = [0] * 5
    engine_total = engine_perft(state.clone(), engine_nodes)
    hands = tuple(frozenset(state.hand(s)) for s in range(4))
    reference_perft(hands, (), state.leader, False, True, rules, reference_nodes)
    assert engine_nodes == reference_nodes
    assert engine_total == pinned
