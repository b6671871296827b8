"""The charts' Vega-Lite specs: counts on whole-number axes and legends, shares in percents."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest

from spades.app import lineups, table_view
from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.stats import analytics
from spades.store import GameFilter, Store
from spades.ui import charts

#: Fields that count something: hands, bids, tricks, bags, games.
COUNTS = {"hand", "bid", "taken", "bags", "n", "games"}
#: Fields that are a share of a whole.
SHARES = {"share", "rate", "win_rate", "running_win_rate", "ns_win_rate", "ns_win_low"}
#: Fields that are neither: points.
OTHERS = {"score"}
SCALES = ("x", "y", "size")


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The spec of every chart the Explore pages draw, from a few stored games."""
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('charts') / 'charts.db'}")
    matches = [play_match(Rules(), seed, ["random"] * 4) for seed in range(4)]
    levels = {seat: "random" for seat in range(4)}
    store.save_matches([(m, ("N", "E", "S", "W"), levels) for m in matches], kind="simulated")
    stats = analytics.seat_stats(store, GameFilter())
    counts = analytics.bid_counts(stats)
    # A player who lost their only game: every rate is 0, the case Vega labels "0.000000%".
    daily = pd.DataFrame(
        {
            "day": pd.to_datetime(["2026-01-01"]),
            "games": [1],
            "wins": [0],
            "win_rate": [0.0],
            "running_win_rate": [0.0],
        }
    )
    nils = analytics.nil_by(analytics.nil_success(stats), "player")
    three = Rules(players=3, partnerships=False)
    cutthroat = [play_match(three, seed, ["random"] * 3) for seed in (7, 8)]
    store.save_matches(
        [(m, ("Left", "Right", "South"), {0: "random", 1: "random"}) for m in cutthroat],
        kind="human",
    )
    names = analytics.line_names(("Left", "Right", "Ann"), mine=True)
    their_counts = analytics.bid_counts(
        analytics.seat_stats(store, GameFilter(variants=("cutthroat3",)))
    )
    built = {
        "score": charts.score_chart(
            analytics.score_progression(matches[0], table_view.TEAM_NAMES),
            analytics.rule_lines(matches[0].rules),
        ),
        "bags": charts.bags_chart(analytics.bags_progression(matches[0]), 10),
        "win_rate": charts.win_rate_chart(daily),
        "scatter": charts.bid_scatter(analytics.by_group(counts, "seat"), "seat"),
        "diff": charts.diff_chart(analytics.diff_distribution(counts, "seat"), "seat"),
        "rates": charts.rates_chart(analytics.accuracy_rates(counts, "seat"), "seat"),
        "nils": charts.nil_chart(analytics.nil_outcomes(nils)),
        "matchups": charts.matchup_chart(lineups.lineups(store, GameFilter())),
        "player_score": charts.score_chart(
            analytics.score_progression(cutthroat[0], names),
            analytics.rule_lines(three),
            "player",
        ),
        "player_bags": charts.bags_chart(
            analytics.bags_progression(cutthroat[0], names), 10, "player"
        ),
        "player_scatter": charts.bid_scatter(analytics.by_group(their_counts, "seat"), "seat"),
        "player_rates": charts.rates_chart(
            analytics.accuracy_rates(their_counts, "player"), "player"
        ),
    }
    return {name: chart.to_dict() for name, chart in built.items()}


def _scales(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every quantitative x, y and size encoding of a chart and its layers."""
    for layer in spec.get("layer", [spec]):
        for channel, encoding in layer.get("encoding", {}).items():
            if channel in SCALES and encoding.get("type") == "quantitative":
                yield channel, encoding


def test_every_quantitative_field_is_a_known_count_share_or_score(
    specs: dict[str, dict[str, Any]],
) -> None:
    fields = {e["field"] for spec in specs.values() for _, e in _scales(spec)}
    assert fields <= COUNTS | SHARES | OTHERS


def test_counts_are_drawn_on_whole_number_axes_and_legends(
    specs: dict[str, dict[str, Any]],
) -> None:
    checked = 0
    for name, spec in specs.items():
        for channel, encoding in _scales(spec):
            if encoding["field"] not in COUNTS:
                continue
            guide = encoding.get("legend" if channel == "size" else "axis", {})
            assert (guide.get("format"), guide.get("tickMinStep")) == ("d", 1), (name, channel)
            checked += 1
    assert checked >= 10


def test_bids_and_tricks_step_by_whole_tricks(specs: dict[str, dict[str, Any]]) -> None:
    dots = specs["scatter"]["layer"][1]["encoding"]
    for channel, field in (("x", "bid"), ("y", "taken")):
        assert dots[channel]["field"] == field
        assert dots[channel]["axis"]["tickMinStep"] == 1
        assert all(isinstance(end, int) for end in dots[channel]["scale"]["domain"])
    assert specs["scatter"]["layer"][1]["encoding"]["size"]["legend"]["format"] == "d"
    assert specs["win_rate"]["layer"][0]["encoding"]["size"]["legend"]["format"] == "d"


def test_shares_are_whole_percents_and_rates_run_from_none_to_all(
    specs: dict[str, dict[str, Any]],
) -> None:
    for name, spec in specs.items():
        for channel, encoding in _scales(spec):
            if encoding["field"] not in SHARES:
                continue
            axis = encoding["axis"]
            assert (axis["format"], axis["tickMinStep"]) == (".0%", 0.01), (name, channel)
            if name != "diff":
                assert encoding["scale"]["domain"] == [0, 1], (name, channel)


def test_the_nil_chart_fills_each_bar_with_made_and_missed(
    specs: dict[str, dict[str, Any]],
) -> None:
    encoding = specs["nils"]["encoding"]
    assert encoding["x"]["field"] == "share"
    assert encoding["color"]["field"] == "outcome"
    assert encoding["color"]["scale"]["domain"] == ["made", "missed"]


def test_the_players_team_is_named_and_coloured_first(specs: dict[str, dict[str, Any]]) -> None:
    color = specs["score"]["layer"][0]["encoding"]["color"]
    assert color["scale"]["domain"] == list(table_view.TEAM_NAMES)
    assert color["scale"]["range"] == charts.TEAM_RANGE


@pytest.mark.parametrize("name", ["player_score", "player_bags"])
def test_cutthroat_draws_a_line_a_player_in_the_players_colours(
    specs: dict[str, dict[str, Any]], name: str
) -> None:
    lines = specs[name]["layer"][0]
    color = lines["encoding"]["color"]
    assert (color["field"], color["title"]) == ("player", "Player")
    assert color["scale"]["domain"] == ["Left", "Right", "You"]
    assert color["scale"]["range"] == charts.PLAYER_RANGE
    assert specs[name]["params"][0]["select"]["fields"] == ["player"]
    assert {t["field"] for t in lines["encoding"]["tooltip"]} >= {"player", "hand"}


def test_cutthroat_bids_reach_seventeen_tricks_on_whole_number_axes(
    specs: dict[str, dict[str, Any]],
) -> None:
    dots = specs["player_scatter"]["layer"][1]["encoding"]
    top = dots["x"]["scale"]["domain"][1]
    assert top == dots["y"]["scale"]["domain"][1] and 13 < top <= 17
    assert dots["color"]["field"] == "seat"


def test_the_partnership_charts_still_colour_teams(specs: dict[str, dict[str, Any]]) -> None:
    for name in ("score", "bags"):
        color = specs[name]["layer"][0]["encoding"]["color"]
        assert (color["field"], color["title"]) == ("team", "Team")
        assert color["scale"]["range"] == charts.TEAM_RANGE


def test_each_lab_win_rate_is_drawn_with_its_95_percent_interval_and_the_even_line(
    specs: dict[str, dict[str, Any]],
) -> None:
    bars, interval, even = specs["matchups"]["layer"]
    assert bars["mark"]["type"] == "bar" and bars["encoding"]["x"]["field"] == "ns_win_rate"
    assert interval["mark"]["type"] == "rule"
    assert (interval["encoding"]["x"]["field"], interval["encoding"]["x2"]["field"]) == (
        "ns_win_low",
        "ns_win_high",
    )
    for layer in (bars, interval):
        assert layer["encoding"]["yOffset"]["field"] == "rule_set"
    assert even["encoding"]["x"]["field"] == "ns_win_rate"
    (half,) = specs["matchups"]["datasets"][even["data"]["name"]]
    assert half == {"ns_win_rate": 0.5}


def test_the_bag_limit_line_is_labelled_with_the_limit(specs: dict[str, dict[str, Any]]) -> None:
    *_, line, label = specs["bags"]["layer"]
    assert line["mark"]["type"] == "rule" and label["mark"]["type"] == "text"
    assert label["encoding"]["text"]["field"] == "rule"
    (limit,) = specs["bags"]["datasets"][label["data"]["name"]]
    assert limit == {"bags": 10, "rule": "bag limit: 10"}


def test_a_circle_counts_at_least_one_so_no_legend_offers_a_circle_of_none(
    specs: dict[str, dict[str, Any]],
) -> None:
    sizes = [
        (name, encoding)
        for name, spec in specs.items()
        for channel, encoding in _scales(spec)
        if channel == "size"
    ]
    assert {name for name, _ in sizes} == {"scatter", "win_rate", "player_scatter"}
    for name, encoding in sizes:
        assert encoding["scale"]["domainMin"] == 1, name
