"""The app's game store: ``SPADES_DB_URL``, else Streamlit secrets, else the per-user file."""

from __future__ import annotations

import os

import streamlit as st

from spades.stats.ratings import RATER
from spades.store import Store

SECRET_NAME = "SPADES_DB_URL"


def secret_url() -> str | None:
    """The database URL from Streamlit secrets (``SPADES_DB_URL``), if one is set."""
    try:
        value = st.secrets.get(SECRET_NAME)
    except FileNotFoundError:
        return None
    return str(value) if value else None


def app_store() -> Store:
    """The store every page shares (one per database URL and server process)."""
    return shared_store(None if os.environ.get(SECRET_NAME) else secret_url())


def shared_store(url: str | None) -> Store:
    """The shared store of the database ``url`` (None: the default one), which moves the
    ratings by :mod:`spades.stats.ratings` as games finish."""
    return Store.default(url, rater=RATER)
