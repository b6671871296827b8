"""The cutthroat arena: bots each for themselves at a table of three or four, in duplicate.

A seed fixes one deal and its dealer, the first hand of the match with that seed, played
from 0-0. The deal is played once for each turn of the lineup round the table, so every
bot sits in every seat and holds every hand. With two bots A and B the lineup is A, B, B
(A, B, B, B for four players): A plays each hand from each seat against copies of B. With
as many bots as seats, each plays each seat once.

Two figures come from the plays, both in points a hand with their 95% intervals over the
deals:

- a bot's **edge**: its points minus the table's mean points, in each play where it sits;
- a pair's **margin** (the headline for two bots): A's points minus B's (the mean of the
  seats B holds), in each play.

Each seat's bot is seeded by the deal and the seat alone, so a bot against itself plays
the same hand in every turn of the lineup: its edges and margins are then exactly 0.

>>> summary = run_cutthroat_deals([("random", {}), ("random", {})], players=3, deals=2,
...                               seed=3, progress=False)
>>> summary["lineup"], summary["margin_per_hand"], summary["edges"]["a"]["edge_per_hand"]
(['random', 'random', 'random'], 0.0, 0.0)
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from spades.bots import bot_seed, make_bot
from spades.bots.drive import drive
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.sim.arena import BotSpec, SideStats, Timed, machine, mean_interval, play_all

_LETTERS = "abcd"


@dataclass(slots=True)
class Seating:
    """One play of a deal: for each seat, the lineup index of its bot, its points and its
    bags."""

    bots: tuple[int, ...]
    points: tuple[int, ...]
    bags: tuple[int, ...]


@dataclass(slots=True)
class CutthroatDeal:
    """One deal played once for each turn of the lineup."""

    seed: int
    plays: list[Seating]
    sides: list[SideStats]


def lineup_of(count: int, players: int) -> tuple[int, ...]:
    """The bot of each seat in the first seating, as indexes of the bots named: two bots
    give A and then B in every other seat, and as many bots as seats one a seat.

    >>> lineup_of(2, 3), lineup_of(2, 4), lineup_of(3, 3)
    ((0, 1, 1), (0, 1, 1, 1), (0, 1, 2))
    """
    if count == 2:
        return (0,) + (1,) * (players - 1)
    if count != players:
        raise ValueError(
            f"cutthroat duplicate takes two bots or one a seat ({players}), not {count}"
        )
    return tuple(range(players))


def play_cutthroat_deal(
    task: tuple[Rules, int, tuple[BotSpec, ...], tuple[int, ...]],
) -> CutthroatDeal:
    """Every seating of one deal: the lineup turned one seat at a time."""
    rules, seed, bots, lineup = task
    players = rules.players
    sides = [SideStats() for _ in bots]
    plays = [
        _play_seating(
            rules,
            seed,
            bots,
            tuple(lineup[(seat - turn) % players] for seat in range(players)),
            sides,
        )
        for turn in range(players)
    ]
    return CutthroatDeal(seed, plays, sides)


def _play_seating(
    rules: Rules,
    seed: int,
    bots: tuple[BotSpec, ...],
    at: tuple[int, ...],
    sides: list[SideStats],
) -> Seating:
    """The deal's hand played with bot ``bots[at[seat]]`` in each seat, tallied into
    ``sides`` (one a bot)."""
    timed = {
        seat: Timed(
            make_bot(bots[index][0], seed=bot_seed(seed, seat), **bots[index][1]),
            sides[index].times,
        )
        for seat, index in enumerate(at)
    }
    match = Match(rules, seed=seed)
    drive(match, timed, until=lambda: len(match.finished) >= 1)
    hand, result = match.finished[0], match.results[0]
    for seat, player in enumerate(result.players):
        side = sides[at[seat]]
        _tally(side, hand.bids[seat], hand.blind[seat], hand.tricks_won[seat])
        side.hands += 1
        side.points += player.points
        side.bags += player.bags
    return Seating(
        at, tuple(p.points for p in result.players), tuple(p.bags for p in result.players)
    )


def _tally(side: SideStats, bid: int | None, blind: bool, tricks: int) -> None:
    """Bid accuracy and nils for one player's hand."""
    if not bid:
        if blind:
            side.blind_nil_bids += 1
            side.blind_nil_made += tricks == 0
        else:
            side.nil_bids += 1
            side.nil_made += tricks == 0
        return
    side.contracts += 1
    side.exact += tricks == bid
    side.over += tricks > bid
    side.under += tricks < bid


def _edge(deal: CutthroatDeal, bot: int, worth: list[list[float]]) -> float:
    """The bot's mean over its seats of its worth minus the table's mean worth (summed
    before dividing, so that whole points cancel exactly)."""
    gaps = [
        len(values) * value - sum(values)
        for play, values in zip(deal.plays, worth, strict=True)
        for seat_bot, value in zip(play.bots, values, strict=True)
        if seat_bot == bot
    ]
    return statistics.fmean(gaps) / len(worth[0])


def _margin(deal: CutthroatDeal, a: int, b: int, worth: list[list[float]]) -> float:
    """A's worth minus B's (the mean of B's seats), averaged over the plays (cross-
    multiplied before dividing, so that whole points cancel exactly)."""
    gaps = []
    size = 1
    for play, values in zip(deal.plays, worth, strict=True):
        mine = [v for s, v in zip(play.bots, values, strict=True) if s == a]
        theirs = [v for s, v in zip(play.bots, values, strict=True) if s == b]
        gaps.append(sum(mine) * len(theirs) - sum(theirs) * len(mine))
        size = len(mine) * len(theirs)
    return statistics.fmean(gaps) / size


def summarise_cutthroat(
    deals: list[CutthroatDeal],
    *,
    bots: tuple[str, ...],
    lineup: tuple[int, ...],
    seed: int,
    rules: Rules,
    workers: int,
) -> dict[str, Any]:
    """The report of the played deals: each bot's edge and each pair's margin, in points
    a hand with the 95% interval over the deals, and as a second figure with each bag
    charged its share of the bag penalty (from 0-0 a bag scores +1 and no penalty falls).
    Two bots also get the partnership report's headline names (``margin_per_hand``…)."""
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    raw = [[[float(p) for p in play.points] for play in deal.plays] for deal in deals]
    costed = [
        [
            [p - per_bag * g for p, g in zip(play.points, play.bags, strict=True)]
            for play in deal.plays
        ]
        for deal in deals
    ]
    keys = _LETTERS[: len(bots)]
    sides = [SideStats() for _ in bots]
    for deal in deals:
        for total, side in zip(sides, deal.sides, strict=True):
            total.add(side)
    edges = {}
    for index, key in enumerate(keys):
        mean, low, high = mean_interval(
            [_edge(d, index, w) for d, w in zip(deals, raw, strict=True)]
        )
        edges[key] = {
            "edge_per_hand": mean,
            "edge_ci95": [low, high],
            "points_per_hand": sides[index].points / max(sides[index].hands, 1),
        }
    margins = []
    for a in range(len(bots)):
        for b in range(a + 1, len(bots)):
            values = [_margin(d, a, b, w) for d, w in zip(deals, raw, strict=True)]
            mean, low, high = mean_interval(values)
            c_mean, c_low, c_high = mean_interval(
                [_margin(d, a, b, w) for d, w in zip(deals, costed, strict=True)]
            )
            margins.append(
                {
                    "a": keys[a],
                    "b": keys[b],
                    "margin_per_hand": mean,
                    "margin_per_hand_ci95": [low, high],
                    "margin_sd": statistics.stdev(values) if len(values) > 1 else 0.0,
                    "margin_bags_at_cost": c_mean,
                    "margin_bags_at_cost_ci95": [c_low, c_high],
                }
            )
    summary: dict[str, Any] = {
        "game": "cutthroat",
        "players": rules.players,
        **dict(zip(keys, bots, strict=True)),
        "lineup": [bots[index] for index in lineup],
        "deals": len(deals),
        "seed": seed,
        "rules": rules.to_dict(),
        "workers": workers,
        "machine": machine(),
        "bag_cost": per_bag,
        "edges": edges,
        "margins": margins,
        "sides": {key: side.summary() for key, side in zip(keys, sides, strict=True)},
    }
    if len(bots) == 2:
        summary |= {name: value for name, value in margins[0].items() if name not in ("a", "b")}
    return summary


def run_cutthroat_deals(
    bots: list[BotSpec],
    *,
    players: int,
    deals: int,
    seed: int,
    rules: Rules | None = None,
    workers: int = 1,
    progress: bool = True,
) -> dict[str, Any]:
    """Play ``deals`` cutthroat duplicate deals (the first hands of the matches seeded
    ``seed``, ``seed + 1``, …) with two bots, or one a seat, and summarise them; the
    same seed gives the same figures whatever the number of ``workers`` (the decision
    times aside). ``rules`` are made cutthroat for ``players``."""
    rules = (rules or Rules()).replace(players=players, partnerships=False)
    lineup = lineup_of(len(bots), players)
    specs = tuple(bots)
    tasks = [(rules, seed + i, specs, lineup) for i in range(deals)]
    names = tuple(name for name, _ in bots)
    label = f"{' vs '.join(names)}: cutthroat deals" if progress else None
    results = play_all(play_cutthroat_deal, tasks, workers, label)
    return summarise_cutthroat(
        results, bots=names, lineup=lineup, seed=seed, rules=rules, workers=workers
    )


def format_cutthroat(summary: dict[str, Any]) -> str:
    """The cutthroat deal report as text for people, the margins first."""
    keys = [key for key in _LETTERS if key in summary["edges"]]
    lines = []
    for margin in summary["margins"]:
        low, high = margin["margin_per_hand_ci95"]
        lines.append(
            f"margin per hand, {summary[margin['a']]} ({margin['a'].upper()}) minus "
            f"{summary[margin['b']]} ({margin['b'].upper()}): "
            f"{margin['margin_per_hand']:+.1f} points (95% CI {low:+.1f} to {high:+.1f}) "
            f"over {summary['deals']} deals"
        )
    lines.append(
        f"cutthroat, {summary['players']} players: each deal played from 0-0 once for each "
        f"turn of the lineup {', '.join(summary['lineup'])}; seed {summary['seed']}"
    )
    if summary["bag_cost"]:
        for margin in summary["margins"]:
            c_low, c_high = margin["margin_bags_at_cost_ci95"]
            lines.append(
                f"{margin['a'].upper()} minus {margin['b'].upper()} with each bag charged "
                f"{summary['bag_cost']:g} points: {margin['margin_bags_at_cost']:+.1f} "
                f"(95% CI {c_low:+.1f} to {c_high:+.1f})"
            )
    for key in keys:
        edge = summary["edges"][key]
        low, high = edge["edge_ci95"]
        side = summary["sides"][key]
        nil = "-" if side["nil_success"] is None else f"{side['nil_success']:.0%}"
        lines.append(
            f"{key.upper()} {summary[key]}: edge over the table {edge['edge_per_hand']:+.1f} "
            f"(95% CI {low:+.1f} to {high:+.1f}); {edge['points_per_hand']:+.1f} points a hand; "
            f"bids exact {side['bid_exact']:.0%} over {side['bid_over']:.0%} "
            f"under {side['bid_under']:.0%}; nil {side['nil_bids']} bids, {nil} made; "
            f"bags/hand {side['bags_per_hand']:.2f}; decision p50 "
            f"{side['decision_ms_p50']:.1f} ms, p95 {side['decision_ms_p95']:.1f} ms"
        )
    return "\n".join(lines)
