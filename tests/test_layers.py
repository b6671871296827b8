"""The layers hold: the import-linter contracts in pyproject.toml pass on the code, and each
one fails when a copy of the package is given one import that breaks it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")
CONFIG = str(ROOT / "pyproject.toml")


def _lint(package_parent: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the project's contracts, on the package found first on the
    path: the repository's, or the copy under ``package_parent``."""
    env = dict(os.environ)
    if package_parent is not None:
        env["PYTHONPATH"] = str(package_parent)
    return subprocess.run(
        [LINT_IMPORTS, CONFIG, "--no-cache"],
        cwd=package_parent or ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_code_keeps_every_contract() -> None:
    found = _lint()
    assert found.returncode == 0, found.stdout + found.stderr
    statuses = _statuses(found.stdout)
    assert all(statuses[name] == "KEPT" for name in _NAMES), statuses


#: One import that breaks each contract, and where it goes.
BREAKS = [
    ("spades/engine/rules.py", "import spades.store", "The engine imports nothing above it"),
    ("spades/bots/basic.py", "import spades.store", "Bots see no store and no UI"),
    ("spades/app/prefs.py", "import streamlit", "The app layer imports no Streamlit"),
    ("spades/store/store.py", "import streamlit", "Only spades.ui imports Streamlit"),
    ("spades/engine/deck.py", "import spades.engine.state", "No circles between the modules"),
]
_NAMES = [contract for _, _, contract in BREAKS]


@pytest.mark.parametrize(("module", "line", "contract"), BREAKS)
def test_one_import_that_crosses_a_layer_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    shutil.copytree(
        ROOT / "spades", tmp_path / "spades", ignore=shutil.ignore_patterns("__pycache__")
    )
    broken = tmp_path / module
    broken.write_text(broken.read_text() + f"\n{line}  # noqa\n")
    found = _lint(tmp_path)
    assert found.returncode != 0
    assert _statuses(found.stdout)[contract] == "BROKEN", found.stdout


def _statuses(report: str) -> dict[str, str]:
    """Each contract's name (as far as the test names it) and KEPT or BROKEN, from the
    report's summary, where a long name wraps onto a second line."""
    summary = " ".join(report.split("dependencies.", 1)[1].split("Contracts:", 1)[0].split())
    found = re.findall(r"-* ?(.+?) (KEPT|BROKEN)", summary)
    return {
        short: status
        for name, status in found
        for short in (name, *[n for n in _NAMES if name.startswith(n)])
    }
