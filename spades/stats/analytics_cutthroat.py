"""pandas frames of cutthroat games for the Explore pages, one player at a time.

Cutthroat keeps its hands by player (the store's ``player_hands``), so its charts draw a
line or a bar for each player where the partnership game's draw one for each team; the
pages never put the two games in one figure. The frames have the partnership game's
shapes with ``player`` in place of ``team`` (:mod:`spades.stats.analytics`), and
:func:`seat_stats` has exactly its shape, so the bid accuracy and nil frames built on it
are the partnership game's own.

My stats are seen from South, as in the partnership game: a player sits South in their
own games, and in one that is not theirs South stands in for them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import pandas as pd
import sqlalchemy as sa

from spades.engine.cards import SOUTH
from spades.engine.match import Match
from spades.stats.analytics import (
    YOU,
    Selection,
    bid_text,
    count_true,
    extreme_hands,
    player_label,
    seat_labels,
    seat_names,
    stats_figures,
)
from spades.store import (
    CUTTHROAT_3,
    PARTNERSHIP,
    SEAT_KEYS,
    GameFilter,
    Store,
    games,
    player_hand_rows,
    player_hands,
)

#: The longest player name a chart shows.
NAME_MAX: Final = 20
# A bid, blind flag and tricks grouped as one number (see seat_stats): tricks and bids run
# to 17 in three-handed cutthroat.
_BLIND: Final = 20
_BID: Final = 2 * _BLIND


def line_names(players: Sequence[str], *, mine: bool) -> tuple[str, ...]:
    """A name for each player of a game, one a line or bar: their own (cut short), "You"
    at South in the viewer's own game, and their seat's beside any name two players share.

    >>> line_names(["Left", "Right", "Ada"], mine=True)
    ('Left', 'Right', 'You')
    >>> line_names(["Bot", "Bot", "Ada", "Bo"], mine=False)
    ('Bot (North)', 'Bot (East)', 'Ada', 'Bo')
    """
    names = [" ".join(str(name).split())[:NAME_MAX] or "?" for name in players]
    if mine:
        names[SOUTH] = "You"
    seats = seat_labels(len(names))
    return tuple(
        f"{name} ({seats[seat]})" if names.count(name) > 1 else name
        for seat, name in enumerate(names)
    )


# ----------------------------------------------------------------------- one game
def game_hands(match: Match) -> pd.DataFrame:
    """The finished hands of a cutthroat match, one row a player a hand, in the store's
    ``player_hands`` columns."""
    frame = pd.DataFrame(player_hand_rows(match))
    if frame.empty:
        return pd.DataFrame(columns=[c.name for c in player_hands.c if c.name != "game"])
    return frame


def score_progression(hand_frame: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """Long frame (hand, player, score): each player's running score, from 0 before hand
    1, to the last hand they played (a player knocked out stops there)."""
    start = pd.DataFrame({"hand_no": 0, "seat": range(len(names)), "score": 0})
    long = pd.concat([start, hand_frame[["hand_no", "seat", "score"]]], ignore_index=True)
    long["player"] = long.pop("seat").map(dict(enumerate(names)))
    return long.rename(columns={"hand_no": "hand"})[["hand", "player", "score"]]


def bags_progression(hand_frame: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """Long frame (hand, player, bags, penalty, added): each player's bags on the count
    after each hand they played."""
    frame = hand_frame[["hand_no", "seat", "bags_after", "penalty", "bags"]].set_axis(
        ["hand", "seat", "bags", "penalty", "added"], axis=1
    )
    frame["player"] = frame.pop("seat").map(dict(enumerate(names)))
    return frame.reset_index(drop=True)


def hand_table(hand_frame: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    """A readable hand-by-hand scoresheet: each player's bid / tricks, points and score."""
    if hand_frame.empty:
        return pd.DataFrame(columns=["hand", "dealer"])
    frame = hand_frame.assign(
        name=hand_frame["seat"].map(dict(enumerate(names))),
        bid_tricks=bid_text(hand_frame["bid"], hand_frame["blind"])
        + " / "
        + hand_frame["tricks"].astype(str),
        why=hand_frame["breakdown"].map(_breakdown_text),
    )
    wide = frame.pivot(index="hand_no", columns="name")
    table = pd.DataFrame({"hand": wide.index})
    dealers = frame[frame["dealt"].astype(bool)].set_index("hand_no")["name"]
    table["dealer"] = table["hand"].map(dealers).fillna("")
    for name in names:
        if name not in wide["bid_tricks"]:
            continue
        table[name] = wide["bid_tricks"][name].fillna("out").to_numpy()
        table[f"{name} points"] = wide["points"][name].astype("Int64").reset_index(drop=True)
        table[f"{name} score"] = wide["score"][name].astype("Int64").reset_index(drop=True)
    why = [(name + ": " + wide["why"][name]).fillna("") for name in names if name in wide["why"]]
    table["why"] = (
        pd.concat(why, axis=1)
        .agg(lambda parts: " | ".join(p for p in parts if p), axis=1)
        .to_numpy()
    )
    return table


def _breakdown_text(text: str) -> str:
    return "; ".join(f"{line['text']} ({line['points']:+d})" for line in json.loads(text)) or "—"


# ------------------------------------------------------------------- bid accuracy
def seat_stats(store: Store, game_filter: GameFilter) -> pd.DataFrame:
    """How often each (seat, player, bid, blind, tricks taken) occurred in cutthroat games,
    in one query, in :func:`spades.stats.analytics.seat_stats`'s columns (its seats named as
    the variant names them)."""
    p, g = player_hands.c, games.c
    code = (p.bid * _BID + sa.cast(p.blind, sa.Integer) * _BLIND + p.tricks).label("code")
    parts = []
    for seat, key in enumerate(SEAT_KEYS):
        level = g[f"level_{key}"]
        parts.append(
            sa.select(
                sa.literal(seat).label("seat"),
                (g.variant == CUTTHROAT_3).label("three"),
                level.label("level"),
                code,
                sa.func.count().label("n"),
            )
            .join_from(player_hands, games, p.game == g.num)
            .where(game_filter.clause(), g.variant != PARTNERSHIP, p.seat == seat)
            .group_by(g.variant, level, code)
        )
    frame = store.frame(sa.union_all(*parts))
    if frame.empty:
        return pd.DataFrame(columns=["seat", "player", "bid", "blind", "taken", "n"])
    bid, rest = np.divmod(frame.pop("code").to_numpy(dtype=np.int64), _BID)
    blind, taken = np.divmod(rest, _BLIND)
    return pd.DataFrame(
        {
            "seat": seat_names(frame["seat"], frame["three"]),
            "player": player_label(frame["level"]),
            "bid": bid,
            "blind": blind.astype(bool),
            "taken": taken,
            "n": frame["n"],
        }
    )


# ------------------------------------------------------------------------ my stats
def _mine(selection: Selection) -> sa.Select[Any]:
    """The player's own hands (South's) of the selected cutthroat games."""
    p, g = player_hands.c, games.c
    return (
        sa.select()
        .join_from(player_hands, games, p.game == g.num)
        .where(selection.clause(), g.variant != PARTNERSHIP, p.seat == SOUTH)
    )


def my_stats(store: Store, selection: Selection) -> dict[str, float | int | None]:
    """:func:`spades.stats.analytics.my_stats`'s figures for cutthroat, South's alone: games
    won and lost, points a hand (yours, and the others' on average), your set rate,
    nils and bags a game, and your mean place."""
    p, g = player_hands.c, games.c
    with store.engine.connect() as conn:
        played, wins, decided, places = conn.execute(
            sa.select(
                sa.func.count(),
                count_true(g.winner == SOUTH),
                sa.func.count(g.winner),
                sa.func.avg(g.place_s),
            ).where(selection.clause(), g.variant != PARTNERSHIP)
        ).one()
        mine = conn.execute(
            _mine(selection).add_columns(
                sa.func.count(),
                sa.func.count(sa.distinct(p.game)),
                sa.func.avg(p.points),
                count_true(p.made.is_(False)),
                sa.func.count(p.made),
                count_true(p.bid == 0),
                count_true(sa.and_(p.bid == 0, p.tricks == 0)),
                sa.func.coalesce(sa.func.sum(p.bags), 0),
            )
        ).one()
        others = conn.execute(
            sa.select(sa.func.avg(p.points))
            .join_from(player_hands, games, p.game == g.num)
            .where(selection.clause(), g.variant != PARTNERSHIP, p.seat != SOUTH)
        ).scalar_one()
    hands, scored_games, points, *rest = mine
    figures = stats_figures((played, wins, decided), (hands, scored_games, points, others, *rest))
    return figures | {"mean_place": float(places) if places is not None else None}


def best_and_worst_hands(store: Store, selection: Selection, *, count: int = 3) -> pd.DataFrame:
    """The ``count`` hands in which you scored most and the ``count`` in which you scored
    least, best first, with your bid and tricks."""
    p, g = player_hands.c, games.c
    base = _mine(selection).add_columns(
        p.points,
        g.started_at,
        g.id.label("game"),
        p.hand_no.label("hand"),
        p.bid,
        p.blind,
        p.tricks,
    )
    found = extreme_hands(store, base, p.points, p.hand_no, count)
    columns = ["points", "day", "game", "hand", YOU]
    if found.empty:
        return pd.DataFrame(columns=columns)
    found[YOU] = bid_text(found["bid"], found["blind"]) + " / " + found["tricks"].astype(str)
    return found[columns]
