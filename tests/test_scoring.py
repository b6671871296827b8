"""Scoring as pure functions, one table row for each line of DESIGN §2, and the end of a
match."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine.rules import Rules
from spades.engine.scoring import (
    EndReason,
    apply_bag_penalty,
    match_outcome,
    score_hand,
    score_team,
)


class Row(NamedTuple):
    rule: str
    options: dict[str, Any]
    bids: tuple[int, int]
    blind: tuple[bool, bool]
    tricks: tuple[int, int]
    bags_before: int
    points: int
    bags: int
    bags_after: int
    kinds: list[str]


NO = (False, False)
ROWS = [
    Row(
        "contract_made_scores_10_a_trick_bid_and_1_a_bag",
        {},
        (3, 2),
        NO,
        (4, 2),
        0,
        51,
        1,
        1,
        ["contract_made", "bags"],
    ),
    Row(
        "contract_made_exactly_has_no_bags", {}, (3, 2), NO, (3, 2), 0, 50, 0, 0, ["contract_made"]
    ),
    Row(
        "contract_set_loses_10_a_trick_bid", {}, (4, 3), NO, (3, 2), 0, -70, 0, 0, ["contract_set"]
    ),
    Row("set_contract_earns_no_bags", {}, (5, 5), NO, (6, 3), 4, -100, 0, 4, ["contract_set"]),
    Row(
        "team_tricks_are_pooled_for_the_contract",
        {},
        (6, 1),
        NO,
        (2, 5),
        0,
        70,
        0,
        0,
        ["contract_made"],
    ),
    Row(
        "nil_made_scores_100",
        {},
        (0, 4),
        NO,
        (0, 5),
        0,
        141,
        1,
        1,
        ["nil_made", "contract_made", "bags"],
    ),
    Row(
        "failed_nil_loses_100_and_its_tricks_count_as_bags",
        {},
        (0, 4),
        NO,
        (2, 4),
        0,
        -58,
        2,
        2,
        ["nil_failed", "contract_made", "bags"],
    ),
    Row(
        "failed_nil_tricks_do_not_help_the_partners_bid",
        {},
        (0, 4),
        NO,
        (2, 3),
        0,
        -138,
        2,
        2,
        ["nil_failed", "contract_set", "bags"],
    ),
    Row(
        "nil_tricks_count_toward_bid_option",
        {"nil_tricks_count_toward_bid": True},
        (0, 4),
        NO,
        (2, 3),
        0,
        -59,
        1,
        1,
        ["nil_failed", "contract_made", "bags"],
    ),
    Row(
        "nil_tricks_toward_bid_still_set_when_short",
        {"nil_tricks_count_toward_bid": True},
        (0, 6),
        NO,
        (1, 3),
        0,
        -160,
        0,
        0,
        ["nil_failed", "contract_set"],
    ),
    Row(
        "blind_nil_made_scores_200",
        {},
        (0, 3),
        (True, False),
        (0, 3),
        0,
        230,
        0,
        0,
        ["blind_nil_made", "contract_made"],
    ),
    Row(
        "blind_nil_failed_loses_200",
        {},
        (0, 3),
        (True, False),
        (1, 3),
        0,
        -169,
        1,
        1,
        ["blind_nil_failed", "contract_made", "bags"],
    ),
    Row("both_partners_nil_made", {}, (0, 0), NO, (0, 0), 0, 200, 0, 0, ["nil_made", "nil_made"]),
    Row(
        "both_partners_nil_one_fails",
        {},
        (0, 0),
        NO,
        (1, 0),
        0,
        1,
        1,
        1,
        ["nil_failed", "nil_made", "bags"],
    ),
    Row(
        "both_partners_nil_fail_with_tricks_toward_bid",
        {"nil_tricks_count_toward_bid": True},
        (0, 0),
        NO,
        (2, 3),
        0,
        -195,
        5,
        5,
        ["nil_failed", "nil_failed", "bags"],
    ),
    Row(
        "ten_for_two_hundred_made",
        {"ten_for_two_hundred": True},
        (6, 4),
        NO,
        (7, 4),
        0,
        201,
        1,
        1,
        ["ten_for_two_hundred", "bags"],
    ),
    Row(
        "ten_for_two_hundred_set",
        {"ten_for_two_hundred": True},
        (6, 4),
        NO,
        (5, 4),
        0,
        -200,
        0,
        0,
        ["ten_for_two_hundred_set"],
    ),
    Row(
        "ten_for_two_hundred_needs_a_bid_of_exactly_10",
        {"ten_for_two_hundred": True},
        (6, 5),
        NO,
        (6, 5),
        0,
        110,
        0,
        0,
        ["contract_made"],
    ),
    Row(
        "bid_of_10_scores_100_without_the_option",
        {},
        (6, 4),
        NO,
        (6, 4),
        0,
        100,
        0,
        0,
        ["contract_made"],
    ),
    Row(
        "boston_bonus_for_bidding_and_taking_13",
        {"boston_bonus": 200},
        (7, 6),
        NO,
        (7, 6),
        0,
        330,
        0,
        0,
        ["contract_made", "boston"],
    ),
    Row("no_boston_bonus_by_default", {}, (7, 6), NO, (7, 6), 0, 130, 0, 0, ["contract_made"]),
    Row(
        "boston_needs_a_bid_of_13",
        {"boston_bonus": 200},
        (6, 6),
        NO,
        (7, 6),
        0,
        121,
        1,
        1,
        ["contract_made", "bags"],
    ),
    Row(
        "bag_penalty_at_10_bags_and_10_come_off",
        {},
        (3, 2),
        NO,
        (5, 3),
        8,
        -47,
        3,
        1,
        ["contract_made", "bags", "bag_penalty"],
    ),
    Row(
        "bag_penalty_when_the_count_reaches_exactly_10",
        {},
        (3, 2),
        NO,
        (4, 2),
        9,
        -49,
        1,
        0,
        ["contract_made", "bags", "bag_penalty"],
    ),
    Row(
        "bag_penalty_repeats_for_every_10_bags",
        {},
        (1, 1),
        NO,
        (7, 6),
        9,
        -169,
        11,
        0,
        ["contract_made", "bags", "bag_penalty"],
    ),
    Row(
        "nine_bags_cost_nothing_yet", {}, (3, 2), NO, (5, 3), 6, 53, 3, 9, ["contract_made", "bags"]
    ),
    Row(
        "five_bags_for_minus_50",
        {"bag_limit": 5, "bag_penalty": 50},
        (3, 2),
        NO,
        (4, 2),
        4,
        1,
        1,
        0,
        ["contract_made", "bags", "bag_penalty"],
    ),
    Row(
        "bags_off_overtricks_score_but_never_count",
        {"bag_limit": None},
        (3, 2),
        NO,
        (5, 3),
        0,
        53,
        0,
        0,
        ["contract_made", "bags"],
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=[row.rule for row in ROWS])
def test_scoring_table(row: Row) -> None:
    team = score_team(
        Rules(**row.options),
        bids=row.bids,
        blind=row.blind,
        tricks=row.tricks,
        bags_before=row.bags_before,
    )
    assert team.points == row.points
    assert team.bags == row.bags
    assert team.bags_after == row.bags_after
    assert [line.kind for line in team.lines] == row.kinds
    assert sum(line.points for line in team.lines) == team.points
    assert team.bid == sum(row.bids)
    assert team.tricks == sum(row.tricks)


def test_breakdown_lines_say_why_in_words() -> None:
    team = score_team(Rules(), bids=(0, 4), blind=(True, False), tricks=(1, 5), bags_before=9)
    texts = [line.text for line in team.lines]
    assert texts == [
        "blind nil failed (1 trick)",
        "bid 4, took 5: made",
        "2 bags",
        "bag penalty: 11 bags reach 10",
    ]


def test_made_says_whether_the_numeric_contract_was_made() -> None:
    rules = Rules(ten_for_two_hundred=True)
    made = score_team(rules, bids=(6, 4), blind=NO, tricks=(6, 4), bags_before=0)
    set_ = score_team(rules, bids=(6, 4), blind=NO, tricks=(6, 3), bags_before=0)
    nils = score_team(rules, bids=(0, 0), blind=NO, tricks=(0, 0), bags_before=0)
    assert (made.made, set_.made, nils.made) == (True, False, None)


def test_score_hand_pairs_north_with_south_and_east_with_west() -> None:
    result = score_hand(
        Rules(),
        bids=(3, 2, 4, 2),
        blind=(False, False, False, False),
        tricks=(4, 1, 6, 2),
        bags_before=(5, 0),
    )
    north_south, east_west = result.teams
    assert (north_south.bid, north_south.tricks, north_south.points) == (7, 10, 73)
    assert north_south.bags_after == 8
    assert (east_west.bid, east_west.tricks, east_west.points) == (4, 3, -40)


def test_score_hand_needs_13_tricks() -> None:
    with pytest.raises(ValueError, match="13 tricks"):
        score_hand(
            Rules(),
            bids=(1, 1, 1, 1),
            blind=(False,) * 4,
            tricks=(3, 3, 3, 3),
            bags_before=(0, 0),
        )


@pytest.mark.parametrize(
    ("options", "before", "added", "expected"),
    [
        ({}, 0, 9, (0, 9)),
        ({}, 8, 3, (100, 1)),
        ({}, 19, 1, (200, 0)),
        ({"bag_limit": 5, "bag_penalty": 50}, 3, 8, (100, 1)),
        ({"bag_limit": None}, 0, 12, (0, 0)),
        ({"bag_penalty": 0}, 9, 2, (0, 1)),
    ],
)
def test_apply_bag_penalty(
    options: dict[str, Any], before: int, added: int, expected: tuple[int, int]
) -> None:
    assert apply_bag_penalty(Rules(**options), before, added) == expected


def _reference_points(
    rules: Rules,
    bids: tuple[int, int],
    blind: tuple[bool, bool],
    tricks: tuple[int, int],
    bags_before: int,
) -> tuple[int, int, int]:
    """Points, bags added and bags after, straight from the rule texts."""
    points = 0
    toward_bid = 0
    bags = 0
    for bid, is_blind, taken in zip(bids, blind, tricks, strict=True):
        if bid == 0:
            value = 200 if is_blind else 100
            points += value if taken == 0 else -value
            if rules.nil_tricks_count_toward_bid:
                toward_bid += taken
            else:
                bags += taken
        else:
            toward_bid += taken
    team_bid = sum(bids)
    if team_bid == 0:
        bags += toward_bid
    else:
        per_trick = 20 if rules.ten_for_two_hundred and team_bid == 10 else 10
        if toward_bid >= team_bid:
            points += per_trick * team_bid
            bags += toward_bid - team_bid
            if team_bid == 13 and toward_bid == 13:
                points += rules.boston_bonus
        else:
            points -= per_trick * team_bid
    points += bags
    if rules.bag_limit is None:
        return points, 0, 0
    total = bags_before + bags
    points -= (total // rules.bag_limit) * rules.bag_penalty
    return points, bags, total % rules.bag_limit


@settings(max_examples=200, deadline=None)
@given(
    bids=st.tuples(st.integers(0, 13), st.integers(0, 13)).filter(lambda b: sum(b) <= 13),
    blind=st.tuples(st.booleans(), st.booleans()),
    tricks=st.tuples(st.integers(0, 13), st.integers(0, 13)).filter(lambda t: sum(t) <= 13),
    bags_before=st.integers(0, 9),
    toward=st.booleans(),
    ten=st.booleans(),
    boston=st.sampled_from([0, 100]),
    bag_rule=st.sampled_from([(10, 100), (5, 50), (None, 100)]),
)
def test_breakdown_lines_explain_every_point(
    bids: tuple[int, int],
    blind: tuple[bool, bool],
    tricks: tuple[int, int],
    bags_before: int,
    toward: bool,
    ten: bool,
    boston: int,
    bag_rule: tuple[int | None, int],
) -> None:
    blind = (blind[0] and bids[0] == 0, blind[1] and bids[1] == 0)
    limit, penalty = bag_rule
    if limit is not None:
        bags_before %= limit
    else:
        bags_before = 0
    rules = Rules(
        nil_tricks_count_toward_bid=toward,
        ten_for_two_hundred=ten,
        boston_bonus=boston,
        bag_limit=limit,
        bag_penalty=penalty,
    )
    team = score_team(rules, bids=bids, blind=blind, tricks=tricks, bags_before=bags_before)
    assert sum(line.points for line in team.lines) == team.points
    assert all(line.points != 0 and line.text for line in team.lines)
    assert (team.points, team.bags, team.bags_after) == _reference_points(
        rules, bids, blind, tricks, bags_before
    )
    assert team.bags >= 0 and team.bags_after >= 0


@pytest.mark.parametrize(
    ("options", "scores", "over", "winner"),
    [
        ({}, (0, 0), False, None),
        ({}, (499, 480), False, None),
        ({}, (500, 480), True, 0),
        ({}, (480, 510), True, 1),
        ({}, (520, 510), True, 0),
        ({}, (505, 530), True, 1),
        ({}, (510, -300), True, 0),
        ({}, (-200, 100), True, 1),
        ({}, (100, -250), True, 0),
        ({}, (-199, 100), False, None),
        ({}, (-250, -210), True, 1),
        ({}, (-300, -400), True, 0),
        ({"target_score": 300}, (300, 100), True, 0),
        ({"target_score": 300}, (299, 0), False, None),
        ({"target_score": 1000}, (999, 600), False, None),
        ({"mercy_score": None}, (-1000, 0), False, None),
        ({"mercy_score": -500}, (-499, 0), False, None),
        ({"mercy_score": -500}, (-500, 0), True, 1),
    ],
)
def test_match_outcome(
    options: dict[str, Any], scores: tuple[int, int], over: bool, winner: int | None
) -> None:
    outcome = match_outcome(Rules(**options), scores)
    assert (outcome.over, outcome.winner) == (over, winner)
    assert bool(outcome.reason) == over


def test_target_reached_names_the_winner() -> None:
    assert match_outcome(Rules(), (500, 0)).reason == "North/South reached 500"
    assert match_outcome(Rules(), (520, 510)).reason == "North/South wins with the higher score"
    assert match_outcome(Rules(), (-250, -210)).reason == (
        "East/West wins with the less negative score"
    )


@pytest.mark.parametrize("scores", [(510, 510), (-250, -250)])
def test_exact_tie_plays_another_hand_by_default(scores: tuple[int, int]) -> None:
    outcome = match_outcome(Rules(), scores)
    assert (outcome.over, outcome.winner) == (False, None)
    assert outcome.reason == "exact tie: another hand is played"


@pytest.mark.parametrize("scores", [(510, 510), (-250, -250)])
def test_exact_tie_is_a_draw_with_the_draw_policy(scores: tuple[int, int]) -> None:
    outcome = match_outcome(Rules(tie_policy="draw"), scores)
    assert (outcome.over, outcome.winner) == (True, None)
    assert outcome.reason == "exact tie: the game is shared"


THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)


@pytest.mark.parametrize(
    ("rules", "scores", "out", "code", "winners", "places", "fallen"),
    [
        (Rules(), (0, 0), (), EndReason.PLAYING, (), (1, 1), ()),
        (Rules(), (500, 480), (), EndReason.TARGET, (0,), (1, 2), ()),
        (Rules(), (520, 530), (), EndReason.HIGHER_SCORE, (1,), (2, 1), ()),
        (Rules(), (-210, 100), (), EndReason.MERCY, (1,), (2, 1), (0,)),
        (Rules(), (-250, -210), (), EndReason.LESS_NEGATIVE, (1,), (2, 1), ()),
        (Rules(), (510, 510), (), EndReason.TIE, (), (1, 1), ()),
        (Rules(tie_policy="draw"), (510, 510), (), EndReason.SHARED, (0, 1), (1, 1), ()),
        (THREE, (480, 530, 490), (), EndReason.TARGET, (1,), (3, 1, 2), ()),
        (THREE, (520, 530, 510), (), EndReason.HIGHER_SCORE, (1,), (2, 1, 3), ()),
        (THREE, (120, -210, 90), (), EndReason.KNOCKED_OUT, (), (1, 3, 2), (1,)),
        (THREE, (150, -210, -220), (1,), EndReason.LAST_IN, (0,), (1, 3, 2), (2,)),
        (THREE, (-230, -210, -220), (1,), EndReason.MERCY, (2,), (2, 3, 1), (2, 0)),
        (THREE, (520, 520, 100), (), EndReason.TIE, (), (1, 1, 3), ()),
        (
            THREE.replace(tie_policy="draw"),
            (520, 520, 1),
            (),
            EndReason.SHARED,
            (0, 1),
            (1, 1, 3),
            (),
        ),
        (FOUR, (120, -210, 90, 0), (), EndReason.MERCY, (0,), (1, 4, 2, 3), (1,)),
    ],
)
def test_the_outcome_gives_the_reason_as_a_code_the_winning_sides_and_the_places(
    rules: Rules,
    scores: tuple[int, ...],
    out: tuple[int, ...],
    code: EndReason,
    winners: tuple[int, ...],
    places: tuple[int, ...],
    fallen: tuple[int, ...],
) -> None:
    outcome = match_outcome(rules, scores, out)
    assert (outcome.code, outcome.winners, outcome.places, outcome.fallen) == (
        code,
        winners,
        places,
        fallen,
    )
    assert outcome.over == (code not in (EndReason.PLAYING, EndReason.KNOCKED_OUT, EndReason.TIE))
    assert outcome.winner == (winners[0] if len(winners) == 1 else None)
    assert bool(outcome.reason) == (code is not EndReason.PLAYING)


def test_the_outcome_names_each_cutthroat_player_in_its_sentence() -> None:
    names = ["Left", "Right", "Ada"]
    both = match_outcome(THREE, (-230, -210, -220), (1,))
    assert (
        both.reason == "seats 2 and 0 fell to the mercy score: seat 2 wins with the highest score"
    )
    assert both.words(names) == (
        "Ada and Left fell to the mercy score: Ada wins with the highest score"
    )
    knocked = match_outcome(THREE, (120, -210, 90))
    assert knocked.words(names) == "Right fell to the mercy score and is out"
    # The teams keep their names whatever the players are called.
    assert match_outcome(Rules(), (-210, 100)).words(["N", "E", "S", "W"]) == (
        "North/South fell to the mercy score"
    )
