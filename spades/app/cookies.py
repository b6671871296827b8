"""The cookies a browser keeps its secrets in, and how the server comes to set them.

Two kinds of cookie hold a bearer token: whoever holds it is the player, or holds the
seat. The store keeps only each token's SHA-256.

- :func:`player_cookie`: the player at this browser (``spades_player``), for a year.
- :func:`seat_cookie`: a seat at a shared table (``spades_seat_<table id>``), for 30 days.

The server sets them, ``HttpOnly`` (no script on the page can read them) and
``SameSite=Strict``, in its answer to a single-use code the page posts back
(:mod:`spades.store.cookies`): a session that owes its browser a cookie asks
:meth:`CookieService.due` for the code to hand the page, and again on each of its runs
until the browser has taken it.

>>> from spades.store import Store
>>> from datetime import datetime
>>> clock = [datetime(2030, 1, 1, 12, 0, 0)]
>>> service = CookieService(Store("sqlite://"), now=lambda: clock[0])
>>> offer = service.due(player_cookie("s3cret-token"), None)
>>> service.due(player_cookie("s3cret-token"), offer) == offer  # not taken yet: the same code
True
>>> service.redeem(offer.code).value
's3cret-token'
>>> service.due(player_cookie("s3cret-token"), offer) is None  # taken: nothing more is owed
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from spades.store import Store, StoreUnavailable
from spades.store.cookies import Cookie, CookieCodes
from spades.store.rows import utc_now

__all__ = [
    "PLAYER_COOKIE",
    "PLAYER_SECONDS",
    "SEAT_COOKIE_PREFIX",
    "SEAT_SECONDS",
    "Cookie",
    "CookieService",
    "CookiesUnavailable",
    "Offer",
    "dropped_player_cookie",
    "player_cookie",
    "seat_cookie",
]

#: The player's cookie, and how long a browser keeps it (a year from the last visit: each
#: new session sets it again).
PLAYER_COOKIE: Final = "spades_player"
PLAYER_SECONDS: Final = 365 * 24 * 3600
#: A seat's cookie is this and the table's id; a browser keeps it for 30 days.
SEAT_COOKIE_PREFIX: Final = "spades_seat_"
SEAT_SECONDS: Final = 30 * 24 * 3600


def player_cookie(token: str) -> Cookie:
    """The cookie that keeps the player whose token this is at the browser."""
    return Cookie(PLAYER_COOKIE, token, PLAYER_SECONDS)


def dropped_player_cookie() -> Cookie:
    """The player's cookie dropped: the browser forgets its player."""
    return Cookie(PLAYER_COOKIE, "", 0)


def seat_cookie(table_id: str, token: str) -> Cookie:
    """The cookie that keeps a seat at the table ``table_id`` (an id of the lobby's form)."""
    return Cookie(SEAT_COOKIE_PREFIX + table_id, token, SEAT_SECONDS)


class CookiesUnavailable(Exception):
    """The database cannot be used just now (the store has logged why): ask again later."""


@dataclass(frozen=True, slots=True)
class Offer:
    """A code the page posts back to have a cookie set, and when it expires."""

    code: str
    expires: datetime


class CookieService:
    """The cookie codes of one store. ``now`` is the clock (UTC, as the store keeps it)."""

    def __init__(self, store: Store, *, now: Callable[[], datetime] = utc_now) -> None:
        self.codes = CookieCodes(store, now=now)
        self.now = now

    def due(self, cookie: Cookie, offer: Offer | None) -> Offer | None:
        """The offer for the page to take ``cookie`` by, given the one it was handed last:
        that one while it waits, None once the browser has taken it, and a new one at
        first or when the last expired untaken.

        A code gone before its time was redeemed. One gone after it may have been: the
        browser is then handed a new code, which at worst sets the same cookie again.
        """
        try:
            if offer is not None:
                if self.codes.waiting(offer.code):
                    return offer
                if self.now() < offer.expires:
                    return None
            return Offer(*self.codes.issue(cookie))
        except StoreUnavailable as err:
            raise CookiesUnavailable from err

    def redeem(self, code: object) -> Cookie | None:
        """The cookie ``code`` was issued for, once; None for any code that is not one to
        redeem now (malformed, unknown, used or expired), without saying which."""
        try:
            return self.codes.redeem(code)
        except StoreUnavailable as err:
            raise CookiesUnavailable from err
