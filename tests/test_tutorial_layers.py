"""The Learn page sees one seat: its view never imports the engine's state, and what the
tutorial hands it holds no more than South's observation."""

from __future__ import annotations

import ast
from pathlib import Path

from spades.app.tutorial import PracticeHand, make_exercise
from spades.cards import SOUTH

VIEW = Path(__file__).resolve().parent.parent / "spades" / "ui" / "tutorial_view.py"


def _imported_modules(tree: ast.AST) -> set[str]:
    """Every module the code imports, ``from spades import state`` counted as spades.state."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_the_tutorial_view_does_not_import_the_hand_state() -> None:
    tree = ast.parse(VIEW.read_text())
    imported = _imported_modules(tree)
    assert not {m for m in imported if m == "spades.state" or m.startswith("spades.state.")}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert "HandState" not in names | attributes
    assert not {"state", "position"} & attributes, "the view reads a hand's full state"


def test_the_practice_view_is_souths_observation() -> None:
    hand = PracticeHand(0, table_bot="random")
    while not hand.is_over:
        seen, view = hand.observation(), hand.view()
        assert view.hand == seen.hand and view.legal == set(seen.legal_actions)
        assert view.table.trick == seen.trick and view.table.bids == seen.bids
        assert set(view.refused) <= set(view.hand) | {a for a in range(52, 66)}
        hand.act(seen.legal_actions[0])


def test_an_exercise_table_shows_a_trick_only_once_it_is_played() -> None:
    for lesson_no in (1, 3):
        ex = make_exercise(lesson_no, 0)
        assert ex.table is not None and ex.position is not None
        assert ex.table.trick == ex.trick and ex.table.to_act is None
        assert ex.table.tricks_won == ex.position.observation(SOUTH).tricks_won
    playing = make_exercise(2, 0)
    assert playing.table is not None and playing.position is not None
    seen = playing.position.observation(SOUTH)
    assert (playing.table.trick, playing.table.winner) == (seen.trick, None)
    assert make_exercise(4, 0).table is None
