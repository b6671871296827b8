"""Skill ratings: the update of one match against openskill's own, the fold of a subject
met at more than one seat, and the store's ratings (on SQLite and on PostgreSQL): which
games count, the incremental updates and the rebuild, the upgrade from schema 5."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from db_helpers import PLAYERS_V6, run_sql, select_frame
from openskill.models import PlackettLuce

from spades import cli
from spades.bots.drive import play_match
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.stats.leaderboard import leaderboard, rating_history
from spades.stats.ratings import RATER, Rating, rate_cutthroat, rate_match, rated_subjects
from spades.store import SCHEMA_VERSION, BoardFilter, Store, StoreError
from spades.store.ratings import bot, person
from spades.store.schema import rating_events, ratings
from spades.store.tables import Tables

# Short matches: a hand or two each, so a test can play many through the store.
SHORT = Rules(target_score=100, mercy_score=None)
PLAYERS = ("North", "East", "You", "West")
LINE_UP = {0: "expert", 1: "basic", 3: "random"}
SUBJECTS = ("person:a", "bot:expert", "person:b", "bot:basic")


def _library(
    teams: Sequence[Sequence[Rating]], ranks: list[float]
) -> list[list[tuple[float, float]]]:
    """What openskill's own model makes of the teams: (mu, sigma) a seat."""
    model = PlackettLuce()
    rated = model.rate([[model.rating(r.mu, r.sigma) for r in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def _after(updates: Sequence[Any]) -> dict[str, tuple[float, float]]:
    return {u.subject: (u.after.mu, u.after.sigma) for u in updates}


# ---------------------------------------------------------------------- one match
@pytest.mark.parametrize("winner", [0, 1])
def test_the_winning_team_gains_and_the_losing_team_loses(winner: int) -> None:
    updates = rate_match(SUBJECTS, winner, {})
    assert len(updates) == 4
    for u in updates:
        team = 0 if u.seats & 0b0101 else 1
        assert u.won is (team == winner)
        assert (u.after.mu > u.before.mu) is (team == winner)
        assert u.after.sigma < u.before.sigma


@pytest.mark.parametrize(
    ("winner", "ranks"), [(0, [0.0, 1.0]), (1, [1.0, 0.0]), (None, [0.0, 0.0])], ids=str
)
def test_four_distinct_subjects_move_exactly_as_the_library_rates_them(
    winner: int | None, ranks: list[float]
) -> None:
    known = {
        "person:a": Rating(31.0, 4.0),
        "bot:expert": Rating(27.5, 6.0),
        "person:b": Rating(22.0, 7.5),
    }
    updates = rate_match(SUBJECTS, winner, known)
    start = [known.get(s, Rating()) for s in SUBJECTS]
    (north, south), (east, west) = _library([[start[0], start[2]], [start[1], start[3]]], ranks)
    assert _after(updates) == {
        "person:a": north,
        "person:b": south,
        "bot:expert": east,
        "bot:basic": west,
    }
    assert {u.subject: u.before for u in updates} == dict(zip(SUBJECTS, start, strict=True))
    if winner is None:
        assert all(u.won is None for u in updates)


def test_a_subject_on_both_teams_played_itself_and_keeps_its_rating() -> None:
    seats = [bot("standard"), bot("standard"), person("a"), bot("standard")]
    known = {bot("standard"): Rating(20.0, 3.0)}
    updates = rate_match(seats, 0, known)
    assert [u.subject for u in updates] == [person("a")]
    assert rated_subjects(seats) == [person("a")]
    # Its seats are still the strength the person and their partner met.
    standard = known[bot("standard")]
    (_, south), _ = _library([[standard, Rating()], [standard, standard]], [0, 1])
    assert _after(updates)[person("a")] == south


def test_a_subject_at_two_seats_of_one_team_moves_by_both_and_keeps_the_smaller_sigma() -> None:
    seats = [bot("expert"), bot("basic"), person("a"), bot("basic")]
    basic = Rating(18.0, 6.0)
    updates = {u.subject: u for u in rate_match(seats, 0, {bot("basic"): basic})}
    _, (east, west) = _library([[Rating(), Rating()], [basic, basic]], [0, 1])
    folded = updates[bot("basic")]
    assert folded.seats == 0b1010 and folded.won is False
    assert folded.after.mu == basic.mu + (east[0] - basic.mu) + (west[0] - basic.mu)
    assert folded.after.sigma == min(east[1], west[1])
    assert folded.after.mu < basic.mu


def test_a_match_needs_four_seats_and_a_team_or_none_as_winner() -> None:
    with pytest.raises(ValueError, match="four seats"):
        rate_match(SUBJECTS[:3], 0, {})
    with pytest.raises(ValueError, match="winner"):
        rate_match(SUBJECTS, 2, {})


# ---------------------------------------------------------------------- cutthroat
THREE = Rules(players=3, partnerships=False, target_score=150)
THREE_PLAYERS = ("Left", "Right", "You")
THREE_LINE_UP = {0: "expert", 1: "basic"}


@pytest.mark.parametrize(
    ("places", "winner"), [((2, 1, 3), 1), ((1, 3, 2), 0), ((1, 1, 3), None)], ids=str
)
def test_a_cutthroat_match_rates_each_player_alone_as_the_library_ranks_them(
    places: tuple[int, ...], winner: int | None
) -> None:
    seats = [bot("expert"), bot("basic"), person("a")]
    known = {bot("expert"): Rating(30.0, 5.0), person("a"): Rating(21.0, 7.0)}
    updates = rate_cutthroat(seats, places, winner, known)
    start = [known.get(s, Rating()) for s in seats]
    rated = _library([[r] for r in start], [float(p - 1) for p in places])
    assert _after(updates) == {s: r[0] for s, r in zip(seats, rated, strict=True)}
    assert {u.subject: u.won for u in updates} == {
        s: None if winner is None else seat == winner for seat, s in enumerate(seats)
    }
    assert {u.subject: u.seats for u in updates} == {s: 1 << i for i, s in enumerate(seats)}
    # Players who share a place from the same rating move alike.
    if places[0] == places[1]:
        assert updates[0].after.mu - updates[0].before.mu > 0


def test_a_subject_at_two_seats_of_a_cutthroat_match_played_itself_and_keeps_its_rating() -> None:
    seats = [bot("standard"), person("a"), bot("standard"), person("b")]
    updates = rate_cutthroat(seats, (4, 1, 2, 3), 1, {})
    assert [u.subject for u in updates] == [person("a"), person("b")]
    rated = _library([[Rating()]] * 4, [3.0, 0.0, 1.0, 2.0])
    assert _after(updates) == {person("a"): rated[1][0], person("b"): rated[3][0]}


def test_a_cutthroat_match_needs_a_place_a_seat_and_a_seat_or_none_as_winner() -> None:
    with pytest.raises(ValueError, match="three or four seats and a place each"):
        rate_cutthroat(SUBJECTS[:3], (1, 2), 0, {})
    with pytest.raises(ValueError, match="winner"):
        rate_cutthroat(SUBJECTS[:3], (1, 2, 3), 3, {})


# ---------------------------------------------------------------------- the store
@pytest.fixture
def store(db_url: str) -> Store:
    return Store(db_url, rater=RATER)


def _matches(count: int, first_seed: int = 1) -> list[Match]:
    return [
        play_match(SHORT, seed, ["basic"] * 4) for seed in range(first_seed, first_seed + count)
    ]


def _ratings(store: Store) -> dict[str, tuple[float, float, int, int]]:
    frame = select_frame(store, sa.select(ratings))
    return {row.subject: (row.mu, row.sigma, row.games, row.wins) for row in frame.itertuples()}


def _events(store: Store) -> list[tuple[Any, ...]]:
    e = rating_events.c
    frame = select_frame(store, sa.select(rating_events).order_by(e.game, e.subject))
    return [tuple(row) for row in frame.itertuples(index=False)]


def _played_through(store: Store, match: Match, owner: str | None, levels: dict[int, str]) -> str:
    """The match stored the way the Play page stores it: move by move, then finished."""
    gid = store.new_game(
        rules=match.rules,
        seed=match.seed,
        players=PLAYERS,
        kind="human",
        bot_levels=levels,
        owner=owner,
    )
    for ply, action in enumerate(match.history):
        store.append_action(gid, action, after=match.history[:ply])
    store.finish(gid, match)
    return gid


def test_a_finished_play_game_rates_its_owner_and_its_bots_in_the_finish(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    (match,) = _matches(1)
    gid = store.new_game(
        rules=SHORT, seed=match.seed, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada
    )
    for ply, action in enumerate(match.history):
        store.append_action(gid, action, after=match.history[:ply])
    assert _ratings(store) == {}  # a game in play rates nobody
    store.finish(gid, match)
    seats = [bot("expert"), bot("basic"), person(ada), bot("random")]
    expected = {u.subject: u for u in rate_match(seats, match.winner, {})}
    found = _ratings(store)
    assert set(found) == set(expected)
    for subject, u in expected.items():
        assert found[subject] == (u.after.mu, u.after.sigma, 1, int(bool(u.won)))


def test_a_store_opened_without_the_rating_maths_refuses_only_what_moves_the_ratings(
    db_url: str,
) -> None:
    store = Store(db_url)
    ada, _ = store.new_player("Ada")
    first, second = _matches(2)
    store.save_match(first, players=PLAYERS, kind="human", bot_levels=LINE_UP)
    store.save_match(first, players=PLAYERS, kind="simulated", bot_levels=LINE_UP, owner=ada)
    gid = store.new_game(
        rules=SHORT, seed=second.seed, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada
    )
    for ply, action in enumerate(second.history):
        store.append_action(gid, action, after=second.history[:ply])
    with pytest.raises(StoreError, match=f"game {gid} moves the ratings"):
        store.finish(gid, second)
    assert store.game_info(gid).status == "playing", "the finish is undone whole"
    with pytest.raises(StoreError, match="moves the ratings"):
        store.rebuild_ratings()
    assert _ratings(store) == {} and len(store.list_games()) == 3
    Store(db_url, rater=RATER).finish(gid, second)
    assert _ratings(store)[person(ada)][2] == 1


def test_more_games_narrow_sigma(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    for match in _matches(6):
        store.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    history = rating_history(store, person(ada))
    assert list(history["game"]) == list(range(7))
    sigmas = list(history["sigma"])
    assert sigmas[0] == Rating().sigma
    assert all(later < earlier for earlier, later in pairwise(sigmas))


def test_simulated_matches_never_count(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    store.save_matches([(m, PLAYERS, LINE_UP) for m in _matches(3)], kind="simulated", owner=ada)
    assert _ratings(store) == {} and _events(store) == []
    assert store.rebuild_ratings() == 0
    assert _ratings(store) == {}
    # The same games played by Ada count: the seats were never what kept them out.
    store.save_matches([(m, PLAYERS, LINE_UP) for m in _matches(3)], kind="human", owner=ada)
    assert _ratings(store)[person(ada)][2] == 3


def test_imported_games_do_not_count_even_when_they_name_a_player(
    store: Store, tmp_path: Path
) -> None:
    ada, _ = store.new_player("Ada")
    (match,) = _matches(1)
    gid = store.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    record = store.export_json(gid)
    other = Store(f"sqlite:///{tmp_path / 'other.db'}", rater=RATER)
    bea, _ = other.new_player("Bea")
    imported = other.import_json(record)
    assert other.game_info(imported).imported is True
    assert _ratings(other) == {}
    # Even with an owner at South, an imported record is no game played here.
    other_url = f"sqlite:///{tmp_path / 'other.db'}"
    run_sql(other_url, "UPDATE games SET owner = :o WHERE id = :g", o=bea, g=imported)
    assert other.rebuild_ratings() == 0
    assert _ratings(other) == {}
    assert store.game_info(gid).imported is False


def test_a_game_without_a_person_or_with_an_unknown_seat_does_not_count(store: Store) -> None:
    first, second = _matches(2)
    # Nobody's game: the seat without a bot names no one.
    store.save_match(first, players=PLAYERS, kind="human", bot_levels=LINE_UP)
    # Four bots and no person.
    store.save_match(
        second, players=PLAYERS, kind="human", bot_levels=dict.fromkeys(range(4), "basic")
    )
    assert _ratings(store) == {}
    assert store.rebuild_ratings() == 0


def test_a_bot_level_on_both_teams_of_a_game_is_not_rated_by_it(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    (match,) = _matches(1)
    levels = {0: "standard", 1: "standard", 3: "standard"}
    store.save_match(match, players=PLAYERS, kind="human", bot_levels=levels, owner=ada)
    assert set(_ratings(store)) == {person(ada)}


def test_a_shared_table_rates_each_person_at_their_seat(store: Store) -> None:
    ann, _ = store.new_player("Ann")
    bob, _ = store.new_player("Bob")
    tables = Tables(store)
    table_id, _ = tables.create(
        creator=ann, name="Ann", rules=SHORT, pace=0, turn_limit=60, bot_level="basic"
    )
    tables.join(table_id, 0, player=bob, name="Bob")
    game_id = tables.start(table_id, seed=5, bot_level="expert")
    match = play_match(SHORT, 5, ["basic"] * 4)
    for ply, action in enumerate(match.history):
        store.append_action(game_id, action, after=match.history[:ply])
    store.finish(game_id, match)
    seats = [person(bob), bot("expert"), person(ann), bot("expert")]
    expected = rate_match(seats, match.winner, {})
    assert {s: v[:2] for s, v in _ratings(store).items()} == _after(expected)
    assert {u.subject: u.seats for u in expected}[bot("expert")] == 0b1010


def test_a_finished_cutthroat_game_rates_its_players_by_their_places(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    match = play_match(THREE, 3, ["basic"] * 3)
    gid = store.new_game(
        rules=THREE,
        seed=3,
        players=THREE_PLAYERS,
        kind="human",
        bot_levels=THREE_LINE_UP,
        owner=ada,
    )
    for ply, action in enumerate(match.history):
        store.append_action(gid, action, after=match.history[:ply])
    store.finish(gid, match)
    info = store.game_info(gid)
    places = tuple(getattr(info, f"place_{k}") for k in "nes")
    assert match.winner is not None and places[match.winner] == 1
    seats = [bot("expert"), bot("basic"), person(ada)]
    expected = {u.subject: u for u in rate_cutthroat(seats, places, match.winner, {})}
    found = _ratings(store)
    assert set(found) == set(seats)
    for subject, u in expected.items():
        assert found[subject] == (u.after.mu, u.after.sigma, 1, int(bool(u.won)))
    board = leaderboard(store, BoardFilter()).set_index("subject")
    # Ada's record counts her own hands: her bids, her tricks, her bags.
    mine = [(h.bids[2], h.tricks_won[2]) for h in match.finished if 2 not in h.out]
    bids = [(b, t) for b, t in mine if b]
    exact = sum(b == t for b, t in bids) / len(bids)
    assert board.loc[person(ada), "bid_accuracy"] == pytest.approx(exact)
    bags = sum(r.players[2].bags for r in match.results) / len(mine)
    assert board.loc[person(ada), "bags_per_hand"] == pytest.approx(bags)


def test_a_rebuild_gives_the_ratings_and_events_the_updates_gave(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    bea, _ = store.new_player("Bea")
    matches = _matches(7)
    _played_through(store, matches[0], ada, LINE_UP)
    store.save_matches([(m, PLAYERS, LINE_UP) for m in matches[1:4]], kind="human", owner=bea)
    store.save_matches([(m, PLAYERS, LINE_UP) for m in matches[4:]], kind="simulated")
    _played_through(store, matches[6], bea, {0: "basic", 1: "expert", 3: "basic"})
    cutthroat = [play_match(THREE, seed, ["basic"] * 3) for seed in (1, 2)]
    store.save_matches(
        [(m, THREE_PLAYERS, THREE_LINE_UP) for m in cutthroat], kind="human", owner=ada
    )
    ratings_before, events_before = _ratings(store), _events(store)
    # The last partnership game had basic bots on both teams: it rated only Bea and the
    # expert; each cutthroat game rated Ada and its two bots.
    assert len(ratings_before) == 5 and len(events_before) == 4 * 4 + 2 + 2 * 3
    assert store.rebuild_ratings() == 7
    assert _ratings(store) == ratings_before
    assert _events(store) == events_before


def test_a_game_is_rated_once_even_when_asked_again(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    (match,) = _matches(1)
    gid = _played_through(store, match, ada, LINE_UP)
    with pytest.raises(StoreError, match="already finished"):
        store.finish(gid, match)
    assert _ratings(store)[person(ada)][2] == 1


def test_the_leaderboard_ranks_by_mu_minus_three_sigma_and_filters_people(store: Store) -> None:
    ada, _ = store.new_player("Ada")
    for match in _matches(4):
        store.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    board = leaderboard(store, BoardFilter())
    found = _ratings(store)
    order = sorted(found, key=lambda s: found[s][0] - 3 * found[s][1], reverse=True)
    assert list(board["subject"]) == order
    assert list(board["rank"]) == [1, 2, 3, 4]
    assert list(board["games"]) == [4] * 4
    people = leaderboard(store, BoardFilter(people_only=True))
    assert list(people["subject"]) == [person(ada)] and list(people["name"]) == ["Ada"]
    assert leaderboard(store, BoardFilter(rule_set="standard")).empty


# ---------------------------------------------------------------------- upgrade and CLI
def test_a_version_5_database_gets_the_imported_mark_and_its_ratings(db_url: str) -> None:
    store = Store(db_url, rater=RATER)
    ada, _ = store.new_player("Ada")
    for match in _matches(3):
        store.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    expected, events = _ratings(store), _events(store)
    store.close()
    # Version 5's layout: no mark on imported games, no ratings and no profiles.
    for statement in (
        *PLAYERS_V6,
        "DROP TABLE rating_events",
        "DROP TABLE ratings",
        "ALTER TABLE games DROP COLUMN imported",
        "UPDATE schema_version SET version = 5",
    ):
        run_sql(db_url, statement)

    upgraded = Store(db_url, rater=RATER)
    assert run_sql(db_url, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    assert _ratings(upgraded) == expected
    assert _events(upgraded) == events
    assert {bool(v) for (v,) in run_sql(db_url, "SELECT imported FROM games")} == {False}
    (match,) = _matches(1, first_seed=9)
    upgraded.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    assert _ratings(upgraded)[person(ada)][2] == 4


def test_the_command_line_rebuilds_the_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url, rater=RATER)
    ada, _ = store.new_player("Ada")
    for match in _matches(2):
        store.save_match(match, players=PLAYERS, kind="human", bot_levels=LINE_UP, owner=ada)
    expected = _ratings(store)
    store.close()
    with sqlite3.connect(tmp_path / "games.db") as raw:
        raw.execute("DELETE FROM rating_events")
        raw.execute("DELETE FROM ratings")
    assert cli.main(["ratings", "--rebuild", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "rebuilt the ratings from 2 games" in out
    assert "Ada" in out and "expert bot" in out
    assert _ratings(Store(url, rater=RATER)) == expected
