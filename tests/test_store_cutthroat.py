"""Cutthroat in the store, on SQLite and on PostgreSQL: three- and four-handed games saved
move by move, reloaded mid-hand, resumed and finished, listed and filtered apart from the
partnership game, imported and refused when corrupt, and the upgrade from schema 7."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from db_helpers import GAMES_V7, run_sql

from spades.bots.drive import play_match
from spades.engine.match import Match
from spades.engine.record import GameRecord, dumps
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import (
    CUTTHROAT_3,
    CUTTHROAT_4,
    PARTNERSHIP,
    SCHEMA_VERSION,
    GameFilter,
    Store,
    StoreError,
)
from spades.store.schema import games, hands, player_hands
from spades.store.tables import Tables

THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)
NAMES = {3: ("Left", "Right", "You"), 4: ("North", "East", "You", "West")}
BOTS = {3: {0: "random", 1: "basic"}, 4: {0: "random", 1: "basic", 3: "random"}}
GOLDEN = Path(__file__).parent / "golden" / "record_cutthroat_three.json"


@pytest.fixture
def store(db_url: str) -> Store:
    return Store(db_url, rater=RATER)


def _played(rules: Rules, seed: int) -> Match:
    return play_match(rules, seed, ["random"] * rules.players)


def _rows(store: Store, table: sa.Table, game_id: str) -> list[sa.Row[object]]:
    with store.engine.connect() as conn:
        num = conn.execute(sa.select(games.c.num).where(games.c.id == game_id)).scalar_one()
        order = [c for c in table.primary_key.columns]
        return list(conn.execute(sa.select(table).where(table.c.game == num).order_by(*order)))


@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
def test_a_cutthroat_game_saved_move_by_move_reloads_mid_hand_resumes_and_finishes(
    store: Store, rules: Rules
) -> None:
    match = _played(rules, 7)
    seats = rules.players
    gid = store.new_game(
        rules=rules, seed=7, players=NAMES[seats], kind="human", bot_levels=BOTS[seats]
    )
    # Stop in the middle of the second hand's play, as a page reload would.
    first_hand = len(match.finished[0].history)
    stop = first_hand + seats + 5
    for ply, action in enumerate(match.history[:stop]):
        store.append_action(gid, action, after=match.history[:ply])
    loaded = store.load(gid)
    assert loaded.match.history == match.history[:stop]
    assert loaded.record.players == NAMES[seats]
    assert loaded.match.hand_number == 2 and loaded.match.hand.history
    # Resume from the reloaded copy, as the Play page does, and play to the end.
    resumed = loaded.match
    for action in match.history[stop:]:
        store.append_action(gid, action, after=resumed.history)
        resumed.apply(action)
    store.finish(gid, resumed)

    info = store.game_info(gid)
    assert (info.status, info.variant, info.winner) == (
        "finished",
        CUTTHROAT_3 if seats == 3 else CUTTHROAT_4,
        match.winner,
    )
    keys = "nesw"[:seats]
    assert tuple(getattr(info, f"score_{k}") for k in keys) == match.scores
    assert tuple(getattr(info, f"bags_{k}") for k in keys) == match.bags
    assert (info.score_w is None) == (seats == 3)
    assert info.level_s == "human" and info.level_e == "basic"
    rows = _rows(store, player_hands, gid)
    assert not _rows(store, hands, gid)
    # One row a player a hand, none for a hand a knocked-out player sat out.
    assert [(row.hand_no, row.seat) for row in rows] == [
        (number, seat)
        for number, hand in enumerate(match.finished, 1)
        for seat in range(seats)
        if seat not in hand.out
    ]
    for row in rows:
        hand, result = match.finished[row.hand_no - 1], match.results[row.hand_no - 1]
        player = result.players[row.seat]
        assert (row.bid, row.tricks, row.dealt, row.points, row.bags_after, row.penalty) == (
            hand.bids[row.seat],
            hand.tricks_won[row.seat],
            hand.dealer == row.seat,
            player.points,
            player.bags_after,
            player.penalty,
        )
        assert sum(line["points"] for line in json.loads(row.breakdown)) == row.points
    last = {row.seat: row.score for row in rows}
    assert tuple(last[seat] for seat in range(seats)) == match.scores
    # The winner places first, and a player knocked out places below those still in.
    placed = [getattr(info, f"place_{k}") for k in keys]
    assert placed[match.winner] == 1 and sorted(placed) == list(range(1, seats + 1))
    for first_out in match.out[:1]:
        assert placed[first_out] == seats
    again = store.load(gid)
    assert again.match.scores == match.scores and again.match.is_over


def test_cutthroat_games_are_listed_and_filtered_apart_from_partnership_ones(
    store: Store,
) -> None:
    saved = {
        variant: store.save_match(
            _played(rules, 3),
            players=NAMES[rules.players] if not rules.partnerships else NAMES[4],
            kind="simulated",
            bot_levels={seat: "random" for seat in range(rules.players)},
        )
        for variant, rules in ((PARTNERSHIP, Rules()), (CUTTHROAT_3, THREE), (CUTTHROAT_4, FOUR))
    }
    listed = store.list_games()
    assert {g.id: g.variant for g in listed} == {gid: variant for variant, gid in saved.items()}
    for variant, gid in saved.items():
        only = store.list_games(GameFilter(variants=(variant,)))
        assert [g.id for g in only] == [gid]
    choices = store.choices()
    assert choices["variants"] == sorted(saved)
    # The seat three-handed games do not have is no bot level, and filters by level keep them.
    assert choices["bot_levels"] == ["random"]
    kept = store.list_games(GameFilter(bot_levels=("random",)))
    assert {g.id for g in kept} == set(saved.values())
    rule_sets = {g.variant: g.rule_set for g in listed}
    assert rule_sets == {
        PARTNERSHIP: "standard",
        CUTTHROAT_3: "players=3, partnerships=False",
        CUTTHROAT_4: "partnerships=False",
    }


@pytest.mark.parametrize(
    ("rules", "players", "levels", "message"),
    [
        (THREE, NAMES[4], BOTS[3], "three names are needed"),
        (FOUR, NAMES[3], BOTS[4], "four names are needed"),
        (THREE, NAMES[3], BOTS[4], "3 is not a seat 0..2"),
    ],
)
def test_a_cutthroat_game_needs_a_name_and_a_level_for_each_of_its_seats(
    store: Store,
    rules: Rules,
    players: tuple[str, ...],
    levels: dict[int, str],
    message: str,
) -> None:
    with pytest.raises(StoreError, match=message):
        store.new_game(rules=rules, seed=1, players=players, kind="human", bot_levels=levels)
    assert not store.list_games()


def test_a_cutthroat_record_is_imported_and_exported_whole(store: Store, tmp_path: Path) -> None:
    gid = store.import_json(GOLDEN.read_text())
    original = json.loads(GOLDEN.read_text())
    loaded = store.load(gid)
    assert loaded.match.history == original["actions"]
    assert list(loaded.match.scores) == original["summary"]["scores"]
    info = store.game_info(gid)
    assert (info.variant, info.imported, info.level_w) == (CUTTHROAT_3, True, "")
    assert len(_rows(store, player_hands, gid)) == 3 * original["summary"]["hands"]
    exported = json.loads(store.export_json(gid))
    assert exported["meta"]["levels"] == "unknown,unknown,human"
    other = Store(f"sqlite:///{tmp_path / 'other.db'}", rater=RATER)
    assert other.import_json(json.dumps(exported)) == gid
    assert other.load(gid).match.scores == loaded.match.scores


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["summary"].update(scores=[0, 0, 0]), "summary.scores"),
        (lambda r: r["actions"].__setitem__(5, r["actions"][4]), r"actions\[5\]"),
        (
            lambda r: r["meta"].update(levels="random,random,human,random"),
            "needs 3 comma-separated levels",
        ),
        (lambda r: r.update(players=["A", "B", "C", "D"]), "expected 3 names"),
    ],
    ids=["summary", "action", "levels", "players"],
)
def test_a_corrupt_cutthroat_record_is_refused_with_a_message(
    store: Store, change: object, message: str
) -> None:
    record = json.loads(GOLDEN.read_text())
    assert callable(change)
    change(record)
    with pytest.raises(StoreError, match=f"import refused, record 1: .*{message}"):
        store.import_json(json.dumps(record))
    assert not store.list_games()


def test_a_cutthroat_game_whose_stored_score_was_changed_is_refused_as_corrupt(
    store: Store, db_url: str
) -> None:
    match = _played(FOUR, 4)
    gid = store.save_match(
        match, players=NAMES[4], kind="simulated", bot_levels=BOTS[4] | {2: "random"}
    )
    run_sql(db_url, "UPDATE games SET score_e = score_e + 10 WHERE id = :gid", gid=gid)
    with pytest.raises(StoreError, match=f"game {gid} is corrupt: its actions replay to"):
        store.load(gid)


@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
def test_a_cutthroat_table_has_a_seat_a_player_and_stores_their_game(
    store: Store, rules: Rules
) -> None:
    ada, _ = store.new_player("Ada")
    tables = Tables(store)
    table_id, _ = tables.create(
        creator=ada, name="Ada", rules=rules, pace=0.5, turn_limit=60, bot_level="random"
    )
    assert [seat.seat for seat in tables.info(table_id).seats] == list(rules.seats)
    with pytest.raises(StoreError, match="no such seat"):
        tables.set_seat(table_id, rules.players, "bot", level="random")
    game_id = tables.start(table_id, seed=4, bot_level="random")
    info = store.game_info(game_id)
    assert info.variant == f"cutthroat{rules.players}"
    assert info.player_s == "Ada" and info.at_table
    assert store.load(game_id).record.players[2] == "Ada"


def test_a_version_7_database_is_upgraded_in_place_and_then_keeps_cutthroat(
    db_url: str,
) -> None:
    old = Store(db_url, rater=RATER)
    match = play_match(Rules(target_score=200), 2, ["random"] * 4)
    done = old.save_match(
        match, players=NAMES[4], kind="simulated", bot_levels={s: "random" for s in range(4)}
    )
    old.close()
    for statement in (*GAMES_V7, "UPDATE schema_version SET version = 7"):
        run_sql(db_url, statement)

    store = Store(db_url, rater=RATER)
    assert run_sql(db_url, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    info = store.game_info(done)
    assert (info.variant, info.score_n) == (PARTNERSHIP, None)
    assert store.load(done).match.scores == match.scores
    assert len(store.list_games(GameFilter(variants=(PARTNERSHIP,)))) == 1
    cutthroat = _played(THREE, 9)
    gid = store.save_match(
        cutthroat, players=NAMES[3], kind="simulated", bot_levels=BOTS[3] | {2: "random"}
    )
    assert store.load(gid).match.scores == cutthroat.scores
    played = sum(3 - len(hand.out) for hand in cutthroat.finished)
    assert len(_rows(store, player_hands, gid)) == played


def test_a_record_of_the_store_names_each_seat_the_game_has() -> None:
    match = _played(THREE, 1)
    record = GameRecord.of(match, players=NAMES[3])  # type: ignore[arg-type]
    store = Store("sqlite://", rater=RATER)
    gid = store.import_json(dumps(record))
    assert store.load(gid).record.players == NAMES[3]
