"""The codes that set the seat and player cookies: a code sets its cookie once, within a
minute, and the database keeps neither the code nor the token. Each test runs on SQLite
and on PostgreSQL."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from db_helpers import COOKIES_V9, run_sql

from spades.app.cookies import (
    PLAYER_COOKIE,
    Cookie,
    CookieService,
    CookiesUnavailable,
    dropped_player_cookie,
    player_cookie,
    seat_cookie,
)
from spades.store import SCHEMA_VERSION, Store, StoreError, StoreUnavailable
from spades.store.cookies import CODE_LIFETIME, CookieCodes
from spades.store.rows import utc_now

TOKEN = "Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC10b2tlbg"
TABLE_ID = "T" * 22


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
