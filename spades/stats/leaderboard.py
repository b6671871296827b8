"""Frames for the Leaderboard: people and bot levels ranked by their conservative rating,
with their record in the games that moved it, and one subject's rating game by game.

A subject's record counts the games that rated it (:mod:`spades.store.ratings`): its
games and wins, and from the hands of those games, at the seats it held, its bid accuracy
(numeric bids made exactly), nil success (nil and blind nil bids that took no trick) and
bags per hand (the bags its team took, or in cutthroat its own). The rating shown is the
current one; the period and the house rules choose which games the record counts and who
is listed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

import pandas as pd

from spades.stats.ratings import Rating, Z
from spades.store import BoardFilter, Store
from spades.store.profiles import LEFT
from spades.store.ratings import BOT
from spades.store.reports import RatingStep, SubjectHands, SubjectRating, SubjectRecord
from spades.store.rows import utc_now

#: The periods the board may cover, in days back from now (None: every game).
PERIODS: Final[dict[str, int | None]] = {"All time": None, "Last 7 days": 7, "Last 30 days": 30}
COLUMNS: Final = (
    "rank",
    "subject",
    "name",
    "kind",
    "rating",
    "mu",
    "sigma",
    "conservative",
    "games",
    "wins",
    "win_rate",
    "bid_accuracy",
    "nil_success",
    "bags_per_hand",
)
_HAND_FIGURES: Final = SubjectHands._fields[1:]


def board_filter(period: str, rule_set: str | None, *, people_only: bool) -> BoardFilter:
    """The board of a period named in :data:`PERIODS`, counted back from now, under
    ``rule_set`` (any when None)."""
    days = PERIODS[period]
    since = None if days is None else utc_now() - timedelta(days=days)
    return BoardFilter(since=since, rule_set=rule_set, people_only=people_only)


def _hand_stats(store: Store, board: BoardFilter) -> pd.DataFrame:
    """Per subject: hands, numeric bids and exact ones, nils and nils made, bags."""
    frame = pd.DataFrame(store.reports.board_hands(board), columns=list(SubjectHands._fields))
    if frame.empty:
        return frame
    frame[list(_HAND_FIGURES)] = frame[list(_HAND_FIGURES)].astype("int64")
    return frame.groupby("subject", as_index=False)[list(_HAND_FIGURES)].sum()


def display_name(subject: str, name: object) -> str:
    """How a subject is named on the board: a person by their display name, a bot by level.

    >>> display_name("bot:expert", None), display_name("person:1", "Ada")
    ('expert bot', 'Ada')
    """
    if subject.startswith(BOT):
        return f"{subject.removeprefix(BOT)} bot"
    return str(name) if isinstance(name, str) else LEFT


def _ratio(part: pd.Series, whole: pd.Series) -> pd.Series:
    return (part / whole.where(whole > 0)).astype("float64")


def leaderboard(store: Store, board: BoardFilter) -> pd.DataFrame:
    """The ranked board, best first (:data:`COLUMNS`); a rate is NaN where nothing counts."""
    records = pd.DataFrame(store.reports.board_records(board), columns=list(SubjectRecord._fields))
    if records.empty:
        return pd.DataFrame(columns=list(COLUMNS))
    rated = store.reports.ratings_of(list(records["subject"]))
    frame = records.merge(pd.DataFrame(rated, columns=list(SubjectRating._fields)), on="subject")
    frame = frame.merge(_hand_stats(store, board), on="subject", how="left")
    frame[["games", "wins"]] = frame[["games", "wins"]].astype("int64")
    frame["conservative"] = frame["mu"] - Z * frame["sigma"]
    frame = frame.sort_values(
        ["conservative", "mu", "subject"], ascending=[False, False, True], ignore_index=True
    )
    frame["rank"] = range(1, len(frame) + 1)
    frame["name"] = [
        display_name(s, n) for s, n in zip(frame["subject"], frame["name"], strict=True)
    ]
    frame["kind"] = ["bot" if s.startswith(BOT) else "person" for s in frame["subject"]]
    frame["rating"] = [str(Rating(m, s)) for m, s in zip(frame["mu"], frame["sigma"], strict=True)]
    frame["win_rate"] = _ratio(frame["wins"], frame["games"])
    frame["bid_accuracy"] = _ratio(frame["exact"], frame["bids"])
    frame["nil_success"] = _ratio(frame["nils_made"], frame["nils"])
    frame["bags_per_hand"] = _ratio(frame["bags"], frame["hands"])
    return frame[list(COLUMNS)]


def rating_history(store: Store, subject: str) -> pd.DataFrame:
    """A subject's rating after each of its rated games (``game`` 0 is where it started),
    with the band ``low``..``high`` of one sigma either side."""
    events = pd.DataFrame(store.reports.rating_steps(subject), columns=list(RatingStep._fields))
    if events.empty:
        return pd.DataFrame(columns=["game", "mu", "sigma", "low", "high", "at", "won"])
    first = events.iloc[0]
    start = pd.DataFrame(
        {"mu": [first["mu_before"]], "sigma": [first["sigma_before"]], "at": [pd.NaT]}
    )
    frame = pd.concat([start, events[["mu", "sigma", "at", "won"]]], ignore_index=True)
    frame["mu"] = frame["mu"].astype("float64")
    frame["sigma"] = frame["sigma"].astype("float64")
    frame.insert(0, "game", range(len(frame)))
    frame["low"] = frame["mu"] - frame["sigma"]
    frame["high"] = frame["mu"] + frame["sigma"]
    return frame[["game", "mu", "sigma", "low", "high", "at", "won"]]
