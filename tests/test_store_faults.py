"""A database that cannot be used gives a plain message, never a traceback, and loses nothing.

Each fault is built for real in a temporary folder: a file cut short or overwritten, a
read-only file or folder, a lock held by another program, an empty file, a schema from a
newer release. The message a player sees names no file, SQL or driver error; the details
go to the server log.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest

from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.store import Store, StoreError, StoreUnavailable
from spades.store.errors import _fault_reason

PLAYERS = ("North", "East", "You", "West")
BOTS = {0: "random", 1: "random", 3: "random"}
ALL_BOTS = {seat: "random" for seat in range(4)}
AS_ROOT = os.geteuid() == 0


@dataclass(frozen=True)
class Saved:
    """A closed store file holding a finished game and a game in play."""

    path: Path
    finished: str
    playing: str

    @property
    def url(self) -> str:
        return f"sqlite:///{self.path}"

    def snapshot(self) -> tuple[bytes, bytes]:
        """The database file and its write-ahead log (empty when there is none).

        A store that opens the file makes the log and its index (-shm) beside it; only a
        write would put anything in the log.
        """
        wal = self.path.with_name(self.path.name + "-wal")
        return self.path.read_bytes(), wal.read_bytes() if wal.exists() else b""


@pytest.fixture
def saved(tmp_path: Path) -> Saved:
    path = tmp_path / "games.db"
    store = Store(f"sqlite:///{path}")
    match = play_match(Rules(), 3, ["random"] * 4)
    finished = store.save_match(match, players=PLAYERS, kind="simulated", bot_levels=ALL_BOTS)
    playing = store.new_game(rules=Rules(), seed=1, players=PLAYERS, kind="human", bot_levels=BOTS)
    store.append_action(playing, store.load(playing).match.legal_actions()[0], after=[])
    store.close()
    return Saved(path, finished, playing)


@pytest.fixture
def writable_again(tmp_path: Path) -> Iterator[None]:
    """Give the folder back its write permission, so that pytest can clean it up."""
    yield
    tmp_path.chmod(0o755)
    for path in tmp_path.iterdir():
        path.chmod(0o644)


def _execute(path: Path, statement: str) -> None:
    """Change the file as another program would, and let go of it (so the log is folded in)."""
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute(statement)


def _assert_plain(err: StoreError, tmp_path: Path) -> None:
    text = str(err)
    assert str(tmp_path) not in text
    assert "games.db" not in text
    assert "sql" not in text.lower()
    assert "error" not in text.lower()
    assert text[0].isupper() and text.endswith(".")


def _refused(url: str, tmp_path: Path, **options: float) -> StoreUnavailable:
    """The plain error that opening the store at ``url`` ends with."""
    with pytest.raises(StoreUnavailable) as caught:
        Store(url, **options)
    _assert_plain(caught.value, tmp_path)
    return caught.value


def _use(url: str, gid: str) -> None:
    """Open the store, read a game and write to it: whatever fails first fails."""
    store = Store(url)
    match = store.load(gid).match
    store.append_action(gid, match.legal_actions()[0], after=match.history)


def _damage_cut_in_half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _damage_header(data: bytes) -> bytes:
    return b"\x00not sqlite at all" * 6 + data[108:]


def _damage_pages(data: bytes) -> bytes:
    return data[:4096] + b"\xff" * 8192 + data[4096 + 8192 :]


@pytest.mark.parametrize("damage", [_damage_cut_in_half, _damage_header, _damage_pages])
def test_a_damaged_file_is_refused_plainly_and_left_as_it_was(
    saved: Saved, tmp_path: Path, damage: Callable[[bytes], bytes]
) -> None:
    saved.path.write_bytes(damage(saved.path.read_bytes()))
    before = saved.snapshot()
    with pytest.raises(StoreUnavailable) as caught:
        _use(saved.url, saved.playing)
    assert caught.value.reason == "damaged"
    assert "damaged" in str(caught.value)
    _assert_plain(caught.value, tmp_path)
    assert saved.snapshot() == before


def test_a_fault_is_logged_on_the_server_with_its_details(
    saved: Saved, caplog: pytest.LogCaptureFixture
) -> None:
    saved.path.write_bytes(_damage_header(saved.path.read_bytes()))
    with caplog.at_level(logging.ERROR, logger="spades.store"), pytest.raises(StoreUnavailable):
        Store(saved.url)
    [record] = [r for r in caplog.records if r.name == "spades.store"]
    assert record.levelno == logging.ERROR
    assert str(saved.path) in record.getMessage()
    assert record.exc_info is not None
    assert "file is not a database" in str(record.exc_info[1])


def test_a_read_only_database_still_reads_but_refuses_writes_plainly(
    saved: Saved, tmp_path: Path
) -> None:
    writable = Store(saved.url)
    player, token = writable.new_player()
    writable.close()
    _execute(saved.path, "UPDATE players SET seen_at = '2020-01-01 00:00:00.000000'")
    before = saved.snapshot()
    store = Store(f"sqlite:///file:{saved.path}?mode=ro&uri=true")
    assert store.load(saved.finished).match.is_over
    match = store.load(saved.playing).match
    with pytest.raises(StoreUnavailable) as caught:
        store.append_action(saved.playing, match.legal_actions()[0], after=match.history)
    assert caught.value.reason == "read_only"
    _assert_plain(caught.value, tmp_path)
    with pytest.raises(StoreUnavailable, match="read-only"):
        store.new_player()
    # Noting when a player was last seen is bookkeeping: it does not turn them away.
    assert store.player_for_token(token) == player
    assert store.load(saved.playing).match.history == match.history
    assert saved.snapshot() == before


@pytest.mark.skipif(AS_ROOT, reason="root writes to read-only files; the mode=ro test covers it")
@pytest.mark.usefixtures("writable_again")
@pytest.mark.parametrize("read_only", ["file", "folder", "both"])
def test_a_read_only_file_or_folder_is_refused_plainly_and_left_as_it_was(
    saved: Saved, tmp_path: Path, read_only: str
) -> None:
    before = saved.snapshot()
    if read_only in ("file", "both"):
        saved.path.chmod(0o444)
    if read_only in ("folder", "both"):
        tmp_path.chmod(0o555)
    with pytest.raises(StoreUnavailable) as caught:
        _use(saved.url, saved.playing)
    assert caught.value.reason == "read_only"
    _assert_plain(caught.value, tmp_path)
    assert saved.snapshot() == before


@pytest.mark.skipif(AS_ROOT, reason="root writes in read-only folders")
@pytest.mark.usefixtures("writable_again")
def test_a_new_database_in_a_read_only_folder_is_read_only(tmp_path: Path) -> None:
    tmp_path.chmod(0o555)
    assert _refused(f"sqlite:///{tmp_path / 'games.db'}", tmp_path).reason == "read_only"
    assert list(tmp_path.iterdir()) == []


def test_a_lock_held_past_the_timeout_is_busy_and_loses_nothing(
    saved: Saved, tmp_path: Path
) -> None:
    store = Store(saved.url, busy_timeout=0.05)
    match = store.load(saved.playing).match
    action = match.legal_actions()[0]
    holder = sqlite3.connect(saved.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable) as caught:
            store.append_action(saved.playing, action, after=match.history)
        assert caught.value.reason == "busy"
        assert "try again" in str(caught.value)
        _assert_plain(caught.value, tmp_path)
        assert _refused(saved.url, tmp_path, busy_timeout=0.05).reason == "busy"
        # Readers do not wait for the writer (WAL): the game can still be shown.
        assert store.load(saved.playing).match.history == match.history
    finally:
        holder.rollback()
        holder.close()
    store.append_action(saved.playing, action, after=match.history)
    assert store.load(saved.playing).match.history == [*match.history, action]


def test_a_writer_kept_waiting_by_the_server_s_own_writer_is_busy_and_loses_nothing(
    saved: Saved, tmp_path: Path
) -> None:
    """The server's writers to a SQLite file queue among themselves, each for as long as
    the busy timeout, like a writer of another process."""
    store = Store(saved.url, busy_timeout=0.05)
    match = store.load(saved.playing).match
    action = match.legal_actions()[0]
    writing, done = threading.Event(), threading.Event()

    def long_write() -> None:
        with store._write():
            writing.set()
            done.wait(10)

    holder = threading.Thread(target=long_write)
    holder.start()
    try:
        assert writing.wait(10)
        with pytest.raises(StoreUnavailable) as caught:
            store.append_action(saved.playing, action, after=match.history)
        assert caught.value.reason == "busy"
        assert store.load(saved.playing).match.history == match.history
    finally:
        done.set()
        holder.join()
    store.append_action(saved.playing, action, after=match.history)
    assert store.load(saved.playing).match.history == [*match.history, action]


def test_an_empty_file_is_refused_and_not_turned_into_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.touch()
    assert _refused(f"sqlite:///{path}", tmp_path).reason == "empty"
    assert [p.name for p in tmp_path.iterdir()] == ["games.db"]
    assert path.stat().st_size == 0


def test_a_missing_file_becomes_a_new_store(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    assert not store.list_games()
    assert (tmp_path / "games.db").stat().st_size > 0


def test_a_schema_from_a_newer_release_is_refused_plainly_and_left_as_it_was(
    saved: Saved, tmp_path: Path
) -> None:
    _execute(saved.path, "UPDATE schema_version SET version = 99")
    before = saved.snapshot()
    refused = _refused(saved.url, tmp_path)
    assert refused.reason == "newer"
    assert "upgrade spades" in str(refused)
    assert saved.snapshot() == before


@pytest.mark.parametrize(
    "statement",
    ["INSERT INTO schema_version VALUES (3)", "UPDATE schema_version SET version = 'three'"],
    ids=["two rows", "text"],
)
def test_a_schema_version_that_names_no_version_is_damaged(
    saved: Saved, tmp_path: Path, statement: str
) -> None:
    _execute(saved.path, statement)
    assert _refused(saved.url, tmp_path).reason == "damaged"


def test_a_database_that_cannot_be_opened_is_unreachable(tmp_path: Path) -> None:
    folder = tmp_path / "a folder"
    folder.mkdir()
    assert _refused(f"sqlite:///{folder}", tmp_path).reason == "unreachable"


def test_a_value_out_of_range_is_refused_plainly_and_stores_nothing(
    saved: Saved, tmp_path: Path
) -> None:
    store = Store(saved.url)
    before = len(store.list_games())
    with pytest.raises(StoreError, match="out of the range") as caught:
        store.new_game(rules=Rules(), seed=2**70, players=PLAYERS, kind="human", bot_levels=BOTS)
    assert not isinstance(caught.value, StoreUnavailable)
    assert "sql" not in str(caught.value).lower()
    assert str(tmp_path) not in str(caught.value)
    assert len(store.list_games()) == before


@pytest.mark.parametrize("timeout", [-1, float("nan"), float("inf"), "5", True])
def test_a_busy_timeout_must_be_a_number_of_seconds(tmp_path: Path, timeout: object) -> None:
    with pytest.raises(StoreError, match="busy_timeout"):
        Store(f"sqlite:///{tmp_path / 'games.db'}", busy_timeout=timeout)  # type: ignore[arg-type]


def test_an_io_error_on_a_read_only_disk_is_read_only_not_damaged(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    io_error = sqlite3.OperationalError("disk I/O error")
    # A disk that takes writes: the I/O error means damage.
    assert _fault_reason(io_error, disk / "games.db") == "damaged"
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "none", str(disk)]).returncode:
        pytest.skip("a read-only disk cannot be mounted here")
    try:
        assert not os.access(disk, os.W_OK)
        assert _fault_reason(io_error, disk / "games.db") == "read_only"
    finally:
        subprocess.run(["umount", str(disk)], check=True)
