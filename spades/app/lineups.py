"""The bot lab's line-ups compared: each N/S win rate with its 95% interval, and what the
matches show in words.

A few matches decide little: five wins in five leave the true win rate anywhere from 57%
to 100%. So every rate comes with the Wilson interval the arena's reports use
(:func:`spades.sim.report.wilson_interval`), and the page says when the matches are too
few to tell the line-ups apart.

>>> from spades.app.lab import LabSpec, run_lab
>>> from spades.engine.rules import Rules
>>> store = Store("sqlite://")
>>> _ = run_lab(store, LabSpec(("basic", "random") * 2, Rules(), matches=5, seed=1))
>>> row = lineups(store, GameFilter()).iloc[0]
>>> int(row["ns_wins"]), int(row["decided"]), row["finding"]
(5, 5, 'N/S win more')
"""

from __future__ import annotations

from typing import Final

import pandas as pd

from spades.sim.report import wilson_interval
from spades.stats import analytics
from spades.store import GameFilter, Store

#: A line-up whose win rate lies, with all of its interval, this close to one half is even.
EVEN_WITHIN: Final = 0.05
TOO_FEW: Final = "too few matches to tell"
#: The columns of :func:`lineups`: each rate beside its interval and finding.
COLUMNS: Final = (
    "matchup",
    "rule_set",
    "games",
    "decided",
    "ns_wins",
    "ns_win_rate",
    "ns_win_low",
    "ns_win_high",
    "finding",
    "mean_ns",
    "mean_ew",
    "mean_hands",
)


def finding(low: float, high: float) -> str:
    """What an N/S win rate whose 95% interval runs from ``low`` to ``high`` shows.

    >>> finding(0.57, 1.0), finding(0.2, 0.45), finding(0.48, 0.52), finding(0.3, 0.9)
    ('N/S win more', 'E/W win more', 'about even', 'too few matches to tell')
    """
    if low > 0.5:
        return "N/S win more"
    if high < 0.5:
        return "E/W win more"
    if high - 0.5 <= EVEN_WITHIN and 0.5 - low <= EVEN_WITHIN:
        return "about even"
    return TOO_FEW


def lineups(store: Store, games: GameFilter) -> pd.DataFrame:
    """The line-ups of :func:`spades.stats.analytics.matchup_results`, each N/S win rate
    with the 95% interval of the decided matches (``ns_win_low`` to ``ns_win_high``) and
    its ``finding``."""
    results = analytics.matchup_results(store, games)
    bounds = [
        wilson_interval(int(wins), int(decided))
        for wins, decided in zip(results["ns_wins"], results["decided"], strict=True)
    ]
    found = results.assign(
        ns_win_low=[low for low, _ in bounds],
        ns_win_high=[high for _, high in bounds],
        finding=[finding(low, high) for low, high in bounds],
    )
    return found[list(COLUMNS)]
