"""The app's game store: ``SPADES_DB_URL``, else Streamlit secrets, else the per-user file."""

from __future__ import annotations

import os

import streamlit as st

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
    if os.environ.get(SECRET_NAME):
        return Store.default()
    return Store.default(secret_url())
