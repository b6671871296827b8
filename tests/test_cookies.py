"""The seat and player cookies are set by the server, HttpOnly, in its answer to a
single-use code the page posts back: the code sets its cookie once, within a minute, from
a page of the server's own origin only, and the database keeps neither the code nor the
token. Each test of the store runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import datetime, timedelta

import httpx
import pytest
import streamlit as st
from conftest import run_async
from db_helpers import COOKIES_V9, run_sql
from starlette.applications import Starlette
from starlette.routing import BaseRoute

from spades.app.cookies import (
    PLAYER_COOKIE,
    Cookie,
    CookieService,
    CookiesUnavailable,
    Offer,
    dropped_player_cookie,
    player_cookie,
    seat_cookie,
)
from spades.store import SCHEMA_VERSION, Store, StoreError, StoreUnavailable
from spades.store.cookies import CODE_LIFETIME, CookieCodes
from spades.store.rows import utc_now
from spades.ui import cookies, table_news

TOKEN = "Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC10b2tlbg"
TABLE_ID = "T" * 22
#: The origin the test client's requests are sent to.
ORIGIN = "http://testserver"


class Clock:
    """The codes' clock: the real one, moved on by hand."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return utc_now() + self.ahead


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    made = Store(db_url)
    yield made
    made.close()


@pytest.fixture
def codes(store: Store, clock: Clock) -> CookieCodes:
    return CookieCodes(store, now=clock)


# ------------------------------------------------------------------ the store
def test_a_code_sets_its_cookie_once(codes: CookieCodes) -> None:
    code, _ = codes.issue(seat_cookie(TABLE_ID, TOKEN))
    assert codes.waiting(code)
    assert codes.redeem(code) == Cookie(f"spades_seat_{TABLE_ID}", TOKEN, 30 * 24 * 3600)
    assert not codes.waiting(code)
    assert codes.redeem(code) is None, "a code is good once"


def test_an_expired_code_sets_nothing(codes: CookieCodes, clock: Clock) -> None:
    code, expires = codes.issue(player_cookie(TOKEN))
    clock.ahead = expires - utc_now()
    assert not codes.waiting(code)
    assert codes.redeem(code) is None


def test_a_code_is_good_for_a_minute(codes: CookieCodes, clock: Clock) -> None:
    code, expires = codes.issue(player_cookie(TOKEN))
    assert expires - clock() <= CODE_LIFETIME == timedelta(seconds=60)
    clock.ahead = timedelta(seconds=55)
    assert codes.redeem(code) == player_cookie(TOKEN)


def test_the_database_keeps_neither_the_code_nor_the_token(codes: CookieCodes, db_url: str) -> None:
    code, _ = codes.issue(player_cookie(TOKEN))
    [row] = run_sql(db_url, "SELECT * FROM cookie_codes")
    kept = " ".join(str(value) for value in row)
    assert TOKEN not in kept and code not in kept
    assert TOKEN.encode().hex() not in kept, "the value is sealed, not merely written in hex"
    assert hashlib.sha256(code.encode()).hexdigest() in kept
    codes.redeem(code)
    assert run_sql(db_url, "SELECT * FROM cookie_codes") == [], "a redeemed code is deleted"


def test_an_expired_code_is_swept_by_the_next_one(
    codes: CookieCodes, clock: Clock, db_url: str
) -> None:
    codes.issue(player_cookie(TOKEN))
    clock.ahead = CODE_LIFETIME
    fresh, _ = codes.issue(seat_cookie(TABLE_ID, TOKEN))
    assert run_sql(db_url, "SELECT code_hash FROM cookie_codes") == [
        (hashlib.sha256(fresh.encode()).hexdigest(),)
    ]


@pytest.mark.parametrize("code", [None, 43, "", "x" * 42, "x" * 44, "x" * 10_000, "é" * 43])
def test_a_malformed_code_is_refused(codes: CookieCodes, code: object) -> None:
    assert codes.redeem(code) is None


@pytest.mark.parametrize(
    "cookie",
    [
        Cookie("", TOKEN, 60),
        Cookie("a;b", TOKEN, 60),
        Cookie("n" * 65, TOKEN, 60),
        Cookie(PLAYER_COOKIE, "a b", 60),
        Cookie(PLAYER_COOKIE, "a" * 129, 60),
        Cookie(PLAYER_COOKIE, TOKEN, 0),
        Cookie(PLAYER_COOKIE, "", 60),
        Cookie(PLAYER_COOKIE, TOKEN, 401 * 24 * 3600),
        Cookie(PLAYER_COOKIE, TOKEN, -1),
    ],
)
def test_a_cookie_is_checked_before_a_code_is_issued(codes: CookieCodes, cookie: Cookie) -> None:
    with pytest.raises(StoreError):
        codes.issue(cookie)


def test_a_dropped_cookie_has_a_code_too(codes: CookieCodes) -> None:
    code, _ = codes.issue(dropped_player_cookie())
    assert codes.redeem(code) == Cookie(PLAYER_COOKIE, "", 0)


def test_any_server_redeems_a_code_another_issued_and_only_one_of_two_at_once(
    db_url: str,
) -> None:
    """Two stores of one database stand for two servers."""
    one, two = Store(db_url), Store(db_url)
    try:
        code, _ = CookieCodes(one).issue(player_cookie(TOKEN))
        start = threading.Barrier(2)
        got: list[Cookie | None] = []

        def redeem(store: Store) -> None:
            start.wait()
            got.append(CookieCodes(store).redeem(code))

        both = [threading.Thread(target=redeem, args=(s,)) for s in (one, two)]
        for thread in both:
            thread.start()
        for thread in both:
            thread.join()
        assert sorted(got, key=lambda c: c is None) == [player_cookie(TOKEN), None]
    finally:
        one.close()
        two.close()


def test_a_version_9_store_gains_the_cookie_codes(store: Store, db_url: str) -> None:
    store.close()
    for statement in (*COOKIES_V9, "UPDATE schema_version SET version = 9"):
        run_sql(db_url, statement)
    again = Store(db_url)
    try:
        assert run_sql(db_url, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
        code, _ = CookieCodes(again).issue(player_cookie(TOKEN))
        assert CookieCodes(again).redeem(code) == player_cookie(TOKEN)
    finally:
        again.close()


# ------------------------------------------------------------------ the session's offers
def test_a_session_hands_the_page_one_code_until_the_browser_takes_it(
    store: Store, clock: Clock
) -> None:
    service = CookieService(store, now=clock)
    offer = service.due(player_cookie(TOKEN), None)
    assert offer is not None
    assert service.due(player_cookie(TOKEN), offer) == offer
    assert service.redeem(offer.code) == player_cookie(TOKEN)
    assert service.due(player_cookie(TOKEN), offer) is None, "taken: nothing more is owed"


def test_a_code_that_expired_untaken_is_replaced(store: Store, clock: Clock) -> None:
    service = CookieService(store, now=clock)
    offer = service.due(player_cookie(TOKEN), None)
    assert offer is not None
    clock.ahead = CODE_LIFETIME
    again = service.due(player_cookie(TOKEN), offer)
    assert again is not None and again.code != offer.code
    assert service.redeem(offer.code) is None
    assert service.redeem(again.code) == player_cookie(TOKEN)


def test_a_database_that_cannot_be_used_is_told_as_cookies_unavailable(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = CookieService(store)
    offer = service.due(player_cookie(TOKEN), None)
    assert offer is not None

    def busy(self: Store) -> None:
        raise StoreUnavailable("busy")

    monkeypatch.setattr(Store, "_read", busy)
    monkeypatch.setattr(Store, "_write", busy)
    with pytest.raises(CookiesUnavailable):
        service.due(player_cookie(TOKEN), offer)
    with pytest.raises(CookiesUnavailable):
        service.redeem(offer.code)


# ------------------------------------------------------------------ the route
class Client:
    """Requests to the routes, made through httpx as a browser at :data:`ORIGIN` would."""

    def __init__(self, routes: list[BaseRoute]) -> None:
        self.app = Starlette(routes=routes)

    def post(
        self, path: str, *, content: str | bytes | list[bytes], headers: dict[str, str]
    ) -> httpx.Response:
        """POST ``content`` (a list of chunks is sent with no declared length)."""

        async def chunks(parts: list[bytes]) -> AsyncIterator[bytes]:
            for part in parts:
                yield part

        body = chunks(content) if isinstance(content, list) else content
        return run_async(self._send("POST", path, body, headers))

    def get(self, path: str, *, headers: dict[str, str]) -> httpx.Response:
        return run_async(self._send("GET", path, None, headers))

    async def _send(
        self,
        method: str,
        path: str,
        content: str | bytes | AsyncIterator[bytes] | None,
        headers: dict[str, str],
    ) -> httpx.Response:
        transport = httpx.ASGITransport(app=self.app)
        async with httpx.AsyncClient(transport=transport, base_url=ORIGIN) as client:
            request = client.build_request(method, path, content=content, headers=headers)
            return await client.send(request)


@pytest.fixture
def client(app_db: Store) -> Client:
    return Client(cookies.routes())


def _code(store: Store, cookie: Cookie, *, now: datetime | None = None) -> str:
    offer = CookieService(store, now=lambda: now or utc_now()).due(cookie, None)
    assert isinstance(offer, Offer)
    return offer.code


def _post(client: Client, body: str | bytes, **headers: str) -> tuple[int, list[str]]:
    reply = client.post(cookies.PATH, content=body, headers={"Origin": ORIGIN, **headers})
    return reply.status_code, reply.headers.get_list("set-cookie")


def test_the_route_sets_an_httponly_strict_cookie(client: Client, app_db: Store) -> None:
    status, set_cookie = _post(client, _code(app_db, seat_cookie(TABLE_ID, TOKEN)))
    assert status == 204
    [header] = set_cookie
    attributes = {part.strip().split("=")[0].lower() for part in header.split(";")}
    assert header.startswith(f"spades_seat_{TABLE_ID}={TOKEN};")
    assert {"httponly", "samesite", "path", "max-age"} <= attributes
    assert "SameSite=strict" in header and "Path=/;" in header + ";"
    assert f"Max-Age={30 * 24 * 3600}" in header
    assert "secure" not in attributes, "a page over http cannot keep a Secure cookie"


def test_the_route_marks_the_cookie_secure_behind_https(client: Client, app_db: Store) -> None:
    """A proxy in front ends TLS and passes the request on over http, naming the host."""
    status, [header] = _post(
        client,
        _code(app_db, player_cookie(TOKEN)),
        Origin="https://spades.example",
        **{"X-Forwarded-Host": "spades.example", "X-Forwarded-Proto": "https"},
    )
    assert status == 204
    assert "Secure" in header and "HttpOnly" in header


def test_the_route_drops_a_forgotten_player_s_cookie(client: Client, app_db: Store) -> None:
    status, [header] = _post(client, _code(app_db, dropped_player_cookie()))
    assert status == 204
    assert header.startswith(f"{PLAYER_COOKIE}=") and "Max-Age=0" in header


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver.evil.example"},
        {"Origin": "null"},
        {"Origin": ""},
        {"Origin": ORIGIN, "Sec-Fetch-Site": "cross-site"},
        {"Origin": "http://evil.example", "X-Forwarded-Host": "spades.example"},
    ],
)
def test_the_route_refuses_a_foreign_origin_and_the_code_stays_good(
    client: Client, app_db: Store, headers: dict[str, str]
) -> None:
    code = _code(app_db, player_cookie(TOKEN))
    status, set_cookie = _post(client, code, **headers)
    assert (status, set_cookie) == (403, [])
    assert _post(client, code)[0] == 204


def test_the_route_refuses_a_request_with_no_origin(client: Client, app_db: Store) -> None:
    reply = client.post(cookies.PATH, content=_code(app_db, player_cookie(TOKEN)), headers={})
    assert reply.status_code == 403


def test_the_route_refuses_an_unknown_code_without_saying_more(client: Client) -> None:
    for body in ("A" * 43, "not a code", ""):
        reply = client.post(cookies.PATH, content=body, headers={"Origin": ORIGIN})
        assert (reply.status_code, reply.content, reply.headers.get("set-cookie")) == (
            404,
            b"",
            None,
        )


def test_the_route_refuses_a_reused_code(client: Client, app_db: Store) -> None:
    code = _code(app_db, player_cookie(TOKEN))
    assert _post(client, code)[0] == 204
    assert _post(client, code) == (404, [])


def test_the_route_refuses_an_expired_code(client: Client, app_db: Store) -> None:
    """The code was issued by a clock a little over a minute behind the route's."""
    past = utc_now() - CODE_LIFETIME - timedelta(seconds=1)
    assert _post(client, _code(app_db, player_cookie(TOKEN), now=past)) == (404, [])


def test_the_route_refuses_an_oversized_body_unread(client: Client, app_db: Store) -> None:
    code = _code(app_db, player_cookie(TOKEN))
    assert _post(client, code + " " * cookies.BODY_MAX)[0] == 413
    streamed = client.post(cookies.PATH, content=[b"x" * 200] * 50, headers={"Origin": ORIGIN})
    assert streamed.status_code == 413, "a body of no declared length is cut off too"
    assert _post(client, "x", **{"Content-Length": "99999999999"})[0] == 413
    assert _post(client, code)[0] == 204


def test_the_route_answers_posts_only(client: Client) -> None:
    assert client.get(cookies.PATH, headers={"Origin": ORIGIN}).status_code == 405


def test_the_route_answers_503_while_the_database_cannot_be_used(
    client: Client, app_db: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = _code(app_db, player_cookie(TOKEN))

    def busy(self: Store) -> None:
        raise StoreUnavailable("busy")

    monkeypatch.setattr(Store, "_write", busy)
    assert _post(client, code) == (503, [])


def test_the_route_logs_no_code_and_no_token(
    client: Client, app_db: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    code = _code(app_db, player_cookie(TOKEN))
    _post(client, code, Origin="http://evil.example")
    _post(client, code)
    _post(client, code)
    logged = caplog.text
    assert code not in logged and TOKEN not in logged


def test_the_routes_sit_under_the_app_s_base_path(
    app_db: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    option = st.get_option
    monkeypatch.setattr(
        st,
        "get_option",
        lambda key: "/games/" if key == "server.baseUrlPath" else option(key),
    )
    [cookie_route] = cookies.routes()
    [news_route] = table_news.routes()
    assert getattr(cookie_route, "path", None) == "/games/_spades/cookie"
    assert getattr(news_route, "path", None) == "/games/_spades/tables/{table_id}/news"
    client = Client([cookie_route])
    code = _code(app_db, player_cookie(TOKEN))
    assert _post(client, code)[0] == 404, "nothing answers outside the base path"
    reply = client.post("/games/_spades/cookie", content=code, headers={"Origin": ORIGIN})
    assert reply.status_code == 204
