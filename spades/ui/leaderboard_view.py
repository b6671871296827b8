"""The Leaderboard page: people and bot levels ranked by their conservative rating, the
player's own row marked, and one subject's rating game by game.

The board is read from :mod:`spades.stats.leaderboard` through a cache keyed by the store's
revision, which moves on with every game that ends (and so with every rating).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import pandas as pd
import streamlit as st

from spades.app.site import Site, person, rule_set_label
from spades.engine.rules import PRESETS
from spades.stats import leaderboard
from spades.stats.leaderboard import PERIODS
from spades.ui import charts, identity, rating_view, safe, words
from spades.ui.analytics_view import SHARE
from spades.ui.db import app_site

ANY_RULES: Final = "Any rules"
#: The house-rules choices: any, or one preset (its games' rule-set label).
RULES: Final = {ANY_RULES: None, **{p.name: rule_set_label(p.rules) for p in PRESETS}}
EMPTY: Final = (
    "No rated games yet: finish a match on the Play page or at a table and everyone in it "
    "is ranked here. The Bot lab's simulations and imported games are never rated."
)
EMPTY_FILTERED: Final = "No rated games match these filters. Choose a longer period or any rules."
YOU: Final = "You"
#: The background of the player's own row.
OWN_ROW: Final = "background-color: rgba(250, 200, 60, 0.3); font-weight: bold"
# The board's columns as the page shows them, with what each means.
_SHOWN: Final = {
    "you": ("", "Your own row."),
    "rank": ("Rank", "By the conservative rating, μ − 3σ."),
    "name": ("Name", "A person's display name, or a bot level."),
    "rating": ("Rating", "μ ± σ: the skill believed in, and how unsure that belief still is."),
    "conservative": ("μ − 3σ", "A skill almost surely below the true one: what ranks."),
    "games": ("Games", "Rated games in the period."),
    "win_rate": ("Win rate", "Share of those games won."),
    "bid_accuracy": ("Bid accuracy", "Numeric bids that took exactly the tricks bid."),
    "nil_success": ("Nil success", "Nil and blind nil bids that took no trick."),
    "bags_per_hand": ("Bags per hand", "Bags the subject's team took, per hand played."),
}
_FORMATS: Final[dict[Any, str | Callable[[object], str] | None]] = {
    "μ − 3σ": "{:.1f}",
    "Win rate": SHARE,
    "Bid accuracy": SHARE,
    "Bags per hand": "{:.2f}",
}
#: Streamlit draws a table's toolbar (search, download, full screen) over what stands
#: just above the table: the board keeps room for it below the filters.
ROOM_FOR_THE_TOOLBAR: Final = "<style>.st-key-board { padding-top: 2.25rem; }</style>"
#: The nil success of a subject who bid no nil in the games counted.
NO_NILS: Final = "no nils yet"


@st.cache_data(max_entries=64, ttl=600, show_spinner=False)
def _board(
    url: str, revision: tuple[int, int, str], period: str, rules: str, people_only: bool
) -> pd.DataFrame:
    """``revision`` only keys the cache: a game that ends gives a new revision."""
    board = leaderboard.board_filter(period, RULES[rules], people_only=people_only)
    return Site.of(url).read(leaderboard.leaderboard, board)


def _filters() -> tuple[str, str, bool]:
    period_col, rules_col, people_col = st.columns([2, 2, 1], vertical_alignment="bottom")
    period = period_col.radio("Period", list(PERIODS), horizontal=True, key="board_period")
    rules = rules_col.selectbox(
        "House rules",
        list(RULES),
        key="board_rules",
        help="Count only the games played under one preset of house rules.",
    )
    people = people_col.toggle("People only", key="board_people", help="Leave the bots out.")
    return str(period or next(iter(PERIODS))), str(rules or ANY_RULES), bool(people)


def _shown_board(board: pd.DataFrame, mine: str | None) -> pd.DataFrame:
    """The board's columns as the page shows them, the player's own row marked."""
    frame = board.assign(
        you=[YOU if s == mine else "" for s in board["subject"]],
        nil_success=[
            NO_NILS if pd.isna(rate) else SHARE.format(rate) for rate in board["nil_success"]
        ],
    )
    return frame[list(_SHOWN)].rename(columns={k: label for k, (label, _) in _SHOWN.items()})


def _own_row(row: pd.Series) -> list[str]:
    return [OWN_ROW if row.iloc[0] == YOU else ""] * len(row)


def _table(board: pd.DataFrame, mine: str | None) -> None:
    shown = _shown_board(board, mine)
    styled: Any = shown.style.apply(_own_row, axis=1).format(_FORMATS, na_rep="—")
    config = {
        label: st.column_config.Column(label or " ", help=help_text)
        for label, help_text in _SHOWN.values()
    }
    st.html(ROOM_FOR_THE_TOOLBAR)
    with st.container(key="board"):
        st.dataframe(
            styled, hide_index=True, width="stretch", key="board_table", column_config=config
        )


def _history_of(site: Site, board: pd.DataFrame, mine: str | None) -> None:
    subjects = list(board["subject"])
    names = dict(zip(subjects, board["name"], strict=True))
    picked = st.selectbox(
        "Rating history of",
        subjects,
        index=subjects.index(mine) if mine in subjects else 0,
        format_func=lambda subject: safe.bounded(names[subject]),
        key="board_subject",
    )
    if picked is None:
        return
    history = rating_view.history(site, picked)
    st.markdown(
        f"**{safe.md(names[picked])}**: {words.count(len(history) - 1, 'rated game')}, "
        f"now {rating_view.latest(history)}"
    )
    charts.show(charts.rating_chart(history), key="board_history_chart")


def leaderboard_page() -> None:
    """Ranked people and bot levels, with filters, and one subject's rating history."""
    site = app_site()
    st.title("Leaderboard")
    st.caption(
        "Ranked by μ − 3σ, a skill almost surely below the true one, so a few lucky games "
        "do not top the board. Every finished match played here by people rates everyone "
        "at the table, except a bot level on both teams (it played itself). The period and "
        "rules pick the games the other columns count and who is listed."
    )
    period, rules, people_only = _filters()
    revision = site.revision()
    board = _board(site.url, revision, period, rules, people_only)
    if board.empty:
        everything = _board(site.url, revision, next(iter(PERIODS)), ANY_RULES, False)
        st.info(EMPTY if everything.empty else EMPTY_FILTERED, icon=":material/leaderboard:")
        return
    player = identity.player_id()
    mine = None if player is None else person(player)
    _table(board, mine)
    _history_of(site, board, mine)
