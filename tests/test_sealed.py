"""The suite is sealed: every test keeps its data in its own temporary folder, and running
tests writes nothing under the home folder of whoever runs them."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import DATA_ENV, XDG_ENV, run_pytest

#: A few seconds of tests that save games and table preferences the way the app does, on
#: SQLite: the only store that keeps files. (On PostgreSQL the sample would create a database
#: of its own, which waits for any checkpoint the server is spreading out, up to minutes.)
SAMPLE = (
    "tests/test_app_play.py",
    "tests/test_store.py",
    "-k",
    "(bot_levels_name or mercy_score or round_trips or default_database) and not postgresql",
)


def test_each_test_keeps_its_data_in_its_own_temporary_folder(tmp_path: Path) -> None:
    data = Path(os.environ["SPADES_DATA_DIR"])
    assert data.is_relative_to(tmp_path)
    assert os.environ["SPADES_DB_URL"] == f"sqlite:///{data / 'spades.db'}"
    assert Path(os.environ["XDG_DATA_HOME"]).is_relative_to(tmp_path)


def test_running_tests_writes_nothing_under_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {name: value for name, value in os.environ.items() if name not in (*DATA_ENV, *XDG_ENV)}
    env["HOME"] = str(home)
    done = run_pytest(
        "-n",
        "0",
        "-p",
        "no:cacheprovider",
        "-q",
        "--basetemp",
        str(tmp_path / "basetemp"),
        *SAMPLE,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    written = sorted(str(path.relative_to(home)) for path in home.rglob("*"))
    assert written == [], f"the tests wrote under HOME: {written}"
