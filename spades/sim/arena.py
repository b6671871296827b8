"""The arena: two bots play duplicate deals and matches, and the summary says which is
stronger and by how much.

Duplicate format: every seed is played twice, once with side A at North/South and once
with side A at East/West, so both sides hold the same cards and the luck of the deal
cancels out. Two measures use it:

- **Deals** (the headline, :func:`run_deals`): a seed fixes one deal and its dealer, the
  first hand of the match with that seed, played from 0-0. A deal's margin is A's points
  minus B's, averaged over its two plays, and the summary gives the mean margin per hand
  with its 95% interval. From 0-0 a bag scores +1 and no penalty falls, so a second
  figure charges each bag its share of the bag penalty (10 points by default).
- **Matches** (:func:`run_arena`): a seed fixes a whole match, every deal and the first
  dealer; the summary gives the match wins and points per hand.

Both play the partnership game; cutthroat deals have their own duplicate, with the bots
turned round the table (:mod:`spades.sim.arena_cutthroat`).

>>> summary = run_deals("random", "random", deals=2, seed=3, progress=False)
>>> summary["deals"], summary["margin_per_hand"]  # a bot against itself mirrors exactly
(2, 0.0)
>>> summary = run_arena("random", "random", matches=1, seed=3, progress=False)
>>> summary["games"], summary["wins"]["a"] + summary["wins"]["b"] + summary["wins"]["draws"]
(2, 2)
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any, Final, TypeVar

from spades.bots import Bot, bot_seed, make_bot
from spades.bots.drive import drive
from spades.engine.cards import Action
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules

# A match that has not ended after this many hands is stopped and scored as it stands.
MAX_HANDS: Final = 100
_Z95: Final = 1.959964

#: A bot by name and its options.
BotSpec = tuple[str, dict[str, Any]]
_Task = TypeVar("_Task")
_Result = TypeVar("_Result")


@dataclass(slots=True)
class SideStats:
    """One side's tallies over its games."""

    hands: int = 0
    points: int = 0
    contracts: int = 0
    exact: int = 0
    over: int = 0
    under: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    blind_nil_bids: int = 0
    blind_nil_made: int = 0
    bags: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: SideStats) -> None:
        self.hands += other.hands
        self.points += other.points
        self.contracts += other.contracts
        self.exact += other.exact
        self.over += other.over
        self.under += other.under
        self.nil_bids += other.nil_bids
        self.nil_made += other.nil_made
        self.blind_nil_bids += other.blind_nil_bids
        self.blind_nil_made += other.blind_nil_made
        self.bags += other.bags
        self.times.extend(other.times)

    def summary(self) -> dict[str, Any]:
        times = sorted(self.times)
        contracts = max(self.contracts, 1)
        return {
            "hands": self.hands,
            "bid_exact": self.exact / contracts,
            "bid_over": self.over / contracts,
            "bid_under": self.under / contracts,
            "set_rate": self.under / contracts,
            "nil_bids": self.nil_bids,
            "nil_success": self.nil_made / self.nil_bids if self.nil_bids else None,
            "blind_nil_bids": self.blind_nil_bids,
            "blind_nil_success": (
                self.blind_nil_made / self.blind_nil_bids if self.blind_nil_bids else None
            ),
            "bags_per_hand": self.bags / max(self.hands, 1),
            "points_per_hand": self.points / max(self.hands, 1),
            "decisions": len(times),
            "decision_ms_p50": _quantile(times, 0.5) * 1000,
            "decision_ms_p95": _quantile(times, 0.95) * 1000,
        }


@dataclass(slots=True)
class GameResult:
    """One game of a duplicate pair, from the sides' point of view."""

    seed: int  # the match seed, which fixes every deal
    a_seats: int  # 0: side A sat North/South, 1: East/West
    winner: str | None  # "a", "b" or None for a draw
    capped: bool
    hands: int
    sides: dict[str, SideStats]


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    index = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[index]


@dataclass(slots=True)
class DealResult:
    """One deal of the hand-level duplicate, played once with side A at North/South and
    once at East/West."""

    seed: int  # the match seed whose first hand this is
    margin: float  # A's points minus B's, averaged over the two plays
    sides: dict[str, SideStats]


class Timed:
    """A bot that adds the seconds each of its choices takes to ``times``."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = self.bot.act(observation)
        self.times.append(time.perf_counter() - start)
        return action


def play_game(
    rules: Rules,
    seed: int,
    a_team: int,
    a: BotSpec,
    b: BotSpec,
    *,
    hands: int = MAX_HANDS,
) -> GameResult:
    """Play one match with side A on team ``a_team`` (0 N/S, 1 E/W), timing each choice;
    a match still going after ``hands`` hands is stopped there."""
    side_of = ["a" if rules.side_of(seat) == a_team else "b" for seat in rules.seats]
    specs = {"a": a, "b": b}
    stats = {"a": SideStats(), "b": SideStats()}
    players = {
        seat: Timed(
            make_bot(specs[side_of[seat]][0], seed=bot_seed(seed, seat), **specs[side_of[seat]][1]),
            stats[side_of[seat]].times,
        )
        for seat in rules.seats
    }
    match = Match(rules, seed=seed)
    drive(match, players, until=lambda: len(match.finished) >= hands)
    for hand, result in zip(match.finished, match.results, strict=True):
        for team in (0, 1):
            side = stats["a" if team == a_team else "b"]
            _tally(rules, side, hand.bids, hand.blind, hand.tricks_won, team)
            side.hands += 1
            side.points += result.teams[team].points
            side.bags += result.teams[team].bags
    capped = not match.is_over
    # A match stopped at the cap goes to the side ahead, as its places stand.
    places = match.places()
    team_winner = places.index(1) if places.count(1) == 1 else None
    winner = None if team_winner is None else ("a" if team_winner == a_team else "b")
    return GameResult(seed, a_team, winner, capped, len(match.finished), stats)


def _tally(
    rules: Rules,
    side: SideStats,
    bids: list[int | None],
    blind: list[bool],
    tricks: list[int],
    team: int,
) -> None:
    """Bid accuracy and nils for one team's hand; the contract counts the tricks that
    score toward it."""
    contract = counted = 0
    for seat in (team, team + 2):
        bid = bids[seat] or 0
        if bid == 0:
            if blind[seat]:
                side.blind_nil_bids += 1
                side.blind_nil_made += tricks[seat] == 0
            else:
                side.nil_bids += 1
                side.nil_made += tricks[seat] == 0
            if rules.nil_tricks_count_toward_bid:
                counted += tricks[seat]
        else:
            contract += bid
            counted += tricks[seat]
    if contract:
        side.contracts += 1
        side.exact += counted == contract
        side.over += counted > contract
        side.under += counted < contract


def play_pair(task: tuple[Rules, int, BotSpec, BotSpec]) -> list[GameResult]:
    """Both games of a duplicate pair: the same seed with the sides swapping seats."""
    rules, seed, a, b = task
    return [play_game(rules, seed, a_team, a, b) for a_team, _ in enumerate(rules.sides())]


def play_deal(task: tuple[Rules, int, BotSpec, BotSpec]) -> DealResult:
    """Both plays of a duplicate deal: the first hand of the match seeded ``seed``, from
    0-0, with the sides swapping seats.

    Each seat's bot is seeded by the deal and the seat alone, never by the side, so
    swapping the bots of A and B swaps the plays, and a bot against itself plays the
    same hand twice: the margin is then exactly 0.
    """
    rules, seed, a, b = task
    sides = {"a": SideStats(), "b": SideStats()}
    difference = 0
    for a_team, _ in enumerate(rules.sides()):
        game = play_game(rules, seed, a_team, a, b, hands=1)
        for name, side in sides.items():
            side.add(game.sides[name])
        difference += game.sides["a"].points - game.sides["b"].points
    return DealResult(seed, difference / 2, sides)


def wilson_interval(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (draws count as half a success).

    >>> low, high = wilson_interval(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = _Z95 * _Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% normal interval.

    >>> mean, low, high = mean_interval([1.0, 3.0])
    >>> mean, round(low, 2), round(high, 2)
    (2.0, 0.04, 3.96)
    """
    mean = statistics.fmean(values) if values else 0.0
    if len(values) < 2:
        return (mean, mean, mean)
    half = _Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return (mean, mean - half, mean + half)


def machine() -> str:
    """The machine and the Python a report was made on."""
    return f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}"


def summarise(
    pairs: list[list[GameResult]],
    *,
    a: str,
    b: str,
    seed: int,
    rules: Rules,
    workers: int,
) -> dict[str, Any]:
    """The arena's report from the played pairs (in seed order)."""
    wins = {"a": 0, "b": 0, "draws": 0}
    sides = {"a": SideStats(), "b": SideStats()}
    capped = hands = 0
    pair_diffs: list[float] = []
    for pair in pairs:
        diff = 0
        pair_hands = 0
        for game in pair:
            wins[game.winner or "draws"] += 1
            capped += game.capped
            hands += game.hands
            pair_hands += game.hands
            for name in ("a", "b"):
                sides[name].add(game.sides[name])
            diff += game.sides["a"].points - game.sides["b"].points
        pair_diffs.append(diff / max(pair_hands, 1))
    games = 2 * len(pairs)
    score_a = wins["a"] + wins["draws"] / 2
    low, high = wilson_interval(score_a, games)
    diff_mean, diff_low, diff_high = mean_interval(pair_diffs)
    return {
        "a": a,
        "b": b,
        "matches": len(pairs),
        "games": games,
        "seed": seed,
        "rules": rules.to_dict(),
        "workers": workers,
        "machine": machine(),
        "wins": wins,
        "win_rate_a": score_a / games if games else 0.0,
        "win_rate_a_ci95": [low, high],
        "points_per_hand_diff": diff_mean,
        "points_per_hand_diff_ci95": [diff_low, diff_high],
        "hands": hands,
        "capped": capped,
        "sides": {name: stats.summary() for name, stats in sides.items()},
    }


def run_arena(
    a: str,
    b: str,
    *,
    matches: int,
    seed: int,
    rules: Rules | None = None,
    workers: int = 1,
    a_options: dict[str, Any] | None = None,
    b_options: dict[str, Any] | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Play ``matches`` duplicate pairs (seeds ``seed``, ``seed + 1``, …) of bot ``a``
    against bot ``b`` and summarise them."""
    rules = _partnership(rules)
    tasks = [(rules, seed + i, (a, a_options or {}), (b, b_options or {})) for i in range(matches)]
    results = play_all(play_pair, tasks, workers, f"{a} vs {b}: matches" if progress else None)
    return summarise(results, a=a, b=b, seed=seed, rules=rules, workers=workers)


def run_deals(
    a: str,
    b: str,
    *,
    deals: int,
    seed: int,
    rules: Rules | None = None,
    workers: int = 1,
    a_options: dict[str, Any] | None = None,
    b_options: dict[str, Any] | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals (the first hands of the matches seeded ``seed``,
    ``seed + 1``, …) of bot ``a`` against bot ``b`` and summarise them; the same seed
    gives the same figures whatever the number of ``workers`` (the decision times
    aside)."""
    rules = _partnership(rules)
    tasks = [(rules, seed + i, (a, a_options or {}), (b, b_options or {})) for i in range(deals)]
    results = play_all(play_deal, tasks, workers, f"{a} vs {b}: deals" if progress else None)
    return summarise_deals(results, a=a, b=b, seed=seed, rules=rules, workers=workers)


def _partnership(rules: Rules | None) -> Rules:
    """The rules to play (the defaults for None), refused unless they are of the
    partnership game."""
    rules = rules or Rules()
    if not rules.partnerships:
        raise ValueError(
            "this arena plays the partnership game; cutthroat has its own duplicate "
            "(spades.sim.arena_cutthroat.run_cutthroat_deals)"
        )
    return rules


def play_all(
    play: Callable[[_Task], _Result], tasks: list[_Task], workers: int, label: str | None
) -> list[_Result]:
    """``play`` of every task, in task order, over ``workers`` processes, with a progress
    bar named ``label`` (none when it is None)."""
    from spades.sim.progress import Progress

    def played() -> Iterator[_Result]:
        if workers <= 1:
            yield from map(play, tasks)
            return
        with Pool(workers) as pool:
            yield from pool.imap(play, tasks)

    if label is None:
        return list(played())
    results: list[_Result] = []
    with Progress(len(tasks), label) as bar:
        for result in played():
            results.append(result)
            bar.advance()
    return results


def summarise_deals(
    deals: list[DealResult],
    *,
    a: str,
    b: str,
    seed: int,
    rules: Rules,
    workers: int,
) -> dict[str, Any]:
    """The report of the played deals (in seed order): the mean margin per hand, A's
    points minus B's, with its 95% interval (mean ± 1.96 sd/√n over the deals), and each
    side's figures over its hands.

    >>> stats = {"a": SideStats(), "b": SideStats()}
    >>> deals = [DealResult(seed, margin, stats) for seed, margin in enumerate([10.0, 30.0])]
    >>> summary = summarise_deals(deals, a="x", b="y", seed=0, rules=Rules(), workers=1)
    >>> summary["margin_per_hand"], [round(end, 1) for end in summary["margin_per_hand_ci95"]]
    (20.0, [0.4, 39.6])
    """
    margins = [deal.margin for deal in deals]
    mean, low, high = mean_interval(margins)
    # A hand played from 0-0 scores a bag as +1 and never reaches a penalty, so a second
    # figure charges each bag its share of the penalty, the cost a bag has in a match.
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    costed = [
        deal.margin - per_bag * (deal.sides["a"].bags - deal.sides["b"].bags) / 2 for deal in deals
    ]
    costed_mean, costed_low, costed_high = mean_interval(costed)
    sides = {"a": SideStats(), "b": SideStats()}
    for deal in deals:
        for name, side in sides.items():
            side.add(deal.sides[name])
    return {
        "a": a,
        "b": b,
        "deals": len(deals),
        "seed": seed,
        "rules": rules.to_dict(),
        "workers": workers,
        "machine": machine(),
        "margin_per_hand": mean,
        "margin_per_hand_ci95": [low, high],
        "margin_sd": statistics.stdev(margins) if len(margins) > 1 else 0.0,
        "bag_cost": per_bag,
        "margin_bags_at_cost": costed_mean,
        "margin_bags_at_cost_ci95": [costed_low, costed_high],
        "sides": {name: stats.summary() for name, stats in sides.items()},
    }


def format_deals(summary: dict[str, Any]) -> str:
    """The deal report as text for people, the margin per hand first."""
    low, high = summary["margin_per_hand_ci95"]
    lines = [
        f"margin per hand, {summary['a']} (A) minus {summary['b']} (B): "
        f"{summary['margin_per_hand']:+.1f} points (95% CI {low:+.1f} to {high:+.1f}) "
        f"over {summary['deals']} deals",
        f"each deal played twice from 0-0, the sides swapping seats; seed {summary['seed']}, "
        f"sd {summary['margin_sd']:.1f} a deal",
    ]
    if summary["bag_cost"]:
        c_low, c_high = summary["margin_bags_at_cost_ci95"]
        lines.append(
            f"with each bag charged its share of the bag penalty ({summary['bag_cost']:g} "
            f"points): {summary['margin_bags_at_cost']:+.1f} (95% CI {c_low:+.1f} to "
            f"{c_high:+.1f})"
        )
    lines += [_side_line(summary, name) for name in ("a", "b")]
    return "\n".join(lines)


def format_summary(summary: dict[str, Any]) -> str:
    """The report as text for people."""
    low, high = summary["win_rate_a_ci95"]
    d_low, d_high = summary["points_per_hand_diff_ci95"]
    wins = summary["wins"]
    lines = [
        f"{summary['a']} (A) vs {summary['b']} (B): {summary['matches']} duplicate pairs, "
        f"{summary['games']} matches, seed {summary['seed']}",
        f"match wins: A {wins['a']}, B {wins['b']}, draws {wins['draws']}; "
        f"A wins {summary['win_rate_a']:.1%} (95% CI {low:.1%} to {high:.1%})",
        f"points per hand, A minus B: {summary['points_per_hand_diff']:+.1f} "
        f"(95% CI {d_low:+.1f} to {d_high:+.1f}) over {summary['hands']} hands"
        + (
            f", {summary['capped']} matches stopped at {MAX_HANDS} hands"
            if summary["capped"]
            else ""
        ),
    ]
    lines += [_side_line(summary, name) for name in ("a", "b")]
    return "\n".join(lines)


def _side_line(summary: dict[str, Any], name: str) -> str:
    """One side's figures from a deal or match report."""
    side = summary["sides"][name]
    nil = "-" if side["nil_success"] is None else f"{side['nil_success']:.0%}"
    return (
        f"{name.upper()} {summary[name]}: {side['points_per_hand']:+.1f} points a hand; "
        f"bids exact {side['bid_exact']:.0%} "
        f"over {side['bid_over']:.0%} under {side['bid_under']:.0%}; "
        f"set rate {side['set_rate']:.0%}; nil {side['nil_bids']} bids, {nil} made; "
        f"blind nil {side['blind_nil_bids']}; bags/hand {side['bags_per_hand']:.2f}; "
        f"decision p50 {side['decision_ms_p50']:.1f} ms, p95 {side['decision_ms_p95']:.1f} ms"
    )
