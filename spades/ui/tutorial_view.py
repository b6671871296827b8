"""The Learn page: lessons, exercises with feedback that says why, progress, and the
guided practice hand.

Everything the page shows comes from :mod:`spades.app.tutorial` (which asks the engine).
Its tables, an exercise's and the practice hand's, are the Play table: South's
:class:`~spades.app.table_view.TableView`, built from South's observation, drawn by the
Play page's renderer (:func:`spades.ui.table.draw_table`) with the Play table's keys. The
clicks on the table go to the course: South's cards and bids answer an exercise, or are
played in the practice hand. The page's own widget keys start with ``learn_``; the cards
an exercise offers beside its table (a trick's, to say which wins) are
``card_learn_<CODE>``, which keeps the card look the stylesheet gives every key starting
with ``card_``.
"""

from __future__ import annotations

import secrets
from typing import Final

import streamlit as st

from spades.app.prefs import TablePrefs
from spades.app.tutorial import (
    ANSWERED,
    EXERCISES_TO_PASS,
    LESSONS,
    PRACTICE_LESSON,
    Course,
    Exercise,
    IllegalAction,
)
from spades.engine.cards import Action
from spades.ui import keyboard, quick, style
from spades.ui.cards import card_key, hand_row
from spades.ui.table import TableHandlers, draw_table

COURSE_KEY: Final = "learn_course"
MESSAGE_KEY: Final = "learn_message"
CARD_PREFIX: Final = "card_learn_"
#: Said when a click reaches an exercise that has moved on since it was drawn.
EARLIER: Final = "That answer belonged to an earlier exercise."


def course() -> Course:
    """The learner's course, kept in the session.

    Practice exercises differ from session to session. A ``seed`` in the URL
    (``/learn?seed=42``) fixes them instead, so that a set of exercises can be shared.
    """
    if COURSE_KEY not in st.session_state:
        text = st.query_params.get("seed", "")
        base = int(text) if text.isdigit() and len(text) <= 9 else secrets.randbelow(2**31)
        st.session_state[COURSE_KEY] = Course(base_seed=base)
    found: Course = st.session_state[COURSE_KEY]
    return found


# ------------------------------------------------------------------ the table


def _on_table(action: Action, ply: int) -> None:
    st.session_state.pop(MESSAGE_KEY, None)
    try:
        course().click(action, ply)
    except IllegalAction as err:
        st.session_state[MESSAGE_KEY] = str(err)
    except ValueError:
        st.session_state[MESSAGE_KEY] = EARLIER


def _on_hint(ply: int) -> None:
    hand = course().practice
    if hand is not None:
        hand.ask_hint(ply)


def _on_last_trick() -> None:
    hand = course().practice
    if hand is not None:
        hand.show_last_trick = not hand.show_last_trick


#: An exercise's table: a click on South's cards or bid answers it.
EXERCISE_HANDLERS: Final = TableHandlers(act=_on_table)
#: The practice hand's table: South's moves, the expert's hint and the last trick.
PRACTICE_HANDLERS: Final = TableHandlers(act=_on_table, last_trick=_on_last_trick, hint=_on_hint)


def _table(learner: Course, on: TableHandlers) -> None:
    view = learner.table()
    if view is not None:
        # The tutorial's table looks as the stylesheet's defaults draw it, with no aids.
        draw_table(view, on, TablePrefs())


# ------------------------------------------------------------------ header


def _progress(learner: Course) -> None:
    done = len(learner.progress.done)
    right, tried = learner.progress.first_try_totals()
    firsts = (
        f"{right} of {tried} exercises right on the first try" if tried else "no exercise tried yet"
    )
    st.progress(done / len(LESSONS), text=f"{done} of {len(LESSONS)} lessons done · {firsts}")
    if learner.progress.finished:
        st.success("You have finished the tutorial. You know the whole game: go and play it!")
        st.page_link("pages/play.py", label="Play a match against the bots", icon="♠")


def _lesson_picker(learner: Course) -> None:
    with st.container(key="learn_lessons", horizontal=True, gap="small"):
        for item in LESSONS:
            done = item.number in learner.progress.done
            st.button(
                f"{'✓ ' if done else ''}{item.number}",
                key=f"learn_lesson_{item.number}",
                help=f"Lesson {item.number}: {item.title}" + (" (done)" if done else ""),
                type="primary" if item.number == learner.lesson_no else "secondary",
                on_click=_go,
                args=(item.number,),
            )


def _go(lesson_no: int) -> None:
    st.session_state.pop(MESSAGE_KEY, None)
    course().go(lesson_no)


# ------------------------------------------------------------------ exercises


def _answer(value: int | None = None) -> None:
    st.session_state.pop(MESSAGE_KEY, None)
    try:
        course().answer(value)
    except ValueError:
        # A click left over from an exercise that has moved on.
        st.session_state[MESSAGE_KEY] = EARLIER


def _check_cards(learner: Course, ex: Exercise) -> None:
    """The cards picked on the table so far, ringed there, and the button that checks them."""
    for card in learner.picked:
        style.highlight(card_key(card))
    picked = ", ".join(ex.label(c) for c in learner.picked) or "none yet"
    st.caption(f"Picked: {picked}")
    st.button(
        "Check",
        key="learn_check",
        type="primary",
        disabled=learner.solved,
        on_click=_answer,
    )


def _answer_one_card(learner: Course, ex: Exercise) -> None:
    done = ANSWERED if learner.solved else None
    hand_row(
        [o.value for o in ex.options],
        why_not=lambda card: done,
        on_click=_answer,
        key="learn_hand",
        key_prefix=CARD_PREFIX,
    )


def _answer_choice(learner: Course, ex: Exercise) -> None:
    with st.container(key="learn_options", horizontal=True, gap="small"):
        for index, option in enumerate(ex.options):
            st.button(
                option.label,
                key=f"learn_opt_{index}",
                disabled=learner.solved,
                on_click=_answer,
                args=(option.value,),
            )


def _next_exercise() -> None:
    st.session_state.pop(MESSAGE_KEY, None)
    course().next_exercise()


def _exercise(learner: Course) -> None:
    ex = learner.exercise
    assert ex is not None
    title = "First example" if learner.index == 0 else f"Exercise {learner.index + 1}"
    st.subheader(title)
    st.markdown(f"**{ex.prompt}**")
    if ex.facts:
        st.caption(" · ".join(ex.facts))
    _table(learner, EXERCISE_HANDLERS)
    # Where South's cards or bid on the table are the answers, a click there answers.
    if ex.kind == "cards":
        _check_cards(learner, ex)
    elif ex.kind == "card" and not ex.on_table:
        _answer_one_card(learner, ex)
    elif ex.kind == "choice" and not ex.on_table:
        _answer_choice(learner, ex)
    if st.session_state.get(MESSAGE_KEY):
        st.warning(st.session_state[MESSAGE_KEY])
    feedback = learner.feedback
    if feedback is not None:
        (st.success if feedback.correct else st.error)(feedback.text)
    with st.container(key="learn_moves", horizontal=True, gap="small"):
        st.button(
            "Next exercise" if learner.feedback is not None else "Skip to another exercise",
            key="learn_next",
            type="primary" if learner.solved else "secondary",
            on_click=_next_exercise,
        )
        if learner.lesson_no in learner.progress.done and learner.lesson_no < len(LESSONS):
            st.button(
                "Next lesson",
                key="learn_next_lesson",
                type="primary",
                on_click=_go,
                args=(learner.lesson_no + 1,),
            )
    if learner.lesson_no in learner.progress.done:
        st.success(f"Lesson {learner.lesson_no} done. Practise more here or move on.")


# ------------------------------------------------------------------ practice hand


def _new_practice() -> None:
    st.session_state.pop(MESSAGE_KEY, None)
    course().new_practice()


def _practice(learner: Course) -> None:
    hand = learner.practice
    assert hand is not None
    _table(learner, PRACTICE_HANDLERS)
    if st.session_state.get(MESSAGE_KEY):
        st.warning(st.session_state[MESSAGE_KEY])
    if not hand.is_over:
        return
    st.subheader("Review")
    st.markdown("\n".join(f"- {line}" for line in hand.review()))
    st.button(
        "Play another practice hand",
        key="learn_practice_again",
        type="primary",
        on_click=_new_practice,
    )


# ------------------------------------------------------------------ page


def render() -> None:
    """Draw the Learn page for the course in the session."""
    style.inject()
    learner = course()
    st.title("Learn Spades")
    _progress(learner)
    _lesson_picker(learner)
    current = learner.lesson
    st.header(f"Lesson {current.number}: {current.title}")
    st.markdown(current.explanation)
    if current.number != PRACTICE_LESSON:
        right = learner.progress.right.get(current.number, 0)
        st.caption(
            f"Answer {EXERCISES_TO_PASS} exercises right to finish the lesson "
            f"({min(right, EXERCISES_TO_PASS)} so far)."
        )
    if current.number == PRACTICE_LESSON:
        _practice(learner)
    else:
        _exercise(learner)
    # Last on the page, as on the Play page: keyboard play and the instant drawing of a
    # card played at the table.
    keyboard.install()
    quick.install()
