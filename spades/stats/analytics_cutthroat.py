"""pandas frames of cutthroat games for the Explore pages, one player at a time.

Cutthroat keeps its hands by player (the store's ``player_hands``), so its charts draw a
line or a bar for each player where the partnership game's draw one for each team; the
pages never put the two games in one figure. The frames have the partnership game's
shapes with ``player`` in place of ``team`` (:mod:`spades.stats.analytics`), whose reports
of many games (My stats, bid accuracy) cover cutthroat's too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

import pandas as pd

from spades.engine.cards import SOUTH
from spades.engine.match import Match
from spades.stats.analytics import bid_text, seat_labels
from spades.store import PLAYER_HAND_COLUMNS, player_hand_rows

#: The longest player name a chart shows.
NAME_MAX: Final = 20


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
        return pd.DataFrame(columns=list(PLAYER_HAND_COLUMNS))
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
