"""Shared fixtures: a sealed home and data folder, a database of each kind the store runs
on, a Streamlit server for browser tests and Debian's Chromium."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import warnings
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, BrowserContext, Page

from spades.stats.ratings import RATER
from spades.store import Store

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
#: Where the app keeps data unless told otherwise; a test sets its own (see ``sealed_data``).
DATA_ENV = ("SPADES_DATA_DIR", "SPADES_DB_URL")
#: Folders that default to places under HOME, which the session replaces.
XDG_ENV = ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
_SESSION_HOME = pytest.StashKey[tuple[pytest.MonkeyPatch, Path]]()
#: A PostgreSQL server for the store's tests: the SQLAlchemy URL of a database on it that
#: may create others (``postgresql+psycopg://user@host:port/postgres``). ``.ci/run`` starts
#: a server and sets it; without it the PostgreSQL cases skip, except under CI.
POSTGRES_ENV = "SPADES_TEST_POSTGRES"


def pytest_configure(config: pytest.Config) -> None:
    """Give the session an empty home folder of its own before any test imports Streamlit.

    Streamlit's config and secrets, Chromium's profile and the app's default data folder
    all live under HOME, and the app servers of the browser tests inherit this environment,
    so nothing the suite runs can read or write the home folder of whoever runs it. A
    developer's own database settings are dropped for the same reason.
    """
    home = Path(tempfile.mkdtemp(prefix="spades-tests-home-"))
    patch = pytest.MonkeyPatch()
    patch.setenv("HOME", str(home))
    for name in (*XDG_ENV, *DATA_ENV):
        patch.delenv(name, raising=False)
    config.stash[_SESSION_HOME] = (patch, home)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser test files spread over the first half of the run.

    They take the longest (up to a minute or two a test). The test processes take tests
    in runs of consecutive ones, a quarter of a process's share at first, so a block of
    them goes to one process: spread out, they fall to all three, and the many short tests
    fill the gaps at the end instead of one process finishing long tests alone. Each
    file's tests stay together, for its module fixtures.
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        if item.get_closest_marker("browser"):
            files.setdefault(str(item.path), []).append(item)
    if not files:
        return
    others = [item for item in items if not item.get_closest_marker("browser")]
    gap = len(items) // 2 // len(files)
    ordered: list[pytest.Item] = []
    for index, tests in enumerate(files.values()):
        ordered += tests + others[index * gap : (index + 1) * gap]
    items[:] = ordered + others[len(files) * gap :]


def pytest_unconfigure(config: pytest.Config) -> None:
    """Give back the environment and remove the session's home folder."""
    patch, home = config.stash[_SESSION_HOME]
    patch.undo()
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(autouse=True)
def sealed_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps the app's data in a folder of its own: returns that folder.

    The data folder, the default database in it and the per-user data folder all point
    into the test's temporary folder, so a test sees no other test's games or table
    preferences and never writes a player's. A test that sets its own values keeps them:
    its monkeypatching runs after this fixture's.
    """
    data = tmp_path / "spades-data"
    monkeypatch.setenv("SPADES_DATA_DIR", str(data))
    monkeypatch.setenv("SPADES_DB_URL", f"sqlite:///{data / 'spades.db'}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    return data


@pytest.fixture
def database(sealed_data: Path) -> str:
    """The URL of the database the app's pages use in this test (in its sealed folder)."""
    return f"sqlite:///{sealed_data / 'spades.db'}"


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str | None]:
    """This test process's own PostgreSQL database, created once and dropped at the end
    (None without a server): each test empties it rather than creating a database, which
    costs PostgreSQL about 0.4 s."""
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:
        yield None
        return
    name = f"spades_test_{uuid.uuid4().hex[:16]}"
    admin = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield sa.make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def _emptied(url: str) -> None:
    """Empty the database at ``url`` as if it were new: the connections of the tests before
    closed, and its schema dropped with everything in it and made again."""
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_database: str | None
) -> Iterator[str]:
    """An empty database for the store, once as a SQLite file and once as this process's
    PostgreSQL database, emptied for the test. Its address names the test's connections
    (``application_name``), so that no store kept for an earlier test's address is reused."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    if postgres_database is None:
        if os.environ.get("CI"):
            pytest.fail(f"{POSTGRES_ENV} is not set: CI runs the store on PostgreSQL too")
        pytest.skip(f"no PostgreSQL server ({POSTGRES_ENV} is not set)")
    _emptied(postgres_database)
    url = sa.make_url(postgres_database).update_query_dict(
        {"application_name": f"spades_test_{uuid.uuid4().hex[:12]}"}
    )
    yield url.render_as_string(hide_password=False)


@pytest.fixture
def app_db(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """The app's own store on the test's database (``db_url``), as the server's routes find
    it."""
    monkeypatch.setenv("SPADES_DB_URL", db_url)
    store = Store.default(db_url, rater=RATER)
    yield store
    Store._shared.pop(store.url, None)
    store.close()


def run_async(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end on an event loop of its own, in a thread of its own: once a
    browser test has run, Playwright keeps a loop running in this thread for the rest of
    the session, and ``asyncio.run`` refuses to start another there."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


def run_pytest(
    *args: str,
    command: Sequence[str] = (sys.executable, "-m", "pytest"),
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run pytest with ``args`` in a process of its own at the project's root, by ``command``,
    with ``env`` (this process's environment by default). The PYTEST_ variables of the
    session running it are left out, so the new run is not taken for a part of this one."""
    return subprocess.run(
        [*command, *args],
        cwd=ROOT,
        env={
            name: value
            for name, value in (os.environ if env is None else env).items()
            if not name.startswith("PYTEST_")
        },
        capture_output=True,
        text=True,
        timeout=300,
    )


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


@pytest.fixture(scope="session")
def app_db_url(app_data: Path) -> str:
    """The database URL the app server uses; tests may store games in it."""
    return f"sqlite:///{app_data / 'spades.db'}"


@contextmanager
def serve_app(data: Path, db_url: str, *, base_path: str = "") -> Iterator[str]:
    """Run the app the way a user does (``streamlit run serve.py``) on a free local port;
    its address (under ``base_path``, Streamlit's ``server.baseUrlPath``, when given)."""
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
            str(ROOT / "serve.py"),
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            *(["--server.baseUrlPath", base_path] if base_path else []),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}" + (f"/{base_path}" if base_path else "")
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
        _stop_server(proc, data / "server.log")
        log.close()


def _stop_server(proc: subprocess.Popen[bytes], log: Path) -> None:
    """Stop the server as a process manager does: SIGTERM, then SIGKILL after a grace period.

    The server waits for its open connections before it stops (0.2–0.5 s as a rule); on a
    loaded machine a page still connected has kept it past the grace period. The test's
    own checks are done by then, so the server is killed and the wait is reported as a
    warning with the server's last words, not as the test's failure."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=20)
        tail = log.read_text(errors="replace")[-2000:]
        message = f"the app server took over 10 s to stop and was killed:\n{tail}"
        warnings.warn(message, stacklevel=2)


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


@pytest.fixture
def new_browser(browser: Browser) -> Iterator[Callable[[], Page]]:
    """Opens a page in a browser of its own: its own cookies, so its own player and seats."""
    made: list[BrowserContext] = []

    def new_page() -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        made.append(context)
        return context.new_page()

    try:
        yield new_page
    finally:
        for context in made:
            context.close()
