"""The Play page sees one seat: no module of ``spades.ui`` imports the engine's hand state,
so every view draws from the observation and public facts the app layer hands it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parent.parent / "spades" / "ui"
STATE = "spades.engine.state"


def state_imports(source: str) -> list[str]:
    """Each import in ``source`` that reaches the hand state: the module ``spades.engine.state``
    (however it is named) or the name ``HandState`` from anywhere."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                a.name for a in node.names if a.name == STATE or a.name.startswith(f"{STATE}.")
            ]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [a.name for a in node.names]
            if _is_state(module):
                found.append(f"from {module} import {', '.join(names)}")
            elif module == "spades" and "state" in names:
                found.append("from spades import state")
            elif "HandState" in names:
                found.append(f"from {module} import HandState")
    return found


def _is_state(module: str) -> bool:
    return module == STATE or module.startswith(f"{STATE}.")


def _ui_modules() -> list[Path]:
    return sorted(UI.rglob("*.py"))


def test_there_are_ui_modules_to_check() -> None:
    names = {path.name for path in _ui_modules()}
    assert {"table.py", "table_html.py", "sidebar.py", "cards.py"} <= names


@pytest.mark.parametrize("path", _ui_modules(), ids=lambda path: path.name)
def test_no_ui_module_imports_the_hand_state(path: Path) -> None:
    source = path.read_text()
    assert state_imports(source) == []
    names = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
    assert "HandState" not in names


@pytest.mark.parametrize(
    "source",
    [
        "from spades.engine.state import HandState\n",
        "from spades.engine.state import Phase\n",
        "import spades.engine.state\n",
        "import spades.engine.state as engine\n",
        "from spades import state\n",
        "from spades.engine.match import HandState\n",
        "def f():\n    from spades.engine.state import deck_for\n",
    ],
)
def test_the_check_catches_each_way_of_importing_the_state(source: str) -> None:
    assert state_imports(source)


def test_the_check_lets_the_views_own_imports_through() -> None:
    source = (
        "from spades.app.table_view import TableView\n"
        "from spades.engine.observation import Observation, Phase\n"
        "from spades.engine.deck import deck_for\n"
        "import spades.statistics\n"
    )
    assert state_imports(source) == []
