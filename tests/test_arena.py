"""The arena: duplicate pairs swap seats, the summary adds up, and the command line
prints one JSON object."""

from __future__ import annotations

import json

import pytest

from spades.arena import play_pair, run_arena, wilson_interval
from spades.cli import main
from spades.rules import Rules

FAST = {"iterations": 8, "bid_samples": 6}


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


def test_arena_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["arena", "--a", "random", "--b", "random", "--matches", "2", "--workers", "1", "--json"]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 4 and summary["a"] == "random"
