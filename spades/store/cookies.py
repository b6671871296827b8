"""Single-use codes through which the server sets a browser's cookies, HttpOnly.

A script on the page can set only cookies that scripts may read, and Streamlit sends no
header of the app's own. So a session that owes its browser a cookie asks for a code
(:meth:`CookieCodes.issue`): a random secret, bound to one cookie's name, value and
lifetime, good once and for :data:`CODE_LIFETIME`. The page's script posts the code to the
server's cookie route, which redeems it (:meth:`CookieCodes.redeem`) and answers with the
``Set-Cookie`` header. The codes live in the database, so any server sharing it redeems a
code another one issued.

What a row keeps of a code is its SHA-256 (to find it by) and the cookie's value sealed
under a key drawn from the code (XORed with SHAKE-256 of it, which is safe since a key
seals one value once): the rows alone, or a database fault's log line that names them,
give no usable token. A code is deleted when it is redeemed, and an expired one by the
next code issued.

>>> from spades.store import Store
>>> codes = CookieCodes(Store("sqlite://"))
>>> code, _ = codes.issue(Cookie("spades_player", "s3cret-token", 3600))
>>> codes.waiting(code)
True
>>> codes.redeem(code)
Cookie(name='spades_player', value='s3cret-token', max_age=3600)
>>> codes.redeem(code) is None
True
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

import sqlalchemy as sa

from spades.store.checks import TOKEN_CHARS, token_hash
from spades.store.errors import StoreError
from spades.store.rows import utc_now
from spades.store.schema import COOKIE_NAME_MAX, COOKIE_VALUE_MAX, cookie_codes
from spades.store.store import Store

#: How long a code may wait for its page to hand it back.
CODE_LIFETIME: Final = timedelta(seconds=60)
#: The most seconds a cookie may be kept: browsers cap a cookie's life at 400 days.
MAX_AGE_MAX: Final = 400 * 24 * 3600
#: A code as :func:`secrets.token_urlsafe` makes them (32 random bytes); nothing else is one.
_CODE: Final = re.compile(r"[A-Za-z0-9_-]{43}")
_NAME: Final = re.compile(rf"[A-Za-z0-9_-]{{1,{COOKIE_NAME_MAX}}}")
#: Sets the sealing key apart from the code's hash.
_SEAL: Final = b"spades cookie code seal\x00"


@dataclass(frozen=True, slots=True)
class Cookie:
    """A cookie for a browser: ``value`` kept for ``max_age`` seconds; an empty value with a
    ``max_age`` of 0 drops the cookie."""

    name: str
    value: str
    max_age: int


def _checked(cookie: Cookie) -> Cookie:
    if not isinstance(cookie.name, str) or not _NAME.fullmatch(cookie.name):
        raise StoreError("cookie: a name is letters, digits, - and _")
    value, max_age = cookie.value, cookie.max_age
    if isinstance(max_age, bool) or not isinstance(max_age, int):
        raise StoreError("cookie: its lifetime is a whole number of seconds")
    if not isinstance(value, str) or len(value) > COOKIE_VALUE_MAX or not set(value) <= TOKEN_CHARS:
        raise StoreError("cookie: a value is URL-safe base64, at most 128 characters")
    if not 0 <= max_age <= MAX_AGE_MAX:
        raise StoreError("cookie: a cookie is kept for at most 400 days")
    if (max_age == 0) != (value == ""):
        raise StoreError("cookie: a value is kept for a while, and a drop (lifetime 0) has none")
    return cookie


def _key(code: str, size: int) -> bytes:
    return hashlib.shake_256(_SEAL + code.encode("ascii")).digest(size)


def _seal(code: str, value: str) -> str:
    data = value.encode("ascii")
    return bytes(a ^ b for a, b in zip(data, _key(code, len(data)), strict=True)).hex()


def _unseal(code: str, sealed: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _key(code, len(data)), strict=True)).decode("ascii")


class CookieCodes:
    """The cookie codes of one store (it shares the store's connections). ``now`` is the
    clock the codes expire by (UTC)."""

    def __init__(self, store: Store, *, now: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.now = now

    def issue(self, cookie: Cookie) -> tuple[str, datetime]:
        """A new code for ``cookie``, and when it expires. Hand the code to the browser
        only: it is the one key to the row."""
        checked = _checked(cookie)
        code = secrets.token_urlsafe(32)
        now = self.now()
        expires = now + CODE_LIFETIME
        with self.store._write() as conn:
            conn.execute(cookie_codes.delete().where(cookie_codes.c.expires_at <= now))
            conn.execute(
                cookie_codes.insert().values(
                    code_hash=token_hash(code),
                    name=checked.name,
                    sealed=_seal(code, checked.value),
                    max_age=checked.max_age,
                    expires_at=expires,
                )
            )
        return code, expires

    def waiting(self, code: str) -> bool:
        """Whether ``code`` may still be redeemed: issued, not yet redeemed, not expired."""
        if not isinstance(code, str) or not _CODE.fullmatch(code):
            return False
        with self.store._read() as conn:
            expires = conn.execute(
                sa.select(cookie_codes.c.expires_at).where(
                    cookie_codes.c.code_hash == token_hash(code)
                )
            ).scalar_one_or_none()
        return expires is not None and self.now() < expires

    def redeem(self, code: object) -> Cookie | None:
        """The cookie ``code`` was issued for, once: the code is gone after. None for a
        code that is malformed, unknown, already redeemed or expired."""
        if not isinstance(code, str) or not _CODE.fullmatch(code):
            return None
        with self.store._write() as conn:
            row = conn.execute(
                cookie_codes.delete()
                .where(cookie_codes.c.code_hash == token_hash(code))
                .returning(
                    cookie_codes.c.name,
                    cookie_codes.c.sealed,
                    cookie_codes.c.max_age,
                    cookie_codes.c.expires_at,
                )
            ).one_or_none()
        if row is None or self.now() >= row.expires_at:
            return None
        return Cookie(row.name, _unseal(code, row.sealed), row.max_age)
