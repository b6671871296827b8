"""The Learn page: lessons, exercises with feedback that says why, progress, and the
guided practice hand.

Everything the page shows comes from :mod:`spades.app.tutorial` (which asks the engine);
of a hand it draws only the view models the tutorial builds from South's observation
(``TableView``, ``PracticeView``), never the hand's full state. Cards and the trick are
drawn with the Play page's components in :mod:`spades.ui.cards`.
Widget keys start with ``learn_``; card buttons are ``card_learn_<CODE>`` so that they keep
the card look, which the stylesheet gives to every key starting with ``card_``.
"""

from __future__ import annotations

import secrets
from typing import Final

import streamlit as st

from spades.app.tutorial import (
    LESSONS,
    PRACTICE_LESSON,
    Course,
    Exercise,
    IllegalAction,
    PracticeHand,
    PracticeView,
    TableView,
)
from spades.cards import SEAT_NAMES, SOUTH, Action, Card, bid_action, bid_label, bid_of, card_str
from spades.ui import style
from spades.ui.cards import (
    SeatView,
    card_html,
    hand_row,
    sort_cards,
    trick_cards_html,
    trick_view,
)

COURSE_KEY: Final = "learn_course"
HINT_KEY: Final = "learn_hint_shown"
MESSAGE_KEY: Final = "learn_message"
CARD_PREFIX: Final = "card_learn_"


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


def card_widget_key(card: Card) -> str:
    """The key of a tutorial card button (``card_learn_AS``)."""
    return CARD_PREFIX + card_str(card)


def _center(broken: bool) -> str:
    marker = "Spades broken" if broken else "Spades not broken yet"
    return (
        "<div class='sp-trump' title='Spades are always trump'>♠</div>"
        f"<div class='sp-marker'>trump</div><div class='sp-marker'>{marker}</div>"
    )


def _name(seat: int) -> str:
    return "You" if seat == SOUTH else SEAT_NAMES[seat]


def _draw_table(table: TableView, *, winner: int | None = None) -> None:
    """The trick area as South sees it; ``winner`` is marked only when the page says so."""
    on_table = dict(table.trick)
    seats = [
        SeatView(
            name=_name(seat),
            bid=bid_label(table.bids[seat], table.blind[seat]),
            tricks=table.tricks_won[seat],
            card=on_table.get(seat),
            to_act=seat == table.to_act,
            dealer=seat == table.dealer,
            winner=seat == winner,
        )
        for seat in range(4)
    ]
    trick_view(seats, center=_center(table.spades_broken), key="learn_table")


# ------------------------------------------------------------------ header


def _progress(learner: Course) -> None:
    done = len(learner.progress.done)
    right, tried = learner.progress.first_try_totals()
    st.progress(
        done / len(LESSONS),
        text=f"{done} of {len(LESSONS)} lessons done · "
        f"{right} of {tried} exercises right on the first try",
    )
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
    st.session_state.pop(HINT_KEY, None)
    st.session_state.pop(MESSAGE_KEY, None)
    course().go(lesson_no)


# ------------------------------------------------------------------ exercises


def _exercise_table(ex: Exercise, solved: bool) -> None:
    if ex.table is not None:
        # The winner is the answer to "who wins", so it is marked only once solved.
        _draw_table(ex.table, winner=ex.table.winner if solved else None)


def _shown_hand(ex: Exercise) -> None:
    """The hand an exercise is about, face up, when it is not itself the answer buttons."""
    if ex.hand and ex.kind == "choice":
        st.caption("Your hand")
        st.html(f'<div class="sp-row">{"".join(card_html(c) for c in sort_cards(ex.hand))}</div>')


def _answer(value: int | None = None) -> None:
    st.session_state.pop(MESSAGE_KEY, None)
    try:
        course().answer(value)
    except ValueError:
        # A click left over from an exercise that has moved on.
        st.session_state[MESSAGE_KEY] = "That answer belonged to an earlier exercise."


def _answer_cards(learner: Course, ex: Exercise) -> None:
    done = "You have answered this one" if learner.solved else None
    hand_row(
        ex.hand,
        why_not=lambda card: done,
        on_click=learner.toggle,
        key="learn_hand",
        key_prefix=CARD_PREFIX,
    )
    for card in learner.picked:
        style.highlight(card_widget_key(card))
    picked = ", ".join(ex.label(c) for c in sorted(learner.picked)) or "none yet"
    st.caption(f"Picked: {picked}")
    st.button(
        "Check",
        key="learn_check",
        type="primary",
        disabled=learner.solved,
        on_click=_answer,
    )


def _answer_one_card(learner: Course, ex: Exercise) -> None:
    done = "You have answered this one" if learner.solved else None
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
    _exercise_table(ex, learner.solved)
    _shown_hand(ex)
    if ex.kind == "cards":
        _answer_cards(learner, ex)
    elif ex.kind == "card":
        _answer_one_card(learner, ex)
    else:
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


def _practice_act(action: Action) -> None:
    st.session_state.pop(HINT_KEY, None)
    st.session_state.pop(MESSAGE_KEY, None)
    try:
        course().practice_act(action)
    except IllegalAction as err:
        st.session_state[MESSAGE_KEY] = str(err)


def _show_hint(turn: int) -> None:
    st.session_state[HINT_KEY] = turn


def _new_practice() -> None:
    st.session_state.pop(HINT_KEY, None)
    st.session_state.pop(MESSAGE_KEY, None)
    course().new_practice()


def _practice_bids(view: PracticeView) -> None:
    with st.container(key="learn_bids", horizontal=True, gap="small"):
        for n in view.bids:
            action = bid_action(n)
            why = view.refused.get(action, "")
            st.button(
                bid_label(n).capitalize(),
                key=_bid_key(n),
                disabled=action not in view.legal,
                help=why or f"Bid {bid_label(n)}",
                on_click=_practice_act,
                args=(action,),
            )


def _hint_key(view: PracticeView, action: Action) -> str:
    bid = bid_of(action)
    if view.bidding and bid is not None:
        return _bid_key(bid)
    return card_widget_key(action)


def _bid_key(bid: int) -> str:
    return "learn_bid_nil" if bid == 0 else f"learn_bid_{bid}"


def _practice_turn(hand: PracticeHand, view: PracticeView) -> None:
    st.button("Hint", key="learn_hint", on_click=_show_hint, args=(view.turn,))
    if st.session_state.get(HINT_KEY) == view.turn:
        advice = hand.advice()
        why = f": {advice.reason}" if advice.reason else "."
        st.info(f"Hint: {hand.describe(advice.action)}{why}")
        style.highlight(_hint_key(view, advice.action))
    if view.bidding:
        hand_row(
            view.hand,
            why_not=lambda card: "Bid first",
            key="learn_hand",
            key_prefix=CARD_PREFIX,
        )
        st.markdown("**Your bid: how many tricks will you take?**")
        _practice_bids(view)
        return
    st.markdown("**Your turn: play a card.**")
    hand_row(
        view.hand,
        why_not=lambda card: None if card in view.legal else view.refused[card],
        on_click=_practice_act,
        key="learn_hand",
        key_prefix=CARD_PREFIX,
    )


def _last_trick(view: PracticeView) -> None:
    if view.last_winner is not None:
        st.caption(f"Last trick, won by {_name(view.last_winner)}:")
        st.html(trick_cards_html([(_name(s), c) for s, c in view.last_trick]))


def _practice(learner: Course) -> None:
    hand = learner.practice
    assert hand is not None
    view = hand.view()
    if hand.is_over:
        st.subheader("Review")
        st.markdown("\n".join(f"- {line}" for line in hand.review()))
        st.button(
            "Play another practice hand",
            key="learn_practice_again",
            type="primary",
            on_click=_new_practice,
        )
        _last_trick(view)
        return
    _draw_table(view.table)
    _last_trick(view)
    if st.session_state.get(MESSAGE_KEY):
        st.warning(st.session_state[MESSAGE_KEY])
    if hand.note:
        st.info(hand.note)
    _practice_turn(hand, view)


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
    if current.number == PRACTICE_LESSON:
        _practice(learner)
    else:
        _exercise(learner)
