"""Every game stored before the engine's undo and one event log still loads and replays.

``golden/stored_games.sql`` holds games of every kind, written by the code before that
change (``tests/stored_games.py``): finished matches under every rule set, matches stopped
short, a game given up, one in play with a move taken back, and a shared table's game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from spades.app.play import GameController
from spades.app.tables import TableService
from spades.engine.match import Match
from spades.engine.record import dumps, loads
from spades.stats.ratings import RATER
from spades.store import Store, StoreError
from spades.store.digest import history_digest
from spades.store.tables import Tables

DUMP = Path(__file__).parent / "golden" / "stored_games.sql"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    db = tmp_path_factory.mktemp("stored") / "games.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(DUMP.read_text(encoding="utf-8"))
    conn.close()
    opened = Store(f"sqlite:///{db}", rater=RATER)
    yield opened
    opened.close()


def test_every_kind_of_stored_game_is_in_the_dump(store: Store) -> None:
    games = store.list_games()
    assert {game.status for game in games} == {"finished", "playing", "abandoned"}
    assert {game.variant for game in games} == {"partnership", "cutthroat3", "cutthroat4"}
    assert any(game.undo_used for game in games)
    assert len(games) == 15


def test_every_game_stored_before_still_loads_and_replays(store: Store) -> None:
    for info in store.list_games():
        loaded = store.load(info.id)  # refuses a game whose replay misses its stored score
        match = loaded.match
        assert match.ply == info.actions_count
        assert history_digest(match.history) == info.digest
        assert match.is_over == (info.status == "finished")
        assert len(match.finished) == info.hands_count
        again = Match.replay(match.rules, seed=match.seed, actions=match.history)
        assert (again.scores, again.bags, again.outcome) == (
            match.scores,
            match.bags,
            match.outcome,
        )
        assert loads(dumps(loaded.record)).match.history == match.history


def test_a_game_stored_before_plays_on_and_takes_its_moves_back(store: Store) -> None:
    info = next(g for g in store.list_games() if g.status == "playing" and g.undo_used)
    match = store.load(info.id).match
    before = match.history
    action = match.legal_actions()[0]
    store.append_action(info.id, action, after=before)
    assert store.load(info.id).match.history == [*before, action]
    match.apply(action)
    match.undo()
    assert match.history == before
    # Its person sits North, not South: the Play page never plays it, nor makes it a table.
    with pytest.raises(StoreError, match="played by bots only"):
        GameController.resume(TableService(store), info.id, viewer=info.owner)
    with pytest.raises(StoreError, match="not yours to play"):
        Tables(store).play(info.id, info.owner or "")
