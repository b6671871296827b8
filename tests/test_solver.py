"""The double-dummy solver: exact against a plain brute-force minimax over the engine's
own hands, mid-trick as at trick boundaries, under the house rules that change the play."""

from __future__ import annotations

import random

import pytest
from engine_helpers import cards, late_position, snapshot

from spades.bots.solver import solve, solve_position
from spades.engine.cards import JOKER_RANKINGS, JokerRanking
from spades.engine.rules import Rules
from spades.engine.state import HandState

PLAY_RULES = (Rules(), Rules(jokers=True), Rules(spades_lead_any_time=True))


def north_south_now(state: HandState) -> int:
    return state.tricks_won[0] + state.tricks_won[2]


def brute_force(state: HandState) -> int:
    """North/South's tricks from here to the end with best play on both sides: every
    legal card of every seat tried through the engine, no pruning and no table."""
    if state.is_over:
        return 0
    values = []
    for card in state.legal_actions():
        child = state.clone()
        child.apply(card)
        values.append(north_south_now(child) - north_south_now(state) + brute_force(child))
    return max(values) if state.current_player in (0, 2) else min(values)


def endgame(seed: int, tricks_left: int) -> HandState:
    """A random deal under random play-changing rules, played at random until
    ``tricks_left`` tricks remain and then 0 to 3 cards into the next trick."""
    rng = random.Random(seed)
    state = late_position(seed, tricks_left, rng.choice(PLAY_RULES))
    for _ in range(rng.randrange(4)):
        state.apply(rng.choice(state.legal_actions()))
    return state


def check_against_brute_force(state: HandState) -> None:
    solution = solve(state)
    left = 13 - len(state.tricks)
    exact = brute_force(state)
    assert solution.tricks == (exact, left - exact), state.history
    # The best card keeps that value: after it, best play gives the same count.
    assert solution.card in state.legal_actions()
    after = state.clone()
    after.apply(solution.card)
    assert north_south_now(after) - north_south_now(state) + brute_force(after) == exact


@pytest.mark.parametrize("tricks_left", [1, 2, 3])
def test_a_double_dummy_endgame_is_solved_exactly_checked_against_brute_force(
    tricks_left: int,
) -> None:
    for seed in range(120):
        check_against_brute_force(endgame(seed * 7 + tricks_left, tricks_left))


def test_four_trick_endgames_are_solved_exactly_checked_against_brute_force() -> None:
    for seed in range(6):
        check_against_brute_force(endgame(1000 + seed, 4))


def test_positions_in_the_middle_of_a_trick_are_solved_from_the_cards_already_played() -> None:
    rng = random.Random(5)
    for seed in range(40):
        state = late_position(seed, 3, rng.choice(PLAY_RULES))
        for _ in range(1 + seed % 3):
            state.apply(rng.choice(state.legal_actions()))
        assert state.trick
        check_against_brute_force(state)


def test_spades_may_be_led_before_they_are_broken_only_under_the_house_rule() -> None:
    # North holds the A♠ and the top heart, but East can trump hearts. Drawing East's
    # trump with the ace first is worth both tricks; with spades unbroken North must lead
    # the heart, East trumps it, and the ace takes only the last trick.
    hands = [cards("AS QH"), cards("2S 3C"), cards("4H 5H"), cards("6H 7H")]
    unbroken = solve_position(Rules(), hands, seat=0, trick=(), broken=False)
    lead_free = solve_position(
        Rules(spades_lead_any_time=True), hands, seat=0, trick=(), broken=False
    )
    assert (unbroken.tricks, unbroken.card) == ((1, 1), cards("QH")[0])
    assert (lead_free.tricks, lead_free.card) == ((2, 0), cards("AS")[0])


def test_no_spades_on_the_first_trick_keeps_a_void_hand_from_trumping_it() -> None:
    # East, void in hearts, would trump North's queen; on a first trick without spades
    # East must discard the club instead.
    hands = [cards("QH 2C"), cards("2S 3C"), cards("4H 5H"), cards("6H 7H")]
    plain = solve_position(Rules(), hands, seat=0, trick=(), broken=False, first=True)
    barred = solve_position(
        Rules(no_spades_first_trick=True), hands, seat=0, trick=(), broken=False, first=True
    )
    assert plain.tricks == (0, 2)
    assert barred.tricks == (1, 1)


def test_the_jokers_rank_above_the_ace_of_spades() -> None:
    # North led the K♠ to the last trick: East's Little Joker beats it and West's ace,
    # and only South's Big Joker beats the Little Joker.
    jokers = Rules(jokers=True)
    king = cards("KS")

    def last_trick(south: str) -> tuple[int, int]:
        hands = [[], cards("LJ", jokers="ace"), cards(south, jokers="ace"), cards("AS")]
        return solve_position(jokers, hands, seat=1, trick=king, broken=True).tricks

    assert last_trick("BJ") == (1, 0)
    assert last_trick("QS") == (0, 1)


@pytest.mark.parametrize("ranking", JOKER_RANKINGS)
def test_endgames_under_each_joker_ranking_are_solved_exactly_checked_against_brute_force(
    ranking: JokerRanking,
) -> None:
    rules = Rules(jokers=True, joker_ranking=ranking)
    rng = random.Random(ranking)
    for seed in range(40):
        state = late_position(seed, 2 + seed % 2, rules)
        for _ in range(rng.randrange(4)):
            state.apply(rng.choice(state.legal_actions()))
        check_against_brute_force(state)


def test_the_two_of_diamonds_and_the_two_of_spades_beat_the_ace_under_deuces() -> None:
    # North led the A♠ to the last trick, South holds the 3♠ and West the K♠: East's last
    # card takes the trick only if it ranks above the ace.
    def east_takes(east: str, ranking: JokerRanking) -> bool:
        rules = Rules(jokers=True, joker_ranking=ranking)
        hands = [[], cards(east, jokers=ranking), cards("3S"), cards("KS")]
        solution = solve_position(rules, hands, seat=1, trick=cards("AS"), broken=True)
        return solution.tricks == (0, 1)

    assert all(east_takes(card, "deuces") for card in ("BJ", "LJ", "2D", "2S"))
    assert not east_takes("QS", "deuces")
    assert not east_takes("2S", "ace") and not east_takes("2S", "ace_no_2h")
    assert not east_takes("2D", "ace_no_2h")
    assert east_takes("LJ", "ace_no_2h")


def test_solving_leaves_the_hand_as_it_was() -> None:
    state = late_position(3, 5)
    before = snapshot(state)
    solve(state)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("hands", "trick", "message"),
    [
        ([cards("AS"), cards("KS"), cards("QS")], (), "four hands"),
        ([cards("AS"), cards("AS"), cards("QS"), cards("JS")], (), "two places"),
        ([cards("AS"), cards("KS"), cards("QS"), cards("JS")], cards("JS"), "two places"),
        ([cards("AS 2C"), cards("KS"), cards("QS"), cards("JS")], (), "cards where"),
        ([[], [], [], []], (), "nothing left"),
    ],
)
def test_positions_that_cannot_arise_are_refused(
    hands: list[list[int]], trick: tuple[int, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        solve_position(Rules(), hands, seat=0, trick=trick, broken=True)


def test_a_hand_outside_its_play_is_refused() -> None:
    with pytest.raises(ValueError, match="not in its play"):
        solve(HandState.deal(Rules(), dealer=0, seed=1))
