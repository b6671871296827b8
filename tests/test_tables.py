"""Shared tables through the application layer, on SQLite and on PostgreSQL: seats held by
secret tokens, one hand a page, moves refused with a reason, bots and stand-ins on the
table's clock, and the match stored like every game."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from db_helpers import TABLES_V8, run_sql

from spades.app.play import AT_TABLE, GameController
from spades.app.site import Site
from spades.app.tables import (
    ABSENT_AFTER,
    IDLE,
    MAX_OPEN,
    PACE,
    TABLE_PACES,
    TURN_LIMIT,
    SharedView,
    Sweeper,
    TableRefusal,
    TableService,
)
from spades.bots.hint import hint
from spades.engine.rules import Rules
from spades.engine.state import IllegalAction
from spades.stats.ratings import RATER
from spades.store import SCHEMA_VERSION, StaleWrite, Store, StoreUnavailable
from spades.store.profiles import Profiles
from spades.store.rows import utc_now
from spades.store.tables import CREATOR_SEAT, TableInfo, Tables

RULES = Rules(target_score=100, mercy_score=None)


class Clock:
    """The service's clock: the real one, moved on by hand."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return utc_now() + self.ahead

    def wait(self, seconds: float) -> None:
        self.ahead += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(db_url: str, clock: Clock) -> Iterator[TableService]:
    made = TableService(Store(db_url, rater=RATER), now=clock)
    yield made
    made.store.close()


def _player(service: TableService, name: str) -> str:
    return service.store.new_player(name)[0]


def _table(service: TableService, **options: bool) -> tuple[str, str, str, str]:
    """A table made by Ann (South) with ``options`` and joined by Bob (North); ids and
    both tokens."""
    ann, bob = _player(service, "Ann"), _player(service, "Bob")
    table_id, ann_token = service.create(ann, "Ann", RULES, bot_level="random", **options)
    bob_token = service.join(table_id, 0, bob, "Bob")
    return table_id, ann_token, bob_token, bob


def _started(service: TableService, **options: bool) -> tuple[str, str, str]:
    table_id, ann_token, bob_token, _ = _table(service, **options)
    service.start(table_id, ann_token, seed=3)
    return table_id, ann_token, bob_token


def _turn(service: TableService, clock: Clock, table_id: str, tokens: list[str]) -> SharedView:
    """Let the bots move until a person holding one of ``tokens`` is to act; their view."""
    for _ in range(200):
        for token in tokens:
            view = service.view(table_id, token)
            if view.to_act:
                return view
        clock.wait(1)
        service.advance(table_id)
    raise AssertionError("no person's turn came")


def _person_moves(
    service: TableService, clock: Clock, table_id: str, ann_token: str, bob_token: str
) -> SharedView:
    """Ann (South) or Bob, whoever is to act first, makes their first legal move; the view
    they made it on."""
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    assert view.own is not None
    token = ann_token if view.seat == CREATOR_SEAT else bob_token
    service.act(table_id, token, view.own.legal_actions[0], view.table.version)
    return view


def test_a_table_starts_waiting_with_its_creator_at_south(service: TableService) -> None:
    ann = _player(service, "Ann")
    table_id, token = service.create(ann, "Ann", RULES)
    view = service.view(table_id, token)
    assert view.seat == CREATOR_SEAT and view.creator
    assert view.table.status == "waiting" and view.drawn is None
    assert view.table.open_seats() == [0, 1, 3]
    assert view.table.seats[CREATOR_SEAT].name == "Ann"
    other, _ = service.create(ann, "Ann", RULES)
    assert other != table_id and len(table_id) >= 22 and len(token) >= 43


def test_one_address_makes_at_most_the_open_table_limit_however_many_players_it_is(
    service: TableService, clock: Clock
) -> None:
    # A browser that drops its cookies is a new player at each visit: the store's limit of
    # open tables a player does not hold it, the address's does.
    # Addresses of this test alone (the count is the server's, kept across tests).
    address, other = f"address-{uuid.uuid4()}", f"address-{uuid.uuid4()}"
    for number in range(MAX_OPEN):
        service.create(_player(service, f"P{number}"), "P", RULES, client=address)
    with pytest.raises(TableRefusal, match="from your address"):
        service.create(_player(service, "Q"), "Q", RULES, client=address)
    service.create(_player(service, "R"), "R", RULES, client=other)
    clock.wait(IDLE.total_seconds())
    service.create(_player(service, "S"), "S", RULES, client=address)


def test_a_seat_is_held_by_its_token_and_by_nobody_else(service: TableService) -> None:
    table_id, _ann_token, bob_token, bob = _table(service)
    assert service.tables.seat_of(table_id, bob_token) == 0
    assert service.tables.seat_of(table_id, bob_token[:-1] + "x") is None
    assert service.tables.seat_of(table_id, "") is None
    assert service.tables.seat_of(table_id, "é" * 10) is None
    assert service.view(table_id, None).seat is None
    with pytest.raises(TableRefusal, match="not open"):
        service.join(table_id, 0, _player(service, "Cy"), "Cy")
    with pytest.raises(TableRefusal, match="already have a seat"):
        service.join(table_id, 1, bob, "Bob again")


def test_only_the_creator_seats_bots_and_starts(service: TableService) -> None:
    table_id, ann_token, bob_token, _ = _table(service)
    with pytest.raises(TableRefusal, match="creator"):
        service.seat_bot(table_id, bob_token, 1, "random")
    with pytest.raises(TableRefusal, match="creator"):
        service.start(table_id, bob_token)
    before = service.view(table_id, None).table.version
    service.seat_bot(table_id, ann_token, 1, "basic")
    game_id = service.start(table_id, ann_token, seed=5)
    view = service.view(table_id, None)
    assert view.table.version > before and view.table.status == "playing"
    assert [s.kind for s in view.table.seats] == ["human", "bot", "human", "bot"]
    assert [s.level for s in view.table.seats][1] == "basic"
    info = service.store.game_info(game_id)
    assert (info.player_n, info.player_s) == ("Bob", "Ann")
    assert (info.level_n, info.level_e, info.level_s) == ("human", "basic", "human")
    with pytest.raises(TableRefusal, match="not open"):
        service.join(table_id, 3, _player(service, "Cy"), "Cy")


def test_each_page_holds_its_own_hand_and_a_spectator_none(service: TableService) -> None:
    table_id, ann_token, bob_token = _started(service)
    match = service.store.load(service.view(table_id, None).table.game_id or "").match
    for token, seat in ((ann_token, 2), (bob_token, 0)):
        view = service.view(table_id, token)
        assert view.own is not None and view.own.seat == seat
        hand = view.own.hand if view.own.hand is not None else ()
        assert set(hand) <= set(match.hand.hand(seat))
    spectator = service.view(table_id, None)
    assert spectator.own is None and spectator.drawn is not None
    seen = spectator.drawn.obs
    assert seen.hand is None and not (seen.legal_actions or seen.passed or seen.received)
    # A seated page's view holds its own cards and, of the others', only those played.
    view = service.view(table_id, ann_token)
    assert view.own is not None and view.own.hand is not None and view.drawn is not None
    unseen = {c for seat in (0, 1, 3) for c in match.hand.hand(seat)}
    assert not unseen & set(view.own.hand)
    assert not unseen & {c for _, c in view.drawn.obs.trick}


def test_a_move_out_of_turn_stale_illegal_or_forged_is_refused_and_changes_nothing(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service)
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    mover = ann_token if view.seat == CREATOR_SEAT else bob_token
    waiter = bob_token if mover == ann_token else ann_token
    assert view.own is not None
    legal = list(view.own.legal_actions)
    version = view.table.version
    refusals = [
        (waiter, legal[0], version, "not your turn"),
        (mover, legal[0], version - 1, "moved on"),
        (mover[:-2] + "zz", legal[0], version, "do not hold a seat"),
        (mover, 999, version, "not an action"),
    ]
    for token, action, seen, words in refusals:
        with pytest.raises(TableRefusal, match=words):
            service.act(table_id, token, action, seen)
        assert service.view(table_id, None).table.version == version
    service.act(table_id, mover, legal[0], version)
    with pytest.raises(TableRefusal):
        service.act(table_id, mover, legal[0], version)  # the second click of a double click
    after = service.view(table_id, None)
    assert after.table.version == version + 1


def test_bots_move_at_the_table_s_pace_and_a_late_person_gets_a_stand_in(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service)
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    late = view.seat
    assert late is not None
    # Within the limit nothing happens for the person to act.
    clock.wait(TURN_LIMIT - 5)
    assert not service.advance(table_id)
    clock.wait(10)
    assert service.advance(table_id)
    assert service.view(table_id, None).table.seats[late].stand_in
    version = service.view(table_id, None).table.version
    clock.wait(1)
    assert service.advance(table_id)
    assert service.view(table_id, None).table.version == version + 1
    # Looking at the table does not end the stand-in; taking the seat back does.
    token = ann_token if late == CREATOR_SEAT else bob_token
    clock.wait(30)
    assert service.view(table_id, token).table.seats[late].stand_in
    with pytest.raises(TableRefusal, match="do not hold a seat"):
        service.take_back(table_id, token[:-3] + "abc")
    service.take_back(table_id, token)
    assert not service.view(table_id, token).table.seats[late].stand_in


class StoppedClock(Clock):
    """A clock that moves only by hand: a test that times a wait to a fraction of a
    second must not lose it to a slow machine."""

    def __init__(self) -> None:
        super().__init__()
        self.at = utc_now()

    def __call__(self) -> datetime:
        return self.at + self.ahead


@pytest.mark.parametrize("pace", ["slow", "fast"])
def test_the_bots_move_at_the_pace_the_creator_picked(db_url: str, pace: str) -> None:
    clock = StoppedClock()
    service = TableService(Store(db_url, rater=RATER), now=clock)
    ann = _player(service, "Ann")
    table_id, token = service.create(ann, "Ann", RULES, bot_level="random", pace=pace)
    seconds = TABLE_PACES[pace]
    assert service.pace_of(table_id) == seconds
    service.start(table_id, token, seed=3)
    # Let the table reach a bot's turn, then time the bot against the picked pace.
    view = service.view(table_id, token)
    while view.to_act and view.own is not None:
        service.act(table_id, token, view.own.legal_actions[0], view.table.version)
        view = service.view(table_id, token)
    version = view.table.version
    clock.wait(seconds - 0.2)
    assert not service.advance(table_id)
    clock.wait(0.4)
    assert service.advance(table_id)
    assert service.view(table_id, None).table.version == version + 1
    service.store.close()


def test_a_pace_not_offered_is_refused(service: TableService) -> None:
    ann = _player(service, "Ann")
    with pytest.raises(TableRefusal, match="bots' pace"):
        service.create(ann, "Ann", RULES, pace="instant")


def test_a_whole_match_of_stand_ins_is_stored_finished_with_each_name(
    service: TableService, clock: Clock
) -> None:
    ann, bob = _player(service, "Ann"), _player(service, "Bob")
    table_id, ann_token = service.create(ann, "Ann", RULES, bot_level="basic")
    service.join(table_id, 0, bob, "Bob")
    service.start(table_id, ann_token, seed=11)
    for step in range(3000):
        if service.view(table_id, None).table.status == "finished":
            break
        clock.wait(TURN_LIMIT + 1)
        if step % 20 == 0:
            service.view(table_id, ann_token)  # Ann looks in, so the table is not idle
        service.advance(table_id)
    view = service.view(table_id, None)
    assert view.table.status == "finished" and view.outcome
    info = service.store.game_info(view.table.game_id or "")
    assert info.status == "finished"
    assert (info.player_s, info.player_n) == ("Ann", "Bob")
    loaded = service.store.load(view.table.game_id or "").match
    assert loaded.is_over and loaded.scores == view.scores


def test_a_table_nobody_looks_at_is_closed_and_its_game_kept_as_abandoned(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, _ = _started(service)
    game_id = service.view(table_id, None).table.game_id or ""
    clock.wait(IDLE.total_seconds() + 1)
    assert service.advance(table_id)
    assert service.view(table_id, None).table.status == "closed"
    assert service.store.game_info(game_id).status == "abandoned"
    with pytest.raises(TableRefusal):
        service.act(table_id, ann_token, 0, service.view(table_id, None).table.version)


def test_the_creator_frees_an_absent_person_s_seat(service: TableService) -> None:
    table_id, ann_token, bob_token, _ = _table(service)
    service.remove(table_id, ann_token, 0)
    assert service.view(table_id, None).table.seats[0].kind == "open"
    assert service.tables.seat_of(table_id, bob_token) is None
    with pytest.raises(TableRefusal, match="another person"):
        service.remove(table_id, ann_token, CREATOR_SEAT)


def test_mid_match_the_creator_frees_only_an_absent_person_s_seat_and_another_takes_it(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service)
    with pytest.raises(TableRefusal, match="absent"):
        service.remove(table_id, ann_token, 0)  # Bob is here: his seat stays his
    with pytest.raises(TableRefusal, match="creator"):
        service.remove(table_id, bob_token, 0)
    # Bob lets a turn run out and a bot stands in for him; Ann frees his seat.
    for _ in range(200):
        if service.view(table_id, None).table.seats[0].stand_in:
            break
        view = _turn(service, clock, table_id, [ann_token, bob_token])
        if view.seat == CREATOR_SEAT:
            service.act(table_id, ann_token, view.own.legal_actions[0], view.table.version)
        else:
            clock.wait(TURN_LIMIT + 1)
            service.advance(table_id)
    # His page still looks at the table: he was slow, not gone, and his seat stays his.
    service.view(table_id, bob_token)
    with pytest.raises(TableRefusal, match="absent"):
        service.remove(table_id, ann_token, 0)
    # Once his page has not looked at the table for a while, he is absent.
    clock.wait(ABSENT_AFTER.total_seconds())
    assert service.absent(service.view(table_id, None).table) == [0]
    service.remove(table_id, ann_token, 0)
    north = service.view(table_id, None).table.seats[0]
    assert north.kind == "open" and north.level == "random"
    assert service.tables.seat_of(table_id, bob_token) is None
    with pytest.raises(TableRefusal, match="do not hold a seat"):
        service.act(table_id, bob_token, 0, service.view(table_id, None).table.version)
    # The open seat is played by the bot at the table's pace until Cy sits down.
    moved = 0
    for _ in range(200):
        drawn = service.view(table_id, None).drawn
        assert drawn is not None
        if drawn.obs.current_player == 0:
            clock.wait(1)
            assert service.advance(table_id)
            moved += 1
            if moved == 2:
                break
        else:
            view = _turn(service, clock, table_id, [ann_token])
            assert view.own is not None
            service.act(table_id, ann_token, view.own.legal_actions[0], view.table.version)
    assert moved == 2
    cy_token = service.join(table_id, 0, _player(service, "Cy"), "Cy")
    cy = service.view(table_id, cy_token)
    assert cy.seat == 0 and cy.own is not None and cy.table.seats[0].name == "Cy"
    view = _turn(service, clock, table_id, [ann_token, cy_token])
    assert view.own is not None
    token = cy_token if view.seat == 0 else ann_token
    service.act(table_id, token, view.own.legal_actions[0], view.table.version)
    assert service.view(table_id, None).table.version == view.table.version + 1


def test_two_servers_moving_one_table_at_once_store_one_move(
    service: TableService, db_url: str, clock: Clock
) -> None:
    table_id, _, _ = _started(service)
    other = TableService(Store(db_url, rater=RATER), now=clock)
    info = service.view(table_id, None).table
    match = service.store.load(info.game_id or "").match
    seat = match.current_player
    assert seat is not None
    action = match.legal_actions()[0]
    service.tables.act(table_id, seat, action, after=match.history, person=False)
    with pytest.raises(StaleWrite):
        other.tables.act(table_id, seat, action, after=match.history, person=False)
    after = other.view(table_id, None).table
    assert after.version == info.version + 1
    assert other.store.load(info.game_id or "").match.history == [*match.history, action]


def test_a_table_s_pages_on_one_server_read_its_game_once_a_version_and_replay_it_only_cold(
    service: TableService, db_url: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, ann_token, bob_token = _started(service)
    loads: list[str] = []
    reads: list[int] = []
    load, since = service.store.load, service.store.actions_since

    def counted(game_id: str) -> object:
        loads.append(game_id)
        return load(game_id)

    def counted_since(game_id: str, ply: int) -> tuple[str, list[int]]:
        reads.append(ply)
        return since(game_id, ply)

    monkeypatch.setattr(service.store, "load", counted)
    monkeypatch.setattr(service.store, "actions_since", counted_since)
    for token in (ann_token, bob_token, None, ann_token):
        service.view(table_id, token)
    assert len(loads) == 1
    # A move is a new version: the match the move was made on is kept for it, so the
    # server reads nothing of the game again.
    view = _person_moves(service, clock, table_id, ann_token, bob_token)
    loads.clear()
    reads.clear()
    after = [service.view(table_id, t) for t in (ann_token, bob_token)]
    assert loads == [] and reads == []
    assert all(v.table.version == view.table.version + 1 for v in after)
    # Another server has none of it kept: it replays the game once, to the same table.
    other = TableService(Store(db_url, rater=RATER), now=clock)
    for token in (ann_token, bob_token, None):
        assert other.view(table_id, token) == service.view(table_id, token)
    # A move made there is read here as the actions stored since, not a replay.
    _person_moves(other, clock, table_id, ann_token, bob_token)
    loads.clear()
    reads.clear()
    assert service.view(table_id, None) == other.view(table_id, None)
    assert loads == [] and len(reads) == 1
    other.store.close()


def test_a_move_taken_back_at_a_table_has_its_game_read_again_whole(
    db_url: str, clock: Clock
) -> None:
    service = TableService(Store(db_url, rater=RATER), now=clock)
    ann = service.store.new_player("Ann")[0]
    table_id, token = service.create(ann, "Undo", Rules(), undo=True)
    service.start(table_id, token, seed=11)
    view = _turn(service, clock, table_id, [token])
    assert view.own is not None
    before = view.own
    service.act(table_id, token, view.own.legal_actions[0], view.table.version)
    moved = service.view(table_id, token)
    assert moved.own != before
    service.undo(table_id, token, moved.table.version)
    back = service.view(table_id, token)
    assert back.own == before
    fresh = TableService(Store(db_url, rater=RATER), now=clock)
    assert fresh.view(table_id, token) == back
    fresh.store.close()
    service.store.close()


def test_pages_asking_for_one_version_at_once_wait_for_one_read_of_it(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, ann_token, bob_token = _started(service)
    load, info = service.store.load, service.tables.info
    loads: list[str] = []
    asked = threading.Semaphore(0)
    release = threading.Event()

    def slow_load(game_id: str) -> object:
        loads.append(game_id)
        assert release.wait(10)
        return load(game_id)

    def counted_info(table_id: str) -> object:
        found = info(table_id)
        asked.release()
        return found

    monkeypatch.setattr(service.store, "load", slow_load)
    monkeypatch.setattr(service.tables, "info", counted_info)
    views: list[SharedView] = []
    pages = [
        threading.Thread(target=lambda t=t: views.append(service.view(table_id, t)))
        for t in (ann_token, bob_token, None, None)
    ]
    for page in pages:
        page.start()
    for _ in pages:  # every page has read the table and goes on to its match
        assert asked.acquire(timeout=10)
    release.set()
    for page in pages:
        page.join()
    assert len(loads) == 1 and len(views) == 4
    assert len({(v.table.version, v.drawn.obs.trick if v.drawn else None) for v in views}) == 1


def test_a_move_landing_while_a_page_reads_is_read_again_not_shown_stale(
    service: TableService, db_url: str, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, ann_token, _ = _started(service)
    before = service.tables.info(table_id)
    match = service.store.load(before.game_id or "").match
    seat = match.current_player
    assert seat is not None
    load = service.store.load
    landed: list[int] = []

    def load_then_move(game_id: str) -> object:
        found = load(game_id)
        if not landed:  # a move stored through another page between the two reads
            landed.append(match.legal_actions()[0])
            service.tables.act(table_id, seat, landed[0], after=match.history, person=False)
        return found

    monkeypatch.setattr(service.store, "load", load_then_move)
    view = service.view(table_id, ann_token)
    assert landed and view.table.version == before.version + 1
    fresh = TableService(Store(db_url, rater=RATER), now=clock)
    watched = service.view(table_id, None).drawn
    assert watched is not None and view.drawn is not None
    assert watched.obs.trick == view.drawn.obs.trick
    assert watched == fresh.view(table_id, None).drawn
    fresh.store.close()


# ----------------------------------------------------------- a table's game is the table's
def _finished(service: TableService, clock: Clock) -> tuple[str, str, str]:
    """A table of Ann, Bob and two basic bots whose match is played to its end by
    stand-ins; its id and both tokens."""
    ann, bob = _player(service, "Ann"), _player(service, "Bob")
    table_id, ann_token = service.create(ann, "Ann", RULES, bot_level="basic")
    bob_token = service.join(table_id, 0, bob, "Bob")
    service.start(table_id, ann_token, seed=11)
    for step in range(3000):
        if service.view(table_id, None).table.status == "finished":
            return table_id, ann_token, bob_token
        clock.wait(TURN_LIMIT + 1)
        if step % 20 == 0:
            service.view(table_id, ann_token)
        service.advance(table_id)
    raise AssertionError("the match did not end")


def test_a_match_two_servers_find_over_at_once_ends_once_and_refuses_neither(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two servers (or a server's clock and a page) find the match over at once: the first
    stores the game and ends the table, the second finds both done, and is not refused."""
    ann = _player(service, "Ann")
    table_id, token = service.create(ann, "Ann", RULES, bot_level="basic")
    service.start(table_id, token, seed=11)
    for _ in range(3000):  # bots, and a stand-in for Ann, play to the match's last card
        if service.view(table_id, token).outcome is not None:
            break
        clock.wait(TURN_LIMIT + 1)
        service.advance(table_id)
    game_id = service.tables.info(table_id).game_id or ""
    assert service.tables.info(table_id).status == "playing"
    clock.wait(TURN_LIMIT + 1)
    other = TableService(service.store, now=clock)
    read = other.tables.info

    def read_then_the_first_ends_it(table: str) -> TableInfo:
        found = read(table)
        monkeypatch.setattr(other.tables, "info", read)
        assert service.advance(table_id), "the first server ends the table"
        return found

    monkeypatch.setattr(other.tables, "info", read_then_the_first_ends_it)
    assert not other.advance(table_id)
    assert service.view(table_id, None).table.status == "finished"
    assert service.store.game_info(game_id).status == "finished"


def test_a_table_s_game_is_never_offered_to_continue_on_play(service: TableService) -> None:
    table_id, _, _ = _started(service)
    info = service.view(table_id, None).table
    assert info.creator is not None
    assert service.store.game_info(info.game_id or "").at_table
    assert service.store.unfinished_game(info.creator) is None


def test_play_opens_a_table_s_game_read_only_even_for_its_creator(
    service: TableService,
) -> None:
    table_id, _, _ = _started(service)
    info = service.view(table_id, None).table
    for viewer in (info.creator, info.seats[0].player, None):
        controller = GameController.resume(service, info.game_id or "", viewer=viewer)
        controller.set_pace("instant")
        assert controller.read_only and not controller.in_progress
        assert not controller.bots_to_act and not controller.run_bots()
        legal = controller.match.legal_actions()
        assert not controller.act(legal[0], controller.ply)
        assert controller.notice is not None and controller.notice.text == AT_TABLE
        assert controller.abandon() and not controller.undo(controller.ply)
    assert service.store.game_info(info.game_id or "").status == "playing"
    assert service.view(table_id, None).table.version == info.version


def test_the_creator_closes_the_table_and_its_match_is_stored_abandoned(
    service: TableService,
) -> None:
    table_id, ann_token, bob_token = _started(service)
    game_id = service.view(table_id, None).table.game_id or ""
    with pytest.raises(TableRefusal, match="creator"):
        service.close(table_id, bob_token)
    assert service.view(table_id, None).table.status == "playing"
    service.close(table_id, ann_token)
    assert service.view(table_id, bob_token).table.status == "closed"
    assert service.store.game_info(game_id).status == "abandoned"
    assert not service.advance(table_id)
    with pytest.raises(TableRefusal, match="already over"):
        service.close(table_id, ann_token)


def test_creator_powers_pass_only_by_a_hand_over(service: TableService) -> None:
    table_id, ann_token, bob_token, bob = _table(service)
    with pytest.raises(TableRefusal, match="creator"):
        service.hand_over(table_id, bob_token, CREATOR_SEAT)
    with pytest.raises(TableRefusal, match="another person"):
        service.hand_over(table_id, ann_token, 1)  # an open seat
    service.hand_over(table_id, ann_token, 0)
    assert service.view(table_id, bob_token).creator
    assert not service.view(table_id, ann_token).creator
    with pytest.raises(TableRefusal, match="creator"):
        service.start(table_id, ann_token)
    # The new creator may free the old one's seat; their own stays theirs.
    with pytest.raises(TableRefusal, match="another person"):
        service.remove(table_id, bob_token, 0)
    service.start(table_id, bob_token, seed=4)
    assert service.view(table_id, None).table.creator == bob


def test_creator_powers_end_when_the_creator_s_data_is_deleted(service: TableService) -> None:
    table_id, _, bob_token = _started(service)
    info = service.view(table_id, None).table
    assert info.creator is not None
    Profiles(service.store).delete(info.creator)
    assert service.view(table_id, None).table.seats[CREATOR_SEAT].kind == "open"
    cy_token = service.join(table_id, CREATOR_SEAT, _player(service, "Cy"), "Cy")
    for token in (cy_token, bob_token):
        assert not service.view(table_id, token).creator
        with pytest.raises(TableRefusal, match="creator"):
            service.close(table_id, token)
    assert service.view(table_id, None).table.status == "playing"


def test_a_table_is_private_by_default_and_only_a_public_one_is_listed(
    service: TableService,
) -> None:
    ann = _player(service, "Ann")
    private, _ = service.create(ann, "Ann", RULES)
    public, _ = service.create(ann, "Ann", RULES, public=True)
    listed = [info.table_id for info in service.listed()]
    assert listed == [public]
    assert not service.view(private, None).table.public
    # A private table is joined by its link all the same.
    assert service.join(private, 0, _player(service, "Bob"), "Bob")


def test_idle_tables_are_swept_without_a_page_polling_them_and_leave_the_lobby(
    service: TableService, clock: Clock
) -> None:
    ann = _player(service, "Ann")
    waiting, _ = service.create(ann, "Ann", RULES, public=True)
    playing, ann_token, _ = _started(service)
    fresh_at = clock.ahead
    clock.wait(IDLE.total_seconds() - 60)
    service.view(playing, ann_token)  # Ann still looks at this one
    clock.wait(61)
    assert [info.table_id for info in service.listed()] == []  # waiting is idle: not listed
    assert service.sweep() == 1
    assert service.view(waiting, None).table.status == "closed"
    assert service.view(playing, None).table.status == "playing"
    clock.ahead = fresh_at + IDLE * 3
    assert service.sweep() == 1
    assert service.view(playing, None).table.status == "closed"
    assert service.sweep() == 0


def test_the_server_s_sweeper_closes_idle_tables_on_its_own_clock(
    service: TableService, clock: Clock
) -> None:
    ann = _player(service, "Ann")
    table_id, _ = service.create(ann, "Ann", RULES)
    clock.wait(IDLE.total_seconds() + 1)
    sweeper = Sweeper(service, every=0.01).start()
    try:
        for _ in range(500):
            if service.view(table_id, None).table.status == "closed":
                break
            sweeper.stopped.wait(0.01)
    finally:
        sweeper.stop()
    assert service.view(table_id, None).table.status == "closed"
    assert not sweeper.thread.is_alive()


def test_the_server_s_clock_moves_the_bots_at_the_table_s_pace(service: TableService) -> None:
    """No page looks at the table: the server's clock alone moves the bots on, each once
    the pace has passed after the move before it."""
    ann = _player(service, "Ann")
    table_id, token = service.create(ann, "Ann", RULES, bot_level="random")
    moved = threading.Event()
    versions: list[int] = []

    def heard(version: int) -> None:
        versions.append(version)
        moved.set()

    service.follow(table_id, heard)
    sweeper = Sweeper(service).start()
    try:
        service.start(table_id, token, seed=5)
        bot_moves = 0
        while bot_moves < 3:
            view = service.view(table_id, token)
            if view.to_act and view.own is not None:  # Ann bids when her turn comes
                service.act(table_id, token, view.own.legal_actions[0], view.table.version)
                continue
            moved.clear()
            assert moved.wait(10), "a bot moved on the server's clock"
            bot_moves += 1
    finally:
        sweeper.stop()
    assert service.tables.info(table_id).status == "playing" and versions
    assert not sweeper.thread.is_alive()


def test_the_server_s_clock_seats_a_stand_in_once_a_person_s_turn_limit_has_passed(
    service: TableService, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No page looks at the table: the server's clock alone seats a bot for a person who
    let their turn run past the limit. Its waits are measured on a clock moved by hand,
    first past the table's pace (the person still has time), then past the limit."""
    ahead = [0.0]
    stepped = threading.Event()
    advance = service.advance

    def counted(table_id: str) -> bool:
        stepped.set()
        return advance(table_id)

    monkeypatch.setattr(service, "advance", counted)
    # It sweeps every 10 ms, so it wakes to see the clock moved.
    sweeper = Sweeper(service, every=0.01, monotonic=lambda: time.monotonic() + ahead[0])
    sweeper.start()
    try:
        table_id, ann_token, bob_token = _started(service)
        late = _turn(service, clock, table_id, [ann_token, bob_token]).seat
        assert late is not None
        stepped.clear()
        ahead[0] = PACE + 1.0
        assert stepped.wait(10), "the clock looked at the table once its pace had passed"
        assert not service.view(table_id, None).table.seats[late].stand_in
        clock.wait(TURN_LIMIT + 1)
        ahead[0] = TURN_LIMIT + 2.0
        _while_the_clock_runs(lambda: service.view(table_id, None).table.seats[late].stand_in)
    finally:
        sweeper.stop()
    assert service.view(table_id, None).table.seats[late].stand_in


def _while_the_clock_runs(done: Callable[[], bool]) -> None:
    """Wait up to five seconds, looking every 10 ms, for ``done()``."""
    for _ in range(500):
        if done():
            return
        time.sleep(0.01)


def test_the_server_s_clock_keeps_the_turn_limit_of_a_table_made_on_another_server(
    service: TableService, db_url: str, clock: Clock
) -> None:
    """Another server made the table with a 15 s turn limit, and this server first hears of
    it by its news. Its clock reads the table at its first wake and seats the stand-in at
    the table's own limit, not at the default of a table it has not read."""
    ann, bob = _player(service, "Ann"), _player(service, "Bob")
    table_id, ann_token = service.create(ann, "Ann", RULES, bot_level="random", turn_limit=15)
    bob_token = service.join(table_id, 0, bob, "Bob")
    service.start(table_id, ann_token, seed=3)
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    late = view.seat
    assert late is not None and TURN_LIMIT > 15
    other = TableService(Store(db_url, rater=RATER), now=clock)
    ahead = [0.0]
    # It sweeps every 10 ms, so it wakes to see its clock moved.
    sweeper = Sweeper(other, every=0.01, monotonic=lambda: time.monotonic() + ahead[0])
    sweeper.start()
    try:
        # The news another server's move brings (on PostgreSQL, its NOTIFY).
        other.store.news.announce(table_id, view.table.version)
        ahead[0] = PACE + 1.0
        _while_the_clock_runs(lambda: other.turn_limit_of(table_id) == 15)
        assert other.turn_limit_of(table_id) == 15, "the clock read the table at its pace"
        clock.wait(16)
        ahead[0] = 17.0
        _while_the_clock_runs(lambda: other.view(table_id, None).table.seats[late].stand_in)
    finally:
        sweeper.stop()
        other.store.close()
    assert service.view(table_id, None).table.seats[late].stand_in


def test_a_player_may_hold_at_most_five_open_tables(service: TableService) -> None:
    ann = _player(service, "Ann")
    made = [service.create(ann, "Ann", RULES) for _ in range(MAX_OPEN)]
    with pytest.raises(TableRefusal, match=f"already have {MAX_OPEN} tables open"):
        service.create(ann, "Ann", RULES)
    table_id, token = made[0]
    service.close(table_id, token)
    assert service.create(ann, "Ann", RULES)
    # Another player is not held back by Ann's tables.
    assert service.create(_player(service, "Bob"), "Bob", RULES)


def test_a_rematch_keeps_the_same_seats(service: TableService, clock: Clock) -> None:
    table_id, ann_token, bob_token = _finished(service, clock)
    before = service.view(table_id, None).table
    with pytest.raises(TableRefusal, match="creator"):
        service.rematch(table_id, bob_token)
    game_id = service.rematch(table_id, ann_token, seed=8)
    after = service.view(table_id, None).table
    assert after.status == "playing" and after.game_id == game_id != before.game_id
    assert [(s.kind, s.player, s.level) for s in after.seats] == [
        (s.kind, s.player, s.level) for s in before.seats
    ]
    assert service.view(table_id, bob_token).seat == 0
    assert service.view(table_id, ann_token).own is not None
    info = service.store.game_info(game_id)
    assert info.at_table and (info.player_n, info.player_s) == ("Bob", "Ann")
    assert service.store.game_info(before.game_id or "").status == "finished"
    with pytest.raises(TableRefusal, match="once the match is over"):
        service.rematch(table_id, ann_token)


def test_a_name_with_invisible_or_control_characters_is_cleaned(service: TableService) -> None:
    ann = _player(service, "Ann")
    table_id, _ = service.create(ann, "A\u200bnn\x07\n", RULES)
    bob_token = service.join(table_id, 0, _player(service, "Bob"), "\u200b\u200bBob\u0000")
    seats = service.view(table_id, bob_token).table.seats
    assert (seats[CREATOR_SEAT].name, seats[0].name) == ("Ann", "Bob")
    with pytest.raises(TableRefusal, match="at least one letter"):
        service.join(table_id, 1, _player(service, "Cy"), "\u200b\x01")


def test_a_database_fault_at_a_table_stays_a_plain_fault_not_a_refusal(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, ann_token, _ = _started(service)

    def busy(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("busy")

    # Every read and write of the store finds the database busy.
    monkeypatch.setattr(service.store, "_read", busy)
    monkeypatch.setattr(service.store, "_write", busy)
    for step in (
        lambda: service.advance(table_id),
        lambda: service.view(table_id, ann_token),
        lambda: service.act(table_id, ann_token, 0, 1),
        lambda: service.close(table_id, ann_token),
        service.listed,
        service.sweep,
    ):
        with pytest.raises(StoreUnavailable, match="busy"):
            step()


def test_a_store_refusal_at_a_table_reads_as_a_sentence(service: TableService) -> None:
    with pytest.raises(TableRefusal) as refused:
        service.view("no-such-table-here", None)
    assert str(refused.value) == "No such table."


def test_a_version_8_store_marks_each_table_s_game_as_the_table_s(
    service: TableService, db_url: str
) -> None:
    table_id, _, _ = _started(service)
    ann = service.view(table_id, None).table.creator
    assert ann is not None
    own = service.store.new_game(
        rules=RULES,
        seed=1,
        players=("N", "E", "Ann", "W"),
        kind="human",
        bot_levels={0: "random", 1: "random", 3: "random"},
        owner=ann,
    )
    service.store.append_action(own, service.store.load(own).match.legal_actions()[0], after=[])
    service.store.close()
    for statement in (*TABLES_V8, "UPDATE schema_version SET version = 8"):
        run_sql(db_url, statement)
    store = Store(db_url, rater=RATER)
    assert run_sql(db_url, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
    game_id = Tables(store).info(table_id).game_id or ""
    assert store.game_info(game_id).at_table and not store.game_info(own).at_table
    assert store.unfinished_game(ann) == own
    assert not Tables(store).info(table_id).public
    store.close()


# ------------------------------------------------------------ one view model for every seat
def test_each_page_gets_the_play_view_model_from_its_own_seat(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service)
    for token, seat in ((ann_token, 2), (bob_token, 0)):
        drawn = service.view(table_id, token).drawn
        assert drawn is not None and drawn.seat == seat and not drawn.read_only
        assert drawn.obs.hand is not None and not drawn.hints and not drawn.undo_allowed
        # The seat's own team is Us, whichever it is.
        assert [side.key for side in drawn.sides] == ["team_us", "team_them"]
    watcher = service.view(table_id, None).drawn
    assert watcher is not None and watcher.read_only and watcher.watching
    assert watcher.obs.hand is None and watcher.obs.legal_actions == ()
    assert not watcher.card_why_not


def test_seats_are_named_by_seat_and_level(service: TableService) -> None:
    table_id, ann_token, _bob_token, _ = _table(service)
    service.seat_bot(table_id, ann_token, 1, "basic")
    service.start(table_id, ann_token, seed=2)
    drawn = service.view(table_id, ann_token).drawn
    assert drawn is not None
    assert drawn.players == ("Bob", "East · basic bot", "Ann", "West · random bot")


def test_a_refusal_on_a_seat_s_view_is_the_engine_s_own_reason(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service)
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    drawn = view.drawn
    assert drawn is not None and drawn.human_to_act
    match = service.store.load(view.table.game_id or "").match
    for action, why in drawn.why_not.items():
        try:
            match.hand.verify(action)
        except IllegalAction as err:
            assert why == str(err)
        else:
            assert why is None
    other = _player_seat_token(view, ann_token, bob_token)
    waiting = service.view(table_id, other).drawn
    assert waiting is not None and not waiting.human_to_act
    assert all(why and why.startswith("Wait for your turn") for why in waiting.why_not.values())


def _player_seat_token(view: SharedView, ann_token: str, bob_token: str) -> str:
    """The token of the person who is not to act in ``view``."""
    return bob_token if view.seat == CREATOR_SEAT else ann_token


def test_a_seat_hears_what_happened_at_the_table_since_it_last_heard(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, _ = _started(service)
    first = service.view(table_id, ann_token)
    assert first.moment is not None and first.cues == (), "nothing sounds at a first look"
    heard = first.moment
    tables = Tables(service.store)
    game_id = first.table.game_id or ""
    # Every seat plays its first legal move through the first hand.
    match = service.store.load(game_id).match
    while len(match.finished) < 1:
        action = match.legal_actions()[0]
        tables.act(table_id, match.current_player or 0, action, after=match.history, person=False)
        match.apply(action)
    later = service.view(table_id, ann_token, heard=heard)
    assert later.cues[:2] == ("snap", "gather")
    ours, theirs = match.results[0].sides  # Ann's team is North/South
    if ours.made is not None:
        assert ("made" if ours.made else "set") in later.cues
    assert ("chime" in later.cues) == (ours.points > theirs.points)
    again = service.view(table_id, ann_token, heard=later.moment)
    assert again.cues == ()


# ----------------------------------------------------------------- the table's options
def test_hints_and_undo_are_off_at_a_table_unless_its_creator_sets_them(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service)
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    token = ann_token if view.seat == CREATOR_SEAT else bob_token
    with pytest.raises(TableRefusal, match="Hints are switched off"):
        service.hint(table_id, token, view.table.version)
    with pytest.raises(TableRefusal, match="Undo is switched off"):
        service.undo(table_id, token, view.table.version)
    assert view.drawn is not None and not view.drawn.hints and not view.drawn.undo_allowed


def test_a_table_with_hints_gives_a_seat_the_play_page_s_advice_on_its_turn(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service, hints=True)
    view = _turn(service, clock, table_id, [ann_token, bob_token])
    token, other = (ann_token, bob_token) if view.seat == CREATOR_SEAT else (bob_token, ann_token)
    assert view.drawn is not None and view.drawn.hints
    match = service.store.load(view.table.game_id or "").match
    assert view.seat is not None
    advice = service.hint(table_id, token, view.table.version)
    assert advice == hint(match.hand.observation(view.seat))
    with pytest.raises(TableRefusal, match="on your turn"):
        service.hint(table_id, other, view.table.version)
    with pytest.raises(TableRefusal, match="moved on"):
        service.hint(table_id, token, view.table.version - 1)


def test_undo_at_a_table_takes_back_a_seat_s_last_move_and_the_bots_after_it(
    service: TableService, clock: Clock
) -> None:
    table_id, ann_token, bob_token = _started(service, undo=True)
    # Ann (South) moves; West, a bot, answers; Ann takes her move back with West's.
    view = _turn(service, clock, table_id, [ann_token])
    assert view.own is not None and view.drawn is not None and not view.drawn.can_undo
    before = service.store.load(view.table.game_id or "").match.history
    service.act(table_id, ann_token, view.own.legal_actions[0], view.table.version)
    clock.wait(1)
    assert service.advance(table_id)  # West's move
    ann = service.view(table_id, ann_token)
    assert ann.drawn is not None and ann.drawn.can_undo
    bob = service.view(table_id, bob_token)
    assert bob.drawn is not None and not bob.drawn.can_undo, "Bob has no move to take back"
    with pytest.raises(TableRefusal, match="no bid or card of yours"):
        service.undo(table_id, bob_token, bob.table.version)
    service.undo(table_id, ann_token, ann.table.version)
    match = service.store.load(view.table.game_id or "").match
    assert match.history == before and match.current_player == CREATOR_SEAT
    assert service.store.game_info(view.table.game_id or "").undo_used
    # Once Bob, a person, has moved after her, Ann's move stays.
    view = service.view(table_id, ann_token)
    assert view.own is not None
    service.act(table_id, ann_token, view.own.legal_actions[0], view.table.version)
    clock.wait(1)
    service.advance(table_id)
    bob = _turn(service, clock, table_id, [bob_token])
    assert bob.own is not None
    service.act(table_id, bob_token, bob.own.legal_actions[0], bob.table.version)
    ann = service.view(table_id, ann_token)
    with pytest.raises(TableRefusal, match="no other person has moved"):
        service.undo(table_id, ann_token, ann.table.version)


def test_a_table_s_options_leave_its_creator_s_name_alone(service: TableService) -> None:
    ann = _player(service, "Ann")
    table_id, _ = service.create(ann, "Ann", RULES, public=True, hints=True, undo=True)
    info = service.view(table_id, None).table
    assert info.seats[CREATOR_SEAT].name == "Ann"
    assert (info.public, info.hints, info.undo) == (True, True, True)


def test_every_page_of_a_server_shares_one_table_service(db_url: str) -> None:
    """The matches a server keeps serve all its pages and its clock: one service a store
    (a service a page run would read every table's game again at each run)."""
    store, other = Store(db_url, rater=RATER), Store(db_url, rater=RATER)
    assert Site(store).tables() is Site(store).tables()
    assert Site(other).tables() is not Site(store).tables()
    store.close()
    other.close()


@pytest.mark.parametrize("players", [3, 4])
def test_a_cutthroat_table_plays_a_whole_match_each_for_themselves(
    service: TableService, clock: Clock, players: int
) -> None:
    rules = Rules(players=players, partnerships=False, target_score=100)
    ann, bob = _player(service, "Ann"), _player(service, "Bob")
    table_id, ann_token = service.create(ann, "Ann", rules, bot_level="random")
    with pytest.raises(TableRefusal, match="no such seat"):
        service.seat_bot(table_id, ann_token, players, "random")
    bob_token = service.join(table_id, 0, bob, "Bob")
    service.start(table_id, ann_token, seed=8)
    drawn = service.view(table_id, bob_token).drawn
    assert drawn is not None and drawn.seat == 0 and len(drawn.players) == players
    # Each player is a side of their own, named as themselves.
    assert [side.name for side in drawn.sides] == list(drawn.players)
    for _ in range(5000):
        if service.view(table_id, None).table.status == "finished":
            break
        views = [service.view(table_id, token) for token in (ann_token, bob_token)]
        mover = next((view for view in views if view.to_act), None)
        if mover is None:
            clock.wait(1)
            service.advance(table_id)
            continue
        assert mover.own is not None
        token = ann_token if mover.seat == CREATOR_SEAT else bob_token
        service.act(table_id, token, mover.own.legal_actions[-1], mover.table.version)
    view = service.view(table_id, ann_token)
    assert view.outcome is not None
    assert len(view.scores) == players and view.table.status == "finished"
    stored = service.store.game_info(view.table.game_id or "")
    assert (stored.status, stored.variant) == ("finished", f"cutthroat{players}")
    assert service.store.load(stored.id).match.scores == view.scores
