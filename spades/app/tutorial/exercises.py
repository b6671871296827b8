"""The exercises of lessons 1 to 8 and 10, made by seed, with feedback that says why.

Every exercise is built from a real position. Some come from a seeded deal played
forward; others from hands built so that the plays are legal. The engine then gives
the answer: ``legal_actions()`` says which cards may be played, a trick really played
says who wins it, and ``score_hand`` gives the points. The tutorial holds no rule of
its own. Seed 0 of every lesson is the fixed first example; other seeds give fresh
practice. The learner sits South, as on the Play page.

>>> ex = make_exercise(2, 0)
>>> ex.kind, ex.check(ex.answer).correct
('cards', True)
>>> make_exercise(2, 0).answer == ex.answer
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from . import bid_lessons, score_lessons, trick_lessons
from .positions import seeded_rng
from .questions import Exercise

_MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {
    **trick_lessons.MAKERS,
    **bid_lessons.MAKERS,
    **score_lessons.MAKERS,
}


def make_exercise(lesson_no: int, seed: int) -> Exercise:
    """Exercise ``seed`` of a lesson (1 to 8, or 10). Seed 0 is the fixed first example."""
    if lesson_no not in _MAKERS:
        raise ValueError(f"lesson {lesson_no} has no exercises (lessons 1 to 8 and 10 do)")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"an exercise seed is an int of 0 or more, not {seed!r}")
    return _MAKERS[lesson_no](seed)


def exercise_seed(base: int, lesson_no: int, index: int) -> int:
    """The seed of the ``index``-th exercise of a lesson in a session started with ``base``.

    The first exercise is always seed 0, the fixed example; the rest vary with ``base``.
    """
    if index == 0:
        return 0
    return 1 + seeded_rng("session", base, lesson_no, index).getrandbits(31)
