"""What the Learn page may draw of a hand: the table as South sees it, in the
:class:`~spades.app.table_view.TableView` that the Play page and the shared tables draw.

The exercises and the practice hand build it from ``state.observation(SOUTH)`` and the
engine's answers (:func:`~spades.app.table_view.observed_view`): what the learner may know
at the table, and nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Final

from spades.app.seats import player_names
from spades.app.table_view import TableView, observed_view
from spades.engine.cards import SOUTH, Action, Card, Seat
from spades.engine.state import HandState

from .positions import RULES, refusal

Plays = tuple[tuple[Seat, Card], ...]

#: The seats' names at the tutorial's tables: the learner is South, "You".
PLAYERS: Final = player_names(RULES, "You")
#: Why a card or bid on an exercise's table is not clicked: the answer is another one.
NOT_AN_ANSWER: Final = "Not an answer to this exercise"
#: Why nothing on an exercise's table is clicked once it is answered.
ANSWERED: Final = "You have answered this one"


def exercise_table(
    state: HandState, *, answers: Iterable[Action] | None = None, trick: Plays = ()
) -> TableView:
    """The table of an exercise, as South sees it at ``state``.

    ``answers`` are the actions (South's cards or bids) whose click on the table answers
    the exercise; any other is refused with the engine's reason, or as no answer. Without
    them the table is only looked at, South's cards face down, and the answer is given
    beside it (the view is read-only).

    ``trick`` is a whole trick that starts at ``state``: the engine plays it, and the table
    shows it finished, lying there with the broken marker and the counts it leaves, and
    its winner hidden until the exercise is answered (:func:`answered`).
    """
    allowed = None if answers is None else frozenset(answers)

    def why_not(action: Action) -> str | None:
        if allowed is None:
            return NOT_AN_ANSWER
        if action in allowed:
            return None
        return refusal(state, action) or NOT_AN_ANSWER

    shown = state.clone() if trick else state
    for _, card in trick:
        shown.apply(card)
    seen = observed_view(
        shown.observation(SOUTH), PLAYERS, why_not, ply=0, held=shown.tricks[-1] if trick else None
    )
    return replace(seen, live=False, held_winner="hidden", read_only=allowed is None)


def answered(table: TableView) -> TableView:
    """An exercise's table once the exercise is answered: the winner of a trick on it is
    marked (its cards stay where they lie, to be read with the explanation), and nothing
    on it can be clicked any more."""
    return replace(
        table,
        held_winner="marked",
        why_not=dict.fromkeys(table.why_not, ANSWERED),
        card_why_not=dict.fromkeys(table.card_why_not, ANSWERED),
    )
