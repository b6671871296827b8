"""What a seat may do now, in the engine's words: the action a click on a card in the hand
stands for, why a bid or card is refused to a seat (another seat is to act, or the
engine's own reason), which of its moves it may take back, and what a bot plays for it.
The Play controller and a shared table answer their pages with these.
"""

from __future__ import annotations

from collections.abc import Container, Sequence

from spades.bots import bot_seed, live_bot
from spades.engine.cards import EXCHANGE_BASE, LOOK, Action, Card, Seat, card_action
from spades.engine.match import Match
from spades.engine.observation import Phase
from spades.engine.state import HandState, IllegalAction


def hand_card_action(phase: Phase, card: Card) -> Action:
    """The action a click on ``card`` in the hand stands for in ``phase``: pass it in the
    exchange, else play it.

    >>> hand_card_action(Phase.EXCHANGE, 51) - EXCHANGE_BASE, hand_card_action(Phase.PLAYING, 51)
    (51, 51)
    """
    return EXCHANGE_BASE + card if phase is Phase.EXCHANGE else card_action(card)


def turn_problem(hand: HandState, seat: Seat, players: Sequence[str]) -> str | None:
    """Why ``seat`` may not act in ``hand`` at all now, or None on its turn: the hand is
    over, or another seat is to act (named from ``players``). What it may do on its turn
    is the engine's question, asked once, when the move is made or drawn."""
    current = hand.current_player
    if current is None:
        return "The hand is over"
    if current != seat:
        doing = "bid" if hand.phase is Phase.BIDDING else "play"
        return f"Wait for your turn: {players[current]} is to {doing}"
    return None


def seat_why_not(hand: HandState, seat: Seat, action: Action, players: Sequence[str]) -> str | None:
    """Why ``seat`` may not take ``action`` in ``hand`` now, in the engine's words, or None:
    another seat is to act (see :func:`turn_problem`), or the engine refuses it."""
    problem = turn_problem(hand, seat, players)
    if problem is not None:
        return problem
    try:
        hand.verify(action)
    except IllegalAction as err:
        return str(err)
    return None


def undo_point(match: Match, seat: Seat, people: Container[Seat]) -> int | None:
    """How many of the match's moves stay when ``seat`` takes its last move back: its last
    bid or card of this hand, with the bots' moves after it. None when the match is over,
    the seat has no move in this hand, it looked at its cards since (that would reopen
    blind nil), or one of the other ``people`` has moved since (a bot standing in for
    them too)."""
    if match.is_over:
        return None
    events = match.hand.events
    start = match.ply - len(events)
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.action == LOOK:
            return None
        if event.seat == seat:
            return start + index
        if event.seat in people:
            return None
    return None


def bot_move(match: Match, seat: Seat, level: str) -> Action:
    """The move the bot of ``level`` makes for ``seat`` now. A bot keeps nothing from one
    move to the next, so the seat's bot is made for each move, seeded by the match's seed
    and the seat: Play and a shared table make the same move in the same position, after a
    reload and on any server."""
    bot = live_bot(level, seed=bot_seed(match.seed, seat))
    return bot.act(match.hand.observation(seat))
