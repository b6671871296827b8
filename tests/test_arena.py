"""The arena: duplicate deals and pairs swap seats, the summaries add up, the margin per
hand is the headline, and the command line prints it first."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spades.cli import main
from spades.engine.rules import Rules
from spades.sim.arena import play_deal, play_pair, run_arena, run_deals, wilson_interval

FAST = {"iterations": 8, "bid_samples": 6}
TIMING = ("decisions", "decision_ms_p50", "decision_ms_p95")


def figures(summary: dict[str, Any]) -> dict[str, Any]:
    """A deal summary without what depends on the machine: the decision times and the
    worker count."""
    kept = {key: value for key, value in summary.items() if key not in ("workers", "sides")}
    kept["sides"] = {
        name: {key: value for key, value in side.items() if key not in TIMING}
        for name, side in summary["sides"].items()
    }
    return kept


def test_a_duplicate_deal_is_one_hand_played_twice_with_the_sides_swapping_seats() -> None:
    deal = play_deal((Rules(), 7, ("standard", {}), ("random", {})))
    assert deal.seed == 7
    assert deal.sides["a"].hands == deal.sides["b"].hands == 2
    assert deal.margin == (deal.sides["a"].points - deal.sides["b"].points) / 2


def test_a_bot_against_itself_has_a_deal_margin_interval_containing_zero() -> None:
    summary = run_deals("random", "random", deals=200, seed=1, progress=False)
    low, high = summary["margin_per_hand_ci95"]
    assert low <= 0 <= high
    # Both sides are the same bot with the same seat seeds: each deal mirrors exactly.
    assert summary["margin_per_hand"] == summary["margin_sd"] == 0


def test_swapping_the_bots_negates_the_deal_margin_exactly() -> None:
    ab = run_deals("basic", "random", deals=30, seed=4, progress=False)
    ba = run_deals("random", "basic", deals=30, seed=4, progress=False)
    assert ab["margin_per_hand"] == -ba["margin_per_hand"] != 0
    assert figures(ab)["sides"]["a"] == figures(ba)["sides"]["b"]


def test_deal_results_are_the_same_with_one_worker_or_two() -> None:
    one = run_deals("standard", "random", deals=12, seed=9, workers=1, progress=False)
    two = run_deals("standard", "random", deals=12, seed=9, workers=2, progress=False)
    assert figures(one) == figures(two)


def test_standard_beats_random_by_a_deal_margin_whose_interval_is_above_zero() -> None:
    summary = run_deals("standard", "random", deals=30, seed=2, progress=False)
    low, _ = summary["margin_per_hand_ci95"]
    assert low > 0
    a, b = summary["sides"]["a"], summary["sides"]["b"]
    assert a["points_per_hand"] - b["points_per_hand"] == pytest.approx(summary["margin_per_hand"])
    assert a["decisions"] > 0 and a["decision_ms_p50"] <= a["decision_ms_p95"]


def test_the_second_deal_figure_charges_each_bag_its_share_of_the_penalty() -> None:
    summary = run_deals("standard", "basic", deals=20, seed=3, progress=False)
    a, b = summary["sides"]["a"], summary["sides"]["b"]
    bags = (a["bags_per_hand"] - b["bags_per_hand"]) * 10
    assert summary["bag_cost"] == 10
    assert summary["margin_bags_at_cost"] == pytest.approx(summary["margin_per_hand"] - bags)
    assert summary["margin_bags_at_cost"] != summary["margin_per_hand"]
    low, high = summary["margin_bags_at_cost_ci95"]
    assert low <= summary["margin_bags_at_cost"] <= high
    bags_off = run_deals(
        "standard", "basic", deals=5, seed=3, rules=Rules(bag_limit=None), progress=False
    )
    assert bags_off["bag_cost"] == 0
    assert bags_off["margin_bags_at_cost"] == bags_off["margin_per_hand"]


def test_a_duplicate_pair_plays_the_same_deals_with_the_sides_swapping_seats() -> None:
    first, second = play_pair((Rules(), 7, ("expert", FAST), ("random", {})))
    assert (first.a_seats, second.a_seats) == (0, 1)
    assert first.seed == second.seed == 7
    for game in (first, second):
        assert game.sides["a"].hands == game.sides["b"].hands == game.hands
        assert game.winner in ("a", "b")


def test_a_small_arena_summary_is_consistent() -> None:
    summary = run_arena("random", "random", matches=4, seed=2, progress=False)
    wins = summary["wins"]
    assert wins["a"] + wins["b"] + wins["draws"] == summary["games"] == 8
    low, high = summary["win_rate_a_ci95"]
    assert low <= summary["win_rate_a"] <= high
    d_low, d_high = summary["points_per_hand_diff_ci95"]
    assert d_low <= summary["points_per_hand_diff"] <= d_high
    for side in summary["sides"].values():
        assert side["hands"] == summary["hands"]
        assert side["bid_exact"] + side["bid_over"] + side["bid_under"] == pytest.approx(1.0)
        assert side["decision_ms_p50"] <= side["decision_ms_p95"]


def test_random_against_itself_mirrors_in_duplicate() -> None:
    # Both sides are the same bot with the same seat seeds, so each pair is a mirror:
    # every deal is won once by each side and the points cancel.
    summary = run_arena("random", "random", matches=3, seed=11, progress=False)
    assert summary["wins"]["a"] == summary["wins"]["b"] == 3
    assert summary["points_per_hand_diff"] == 0


def test_the_stronger_bot_wins_and_the_summary_says_so() -> None:
    summary = run_arena(
        "expert", "random", matches=2, seed=5, a_options=FAST, progress=False, workers=2
    )
    assert summary["wins"]["a"] >= 3
    assert summary["points_per_hand_diff"] > 0
    assert summary["sides"]["a"]["decisions"] > 0


def test_wilson_interval_contains_the_estimate_and_narrows_with_more_games() -> None:
    narrow = wilson_interval(80, 100)
    wide = wilson_interval(8, 10)
    assert narrow[0] <= 0.8 <= narrow[1] and wide[0] <= 0.8 <= wide[1]
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and low < 0.8


def test_the_arena_command_prints_the_deal_margin_first_and_the_matches_after(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["arena", "random", "basic", "--deals", "4", "--matches", "1", "--workers", "1"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("margin per hand, random (A) minus basic (B): ")
    assert "(95% CI " in lines[0] and lines[0].endswith("over 4 deals")
    assert lines[2].startswith("with each bag charged its share of the bag penalty (10 points): ")
    assert any(line.startswith("match wins: ") for line in lines[1:])


def test_arena_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "--a", "random", "--b", "random", "--matches", "2", "--workers", "1", "--json"]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    # Only matches were asked for, so no deals were played.
    assert summary["deals"] is None
    assert summary["matches"]["games"] == 4 and summary["matches"]["a"] == "random"


def test_arena_command_plays_deals_by_default_between_the_bots_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "basic", "random", "--deals", "3", "--workers", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] is None
    assert (summary["deals"]["a"], summary["deals"]["b"], summary["deals"]["deals"]) == (
        "basic",
        "random",
        3,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "random", "basic", "standard"],
        ["arena", "random", "--a", "basic"],
        ["arena", "--deals", "0"],
        ["arena", "--deals", "-1", "--matches", "1"],
    ],
)
def test_arena_command_refuses_contradictory_or_empty_requests(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)
