"""Who is at this browser: a player kept in the store, found again by a cookie.

A player is made the first time they need one (their first move, or a change to their
table), not on every visit. The store gives a random secret token with it; the browser
keeps the token in a cookie, and the store keeps only its hash, so neither a game's link
nor a display name lets anyone act as somebody else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import streamlit as st

from spades.store import Store
from spades.ui.db import app_store

COOKIE: Final = "spades_player"
STATE_KEY: Final = "player_identity"
#: A year: the player is remembered on this browser until then.
COOKIE_SECONDS: Final = 365 * 24 * 3600


@dataclass(slots=True)
class Identity:
    """The session's player, and the token the browser must be given, if it is new."""

    player_id: str | None
    new_token: str | None = None


def _identity(store: Store) -> Identity:
    found = st.session_state.get(STATE_KEY)
    if isinstance(found, Identity):
        return found
    token = st.context.cookies.get(COOKIE)
    found = Identity(store.player_for_token(token) if isinstance(token, str) else None)
    st.session_state[STATE_KEY] = found
    return found


def player_id() -> str | None:
    """The player at this browser, or None when they have not needed one yet."""
    return _identity(app_store()).player_id


def ensure_player(name: str) -> str:
    """The player at this browser, made now (named ``name``) if there is none yet."""
    store = app_store()
    identity = _identity(store)
    if identity.player_id is None:
        identity.player_id, identity.new_token = store.new_player(name)
    return identity.player_id


def remember() -> None:
    """Give the browser a new player's token (drawn every run until the session ends, so a
    run cut short by a click cannot lose it)."""
    identity = st.session_state.get(STATE_KEY)
    if not isinstance(identity, Identity) or identity.new_token is None:
        return
    # The token is URL-safe base64: it needs no quoting inside the script's string.
    st.html(
        f"<script>document.cookie = '{COOKIE}={identity.new_token}; path=/; "
        f"max-age={COOKIE_SECONDS}; SameSite=Strict';</script>",
        unsafe_allow_javascript=True,
    )
