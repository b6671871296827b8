"""The arena's reports: typed summaries of duplicate deals and matches, their 95%
intervals, the plain data they give for JSON, and their text for people.

The margin and edge figures are explained in :mod:`spades.sim.arena`, which plays the
games and builds these summaries.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from dataclasses import dataclass
from typing import Any, Final

from spades.engine.rules import Rules

#: A match still going after this many hands is stopped and scored as it stands.
MAX_HANDS: Final = 100
_Z95: Final = 1.959964
#: The bots' names in the reports, in the order they are given: A, B, C, D.
LETTERS: Final = "abcd"


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One bot's figures over the hands it played: bid accuracy over its contracts, nils,
    bags and points a hand, and its decision times."""

    hands: int
    bid_exact: float
    bid_over: float
    bid_under: float
    set_rate: float
    nil_bids: int
    nil_success: float | None
    blind_nil_bids: int
    blind_nil_success: float | None
    bags_per_hand: float
    points_per_hand: float
    decisions: int
    decision_ms_p50: float
    decision_ms_p95: float


@dataclass(frozen=True, slots=True)
class Margin:
    """A pair's margin over the deals, in points a hand: bot ``a``'s points minus bot
    ``b``'s (indexes of the summary's bots), with its 95% interval and its standard
    deviation a deal, and again with each bag charged its share of the bag penalty."""

    a: int
    b: int
    per_hand: float
    ci95: tuple[float, float]
    sd: float
    bags_at_cost: float
    bags_at_cost_ci95: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        """The figures under the report's names, for JSON."""
        return {
            "margin_per_hand": self.per_hand,
            "margin_per_hand_ci95": list(self.ci95),
            "margin_sd": self.sd,
            "margin_bags_at_cost": self.bags_at_cost,
            "margin_bags_at_cost_ci95": list(self.bags_at_cost_ci95),
        }


@dataclass(frozen=True, slots=True)
class Edge:
    """A bot's edge over the deals, in points a hand: its points minus the table's mean
    points, with its 95% interval."""

    per_hand: float
    ci95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class DealSummary:
    """The report of the duplicate deals: every pair's margin (the first pair's, A minus
    B, is the headline), every bot's edge and figures, and what the deals were played
    with. ``bots``, ``edges`` and ``sides`` follow the bots in the order named."""

    bots: tuple[str, ...]
    lineup: tuple[str, ...]  # the bot of each seat in the first seating
    deals: int
    seed: int
    rules: Rules
    workers: int
    machine: str
    bag_cost: float  # the points a bag is charged in the second figure
    margins: tuple[Margin, ...]
    edges: tuple[Edge, ...]
    sides: tuple[SideSummary, ...]

    @property
    def margin(self) -> Margin:
        """The headline: A's margin over B."""
        return self.margins[0]

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data for JSON, under the names it has always had: in the
        partnership game one margin, and in cutthroat every pair's and every bot's edge
        (two bots also get the headline's names)."""
        letters = LETTERS[: len(self.bots)]
        sides = {
            key: dataclasses.asdict(side) for key, side in zip(letters, self.sides, strict=True)
        }
        played = {
            "deals": self.deals,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "workers": self.workers,
            "machine": self.machine,
        }
        if self.rules.partnerships:
            head = self.margin.to_dict()
            return {
                "a": self.bots[0],
                "b": self.bots[1],
                **played,
                "margin_per_hand": head["margin_per_hand"],
                "margin_per_hand_ci95": head["margin_per_hand_ci95"],
                "margin_sd": head["margin_sd"],
                "bag_cost": self.bag_cost,
                "margin_bags_at_cost": head["margin_bags_at_cost"],
                "margin_bags_at_cost_ci95": head["margin_bags_at_cost_ci95"],
                "sides": sides,
            }
        report: dict[str, Any] = {
            "game": "cutthroat",
            "players": self.rules.players,
            **dict(zip(letters, self.bots, strict=True)),
            "lineup": list(self.lineup),
            **played,
            "bag_cost": self.bag_cost,
            "edges": {
                key: {
                    "edge_per_hand": edge.per_hand,
                    "edge_ci95": list(edge.ci95),
                    "points_per_hand": side.points_per_hand,
                }
                for key, edge, side in zip(letters, self.edges, self.sides, strict=True)
            },
            "margins": [
                {"a": letters[m.a], "b": letters[m.b], **m.to_dict()} for m in self.margins
            ],
            "sides": sides,
        }
        if len(self.bots) == 2:
            report |= self.margin.to_dict()
        return report


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The report of the duplicate matches: the match wins (a draw counts half) and
    points a hand, A against B, with their 95% intervals, and each bot's figures."""

    bots: tuple[str, ...]
    matches: int  # duplicate pairs
    games: int
    seed: int
    rules: Rules
    workers: int
    machine: str
    wins: tuple[int, ...]  # by bot
    draws: int
    win_rate_a: float
    win_rate_a_ci95: tuple[float, float]
    points_per_hand_diff: float
    points_per_hand_diff_ci95: tuple[float, float]
    hands: int
    capped: int  # matches stopped at MAX_HANDS
    sides: tuple[SideSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data for JSON, under the names it has always had."""
        letters = LETTERS[: len(self.bots)]
        return {
            **dict(zip(letters, self.bots, strict=True)),
            "matches": self.matches,
            "games": self.games,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "workers": self.workers,
            "machine": self.machine,
            "wins": {**dict(zip(letters, self.wins, strict=True)), "draws": self.draws},
            "win_rate_a": self.win_rate_a,
            "win_rate_a_ci95": list(self.win_rate_a_ci95),
            "points_per_hand_diff": self.points_per_hand_diff,
            "points_per_hand_diff_ci95": list(self.points_per_hand_diff_ci95),
            "hands": self.hands,
            "capped": self.capped,
            "sides": {
                key: dataclasses.asdict(side) for key, side in zip(letters, self.sides, strict=True)
            },
        }


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


def format_deals(summary: DealSummary) -> str:
    """The deal report as text for people, the margins first."""
    letters = LETTERS.upper()
    lines = [
        f"margin per hand, {summary.bots[m.a]} ({letters[m.a]}) minus {summary.bots[m.b]} "
        f"({letters[m.b]}): {m.per_hand:+.1f} points (95% CI {m.ci95[0]:+.1f} to "
        f"{m.ci95[1]:+.1f}) over {summary.deals} deals"
        for m in summary.margins
    ]
    cost = summary.bag_cost
    if summary.rules.partnerships:
        lines.append(
            f"each deal played twice from 0-0, the sides swapping seats; seed {summary.seed}, "
            f"sd {summary.margin.sd:.1f} a deal"
        )
        if cost:
            m = summary.margin
            lines.append(
                f"with each bag charged its share of the bag penalty ({cost:g} points): "
                f"{m.bags_at_cost:+.1f} (95% CI {m.bags_at_cost_ci95[0]:+.1f} to "
                f"{m.bags_at_cost_ci95[1]:+.1f})"
            )
    else:
        lines.append(
            f"cutthroat, {summary.rules.players} players: each deal played from 0-0 once for "
            f"each turn of the lineup {', '.join(summary.lineup)}; seed {summary.seed}"
        )
        if cost:
            lines += [
                f"{letters[m.a]} minus {letters[m.b]} with each bag charged {cost:g} points: "
                f"{m.bags_at_cost:+.1f} (95% CI {m.bags_at_cost_ci95[0]:+.1f} to "
                f"{m.bags_at_cost_ci95[1]:+.1f})"
                for m in summary.margins
            ]
    for index, (name, side) in enumerate(zip(summary.bots, summary.sides, strict=True)):
        edge = None if summary.rules.partnerships else summary.edges[index]
        lines.append(_side_line(f"{letters[index]} {name}", side, edge=edge))
    return "\n".join(lines)


def format_matches(summary: MatchSummary) -> str:
    """The match report as text for people."""
    low, high = summary.win_rate_a_ci95
    d_low, d_high = summary.points_per_hand_diff_ci95
    a, b = summary.bots
    capped = f", {summary.capped} matches stopped at {MAX_HANDS} hands" if summary.capped else ""
    lines = [
        f"{a} (A) vs {b} (B): {summary.matches} duplicate pairs, "
        f"{summary.games} matches, seed {summary.seed}",
        f"match wins: A {summary.wins[0]}, B {summary.wins[1]}, draws {summary.draws}; "
        f"A wins {summary.win_rate_a:.1%} (95% CI {low:.1%} to {high:.1%})",
        f"points per hand, A minus B: {summary.points_per_hand_diff:+.1f} "
        f"(95% CI {d_low:+.1f} to {d_high:+.1f}) over {summary.hands} hands{capped}",
    ]
    lines += [
        _side_line(f"{letter} {name}", side, edge=None)
        for letter, name, side in zip("AB", summary.bots, summary.sides, strict=True)
    ]
    return "\n".join(lines)


def _side_line(label: str, side: SideSummary, *, edge: Edge | None) -> str:
    """One bot's figures; a cutthroat bot's (``edge`` given) lead with its edge over the
    table, and a team's add its set rate and blind nils."""
    nil = "-" if side.nil_success is None else f"{side.nil_success:.0%}"
    team = edge is None
    parts = []
    if edge is not None:
        low, high = edge.ci95
        parts.append(f"edge over the table {edge.per_hand:+.1f} (95% CI {low:+.1f} to {high:+.1f})")
    parts += [
        f"{side.points_per_hand:+.1f} points a hand",
        f"bids exact {side.bid_exact:.0%} over {side.bid_over:.0%} under {side.bid_under:.0%}",
    ]
    if team:
        parts.append(f"set rate {side.set_rate:.0%}")
    parts.append(f"nil {side.nil_bids} bids, {nil} made")
    if team:
        parts.append(f"blind nil {side.blind_nil_bids}")
    parts += [
        f"bags/hand {side.bags_per_hand:.2f}",
        f"decision p50 {side.decision_ms_p50:.1f} ms, p95 {side.decision_ms_p95:.1f} ms",
    ]
    return f"{label}: " + "; ".join(parts)
