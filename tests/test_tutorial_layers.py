"""The Learn page sees one seat: its view never reads the engine's state, and the tables
the tutorial hands it are the Play table's model, holding no more than South's observation
and the engine's answers."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path

from spades.app.prefs import TablePrefs
from spades.app.table_view import TableView
from spades.app.tutorial import (
    ANSWERED,
    PRACTICE_LESSON,
    Course,
    PracticeHand,
    make_exercise,
    refusal,
)
from spades.app.tutorial.views import NOT_AN_ANSWER, PLAYERS, answered
from spades.engine.cards import SOUTH, bid_of
from spades.engine.state import HandState
from spades.ui.cards import trick_html
from spades.ui.table_html import seat_views, status

VIEW = Path(__file__).resolve().parent.parent / "spades" / "ui" / "tutorial_view.py"


def test_the_tutorial_view_reads_no_hand_s_full_state() -> None:
    """The contracts keep the engine's state out of the UI's imports (tests/test_layers.py)
    and its class's name out of the UI's modules (tests/test_table_layers.py); nor does the
    view read a hand's full state off what it is handed."""
    tree = ast.parse(VIEW.read_text())
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not {"state", "position"} & attributes, "the view reads a hand's full state"


def _no_hand_state(view: TableView) -> None:
    assert not any(isinstance(getattr(view, f.name), HandState) for f in fields(view))


def test_the_practice_table_is_souths_observation_with_the_engines_answers() -> None:
    hand = PracticeHand(0, table_bot="random")
    while not hand.is_over:
        seen, view = hand.observation(), hand.view()
        _no_hand_state(view)
        assert view.obs == seen and view.ply == len(hand.state.history)
        assert view.human_to_act and view.hints and not view.read_only
        legal = set(seen.legal_actions)
        assert {c for c, why in view.card_why_not.items() if why is None} == legal & set(
            view.card_why_not
        )
        assert {a for a, why in view.why_not.items() if why is None} == legal & set(view.why_not)
        for card, why in view.card_why_not.items():
            assert why is None or why == refusal(hand.state, card)
        hand.act(seen.legal_actions[0])
    over = hand.view()
    assert not over.human_to_act and over.notice is None
    assert set(over.why_not.values()) == {"The hand is over"}


def test_a_hint_shows_on_the_turn_it_was_asked_for_and_a_late_ask_is_dropped() -> None:
    hand = PracticeHand(0, table_bot="random")
    assert hand.view().hint is None
    hand.ask_hint(hand.ply - 1)
    assert hand.view().hint is None
    hand.ask_hint(hand.ply)
    assert hand.view().hint == hand.advice()
    hand.act(hand.advice().action)
    assert hand.view().hint is None, "the hint was for the turn before"


def test_an_exercise_about_a_trick_holds_it_on_the_table_with_its_winner_hidden() -> None:
    for lesson_no in (1, 3):
        ex = make_exercise(lesson_no, 0)
        table, before = ex.table, ex.position
        assert table is not None and before is not None and not ex.on_table
        _no_hand_state(table)
        after = before.clone()
        for _, card in ex.trick:
            after.apply(card)
        # The table as the trick leaves it, South's cards face down: only looked at.
        assert table.obs == after.observation(SOUTH) and table.read_only
        assert table.held is not None and tuple(table.held.plays()) == ex.trick
        assert table.held_winner == "hidden" and not table.human_to_act
        assert status(table) == "The trick is complete."
        views = seat_views(table, TablePrefs())
        assert not any(v.winner or v.trumped for v in views)
        assert 'data-winner="true"' not in trick_html(views, center="")
        shown = answered(table)
        assert shown.held_winner == "marked"
        winner = table.held.winner
        assert [v.winner for v in seat_views(shown, TablePrefs())] == [
            s == winner for s in range(4)
        ]
        said = "You win" if winner == shown.seat else f"{PLAYERS[winner]} wins"
        assert status(shown) == f"{said} the trick."


def test_an_exercise_answered_on_its_table_offers_exactly_its_options_there() -> None:
    for lesson_no, seed in ((2, 0), (4, 0), (4, 2), (5, 0), (6, 0)):
        ex = make_exercise(lesson_no, seed)
        table, state = ex.table, ex.position
        assert table is not None and state is not None and ex.on_table
        _no_hand_state(table)
        assert table.obs == state.observation(SOUTH) and table.held is None
        clickable = {c for c, why in table.card_why_not.items() if why is None}
        clickable |= {
            b for a, why in table.why_not.items() if why is None if (b := bid_of(a)) is not None
        }
        assert clickable == {o.value for o in ex.options}
        for action, why in table.why_not.items():
            if why is not None:
                assert why in (refusal(state, action), NOT_AN_ANSWER)
        done = answered(table)
        assert set(done.card_why_not.values()) | set(done.why_not.values()) == {ANSWERED}


def test_a_click_on_an_exercise_table_answers_it_and_one_from_an_earlier_table_is_dropped() -> None:
    course = Course(base_seed=5)
    course.go(6)
    first = course.table()
    ex = course.exercise
    assert first is not None and ex is not None and ex.kind == "card" and ex.on_table
    wrong = next(o.value for o in ex.options if o.value not in ex.answer)
    course.click(wrong, first.ply)
    assert course.feedback is not None and not course.feedback.correct
    course.click(min(ex.answer), first.ply)
    assert course.solved
    answered_table = course.table()
    assert answered_table is not None
    assert set(answered_table.card_why_not.values()) == {ANSWERED}
    course.next_exercise()
    tried = dict(course.progress.tried)
    course.click(min(ex.answer), first.ply)
    assert course.feedback is None and course.progress.tried == tried
    course.go(2)
    table = course.table()
    cards = course.exercise
    assert table is not None and cards is not None and cards.kind == "cards"
    course.click(cards.hand[0], table.ply)
    assert course.picked == [cards.hand[0]]
    course.click(cards.hand[0], table.ply)
    assert course.picked == []


def test_a_click_on_the_practice_table_plays_unless_the_hand_has_moved_on() -> None:
    course = Course(base_seed=1)
    course.go(PRACTICE_LESSON)
    hand = course.practice
    assert hand is not None
    view = course.table()
    assert view is not None and view.ply == hand.ply
    action = hand.state.legal_actions()[0]
    course.click(action, view.ply)
    assert hand.turns[-1].action == action
    moves = len(hand.state.history)
    course.click(hand.state.legal_actions()[0], view.ply)
    assert len(hand.state.history) == moves, "a click on the table as it was is dropped"
