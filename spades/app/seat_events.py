"""What a seat may be told of the moves at its table, one after another: the match's one
log (its events) with each move made public, or kept to the seat whose it is.

A page that has played out a table's first ``since`` moves asks for the ones after them
and plays those out; the Play controller and a shared table give the same events for the
same moves. Every field is plain data (:meth:`SeatEvent.to_dict`), so it can be sent to
the browser: a bid, a look, a card played and a claim are public; a card passed to a
partner is told to the seat that passed it, and to any other seat only as a pass.

>>> from spades.engine.rules import Rules
>>> from spades.engine.match import Match
>>> from spades.engine.cards import LOOK, bid_action
>>> m = Match(Rules(), seed=3)
>>> event = m.apply(bid_action(3) if bid_action(3) in m.legal_actions() else LOOK)
>>> [e.kind for e in seat_events(m, 2, 0)], seat_events(m, 2, 1)
(['bid'], [])
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

from spades.engine.cards import (
    BLIND_NIL,
    CLAIM,
    LOOK,
    Action,
    JokerRanking,
    Seat,
    action_card,
    bid_of,
    card_str,
    passed_card,
)
from spades.engine.match import Match

Kind = Literal["bid", "blind_nil", "look", "pass", "card", "claim"]


@dataclass(frozen=True, slots=True)
class SeatEvent:
    """One move as a seat may be told it."""

    #: The move's number in the match, from 0, and the number of its hand, from 1.
    ply: int
    hand: int
    seat: Seat
    kind: Kind
    #: The tricks bid (0 is nil), for a bid.
    bid: int | None = None
    #: The card (``AS``, ``BJ``), for a card played, or passed when the seat may know it.
    card: str | None = None
    #: The seat that won the trick this move ended.
    won_by: Seat | None = None
    #: This move ended the hand (its score is in the hand's public record).
    hand_over: bool = False

    def to_dict(self) -> dict[str, object]:
        """The event as JSON-ready data."""
        return asdict(self)


def seat_events(match: Match, seat: Seat | None, since: int) -> list[SeatEvent]:
    """The moves of ``match`` after its first ``since``, as ``seat`` may be told them (a
    spectator, None, is told only what is public); ``ValueError`` for a ``since`` that is
    not one of the match's move counts."""
    if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= match.ply:
        raise ValueError(f"since must be a move count from 0 to {match.ply}, not {since!r}")
    jokers = match.rules.joker_deck
    hands = match.finished if match.is_over else [*match.finished, match.hand]
    told: list[SeatEvent] = []
    ply = 0
    for number, hand in enumerate(hands, 1):
        for event in hand.events:
            if ply >= since:
                kind, bid, card = _move(event.action, event.seat == seat, jokers)
                told.append(
                    SeatEvent(
                        ply=ply,
                        hand=number,
                        seat=event.seat,
                        kind=kind,
                        bid=bid,
                        card=card,
                        won_by=event.trick.winner if event.trick is not None else None,
                        hand_over=event.result is not None,
                    )
                )
            ply += 1
    return told


def _move(
    action: Action, own: bool, jokers: JokerRanking | None
) -> tuple[Kind, int | None, str | None]:
    """What kind of move ``action`` is, its bid, and its card as a seat may know it (a card
    passed only when the move is the seat's ``own``)."""
    card = action_card(action)
    if card is not None:
        return "card", None, card_str(card, jokers=jokers)
    passed = passed_card(action)
    if passed is not None:
        return "pass", None, card_str(passed, jokers=jokers) if own else None
    if action == CLAIM:
        return "claim", None, None
    if action == LOOK:
        return "look", None, None
    if action == BLIND_NIL:
        return "blind_nil", 0, None
    return "bid", bid_of(action), None
