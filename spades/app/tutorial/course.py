"""A learner's way through the tutorial: the lesson open, its exercise and the answer being
built, the practice hand, and the progress (lessons done, exercises right).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from spades.app.table_view import TableView
from spades.engine.cards import Action, action_card, bid_of

from .exercises import exercise_seed, make_exercise
from .lessons import LESSONS, PRACTICE_LESSON, Lesson, lesson
from .practice import PracticeHand
from .questions import Exercise, Feedback
from .views import answered

EXERCISES_TO_PASS: Final = 3


@dataclass(slots=True)
class Progress:
    """Lessons done and exercises right, counted per lesson."""

    right: dict[int, int] = field(default_factory=dict)
    first_try: dict[int, int] = field(default_factory=dict)
    tried: dict[int, int] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)

    def record(self, lesson_no: int, *, correct: bool, first_attempt: bool) -> None:
        """Count an answer; a lesson is done after ``EXERCISES_TO_PASS`` right answers."""
        if first_attempt:
            self.tried[lesson_no] = self.tried.get(lesson_no, 0) + 1
            if correct:
                self.first_try[lesson_no] = self.first_try.get(lesson_no, 0) + 1
        if correct:
            self.right[lesson_no] = self.right.get(lesson_no, 0) + 1
            if self.right[lesson_no] >= EXERCISES_TO_PASS:
                self.done.add(lesson_no)

    def complete(self, lesson_no: int) -> None:
        """Mark a lesson done (the practice hand, once it is played out)."""
        self.done.add(lesson_no)

    @property
    def finished(self) -> bool:
        """Whether every lesson is done."""
        return all(item.number in self.done for item in LESSONS)

    def first_try_totals(self) -> tuple[int, int]:
        """(exercises right on the first try, exercises tried) over all lessons."""
        return sum(self.first_try.values()), sum(self.tried.values())


class Course:
    """A learner's way through the tutorial: the lesson open, its current exercise, the
    answer being built, the last feedback, the practice hand, and the progress."""

    def __init__(self, base_seed: int) -> None:
        self.base_seed = base_seed
        self.progress = Progress()
        self.lesson_no = 0
        self.index = 0
        self.exercise: Exercise | None = None
        # The cards picked for a "cards" answer, in the order they were clicked.
        self.picked: list[int] = []
        self.feedback: Feedback | None = None
        self.attempts = 0
        self.solved = False
        self.practice: PracticeHand | None = None
        self.practice_count = 0
        # How many exercises have been opened: a click on an exercise's table carries it,
        # so that a click left over from an earlier exercise is dropped.
        self.opened = 0
        # The next exercise index of each lesson, so that a lesson opened again goes on
        # with a fresh exercise instead of the ones already seen.
        self._next: dict[int, int] = {}
        self.go(1)

    @property
    def lesson(self) -> Lesson:
        """The lesson open now."""
        return lesson(self.lesson_no)

    def go(self, lesson_no: int) -> None:
        """Open a lesson: at its fixed first example the first time, and at a fresh
        exercise when it is opened again. The lesson already open stays as it is."""
        lesson(lesson_no)
        if lesson_no == self.lesson_no:
            return
        self.lesson_no = lesson_no
        self.index = self._next.get(lesson_no, 0)
        if self.lesson.is_practice:
            self.exercise = None
            self._reset_answer()
            if self.practice is None:
                self.new_practice()
        else:
            self._load()

    def _load(self) -> None:
        seed = exercise_seed(self.base_seed, self.lesson_no, self.index)
        self.exercise = make_exercise(self.lesson_no, seed)
        self.opened += 1
        self._next[self.lesson_no] = self.index + 1
        self._reset_answer()

    def _reset_answer(self) -> None:
        self.picked = []
        self.feedback = None
        self.attempts = 0
        self.solved = False

    def next_exercise(self) -> None:
        """Move on to a fresh exercise of the same lesson."""
        self.index += 1
        self._load()

    def table(self) -> TableView | None:
        """The table of the lesson open now, as South sees it: the practice hand's, or the
        exercise's (answered once it is solved); None when the exercise shows no table."""
        if self.lesson.is_practice:
            return None if self.practice is None else self.practice.view()
        shown = None if self.exercise is None else self.exercise.table
        if shown is None:
            return None
        shown = replace(shown, ply=self.opened)
        return answered(shown) if self.solved else shown

    def click(self, action: Action, ply: int) -> None:
        """A click on South's card or bid on the table drawn at ``ply``: in the practice hand
        it is played (or raises ``IllegalAction``); in an exercise it is the answer, or for
        ``"cards"`` a card added to or taken from it. A click on a table that has moved on
        since is dropped."""
        if self.lesson.is_practice:
            if self.practice is not None and ply == self.practice.ply:
                self.practice_act(action)
            return
        if self.exercise is None or ply != self.opened:
            return
        bid = bid_of(action)
        value = bid if bid is not None else action_card(action)
        if value is None:
            return
        if self.exercise.kind == "cards":
            self.toggle(value)
        else:
            self.answer(value)

    def toggle(self, value: int) -> None:
        """Add or remove a card from the answer being built (``"cards"`` exercises).

        A value that is not an option (a click left over from another exercise) is ignored.
        """
        if self.solved or self.exercise is None:
            return
        if value not in {option.value for option in self.exercise.options}:
            return
        if value in self.picked:
            self.picked.remove(value)
        else:
            self.picked.append(value)
        self.feedback = None

    def answer(self, value: int | None = None) -> Feedback:
        """Check ``value`` (or, for ``"cards"``, the picked set) and record it.

        Raises ``ValueError`` for a value that is not an option of this exercise, and
        then records nothing.
        """
        exercise = self.exercise
        if exercise is None:
            raise ValueError("the practice hand has no exercise to answer")
        if self.solved:
            assert self.feedback is not None
            return self.feedback
        feedback = exercise.check(self.picked if value is None else value)
        self.progress.record(
            self.lesson_no, correct=feedback.correct, first_attempt=self.attempts == 0
        )
        self.attempts += 1
        self.solved = feedback.correct
        self.feedback = feedback
        return feedback

    def new_practice(self) -> None:
        """Deal a practice hand: the first is the fixed example, later ones vary."""
        seed = exercise_seed(self.base_seed, PRACTICE_LESSON, self.practice_count)
        self.practice_count += 1
        self.practice = PracticeHand(seed)

    def practice_act(self, action: Action) -> str:
        """Play the learner's action in the practice hand; the lesson is done when the
        hand is over."""
        if self.practice is None:
            raise ValueError("no practice hand is dealt")
        note = self.practice.act(action)
        if self.practice.is_over:
            self.progress.complete(PRACTICE_LESSON)
        return note
