"""A rating as the pages show it: μ ± σ, and its history game by game as a chart.

The history is read from :mod:`spades.stats.leaderboard` through a cache keyed by the store's
revision, which moves on with every game that ends (and so with every rating).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from spades.app.site import Site, person
from spades.stats import leaderboard
from spades.stats.ratings import Rating
from spades.ui import charts, words


@st.cache_data(max_entries=64, show_spinner=False)
def _history(url: str, revision: tuple[int, int, str], subject: str) -> pd.DataFrame:
    """``revision`` only keys the cache: a game that ends gives a new revision."""
    return Site.of(url).read(leaderboard.rating_history, subject)


def history(site: Site, subject: str) -> pd.DataFrame:
    """A subject's rating after each of its rated games (the first row is its start)."""
    return _history(site.url, site.revision(), subject)


def latest(history: pd.DataFrame) -> Rating:
    """The rating a history ends at."""
    return Rating(float(history["mu"].iloc[-1]), float(history["sigma"].iloc[-1]))


def player_history(site: Site, player_id: str) -> pd.DataFrame | None:
    """A player's rating history, or None before any game has rated them."""
    found = history(site, person(player_id))
    return found if len(found) > 1 else None


def show(history: pd.DataFrame, *, key: str) -> None:
    """A rating as μ ± σ, and its chart (``key`` names the chart)."""
    games = len(history) - 1
    st.metric(
        "Rating",
        str(latest(history)),
        help="μ ± σ: the skill believed in, and how unsure that belief still is. "
        f"From {words.count(games, 'rated game')}.",
    )
    charts.show(charts.rating_chart(history), key=key)
