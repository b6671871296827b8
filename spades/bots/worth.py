"""What a finished hand is worth to the seat a search bot plays for: the engine's scoring
of every side, bags at their expected cost, and the match ending.

In the partnership game a hand is worth the observing team's points minus the other
team's. In cutthroat it is the observing player's points minus the mean of the other
players in the hand (the edge over the table that a duplicate arena measures), and a hand that ends
the match counts as a win or a loss: so a rival about to reach the target is worth
setting whatever it costs. A bag is charged its share of the bag penalty, or at a table
of four (:func:`match_bag_costs`) the penalties it is expected to add before the match ends.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import add
from typing import Final

from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.scoring import match_outcome, score_team

# A decided match outweighs any single hand's points.
MATCH_BONUS: Final = 400.0
# Four-handed cutthroat: the points the leader scores in a hand and the bags a player
# takes in a hand, on average (standard and expert bots, 300 duplicate deals), which tell
# how many bags a player still gathers before the match ends.
_FOUR_LEADER_POINTS: Final = 45.0
_FOUR_BAGS_PER_HAND: Final = 0.5

#: The worth of a finished hand, from the tricks each seat took.
HandValue = Callable[[Sequence[int]], float]


def team_econ(
    rules: Rules,
    bids: tuple[int, ...],
    blind: tuple[bool, ...],
    tricks: tuple[int, ...],
    bags_before: int,
    bag_costs: Sequence[float] | None = None,
) -> tuple[int, float]:
    """A side's hand points, and their worth once its bags are charged ``bag_costs[n]``
    for ``n`` bags, by default each bag its share of the bag penalty (so a bag costs the
    same whether or not it crosses the limit).

    >>> from spades.engine.rules import Rules
    >>> team_econ(Rules(), (4,), (False,), (6,), 0)
    (42, 22.0)
    """
    result = score_team(rules, bids=bids, blind=blind, tricks=tricks, bags_before=bags_before)
    if bag_costs is not None:
        charge = bag_costs[result.bags]
    else:
        charge = result.bags * (rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0)
    return result.points, result.points + result.penalty - charge


def match_bag_costs(rules: Rules, bags: int, scores: Sequence[int]) -> tuple[float, ...] | None:
    """At a four-handed cutthroat table, what ``n`` more bags (index ``n``) are expected
    to cost a player whose count is ``bags``: the bag penalties they add before the match
    ends, the bags still to come being Poisson, about half a bag a hand over the hands the
    leader needs to reach the target. Early in a match, far from the limit, a bag costs
    little more than the point it scores. None elsewhere (each bag its share of the
    penalty).

    >>> from spades.engine.rules import Rules
    >>> four = Rules(players=4, partnerships=False)
    >>> [round(c, 1) for c in match_bag_costs(four, 0, (0, 0, 0, 0))[:3]]
    [0.0, 3.8, 10.5]
    >>> [round(c, 1) for c in match_bag_costs(four, 9, (460, 0, 0, 0))[:3]]
    [0.0, 100.0, 100.0]
    """
    limit = rules.bag_limit
    if rules.partnerships or rules.players != 4 or not limit:
        return None
    hands = max(1.0, (rules.target_score - max(scores)) / _FOUR_LEADER_POINTS)
    mean = _FOUR_BAGS_PER_HAND * (hands - 1)
    # The chance of each number of later bags, as far as it matters.
    future = [math.exp(-mean) * mean**n / math.factorial(n) for n in range(int(mean * 3) + 20)]

    def penalties(count: int) -> float:
        return sum(p * ((count + n) // limit) for n, p in enumerate(future))

    now = penalties(bags)
    return tuple(
        rules.bag_penalty * (penalties(bags + n) - now) for n in range(rules.hand_size + 1)
    )


def hand_value(observation: Observation) -> HandValue:
    """The worth of a finished hand's tricks per seat to the observing side, cached."""
    if observation.rules.partnerships:
        return _team_value(observation)
    return _player_value(observation)


def _team_value(observation: Observation) -> HandValue:
    rules = observation.rules
    bids = [b if b is not None else 0 for b in observation.bids]
    blind = observation.blind
    team = observation.team
    scores, bags = observation.scores, observation.bags
    teams = rules.sides()
    cache: dict[tuple[int, ...], float] = {}

    def value(won: Sequence[int]) -> float:
        key = tuple(won)
        cached = cache.get(key)
        if cached is not None:
            return cached
        points = []
        worth = []
        for side, seats in enumerate(teams):
            p, w = team_econ(
                rules,
                tuple(bids[s] for s in seats),
                tuple(blind[s] for s in seats),
                tuple(won[s] for s in seats),
                bags[side],
            )
            points.append(p)
            worth.append(w)
        total = worth[team] - sum(w for side, w in enumerate(worth) if side != team)
        outcome = match_outcome(rules, tuple(map(add, scores, points)))
        if outcome.over and outcome.winner is not None:
            total += MATCH_BONUS if outcome.winner == team else -MATCH_BONUS
        cache[key] = total
        return total

    return value


def _player_value(observation: Observation) -> HandValue:
    rules = observation.rules
    seats = observation.seats_in
    bids = [b if b is not None else 0 for b in observation.bids]
    blind = observation.blind
    me = observation.seat
    scores, bags = observation.scores, observation.bags
    costs = [match_bag_costs(rules, bags[s], scores) for s in range(len(scores))]
    cache: dict[tuple[int, ...], float] = {}

    def value(won: Sequence[int]) -> float:
        key = tuple(won)
        cached = cache.get(key)
        if cached is not None:
            return cached
        points = [0] * len(scores)
        total = 0.0
        for s in seats:
            p, w = team_econ(rules, (bids[s],), (blind[s],), (won[s],), bags[s], costs[s])
            points[s] = p
            total += w if s == me else -w / (len(seats) - 1)
        outcome = match_outcome(
            rules, tuple(score + p for score, p in zip(scores, points, strict=True))
        )
        if outcome.over and outcome.winner is not None:
            total += MATCH_BONUS if outcome.winner == me else -MATCH_BONUS
        cache[key] = total
        return total

    return value
