"""Letting bots play: the one loop that asks the bot to act for its seat and applies it.

It drives a :class:`~spades.engine.state.HandState` or a
:class:`~spades.engine.match.Match` alike, and stops when a seat without a bot is to act (a
person), the game is over, or the caller's ``until`` says so.

>>> from spades.bots import make_bot
>>> from spades.engine.rules import Rules
>>> from spades.engine.state import HandState
>>> hand = HandState.deal(Rules(), dealer=3, seed=1)
>>> bots = {seat: make_bot("random", seed=seat) for seat in (0, 1, 3)}
>>> made = drive(hand, bots)
>>> hand.current_player, len(made) == len(hand.history)
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from spades.bots.base import Bot, bot_seed, make_bot
from spades.engine.cards import Action, Seat
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules


class Game(Protocol):
    """What the loop needs of a hand or a match."""

    @property
    def current_player(self) -> Seat | None: ...

    def observation(self, seat: Seat) -> Observation: ...

    def apply(self, action: Action) -> object: ...


def next_bot_action(game: Game, bots: Mapping[Seat, Bot]) -> Action | None:
    """The action the bot of the seat to act chooses, not yet applied; None when the game
    is over or the seat to act has no bot."""
    seat = game.current_player
    if seat is None or seat not in bots:
        return None
    return bots[seat].act(game.observation(seat))


def drive(
    game: Game, bots: Mapping[Seat, Bot], *, until: Callable[[], bool] | None = None
) -> list[Action]:
    """Let the bots act in turn, applying each action, until a seat without a bot is to
    act, the game is over, or ``until()`` is true; returns the actions made."""
    made: list[Action] = []
    while until is None or not until():
        action = next_bot_action(game, bots)
        if action is None:
            break
        game.apply(action)
        made.append(action)
    return made


def play_match(rules: Rules, seed: int, bots: Sequence[str], *, max_hands: int = 500) -> Match:
    """Play one match with the named bots in seats N, E, S, W (0, 1, 2 for three)."""
    players = {seat: make_bot(name, seed=bot_seed(seed, seat)) for seat, name in enumerate(bots)}
    match = Match(rules, seed=seed)
    drive(match, players, until=lambda: len(match.finished) >= max_hands)
    return match
