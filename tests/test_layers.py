"""The layers hold: the import-linter contracts in pyproject.toml pass on the code, and each
rule of them fails when a copy of the package is given one import that breaks it, naming
that import."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")
CONFIG = ROOT / "pyproject.toml"
LAYERS = "The layers"
STREAMLIT = "Only spades.ui imports Streamlit"
UI_ENGINE = "The UI imports nothing of the engine but its cards and rules"
EXTERNAL = "The engine and the bots import no database, frames or charts"
SQL = "Only spades.store talks SQL"
UI_STORE = "The UI reaches the store only through the application layer"
CYCLES = "No circles between the modules of a package"
_NAMES = (LAYERS, STREAMLIT, UI_ENGINE, EXTERNAL, SQL, UI_STORE, CYCLES)


def _lint(package_parent: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts, on the package found first on the
    path: the repository's, or the copy under ``package_parent``."""
    env = dict(os.environ)
    if package_parent is not None:
        env["PYTHONPATH"] = str(package_parent)
    return subprocess.run(
        [LINT_IMPORTS, "--config", str(CONFIG), "--no-cache"],
        cwd=package_parent or ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "spades", tmp_path / "spades", ignore=shutil.ignore_patterns("__pycache__")
    )
    return tmp_path


def test_the_code_keeps_every_contract() -> None:
    found = _lint()
    assert found.returncode == 0, found.stdout + found.stderr
    assert _statuses(found.stdout) == dict.fromkeys(_NAMES, "KEPT")


def test_an_untouched_copy_of_the_package_keeps_every_contract(tmp_path: Path) -> None:
    found = _lint(_copy(tmp_path))
    assert found.returncode == 0, found.stdout + found.stderr


#: One import that crosses each rule: the module it goes into (made when missing), the
#: line, the contract it breaks, and how the report names the crossing.
BREAKS = [
    (
        "spades/engine/rules.py",
        "import spades.store",
        LAYERS,
        "spades.engine.rules -> spades.store",
    ),
    ("spades/store/rows.py", "import spades.bots", LAYERS, "spades.store.rows -> spades.bots"),
    (
        "spades/sim/progress.py",
        "import spades.stats.analytics",
        LAYERS,
        "spades.sim.progress -> spades.stats.analytics",
    ),
    (
        "spades/app/prefs.py",
        "import spades.ui.style",
        LAYERS,
        "spades.app.prefs -> spades.ui.style",
    ),
    ("spades/cli.py", "import spades.ui.style", LAYERS, "spades.cli -> spades.ui.style"),
    ("spades/tools.py", "import spades.engine.cards", LAYERS, "- spades.tools"),
    ("spades/app/prefs.py", "import streamlit", STREAMLIT, "spades.app.prefs -> streamlit"),
    ("spades/store/store.py", "import streamlit", STREAMLIT, "spades.store.store -> streamlit"),
    (
        "spades/ui/style.py",
        "from spades.engine.state import HandState",
        UI_ENGINE,
        "spades.ui.style -> spades.engine.state",
    ),
    (
        "spades/ui/table.py",
        "from spades.engine.match import Match",
        UI_ENGINE,
        "spades.ui.table -> spades.engine.match",
    ),
    (
        "spades/ui/table_html.py",
        "from spades.engine.observation import Phase",
        UI_ENGINE,
        "spades.ui.table_html -> spades.engine.observation",
    ),
    (
        "spades/ui/finished.py",
        "from spades.engine.scoring import Outcome",
        UI_ENGINE,
        "spades.ui.finished -> spades.engine.scoring",
    ),
    (
        "spades/ui/cards.py",
        "from spades.engine.deck import deck_for",
        UI_ENGINE,
        "spades.ui.cards -> spades.engine.deck",
    ),
    ("spades/engine/scoring.py", "import pandas", EXTERNAL, "spades.engine.scoring -> pandas"),
    ("spades/bots/basic.py", "import sqlalchemy", EXTERNAL, "spades.bots.basic -> sqlalchemy"),
    (
        "spades/stats/leaderboard.py",
        "import sqlalchemy",
        SQL,
        "spades.stats.leaderboard -> sqlalchemy",
    ),
    (
        "spades/app/lab.py",
        "from spades.store.schema import games",
        SQL,
        "spades.app.lab -> spades.store.schema",
    ),
    (
        "spades/ui/rating_view.py",
        "from spades.store import Store",
        UI_STORE,
        "spades.ui.rating_view -> spades.store",
    ),
    ("spades/engine/deck.py", "import spades.engine.state", CYCLES, ".deck -> .state"),
]


@pytest.mark.parametrize(
    ("module", "line", "contract", "named"), BREAKS, ids=[f"{m} {line}" for m, line, _, _ in BREAKS]
)
def test_one_import_that_crosses_a_rule_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str, named: str
) -> None:
    broken = _copy(tmp_path) / module
    before = broken.read_text() if broken.exists() else ""
    broken.write_text(before + f"\n{line}  # noqa\n")
    found = _lint(tmp_path)
    assert found.returncode != 0
    assert _statuses(found.stdout)[contract] == "BROKEN", found.stdout
    assert named in found.stdout


def test_every_layer_below_the_ui_is_kept_from_streamlit() -> None:
    """The Streamlit contract names its sources one by one: each layer but the UI's."""
    contracts = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    by_name = {c["name"]: c for c in contracts}
    (layers,) = (c["layers"] for c in contracts if c["type"] == "layers")
    packages = {name.strip() for layer in layers for name in layer.split("|")}
    streamlit = next(c for name, c in by_name.items() if name.startswith(STREAMLIT))
    assert {f"spades.{p}" for p in packages - {"ui"}} == set(streamlit["source_modules"])


def test_every_package_but_the_store_is_kept_from_sql() -> None:
    """The SQL contract names its sources one by one: each layer but the store's."""
    contracts = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    (layers,) = (c["layers"] for c in contracts if c["type"] == "layers")
    packages = {name.strip() for layer in layers for name in layer.split("|")}
    (sql,) = (c for c in contracts if c["name"] == SQL)
    assert {f"spades.{p}" for p in packages - {"store"}} == set(sql["source_modules"])


def _statuses(report: str) -> dict[str, str]:
    """Each contract's name (as far as the tests name it) and KEPT or BROKEN, from the
    report's summary, where a long name wraps onto a second line."""
    summary = " ".join(report.split("dependencies.", 1)[1].split("Contracts:", 1)[0].split())
    found = re.findall(r"-* ?(.+?) (KEPT|BROKEN)", summary)
    return {short: status for name, status in found for short in _NAMES if name.startswith(short)}


#: Seat and team arithmetic: the partner across (``(seat + 2) % 4``, ``seat ^ 2``), the
#: next seat (``(seat + 1) & 3``, ``% 4``) and the engine's own partnership helpers.
SEAT_ARITHMETIC = re.compile(r"% 4\b|\^ 2\b|& 3\b|\bteam_of\(|(?<![.\w])partner\(")
#: The layers that play, draw, teach and simulate the game.
ASKING = ("spades/app", "spades/ui", "spades/bots", "spades/sim", "spades/cli.py", "pages")


def test_the_seat_arithmetic_pattern_finds_each_restatement() -> None:
    for line in ("(seat + 2) % 4", "seat ^ 2", "(seat + 1) & 3", "team_of(seat)", "partner(s)"):
        assert SEAT_ARITHMETIC.search(line), line
    assert not SEAT_ARITHMETIC.search("rules.partner(seat), rules.side_of(seat)")


def test_only_the_engine_works_out_partners_teams_and_the_next_seat() -> None:
    """The layers above the engine take seats, sides, partners and the play order from it
    (``Rules.sides``, ``side_of``, ``partner``, ``play_order``), never working them out."""
    paths = [ROOT / name for name in ASKING]
    files = [p for path in paths for p in ([path] if path.is_file() else path.rglob("*.py"))]
    found = [
        f"{file.relative_to(ROOT)}:{number}: {line.strip()}"
        for file in files
        for number, line in enumerate(file.read_text().splitlines(), 1)
        if SEAT_ARITHMETIC.search(line)
    ]
    assert files and found == []


def test_the_engine_contract_s_names_import_as_design_writes_them() -> None:
    """DESIGN §4: outside tools import the engine's API from the package root, and name the
    cards module ``spades.cards`` (as it was before the engine moved into ``spades/engine``),
    so ``import spades.cards`` and ``from spades.cards import …`` work in a fresh
    interpreter and give the one module."""
    code = (
        "import spades.cards\n"
        "from spades import HandState, IllegalAction, Match, Observation, Rules, RulesError\n"
        "from spades import cards\n"
        "from spades.bots import make_bot\n"
        "from spades.cards import card_str, parse_card\n"
        "import spades.engine.cards\n"
        "assert spades.cards is cards is spades.engine.cards\n"
        "print(card_str(parse_card('10h')))\n"
    )
    assert _fresh_python(code) == "TH"


def test_the_pages_that_play_load_no_frames_or_charts() -> None:
    """A server whose visitors only play (Play, the tables, Learn) never loads pandas or
    Altair: they are about 65 MB of its memory, for the pages with charts alone."""
    code = (
        "import sys\n"
        "import spades.app.site, spades.ui.table, spades.ui.lobby\n"
        "import spades.ui.tutorial_view, spades.ui.routing\n"
        "print(sorted(m for m in ('pandas', 'altair') if m in sys.modules))\n"
    )
    assert _fresh_python(code) == "[]"


def _fresh_python(code: str) -> str:
    """What ``code`` prints in a fresh interpreter (it must run without an error)."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
