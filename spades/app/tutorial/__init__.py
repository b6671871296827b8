"""The tutorial, engine side: lessons, seeded exercises that the engine answers, the guided
practice hand, and the learner's course through them.

:mod:`~spades.app.tutorial.lessons` holds the prose, :mod:`~spades.app.tutorial.exercises`
makes each lesson's exercises (from :mod:`~spades.app.tutorial.questions` and the lesson
groups), :mod:`~spades.app.tutorial.practice` runs the practice hand and
:mod:`~spades.app.tutorial.course` keeps the learner's place and progress. Of a hand, the
page draws only the Play table's :class:`~spades.app.table_view.TableView`, built from
South's observation (:mod:`~spades.app.tutorial.views`).
"""

from spades.engine.state import IllegalAction

from .course import EXERCISES_TO_PASS, Course, Progress
from .exercises import exercise_seed, make_exercise
from .lessons import LESSONS, PRACTICE_LESSON, Lesson, lesson
from .positions import RULES, refusal, table_bot_name
from .practice import PracticeHand, Turn
from .questions import Exercise, Feedback, Option, ScoreCase
from .trick_lessons import trick_kind
from .views import ANSWERED

__all__ = [
    "ANSWERED",
    "EXERCISES_TO_PASS",
    "LESSONS",
    "PRACTICE_LESSON",
    "RULES",
    "Course",
    "Exercise",
    "Feedback",
    "IllegalAction",
    "Lesson",
    "Option",
    "PracticeHand",
    "Progress",
    "ScoreCase",
    "Turn",
    "exercise_seed",
    "lesson",
    "make_exercise",
    "refusal",
    "table_bot_name",
    "trick_kind",
]
