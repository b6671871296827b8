"""Each player's table preferences (felt, card back, sound, volume, void aid), kept on disk.

They live in a small JSON file in the app's data directory, found the way the game store
finds its SQLite file (``SPADES_DATA_DIR``, else the per-user data folder), keyed by the
player's name. Writes replace the file atomically, so two sessions saving at once leave a
whole file; a damaged or foreign file reads as no preferences.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Final

from spades.store import default_db_path
from spades.ui.themes import CARD_BACKS, DEFAULT_BACK, DEFAULT_FELT, FELTS

FILE_NAME: Final = "table-prefs.json"
_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class TablePrefs:
    """How one player likes the table. Sound is off until the player turns it on."""

    felt: str = DEFAULT_FELT
    back: str = DEFAULT_BACK
    sound: bool = False
    volume: int = 60
    voids: bool = False

    @classmethod
    def from_dict(cls, data: Any) -> TablePrefs:
        """Preferences from stored values; anything unknown or out of range is the default."""
        if not isinstance(data, dict):
            return cls()
        default = cls()
        felt = data.get("felt")
        back = data.get("back")
        volume = data.get("volume")
        return cls(
            felt=felt if felt in FELTS else default.felt,
            back=back if back in CARD_BACKS else default.back,
            sound=data.get("sound") is True,
            volume=volume
            if isinstance(volume, int) and not isinstance(volume, bool) and 0 <= volume <= 100
            else default.volume,
            voids=data.get("voids") is True,
        )


FIELDS: Final = tuple(f.name for f in fields(TablePrefs))


def prefs_path() -> Path:
    """The preferences file, beside the default game store."""
    return default_db_path().parent / FILE_NAME


def player_key(name: str) -> str:
    """The key a player's preferences are kept under: the name, trimmed, case-folded.

    >>> player_key("  Ada  Lovelace "), player_key("ADA")
    ('ada lovelace', 'ada')
    """
    return " ".join(name.split()).casefold() or "you"


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def find(name: str, *, path: Path | None = None) -> TablePrefs | None:
    """The preferences saved for ``name``, or None when none are."""
    data = _read(path or prefs_path()).get(player_key(name))
    return None if data is None else TablePrefs.from_dict(data)


def load(name: str, *, path: Path | None = None) -> TablePrefs:
    """The preferences saved for ``name`` (the defaults when none are)."""
    return find(name, path=path) or TablePrefs()


def save(name: str, prefs: TablePrefs, *, path: Path | None = None) -> None:
    """Keep ``prefs`` for ``name``; a file that cannot be written is left as it was."""
    target = path or prefs_path()
    with _LOCK:
        data = _read(target)
        data[player_key(name)] = asdict(prefs)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=target.parent, prefix=".prefs-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1, sort_keys=True)
            os.replace(temp, target)
        except OSError:
            return
