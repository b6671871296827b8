"""The tables' news: a move is announced to whoever follows the table as soon as it is
stored, through the server that made it and, on PostgreSQL, through every server sharing
the database; the route streams it to the table's pages, bounded, and ends with the server.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any, cast

import pytest
from conftest import run_async
from starlette.requests import Request
from starlette.responses import StreamingResponse

from spades.app.tables import TableRefusal, TableService, public_move
from spades.engine.cards import card_str
from spades.engine.rules import Rules
from spades.store import Store
from spades.ui import table_news

RULES = Rules(target_score=100, mercy_score=None)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    made = Store(db_url)
    yield made
    made.close()


def _table(service: TableService) -> tuple[str, str]:
    """A table Ann made; its id and Ann's token."""
    ann = service.store.new_player("Ann")[0]
    return service.create(ann, "Ann", RULES, bot_level="random")


def _join(service: TableService, table_id: str) -> None:
    bob = service.store.new_player("Bob")[0]
    service.join(table_id, 0, bob, "Bob")


def test_a_change_to_a_table_is_told_with_its_new_version(store: Store) -> None:
    service = TableService(store)
    table_id, _ = _table(service)
    other_id, _ = _table(service)
    heard: list[int] = []
    now, stop = service.follow(table_id, heard.append)
    assert now == 0
    _join(service, other_id)  # another table's news is not this table's
    _join(service, table_id)
    assert heard == [service.version(table_id)] == [1]
    stop()
    service.tables.stand_in(table_id, 2, True)
    assert heard == [1], "nothing is heard once the page stops following"


def test_a_refused_change_tells_nothing(store: Store) -> None:
    service = TableService(store)
    table_id, _ = _table(service)
    heard: list[int] = []
    service.follow(table_id, heard.append)
    with pytest.raises(TableRefusal):
        service.join(table_id, 2, service.store.new_player("Cy")[0], "Cy")  # Ann's seat
    assert heard == []


def test_a_listener_that_fails_does_not_keep_the_news_from_the_others(store: Store) -> None:
    service = TableService(store)
    table_id, _ = _table(service)
    heard: list[int] = []

    def broken(version: int) -> None:
        raise RuntimeError("a page went away")

    service.follow(table_id, broken)
    service.follow(table_id, heard.append)
    _join(service, table_id)
    assert heard == [1]


def test_following_a_table_that_does_not_exist_is_refused(store: Store) -> None:
    with pytest.raises(TableRefusal):
        TableService(store).follow("A" * 22, print)


def test_a_move_through_another_server_is_heard_through_the_database(db_url: str) -> None:
    """Two stores of one database stand for two servers: on PostgreSQL, the news of a move
    stored through one reaches the other; SQLite is one server's file store."""
    if not db_url.startswith("postgresql"):
        pytest.skip("the news crosses servers on PostgreSQL")
    one, two = Store(db_url), Store(db_url)
    try:
        table_id, _ = _table(TableService(one))
        heard = threading.Event()
        versions: list[int] = []

        def note(version: int) -> None:
            versions.append(version)
            heard.set()

        TableService(two).follow(table_id, note)
        # The other server listens from its first follower on; a change stored before its
        # LISTEN is in place would be missed, so change the table until one is heard.
        for turn in range(20):
            one_tables = TableService(one).tables
            one_tables.stand_in(table_id, 2, turn % 2 == 0)
            if heard.wait(1.0):
                break
        assert versions and versions[-1] == TableService(one).version(table_id)
    finally:
        one.close()
        two.close()


# ----------------------------------------------------------------- the route
def _request(table_id: str) -> Request:
    scope = {"type": "http", "method": "GET", "path": "/", "headers": []}
    return Request(scope | {"path_params": {"table_id": table_id}})


def _events(response: Any) -> AsyncIterator[str]:
    """The stream's events (comments and retry hints left out)."""
    body = cast(StreamingResponse, response).body_iterator

    async def events() -> AsyncIterator[str]:
        async for chunk in body:
            text = chunk if isinstance(chunk, str) else bytes(chunk).decode()
            if text.startswith("data: "):
                yield text.removeprefix("data: ").strip()

    return events()


def test_the_route_streams_the_table_s_versions(app_db: Store) -> None:
    service = TableService(app_db)
    table_id, _ = _table(service)

    async def scenario() -> list[str]:
        events = _events(await table_news.news(_request(table_id)))
        first = await anext(events)
        await asyncio.to_thread(_join, service, table_id)
        second = await asyncio.wait_for(anext(events), 10)
        await events.aclose()
        return [first, second]

    assert run_async(scenario()) == ["0", "1"]
    assert table_news._open.total() == 0, "a closed stream stops following the table"


def _next_move(service: TableService, table_id: str) -> tuple[int, int]:
    """Store the next move at the table, whoever is to make it (the first legal one), as
    the service stores a move; the seat and the action."""
    info = service.tables.info(table_id)
    match = service.store.load(info.game_id or "").match
    seat, action = match.current_player, match.legal_actions()[0]
    assert seat is not None
    public = public_move(match.rules, seat, action)
    service.tables.act(table_id, seat, action, after=match.history, person=False, public=public)
    return seat, action


def test_the_route_tells_a_card_played_with_its_version_and_never_a_bid(app_db: Store) -> None:
    # A card played is public the moment it lies on the table: the news carries it, so
    # that the other pages draw it at once. A bid is told as a version alone, and so is
    # any move that is not a card played (a card passed to a partner stays hidden).
    service = TableService(app_db)
    table_id, ann_token = _table(service)
    _join(service, table_id)
    service.start(table_id, ann_token, seed=5)

    async def scenario() -> tuple[list[str], list[str]]:
        events = _events(await table_news.news(_request(table_id)))
        await anext(events)
        said = []
        for _ in range(5):  # four bids, then the opening lead
            seat, action = await asyncio.to_thread(_next_move, service, table_id)
            said.append(await asyncio.wait_for(anext(events), 10))
        await events.aclose()
        return said, [str(seat), card_str(action)]

    said, (seat, code) = run_async(scenario())
    first = service.version(table_id) - 4
    assert said[:4] == [str(first + n) for n in range(4)]
    assert said[4] == f"{first + 4} {seat}:card:{code}"


@pytest.mark.parametrize("table_id", ["../etc", "x" * 300, "A" * 22])
def test_the_route_knows_no_other_table(app_db: Store, table_id: str) -> None:
    response = run_async(table_news.news(_request(table_id)))
    assert response.status_code == 404
    assert table_news._open.total() == 0, "a refused stream holds no place"


def test_the_route_bounds_the_streams_of_a_table(
    app_db: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_news, "PER_TABLE", 1)
    table_id, _ = _table(TableService(app_db))

    async def scenario() -> tuple[int, int]:
        first = await table_news.news(_request(table_id))
        events = _events(first)
        await anext(events)
        second = await table_news.news(_request(table_id))
        await events.aclose()
        return first.status_code, second.status_code

    assert run_async(scenario()) == (200, 503)


def test_every_stream_ends_when_the_server_stops(
    app_db: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_news, "_stopping", threading.Event())
    table_id, _ = _table(TableService(app_db))

    async def scenario() -> list[str]:
        events = _events(await table_news.news(_request(table_id)))
        seen = [await anext(events)]
        table_news._stopping.set()
        seen += [event async for event in events]
        return seen

    assert run_async(asyncio.wait_for(scenario(), 10)) == ["0"]
