"""Match: the dealer's rotation, running scores and bags, the end of the match and the tie
policy, and replay from (rules, seed, actions)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from engine_helpers import snapshot

from spades.engine.cards import bid_action
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.scoring import match_outcome
from spades.engine.state import IllegalAction


def play_random(
    match: Match, rng: random.Random, hand_cap: int = 60, *, low_bids: bool = False
) -> None:
    """Random play; with ``low_bids`` every seat bids 1 when it may, so contracts are made."""
    while not match.is_over and len(match.finished) < hand_cap:
        legal = match.legal_actions()
        if low_bids and bid_action(1) in legal:
            match.apply(bid_action(1))
        else:
            match.apply(rng.choice(legal))


def test_first_dealer_is_random_by_seed_then_rotates_clockwise() -> None:
    firsts = Counter(Match(Rules(), seed=seed).first_dealer for seed in range(200))
    assert set(firsts) == {0, 1, 2, 3}
    assert min(firsts.values()) > 25
    assert Match(Rules(), seed=17).first_dealer == Match(Rules(), seed=17).first_dealer
    match = Match(Rules(mercy_score=None, target_score=5000), seed=17)
    rng = random.Random(17)
    dealers = [match.hand.dealer]
    while len(match.finished) < 6:
        if match.apply(rng.choice(match.legal_actions())).result is not None:
            dealers.append(match.hand.dealer)
    assert dealers == [(match.first_dealer + i) % 4 for i in range(7)]


def test_each_hand_is_dealt_differently_from_the_seed() -> None:
    a, b = Match(Rules(), seed=1), Match(Rules(), seed=2)
    assert a.hand.initial_hands != b.hand.initial_hands
    assert Match(Rules(), seed=1).hand.initial_hands == a.hand.initial_hands


def test_running_scores_and_bags_carry_into_the_next_hand() -> None:
    match = Match(Rules(mercy_score=None, target_score=5000), seed=4)
    rng = random.Random(4)
    while len(match.finished) < 5:
        result = match.apply(rng.choice(match.legal_actions())).result
        if result is not None:
            assert match.scores == tuple(
                sum(r.teams[t].points for r in match.results) for t in (0, 1)
            )
            assert match.bags == (result.teams[0].bags_after, result.teams[1].bags_after)
            assert (match.hand.scores, match.hand.bags) == (match.scores, match.bags)
    assert match.score_history()[-1] == match.scores
    assert len(match.results) == len(match.finished) == 5
    assert match.hand_number == 6


def test_match_is_replayable_from_rules_seed_and_actions() -> None:
    rules = Rules(jokers=True, blind_nil_exchange=True, blind_nil_deficit=0)
    match = Match(rules, seed=9)
    play_random(match, random.Random(9))
    again = Match.replay(rules, seed=9, actions=match.history)
    assert again.history == match.history
    assert (again.scores, again.bags, again.winner) == (match.scores, match.bags, match.winner)
    assert [r.teams for r in again.results] == [r.teams for r in match.results]


ENDINGS = [
    ({"target_score": 100}, "North/South reached 100"),
    ({"target_score": 100}, "East/West reached 100"),
    ({"target_score": 100}, "wins with the higher score"),
    ({"target_score": 1000, "mercy_score": -200}, "fell to the mercy score"),
    ({"target_score": 5000, "mercy_score": -500}, "fell to the mercy score"),
    ({"target_score": 5000, "mercy_score": -200}, "wins with the less negative score"),
]


@pytest.mark.parametrize(("options", "reason"), ENDINGS)
def test_match_ends_at_the_target_or_the_mercy_score(options: dict[str, Any], reason: str) -> None:
    low_bids = options["target_score"] == 100
    rules = Rules(bag_limit=None, mercy_score=None, **options) if low_bids else Rules(**options)
    for seed in range(300):
        match = Match(rules, seed=seed)
        play_random(match, random.Random(seed), hand_cap=80, low_bids=low_bids)
        if match.is_over and reason in match.outcome.reason:
            break
    else:
        pytest.fail(f"no seeded match ended with {reason!r}")
    assert match.outcome == match_outcome(rules, match.scores)
    assert match.winner in (0, 1)
    assert match.current_player is None
    assert match.legal_actions() == []
    previous = match.score_history()[-2] if len(match.finished) > 1 else (0, 0)
    assert not match_outcome(rules, previous).over
    with pytest.raises(ValueError, match="the match is over"):
        match.apply(52)


def _tied_match() -> tuple[Match, int]:
    """A seeded random match in which a hand ends level beyond the mercy score."""
    for seed in range(400):
        match = Match(Rules(), seed=seed)
        rng = random.Random(seed)
        while not match.is_over and len(match.finished) < 30:
            result = match.apply(rng.choice(match.legal_actions())).result
            if result is not None and match.scores[0] == match.scores[1] <= -200:
                return match, seed
    raise AssertionError("no seeded match reached an exact tie")


def test_exact_tie_plays_another_hand() -> None:
    match, _ = _tied_match()
    assert not match.is_over
    assert match.outcome.reason == "exact tie: another hand is played"
    assert match.hand_number == len(match.finished) + 1


def test_exact_tie_is_a_shared_game_with_the_draw_policy() -> None:
    match, seed = _tied_match()
    draw = Match.replay(Rules(tie_policy="draw"), seed=seed, actions=match.history)
    assert draw.is_over
    assert draw.winner is None
    assert draw.outcome.reason == "exact tie: the game is shared"


def test_an_illegal_action_leaves_the_match_unchanged() -> None:
    match = Match(Rules(), seed=2)
    match.apply(match.legal_actions()[0])
    hand_before = snapshot(match.hand)
    history = match.history[:]
    with pytest.raises(IllegalAction):
        match.apply(0 if 0 not in match.legal_actions() else 120)
    assert match.history == history
    assert snapshot(match.hand) == hand_before


def test_match_refuses_bad_arguments() -> None:
    with pytest.raises(TypeError, match="rules must be a Rules"):
        Match({}, seed=1)  # type: ignore[arg-type]
    for seed in (True, 1.5, "1"):
        with pytest.raises(ValueError, match="seed must be an int"):
            Match(Rules(), seed=seed)  # type: ignore[arg-type]
