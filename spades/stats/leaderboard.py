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

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import pandas as pd
import sqlalchemy as sa

from spades.engine.cards import team_of
from spades.stats.ratings import Rating, Z
from spades.store import SEAT_KEYS, TEAM_KEYS, Store, games, hands, players
from spades.store.profiles import LEFT
from spades.store.ratings import BOT, PERSON
from spades.store.rows import utc_now
from spades.store.schema import player_hands, rating_events, ratings

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


@dataclass(frozen=True, slots=True)
class BoardFilter:
    """Which rated games the board counts: since when, under which rule set (the
    ``games.rule_set`` label), and whether bot levels are listed."""

    since: datetime | None = None
    rule_set: str | None = None
    people_only: bool = False

    @classmethod
    def of(cls, period: str, rule_set: str | None, *, people_only: bool) -> BoardFilter:
        """The filter for a period named in :data:`PERIODS`, counted back from now."""
        days = PERIODS[period]
        since = None if days is None else utc_now() - timedelta(days=days)
        return cls(since=since, rule_set=rule_set, people_only=people_only)

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on ``rating_events`` joined with ``games``."""
        parts: list[sa.ColumnElement[bool]] = []
        if self.since is not None:
            parts.append(rating_events.c.at >= self.since)
        if self.rule_set is not None:
            parts.append(games.c.rule_set == self.rule_set)
        if self.people_only:
            parts.append(rating_events.c.subject.startswith(PERSON, autoescape=True))
        return sa.and_(sa.true(), *parts)


def _rated(*columns: sa.ColumnElement[Any]) -> sa.Select[Any]:
    """A query of the rated games (an event joined with its game)."""
    return sa.select(*columns).join_from(rating_events, games, games.c.num == rating_events.c.game)


def _count(*conditions: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    return sa.func.sum(sa.case((sa.and_(*conditions), 1), else_=0))


def _records(store: Store, board: BoardFilter) -> pd.DataFrame:
    e = rating_events.c
    return store.frame(
        _rated(e.subject, sa.func.count().label("games"), _count(e.won).label("wins"))
        .where(board.clause())
        .group_by(e.subject)
    )


def _hand_stats(store: Store, board: BoardFilter) -> pd.DataFrame:
    """Per subject: hands, numeric bids and exact ones, nils and nils made, bags."""
    e, h, p = rating_events.c, hands.c, player_hands.c
    parts = [
        _seat_stats(h[f"bid_{key}"], h[f"tricks_{key}"], h[f"bags_{TEAM_KEYS[team_of(seat)]}"])
        .join(hands, h.game == e.game)
        .where(board.clause(), e.seats.bitwise_and(1 << seat) != 0)
        .group_by(e.subject)
        for seat, key in enumerate(SEAT_KEYS)
    ]
    # Cutthroat's hands, at every seat the subject held (there is one, or it was not rated).
    parts.append(
        _seat_stats(p.bid, p.tricks, p.bags)
        .join(player_hands, p.game == e.game)
        .where(board.clause(), e.seats.bitwise_rshift(p.seat).bitwise_and(1) != 0)
        .group_by(e.subject)
    )
    frame = store.frame(sa.union_all(*parts))
    numbers = ["hands", "bids", "exact", "nils", "nils_made", "bags"]
    if frame.empty:
        return pd.DataFrame(columns=["subject", *numbers])
    frame[numbers] = frame[numbers].astype("int64")
    return frame.groupby("subject", as_index=False)[numbers].sum()


def _seat_stats(
    bid: sa.ColumnElement[Any], tricks: sa.ColumnElement[Any], bags: sa.ColumnElement[Any]
) -> sa.Select[Any]:
    """The hand figures of a seat's ``bid``, ``tricks`` and ``bags``, summed by subject."""
    return _rated(
        rating_events.c.subject,
        sa.func.count().label("hands"),
        _count(bid > 0).label("bids"),
        _count(bid > 0, tricks == bid).label("exact"),
        _count(bid == 0).label("nils"),
        _count(bid == 0, tricks == 0).label("nils_made"),
        sa.func.sum(bags).label("bags"),
    )


def _ratings(store: Store, subjects: list[str]) -> pd.DataFrame:
    r = ratings.c
    player = sa.and_(
        r.subject.startswith(PERSON, autoescape=True),
        players.c.id == sa.func.substr(r.subject, len(PERSON) + 1),
    )
    return store.frame(
        sa.select(r.subject, r.mu, r.sigma, players.c.name)
        .outerjoin(players, player)
        .where(r.subject.in_(subjects))
    )


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
    records = _records(store, board)
    if records.empty:
        return pd.DataFrame(columns=list(COLUMNS))
    frame = records.merge(_ratings(store, list(records["subject"])), on="subject")
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
    e = rating_events.c
    events = store.frame(
        sa.select(e.mu_before, e.sigma_before, e.mu, e.sigma, e.at, e.won)
        .where(e.subject == subject)
        .order_by(e.at, e.game)
    )
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
