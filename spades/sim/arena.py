"""The arena: bots play duplicate deals and matches, and the summary says which is
stronger and by how much, in the partnership game and in cutthroat alike.

Duplicate format: every seed is played once for each turn of the bots' lineup round the
table, so that every bot holds every hand and the luck of the deal cancels out. Two bots
A and B sit A, B, A, B in the partnership game, so its two plays swap the teams' seats;
in cutthroat they sit A, B, B (A, B, B, B for four players), and as many bots as seats
sit one a seat. Which game is played comes from the rules.

- **Deals** (the headline, :func:`run_deals`): a seed fixes one deal and its dealer, the
  first hand of the match with that seed, played from 0-0. A pair's margin is A's points
  minus B's (the mean of the sides B holds), averaged over the plays, and the summary
  gives the mean margin per hand with its 95% interval over the deals, and each bot's
  edge: its points minus the table's mean. From 0-0 a bag scores +1 and no penalty
  falls, so a second figure charges each bag its share of the bag penalty (10 points by
  default).
- **Matches** (:func:`run_matches`, the partnership game): a seed fixes a whole match,
  every deal and the first dealer; the summary gives the match wins and points per hand.

Each seat's bot is seeded by the seed and the seat alone, never by the bot, so swapping
A and B swaps the plays, and a bot against itself plays the same hand in every turn of
the lineup: its margins are then exactly 0. The summaries, typed, and their text are
:mod:`spades.sim.report`'s.

>>> pair = [("random", {}), ("random", {})]
>>> summary = run_deals(pair, deals=2, seed=3, progress=False)
>>> summary.lineup, summary.margin.per_hand
(('random', 'random', 'random', 'random'), 0.0)
>>> three = Rules(players=3, partnerships=False)
>>> summary = run_deals(pair, deals=2, seed=3, rules=three, progress=False)
>>> summary.lineup, summary.margin.per_hand, summary.edges[0].per_hand
(('random', 'random', 'random'), 0.0, 0.0)
>>> summary = run_matches(pair, matches=1, seed=3, progress=False)
>>> summary.games, sum(summary.wins) + summary.draws
(2, 2)
"""

from __future__ import annotations

import itertools
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any, TypeVar

from spades.bots import Bot, bot_seed, make_bot
from spades.bots.drive import drive
from spades.engine.cards import Action, Seat
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.state import HandState
from spades.sim.report import (
    MAX_HANDS,
    DealSummary,
    Edge,
    Margin,
    MatchSummary,
    SideSummary,
    mean_interval,
    wilson_interval,
)

#: A bot by name and its options.
BotSpec = tuple[str, dict[str, Any]]
_Task = TypeVar("_Task")
_Result = TypeVar("_Result")


@dataclass(slots=True)
class SideStats:
    """One bot's tallies over its hands."""

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

    def summary(self) -> SideSummary:
        times = sorted(self.times)
        contracts = max(self.contracts, 1)
        return SideSummary(
            hands=self.hands,
            bid_exact=self.exact / contracts,
            bid_over=self.over / contracts,
            bid_under=self.under / contracts,
            set_rate=self.under / contracts,
            nil_bids=self.nil_bids,
            nil_success=self.nil_made / self.nil_bids if self.nil_bids else None,
            blind_nil_bids=self.blind_nil_bids,
            blind_nil_success=(
                self.blind_nil_made / self.blind_nil_bids if self.blind_nil_bids else None
            ),
            bags_per_hand=self.bags / max(self.hands, 1),
            points_per_hand=self.points / max(self.hands, 1),
            decisions=len(times),
            decision_ms_p50=_quantile(times, 0.5) * 1000,
            decision_ms_p95=_quantile(times, 0.95) * 1000,
        )


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    index = min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))
    return values[index]


@dataclass(frozen=True, slots=True)
class Seating:
    """One play of a deal: for each side that scores (a team, or in cutthroat a player),
    the index of its bot, its points and its bags."""

    bots: tuple[int, ...]
    points: tuple[int, ...]
    bags: tuple[int, ...]

    def worth(self, per_bag: float) -> list[float]:
        """Each side's points, with each of its bags charged ``per_bag`` points."""
        return [p - per_bag * g for p, g in zip(self.points, self.bags, strict=True)]


@dataclass(slots=True)
class DealResult:
    """One deal played once for each turn of the lineup, and each bot's tallies."""

    seed: int  # the match seed whose first hand this is
    plays: list[Seating]
    sides: list[SideStats]

    def margin(self, a: int = 0, b: int = 1, *, per_bag: float = 0.0) -> float:
        """Bot ``a``'s points minus bot ``b``'s (the mean of the sides ``b`` holds),
        averaged over the plays, each bag charged ``per_bag`` points (cross-multiplied
        before dividing, so that whole points cancel exactly).

        >>> deal = DealResult(0, [Seating((0, 1), (60, -40), (2, 0))], [SideStats()] * 2)
        >>> deal.margin(), deal.margin(per_bag=10.0), deal.margin(1, 0)
        (100.0, 80.0, -100.0)
        """
        gaps = []
        size = 1
        for play in self.plays:
            worth = play.worth(per_bag)
            mine = [v for bot, v in zip(play.bots, worth, strict=True) if bot == a]
            theirs = [v for bot, v in zip(play.bots, worth, strict=True) if bot == b]
            gaps.append(sum(mine) * len(theirs) - sum(theirs) * len(mine))
            size = len(mine) * len(theirs)
        return statistics.fmean(gaps) / size

    def edge(self, bot: int) -> float:
        """The bot's points minus the table's mean points, averaged over the sides it
        holds (summed before dividing, so that whole points cancel exactly)."""
        gaps = []
        for play in self.plays:
            worth = play.worth(0.0)
            gaps += [
                len(worth) * value - sum(worth)
                for side_bot, value in zip(play.bots, worth, strict=True)
                if side_bot == bot
            ]
        return statistics.fmean(gaps) / len(self.plays[0].bots)


@dataclass(slots=True)
class GameResult:
    """One match of a duplicate pair, from the bots' point of view."""

    seed: int  # the match seed, which fixes every deal
    at: tuple[int, ...]  # the bot of each seat
    winner: int | None  # the winning bot, None for a draw
    capped: bool
    hands: int
    sides: list[SideStats]


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


def _sides(rules: Rules) -> int:
    """How many sides score: the two teams, or in cutthroat every player. The sides take
    turns round the table, so side ``s`` holds seats ``s``, ``s + sides``, …"""
    return 2 if rules.partnerships else rules.players


def lineup_of(rules: Rules, count: int) -> tuple[int, ...]:
    """The bot of each seat in the first seating, as indexes of the ``count`` bots named:
    two bots give A the first side and B every other (A, B, A, B in the partnership game;
    A, B, B… in cutthroat), and as many bots as sides one a side.

    >>> three = Rules(players=3, partnerships=False)
    >>> lineup_of(Rules(), 2), lineup_of(three, 2), lineup_of(three, 3)
    ((0, 1, 0, 1), (0, 1, 1), (0, 1, 2))
    """
    sides = _sides(rules)
    if count not in (2, sides):
        raise ValueError(
            f"{rules.game} duplicate takes two bots or one a side ({sides}), not {count}"
        )
    return tuple(min(seat % sides, count - 1) for seat in range(rules.players))


def seatings(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The lineup turned one seat at a time until it comes round again, so that every bot
    sits in every seat.

    >>> seatings((0, 1, 0, 1)), seatings((0, 1, 1))
    ([(0, 1, 0, 1), (1, 0, 1, 0)], [(0, 1, 1), (1, 0, 1), (1, 1, 0)])
    """
    players = len(lineup)
    turned: list[tuple[int, ...]] = []
    for turn in range(players):
        at = tuple(lineup[(seat - turn) % players] for seat in range(players))
        if at in turned:
            break
        turned.append(at)
    return turned


def _play(
    rules: Rules,
    seed: int,
    bots: Sequence[BotSpec],
    at: tuple[int, ...],
    stats: list[SideStats],
    *,
    hands: int,
) -> Match:
    """The match seeded ``seed`` with bot ``bots[at[seat]]`` in each seat, timing each
    choice, stopped after ``hands`` hands if it is still going; each side's hands are
    tallied into ``stats`` of its bot."""
    players = {
        seat: Timed(
            make_bot(bots[index][0], seed=bot_seed(seed, seat), **bots[index][1]),
            stats[index].times,
        )
        for seat, index in enumerate(at)
    }
    match = Match(rules, seed=seed)
    drive(match, players, until=lambda: len(match.finished) >= hands)
    for hand, result in zip(match.finished, match.results, strict=True):
        for side, outcome in enumerate(result.sides):
            seats = [seat for seat in rules.seats if rules.side_of(seat) == side]
            tally = stats[at[seats[0]]]
            _tally(rules, tally, hand, seats)
            tally.hands += 1
            tally.points += outcome.points
            tally.bags += outcome.bags
    return match


def _tally(rules: Rules, side: SideStats, hand: HandState, seats: Iterable[Seat]) -> None:
    """Bid accuracy and nils for one side's hand (its ``seats``); the contract counts the
    tricks that score toward it."""
    contract = counted = 0
    for seat in seats:
        bid = hand.bids[seat] or 0
        tricks = hand.tricks_won[seat]
        if bid == 0:
            if hand.blind[seat]:
                side.blind_nil_bids += 1
                side.blind_nil_made += tricks == 0
            else:
                side.nil_bids += 1
                side.nil_made += tricks == 0
            if rules.nil_tricks_count_toward_bid:
                counted += tricks
        else:
            contract += bid
            counted += tricks
    if contract:
        side.contracts += 1
        side.exact += counted == contract
        side.over += counted > contract
        side.under += counted < contract


def _leader(match: Match) -> int | None:
    """The side that won the match, or of one stopped early the side ahead; None for a
    draw or sides level at the top."""
    places = match.places()
    return places.index(1) if places.count(1) == 1 else None


def play_pair(task: tuple[Rules, int, tuple[BotSpec, ...]]) -> list[GameResult]:
    """Every match of a duplicate pair: the same seed once for each turn of the lineup
    (in the partnership game, the two bots swapping seats)."""
    rules, seed, bots = task
    games = []
    for at in seatings(lineup_of(rules, len(bots))):
        stats = [SideStats() for _ in bots]
        match = _play(rules, seed, bots, at, stats, hands=MAX_HANDS)
        leader = _leader(match)
        seats = [seat for seat in rules.seats if rules.side_of(seat) == leader]
        winner = at[seats[0]] if seats else None
        games.append(GameResult(seed, at, winner, not match.is_over, len(match.finished), stats))
    return games


def play_deal(task: tuple[Rules, int, tuple[BotSpec, ...]]) -> DealResult:
    """Every play of a duplicate deal: the first hand of the match seeded ``seed``, from
    0-0, once for each turn of the lineup."""
    rules, seed, bots = task
    stats = [SideStats() for _ in bots]
    plays = []
    for at in seatings(lineup_of(rules, len(bots))):
        result = _play(rules, seed, bots, at, stats, hands=1).results[0]
        plays.append(
            Seating(
                at[: len(result.sides)],
                tuple(side.points for side in result.sides),
                tuple(side.bags for side in result.sides),
            )
        )
    return DealResult(seed, plays, stats)


def machine() -> str:
    """The machine and the Python a report was made on."""
    return f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}"


def summarise_matches(
    pairs: list[list[GameResult]],
    *,
    bots: tuple[str, ...],
    seed: int,
    rules: Rules,
    workers: int,
) -> MatchSummary:
    """The report of the played pairs (in seed order)."""
    wins = [0] * len(bots)
    draws = capped = hands = games = 0
    sides = [SideStats() for _ in bots]
    pair_diffs: list[float] = []
    for pair in pairs:
        diff = 0
        pair_hands = 0
        for game in pair:
            if game.winner is None:
                draws += 1
            else:
                wins[game.winner] += 1
            games += 1
            capped += game.capped
            hands += game.hands
            pair_hands += game.hands
            for total, side in zip(sides, game.sides, strict=True):
                total.add(side)
            diff += game.sides[0].points - game.sides[1].points
        pair_diffs.append(diff / max(pair_hands, 1))
    score_a = wins[0] + draws / 2
    low, high = wilson_interval(score_a, games)
    diff_mean, diff_low, diff_high = mean_interval(pair_diffs)
    return MatchSummary(
        bots=bots,
        matches=len(pairs),
        games=games,
        seed=seed,
        rules=rules,
        workers=workers,
        machine=machine(),
        wins=tuple(wins),
        draws=draws,
        win_rate_a=score_a / games if games else 0.0,
        win_rate_a_ci95=(low, high),
        points_per_hand_diff=diff_mean,
        points_per_hand_diff_ci95=(diff_low, diff_high),
        hands=hands,
        capped=capped,
        sides=tuple(side.summary() for side in sides),
    )


def summarise_deals(
    deals: list[DealResult],
    *,
    bots: tuple[str, ...],
    seed: int,
    rules: Rules,
    workers: int,
) -> DealSummary:
    """The report of the played deals (in seed order): each pair's mean margin per hand
    with its 95% interval (mean ± 1.96 sd/√n over the deals), each bot's edge over the
    table, and each bot's figures over its hands.

    >>> plays = [[Seating((0, 1), (points, 0), (0, 0))] for points in (10, 30)]
    >>> deals = [DealResult(seed, p, [SideStats(), SideStats()]) for seed, p in enumerate(plays)]
    >>> summary = summarise_deals(deals, bots=("x", "y"), seed=0, rules=Rules(), workers=1)
    >>> summary.margin.per_hand, [round(end, 1) for end in summary.margin.ci95]
    (20.0, [0.4, 39.6])
    """
    # A hand played from 0-0 scores a bag as +1 and never reaches a penalty, so a second
    # figure charges each bag its share of the penalty, the cost a bag has in a match.
    per_bag = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    sides = [SideStats() for _ in bots]
    for deal in deals:
        for total, side in zip(sides, deal.sides, strict=True):
            total.add(side)
    edges = []
    for bot in range(len(bots)):
        mean, low, high = mean_interval([deal.edge(bot) for deal in deals])
        edges.append(Edge(mean, (low, high)))
    return DealSummary(
        bots=bots,
        lineup=tuple(bots[index] for index in lineup_of(rules, len(bots))),
        deals=len(deals),
        seed=seed,
        rules=rules,
        workers=workers,
        machine=machine(),
        bag_cost=per_bag,
        margins=tuple(
            _margin(deals, a, b, per_bag) for a, b in itertools.combinations(range(len(bots)), 2)
        ),
        edges=tuple(edges),
        sides=tuple(side.summary() for side in sides),
    )


def _margin(deals: list[DealResult], a: int, b: int, per_bag: float) -> Margin:
    """Bot ``a``'s margin over bot ``b`` across the deals."""
    values = [deal.margin(a, b) for deal in deals]
    mean, low, high = mean_interval(values)
    costed, c_low, c_high = mean_interval([deal.margin(a, b, per_bag=per_bag) for deal in deals])
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return Margin(a, b, mean, (low, high), sd, costed, (c_low, c_high))


def run_matches(
    bots: Sequence[BotSpec],
    *,
    matches: int,
    seed: int,
    rules: Rules | None = None,
    workers: int = 1,
    progress: bool = True,
) -> MatchSummary:
    """Play ``matches`` duplicate pairs (seeds ``seed``, ``seed + 1``, …) of bot A
    against bot B and summarise them. Matches are the partnership game's: cutthroat plays
    deals (:func:`run_deals`)."""
    rules = rules or Rules()
    if not rules.partnerships:
        raise ValueError("duplicate matches are the partnership game's; cutthroat plays deals")
    specs = tuple(bots)
    tasks = [(rules, seed + i, specs) for i in range(matches)]
    results = play_all(play_pair, tasks, workers, _label(specs, "matches", progress))
    names = tuple(name for name, _ in specs)
    return summarise_matches(results, bots=names, seed=seed, rules=rules, workers=workers)


def run_deals(
    bots: Sequence[BotSpec],
    *,
    deals: int,
    seed: int,
    rules: Rules | None = None,
    workers: int = 1,
    progress: bool = True,
) -> DealSummary:
    """Play ``deals`` duplicate deals (the first hands of the matches seeded ``seed``,
    ``seed + 1``, …) with two bots, A and B, or in cutthroat one a seat, and summarise
    them; the same seed gives the same figures whatever the number of ``workers`` (the
    decision times aside). The rules (the defaults for None) say which game is played."""
    rules = rules or Rules()
    specs = tuple(bots)
    what = "deals" if rules.partnerships else "cutthroat deals"
    results = play_all(
        play_deal,
        [(rules, seed + i, specs) for i in range(deals)],
        workers,
        _label(specs, what, progress),
    )
    names = tuple(name for name, _ in specs)
    return summarise_deals(results, bots=names, seed=seed, rules=rules, workers=workers)


def _label(bots: Sequence[BotSpec], what: str, progress: bool) -> str | None:
    """The progress bar's name, or None for no bar."""
    return f"{' vs '.join(name for name, _ in bots)}: {what}" if progress else None


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
