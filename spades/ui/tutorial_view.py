"""The Learn page: lessons, exercises with feedback that says why, progress, and the
guided practice hand.

Everything the page shows comes from :mod:`spades.app.tutorial` (which asks the engine);
cards and the trick are drawn with the Play page's components in :mod:`spades.ui.cards`.
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
    SOUTH,
    Course,
    Exercise,
    PracticeHand,
    refusal,
)
from spades.cards import SEAT_NAMES, Action, Card, bid_action, bid_label, bid_of, card_str
from spades.state import HandState, IllegalAction, Phase
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


def _seats(
    state: HandState,
    on_table: dict[int, Card],
    *,
    to_act: int | None,
    winner: int | None = None,
) -> list[SeatView]:
    return [
        SeatView(
            name="You" if seat == SOUTH else SEAT_NAMES[seat],
            bid=bid_label(state.bids[seat], state.blind[seat]),
            tricks=state.tricks_won[seat],
            card=on_table.get(seat),
            to_act=seat == to_act,
            dealer=seat == state.dealer,
            winner=seat == winner,
        )
        for seat in range(4)
    ]


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
    state = ex.position
    if state is None or not (ex.trick or ex.lesson == 5):
        return
    on_table = dict(ex.trick)
    finished = len(ex.trick) == 4
    broken = state.spades_broken
    winner = None
    if finished:
        # The engine plays the shown trick, so the markers describe the cards on the table.
        after = state.clone()
        for _, card in ex.trick:
            after.apply(card)
        broken = after.spades_broken
        winner = after.tricks[-1].winner if solved else None
    trick_view(
        _seats(state, on_table, to_act=None if finished else state.current_player, winner=winner),
        center=_center(broken),
        key="learn_table",
    )


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


def _practice_bids(state: HandState) -> None:
    legal = set(state.legal_actions())
    with st.container(key="learn_bids", horizontal=True, gap="small"):
        for n in range(14):
            action = bid_action(n)
            why = refusal(state, action) if action not in legal else ""
            st.button(
                bid_label(n).capitalize(),
                key=_bid_key(n),
                disabled=action not in legal,
                help=why or f"Bid {bid_label(n)}",
                on_click=_practice_act,
                args=(action,),
            )


def _hint_key(state: HandState, action: Action) -> str:
    bid = bid_of(action)
    if state.phase is Phase.BIDDING and bid is not None:
        return _bid_key(bid)
    return card_widget_key(action)


def _bid_key(bid: int) -> str:
    return "learn_bid_nil" if bid == 0 else f"learn_bid_{bid}"


def _practice_turn(hand: PracticeHand) -> None:
    state = hand.state
    turn = len(state.history)
    st.button("Hint", key="learn_hint", on_click=_show_hint, args=(turn,))
    if st.session_state.get(HINT_KEY) == turn:
        advice = hand.advice()
        why = f": {advice.reason}" if advice.reason else "."
        st.info(f"Hint: {state.describe(advice.action)}{why}")
        style.highlight(_hint_key(state, advice.action))
    if state.phase is Phase.BIDDING:
        hand_row(
            state.hand(SOUTH),
            why_not=lambda card: "Bid first",
            key="learn_hand",
            key_prefix=CARD_PREFIX,
        )
        st.markdown("**Your bid: how many tricks will you take?**")
        _practice_bids(state)
        return
    st.markdown("**Your turn: play a card.**")
    legal = set(state.legal_actions())
    hand_row(
        state.hand(SOUTH),
        why_not=lambda card: None if card in legal else refusal(state, card),
        on_click=_practice_act,
        key="learn_hand",
        key_prefix=CARD_PREFIX,
    )


def _last_trick(hand: PracticeHand) -> None:
    tricks = hand.state.tricks
    if tricks:
        last = tricks[-1]
        names = ["You" if seat == SOUTH else SEAT_NAMES[seat] for seat in range(4)]
        st.caption(f"Last trick, won by {names[last.winner]}:")
        st.html(trick_cards_html([(names[s], c) for s, c in last.plays()]))


def _practice(learner: Course) -> None:
    hand = learner.practice
    assert hand is not None
    if hand.is_over:
        st.subheader("Review")
        st.markdown("\n".join(f"- {line}" for line in hand.review()))
        st.button(
            "Play another practice hand",
            key="learn_practice_again",
            type="primary",
            on_click=_new_practice,
        )
        _last_trick(hand)
        return
    state = hand.state
    obs = hand.observation()
    trick_view(
        _seats(state, dict(obs.trick), to_act=obs.current_player),
        center=_center(state.spades_broken),
        key="learn_table",
    )
    _last_trick(hand)
    if st.session_state.get(MESSAGE_KEY):
        st.warning(st.session_state[MESSAGE_KEY])
    if hand.note:
        st.info(hand.note)
    _practice_turn(hand)


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
