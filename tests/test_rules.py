"""Rules: the defaults of DESIGN §2, validation that names the field, and the dict form."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from spades.engine.rules import PRESETS, Preset, Rules, RulesError, describe_options, preset_of


def test_defaults_are_the_standard_game() -> None:
    rules = Rules()
    assert rules.to_dict() == {
        "target_score": 500,
        "mercy_score": -200,
        "tie_policy": "play_on",
        "nil_allowed": True,
        "blind_nil": True,
        "blind_nil_deficit": 100,
        "blind_nil_exchange": False,
        "nil_pass": 0,
        "nil_tricks_count_toward_bid": False,
        "min_team_bid": 0,
        "whiz": False,
        "suicide": False,
        "mirror": False,
        "ten_for_two_hundred": False,
        "boston_bonus": 0,
        "bag_limit": 10,
        "bag_penalty": 100,
        "jokers": False,
        "joker_ranking": "ace",
        "no_spades_first_trick": False,
        "spades_lead_any_time": False,
    }


def test_rules_are_frozen_and_keyword_only() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target_score = 300  # type: ignore[misc]
    with pytest.raises(TypeError):
        Rules(300)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"target_score": 0}, "target_score"),
        ({"target_score": -100}, "target_score"),
        ({"mercy_score": 0}, "mercy_score"),
        ({"mercy_score": 50}, "mercy_score"),
        ({"tie_policy": "coin_flip"}, "tie_policy"),
        ({"suicide": True, "nil_allowed": False, "blind_nil": False}, "suicide"),
        ({"whiz": True, "nil_allowed": False, "blind_nil": False}, "whiz"),
        ({"whiz": True, "min_team_bid": 4}, "whiz"),
        ({"suicide": True, "whiz": True}, "suicide"),
        ({"blind_nil": True, "nil_allowed": False}, "blind_nil"),
        ({"nil_pass": 3}, "nil_pass"),
        ({"nil_pass": 2, "nil_allowed": False, "blind_nil": False}, "nil_pass"),
        ({"nil_pass": 2, "partnerships": False}, "nil_pass"),
        ({"mirror": True}, "mirror"),
        ({"mirror": True, "blind_nil": False, "nil_allowed": False}, "mirror"),
        ({"mirror": True, "blind_nil": False, "whiz": True}, "mirror"),
        ({"mirror": True, "blind_nil": False, "suicide": True}, "mirror"),
        ({"mirror": True, "blind_nil": False, "min_team_bid": 4}, "mirror"),
        ({"mirror": True, "blind_nil": False, "jokers": True}, "mirror"),
        (
            {"mirror": True, "blind_nil": False, "jokers": True, "joker_ranking": "deuces"},
            "mirror",
        ),
        ({"joker_ranking": "deuces"}, "joker_ranking"),
        ({"joker_ranking": "ace_no_2h"}, "joker_ranking"),
        ({"jokers": True, "joker_ranking": "twos"}, "joker_ranking"),
        (
            {"players": 3, "partnerships": False, "jokers": True, "joker_ranking": "deuces"},
            "jokers",
        ),
        (
            {
                "mirror": True,
                "blind_nil": False,
                "partnerships": False,
                "bid_total_not_tricks": True,
            },
            "mirror",
        ),
        ({"blind_nil_exchange": True, "blind_nil": False}, "blind_nil_exchange"),
        ({"blind_nil_deficit": -1}, "blind_nil_deficit"),
        ({"min_team_bid": -1}, "min_team_bid"),
        ({"min_team_bid": 14}, "min_team_bid"),
        ({"boston_bonus": -50}, "boston_bonus"),
        ({"bag_limit": 0}, "bag_limit"),
        ({"bag_penalty": -100}, "bag_penalty"),
    ],
)
def test_contradictory_or_out_of_range_rules_are_refused_naming_the_field(
    changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(RulesError, match=f"^{field}: "):
        Rules(**changes)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("target_score", "500"),
        ("target_score", True),
        ("target_score", 500.0),
        ("target_score", None),
        ("mercy_score", "-200"),
        ("mercy_score", False),
        ("tie_policy", 1),
        ("nil_allowed", 1),
        ("blind_nil", "yes"),
        ("jokers", None),
        ("joker_ranking", None),
        ("bag_limit", 10.5),
        ("boston_bonus", True),
        ("min_team_bid", "4"),
    ],
)
def test_wrong_types_are_refused_naming_the_field(field: str, value: object) -> None:
    options: dict[str, Any] = {field: value}
    with pytest.raises(RulesError, match=f"^{field}: "):
        Rules(**options)


def test_house_options_that_fit_together_are_accepted() -> None:
    rules = Rules(
        target_score=300,
        mercy_score=None,
        tie_policy="draw",
        blind_nil_deficit=0,
        blind_nil_exchange=True,
        nil_tricks_count_toward_bid=True,
        min_team_bid=4,
        suicide=True,
        ten_for_two_hundred=True,
        boston_bonus=200,
        bag_limit=5,
        bag_penalty=50,
        jokers=True,
        no_spades_first_trick=True,
        spades_lead_any_time=True,
    )
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules(whiz=True, bag_limit=None).bag_limit is None


def test_from_dict_and_to_dict_round_trip_and_fill_defaults() -> None:
    rules = Rules(target_score=1000, mercy_score=-500, jokers=True)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"whiz": True}) == Rules(whiz=True)


def test_from_dict_refuses_an_unknown_option() -> None:
    with pytest.raises(RulesError, match=r"^jokers_wild: not a rule option"):
        Rules.from_dict({"jokers_wild": True})


def test_from_dict_refuses_something_that_is_not_an_object() -> None:
    with pytest.raises(RulesError, match=r"^rules: expected an object"):
        Rules.from_dict([("jokers", True)])  # type: ignore[arg-type]


def test_from_dict_validates_like_the_constructor() -> None:
    with pytest.raises(RulesError, match=r"^target_score: "):
        Rules.from_dict({"target_score": "500"})


def test_replace_validates_again() -> None:
    assert Rules().replace(target_score=300).target_score == 300
    with pytest.raises(RulesError, match=r"^bag_limit: "):
        Rules().replace(bag_limit=0)


def test_every_option_has_a_label_and_help_text_for_the_sidebar() -> None:
    options = describe_options() + describe_options("cutthroat")
    assert {name for name, *_ in options} == {f.name for f in dataclasses.fields(Rules)}
    for name, label, help_text, default in options:
        assert label and help_text.endswith("."), name
        assert getattr(Rules(), name) == default


def test_the_sidebar_describes_the_partnership_game_s_options_only() -> None:
    # The table cannot draw cutthroat yet, so the sidebar offers none of its options.
    assert [name for name, *_ in describe_options()] == list(Rules().to_dict())


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.name)
def test_each_preset_is_a_valid_rule_set_with_a_line_saying_what_it_is(preset: Preset) -> None:
    assert Rules.from_dict(preset.rules.to_dict()) == preset.rules
    assert preset.name and preset.description.endswith(".")


def test_preset_names_and_rule_sets_are_unique() -> None:
    assert len({preset.name for preset in PRESETS}) == len(PRESETS)
    assert len({preset.rules for preset in PRESETS}) == len(PRESETS)


def test_the_standard_preset_is_the_default_rules() -> None:
    assert PRESETS[0].name == "Standard" and PRESETS[0].rules == Rules()


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.name)
def test_preset_of_finds_each_preset_from_its_rules(preset: Preset) -> None:
    assert preset_of(preset.rules) is preset
    assert preset_of(Rules.from_dict(preset.rules.to_dict())) is preset


def test_a_joker_ranking_needs_the_jokers_and_says_so() -> None:
    with pytest.raises(RulesError, match=r"^joker_ranking: .*turn jokers on"):
        Rules(joker_ranking="deuces")
    assert Rules(jokers=True, joker_ranking="deuces").joker_deck == "deuces"
    assert Rules(jokers=False).joker_deck is None


def test_rules_stored_before_the_joker_ranking_load_with_the_jokers_as_they_were() -> None:
    stored = Rules(jokers=True).to_dict()
    del stored["joker_ranking"]
    assert Rules.from_dict(stored).joker_deck == "ace"


def test_each_joker_ranking_has_its_preset() -> None:
    rankings = {preset.rules.joker_deck for preset in PRESETS}
    assert rankings >= {"ace", "deuces", "ace_no_2h"}


def test_custom_is_not_a_preset_and_other_rule_sets_have_none() -> None:
    assert "Custom" not in {preset.name for preset in PRESETS}
    assert preset_of(Rules(jokers=True, target_score=300)) is None
    assert preset_of(Rules(blind_nil=False)) is None


@pytest.mark.parametrize(
    ("rules", "sides"),
    [
        (Rules(), ((0, 2), (1, 3))),
        (Rules(players=4, partnerships=False), ((0,), (1,), (2,), (3,))),
        (Rules(players=3, partnerships=False), ((0,), (1,), (2,))),
    ],
    ids=["partnership", "cutthroat4", "cutthroat3"],
)
def test_the_sides_are_the_teams_in_partnership_play_and_each_player_in_cutthroat(
    rules: Rules, sides: tuple[tuple[int, ...], ...]
) -> None:
    assert rules.sides() == sides
    assert rules.seats == tuple(range(rules.players))
    assert sorted(seat for side in sides for seat in side) == list(rules.seats)
    for side, seats in enumerate(sides):
        for seat in seats:
            assert rules.side_of(seat) == side
            mates = [other for other in seats if other != seat]
            assert rules.partner(seat) == (mates[0] if mates else None)


def test_partners_sit_across_the_table() -> None:
    rules = Rules()
    assert [rules.partner(seat) for seat in rules.seats] == [2, 3, 0, 1]
    assert [rules.side_of(seat) for seat in rules.seats] == [0, 1, 0, 1]
