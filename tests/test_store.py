"""The game store on temporary SQLite files: round trips, upgrades, concurrency, imports."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import sqlite3
import threading
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from db_helpers import PLAYERS_V6, run_sql, select_frame

from spades.bots.drive import play_match
from spades.engine.match import Match
from spades.engine.record import GameRecord, dumps
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import (
    NAME_MAX,
    PREFS_MAX_BYTES,
    SCHEMA_VERSION,
    GameFilter,
    Store,
    StoreError,
)
from spades.store.digest import history_digest
from spades.store.schema import CUTTHROAT_COLUMNS, SEAT_KEYS, games, hands
from spades.store.tables import Tables

PLAYERS = ("North", "East", "You", "West")
#: The games columns version 8 added for cutthroat's players.
CUTTHROAT_PLAYER_COLUMNS = tuple(f"{n}_{k}" for n in CUTTHROAT_COLUMNS for k in SEAT_KEYS)
BOTS = {0: "random", 1: "random", 3: "random"}
ALL_BOTS = {seat: "random" for seat in range(4)}


@pytest.fixture
def store(db_url: str) -> Store:
    return Store(db_url, rater=RATER)


def _played(seed: int, rules: Rules | None = None) -> Match:
    return play_match(rules or Rules(), seed, ["random"] * 4)


def _count(store: Store, table: sa.Table) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(table)).scalar_one())


def test_a_game_played_action_by_action_round_trips(store: Store) -> None:
    match = _played(3)
    gid = store.new_game(rules=Rules(), seed=3, players=PLAYERS, kind="human", bot_levels=BOTS)
    for ply, action in enumerate(match.history):
        store.append_action(gid, action, after=match.history[:ply])
    store.finish(gid, match)
    loaded = store.load(gid)
    assert loaded.match.history == match.history
    assert loaded.match.scores == match.scores
    assert loaded.record.players == PLAYERS
    info = store.game_info(gid)
    assert (info.status, info.winner, info.hands_count) == (
        "finished",
        match.winner,
        len(match.finished),
    )
    assert (info.level_s, info.level_n) == ("human", "random")
    assert _count(store, hands) == len(match.finished)


def test_a_games_info_is_its_row_typed_and_frozen(store: Store) -> None:
    gid = store.save_match(_played(4), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    info = store.game_info(gid)
    left_out = {"num", "rules"}
    assert [f.name for f in dataclasses.fields(info)] == [
        c.name for c in games.c if c.name not in left_out
    ]
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(games).where(games.c.id == gid)).one()._mapping
    assert dataclasses.asdict(info) == {k: v for k, v in row.items() if k not in left_out}
    assert isinstance(info.started_at, datetime) and isinstance(info.undo_used, bool)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.status = "playing"  # type: ignore[misc]


def test_hand_rows_hold_bids_tricks_bags_and_the_breakdown(store: Store) -> None:
    match = _played(5)
    gid = store.save_match(match, players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    frame = select_frame(
        store,
        sa.select(hands)
        .join_from(hands, games, hands.c.game == games.c.num)
        .where(games.c.id == gid)
        .order_by(hands.c.hand_no),
    )
    assert list(frame["score_ns"]) == [s[0] for s in match.score_history()]
    last = match.finished[-1]
    assert list(frame.iloc[-1][["bid_n", "bid_e", "bid_s", "bid_w"]]) == last.bids
    assert list(frame.iloc[-1][["tricks_n", "tricks_e", "tricks_s", "tricks_w"]]) == list(
        last.tricks_won
    )
    breakdown = json.loads(frame.iloc[0]["breakdown"])
    first = match.results[0].teams[0]
    assert sum(line["points"] for line in breakdown["ns"]) == first.points
    assert frame.iloc[-1]["bags_after_ew"] == match.bags[1]


def test_undo_truncates_the_actions_and_marks_the_game(store: Store) -> None:
    owner = store.new_player("You")[0]
    gid = store.new_game(
        rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS, owner=owner
    )
    match = _played(1)
    for ply, action in enumerate(match.history[:10]):
        store.append_action(gid, action, after=match.history[:ply])
    tables = Tables(store)
    tables.take_back(tables.play(gid, owner), 6, after=match.history[:10])
    assert store.load(gid).match.history == match.history[:6]
    assert store.game_info(gid).undo_used is True


def test_the_actions_since_a_ply_come_with_the_digest_of_the_whole_history(
    store: Store,
) -> None:
    gid = store.new_game(rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS)
    match = _played(1)
    for ply, action in enumerate(match.history[:10]):
        store.append_action(gid, action, after=match.history[:ply])
    assert store.actions_since(gid, 7) == (history_digest(match.history[:10]), match.history[7:10])
    assert store.actions_since(gid, 10) == (history_digest(match.history[:10]), [])
    for ply in (-1, True, "3"):
        with pytest.raises(StoreError, match="expected a ply"):
            store.actions_since(gid, ply)  # type: ignore[arg-type]


def test_undo_is_refused_when_switched_off(store: Store) -> None:
    owner = store.new_player("You")[0]
    gid = store.new_game(
        rules=Rules(),
        seed=1,
        players=PLAYERS,
        kind="human",
        bot_levels=BOTS,
        undo_allowed=False,
        owner=owner,
    )
    first = _played(1).history[0]
    store.append_action(gid, first, after=[])
    tables = Tables(store)
    with pytest.raises(StoreError, match="undo is switched off"):
        tables.take_back(tables.play(gid, owner), 0, after=[first])


def test_a_finished_game_takes_no_more_actions(store: Store) -> None:
    match = _played(2)
    gid = store.save_match(match, players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    with pytest.raises(StoreError, match="is over"):
        store.append_action(gid, 0, after=match.history)


def test_finish_refuses_a_match_that_is_not_the_stored_one(store: Store) -> None:
    gid = store.new_game(rules=Rules(), seed=4, players=PLAYERS, kind="human", bot_levels=BOTS)
    with pytest.raises(StoreError, match="not the one stored"):
        store.finish(gid, _played(4))
    assert store.game_info(gid).status == "playing"


def test_an_unknown_id_is_refused_with_its_name(store: Store) -> None:
    with pytest.raises(StoreError, match="no game with id 'nope'"):
        store.load("nope")


def test_export_then_import_round_trips_into_another_store(store: Store, tmp_path: Path) -> None:
    match = _played(7, Rules(target_score=300))
    gid = store.save_match(match, players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    other = Store(f"sqlite:///{tmp_path / 'other.db'}", rater=RATER)
    new_id = other.import_json(store.export_json(gid))
    assert new_id == gid
    info = other.game_info(gid)
    assert (info.kind, info.rule_set, info.score_ns) == (
        "simulated",
        "target_score=300",
        match.scores[0],
    )
    assert other.load(gid).match.history == match.history


def test_an_imported_record_s_names_are_tidied_as_every_name_typed_on_the_site(
    store: Store,
) -> None:
    # A bidi override would show "\u202eevil\u202c" as "live"; NUL and zero-width
    # characters are dropped or part words, as tidy_name does (PostgreSQL holds no NUL).
    record = json.loads(dumps(GameRecord.of(_played(8))))
    record["players"] = ["\u202eevil\u202c", "Bo\u0000b", "A\u200bda", "\u200b"]
    game_id = store.import_json(json.dumps(record))
    assert store.load(game_id).record.players == ("evil", "Bo b", "Ada", "Player 4")


def test_a_refused_import_leaves_the_database_unchanged(store: Store) -> None:
    store.save_match(_played(1), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    good = dumps(GameRecord.of(_played(8)))
    bad = json.loads(dumps(GameRecord.of(_played(9))))
    bad["actions"][3] = 999
    before = (_count(store, games), _count(store, hands))
    with pytest.raises(StoreError, match=r"record 2: actions\[3\]"):
        store.import_many([good, json.dumps(bad)])
    assert (_count(store, games), _count(store, hands)) == before


def test_importing_a_stored_game_again_refuses_the_whole_batch(store: Store) -> None:
    gid = store.save_match(_played(1), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    fresh = dumps(GameRecord.of(_played(2)))
    before = _count(store, games)
    with pytest.raises(StoreError, match="already stored"):
        store.import_many([fresh, store.export_json(gid)])
    assert _count(store, games) == before


def test_a_corrupt_stored_game_is_refused_with_a_message(store: Store, db_url: str) -> None:
    gid = store.save_match(_played(6), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    run_sql(
        db_url,
        "UPDATE actions SET action = 200 WHERE ply = 1"
        " AND game = (SELECT num FROM games WHERE id = :gid)",
        gid=gid,
    )
    with pytest.raises(StoreError, match=f"game {gid} is corrupt: action 1"):
        store.load(gid)


V1_SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (1);
CREATE TABLE games (
    id VARCHAR(32) PRIMARY KEY, kind VARCHAR(16) NOT NULL, status VARCHAR(16) NOT NULL,
    started_at DATETIME NOT NULL, updated_at DATETIME NOT NULL, finished_at DATETIME,
    seed BIGINT NOT NULL, rules TEXT NOT NULL,
    player_n VARCHAR(200) NOT NULL, player_e VARCHAR(200) NOT NULL,
    player_s VARCHAR(200) NOT NULL, player_w VARCHAR(200) NOT NULL,
    level_n VARCHAR(40) NOT NULL, level_e VARCHAR(40) NOT NULL,
    level_s VARCHAR(40) NOT NULL, level_w VARCHAR(40) NOT NULL,
    actions_count INTEGER NOT NULL, score_ns INTEGER NOT NULL, score_ew INTEGER NOT NULL,
    bags_ns INTEGER NOT NULL, bags_ew INTEGER NOT NULL, winner INTEGER,
    outcome VARCHAR(200) NOT NULL
);
CREATE TABLE actions (
    game_id VARCHAR(32) NOT NULL REFERENCES games (id), ply INTEGER NOT NULL,
    action INTEGER NOT NULL, PRIMARY KEY (game_id, ply)
);
"""


def _write_v1(path: Path, match: Match) -> None:
    with sqlite3.connect(path) as raw:
        raw.executescript(V1_SCHEMA)
        raw.execute(
            "INSERT INTO games VALUES (?, 'simulated', 'finished', '2025-01-02 03:04:05',"
            " '2025-01-02 03:04:05', '2025-01-02 03:04:05', ?, ?, 'N', 'E', 'S', 'W',"
            " 'random', 'random', 'random', 'random', ?, ?, ?, ?, ?, ?, '')",
            (
                "a" * 32,
                match.seed,
                json.dumps(match.rules.to_dict()),
                len(match.history),
                *match.scores,
                *match.bags,
                match.winner,
            ),
        )
        raw.executemany(
            "INSERT INTO actions VALUES (?, ?, ?)",
            [("a" * 32, ply, action) for ply, action in enumerate(match.history)],
        )


def test_a_version_1_file_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    match = _played(11, Rules(target_score=300))
    _write_v1(path, match)
    store = Store(f"sqlite:///{path}", rater=RATER)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    info = store.game_info("a" * 32)
    assert (info.undo_used, info.rule_set, info.bot_levels) == (
        False,
        "target_score=300",
        "random",
    )
    assert info.hands_count == len(match.finished)
    assert info.owner is None
    assert info.digest == history_digest(match.history)
    assert _count(store, hands) == len(match.finished)
    assert store.load("a" * 32).match.scores == match.scores
    player, _ = store.new_player("Ada")
    store.new_game(
        rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS, owner=player
    )
    assert len(store.list_games(GameFilter(owner=player, finished_only=False))) == 1


# The layout of version 2, as that release created it (the engine's columns, compacted).
V2_SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version VALUES (2);
CREATE TABLE games (
    num INTEGER NOT NULL, id VARCHAR(32) NOT NULL, kind VARCHAR(16) NOT NULL,
    status VARCHAR(16) NOT NULL, started_at DATETIME NOT NULL, updated_at DATETIME NOT NULL,
    finished_at DATETIME, seed BIGINT NOT NULL, rules TEXT NOT NULL, rule_set TEXT NOT NULL,
    player_n VARCHAR(200) NOT NULL, player_e VARCHAR(200) NOT NULL,
    player_s VARCHAR(200) NOT NULL, player_w VARCHAR(200) NOT NULL,
    level_n VARCHAR(40) NOT NULL, level_e VARCHAR(40) NOT NULL,
    level_s VARCHAR(40) NOT NULL, level_w VARCHAR(40) NOT NULL,
    bot_levels VARCHAR(200) NOT NULL, undo_allowed BOOLEAN NOT NULL, undo_used BOOLEAN NOT NULL,
    actions_count INTEGER NOT NULL, hands_count INTEGER NOT NULL,
    score_ns INTEGER NOT NULL, score_ew INTEGER NOT NULL,
    bags_ns INTEGER NOT NULL, bags_ew INTEGER NOT NULL, winner INTEGER,
    outcome VARCHAR(200) NOT NULL, PRIMARY KEY (num), UNIQUE (id)
);
CREATE INDEX ix_games_kind_started ON games (kind, started_at);
CREATE TABLE hands (
    game INTEGER NOT NULL, hand_no INTEGER NOT NULL, dealer INTEGER NOT NULL, claimed_by INTEGER,
    bid_n INTEGER NOT NULL, bid_e INTEGER NOT NULL, bid_s INTEGER NOT NULL, bid_w INTEGER NOT NULL,
    blind_n BOOLEAN NOT NULL, blind_e BOOLEAN NOT NULL,
    blind_s BOOLEAN NOT NULL, blind_w BOOLEAN NOT NULL,
    tricks_n INTEGER NOT NULL, tricks_e INTEGER NOT NULL,
    tricks_s INTEGER NOT NULL, tricks_w INTEGER NOT NULL,
    team_bid_ns INTEGER NOT NULL, team_tricks_ns INTEGER NOT NULL, points_ns INTEGER NOT NULL,
    bags_ns INTEGER NOT NULL, bags_before_ns INTEGER NOT NULL, bags_after_ns INTEGER NOT NULL,
    penalty_ns INTEGER NOT NULL, score_ns INTEGER NOT NULL,
    team_bid_ew INTEGER NOT NULL, team_tricks_ew INTEGER NOT NULL, points_ew INTEGER NOT NULL,
    bags_ew INTEGER NOT NULL, bags_before_ew INTEGER NOT NULL, bags_after_ew INTEGER NOT NULL,
    penalty_ew INTEGER NOT NULL, score_ew INTEGER NOT NULL,
    made_ns BOOLEAN, made_ew BOOLEAN, breakdown TEXT NOT NULL,
    PRIMARY KEY (game, hand_no), FOREIGN KEY(game) REFERENCES games (num) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TABLE actions (
    game INTEGER NOT NULL, ply INTEGER NOT NULL, action INTEGER NOT NULL,
    PRIMARY KEY (game, ply), FOREIGN KEY(game) REFERENCES games (num) ON DELETE CASCADE
) WITHOUT ROWID;
"""


def _write_v2(path: Path, source: Path) -> None:
    """A version 2 file holding the games, hands and actions of the store at ``source``."""
    later = ("owner", "digest", "imported", "variant", "at_table", *CUTTHROAT_PLAYER_COLUMNS)
    columns = ", ".join(c.name for c in games.c if c.name not in later)
    with sqlite3.connect(path) as raw:
        raw.executescript(V2_SCHEMA)
        raw.execute("ATTACH DATABASE ? AS source", (str(source),))
        raw.execute(f"INSERT INTO games ({columns}) SELECT {columns} FROM source.games")
        raw.execute("INSERT INTO hands SELECT * FROM source.hands")
        raw.execute("INSERT INTO actions SELECT * FROM source.actions")
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM games").fetchone() == (2,)


def test_a_version_2_file_is_upgraded_in_place(tmp_path: Path) -> None:
    source = Store(f"sqlite:///{tmp_path / 'source.db'}", rater=RATER)
    match = _played(13)
    done = source.save_match(match, players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    playing = source.new_game(rules=Rules(), seed=5, players=PLAYERS, kind="human", bot_levels=BOTS)
    source.append_action(playing, source.load(playing).match.legal_actions()[0], after=[])
    source.close()
    path = tmp_path / "v2.db"
    _write_v2(path, tmp_path / "source.db")

    store = Store(f"sqlite:///{path}", rater=RATER)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        indexes = {row[1] for row in raw.execute("PRAGMA index_list(games)")}
    assert "ix_games_owner" in indexes
    assert store.load(done).match.scores == match.scores
    assert _count(store, hands) == len(match.finished)
    assert store.game_info(playing).owner is None
    assert len(store.load(playing).match.history) == 1
    player, token = store.new_player("Ada")
    assert store.player_for_token(token) == player
    mine = store.new_game(
        rules=Rules(), seed=6, players=PLAYERS, kind="human", bot_levels=BOTS, owner=player
    )
    assert [g.id for g in store.list_games(GameFilter(owner=player, finished_only=False))] == [mine]
    # The game in play took its digest with the upgrade: its next guarded write lands.
    moved = store.load(playing).match
    store.append_action(playing, moved.legal_actions()[0], after=moved.history)
    assert len(store.load(playing).match.history) == 2


def test_a_version_3_file_gets_the_digest_of_each_game_s_actions(tmp_path: Path) -> None:
    path = tmp_path / "v3.db"
    source = Store(f"sqlite:///{path}", rater=RATER)
    match = _played(4)
    done = source.save_match(match, players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    playing = source.new_game(rules=Rules(), seed=5, players=PLAYERS, kind="human", bot_levels=BOTS)
    first = source.load(playing).match.legal_actions()[0]
    source.append_action(playing, first, after=[])
    source.close()
    with sqlite3.connect(path) as raw:
        # Version 3's layout: no digest, no shared tables, no ratings and no profiles.
        for statement in PLAYERS_V6:
            raw.execute(statement)
        raw.execute("ALTER TABLE games DROP COLUMN digest")
        raw.execute("ALTER TABLE games DROP COLUMN imported")
        raw.execute("DROP TABLE seats")
        raw.execute("DROP TABLE tables")
        raw.execute("DROP TABLE rating_events")
        raw.execute("DROP TABLE ratings")
        raw.execute("UPDATE schema_version SET version = 3")

    store = Store(f"sqlite:///{path}", rater=RATER)
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT count(*) FROM tables").fetchone() == (0,)
    assert store.game_info(done).digest == history_digest(match.history)
    assert store.game_info(playing).digest == history_digest([first])
    second = store.load(playing).match.legal_actions()[0]
    store.append_action(playing, second, after=[first])
    assert store.load(playing).match.history == [first, second]


def test_a_foreign_database_with_a_games_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "foreign.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE games (name TEXT)")
    with pytest.raises(StoreError, match="not written by this program") as refused:
        Store(f"sqlite:///{path}", rater=RATER)
    assert str(tmp_path) not in str(refused.value)
    with sqlite3.connect(path) as raw:
        tables = raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert tables == [("games",)]


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    Store(f"sqlite:///{tmp_path / 'games.db'}", rater=RATER)
    with sqlite3.connect(tmp_path / "games.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_the_default_database_lives_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SPADES_DB_URL", raising=False)
    monkeypatch.setenv("SPADES_DATA_DIR", str(tmp_path / "nested" / "dir"))
    store = Store(rater=RATER)
    assert store.url == f"sqlite:///{tmp_path / 'nested' / 'dir' / 'spades.db'}"
    assert (tmp_path / "nested" / "dir" / "spades.db").exists()


def _write_games(url: str, count: int) -> None:
    store = Store(url, rater=RATER)
    for seed in range(count):
        store.save_match(_played(seed), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)


def test_a_reader_and_a_writer_process_do_not_block_each_other(store: Store, db_url: str) -> None:
    writer = multiprocessing.get_context("spawn").Process(target=_write_games, args=(db_url, 40))
    seen: list[int] = []
    writer.start()
    while writer.is_alive() or not seen or seen[-1] < 40:
        seen.append(len(store.list_games(GameFilter())))
        if not writer.is_alive() and seen[-1] < 40:
            break
    writer.join()
    assert writer.exitcode == 0
    assert seen == sorted(seen)
    assert seen[-1] == 40


def test_writer_threads_append_to_separate_games_without_loss(store: Store) -> None:
    match = _played(12)
    ids = [
        store.new_game(rules=Rules(), seed=12, players=PLAYERS, kind="human", bot_levels=BOTS)
        for _ in range(3)
    ]
    errors: list[BaseException] = []

    def play(gid: str) -> None:
        try:
            for ply, action in enumerate(match.history):
                store.append_action(gid, action, after=match.history[:ply])
        except BaseException as err:  # reported below: a thread cannot raise into the test
            errors.append(err)

    threads = [threading.Thread(target=play, args=(gid,)) for gid in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(store.load(gid).match.history == match.history for gid in ids)


def test_a_writer_killed_mid_write_leaves_only_whole_games(store: Store, db_url: str) -> None:
    writer = multiprocessing.get_context("spawn").Process(target=_write_games, args=(db_url, 10**6))
    writer.start()
    while writer.is_alive() and len(store.list_games()) < 5:
        writer.join(timeout=0.05)
    writer.kill()
    writer.join()
    stored = store.list_games()
    assert len(stored) >= 5
    if db_url.startswith("sqlite:"):
        with sqlite3.connect(db_url.removeprefix("sqlite:///")) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    per_game = dict(run_sql(db_url, "SELECT game, count(*) FROM actions GROUP BY game"))
    counts = dict(run_sql(db_url, "SELECT num, actions_count FROM games"))
    assert per_game == counts
    assert all(store.load(game.id).match.is_over for game in stored)


# ---------------------------------------------------------------------------- players
def test_a_player_is_found_by_their_token_and_only_its_hash_is_stored(
    store: Store, db_url: str
) -> None:
    player, token = store.new_player("Ada")
    assert len(player) == 32 and set(player) <= set("0123456789abcdef")
    assert store.player_for_token(token) == player
    assert store.player_for_token(store.new_player()[1]) != player
    rows = run_sql(db_url, "SELECT * FROM players")
    assert len(rows) == 2
    assert not any(token in str(value) for row in rows for value in row)


def test_a_player_seen_after_an_hour_has_their_seen_at_moved_on(store: Store, db_url: str) -> None:
    player, token = store.new_player()
    run_sql(db_url, "UPDATE players SET seen_at = :then", then=datetime(2020, 1, 1))
    assert store.player_for_token(token) == player
    [(seen,)] = run_sql(db_url, "SELECT seen_at FROM players")
    assert str(seen) > "2021"


@pytest.mark.parametrize(
    "token",
    ["", "x" * 1_000_000, "\ud800", "not a token", "a'; DROP TABLE players; --", "é" * 43],
    ids=["empty", "huge", "surrogate", "spaces", "quote", "accents"],
)
def test_a_hostile_token_finds_no_player_and_raises_nothing(store: Store, token: str) -> None:
    store.new_player()
    assert store.player_for_token(token) is None


def test_a_token_that_is_not_text_finds_no_player(store: Store) -> None:
    assert store.player_for_token(None) is None  # type: ignore[arg-type]
    assert store.player_for_token(b"token") is None  # type: ignore[arg-type]


def test_preferences_are_kept_per_player_never_per_name(store: Store) -> None:
    first, _ = store.new_player("You")
    second, _ = store.new_player("You")
    store.save_player_prefs(first, {"felt": "blue", "volume": 30})
    assert store.player_prefs(first) == {"felt": "blue", "volume": 30}
    assert store.player_prefs(second) == {}


def test_preferences_over_the_size_bound_are_refused_and_the_old_ones_kept(store: Store) -> None:
    player, _ = store.new_player()
    store.save_player_prefs(player, {"felt": "green"})
    with pytest.raises(StoreError, match="more than the 4096 kept"):
        store.save_player_prefs(player, {"note": "x" * PREFS_MAX_BYTES})
    assert store.player_prefs(player) == {"felt": "green"}


def test_preferences_that_are_not_json_are_refused(store: Store) -> None:
    player, _ = store.new_player()
    with pytest.raises(StoreError, match="cannot be saved as JSON"):
        store.save_player_prefs(player, {"felt": object()})
    with pytest.raises(StoreError, match="cannot be saved as JSON"):
        store.save_player_prefs(player, {"volume": float("nan")})
    assert store.player_prefs(player) == {}


def test_a_player_name_is_trimmed_and_at_most_40_characters(store: Store) -> None:
    player, _ = store.new_player("  Ada \t Lovelace\n")
    assert store.player_name(player) == "Ada Lovelace"
    store.rename_player(player, "x" * NAME_MAX)
    assert store.player_name(player) == "x" * NAME_MAX
    for bad in ("x" * (NAME_MAX + 1), "   ", "Ada\x00"):
        with pytest.raises(StoreError, match="name: "):
            store.rename_player(player, bad)
    assert store.player_name(player) == "x" * NAME_MAX


@pytest.mark.parametrize("player", ["nope", "0" * 32, "A" * 32, "x" * 10_000])
def test_an_unknown_player_is_refused_with_a_short_message(store: Store, player: str) -> None:
    for call in (store.player_prefs, store.player_name):
        with pytest.raises(StoreError, match="no player with id") as refused:
            call(player)
        assert len(str(refused.value)) < 120
    with pytest.raises(StoreError, match="no player with id"):
        store.rename_player(player, "Ada")
    with pytest.raises(StoreError, match="no player with id"):
        store.save_player_prefs(player, {})


def test_a_game_of_an_unknown_owner_is_not_stored(store: Store) -> None:
    with pytest.raises(StoreError, match="no player with id"):
        store.new_game(
            rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS, owner="0" * 32
        )
    assert _count(store, games) == 0


def test_an_owner_filter_covers_their_games_and_with_others_finished_every_finished_one(
    store: Store,
) -> None:
    ada, _ = store.new_player("Ada")
    bob, _ = store.new_player("Bob")

    def playing(owner: str | None) -> str:
        return store.new_game(
            rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS, owner=owner
        )

    ada_playing, bob_playing, nobody_playing = playing(ada), playing(bob), playing(None)
    finished = store.save_match(_played(3), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    assert store.game_info(ada_playing).owner == ada
    assert store.game_info(finished).owner is None

    def covered(game_filter: GameFilter) -> set[str]:
        return {g.id for g in store.list_games(game_filter)}

    assert covered(GameFilter(owner=ada, finished_only=False)) == {ada_playing}
    assert covered(GameFilter(owner=ada, finished_only=False, others_finished=True)) == {
        ada_playing,
        finished,
    }
    assert covered(GameFilter(owner=bob, others_finished=True)) == {finished}
    assert covered(GameFilter(finished_only=False)) == {
        ada_playing,
        bob_playing,
        nobody_playing,
        finished,
    }


def test_a_filter_may_end_on_the_last_day_there_is(store: Store) -> None:
    gid = store.save_match(_played(3), players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    today = store.game_info(gid).started_at.date()
    assert [g.id for g in store.list_games(GameFilter(end=date.max))] == [gid]
    assert [g.id for g in store.list_games(GameFilter(end=today))] == [gid]
    assert not store.list_games(GameFilter(end=today - timedelta(days=1)))


# ----------------------------------------------------------------------------- export
def test_a_game_in_play_is_not_exported_since_its_record_holds_every_hidden_card(
    store: Store,
) -> None:
    gid = store.new_game(rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS)
    store.append_action(gid, store.load(gid).match.legal_actions()[0], after=[])
    with pytest.raises(StoreError, match="can be exported once it is over"):
        store.export_json(gid)


def test_an_abandoned_game_exports_whole(store: Store) -> None:
    match = _played(4)
    short = Match.replay(match.rules, seed=match.seed, actions=match.history[:100])
    gid = store.save_match(short, players=PLAYERS, kind="human", bot_levels=BOTS)
    assert store.game_info(gid).status == "abandoned"
    assert json.loads(store.export_json(gid))["actions"] == match.history[:100]
