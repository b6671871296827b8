"""The arena: duplicate deals and pairs turn the bots round the table (the partnership
game's swap seats, cutthroat's put every bot in every seat), the summaries add up, the
margin per hand is the headline, and the command line prints it first."""

from __future__ import annotations

import dataclasses
import json

import pytest

from spades.cli import main
from spades.engine.rules import Rules
from spades.sim.arena import (
    BotSpec,
    lineup_of,
    play_deal,
    play_pair,
    run_deals,
    run_matches,
    seatings,
)
from spades.sim.report import DealSummary, SideSummary, format_deals, wilson_interval

FAST = {"iterations": 8, "bid_samples": 6}
THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)


def bots(*names: str) -> list[BotSpec]:
    return [(name, {}) for name in names]


def untimed(side: SideSummary) -> SideSummary:
    """A bot's figures without its decision times, which depend on the machine."""
    return dataclasses.replace(side, decision_ms_p50=0.0, decision_ms_p95=0.0)


def figures(summary: DealSummary) -> DealSummary:
    """A deal summary without what depends on the machine: the decision times and the
    worker count."""
    return dataclasses.replace(
        summary, workers=0, sides=tuple(untimed(side) for side in summary.sides)
    )


def test_a_duplicate_deal_is_one_hand_played_twice_with_the_sides_swapping_seats() -> None:
    deal = play_deal((Rules(), 7, (("standard", {}), ("random", {}))))
    assert deal.seed == 7
    assert [play.bots for play in deal.plays] == [(0, 1), (1, 0)]
    assert deal.sides[0].hands == deal.sides[1].hands == 2
    assert deal.margin() == (deal.sides[0].points - deal.sides[1].points) / 2


def test_a_bot_against_itself_has_a_deal_margin_interval_containing_zero() -> None:
    summary = run_deals(bots("random", "random"), deals=200, seed=1, progress=False)
    low, high = summary.margin.ci95
    assert low <= 0 <= high
    # Both sides are the same bot with the same seat seeds: each deal mirrors exactly.
    assert summary.margin.per_hand == summary.margin.sd == 0


def test_swapping_the_bots_negates_the_deal_margin_exactly() -> None:
    ab = run_deals(bots("basic", "random"), deals=30, seed=4, progress=False)
    ba = run_deals(bots("random", "basic"), deals=30, seed=4, progress=False)
    assert ab.margin.per_hand == -ba.margin.per_hand != 0
    assert figures(ab).sides[0] == figures(ba).sides[1]


def test_deal_results_are_the_same_with_one_worker_or_two() -> None:
    one = run_deals(bots("standard", "random"), deals=12, seed=9, workers=1, progress=False)
    two = run_deals(bots("standard", "random"), deals=12, seed=9, workers=2, progress=False)
    assert figures(one) == figures(two)


def test_standard_beats_random_by_a_deal_margin_whose_interval_is_above_zero() -> None:
    summary = run_deals(bots("standard", "random"), deals=30, seed=2, progress=False)
    low, _ = summary.margin.ci95
    assert low > 0
    a, b = summary.sides
    assert a.points_per_hand - b.points_per_hand == pytest.approx(summary.margin.per_hand)
    assert a.decisions > 0 and a.decision_ms_p50 <= a.decision_ms_p95


def test_the_second_deal_figure_charges_each_bag_its_share_of_the_penalty() -> None:
    summary = run_deals(bots("standard", "basic"), deals=20, seed=3, progress=False)
    a, b = summary.sides
    bags = (a.bags_per_hand - b.bags_per_hand) * 10
    margin = summary.margin
    assert summary.bag_cost == 10
    assert margin.bags_at_cost == pytest.approx(margin.per_hand - bags)
    assert margin.bags_at_cost != margin.per_hand
    low, high = margin.bags_at_cost_ci95
    assert low <= margin.bags_at_cost <= high
    bags_off = run_deals(
        bots("standard", "basic"), deals=5, seed=3, rules=Rules(bag_limit=None), progress=False
    )
    assert bags_off.bag_cost == 0
    assert bags_off.margin.bags_at_cost == bags_off.margin.per_hand


def test_a_duplicate_pair_plays_the_same_deals_with_the_sides_swapping_seats() -> None:
    first, second = play_pair((Rules(), 7, (("expert", FAST), ("random", {}))))
    assert (first.at, second.at) == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert first.seed == second.seed == 7
    for game in (first, second):
        assert game.sides[0].hands == game.sides[1].hands == game.hands
        assert game.winner in (0, 1)


def test_a_small_arena_summary_is_consistent() -> None:
    summary = run_matches(bots("random", "random"), matches=4, seed=2, progress=False)
    assert sum(summary.wins) + summary.draws == summary.games == 8
    low, high = summary.win_rate_a_ci95
    assert low <= summary.win_rate_a <= high
    d_low, d_high = summary.points_per_hand_diff_ci95
    assert d_low <= summary.points_per_hand_diff <= d_high
    for side in summary.sides:
        assert side.hands == summary.hands
        assert side.bid_exact + side.bid_over + side.bid_under == pytest.approx(1.0)
        assert side.decision_ms_p50 <= side.decision_ms_p95


def test_random_against_itself_mirrors_in_duplicate() -> None:
    # Both sides are the same bot with the same seat seeds, so each pair is a mirror:
    # every deal is won once by each side and the points cancel.
    summary = run_matches(bots("random", "random"), matches=3, seed=11, progress=False)
    assert summary.wins == (3, 3)
    assert summary.points_per_hand_diff == 0


def test_the_stronger_bot_wins_and_the_summary_says_so() -> None:
    summary = run_matches(
        [("expert", FAST), ("random", {})], matches=2, seed=5, progress=False, workers=2
    )
    assert summary.wins[0] >= 3
    assert summary.points_per_hand_diff > 0
    assert summary.sides[0].decisions > 0


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
    assert summary["matches"]["wins"]["a"] + summary["matches"]["wins"]["b"] <= 4


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


def test_arena_command_json_keeps_the_figures_under_their_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "basic", "random", "--deals", "3", "--workers", "1", "--json"]) == 0
    deals = json.loads(capsys.readouterr().out)["deals"]
    summary = run_deals(bots("basic", "random"), deals=3, seed=0, progress=False)
    assert deals["margin_per_hand"] == summary.margin.per_hand
    assert deals["margin_bags_at_cost_ci95"] == list(summary.margin.bags_at_cost_ci95)
    assert deals["bag_cost"] == summary.bag_cost == 10
    assert deals["sides"]["b"]["nil_bids"] == summary.sides[1].nil_bids
    assert deals["rules"] == Rules().to_dict()


# ---------------------------------------------------------------------- cutthroat
def test_duplicate_lineups_put_a_team_against_a_team_or_bot_a_in_one_seat() -> None:
    assert lineup_of(Rules(), 2) == (0, 1, 0, 1)
    assert lineup_of(THREE, 2) == (0, 1, 1)
    assert lineup_of(FOUR, 2) == (0, 1, 1, 1)
    assert lineup_of(THREE, 3) == (0, 1, 2)
    with pytest.raises(ValueError, match="two bots or one a side"):
        lineup_of(FOUR, 3)
    with pytest.raises(ValueError, match="partnership duplicate takes two bots"):
        lineup_of(Rules(), 4)


def test_every_bot_sits_in_every_seat_once_over_the_seatings() -> None:
    assert seatings((0, 1, 0, 1)) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    turns = seatings((0, 1, 1, 1))
    assert len(turns) == 4
    assert all(sorted(column) == [0, 1, 1, 1] for column in zip(*turns, strict=True))


@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
def test_cutthroat_duplicate_of_a_bot_against_itself_mirrors_exactly(rules: Rules) -> None:
    summary = run_deals(bots("standard", "standard"), deals=4, seed=2, rules=rules, progress=False)
    assert summary.margin.per_hand == 0.0
    assert summary.margin.ci95 == (0.0, 0.0)
    assert {edge.per_hand for edge in summary.edges} == {0.0}


def test_cutthroat_duplicate_turns_every_bot_through_every_seat_and_sees_the_stronger() -> None:
    summary = run_deals(bots("standard", "random"), deals=12, seed=0, rules=THREE, progress=False)
    assert summary.lineup == ("standard", "random", "random")
    assert summary.sides[0].hands == 12 * 3 and summary.sides[1].hands == 12 * 6
    assert summary.margin.ci95[0] > 0 and summary.edges[0].per_hand > 0
    # The edges over the table, weighted by the seats each bot holds, add up to nothing.
    edges = summary.edges
    assert edges[0].per_hand + 2 * edges[1].per_hand == pytest.approx(0.0)


def test_cutthroat_duplicate_figures_are_the_same_with_one_worker_or_two() -> None:
    three = bots("standard", "basic", "random")
    one = run_deals(three, deals=4, seed=9, rules=THREE, workers=1, progress=False)
    two = run_deals(three, deals=4, seed=9, rules=THREE, workers=2, progress=False)
    assert one.margins == two.margins and one.edges == two.edges
    assert [(m.a, m.b) for m in one.margins] == [(0, 1), (0, 2), (1, 2)]


def test_cutthroat_deal_report_names_every_pair_and_every_edge() -> None:
    summary = run_deals(bots("basic", "random"), deals=3, seed=1, rules=FOUR, progress=False)
    lines = format_deals(summary).splitlines()
    assert lines[0].startswith("margin per hand, basic (A) minus random (B): ")
    assert lines[1].startswith("cutthroat, 4 players: each deal played from 0-0 once for each")
    assert lines[2].startswith("A minus B with each bag charged 10 points: ")
    assert lines[3].startswith("A basic: edge over the table ")
    data = summary.to_dict()
    assert data["margin_per_hand"] == data["margins"][0]["margin_per_hand"]
    assert data["edges"]["b"]["points_per_hand"] == summary.sides[1].points_per_hand


def test_cutthroat_arena_command_prints_the_margins_and_edges(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "standard", "basic", "random", "--players", "3", "--deals", "2"]
    assert main([*argv, "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("margin per hand, standard (A) minus basic (B):")
    assert "C random: edge over the table" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "standard", "basic", "--players", "3", "--matches", "2"],
        ["arena", "standard", "basic", "random", "--players", "4", "--deals", "2"],
        ["arena", "--a", "standard", "--players", "3", "--deals", "2"],
        ["arena", "standard", "basic", "--players", "3", "--deals", "0"],
    ],
)
def test_cutthroat_arena_command_refuses_what_it_cannot_play(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        main(argv)


def test_duplicate_matches_are_refused_in_cutthroat() -> None:
    with pytest.raises(ValueError, match="partnership game's"):
        run_matches(bots("basic", "basic"), matches=1, seed=0, rules=THREE, progress=False)
