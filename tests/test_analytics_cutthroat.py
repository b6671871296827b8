"""The analytics frames of cutthroat games against figures counted directly from the matches
stored, and kept apart from the partnership game's."""

from __future__ import annotations

import statistics
from pathlib import Path

import pandas as pd
import pytest

from spades.bots.drive import play_match
from spades.engine.cards import SOUTH
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.stats import analytics
from spades.stats.ratings import RATER
from spades.store import CUTTHROAT_3, CUTTHROAT_4, PARTNERSHIP, GameFilter, MyGames, Store

THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)
NAMES = {3: ("Left", "Right", "Ann"), 4: ("North", "East", "Ann", "West")}


class Stored:
    """Ann's cutthroat games for three and for four, the bot lab's, and partnership ones."""

    def __init__(self, root: Path) -> None:
        self.store = Store(f"sqlite:///{root / 'cutthroat.db'}", rater=RATER)
        self.ann, _ = self.store.new_player("Ann")
        self.three = [play_match(THREE, seed, ["random"] * 3) for seed in range(7, 12)]
        self.four = [play_match(FOUR, seed, ["random"] * 4) for seed in range(20, 24)]
        self.lab = [play_match(FOUR, seed, ["random"] * 4) for seed in range(30, 33)]
        self.partnership = [play_match(Rules(), seed, ["random"] * 4) for seed in range(3)]
        for matches, players in ((self.three, 3), (self.four, 4)):
            levels = {seat: "random" for seat in range(players) if seat != SOUTH}
            self.store.save_matches(
                [(m, NAMES[players], levels) for m in matches], kind="human", owner=self.ann
            )
        everyone = {seat: "random" for seat in range(4)}
        self.store.save_matches([(m, NAMES[4], everyone) for m in self.lab], kind="simulated")
        self.store.save_matches(
            [(m, NAMES[4], everyone) for m in self.partnership], kind="simulated"
        )

    def mine(self, variant: str) -> MyGames:
        return MyGames(GameFilter(variants=(variant,)), player=self.ann)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Stored:
    return Stored(tmp_path_factory.mktemp("cutthroat"))


def _played(match: Match, seat: int) -> list[tuple[int, int, bool]]:
    """(bid, tricks, blind) of each hand ``seat`` played."""
    return [
        (hand.bids[seat], hand.tricks_won[seat], hand.blind[seat])
        for hand in match.finished
        if seat not in hand.out
    ]


def test_the_three_handed_games_include_a_knock_out() -> None:
    # The figures below cover a player who sat hands out.
    assert any(m.out for m in [play_match(THREE, seed, ["random"] * 3) for seed in range(7, 12)])


@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
def test_score_progression_has_a_line_a_player_from_zero_to_their_final_score(
    rules: Rules,
) -> None:
    match = play_match(rules, 7, ["random"] * rules.players)
    names = analytics.line_names(NAMES[rules.players], mine=True)
    frame = analytics.score_progression(match, names)
    assert set(frame["player"]) == set(names) and "You" in names
    for seat, name in enumerate(names):
        line = frame[frame["player"] == name].sort_values("hand")
        assert line["score"].iloc[0] == 0 and line["hand"].iloc[0] == 0
        assert line["score"].iloc[-1] == match.scores[seat]
        played = [n for n, hand in enumerate(match.finished, 1) if seat not in hand.out]
        assert list(line["hand"]) == [0, *played]


@pytest.mark.parametrize(
    ("rules", "side", "sides"),
    [(Rules(), "team", 2), (THREE, "player", 3), (FOUR, "player", 4)],
    ids=["partnership", "three", "four"],
)
def test_one_games_frames_take_teams_or_players_from_its_rules(
    rules: Rules, side: str, sides: int
) -> None:
    match = play_match(rules, 7, ["random"] * rules.players)
    assert analytics.side(rules) == side
    for frame in (analytics.score_progression(match), analytics.bags_progression(match)):
        assert frame[side].nunique() == sides


def test_bags_progression_follows_each_players_count_and_marks_their_penalties() -> None:
    match = play_match(THREE, 7, ["random"] * 3)
    names = analytics.line_names(NAMES[3], mine=False)
    frame = analytics.bags_progression(match, names)
    for seat, name in enumerate(names):
        mine = frame[frame["player"] == name]
        results = [
            r.players[seat]
            for r, h in zip(match.results, match.finished, strict=True)
            if seat not in h.out
        ]
        assert list(mine["bags"]) == [r.bags_after for r in results]
        assert list(mine["penalty"]) == [r.penalty for r in results]
    assert (frame["penalty"] > 0).any()


def test_the_scoresheet_shows_each_players_bid_and_a_knocked_out_player_as_out() -> None:
    match = play_match(THREE, 7, ["random"] * 3)
    assert match.out
    names = analytics.line_names(NAMES[3], mine=False)
    table = analytics.hand_table(match, names)
    assert len(table) == len(match.finished)
    out = names[match.out[0]]
    last = table.iloc[-1]
    assert last[out] == "out" and pd.isna(last[f"{out} points"])
    standing = [seat for seat in range(3) if seat not in match.out]
    for seat in standing:
        assert last[f"{names[seat]} score"] == match.scores[seat]
    dealer = names[match.finished[-1].dealer]
    assert last["dealer"] == dealer


def test_seat_stats_count_every_cutthroat_bid_of_the_filtered_games_only(data: Stored) -> None:
    for variant, matches, seats in (
        (CUTTHROAT_3, data.three, ("Left", "Right", "South")),
        (CUTTHROAT_4, data.four + data.lab, ("North", "East", "South", "West")),
    ):
        stats = analytics.seat_stats(data.store, GameFilter(variants=(variant,)))
        for seat, name in enumerate(seats):
            expected: dict[tuple[int, int, bool], int] = {}
            for match in matches:
                for key in _played(match, seat):
                    expected[key] = expected.get(key, 0) + 1
            got: dict[tuple[int, int, bool], int] = {}
            for row in stats[stats["seat"] == name].itertuples():
                key = (int(row.bid), int(row.taken), bool(row.blind))
                got[key] = got.get(key, 0) + int(row.n)
            assert got == expected, (variant, name)
    # The partnership game's stats hold its own hands only, and cutthroat's none of them.
    partnership = analytics.seat_stats(data.store, GameFilter())
    assert partnership["n"].sum() == 4 * sum(len(m.finished) for m in data.partnership)
    ours = analytics.seat_stats(data.store, GameFilter(variants=(CUTTHROAT_3, CUTTHROAT_4)))
    played = [(m, 3) for m in data.three] + [(m, 4) for m in data.four + data.lab]
    assert ours["n"].sum() == sum(len(_played(m, s)) for m, n in played for s in range(n))


def test_bid_accuracy_per_player_is_the_share_of_exact_bids(data: Stored) -> None:
    stats = analytics.seat_stats(data.store, GameFilter(variants=(CUTTHROAT_4,), kinds=("human",)))
    rates = analytics.accuracy_rates(analytics.bid_counts(stats), "player")
    exact = rates[rates["outcome"] == "exact"].set_index("player")["rate"]
    mine = [(b, t) for m in data.four for b, t, _ in _played(m, SOUTH) if b]
    assert exact.get("you", 0.0) == pytest.approx(sum(b == t for b, t in mine) / len(mine))
    bots = [(b, t) for m in data.four for s in (0, 1, 3) for b, t, _ in _played(m, s) if b]
    assert exact["bot: random"] == pytest.approx(sum(b == t for b, t in bots) / len(bots))


@pytest.mark.parametrize("variant", [CUTTHROAT_3, CUTTHROAT_4])
def test_my_stats_are_south_s_own_figures(data: Stored, variant: str) -> None:
    matches = data.three if variant == CUTTHROAT_3 else data.four
    stats = analytics.my_stats(data.store, data.mine(variant))
    wins = sum(m.winner == SOUTH for m in matches)
    decided = sum(m.winner is not None for m in matches)
    hands = [h for m in matches for h in _played(m, SOUTH)]
    nils = [(b, t) for b, t, _ in hands if b == 0]
    bags = sum(r.players[SOUTH].bags for m in matches for r in m.results)
    points = [
        r.players[SOUTH].points
        for m in matches
        for r, h in zip(m.results, m.finished, strict=True)
        if SOUTH not in h.out
    ]
    assert (stats["games"], stats["wins"], stats["losses"]) == (
        len(matches),
        wins,
        decided - wins,
    )
    assert stats["hands"] == len(hands)
    assert (stats["nil_attempts"], stats["nil_made"]) == (len(nils), sum(t == 0 for _, t in nils))
    assert stats["bags_per_game"] == pytest.approx(bags / len(matches))
    assert stats["points_per_hand"] == pytest.approx(sum(points) / len(points))
    mine = data.store.list_games(GameFilter(owner=data.ann, variants=(variant,)))
    assert statistics.fmean(g.place_s or 0 for g in mine) == pytest.approx(stats["mean_place"])
    assert sorted(g.winner == SOUTH for g in mine) == sorted(g.place_s == 1 for g in mine)
    streaks = analytics.streaks(data.store, data.mine(variant))
    last = [m.winner == SOUTH for m in matches][-1]
    assert streaks["current_won"] == last


def test_the_partnership_figures_leave_cutthroat_out(data: Stored) -> None:
    mine = analytics.my_stats(data.store, data.mine(PARTNERSHIP))
    assert mine["games"] == 0 and mine["hands"] == 0
    every = analytics.my_stats(
        data.store, MyGames(GameFilter(variants=(PARTNERSHIP,)), "", bot_lab=True)
    )
    assert every["games"] == len(data.partnership)
    matchups = analytics.matchup_results(data.store, GameFilter())
    assert matchups["games"].sum() == len(data.partnership)


def test_game_summaries_name_the_game_each_players_score_and_whether_you_won(
    data: Stored,
) -> None:
    frame = analytics.game_summaries(
        data.store, GameFilter(owner=data.ann, others_finished=True, finished_only=False)
    )
    by_id = frame.set_index("id")
    ids = [g.id for g in data.store.list_games(GameFilter(owner=data.ann, variants=(CUTTHROAT_3,)))]
    for game_id in ids:
        match = data.store.load(game_id).match
        row = by_id.loc[game_id]
        assert "cutthroat, 3 players" in row["label"]
        assert "–".join(map(str, match.scores)) in row["label"]
        assert row["result"] == ("you won" if match.winner == SOUTH else "you lost")
    lab = by_id[by_id["kind"] == "simulated"]
    four = lab[lab["variant"] == CUTTHROAT_4]
    seats = ("North", "East", "South", "West")
    for game_id, row in four.iterrows():
        winner = data.store.load(str(game_id)).match.winner
        assert row["result"] == (f"{seats[winner]} won" if winner is not None else "no winner")
    count = data.store.list_games(GameFilter(variants=(CUTTHROAT_4,), kinds=("simulated",)))
    assert len(four) == len(count) == len(data.lab)
    assert len(frame) == len(data.store.list_games())
