"""The seats of the Play table: the player's, the bots', and their names.

The player always sits South (seat 2). Four players sit North, East, South and West; three
play cutthroat from seats 0, 1 and 2, where seat 0 plays after the player (on their left)
and seat 1 before (on their right).
"""

from __future__ import annotations

from typing import Final

from spades.engine.cards import SEAT_NAMES, SOUTH, Seat
from spades.engine.rules import Rules
from spades.store.checks import tidy_name

HUMAN_SEAT: Final = SOUTH
#: The names of three-handed cutthroat's seats 0 and 1 at the Play table.
THREE_HANDED_NAMES: Final = ("Left", "Right")


def bot_seats(rules: Rules) -> tuple[Seat, ...]:
    """The seats the bots play: every seat but the human's.

    >>> bot_seats(Rules()), bot_seats(Rules(players=3, partnerships=False))
    ((0, 1, 3), (0, 1))
    """
    return tuple(seat for seat in rules.seats if seat != HUMAN_SEAT)


def seat_names(rules: Rules) -> tuple[str, ...]:
    """Each seat's name at the Play table: North, East, South and West, or for three
    players Left, Right and South (the player's own seat).

    >>> seat_names(Rules(players=3, partnerships=False))
    ('Left', 'Right', 'South')
    """
    if rules.players == 3:
        return (*THREE_HANDED_NAMES, SEAT_NAMES[HUMAN_SEAT])
    return SEAT_NAMES


def person_name(name: str) -> str:
    """A person's name as typed, made fit to show and keep, as at a shared table
    (:func:`~spades.store.checks.tidy_name`: invisible and control characters dropped,
    spaces tidied, at most :data:`~spades.store.NAME_MAX` characters); ``You`` when nothing
    is left.

    >>> person_name(" A\\u200bda\\x07Lovelace "), person_name("\\u200b")
    ('Ada Lovelace', 'You')
    """
    return tidy_name(name) or "You"


def player_names(rules: Rules, name: str) -> tuple[str, ...]:
    """The seats' names with the human's own (:func:`person_name`) at South.

    >>> player_names(Rules(players=3, partnerships=False), "  Ada   Lovelace ")
    ('Left', 'Right', 'Ada Lovelace')
    """
    names = list(seat_names(rules))
    names[HUMAN_SEAT] = person_name(name)
    return tuple(names)
