"""Keep every page behind the router in ``streamlit_app.py``."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager


def ensure_router() -> None:
    """Rerun through the router when Streamlit ran a page file on its own.

    With a ``pages/`` folder beside the main script, Streamlit 1.6x serves a deep link
    (say ``/overview``) that is the server's first request the way multipage apps worked
    before ``st.navigation``: it runs the page file alone, so the router's navigation,
    layout and shared settings are missing. ``st.navigation`` clears this mode once the
    router has run; clearing it here and rerunning sends the request through the router.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
