"""Signing in: which profile a signed-in account plays as, on any device.

Signing in is optional. A browser that never signs in is its player by a cookie token
(:mod:`spades.ui.identity`). Once it signs in, the account decides: a profile already
linked to the account is used on every device; else the browser's own profile is linked
to it, or a new one when the browser has none (or has one linked to another account).

>>> from spades.store import Store
>>> store = Store("sqlite://")
>>> laptop, _ = store.new_player("Ada")
>>> phone, _ = store.new_player("Ada")
>>> sign_in(store, "https://id.example ada", laptop).player_id == laptop
True
>>> sign_in(store, "https://id.example ada", phone).player_id == laptop
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spades.store import Store, StoreError
from spades.store.profiles import Profiles


@dataclass(frozen=True, slots=True)
class Arrival:
    """The profile a signed-in browser plays as, and the token of one made just now."""

    player_id: str
    new_token: str | None = None


def account_id(claims: Mapping[str, object]) -> str | None:
    """A sign-in's stable account id: the issuer and subject of its identity token, or
    None when the token lacks either.

    >>> account_id({"iss": "https://id.example", "sub": "42", "email": "a@b.c"})
    'https://id.example 42'
    >>> account_id({"email": "a@b.c"}) is None
    True
    """
    issuer, subject = claims.get("iss"), claims.get("sub")
    if not (isinstance(issuer, str) and issuer and isinstance(subject, str) and subject):
        return None
    return f"{issuer} {subject}"


def sign_in(store: Store, account: str, current: str | None, name: str = "You") -> Arrival:
    """The profile ``account`` plays as, linking ``current`` (the browser's own profile,
    if it has one) or a new player named ``name`` when no profile is linked yet."""
    profiles = Profiles(store)
    found = profiles.player_for_account(account)
    if found is not None:
        return Arrival(found)
    player, token = current, None
    if player is None or profiles.profile(player).account is not None:
        player, token = store.new_player(name)
    try:
        profiles.link_account(player, account)
    except StoreError:
        # Another session signed in to this account meanwhile: its profile is the one.
        found = profiles.player_for_account(account)
        if found is None:
            raise
        return Arrival(found)
    return Arrival(player, token)
