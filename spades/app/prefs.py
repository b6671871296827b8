"""Each player's table preferences (felt, card back, four-colour deck, sound, volume, void
aid, bot speed, and the comforts: how long a finished trick stays, forced cards played by
themselves, and a sound when it is the player's turn).

They belong to the player (:mod:`spades.ui.identity`), not to a display name, and are kept
in the game store with the player, so two people who both call themselves "You" keep their
own tables. Stored values are checked on the way in: anything unknown or out of range
reads as the default.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from spades.app.play import TRICK_STAYS
from spades.app.tables import PACES
from spades.app.themes import CARD_BACKS, DEFAULT_BACK, DEFAULT_FELT, FELTS
from spades.store import Store


@dataclass(frozen=True, slots=True)
class TablePrefs:
    """How one player likes the table. Sound is off until the player turns it on, and so
    is each comfort: a finished trick stays with the bots' pace until the player picks
    a time or a tap."""

    felt: str = DEFAULT_FELT
    back: str = DEFAULT_BACK
    sound: bool = False
    volume: int = 60
    voids: bool = False
    speed: str = "normal"
    trick_stay: str = "pace"
    auto_play: bool = False
    turn_sound: bool = False
    #: Each suit in its own colour (♠ black, ♥ red, ♦ blue, ♣ green).
    four_colour: bool = False

    @classmethod
    def from_dict(cls, data: Any) -> TablePrefs:
        """Preferences from stored values; anything unknown or out of range is the default."""
        if not isinstance(data, dict):
            return cls()
        default = cls()
        felt = data.get("felt")
        back = data.get("back")
        volume = data.get("volume")
        speed = data.get("speed")
        stay = data.get("trick_stay")
        return cls(
            felt=felt if felt in FELTS else default.felt,
            back=back if back in CARD_BACKS else default.back,
            sound=data.get("sound") is True,
            volume=volume
            if isinstance(volume, int) and not isinstance(volume, bool) and 0 <= volume <= 100
            else default.volume,
            voids=data.get("voids") is True,
            speed=speed if isinstance(speed, str) and speed in PACES else default.speed,
            trick_stay=stay if isinstance(stay, str) and stay in TRICK_STAYS else "pace",
            auto_play=data.get("auto_play") is True,
            turn_sound=data.get("turn_sound") is True,
            four_colour=data.get("four_colour") is True,
        )


def load(store: Store, player_id: str | None) -> TablePrefs:
    """The preferences kept for ``player_id`` (the defaults for a new or unknown player)."""
    if player_id is None:
        return TablePrefs()
    return TablePrefs.from_dict(store.player_prefs(player_id))


def save(store: Store, player_id: str, prefs: TablePrefs) -> None:
    """Keep ``prefs`` for ``player_id``."""
    store.save_player_prefs(player_id, asdict(prefs))
