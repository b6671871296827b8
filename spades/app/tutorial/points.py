"""The points the lessons quote, each asked of the engine's scoring, so that the prose and
the exercises say what the rules say.

>>> from spades.engine.rules import Rules
>>> nil_points(Rules()), nil_points(Rules(), blind=True), trick_points(Rules()), bag_points(Rules())
(100, 200, 10, 1)
"""

from __future__ import annotations

from spades.engine.rules import Rules
from spades.engine.scoring import score_team


def _points(rules: Rules, bid: int, taken: int, *, blind: bool = False) -> int:
    """One player's points for a hand alone, from nothing on the count."""
    return score_team(rules, bids=(bid,), blind=(blind,), tricks=(taken,), bags_before=0).points


def nil_points(rules: Rules, *, blind: bool = False) -> int:
    """What a nil (or a blind nil) made is worth, and a failed one costs."""
    return _points(rules, 0, 0, blind=blind)


def trick_points(rules: Rules) -> int:
    """What each trick bid scores when the bid is made, and costs when it is set."""
    return _points(rules, 1, 1)


def bag_points(rules: Rules) -> int:
    """What each trick taken beyond the bid (a bag) scores."""
    return _points(rules, 1, 2) - trick_points(rules)
