"""Versioned JSON game records: save a match, and load one back only if it is whole.

``loads`` checks the format and version, every field's type and size, then replays every
action through the engine and compares the stored summary with the replay. Anything
wrong raises :class:`RecordError` naming what and where; nothing is half-loaded.

>>> from spades.engine.rules import Rules
>>> m = Match(Rules(), seed=1)
>>> event = m.apply(m.legal_actions()[0])
>>> text = dumps(GameRecord.of(m))
>>> loads(text).match.history == m.history
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from spades.engine.cards import NUM_ACTIONS
from spades.engine.match import Match
from spades.engine.rules import Rules, RulesError
from spades.engine.state import IllegalAction

FORMAT: Final = "spades-game"
VERSION: Final = 1
MAX_BYTES: Final = 4_000_000
MAX_ACTIONS: Final = 100_000
MAX_TEXT: Final = 200
DEFAULT_PLAYERS: Final = ("North", "East", "South", "West")
#: The names of three-handed cutthroat's seats 0, 1 and 2 when none are given.
THREE_PLAYERS: Final = ("Player 1", "Player 2", "Player 3")


class RecordError(ValueError):
    """A record that cannot be loaded; the message says what is wrong and where."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as data: rules, seed and actions, plus player names (one a seat) and
    free-form notes."""

    rules: Rules
    seed: int
    actions: tuple[int, ...]
    players: tuple[str, ...] = DEFAULT_PLAYERS
    meta: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.players) != self.rules.players:
            raise ValueError(
                f"players: {self.rules.players} names are needed, not {len(self.players)}"
            )

    @classmethod
    def of(
        cls,
        match: Match,
        *,
        players: tuple[str, ...] | None = None,
        meta: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """The record of a match as it stands (``players`` left out: the seats' names)."""
        if players is None:
            players = DEFAULT_PLAYERS if match.rules.players == 4 else THREE_PLAYERS
        return cls(match.rules, match.seed, tuple(match.history), players, dict(meta or {}))

    def replay(self) -> Match:
        """The match these actions lead to (raises ``IllegalAction``)."""
        return Match.replay(self.rules, seed=self.seed, actions=self.actions)


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A validated record and the match replayed from it."""

    record: GameRecord
    match: Match


def _summary(match: Match) -> dict[str, Any]:
    return {
        "hands": len(match.finished),
        "scores": list(match.scores),
        "bags": list(match.bags),
        "over": match.is_over,
        "winner": match.winner,
    }


def to_json_dict(record: GameRecord) -> dict[str, Any]:
    """The record as a JSON-ready dict, with a summary that ``loads`` checks."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": record.rules.to_dict(),
        "seed": record.seed,
        "players": list(record.players),
        "meta": dict(record.meta),
        "actions": list(record.actions),
        "summary": _summary(record.replay()),
    }


def dumps(record: GameRecord) -> str:
    """The record as JSON text."""
    return json.dumps(to_json_dict(record), ensure_ascii=False, separators=(",", ":"))


def _expect(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    ok = False if isinstance(value, bool) and kind is not bool else isinstance(value, kind)
    if not ok:
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RecordError(f"{where}: expected {names}, found {type(value).__name__}")
    return value


def _text(value: Any, where: str) -> str:
    _expect(value, str, where)
    if len(value) > MAX_TEXT:
        raise RecordError(f"{where}: longer than {MAX_TEXT} characters")
    return str(value)


def from_json_dict(data: Any) -> LoadedGame:
    """Validate a decoded record and replay it."""
    _expect(data, dict, "record")
    expected = {"format", "version", "rules", "seed", "players", "meta", "actions", "summary"}
    missing = sorted(expected - set(data))
    if missing:
        raise RecordError(f"record: missing field {missing[0]!r}")
    extra = sorted(set(data) - expected)
    if extra:
        raise RecordError(f"record: unknown field {extra[0]!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, found {data['format']!r}")
    version = _expect(data["version"], int, "version")
    if version != VERSION:
        raise RecordError(f"version: this program reads version {VERSION}, not {version}")
    try:
        rules = Rules.from_dict(_expect(data["rules"], dict, "rules"))
    except (RulesError, TypeError) as err:
        raise RecordError(f"rules.{err}") from None
    seed = _expect(data["seed"], int, "seed")
    if not -(2**63) <= seed < 2**63:
        raise RecordError("seed: out of range")
    players = _expect(data["players"], list, "players")
    if len(players) != rules.players:
        raise RecordError(f"players: expected {rules.players} names, found {len(players)}")
    names = tuple(_text(p, f"players[{i}]") for i, p in enumerate(players))
    meta = _expect(data["meta"], dict, "meta")
    if len(meta) > 50:
        raise RecordError("meta: more than 50 entries")
    notes = {_text(k, "meta key"): _text(v, f"meta[{k!r}]") for k, v in meta.items()}
    actions = _expect(data["actions"], list, "actions")
    if len(actions) > MAX_ACTIONS:
        raise RecordError(f"actions: more than {MAX_ACTIONS} actions")
    match = Match(rules, seed=seed)
    for i, action in enumerate(actions):
        _expect(action, int, f"actions[{i}]")
        if not 0 <= action < NUM_ACTIONS:
            raise RecordError(f"actions[{i}]: {action} is not an action")
        if match.is_over:
            raise RecordError(f"actions[{i}]: the match was already over")
        try:
            match.apply(action)
        except IllegalAction as err:
            raise RecordError(
                f"actions[{i}] (hand {match.hand_number}, {match.hand.describe(action)}): {err}"
            ) from None
    summary = _expect(data["summary"], dict, "summary")
    replayed = _summary(match)
    unknown = sorted(set(summary) - set(replayed))
    if unknown:
        raise RecordError(f"summary: unknown entry {unknown[0]!r}")
    for key, value in replayed.items():
        # Compared as JSON so that 1 and true, or 0 and 0.0, do not pass for each other.
        if json.dumps(summary.get(key)) != json.dumps(value):
            raise RecordError(
                f"summary.{key}: the record says {summary.get(key)!r} but replaying "
                f"the actions gives {value!r}"
            )
    record = GameRecord(rules, seed, tuple(actions), names, notes)
    return LoadedGame(record, match)


def loads(text: str | bytes) -> LoadedGame:
    """Parse, validate and replay a JSON record, or raise :class:`RecordError`."""
    if len(text) > MAX_BYTES or (isinstance(text, str) and len(text.encode()) > MAX_BYTES):
        raise RecordError(f"record: larger than {MAX_BYTES} bytes")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(
            f"record: not valid JSON (line {err.lineno}, column {err.colno})"
        ) from None
    except UnicodeDecodeError:
        raise RecordError("record: not UTF-8 text") from None
    except ValueError:
        # Python refuses to read a number of thousands of digits.
        raise RecordError("record: a number far too long to be a game's") from None
    except RecursionError:
        raise RecordError("record: lists or objects nested far too deeply") from None
    return from_json_dict(data)
