"""Analytics frames against figures counted directly from the matches that were stored."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pandas as pd
import pytest

from spades import analytics
from spades.app.lab import MAX_MATCHES, LabJob, LabSpec, StopReason
from spades.drive import play_match
from spades.match import Match
from spades.rules import Rules
from spades.store import GameFilter, Store

HUMAN_LEVELS = {0: "random", 1: "random", 3: "random"}
SIM_LEVELS = {seat: "random" for seat in range(4)}
PLAYERS = ("N", "E", "S", "W")
OLD_DAY = datetime(2024, 5, 1, 12, 0)


class Stored:
    """A store with simulated, human, old and other-rules games, and the matches behind it."""

    def __init__(self, root: Path) -> None:
        self.store = Store(f"sqlite:///{root / 'analytics.db'}")
        self.simulated = [play_match(Rules(), seed, ["random"] * 4) for seed in range(12)]
        self.human = [play_match(Rules(), seed, ["random"] * 4) for seed in range(100, 106)]
        self.old = [play_match(Rules(), seed, ["random"] * 4) for seed in range(200, 203)]
        self.short = [play_match(Rules(target_score=300), s, ["random"] * 4) for s in (300, 301)]
        self.store.save_matches(
            [(m, PLAYERS, SIM_LEVELS) for m in self.simulated], kind="simulated"
        )
        self.store.save_matches([(m, PLAYERS, HUMAN_LEVELS) for m in self.human], kind="human")
        self.store.save_matches(
            [(m, PLAYERS, {s: "basic" for s in range(4)}) for m in self.old],
            kind="simulated",
            started_at=OLD_DAY,
        )
        self.store.save_matches([(m, PLAYERS, SIM_LEVELS) for m in self.short], kind="simulated")

    @property
    def everything(self) -> list[Match]:
        return self.simulated + self.human + self.old + self.short


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    return Stored(tmp_path_factory.mktemp("analytics"))


def _nil_bids(matches: list[Match], seats: tuple[int, ...] = (0, 1, 2, 3)) -> tuple[int, int]:
    attempts = made = 0
    for match in matches:
        for hand in match.finished:
            for seat in seats:
                if hand.bids[seat] == 0:
                    attempts += 1
                    made += hand.tricks_won[seat] == 0
    return attempts, made


def test_overview_counts_games_wins_hands_and_nils(data: Stored) -> None:
    kpis = analytics.overview_kpis(data.store, GameFilter())
    matches = data.everything
    decided = [m for m in matches if m.winner is not None]
    assert kpis["games"] == len(matches)
    assert kpis["win_rate"] == pytest.approx(sum(m.winner == 0 for m in decided) / len(decided))
    assert kpis["hands"] == sum(len(m.finished) for m in matches)
    attempts, made = _nil_bids(matches)
    assert (kpis["nil_attempts"], kpis["nil_success"]) == (attempts, pytest.approx(made / attempts))
    teams = [t for m in matches for r in m.results for t in r.teams if t.made is not None]
    assert kpis["set_rate"] == pytest.approx(sum(t.made is False for t in teams) / len(teams))
    points = [r.teams[0].points for m in matches for r in m.results]
    assert kpis["points_per_hand_ns"] == pytest.approx(sum(points) / len(points))


def test_the_kind_filter_keeps_only_those_games(data: Stored) -> None:
    kpis = analytics.overview_kpis(data.store, GameFilter(kinds=("human",)))
    assert kpis["games"] == len(data.human)


def test_the_date_filter_keeps_games_started_in_the_range(data: Stored) -> None:
    day = OLD_DAY.date()
    kpis = analytics.overview_kpis(data.store, GameFilter(start=day, end=day))
    assert kpis["games"] == len(data.old)
    later = analytics.overview_kpis(data.store, GameFilter(start=date(2024, 5, 2)))
    assert later["games"] == len(data.everything) - len(data.old)


def test_the_rule_set_filter_keeps_games_with_those_rules(data: Stored) -> None:
    kpis = analytics.overview_kpis(data.store, GameFilter(rule_sets=("target_score=300",)))
    assert kpis["games"] == len(data.short)


def test_the_bot_level_filter_keeps_games_whose_bots_are_all_at_those_levels(
    data: Stored,
) -> None:
    kpis = analytics.overview_kpis(data.store, GameFilter(bot_levels=("basic",)))
    assert kpis["games"] == len(data.old)


def test_win_rate_over_time_has_one_row_a_day_and_a_running_rate(data: Stored) -> None:
    daily = analytics.win_rate_over_time(data.store, GameFilter())
    assert len(daily) == 2
    assert daily["games"].sum() == sum(m.winner is not None for m in data.everything)
    last = daily.iloc[-1]
    assert last["running_win_rate"] == pytest.approx(daily["wins"].sum() / daily["games"].sum())


def test_score_progression_starts_at_zero_and_ends_at_the_final_score(data: Stored) -> None:
    match = max(data.simulated, key=lambda m: len(m.finished))
    progression = analytics.score_progression(analytics.game_hands(match))
    ns = progression[progression["team"] == "N/S"].sort_values("hand")
    ew = progression[progression["team"] == "E/W"].sort_values("hand")
    assert list(ns["score"]) == [0, *(s[0] for s in match.score_history())]
    assert ew["score"].iloc[-1] == match.scores[1]


def _with_penalty() -> Match:
    """A match in which some team paid a bag penalty (a low bag limit makes it likely)."""
    for seed in range(100):
        match = play_match(Rules(bag_limit=2, bag_penalty=50), seed, ["random"] * 4)
        if any(team.penalty for result in match.results for team in result.teams):
            return match
    raise AssertionError("no seed under 100 gave a bag penalty")


def test_bag_penalty_markers_fall_on_the_hands_that_paid_one() -> None:
    match = _with_penalty()
    bags = analytics.bags_progression(analytics.game_hands(match))
    paid = bags[bags["penalty"] > 0]
    marked = set(zip(paid["hand"], paid["team"], strict=True))
    expected = {
        (number, ("N/S", "E/W")[team])
        for number, result in enumerate(match.results, 1)
        for team in (0, 1)
        if result.teams[team].penalty
    }
    assert marked == expected


def test_hand_table_names_nil_and_blind_nil_bids(data: Stored) -> None:
    match = next(m for m in data.everything if any(b == 0 for h in m.finished for b in h.bids))
    table = analytics.hand_table(analytics.game_hands(match))
    cells = table[["North", "East", "South", "West"]].to_numpy().ravel()
    assert any(str(cell).startswith(("nil /", "blind nil /")) for cell in cells)
    assert len(table) == len(match.finished)


def test_trick_table_lists_the_thirteen_tricks_with_their_winners(data: Stored) -> None:
    match = data.simulated[0]
    hand = match.finished[0]
    tricks = analytics.trick_table(match, 0)
    assert len(tricks) == 13 if hand.claimed_by is None else len(hand.tricks) + 1
    names = ("North", "East", "South", "West")
    assert list(tricks["winner"][: len(hand.tricks)]) == [names[t.winner] for t in hand.tricks]


def test_bid_counts_cover_every_numeric_bid(data: Stored) -> None:
    counts = analytics.bid_counts(analytics.seat_stats(data.store, GameFilter()))
    numeric = sum(1 for m in data.everything for h in m.finished for b in h.bids if b)
    assert counts["n"].sum() == numeric
    exact = sum(
        1
        for m in data.everything
        for h in m.finished
        for seat, b in enumerate(h.bids)
        if b and h.tricks_won[seat] == b
    )
    assert counts.loc[counts["diff"] == 0, "n"].sum() == exact


def test_accuracy_rates_add_up_to_one_per_group(data: Stored) -> None:
    counts = analytics.bid_counts(analytics.seat_stats(data.store, GameFilter()))
    rates = analytics.accuracy_rates(counts, "seat")
    assert set(rates["outcome"]) <= {"exact", "over", "under"}
    sums = rates.groupby("seat")["rate"].sum()
    assert sums.to_numpy() == pytest.approx([1.0] * 4)


def test_the_human_seat_is_you_and_the_others_are_bots(data: Stored) -> None:
    counts = analytics.bid_counts(analytics.seat_stats(data.store, GameFilter(kinds=("human",))))
    players = counts.groupby("seat")["player"].unique()
    assert list(players["South"]) == ["you"]
    assert list(players["North"]) == ["bot: random"]


def test_nil_success_by_bidder_matches_the_hands(data: Stored) -> None:
    nils = analytics.nil_success(analytics.seat_stats(data.store, GameFilter(kinds=("human",))))
    by_player = analytics.nil_by(nils, "player").set_index("bidder")
    attempts, made = _nil_bids(data.human, seats=(2,))
    if attempts:
        you = by_player.loc[["you"]]
        assert (you["attempts"].sum(), you["made"].sum()) == (attempts, made)
    assert by_player["success"].between(0, 1).all()


def test_matchups_group_simulated_games_by_line_up_and_rules(data: Stored) -> None:
    results = analytics.matchup_results(data.store, GameFilter())
    games = dict(
        zip(
            zip(results["matchup"], results["rule_set"], strict=True), results["games"], strict=True
        )
    )
    assert games == {
        ("random+random vs random+random", "standard"): len(data.simulated),
        ("basic+basic vs basic+basic", "standard"): len(data.old),
        ("random+random vs random+random", "target_score=300"): len(data.short),
    }


def test_an_empty_store_gives_empty_frames(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'empty.db'}")
    assert analytics.overview_kpis(store, GameFilter())["games"] == 0
    frames: list[pd.DataFrame] = [
        analytics.win_rate_over_time(store, GameFilter()),
        analytics.seat_stats(store, GameFilter()),
        analytics.matchup_results(store, GameFilter()),
        analytics.game_summaries(store, GameFilter()),
    ]
    assert all(frame.empty for frame in frames)


def test_a_stopped_lab_run_keeps_exactly_the_matches_it_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    job = LabJob(
        url, LabSpec(("random",) * 4, Rules(), matches=MAX_MATCHES, seed=0), owner="analyst"
    )
    while job.running and job.done == 0:
        job.wait(timeout=0.05)
    job.stop()
    assert job.wait(timeout=120)
    assert not job.failed
    assert 0 < job.done < MAX_MATCHES
    assert job.stop_reason is StopReason.ASKED
    assert len(Store(url).list_games()) == job.done
