"""What the store writes into rows, reads out of them and filters them by: labels, hand rows,
:class:`GameInfo`, :class:`GameFilter` and :class:`MyGames`.

The labels name a game's variant, rule set and bot levels in one short text each, so that
analytics can group and filter games without loading their rules; :func:`hand_rows` gives
the scored hands of a partnership match in the ``hands`` table's columns, and
:func:`player_hand_rows` those of a cutthroat match in ``player_hands``'. A game's row
comes out as a :class:`GameInfo`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any, Final, Protocol

import sqlalchemy as sa

from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.scoring import TeamResult
from spades.store.schema import (
    CUTTHROAT_3,
    CUTTHROAT_4,
    HUMAN,
    NO_SEAT,
    PARTNERSHIP,
    SEAT_KEYS,
    TEAM_KEYS,
    games,
    hands,
    player_hands,
)

#: The columns of :func:`hand_rows`' rows, and of :func:`player_hand_rows`'.
HAND_COLUMNS: Final = tuple(c.name for c in hands.c if c.name != "game")
PLAYER_HAND_COLUMNS: Final = tuple(c.name for c in player_hands.c if c.name != "game")


def variant_of(rules: Rules) -> str:
    """The game a rule set plays, one of :data:`~spades.store.schema.VARIANTS`.

    >>> variant_of(Rules()), variant_of(Rules(players=3, partnerships=False))
    ('partnership', 'cutthroat3')
    """
    if rules.partnerships:
        return PARTNERSHIP
    return CUTTHROAT_3 if rules.players == 3 else CUTTHROAT_4


def rule_set_label(rules: Rules) -> str:
    """A short name for a rule set: ``standard``, or the options that differ from it
    (cutthroat's own among them, so that its rule sets are never the partnership game's).

    >>> rule_set_label(Rules())
    'standard'
    >>> rule_set_label(Rules(target_score=300, jokers=True))
    'target_score=300, jokers=True'
    >>> rule_set_label(Rules(players=3, partnerships=False))
    'players=3, partnerships=False'
    """
    standard = {f.name: f.default for f in dataclasses.fields(Rules)}
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if standard[k] != v]
    return ", ".join(changed) or "standard"


def bot_levels_label(levels: Sequence[str]) -> str:
    """The distinct bot levels of a game's seats, joined with ``+`` (humans left out).

    >>> bot_levels_label(["random", "human", "basic", "random"])
    'basic+random'
    """
    return "+".join(sorted({level for level in levels if level not in (HUMAN, NO_SEAT)}))


def utc_now() -> datetime:
    """The time now in UTC, without a zone, as the ``DateTime`` columns hold it."""
    return datetime.now(UTC).replace(tzinfo=None)


def _lines(side: TeamResult) -> list[dict[str, Any]]:
    """The breakdown of a side's points, as the ``breakdown`` columns keep it."""
    return [{"kind": line.kind, "points": line.points, "text": line.text} for line in side.lines]


def hand_rows(match: Match) -> list[dict[str, Any]]:
    """One dict a finished hand of a partnership ``match``, in the ``hands`` table's
    columns."""
    rows: list[dict[str, Any]] = []
    for number, (hand, result) in enumerate(zip(match.finished, match.results, strict=True), 1):
        row: dict[str, Any] = {
            "hand_no": number,
            "dealer": hand.dealer,
            "claimed_by": hand.claimed_by,
        }
        for seat, key in enumerate(SEAT_KEYS):
            row[f"bid_{key}"] = hand.bids[seat]
            row[f"blind_{key}"] = hand.blind[seat]
            row[f"tricks_{key}"] = hand.tricks_won[seat]
        breakdown = {}
        for team, key in zip(result.teams, TEAM_KEYS, strict=True):
            row[f"team_bid_{key}"] = team.bid
            row[f"team_tricks_{key}"] = team.tricks
            row[f"points_{key}"] = team.points
            row[f"bags_{key}"] = team.bags
            row[f"bags_before_{key}"] = team.bags_before
            row[f"bags_after_{key}"] = team.bags_after
            row[f"penalty_{key}"] = team.penalty
            row[f"made_{key}"] = team.made
            breakdown[key] = _lines(team)
        row["breakdown"] = json.dumps(breakdown, ensure_ascii=False)
        rows.append(row)
    ns = ew = 0
    for row in rows:
        ns += row["points_ns"]
        ew += row["points_ew"]
        row["score_ns"], row["score_ew"] = ns, ew
    return rows


def player_hand_rows(match: Match) -> list[dict[str, Any]]:
    """One dict a player a finished hand of a cutthroat ``match``, in the
    ``player_hands`` table's columns, hand by hand and seat by seat (a player knocked out
    has none for the hands they sat out)."""
    rows: list[dict[str, Any]] = []
    scores = [0] * match.rules.players
    for number, (hand, result) in enumerate(zip(match.finished, match.results, strict=True), 1):
        for seat, side in enumerate(result.players):
            if seat in hand.out:
                continue
            scores[seat] += side.points
            rows.append(
                {
                    "hand_no": number,
                    "seat": seat,
                    "dealt": hand.dealer == seat,
                    "claimed": hand.claimed_by == seat,
                    "bid": hand.bids[seat],
                    "blind": hand.blind[seat],
                    "tricks": hand.tricks_won[seat],
                    "points": side.points,
                    "bags": side.bags,
                    "bags_before": side.bags_before,
                    "bags_after": side.bags_after,
                    "penalty": side.penalty,
                    "score": scores[seat],
                    "made": side.made,
                    "breakdown": json.dumps(_lines(side), ensure_ascii=False),
                }
            )
    return rows


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A stored game's facts, one field a column of the ``games`` table (its rules and
    its row number left out).

    The seats' columns end in a seat's letter (``n``, ``e``, ``s``, ``w``) and the
    teams' in ``ns`` and ``ew``; cutthroat's scores, bags and places are None in the
    partnership game and at a seat the game does not have.
    """

    id: str
    kind: str
    status: str
    started_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    seed: int
    rule_set: str
    player_n: str
    player_e: str
    player_s: str
    player_w: str
    level_n: str
    level_e: str
    level_s: str
    level_w: str
    bot_levels: str
    undo_allowed: bool
    undo_used: bool
    actions_count: int
    digest: str
    hands_count: int
    score_ns: int
    score_ew: int
    bags_ns: int
    bags_ew: int
    winner: int | None
    outcome: str
    variant: str
    score_n: int | None
    score_e: int | None
    score_s: int | None
    score_w: int | None
    bags_n: int | None
    bags_e: int | None
    bags_s: int | None
    bags_w: int | None
    place_n: int | None
    place_e: int | None
    place_s: int | None
    place_w: int | None
    owner: str | None
    imported: bool
    at_table: bool

    @classmethod
    def of(cls, row: sa.Row[Any]) -> GameInfo:
        """The facts of a ``games`` row (a row of :data:`INFO_COLUMNS` or of every column)."""
        values = row._mapping
        return cls(**{name: values[name] for name in INFO_FIELDS})


#: The names of :class:`GameInfo`'s fields, in order.
INFO_FIELDS: Final = tuple(f.name for f in dataclasses.fields(GameInfo))
#: The ``games`` columns a :class:`GameInfo` is read from.
INFO_COLUMNS: Final = tuple(games.c[name] for name in INFO_FIELDS)


@dataclass(frozen=True, slots=True)
class GameFilter:
    """Which games an analytics query covers; ``None`` means no restriction.

    ``variants`` keeps games of those :data:`~spades.store.schema.VARIANTS`: a chart of
    the partnership game's teams names one, and so does one of cutthroat's players.

    ``owner`` keeps one player's games only, and with ``others_finished`` also every game
    that is over, whoever played it; a game in play is never shown to anyone but its owner.
    """

    kinds: tuple[str, ...] | None = None
    variants: tuple[str, ...] | None = None
    start: date | None = None
    end: date | None = None
    rule_sets: tuple[str, ...] | None = None
    bot_levels: tuple[str, ...] | None = None
    finished_only: bool = True
    owner: str | None = None
    others_finished: bool = False

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on the ``games`` table."""
        c = games.c
        parts: list[sa.ColumnElement[bool]] = []
        if self.finished_only:
            parts.append(c.status != "playing")
        if self.owner is not None:
            mine = c.owner == self.owner
            parts.append(sa.or_(mine, c.status != "playing") if self.others_finished else mine)
        if self.kinds is not None:
            parts.append(c.kind.in_(self.kinds))
        if self.variants is not None:
            parts.append(c.variant.in_(self.variants))
        if self.start is not None:
            parts.append(c.started_at >= datetime.combine(self.start, time.min))
        if self.end is not None:
            # The end of the day rather than the next midnight: date.max has no next day.
            parts.append(c.started_at <= datetime.combine(self.end, time.max))
        if self.rule_sets is not None:
            parts.append(c.rule_set.in_(self.rule_sets))
        if self.bot_levels is not None:
            allowed = (*self.bot_levels, HUMAN, NO_SEAT)
            parts.extend(getattr(c, f"level_{k}").in_(allowed) for k in SEAT_KEYS)
        return sa.and_(sa.true(), *parts)

    @property
    def cutthroat(self) -> bool:
        """Whether the games kept are cutthroat's only (every variant named is one of
        cutthroat's), whose reports count players where the partnership game's count teams.

        >>> GameFilter().cutthroat, GameFilter(variants=(CUTTHROAT_3,)).cutthroat
        (False, True)
        """
        return self.variants is not None and PARTNERSHIP not in self.variants


class Selection(Protocol):
    """Which games a report covers: a condition on the ``games`` table, and whether they
    are cutthroat's (see :attr:`GameFilter.cutthroat`)."""

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition."""
        ...

    @property
    def cutthroat(self) -> bool:
        """Whether the games are cutthroat's only."""
        ...


@dataclass(frozen=True, slots=True)
class MyGames:
    """The games My stats covers: the player's own, and when chosen the bot lab's and the
    finished games of other people (and of nobody: imported and older ones), all within
    the filters of ``games``. A player id that owns nothing (``""``) leaves only the chosen."""

    games: GameFilter
    player: str
    bot_lab: bool = False
    others: bool = False

    def clause(self) -> sa.ColumnElement[bool]:
        """The SQL condition on the ``games`` table."""
        c = games.c
        whose: list[sa.ColumnElement[bool]] = [c.owner == self.player]
        if self.bot_lab:
            whose.append(c.kind == "simulated")
        if self.others:
            # A game in play is only ever its owner's to see.
            whose.append(sa.and_(c.kind != "simulated", c.status != "playing"))
        return sa.and_(self.games.clause(), sa.or_(*whose))

    @property
    def cutthroat(self) -> bool:
        """Whether the games are cutthroat's only."""
        return self.games.cutthroat
