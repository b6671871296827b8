"""The Game explorer's view of a cutthroat game: each player's score and bags, one line a
player, and the hand-by-hand scoresheet (:mod:`spades.stats.analytics_cutthroat`).

The charts are built here and drawn by :mod:`spades.ui.analytics_view`, as the
partnership game's are."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from spades.engine.match import Match
from spades.stats import analytics, analytics_cutthroat
from spades.ui import charts


def game_view(
    match: Match, names: Sequence[str]
) -> tuple[charts.AnyChart, charts.AnyChart, pd.DataFrame] | None:
    """A cutthroat game's score and bags charts, its players named ``names``, and its
    scoresheet; None before a hand is over."""
    hand_frame = analytics_cutthroat.game_hands(match)
    if hand_frame.empty:
        return None
    score = charts.score_chart(
        analytics_cutthroat.score_progression(hand_frame, names),
        analytics.rule_lines(match.rules),
        "player",
    )
    bags = charts.bags_chart(
        analytics_cutthroat.bags_progression(hand_frame, names), match.rules.bag_limit, "player"
    )
    return score, bags, analytics_cutthroat.hand_table(hand_frame, names)


def player_sides(match: Match, names: Sequence[str]) -> list[tuple[str, str]]:
    """Each player's name, with their bags so far (and whether they are out) for its help."""
    return [
        (name, f"bags {match.bags[seat]}" + (" · knocked out" if seat in match.out else ""))
        for seat, name in enumerate(names)
    ]
