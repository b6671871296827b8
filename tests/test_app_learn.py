"""AppTest walkthrough of the Learn page: every lesson, answered wrong and right."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from spades.app.tutorial import EXERCISES_TO_PASS, LESSONS, PRACTICE_LESSON, Course, Exercise
from spades.bots import make_bot
from spades.cards import BID_BASE, card_str
from spades.ui.tutorial_view import COURSE_KEY

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.apptest


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The router may touch the game store; keep it in a temporary file."""
    monkeypatch.setenv("SPADES_DB_URL", f"sqlite:///{tmp_path / 'spades.db'}")
    monkeypatch.setenv("SPADES_DATA_DIR", str(tmp_path))


def _app(base_seed: int = 11) -> AppTest:
    # Through the router, as a user opens it, so that the link to the Play page resolves.
    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=30)
    at.switch_page("pages/learn.py")
    at.session_state[COURSE_KEY] = Course(base_seed=base_seed)
    at.run()
    assert not at.exception
    assert at.title[0].value == "Learn Spades"
    return at


def _course(at: AppTest) -> Course:
    found: Course = at.session_state[COURSE_KEY]
    return found


def _exercise(at: AppTest) -> Exercise:
    ex = _course(at).exercise
    assert ex is not None
    return ex


def _click(at: AppTest, key: str) -> None:
    at.button(key=key).click().run()
    assert not at.exception, at.exception


def _card_key(card: int) -> str:
    return "card_learn_" + card_str(card)


def _answer(at: AppTest, picks: set[int] | int) -> None:
    """Answer through the page's own buttons: cards, then Check, or one option."""
    ex = _exercise(at)
    if ex.kind == "cards":
        assert isinstance(picks, set)
        # Picks stay after a wrong check, so the learner only changes what was wrong.
        for card in sorted(picks ^ _course(at).picked):
            _click(at, _card_key(card))
        assert _course(at).picked == picks
        _click(at, "learn_check")
    elif ex.kind == "card":
        assert isinstance(picks, int)
        _click(at, _card_key(picks))
    else:
        index = [o.value for o in ex.options].index(picks)
        _click(at, f"learn_opt_{index}")


def _right(ex: Exercise) -> set[int] | int:
    return set(ex.answer) if ex.kind == "cards" else min(ex.answer)


def _wrong(ex: Exercise) -> set[int] | int:
    outside = [o.value for o in ex.options if o.value not in ex.answer]
    if ex.kind == "cards":
        return {outside[0]} if outside else set(ex.answer) - {min(ex.answer)}
    return outside[0]


@pytest.mark.parametrize(
    "lesson_no", [item.number for item in LESSONS if item.number != PRACTICE_LESSON]
)
def test_each_lesson_answered_wrong_then_right_until_done(lesson_no: int) -> None:
    at = _app()
    _click(at, f"learn_lesson_{lesson_no}")
    assert at.header[0].value.startswith(f"Lesson {lesson_no}:")
    ex = _exercise(at)
    assert ex.seed == 0, "the first exercise of a lesson is the fixed example"
    _answer(at, _wrong(ex))
    assert at.error and at.error[0].value.startswith("Not")
    assert not at.success
    _answer(at, _right(ex))
    assert at.success[0].value.startswith("Right.")
    for _ in range(EXERCISES_TO_PASS - 1):
        _click(at, "learn_next")
        ex = _exercise(at)
        assert ex.seed != 0
        assert not at.error and not at.success
        _answer(at, _right(ex))
        assert at.success[0].value.startswith("Right.")
    course = _course(at)
    assert lesson_no in course.progress.done
    assert course.progress.first_try_totals() == (EXERCISES_TO_PASS - 1, EXERCISES_TO_PASS)
    assert at.button(key=f"learn_lesson_{lesson_no}").label.startswith("✓")
    assert any(f"Lesson {lesson_no} done" in s.value for s in at.success)
    if lesson_no == len(LESSONS):
        assert "learn_next_lesson" not in {b.key for b in at.button}
        return
    _click(at, "learn_next_lesson")
    assert at.header[0].value.startswith(f"Lesson {lesson_no + 1}:")


def test_answered_exercise_cannot_be_answered_again() -> None:
    at = _app()
    ex = _exercise(at)
    _answer(at, _right(ex))
    assert all(b.disabled for b in at.button if b.key.startswith("card_learn_"))
    assert _course(at).progress.right == {1: 1}


def test_illegal_pick_is_explained_with_the_engines_reason() -> None:
    at = _app()
    _click(at, "learn_lesson_2")
    ex = _exercise(at)
    assert ex.position is not None
    illegal = next(c for c in ex.hand if not ex.position.can(c))
    _answer(at, {illegal})
    reason = ex.reasons[illegal]
    assert reason.startswith("You must follow")
    assert reason in at.error[0].value


def test_practice_hand_with_hints_notes_and_review_finishes_the_tutorial() -> None:
    at = _app()
    course = _course(at)
    for item in LESSONS:
        if item.number != PRACTICE_LESSON:
            course.progress.complete(item.number)
    _click(at, f"learn_lesson_{PRACTICE_LESSON}")
    hand = course.practice
    assert hand is not None
    # Quick bots at the other seats keep the walkthrough fast; the expert still advises.
    hand.bots = {seat: make_bot("random", seed=seat) for seat in hand.bots}
    hinted = differed = 0
    while not hand.is_over:
        turn = len(hand.state.history)
        if hinted < 2:
            _click(at, "learn_hint")
            assert any(i.value.startswith("Hint: ") for i in at.info)
            hinted += 1
        advice = hand.advice()
        legal = hand.state.legal_actions()
        others = [a for a in legal if a != advice.action]
        action = others[0] if others and turn % 3 == 0 else advice.action
        if action >= BID_BASE:
            bid = action - BID_BASE
            _click(at, "learn_bid_nil" if bid == 0 else f"learn_bid_{bid}")
        else:
            card_keys = {b.key: b for b in at.button if b.key.startswith("card_learn_")}
            enabled = {k for k, b in card_keys.items() if not b.disabled}
            assert enabled == {_card_key(c) for c in legal}
            _click(at, _card_key(action))
        if action != advice.action:
            differed += 1
            if not hand.is_over:
                assert any("the expert would" in i.value for i in at.info)
    assert differed
    assert at.subheader[0].value == "Review"
    review = at.markdown[-1].value
    assert "You chose as the expert would" in review and "Your team:" in review
    assert course.progress.finished
    assert at.get("page_link")
    _click(at, "learn_practice_again")
    assert course.practice is not hand and not at.subheader


def test_random_clicks_on_enabled_buttons_never_raise() -> None:
    at = _app(base_seed=9)
    rng = random.Random(5)
    for _ in range(40):
        enabled = [b for b in at.button if not b.disabled]
        rng.choice(enabled).click().run()
        assert not at.exception, at.exception
    course = _course(at)
    assert sum(course.progress.tried.values()) > 0
