"""Inputs the engine refuses (issue 10): every refusal is a ValueError (a RulesError naming
the field for the rules), raised when a hand, a match or a set of rules is made, before
anything changes."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest

from spades.engine.cards import bid_action
from spades.engine.match import Match
from spades.engine.record import GameRecord, RecordError, dumps, loads
from spades.engine.rules import MAX_BAG_LIMIT, MAX_BONUS, MAX_TARGET, Rules, RulesError
from spades.engine.scoring import score_hand
from spades.engine.state import HandState

HANDS = [range(13 * seat, 13 * seat + 13) for seat in range(4)]


def _start(how: str, rules: Rules, **inputs: Any) -> HandState:
    """A hand started by ``deal`` or by ``from_hands`` from the same inputs."""
    if how == "deal":
        return HandState.deal(rules, dealer=0, seed=inputs.pop("seed", 1), **inputs)
    return HandState.from_hands(rules, HANDS, dealer=0, **inputs)


# ------------------------------------------------------------------------------- seeds
@pytest.mark.parametrize("seed", [True, False])
def test_a_bool_is_not_a_seed_for_the_deal(seed: bool) -> None:
    with pytest.raises(ValueError, match=f"^seed must be an int or None, not {seed}$"):
        HandState.deal(Rules(), dealer=0, seed=seed)
    # An int and None still deal.
    assert HandState.deal(Rules(), dealer=0, seed=1).initial_hands
    assert HandState.deal(Rules(), dealer=0, seed=None).initial_hands


@pytest.mark.parametrize("seed", [True, False])
def test_a_bool_is_not_a_seed_for_a_match_or_its_replay(seed: bool) -> None:
    with pytest.raises(ValueError, match=f"^seed must be an int, not {seed}$"):
        Match(Rules(), seed=seed)

    taken: list[int] = []

    def actions() -> Iterator[int]:
        taken.append(bid_action(3))
        yield bid_action(3)

    with pytest.raises(ValueError, match=f"^seed must be an int, not {seed}$"):
        Match.replay(Rules(), seed=seed, actions=actions())
    assert taken == []  # refused before a single action is read


def test_a_record_with_a_bool_seed_is_refused() -> None:
    record = GameRecord(Rules(), True, ())
    with pytest.raises(ValueError, match=r"^seed must be an int"):
        record.replay()
    good = json.loads(dumps(GameRecord(Rules(), 1, ())))
    with pytest.raises(RecordError, match=r"^seed: expected int, found bool"):
        loads(json.dumps(good | {"seed": True}))


# ----------------------------------------------------------------------- scores and bags
@pytest.mark.parametrize("how", ["deal", "from_hands"])
@pytest.mark.parametrize("name", ["scores", "bags"])
@pytest.mark.parametrize(
    "pair", [(True, 0), (0, False), (1.0, 0), ("0", 0), (0,), (0, 0, 0), 0, None, b"\x00\x00"]
)
def test_scores_and_bags_are_pairs_of_ints_never_bools(how: str, name: str, pair: Any) -> None:
    with pytest.raises(ValueError, match=rf"^{name} must be a pair of ints"):
        _start(how, Rules(), **{name: pair})


@pytest.mark.parametrize("how", ["deal", "from_hands"])
def test_scores_and_bags_may_be_any_ints_the_game_can_reach(how: str) -> None:
    state = _start(how, Rules(), scores=[-350, 480], bags=(9, 0))
    assert (state.scores, state.bags) == ((-350, 480), (9, 0))
    assert type(state.scores) is tuple


# ---------------------------------------------------------------------- the bag limit
@pytest.mark.parametrize("how", ["deal", "from_hands"])
@pytest.mark.parametrize(
    ("rules", "bags"),
    [
        (Rules(), (10, 0)),
        (Rules(), (0, 10)),
        (Rules(), (25, 3)),
        (Rules(bag_limit=5, bag_penalty=50), (5, 0)),
        (Rules(bag_limit=1), (0, 1)),
    ],
)
def test_bags_at_or_over_the_bag_limit_are_refused(
    how: str, rules: Rules, bags: tuple[int, int]
) -> None:
    # The penalty takes the limit off the count each time it is reached, so such a count
    # never occurs; taking it would charge the penalty in a hand that adds no bags.
    limit = rules.bag_limit
    with pytest.raises(ValueError, match=rf"^bags must stay below the bag limit of {limit}, "):
        _start(how, rules, bags=bags)


@pytest.mark.parametrize("how", ["deal", "from_hands"])
def test_bags_are_never_negative(how: str) -> None:
    with pytest.raises(ValueError, match=r"^bags are never negative"):
        _start(how, Rules(), bags=(0, -1))


def test_a_count_just_below_the_limit_is_taken_and_penalised_only_when_it_reaches_it() -> None:
    state = HandState.from_hands(Rules(), HANDS, dealer=3, bags=(9, 9))
    assert state.bags == (9, 9)
    hand = score_hand(
        Rules(), bids=(1, 1, 1, 1), blind=(False,) * 4, tricks=(1, 1, 1, 10), bags_before=(9, 9)
    )
    assert hand.teams[0].penalty == 0 and hand.teams[0].bags_after == 9
    assert hand.teams[1].penalty == 100 and hand.teams[1].bags_after == 8


def test_without_a_bag_limit_any_bag_count_is_taken() -> None:
    # With bags off the count plays no part; only a negative count is refused.
    state = HandState.deal(Rules(bag_limit=None), dealer=0, seed=1, bags=(12, 0))
    assert state.bags == (12, 0)


def test_a_refused_deal_changes_nothing_it_was_given() -> None:
    scores, bags = [0, 0], [10, 0]
    with pytest.raises(ValueError):
        HandState.deal(Rules(), dealer=0, seed=1, scores=scores, bags=bags)  # type: ignore[arg-type]
    assert (scores, bags) == ([0, 0], [10, 0])


def test_a_match_carries_only_bag_counts_below_the_limit_into_the_next_hand() -> None:
    # The check at the deal never trips in a real match: the counts it carries are below
    # the limit after every hand.
    match = Match(Rules(bag_limit=2, bag_penalty=10, mercy_score=None), seed=5)
    penalties = 0
    while len(match.finished) < 8 and not match.is_over:
        legal = match.legal_actions()
        result = match.apply(bid_action(1) if bid_action(1) in legal else legal[0]).result
        if result is not None:
            penalties += result.teams[0].penalty + result.teams[1].penalty
            assert max(match.bags) < 2
            assert match.is_over or match.hand.bags == match.bags
    assert penalties


# ------------------------------------------------------- the bag penalty with bags off
@pytest.mark.parametrize("penalty", [0, 50, 99, 101, 1000])
def test_a_bag_penalty_without_a_bag_limit_is_refused_naming_both_fields(penalty: int) -> None:
    with pytest.raises(RulesError, match=r"^bag_penalty: .*bag_limit=None") as err:
        Rules(bag_limit=None, bag_penalty=penalty)
    assert f"a penalty of {penalty} " in str(err.value)
    with pytest.raises(RulesError, match=r"^bag_penalty: .*bag_limit=None"):
        Rules.from_dict({"bag_limit": None, "bag_penalty": penalty})
    with pytest.raises(RulesError, match=r"^bag_penalty: .*bag_limit=None"):
        Rules(bag_penalty=penalty).replace(bag_limit=None)


def test_bags_off_with_the_default_penalty_stays_valid() -> None:
    # The sidebar builds its rules from a dict that keeps the default penalty.
    assert Rules(bag_limit=None).bag_penalty == 100
    assert Rules(**(Rules().to_dict() | {"bag_limit": None})).bag_limit is None
    assert Rules.from_dict({"bag_limit": None, "bag_penalty": 100}) == Rules(bag_limit=None)


# ----------------------------------------------------------------- bounds of the numbers
BOUNDS: list[tuple[str, int, int, bool]] = [
    # field, lowest, highest, whether None is taken
    ("target_score", 1, MAX_TARGET, False),
    ("mercy_score", -MAX_TARGET, -1, True),
    ("blind_nil_deficit", 0, MAX_TARGET, False),
    ("min_team_bid", 0, 13, False),
    ("boston_bonus", 0, MAX_BONUS, False),
    ("bag_limit", 1, MAX_BAG_LIMIT, True),
    ("bag_penalty", 0, MAX_BONUS, False),
    ("nil_pass", 0, 4, False),
]


def test_every_int_rule_has_bounds() -> None:
    ints = {f.name for f in dataclasses.fields(Rules) if "int" in str(f.type)}
    # Three players need partnerships=False: tests/test_cutthroat.py checks their bounds.
    assert {name for name, *_ in BOUNDS} == ints - {"players"}


def _construct(options: dict[str, Any]) -> Rules:
    return Rules(**options)


#: The two ways rules are made from values: the constructor, and from_dict for saved games
#: and imported records.
MAKERS = (_construct, Rules.from_dict)


@pytest.mark.parametrize(("field", "low", "high", "none"), BOUNDS)
def test_every_int_rule_is_refused_outside_its_bounds_which_the_error_states(
    field: str, low: int, high: int, none: bool
) -> None:
    for make in MAKERS:
        for value in (low, high):
            assert getattr(make({field: value}), field) == value
        for value in (low - 1, high + 1, 10**19, -(10**19)):
            with pytest.raises(RulesError, match=f"^{field}: ") as err:
                make({field: value})
            message = str(err.value)
            assert f"{abs(high) if field == 'mercy_score' else high:,}" in message, message
            assert message.endswith(f"not {value}"), message
        if none:
            assert getattr(make({field: None}), field) is None


@pytest.mark.parametrize(("field", "low", "high", "none"), BOUNDS)
def test_a_bool_is_refused_for_every_int_rule(field: str, low: int, high: int, none: bool) -> None:
    for make in MAKERS:
        for value in (True, False):
            with pytest.raises(RulesError, match=f"^{field}: {value} is not a valid int"):
                make({field: value})


def test_a_refused_replace_leaves_the_rules_as_they_were() -> None:
    rules = Rules(target_score=300)
    with pytest.raises(RulesError, match=r"^target_score: "):
        rules.replace(target_score=MAX_TARGET + 1)
    assert rules == Rules(target_score=300)


def test_from_dict_refuses_a_name_that_is_not_text() -> None:
    data: Any = {1: 2, "jokers": True}
    with pytest.raises(RulesError, match=r"^1: not a rule option"):
        Rules.from_dict(data)


# ---------------------------------------------------- a record out of the store's range
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bag_penalty", 10**19),
        ("target_score", 2**31),
        ("mercy_score", -(2**31)),
        ("boston_bonus", 2**40),
        ("blind_nil_deficit", 2**63),
        ("bag_limit", 2**31),
    ],
)
def test_a_record_with_a_rule_number_out_of_range_is_refused(field: str, value: int) -> None:
    good = json.loads(dumps(GameRecord(Rules(), 1, ())))
    good["rules"][field] = value
    with pytest.raises(RecordError, match=f"^rules.{field}: .*not {value}$"):
        loads(json.dumps(good))


def test_an_import_with_a_huge_bag_penalty_stores_nothing() -> None:
    from spades.store import Store, StoreError

    store = Store("sqlite://")
    good = json.loads(dumps(GameRecord(Rules(), 1, ())))
    good["rules"]["bag_penalty"] = 10**19
    with pytest.raises(StoreError, match=r"rules.bag_penalty: must be 0 to 1,000 points"):
        store.import_json(json.dumps(good))
    assert not store.list_games()
