"""Analytics frames against figures counted directly from the matches that were stored."""

from __future__ import annotations

import random
from datetime import date, datetime
from pathlib import Path

import pandas as pd
import pytest

from spades.app import lineups
from spades.app.lab import MAX_MATCHES, LabJob, LabSpec, StopReason
from spades.bots.drive import play_match
from spades.engine.cards import CLAIM
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.state import Phase
from spades.sim.report import wilson_interval
from spades.stats import analytics
from spades.store import GameFilter, MyGames, Store
from spades.store.schema import games

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


def test_my_stats_count_games_wins_hands_and_souths_nils(data: Stored) -> None:
    stats = analytics.my_stats(data.store, GameFilter())
    matches = data.everything
    assert stats["games"] == len(matches)
    assert stats["wins"] == sum(m.winner == 0 for m in matches)
    assert stats["losses"] == sum(m.winner == 1 for m in matches)
    assert stats["win_rate"] == pytest.approx(stats["wins"] / (stats["wins"] + stats["losses"]))
    assert stats["hands"] == sum(len(m.finished) for m in matches)
    attempts, made = _nil_bids(matches, seats=(2,))
    assert (stats["nil_attempts"], stats["nil_made"]) == (attempts, made)
    ours = [r.teams[0] for m in matches for r in m.results]
    contracts = [t for t in ours if t.made is not None]
    assert stats["set_rate"] == pytest.approx(
        sum(t.made is False for t in contracts) / len(contracts)
    )
    assert stats["points_per_hand"] == pytest.approx(sum(t.points for t in ours) / len(ours))
    assert stats["bags_per_game"] == pytest.approx(sum(t.bags for t in ours) / len(matches))


def test_the_kind_filter_keeps_only_those_games(data: Stored) -> None:
    stats = analytics.my_stats(data.store, GameFilter(kinds=("human",)))
    assert stats["games"] == len(data.human)


def test_the_date_filter_keeps_games_started_in_the_range(data: Stored) -> None:
    day = OLD_DAY.date()
    stats = analytics.my_stats(data.store, GameFilter(start=day, end=day))
    assert stats["games"] == len(data.old)
    later = analytics.my_stats(data.store, GameFilter(start=date(2024, 5, 2)))
    assert later["games"] == len(data.everything) - len(data.old)


def test_the_rule_set_filter_keeps_games_with_those_rules(data: Stored) -> None:
    stats = analytics.my_stats(data.store, GameFilter(rule_sets=("target_score=300",)))
    assert stats["games"] == len(data.short)


def test_the_bot_level_filter_keeps_games_whose_bots_are_all_at_those_levels(
    data: Stored,
) -> None:
    stats = analytics.my_stats(data.store, GameFilter(bot_levels=("basic",)))
    assert stats["games"] == len(data.old)


def _runs(won: list[bool]) -> tuple[int, bool, int]:
    """The last run of equal results, its kind, and the longest run of wins, counted one
    game at a time."""
    current = longest = 0
    for index, result in enumerate(won):
        current = current + 1 if index and won[index - 1] == result else 1
        if result:
            longest = max(longest, current)
    return current, won[-1], longest


def test_streaks_follow_the_games_in_the_order_they_finished(data: Stored) -> None:
    # The old games finished first (they were stored as of their day); the rest in turn.
    ordered = data.old + data.simulated + data.human + data.short
    won = [m.winner == 0 for m in ordered if m.winner is not None]
    found = analytics.streaks(data.store, GameFilter())
    assert (found["current"], found["current_won"], found["longest_win"]) == _runs(won)


def test_streaks_of_no_decided_game_are_empty(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'empty.db'}")
    assert analytics.streaks(store, GameFilter()) == {
        "current": 0,
        "current_won": None,
        "longest_win": 0,
    }


def test_best_and_worst_hands_are_those_of_most_and_fewest_points(data: Stored) -> None:
    hands = analytics.best_and_worst_hands(data.store, GameFilter(), count=3)
    points = sorted(r.teams[0].points for m in data.everything for r in m.results)
    assert list(hands["points"]) == points[::-1][:3] + points[::-1][-3:]
    assert hands["you"].str.contains(" / ").all()


def test_best_and_worst_hands_of_a_short_record_are_each_hand_once(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'one.db'}")
    match = play_match(Rules(), 7, ["random"] * 4, max_hands=2)
    store.save_match(match, players=PLAYERS, kind="human", bot_levels=HUMAN_LEVELS)
    hands = analytics.best_and_worst_hands(store, GameFilter(), count=3)
    assert sorted(hands["hand"]) == [1, 2]


def _own(store: Store, player: str, game_ids: list[str]) -> None:
    with store.engine.begin() as conn:
        conn.execute(games.update().where(games.c.id.in_(game_ids)).values(owner=player))


def test_my_games_are_the_players_own_and_only_the_chosen_others(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'owners.db'}")
    ann, _ = store.new_player("Ann")
    bob, _ = store.new_player("Bob")
    short = [play_match(Rules(), seed, ["random"] * 4, max_hands=1) for seed in range(5)]
    ids = store.save_matches([(m, PLAYERS, HUMAN_LEVELS) for m in short[:4]], kind="human")
    store.save_matches([(short[4], PLAYERS, SIM_LEVELS)], kind="simulated")
    _own(store, ann, ids[:2])
    _own(store, bob, ids[2:3])
    store.new_game(
        rules=Rules(), seed=9, players=PLAYERS, kind="human", bot_levels=HUMAN_LEVELS, owner=bob
    )
    everything = GameFilter(finished_only=False)

    def count(player: str, **chosen: bool) -> int:
        selection = MyGames(everything, player=player, **chosen)
        return int(analytics.my_stats(store, selection)["games"])

    assert (count(ann), count(bob), count("")) == (2, 2, 0)
    assert count(ann, bot_lab=True) == 3
    # Bob's and nobody's finished games, but never Bob's game in play.
    assert count(ann, others=True) == 4
    assert count(ann, bot_lab=True, others=True) == 5


def test_game_summaries_say_in_play_and_whether_you_won(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'summaries.db'}")
    ann, _ = store.new_player("Ann")
    won = next(m for m in (play_match(Rules(), s, ["random"] * 4) for s in range(20)) if m.winner)
    (lost,) = store.save_matches([(won, PLAYERS, HUMAN_LEVELS)], kind="human")
    (theirs,) = store.save_matches([(won, PLAYERS, HUMAN_LEVELS)], kind="human")
    _own(store, ann, [lost])
    playing = store.new_game(
        rules=Rules(), seed=9, players=PLAYERS, kind="human", bot_levels=HUMAN_LEVELS, owner=ann
    )
    mine = GameFilter(finished_only=False, owner=ann, others_finished=True)
    frame = analytics.game_summaries(store, mine).set_index("id")
    assert frame.loc[lost, "result"] == "you lost"
    assert frame.loc[theirs, "result"] == "E/W won"
    assert frame.loc[playing, "result"] == "in play"
    assert "in play" in frame.loc[playing, "label"] and "0–0" not in frame.loc[playing, "label"]


def test_the_latest_game_is_the_players_most_recently_changed_one() -> None:
    summaries = pd.DataFrame(
        {
            "id": ["new", "mine-old", "mine-moved", "other"],
            "owner": [None, "ann", "ann", "bob"],
            "updated_at": pd.to_datetime(["2026-03-01", "2026-01-01", "2026-02-01", "2026-04-01"]),
        }
    )
    assert analytics.latest_game(summaries, "ann") == "mine-moved"
    assert analytics.latest_game(summaries, "cy") == "other"
    assert analytics.latest_game(summaries, None) == "other"


def test_nil_outcomes_give_a_bidder_who_made_none_a_bar_of_misses() -> None:
    by_bidder = pd.DataFrame(
        {"bidder": ["you", "North"], "bid": ["nil", "nil"], "attempts": [3, 2], "made": [0, 1]}
    )
    outcomes = analytics.nil_outcomes(by_bidder).set_index(["who", "outcome"])
    assert outcomes.loc[("you · nil", "missed"), "share"] == 1.0
    assert outcomes.loc[("you · nil", "made"), "share"] == 0.0
    assert outcomes.loc[("North · nil", "made"), "n"] == 1


def test_win_rate_over_time_has_one_row_a_day_and_a_running_rate(data: Stored) -> None:
    daily = analytics.win_rate_over_time(data.store, GameFilter())
    assert len(daily) == 2
    assert daily["games"].sum() == sum(m.winner is not None for m in data.everything)
    last = daily.iloc[-1]
    assert last["running_win_rate"] == pytest.approx(daily["wins"].sum() / daily["games"].sum())


def test_score_progression_starts_at_zero_and_ends_at_the_final_score(data: Stored) -> None:
    match = max(data.simulated, key=lambda m: len(m.finished))
    progression = analytics.score_progression(match)
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
    bags = analytics.bags_progression(match)
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
    table = analytics.hand_table(match)
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


def test_trick_table_names_the_jokers_of_the_table_s_ranking() -> None:
    # Under "deuces" the Little Joker has the 2♥'s id and the 2♦ is a card of its own.
    rules = Rules(jokers=True, joker_ranking="deuces")
    rng = random.Random(3)
    match = Match(rules, seed=3)
    while not match.finished:
        hand = match.hand
        match.apply(rng.choice([a for a in hand.legal_actions() if a != CLAIM]))
    names = ["North", "East", "South", "West"]
    shown = set(analytics.trick_table(match, 0)[names].to_numpy().ravel())
    assert {"Big Joker", "Little Joker", "2♦"} <= shown
    assert "2♥" not in shown and "2♣" not in shown


def _a_claimed_hand() -> tuple[Match, int]:
    """A match played at random, claiming whenever a claim may be made, and the index of
    its first hand that ended in a claim."""
    for seed in range(100):
        rng = random.Random(seed)
        match = Match(Rules(), seed=seed)
        while not match.is_over:
            hand = match.hand
            claims = hand.phase is Phase.PLAYING and hand.can_claim()
            if match.apply(CLAIM if claims else rng.choice(hand.legal_actions())).result is None:
                continue
            if match.finished[-1].claimed_by is not None:
                return match, len(match.finished) - 1
    raise AssertionError("no random match claimed")


def test_a_replayed_hand_follows_the_play_and_its_claim_is_one_last_trick_without_cards() -> None:
    match, index = _a_claimed_hand()
    hand = match.finished[index]
    replayed = analytics.replayed_tricks(match, index)
    names = ("North", "East", "South", "West")
    assert [t.number for t in replayed] == list(range(1, len(hand.tricks) + 2))
    for trick, played in zip(replayed, hand.tricks, strict=False):
        assert trick.plays == tuple((names[seat], card) for seat, card in played.plays())
        assert (trick.leader, trick.winner) == (names[played.leader], names[played.winner])
    claim = replayed[-1]
    assert (claim.plays, claim.leader, claim.winner) == ((), "", names[hand.claimed_by])
    assert list(analytics.trick_table(match, index).iloc[-1][list(names)]) == ["claimed"] * 4


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


def test_a_line_ups_win_rate_comes_with_the_wilson_interval_of_its_decided_matches(
    data: Stored,
) -> None:
    played = {
        ("random+random vs random+random", "standard"): data.simulated,
        ("basic+basic vs basic+basic", "standard"): data.old,
        ("random+random vs random+random", "target_score=300"): data.short,
    }
    found = lineups.lineups(data.store, GameFilter())
    assert len(found) == len(played)
    for row in found.itertuples():
        decided = [m for m in played[row.matchup, row.rule_set] if m.winner is not None]
        assert row.decided == len(decided)
        assert row.ns_wins == sum(m.winner == 0 for m in decided)
        low, high = wilson_interval(row.ns_wins, row.decided)
        assert (row.ns_win_low, row.ns_win_high) == (low, high)
        assert low <= row.ns_win_rate <= high
        assert row.finding == lineups.finding(low, high)


@pytest.mark.parametrize(
    ("wins", "decided", "shown"),
    [
        # Five wins in five: the true rate lies from 57% to 100%, above one half.
        (5, 5, "N/S win more"),
        (0, 5, "E/W win more"),
        # Four in five: from 38% to 96%, across one half.
        (4, 5, lineups.TOO_FEW),
        (0, 0, lineups.TOO_FEW),
        (1000, 2000, "about even"),
        # Half of 100 is as likely from 40% to 60%: too few to call that even.
        (50, 100, lineups.TOO_FEW),
    ],
)
def test_a_line_up_has_too_few_matches_to_tell_while_its_interval_crosses_one_half(
    wins: int, decided: int, shown: str
) -> None:
    assert lineups.finding(*wilson_interval(wins, decided)) == shown


def test_an_empty_store_gives_empty_frames(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'empty.db'}")
    assert analytics.my_stats(store, GameFilter())["games"] == 0
    frames: list[pd.DataFrame] = [
        analytics.win_rate_over_time(store, GameFilter()),
        analytics.seat_stats(store, GameFilter()),
        analytics.matchup_results(store, GameFilter()),
        lineups.lineups(store, GameFilter()),
        analytics.game_summaries(store, GameFilter()),
        analytics.best_and_worst_hands(store, GameFilter()),
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
