"""Guarded writes: a write names the ply it was made at, so two writers never both land."""

from __future__ import annotations

import random
import threading
from collections import Counter
from pathlib import Path

import pytest
from db_helpers import run_sql

from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.store import StaleWrite, Store, StoreError
from spades.store.tables import Tables

PLAYERS = ("North", "East", "You", "West")
BOTS = {0: "random", 1: "random", 3: "random"}


def _new_game(store: Store, seed: int = 1, rules: Rules | None = None) -> str:
    return store.new_game(
        rules=rules or Rules(),
        seed=seed,
        players=PLAYERS,
        kind="human",
        bot_levels=BOTS,
        owner=store.new_player("You")[0],
    )


def _take_back(store: Store, gid: str, length: int, *, after: object) -> None:
    """Undo as the Play page's private table makes it: keep ``length`` actions."""
    tables = Tables(store)
    owner = store.game_info(gid).owner
    assert owner is not None
    tables.take_back(tables.play(gid, owner), length, after=after)  # type: ignore[arg-type]


def _play(store: Store, gid: str, count: int) -> Match:
    """Append ``count`` legal actions (the lowest each time); returns the match."""
    match = store.load(gid).match
    for _ in range(count):
        action = match.legal_actions()[0]
        store.append_action(gid, action, after=match.history)
        match.apply(action)
    return match


def _stored_plies(db_url: str) -> list[tuple[int, int]]:
    """Every stored (ply, number of actions at that ply), in ply order."""
    return run_sql(db_url, "SELECT ply, count(*) FROM actions GROUP BY ply ORDER BY ply")


@pytest.mark.parametrize("ply", [0, 2, 4, 200])
def test_an_append_after_a_history_the_game_does_not_have_is_refused_and_stores_nothing(
    db_url: str, ply: int
) -> None:
    store = Store(db_url)
    gid = _new_game(store)
    match = _play(store, gid, 3)
    # A copy with ``ply`` actions the game never had (its first actions are bids, not cards).
    other = list(range(ply))
    with pytest.raises(StaleWrite, match="has moved on") as refused:
        store.append_action(gid, match.legal_actions()[0], after=other)
    assert (refused.value.expected, refused.value.stored) == (ply, 3)
    assert store.load(gid).match.history == match.history
    assert store.game_info(gid).actions_count == 3


def test_a_copy_from_before_an_undo_and_other_moves_is_refused_though_as_long(
    db_url: str,
) -> None:
    mine, theirs = Store(db_url), Store(db_url)
    gid = _new_game(mine)
    match = _play(mine, gid, 5)
    stale = theirs.load(gid).match
    # The game is taken back one action and played on differently, to the same length.
    _take_back(mine, gid, 4, after=match.history)
    replayed = Match.replay(match.rules, seed=match.seed, actions=match.history[:4])
    other = next(a for a in replayed.legal_actions() if a != match.history[4])
    mine.append_action(gid, other, after=replayed.history)
    with pytest.raises(StaleWrite, match="taken back and played again") as refused:
        theirs.append_action(gid, stale.legal_actions()[0], after=stale.history)
    assert (refused.value.expected, refused.value.stored) == (5, 5)
    assert mine.load(gid).match.history == [*match.history[:4], other]
    assert _stored_plies(db_url) == [(ply, 1) for ply in range(5)]


def test_a_second_session_s_bid_does_not_land_as_the_next_seat_s_bid(db_url: str) -> None:
    first, second = Store(db_url), Store(db_url)
    gid = _new_game(first)
    mine, theirs = first.load(gid).match, second.load(gid).match
    bid = mine.legal_actions()[-1]
    first.append_action(gid, bid, after=mine.history)
    with pytest.raises(StaleWrite):
        second.append_action(gid, bid, after=theirs.history)
    assert second.load(gid).match.history == [bid]


def test_an_undo_at_a_ply_the_game_has_left_is_refused_and_changes_nothing(db_url: str) -> None:
    store = Store(db_url)
    gid = _new_game(store)
    match = _play(store, gid, 10)
    with pytest.raises(StaleWrite) as refused:
        _take_back(store, gid, 6, after=match.history[:9])
    assert (refused.value.expected, refused.value.stored) == (9, 10)
    assert store.load(gid).match.history == match.history
    assert store.game_info(gid).undo_used is False
    _take_back(store, gid, 6, after=match.history)
    assert store.load(gid).match.history == match.history[:6]


@pytest.mark.parametrize("after", ["", b"", 0, None, [0.0], [True], [1] * 100_001])
def test_a_history_must_be_a_list_of_action_numbers(db_url: str, after: object) -> None:
    store = Store(db_url)
    gid = _new_game(store)
    action = store.load(gid).match.legal_actions()[0]
    with pytest.raises(StoreError, match="after: expected"):
        store.append_action(gid, action, after=after)  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="after: expected"):
        _take_back(store, gid, 0, after=after)
    assert store.game_info(gid).actions_count == 0


def test_two_servers_appending_at_one_ply_store_exactly_one_action(db_url: str) -> None:
    one, two = Store(db_url), Store(db_url)
    gid = _new_game(one)
    _play(one, gid, 5)
    seen_by_one, seen_by_two = one.load(gid).match, two.load(gid).match
    outcomes: list[str] = []
    for server, match in ((one, seen_by_one), (two, seen_by_two)):
        # Each server picks its own legal action for the position it replayed.
        action = match.legal_actions()[-1 if server is two else 0]
        try:
            server.append_action(gid, action, after=match.history)
            outcomes.append("stored")
        except StaleWrite as err:
            assert (err.expected, err.stored) == (5, 6)
            outcomes.append("stale")
    assert outcomes == ["stored", "stale"]
    assert len(two.load(gid).match.history) == 6
    assert _stored_plies(db_url) == [(ply, 1) for ply in range(6)]


WRITERS = 4
ROUNDS = 120


def test_racing_writers_never_store_two_actions_for_one_ply_and_the_game_replays(
    db_url: str,
) -> None:
    # No mercy rule and a far target: random play would soon end a standard match.
    gid = _new_game(Store(db_url), seed=7, rules=Rules(mercy_score=None, target_score=1000))
    ready = threading.Barrier(WRITERS)
    tally: Counter[str] = Counter()
    tally_lock = threading.Lock()
    errors: list[BaseException] = []

    def write(number: int) -> None:
        try:
            store = Store(db_url)
            rng = random.Random(number)
            match = store.load(gid).match
            ready.wait()
            for _ in range(ROUNDS):
                if match.is_over:
                    break
                ply = len(match.history)
                undo = ply > 0 and rng.random() < 0.1
                try:
                    if undo:
                        _take_back(store, gid, ply - 1, after=match.history)
                        match = Match.replay(
                            match.rules, seed=match.seed, actions=match.history[:-1]
                        )
                    else:
                        action = rng.choice(match.legal_actions())
                        store.append_action(gid, action, after=match.history)
                        match.apply(action)
                    outcome = "undone" if undo else "appended"
                except StaleWrite:
                    match = store.load(gid).match
                    outcome = "stale"
                with tally_lock:
                    tally[outcome] += 1
        except BaseException as err:  # reported below: a thread cannot raise into the test
            errors.append(err)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    attempts = sum(tally.values())
    assert tally["appended"] + tally["undone"] + tally["stale"] == attempts
    # All writers start from the same empty game: one lands its first action, the rest
    # learn that the game has moved on.
    assert tally["stale"] >= WRITERS - 1
    length = tally["appended"] - tally["undone"]
    replayed = Store(db_url).load(gid).match
    assert len(replayed.history) == length
    assert _stored_plies(db_url) == [(ply, 1) for ply in range(length)]


def test_an_abandoned_game_is_kept_but_no_longer_unfinished(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    ann, _ = store.new_player("Ann")
    older = store.new_game(
        rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS, owner=ann
    )
    newer = store.new_game(
        rules=Rules(), seed=2, players=PLAYERS, kind="human", bot_levels=BOTS, owner=ann
    )
    first = store.load(newer).match.legal_actions()[0]
    store.append_action(newer, first, after=[])
    assert store.unfinished_game(ann) == newer
    tables = Tables(store)
    # Given up as the Play page gives a game up: its private table closes.
    newer_table = tables.play(newer, ann)
    tables.close(newer_table, "closed")
    assert store.game_info(newer).status == "abandoned"
    assert len(store.load(newer).match.history) == 1
    assert store.unfinished_game(ann) == older
    tables.close(tables.play(older, ann), "closed")
    assert store.unfinished_game(ann) is None
    with pytest.raises(StoreError, match="already over"):
        tables.close(newer_table, "closed")
    with pytest.raises(StoreError, match="is over"):
        tables.play(older, ann)
    store.close()
