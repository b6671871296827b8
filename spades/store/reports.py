"""The figures the Explore pages and the Leaderboard draw, read in SQL and handed out as
plain rows, which :mod:`spades.stats` makes into frames.

Every query groups, counts or limits in the database, so what comes back stays small
however many games are stored: a few hundred tallies of bids, a row a day or a line-up
or a rated subject, a flag a decided game, a step a rated game of one subject.

A report of the partnership game reads its hands by team (``hands``), and one of cutthroat
by player (``player_hands``): which one, the games chosen say
(:attr:`~spades.store.rows.GameFilter.cutthroat`). My stats are seen from South: a player
sits South in their own games, and in one that is not theirs South stands in for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Final, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spades.engine.cards import SOUTH
from spades.engine.rules import Rules
from spades.store.ratings import PERSON
from spades.store.rows import GameFilter, Selection
from spades.store.schema import (
    CUTTHROAT_3,
    PARTNERSHIP,
    SEAT_KEYS,
    TEAM_KEYS,
    games,
    hands,
    player_hands,
    players,
    rating_events,
    ratings,
)

# A bid, blind flag and tricks are grouped as one number (see _code), which SQLite groups
# faster than three columns: tricks and bids run to 13 in the partnership game and to 17
# in three-handed cutthroat.
_TEAM_BLIND: Final = 14
_PLAYER_BLIND: Final = 20
#: The partnership game, which says which team each seat plays for.
_TEAMS: Final = Rules()


class MyCounts(NamedTuple):
    """What My stats counts of the games chosen: games, won and decided (and in cutthroat
    South's mean place); then of their hands: hands, games with a hand, the points a hand
    of South's side and of the others', contracts set and made or set, nils and nils made
    (blind ones too) and bags. A side is North and South in the partnership game, and in
    cutthroat South alone."""

    games: int
    wins: int
    decided: int
    mean_place: float | None
    hands: int
    scored_games: int
    points: float | None
    points_others: float | None
    sets: int
    contracts: int
    nils: int
    nils_made: int
    bags: int


class ExtremeHand(NamedTuple):
    """A hand among the best or worst of South's side: its points, its game's start and id,
    its number, and South's bid, blind flag and tricks (with North's in the partnership
    game; None in cutthroat)."""

    points: int
    started_at: datetime
    game: str
    hand: int
    bid: int
    blind: bool
    tricks: int
    partner_bid: int | None = None
    partner_blind: bool | None = None
    partner_tricks: int | None = None


class DayResults(NamedTuple):
    """The games decided on a day (by their start) and how many South's side won."""

    day: date
    games: int
    wins: int


class BidTally(NamedTuple):
    """How often a seat (``three``: of a three-handed game) with a player of ``level`` bid
    ``bid`` (``blind``: blind nil) and took ``taken`` tricks."""

    seat: int
    three: bool
    level: str
    bid: int
    blind: bool
    taken: int
    n: int


class Matchup(NamedTuple):
    """A line-up of bots (by seat) under a rule set: its simulated partnership games, N/S's
    wins of the decided ones, and the mean final scores and hands."""

    level_n: str
    level_s: str
    level_e: str
    level_w: str
    rule_set: str
    games: int
    ns_wins: int
    decided: int
    mean_ns: float | None
    mean_ew: float | None
    mean_hands: float | None


class SubjectRecord(NamedTuple):
    """A rated subject's games that the board counts, and its wins of them."""

    subject: str
    games: int
    wins: int


class SubjectHands(NamedTuple):
    """Hand figures of a rated subject at the seats it held in a kind of hand (several
    rows a subject: their sums are its figures): hands, numeric bids and exact ones, nils
    and nils made, and bags (its team's, or in cutthroat its own)."""

    subject: str
    hands: int
    bids: int
    exact: int
    nils: int
    nils_made: int
    bags: int


class SubjectRating(NamedTuple):
    """A subject's current rating, and a person's display name (None for a bot, or for a
    person whose player is gone)."""

    subject: str
    mu: float
    sigma: float
    name: str | None


class RatingStep(NamedTuple):
    """What one rated game did to a subject's rating, and whether it won."""

    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    at: datetime
    won: bool


@dataclass(frozen=True, slots=True)
class BoardFilter:
    """Which rated games the board counts: since when, under which rule set (the
    ``games.rule_set`` label), and whether bot levels are listed."""

    since: datetime | None = None
    rule_set: str | None = None
    people_only: bool = False

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on ``rating_events`` joined with ``games``."""
        parts: list[sa.ColumnElement[bool]] = []
        if self.since is not None:
            parts.append(rating_events.c.at >= self.since)
        if self.rule_set is not None:
            parts.append(games.c.rule_set == self.rule_set)
        if self.people_only:
            parts.append(rating_events.c.subject.startswith(PERSON, autoescape=True))
        return sa.and_(sa.true(), *parts)


def _count_true(*conditions: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    """SQL: how many of ``conditions`` hold, summed over the rows."""
    expr: sa.ColumnElement[Any] = sa.case((conditions[0], 1), else_=0)
    for condition in conditions[1:]:
        expr = expr + sa.case((condition, 1), else_=0)
    return sa.func.coalesce(sa.func.sum(expr), 0)


def _you_won() -> sa.ColumnElement[bool]:
    """SQL: South won the game, with North in the partnership game (team 0) or alone in
    cutthroat (seat 2)."""
    g = games.c
    return sa.or_(
        sa.and_(g.variant == PARTNERSHIP, g.winner == 0),
        sa.and_(g.variant != PARTNERSHIP, g.winner == SOUTH),
    )


def _hand_figures(
    game: sa.ColumnElement[Any],
    points: sa.ColumnElement[Any],
    made: sa.ColumnElement[Any],
    bid: sa.ColumnElement[Any],
    tricks: sa.ColumnElement[Any],
    bags: sa.ColumnElement[Any],
) -> list[sa.ColumnElement[Any]]:
    """SQL: My stats' figures of a side's hands (see :class:`MyCounts`): hands, games with
    a hand, points a hand, contracts set and made or set, nils and nils made, and bags;
    South's ``bid`` and ``tricks``, the side's ``points``, ``made`` and ``bags``."""
    return [
        sa.func.count(),
        sa.func.count(sa.distinct(game)),
        sa.func.avg(points),
        _count_true(made.is_(False)),
        sa.func.count(made),
        _count_true(bid == 0),
        _count_true(sa.and_(bid == 0, tricks == 0)),
        sa.func.coalesce(sa.func.sum(bags), 0),
    ]


def _code(
    bid: sa.ColumnElement[Any], blind: sa.ColumnElement[Any], tricks: sa.ColumnElement[Any], at: int
) -> sa.ColumnElement[Any]:
    """SQL: a bid, its blind flag and the tricks taken as one number, the flag worth
    ``at`` (more than the most tricks) and a bid twice that."""
    return (bid * 2 + sa.cast(blind, sa.Integer)) * at + tricks


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


def _seat_hands(selection: Selection) -> sa.Select[Any]:
    """The hands South played in the selected cutthroat games."""
    p, g = player_hands.c, games.c
    return (
        sa.select()
        .join_from(player_hands, games, p.game == g.num)
        .where(selection.clause(), g.variant != PARTNERSHIP, p.seat == SOUTH)
    )


def _team_hands(selection: Selection) -> sa.Select[Any]:
    """The hands of the selected partnership games."""
    return (
        sa.select().join_from(hands, games, hands.c.game == games.c.num).where(selection.clause())
    )


class Reports:
    """The figures of one store's games, each read in one connection (``read`` gives the
    store's: :meth:`spades.store.Store.reports` is this store's)."""

    def __init__(self, read: Callable[[], AbstractContextManager[Connection]]) -> None:
        self._read = read

    def _rows(self, stmt: sa.Select[Any] | sa.CompoundSelect[Any]) -> list[tuple[Any, ...]]:
        with self._read() as conn:
            return [tuple(row) for row in conn.execute(stmt)]

    # ---------------------------------------------------------------------- my stats
    def my_counts(self, selection: Selection) -> MyCounts:
        """My stats' counts of the selected games (see :class:`MyCounts`)."""
        g = games.c
        with self._read() as conn:
            if not selection.cutthroat:
                h = hands.c
                played, wins, decided = conn.execute(
                    sa.select(
                        sa.func.count(), _count_true(_you_won()), sa.func.count(g.winner)
                    ).where(selection.clause())
                ).one()
                *figures, others = conn.execute(
                    _team_hands(selection).add_columns(
                        *_hand_figures(
                            h.game, h.points_ns, h.made_ns, h.bid_s, h.tricks_s, h.bags_ns
                        ),
                        sa.func.avg(h.points_ew),
                    )
                ).one()
                place = None
            else:
                p = player_hands.c
                played, wins, decided, place = conn.execute(
                    sa.select(
                        sa.func.count(),
                        _count_true(g.winner == SOUTH),
                        sa.func.count(g.winner),
                        sa.func.avg(g.place_s),
                    ).where(selection.clause(), g.variant != PARTNERSHIP)
                ).one()
                figures = list(
                    conn.execute(
                        _seat_hands(selection).add_columns(
                            *_hand_figures(p.game, p.points, p.made, p.bid, p.tricks, p.bags)
                        )
                    ).one()
                )
                others = conn.execute(
                    sa.select(sa.func.avg(p.points))
                    .join_from(player_hands, games, p.game == g.num)
                    .where(selection.clause(), g.variant != PARTNERSHIP, p.seat != SOUTH)
                ).scalar_one()
        hand_count, scored, points, *rest = figures
        sets, contracts, nils, nils_made, bags = (int(n) for n in rest)
        return MyCounts(
            games=int(played),
            wins=int(wins),
            decided=int(decided),
            mean_place=_float(place),
            hands=int(hand_count),
            scored_games=int(scored),
            points=_float(points),
            points_others=_float(others),
            sets=sets,
            contracts=contracts,
            nils=nils,
            nils_made=nils_made,
            bags=bags,
        )

    def results(self, selection: Selection) -> list[bool]:
        """Whether South's side won each decided game of the selection, oldest first."""
        g = games.c
        won = self._rows(
            sa.select(sa.case((_you_won(), 1), else_=0))
            .where(selection.clause(), g.winner.is_not(None))
            .order_by(g.finished_at, g.num)
        )
        return [bool(row[0]) for row in won]

    def daily_results(self, selection: Selection) -> list[DayResults]:
        """The selection's decided games and South's side's wins, a day at a time."""
        g = games.c
        day = sa.func.date(g.started_at)
        rows = self._rows(
            sa.select(day, sa.func.count(), _count_true(_you_won()))
            .where(selection.clause(), g.winner.is_not(None))
            .group_by(day)
            .order_by(day)
        )
        # SQLite gives a day as text, PostgreSQL as a date.
        return [
            DayResults(date.fromisoformat(d) if isinstance(d, str) else d, int(n), int(w))
            for d, n, w in rows
        ]

    def extreme_hands(self, selection: Selection, count: int) -> list[ExtremeHand]:
        """The ``count`` hands in which South's side scored most, then the ``count`` in
        which it scored least, each the newest first among equals (a hand may be in both)."""
        if not selection.cutthroat:
            h = hands.c
            points, hand_no = h.points_ns, h.hand_no
            base = _team_hands(selection).add_columns(
                points,
                games.c.started_at,
                games.c.id,
                hand_no,
                h.bid_s,
                h.blind_s,
                h.tricks_s,
                h.bid_n,
                h.blind_n,
                h.tricks_n,
            )
        else:
            p = player_hands.c
            points, hand_no = p.points, p.hand_no
            base = _seat_hands(selection).add_columns(
                points, games.c.started_at, games.c.id, hand_no, p.bid, p.blind, p.tricks
            )
        newest = (games.c.num.desc(), hand_no)
        best = self._rows(base.order_by(points.desc(), *newest).limit(count))
        worst = self._rows(base.order_by(points, *newest).limit(count))
        return [ExtremeHand(*row) for row in (*best, *worst)]

    # ------------------------------------------------------------------ bid accuracy
    def bid_tallies(self, game_filter: GameFilter) -> list[BidTally]:
        """How often each (seat, player's level, bid, blind, tricks taken) occurred in the
        games of the filter, in one query: a few hundred rows however many hands there are."""
        g = games.c
        parts = []
        if not game_filter.cutthroat:
            blind_at, h = _TEAM_BLIND, hands.c
            for seat, key in enumerate(SEAT_KEYS):
                level = g[f"level_{key}"]
                code = _code(h[f"bid_{key}"], h[f"blind_{key}"], h[f"tricks_{key}"], blind_at)
                parts.append(
                    _team_hands(game_filter)
                    .add_columns(sa.literal(seat), sa.false(), level, code, sa.func.count())
                    .group_by(level, code)
                )
        else:
            blind_at, p = _PLAYER_BLIND, player_hands.c
            code = _code(p.bid, p.blind, p.tricks, blind_at)
            for seat, key in enumerate(SEAT_KEYS):
                level = g[f"level_{key}"]
                parts.append(
                    sa.select(
                        sa.literal(seat), g.variant == CUTTHROAT_3, level, code, sa.func.count()
                    )
                    .join_from(player_hands, games, p.game == g.num)
                    .where(game_filter.clause(), g.variant != PARTNERSHIP, p.seat == seat)
                    .group_by(g.variant, level, code)
                )
        tallies = []
        for seat, three, level, code, n in self._rows(sa.union_all(*parts)):
            bid, rest = divmod(int(code), 2 * blind_at)
            blind, taken = divmod(rest, blind_at)
            tallies.append(BidTally(int(seat), bool(three), level, bid, bool(blind), taken, int(n)))
        return tallies

    # ----------------------------------------------------------------------- bot lab
    def matchups(self, game_filter: GameFilter) -> list[Matchup]:
        """The simulated partnership games of the filter, by line-up and rule set."""
        g = games.c
        lineup = (g.level_n, g.level_s, g.level_e, g.level_w, g.rule_set)
        rows = self._rows(
            sa.select(
                *lineup,
                sa.func.count(),
                _count_true(g.winner == 0),
                sa.func.count(g.winner),
                sa.func.avg(g.score_ns),
                sa.func.avg(g.score_ew),
                sa.func.avg(g.hands_count),
            )
            .where(game_filter.clause(), g.kind == "simulated", g.variant == PARTNERSHIP)
            .group_by(*lineup)
        )
        # The line-up and rule set, the counts, the means.
        return [
            Matchup._make((*row[:5], *map(int, row[5:8]), *map(_float, row[8:]))) for row in rows
        ]

    # ------------------------------------------------------------------- leaderboard
    def board_records(self, board: BoardFilter) -> list[SubjectRecord]:
        """Each rated subject's games that the board counts, and its wins of them."""
        e = rating_events.c
        rows = self._rows(
            _rated(e.subject, sa.func.count(), _count_true(e.won))
            .where(board.clause())
            .group_by(e.subject)
        )
        return [SubjectRecord(subject, int(n), int(won)) for subject, n, won in rows]

    def board_hands(self, board: BoardFilter) -> list[SubjectHands]:
        """The hand figures of each rated subject in the games the board counts, at the
        seats it held: a row for each seat of the partnership game and one for cutthroat's."""
        e, h, p = rating_events.c, hands.c, player_hands.c
        parts = [
            _subject_hands(
                h[f"bid_{key}"], h[f"tricks_{key}"], h[f"bags_{TEAM_KEYS[_TEAMS.side_of(seat)]}"]
            )
            .join(hands, h.game == e.game)
            .where(board.clause(), e.seats.bitwise_and(1 << seat) != 0)
            .group_by(e.subject)
            for seat, key in enumerate(SEAT_KEYS)
        ]
        # Cutthroat's hands, at every seat the subject held (there is one, or it was not rated).
        parts.append(
            _subject_hands(p.bid, p.tricks, p.bags)
            .join(player_hands, p.game == e.game)
            .where(board.clause(), e.seats.bitwise_rshift(p.seat).bitwise_and(1) != 0)
            .group_by(e.subject)
        )
        return [
            SubjectHands(row[0], *(int(n or 0) for n in row[1:]))
            for row in self._rows(sa.union_all(*parts))
        ]

    def ratings_of(self, subjects: Sequence[str]) -> list[SubjectRating]:
        """The current ratings of ``subjects``, with each person's display name."""
        r = ratings.c
        player = sa.and_(
            r.subject.startswith(PERSON, autoescape=True),
            players.c.id == sa.func.substr(r.subject, len(PERSON) + 1),
        )
        rows = self._rows(
            sa.select(r.subject, r.mu, r.sigma, players.c.name)
            .outerjoin(players, player)
            .where(r.subject.in_(subjects))
        )
        return [SubjectRating(s, float(mu), float(sigma), name) for s, mu, sigma, name in rows]

    def rating_steps(self, subject: str) -> list[RatingStep]:
        """What each rated game did to a subject's rating, in the order they were rated."""
        e = rating_events.c
        rows = self._rows(
            sa.select(e.mu_before, e.sigma_before, e.mu, e.sigma, e.at, e.won)
            .where(e.subject == subject)
            .order_by(e.at, e.game)
        )
        return [
            RatingStep(float(mu0), float(sigma0), float(mu), float(sigma), at, bool(won))
            for mu0, sigma0, mu, sigma, at, won in rows
        ]


def _rated(*columns: sa.ColumnElement[Any]) -> sa.Select[Any]:
    """A query of the rated games (an event joined with its game)."""
    return sa.select(*columns).join_from(rating_events, games, games.c.num == rating_events.c.game)


def _subject_hands(
    bid: sa.ColumnElement[Any], tricks: sa.ColumnElement[Any], bags: sa.ColumnElement[Any]
) -> sa.Select[Any]:
    """The hand figures of a seat's ``bid``, ``tricks`` and ``bags``, summed by subject."""
    return _rated(
        rating_events.c.subject,
        sa.func.count(),
        _count_true(bid > 0),
        _count_true(sa.and_(bid > 0, tricks == bid)),
        _count_true(bid == 0),
        _count_true(sa.and_(bid == 0, tricks == 0)),
        sa.func.sum(bags),
    )
