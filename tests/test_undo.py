"""Undo: ``Match.undo`` takes back the last action, as python-chess's ``pop`` does. After
any number of undos the match is the one replayed from the shorter history, in every
hand, across the end of a hand and of the match, in every game the rules allow."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_helpers import random_rules, snapshot
from hypothesis import example, given, settings
from hypothesis import strategies as st

from spades.engine.cards import CLAIM, bid_action
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.state import HandState

CUTTHROAT = (
    Rules(players=3, partnerships=False, mercy_score=-100, target_score=300),
    Rules(players=4, partnerships=False, target_score=300),
    Rules(players=3, partnerships=False, jokers=True, set_aside="random"),
)


def state_of(match: Match) -> dict[str, Any]:
    """All a match is: its totals, its outcome, every hand's every slot, and its log."""
    return {
        "scores": match.scores,
        "bags": match.bags,
        "outcome": match.outcome,
        "results": list(match.results),
        "finished": [snapshot(hand) for hand in match.finished],
        "hand": snapshot(match.hand),
        "events": match.events,
        "legal": match.legal_actions(),
        "ply": match.ply,
    }


def play(match: Match, rng: random.Random, actions: int) -> None:
    """Up to ``actions`` random moves, claims among them, and low bids now and then so
    that contracts are made and matches end."""
    for _ in range(actions):
        if match.is_over:
            return
        hand = match.hand
        if hand.can_claim() and rng.random() < 0.3:
            match.apply(CLAIM)
            continue
        legal = match.legal_actions()
        low = bid_action(1)
        match.apply(low if low in legal and rng.random() < 0.6 else rng.choice(legal))


@settings(max_examples=60, deadline=None)
# Three-handed: the hand after a player is knocked out, taken back to its deal, leaves the
# match as the knock-out left it (once decided as if the player had been out before).
@example(seed=98, actions=133, back=1, game=-1)
@given(
    seed=st.integers(0, 2**32),
    actions=st.integers(1, 700),
    back=st.integers(1, 80),
    game=st.integers(-len(CUTTHROAT), 9),
)
def test_undo_leaves_the_match_replayed_from_the_shorter_history(
    seed: int, actions: int, back: int, game: int
) -> None:
    rng = random.Random(seed)
    rules = CUTTHROAT[game] if game < 0 else random_rules(rng)
    match = Match(rules, seed=seed)
    play(match, rng, actions)
    history = match.history
    back = min(back, len(history))
    undone = [match.undo() for _ in range(back)]
    kept = history[: len(history) - back]
    assert [event.action for event in reversed(undone)] == history[len(kept) :]
    assert state_of(match) == state_of(Match.replay(rules, seed=seed, actions=kept))
    # And the match plays on from there as any other would.
    play(match, random.Random(seed + 1), 60)
    assert match.history[: len(kept)] == kept


def test_undo_takes_back_the_last_card_of_a_hand_with_its_score_and_the_next_deal() -> None:
    rules = Rules()
    match = Match(rules, seed=5)
    while not match.finished:
        legal = match.legal_actions()
        match.apply(bid_action(3) if bid_action(3) in legal else legal[0])
    scored = match.scores
    assert scored != (0, 0) and not match.hand.events
    last = match.undo()
    assert last.result is not None and last.trick is not None
    assert match.scores == (0, 0) and match.bags == (0, 0) and not match.finished
    assert match.hand.current_player == last.seat and match.legal_actions() == [last.action]
    assert match.apply(last.action) == last and match.scores == scored


def test_undo_reopens_a_match_that_was_over() -> None:
    rules = Rules(target_score=100, mercy_score=-100)
    match = Match(rules, seed=2)
    play(match, random.Random(2), 100_000)
    assert match.is_over
    outcome, scores = match.outcome, match.scores
    last = match.undo()
    assert not match.is_over and match.winner is None and match.current_player == last.seat
    assert match.apply(last.action) == last
    assert (match.outcome, match.scores) == (outcome, scores)


def test_undo_before_the_first_action_says_there_is_nothing_to_take_back() -> None:
    match = Match(Rules(), seed=1)
    with pytest.raises(ValueError, match="no action to take back"):
        match.undo()
    hand = HandState.deal(Rules(), dealer=0, seed=1)
    with pytest.raises(ValueError, match="no action to take back in this hand"):
        hand.undo()


def test_the_histories_are_read_from_the_one_event_log() -> None:
    match = Match(Rules(), seed=9)
    play(match, random.Random(9), 120)
    assert match.history == [event.action for event in match.events]
    assert match.ply == len(match.events)
    assert match.hand.history == [event.action for event in match.hand.events]
    assert "history" not in HandState.__slots__ and "history" not in Match.__slots__


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), actions=st.integers(1, 400), back=st.integers(1, 80))
def test_a_clone_moves_and_takes_back_without_touching_its_match(
    seed: int, actions: int, back: int
) -> None:
    rng = random.Random(seed)
    match = Match(Rules(target_score=300), seed=seed)
    play(match, rng, actions)
    before = state_of(match)
    other = match.clone()
    for _ in range(min(back, other.ply)):
        other.undo()
    play(other, random.Random(seed + 1), 100)
    assert state_of(match) == before
    again = match.clone()
    assert state_of(again) == before
