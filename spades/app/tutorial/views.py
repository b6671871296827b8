"""What the Learn page may draw: view models built from South's observation.

The page never sees a hand's full state. The practice hand and the exercises hand it
these frozen values instead, taken from ``state.observation(SOUTH)``: what the learner
may know at the table, and nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from spades.cards import Action, Card, Seat
from spades.observation import Observation

Plays = tuple[tuple[Seat, Card], ...]


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as South sees it: every seat's bid and tricks, the dealer, who is to act,
    the cards on the table, whether spades are broken, and, for a finished trick, its
    winner (``None`` while the trick is being played)."""

    bids: tuple[int | None, int | None, int | None, int | None]
    blind: tuple[bool, bool, bool, bool]
    tricks_won: tuple[int, int, int, int]
    dealer: Seat
    to_act: Seat | None
    trick: Plays
    spades_broken: bool
    winner: Seat | None = None


def table_view(seen: Observation) -> TableView:
    """The table as ``seen`` shows it now, with the trick being played."""
    return TableView(
        bids=seen.bids,
        blind=seen.blind,
        tricks_won=seen.tricks_won,
        dealer=seen.dealer,
        to_act=seen.current_player,
        trick=seen.trick,
        spades_broken=seen.spades_broken,
    )


def finished_trick_view(before: Observation, after: Observation) -> TableView:
    """The table of ``before`` with the trick that ``after`` has just finished lying on it.

    The seats' counts are those before the trick; the cards, the broken marker and the
    winner are the finished trick's, as ``after`` saw it played.
    """
    last = after.tricks[-1]
    return replace(
        table_view(before),
        to_act=None,
        trick=tuple(last.plays()),
        spades_broken=after.spades_broken,
        winner=last.winner,
    )


@dataclass(frozen=True, slots=True)
class PracticeView:
    """The practice hand as the learner sees it.

    ``hand`` is South's cards; ``legal`` the actions the engine allows now (empty unless
    it is South's turn); ``refused`` the engine's reason for each card or bid on offer
    that it refuses; ``bids`` the bids on offer (nil to 13); ``turn`` the number of
    actions taken so far, which names the position a hint is for; ``last_trick`` and
    ``last_winner`` the last finished trick, if any.
    """

    table: TableView
    bidding: bool
    hand: tuple[Card, ...]
    legal: frozenset[Action]
    refused: Mapping[Action, str]
    bids: tuple[int, ...]
    turn: int
    last_trick: Plays
    last_winner: Seat | None
