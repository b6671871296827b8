"""The page shown when the game store cannot be used: what is wrong, in plain words.

The store raises :class:`~spades.app.errors.StoreUnavailable` with a message written for players
(damaged, read-only, busy, too new) and logs the details on the server; this boundary
shows that message and a way to try again, never a traceback, a path or SQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from spades.app.errors import StoreUnavailable
from spades.ui import safe


@contextmanager
def store_faults() -> Iterator[None]:
    """Run a page (or a part of one) and turn a store fault into the plain fault page."""
    try:
        yield
    except StoreUnavailable as err:
        fault(err)


def fault(err: StoreUnavailable) -> None:
    """The plain fault: what is wrong, and a button to try again."""
    with st.container(key="store_fault"):
        st.error(safe.md(err, limit=400), icon=":material/database:")
        st.button("Try again", key="store_fault_retry", icon=":material/refresh:")
