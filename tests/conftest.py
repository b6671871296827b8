"""Shared fixtures: a Streamlit server for browser tests and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from spades.ui.prefs import FILE_NAME

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium; a browser test never downloads a browser."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is missing; .ci/run installs it with apt-get")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def app_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app server's data directory."""
    return tmp_path_factory.mktemp("app-data")


@pytest.fixture
def fresh_table_prefs(app_data: Path) -> Iterator[None]:
    """No table preferences saved on the shared app server while the test runs.

    The preferences are kept per player name in the server's data directory, and every
    browser test plays as "You": without this, what one test chose (a felt, sound on, the
    volume) would greet the next test on the same server.
    """
    saved = app_data / FILE_NAME
    saved.unlink(missing_ok=True)
    yield
    saved.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def app_db_url(app_data: Path) -> str:
    """The database URL the app server uses; tests may store games in it."""
    return f"sqlite:///{app_data / 'spades.db'}"


@contextmanager
def serve_app(data: Path, db_url: str) -> Iterator[str]:
    """Run the app the way a user does (``streamlit run``) on a free local port."""
    port = _free_port()
    env = {
        **os.environ,
        "SPADES_DB_URL": db_url,
        "SPADES_DATA_DIR": str(data),
        "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
    }
    log = open(data / "server.log", "w")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "streamlit_app.py"),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the app did not start:\n" + (data / "server.log").read_text())
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        log.close()


@pytest.fixture(scope="session")
def app_url(app_data: Path, app_db_url: str) -> Iterator[str]:
    """The app server shared by the browser tests."""
    with serve_app(app_data, app_db_url) as url:
        yield url


@pytest.fixture
def fresh_app_url(tmp_path: Path) -> Iterator[str]:
    """An app server of the test's own, so that its first request is the test's."""
    with serve_app(tmp_path, f"sqlite:///{tmp_path / 'spades.db'}") as url:
        yield url
