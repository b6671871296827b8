"""The app's site (:class:`spades.app.site.Site`): the database of ``SPADES_DB_URL``, else
of Streamlit secrets, else the per-user file."""

from __future__ import annotations

import os

import streamlit as st

from spades.app.site import Site

SECRET_NAME = "SPADES_DB_URL"


def secret_url() -> str | None:
    """The database URL from Streamlit secrets (``SPADES_DB_URL``), if one is set."""
    try:
        value = st.secrets.get(SECRET_NAME)
    except FileNotFoundError:
        return None
    return str(value) if value else None


def app_site() -> Site:
    """The site every page shares (one store per database URL and server process)."""
    return Site.of(None if os.environ.get(SECRET_NAME) else secret_url())
