"""Who is at this browser: a player kept in the store, found again by a cookie or a sign-in.

A player is made the first time they need one (their first move, or a change to their
table), not on every visit. The store gives a random secret token with it; the browser
keeps the token in a cookie the server sets, ``HttpOnly`` (:mod:`spades.ui.cookies`), and
the store keeps only its hash, so neither a game's link nor a display name lets anyone act
as somebody else. Each new session sets the cookie again, so that it lasts a year from the
browser's last visit.

Signing in is optional, and offered only when Streamlit's authentication is configured
(an ``[auth]`` section in the secrets). A signed-in browser plays as the profile linked to
the account (:func:`spades.app.profiles.sign_in`), on any device; signing out brings back
the profile of this browser's cookie.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import streamlit as st

from spades.app import profiles
from spades.app.cookies import PLAYER_COOKIE, dropped_player_cookie, player_cookie
from spades.app.site import Site
from spades.ui import cookies
from spades.ui.db import app_site

STATE_KEY: Final = "player_identity"


@dataclass(slots=True)
class Identity:
    """The session's player and the signed-in account it plays as."""

    player_id: str | None
    account: str | None = None


def auth_configured() -> bool:
    """Whether signing in is set up (an ``[auth]`` section in Streamlit's secrets)."""
    try:
        return "auth" in st.secrets
    except FileNotFoundError:
        return False


def signed_in_account() -> str | None:
    """The account this browser is signed in to, if signing in is set up and it is."""
    if not auth_configured() or st.user.get("is_logged_in") is not True:
        return None
    return profiles.account_id(st.user.to_dict())


def _identity(site: Site) -> Identity:
    found = st.session_state.get(STATE_KEY)
    account = signed_in_account()
    if isinstance(found, Identity) and found.account == account:
        return found
    if account is not None:
        current = found.player_id if isinstance(found, Identity) else _cookie_player(site)
        arrival = site.sign_in(account, current)
        if arrival.new_token is not None:
            cookies.owe(player_cookie(arrival.new_token))
        found = Identity(arrival.player_id, account)
    else:
        found = Identity(_cookie_player(site))
    st.session_state[STATE_KEY] = found
    return found


def _cookie_player(site: Site) -> str | None:
    """The player of the browser's cookie, if it names one; the browser is then given the
    cookie again (for another year)."""
    token = st.context.cookies.get(PLAYER_COOKIE)
    if not isinstance(token, str):
        return None
    player = site.player_for_token(token)
    if player is not None:
        cookies.owe(player_cookie(token))
    return player


def player_id() -> str | None:
    """The player at this browser, or None when they have not needed one yet."""
    return _identity(app_site()).player_id


def ensure_player(name: str, *, handle: str | None = None) -> str:
    """The player at this browser, made now (named ``name``, with ``handle`` if given)
    if there is none yet."""
    site = app_site()
    identity = _identity(site)
    if identity.player_id is None:
        identity.player_id, token = site.new_player(name, handle=handle)
        cookies.owe(player_cookie(token))
    return identity.player_id


def forget() -> None:
    """Let this browser forget its player (whose data is gone): the session starts over
    as a visitor, and the cookie is dropped."""
    st.session_state.clear()
    st.session_state[STATE_KEY] = Identity(None, account=signed_in_account())
    cookies.owe(dropped_player_cookie())


def remember() -> None:
    """Give the browser the cookies this session owes it: a new player's, the drop of a
    forgotten one, its seats' (:func:`spades.ui.cookies.deliver`)."""
    cookies.deliver()
