"""AppTest walkthrough of the Learn page: every lesson, answered wrong and right, on tables
drawn by the Play page's renderer."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_helpers import button_keys
from streamlit.testing.v1 import AppTest

from spades.app.tutorial import EXERCISES_TO_PASS, LESSONS, PRACTICE_LESSON, Course, Exercise
from spades.app.tutorial.views import PLAYERS
from spades.bots import make_bot
from spades.engine.cards import BID_BASE, SEAT_LETTERS, SOUTH, card_str
from spades.ui.cards import card_key
from spades.ui.safe import md
from spades.ui.table import bid_key
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


def _learn_card_key(card: int) -> str:
    """The key of a card the page offers beside the table (a trick's card, to say which wins)."""
    return "card_learn_" + card_str(card)


def _html(at: AppTest) -> str:
    return "\n".join(element.proto.body for element in at.get("html"))


def _answer(at: AppTest, picks: set[int] | int) -> None:
    """Answer as the learner does: South's cards on the table (then Check, for a set of
    cards), South's bid on the table, or the page's own card or option buttons."""
    ex = _exercise(at)
    if ex.kind == "cards":
        assert isinstance(picks, set) and ex.on_table
        # Picks stay after a wrong check, so the learner only changes what was wrong.
        for card in sorted(picks ^ set(_course(at).picked)):
            _click(at, card_key(card))
        assert set(_course(at).picked) == picks
        _click(at, "learn_check")
    elif ex.kind == "card":
        assert isinstance(picks, int)
        _click(at, card_key(picks) if ex.on_table else _learn_card_key(picks))
    elif ex.on_table:
        assert isinstance(picks, int)
        _click(at, bid_key(picks))
    else:
        index = [o.value for o in ex.options].index(picks)
        _click(at, f"learn_opt_{index}")


def _status(at: AppTest) -> str:
    """The table's status line, as the renderer writes it (Markdown, escaped)."""
    (line,) = [c for c in at.get("flex_container") if getattr(c, "key", None) == "status"]
    text: str = line.markdown[0].value
    return text


def _container_keys(at: AppTest) -> set[str]:
    return {c.key for c in at.get("flex_container") if getattr(c, "key", None)}


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


def test_an_exercise_answered_on_the_table_offers_its_options_there_until_answered() -> None:
    at = _app()
    _click(at, "learn_lesson_2")
    ex = _exercise(at)
    assert ex.on_table and ex.kind == "cards"
    # Every card of the hand may be picked: which are playable is the question.
    hand = {card_key(c) for c in ex.hand}
    assert {b.key for b in at.button if b.key.startswith("card_") and not b.disabled} == hand
    assert not {"learn_hand", "learn_options"} & _container_keys(at)
    _answer(at, set(ex.answer))
    assert at.success[0].value.startswith("Right.")
    assert all(at.button(key=key).disabled for key in hand)


def test_a_bid_exercise_is_answered_with_the_tables_bid_buttons() -> None:
    at = _app()
    _click(at, "learn_lesson_5")
    ex = _exercise(at)
    assert ex.on_table and ex.kind == "choice"
    offered = {b.key for b in at.button if b.key.startswith("bid_") and not b.disabled}
    assert offered == {bid_key(o.value) for o in ex.options}
    assert not [b for b in at.button if b.key.startswith("learn_opt_")]
    _answer(at, _right(ex))
    assert at.success[0].value.startswith("Right.")


def test_a_trick_question_shows_the_winner_on_the_table_only_once_answered() -> None:
    at = _app()
    _click(at, "learn_lesson_3")
    ex = _exercise(at)
    assert not ex.on_table and ex.position is not None
    winner = min(ex.answer)
    winning = SEAT_LETTERS[winner]
    page = _html(at)
    for seat, card in ex.trick:
        assert f'data-card="{card_str(card)}" data-seat="{SEAT_LETTERS[seat]}">' in page
    assert 'data-winner="true"' not in page
    assert _status(at) == f"**{md('The trick is complete.')}**"
    _answer(at, _wrong(ex))
    assert 'data-winner="true"' not in _html(at)
    _answer(at, _right(ex))
    page = _html(at)
    card = dict(ex.trick)[winner]
    assert f'data-card="{card_str(card)}" data-seat="{winning}" data-winner="true">' in page
    assert page.count('data-winner="true"') == 1
    assert "sp-table sp-to-" not in page, "the cards stay on the table to be read"
    said = "You win" if winner == SOUTH else f"{PLAYERS[winner]} wins"
    assert _status(at) == f"**{md(f'{said} the trick.')}**"


def test_an_exercise_table_offers_none_of_the_play_tables_controls() -> None:
    at = _app()
    for lesson_no in (1, 2, 5, 6):
        _click(at, f"learn_lesson_{lesson_no}")
        assert {"table_felt", "trick", "status", "side_panels"} <= _container_keys(at)
        assert not {"hint", "undo", "claim", "last_trick", "new_game"} & button_keys(at)


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
    assert {"hint", "last_trick"} <= button_keys(at)
    assert not {"undo", "claim", "new_game"} & button_keys(at)
    while not hand.is_over:
        turn = len(hand.state.history)
        advice = hand.advice()
        if hinted < 2:
            shown = md(advice.reason, limit=300)
            assert not any(i.value == shown for i in at.info)
            _click(at, "hint")
            assert any(i.value == shown for i in at.info)
            hinted += 1
        legal = hand.state.legal_actions()
        others = [a for a in legal if a != advice.action]
        action = others[0] if others and turn % 3 == 0 else advice.action
        if action >= BID_BASE:
            _click(at, bid_key(action - BID_BASE))
        else:
            card_keys = {b.key: b for b in at.button if b.key.startswith("card_")}
            enabled = {k for k, b in card_keys.items() if not b.disabled}
            assert enabled == {card_key(c) for c in legal}
            _click(at, card_key(action))
        if action != advice.action:
            differed += 1
            if not hand.is_over:
                assert any("the expert would" in i.value for i in at.info)
    assert differed
    assert _status(at) == f"**{md('The hand is over.')}**"
    assert at.subheader[0].value == "Review"
    review = next(m.value for m in at.markdown if "You chose as the expert would" in m.value)
    assert "Your team:" in review
    assert course.progress.finished
    assert at.get("page_link")
    _click(at, "learn_practice_again")
    assert course.practice is not hand and not at.subheader


def test_the_practice_hand_shows_its_last_trick_until_it_is_hidden() -> None:
    at = _app()
    _click(at, f"learn_lesson_{PRACTICE_LESSON}")
    hand = _course(at).practice
    assert hand is not None
    hand.bots = {seat: make_bot("random", seed=seat) for seat in hand.bots}
    while not hand.state.tricks:
        legal = hand.state.legal_actions()
        _click(at, bid_key(legal[0] - BID_BASE) if legal[0] >= BID_BASE else card_key(legal[0]))
    last = hand.state.tricks[-1]
    shown = [c for c in at.caption if c.value.startswith("Last trick, won by ")]
    assert shown and shown[0].value.endswith(md(PLAYERS[last.winner]))
    assert at.button(key="last_trick").label == "Hide last trick"
    _click(at, "last_trick")
    assert not [c for c in at.caption if c.value.startswith("Last trick, won by ")]
    assert at.button(key="last_trick").label == "Last trick"


def test_random_clicks_on_enabled_buttons_never_raise() -> None:
    at = _app(base_seed=9)
    rng = random.Random(5)
    for _ in range(40):
        enabled = [b for b in at.button if not b.disabled]
        rng.choice(enabled).click().run()
        assert not at.exception, at.exception
    course = _course(at)
    assert sum(course.progress.tried.values()) > 0
