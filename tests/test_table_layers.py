"""The Play page sees one seat: the UI never reaches the engine's hand state, so every view
draws from the observation and public facts the app layer hands it.

No module of ``spades.ui`` imports ``spades.engine.state``: the import-linter contract
"The UI never imports the engine's state" holds that (tests/test_layers.py). What it cannot
see is the class itself reached by another way, through a module that re-exports it (``from
spades import HandState``): here no UI module names ``HandState`` at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parent.parent / "spades" / "ui"


def hand_state_names(source: str) -> list[int]:
    """The lines of ``source`` that name the hand state's class: imported from anywhere,
    used, or read as an attribute."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            named = [alias.name.rsplit(".", 1)[-1] for alias in node.names]
        elif isinstance(node, ast.Name):
            named = [node.id]
        elif isinstance(node, ast.Attribute):
            named = [node.attr]
        else:
            continue
        if "HandState" in named:
            found.append(node.lineno)
    return found


def _ui_modules() -> list[Path]:
    return sorted(UI.rglob("*.py"))


def test_there_are_ui_modules_to_check() -> None:
    names = {path.name for path in _ui_modules()}
    assert {"table.py", "table_html.py", "sidebar.py", "cards.py", "tutorial_view.py"} <= names


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda path: path.name)
def test_no_ui_module_names_the_hand_state(path: Path) -> None:
    assert hand_state_names(path.read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        "from spades import HandState\n",
        "from spades.engine.match import HandState as Hand\n",
        "import spades\nhand = spades.HandState\n",
        "def f(hand: HandState) -> None: ...\n",
    ],
)
def test_the_check_catches_each_way_of_naming_the_hand_state(source: str) -> None:
    assert hand_state_names(source)


def test_the_check_lets_the_views_own_names_through() -> None:
    source = (
        "from spades.app.table_view import TableView\n"
        "from spades.engine.observation import Observation, Phase\n"
        "view: TableView\n"
        "seen = view.obs.hand\n"
    )
    assert hand_state_names(source) == []
