"""The table's sounds, synthesized here with numpy and written as WAV bytes.

Seven cues: a card ``snap`` when a card lands on the table, a trick ``gather`` (a soft
sweep of cloth), a ``chime`` when our side wins the hand, a ``made`` or ``set`` cue for
our team's bid at the end of a hand, a brass ``fanfare`` when our side wins the match,
and a ``turn`` knock when the table comes to the
player (played only for a player who asks for it). No recording is shipped or downloaded:
each sound is a few lines of arithmetic, rendered at :data:`RATE` samples a second in
16-bit mono.
"""

from __future__ import annotations

import functools
import io
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from spades.engine.cards import SOUTH, Seat, is_card
from spades.engine.match import Match

RATE: Final = 22_050
CUES: Final = ("snap", "gather", "chime", "made", "set", "fanfare", "turn")
#: The loudest sample of a cue at full volume (a little headroom below clipping).
PEAK: Final = 0.9
Samples = npt.NDArray[np.float64]


def _time(seconds: float) -> Samples:
    return np.arange(int(RATE * seconds)) / RATE


def _noise(seconds: float, seed: int) -> Samples:
    # A fixed seed: the same cue sounds the same every time (and tests can pin it).
    return np.random.default_rng(seed).uniform(-1.0, 1.0, int(RATE * seconds))


def _lowpass(signal: Samples, width: int) -> Samples:
    """A moving average over ``width`` samples: a cheap low-pass filter."""
    kernel = np.ones(width) / width
    return np.convolve(signal, kernel, mode="same")


def _snap() -> Samples:
    t = _time(0.09)
    crack = _noise(0.09, 1) * np.exp(-t * 90)
    knock = np.sin(2 * np.pi * 180 * t) * np.exp(-t * 60)
    return 0.8 * crack + 0.5 * knock


def _gather() -> Samples:
    t = _time(0.35)
    swish = _lowpass(_noise(0.35, 2), 6)
    # Rises and falls like cards drawn across the cloth.
    envelope: Samples = np.sin(np.pi * t / t[-1]) ** 2
    return 1.6 * swish * envelope


def _tone(freq: float, seconds: float, decay: float) -> Samples:
    t = _time(seconds)
    partials = np.sin(2 * np.pi * freq * t) + 0.3 * np.sin(2 * np.pi * 2 * freq * t)
    attack = np.minimum(1.0, t / 0.005)
    return partials * attack * np.exp(-t * decay) / 1.3


def _sequence(notes: Sequence[tuple[float, float]], decay: float, overlap: float) -> Samples:
    """Notes (frequency, start in seconds) laid over each other, each ringing ``overlap``."""
    end = max(start for _f, start in notes) + overlap
    out = np.zeros(int(RATE * end) + 1)
    for freq, start in notes:
        tone = _tone(freq, overlap, decay)
        first = int(RATE * start)
        out[first : first + tone.size] += tone
    return out / max(1.0, float(np.max(np.abs(out))))


def _chime() -> Samples:
    # C major arpeggio, C6 E6 G6 C7, ringing on.
    return _sequence([(1046.5, 0.0), (1318.5, 0.09), (1568.0, 0.18), (2093.0, 0.27)], 5, 0.9)


def _made() -> Samples:
    # A rising fourth: the contract is made.
    return _sequence([(659.3, 0.0), (880.0, 0.14)], 7, 0.5)


def _set() -> Samples:
    # A falling minor third, lower and duller: the contract is set.
    return _sequence([(392.0, 0.0), (329.6, 0.18)], 9, 0.55)


def _brass(freq: float, seconds: float) -> Samples:
    """A brass-like note: a bright stack of harmonics that swells in and rings."""
    t = _time(seconds)
    tone = sum(np.sin(2 * np.pi * freq * k * t) / k**0.8 for k in range(1, 8))
    swell = np.minimum(1.0, t / 0.04) * np.exp(-t * 1.5)
    return np.asarray(tone * swell, dtype=np.float64)


def _fanfare() -> Samples:
    # A triumphant call, G4 C5 E5 and a long G5: the match is won.
    notes = [(392.0, 0.0, 0.18), (523.3, 0.16, 0.18), (659.3, 0.32, 0.18), (784.0, 0.48, 0.9)]
    out = np.zeros(int(RATE * 1.4) + 1)
    for freq, start, length in notes:
        note = _brass(freq, length)
        first = int(RATE * start)
        out[first : first + note.size] += note
    return out / float(np.max(np.abs(out)))


def _knock() -> Samples:
    # Two soft low knocks on wood: the table waits for you.
    return _sequence([(220.0, 0.0), (220.0, 0.12)], 30, 0.25)


_MAKERS: Final = {
    "snap": _snap,
    "gather": _gather,
    "chime": _chime,
    "made": _made,
    "set": _set,
    "fanfare": _fanfare,
    "turn": _knock,
}


def samples(cue: str) -> Samples:
    """The samples of ``cue`` at full volume, peaking at :data:`PEAK`."""
    if cue not in _MAKERS:
        raise ValueError(f"unknown sound {cue!r}; the sounds are {', '.join(CUES)}")
    signal = _MAKERS[cue]()
    return signal * (PEAK / float(np.max(np.abs(signal))))


def wav_bytes(signal: Samples, volume: float) -> bytes:
    """``signal`` scaled by ``volume`` (0 to 1) as a 16-bit mono WAV file."""
    if not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume must be between 0 and 1, not {volume}")
    pcm = np.round(np.clip(signal * volume, -1.0, 1.0) * 32767).astype("<i2")
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm.tobytes())
    return buffer.getvalue()


@functools.lru_cache(maxsize=128)
def clip(cues: tuple[str, ...], volume: float, *, tail: int = 0) -> bytes:
    """The cues one after another (a short gap between them) as WAV bytes at ``volume``.

    ``tail`` adds that many silent samples at the end: two clips of the same cues then
    differ, so a player that is handed the second one plays it again.

    >>> data = clip(("snap", "gather"), 0.5)
    >>> data[:4], data[8:12]
    (b'RIFF', b'WAVE')
    """
    if not cues:
        raise ValueError("a clip needs at least one sound")
    gap = np.zeros(int(RATE * 0.05))
    parts: list[Samples] = []
    for cue in cues:
        if parts:
            parts.append(gap)
        parts.append(samples(cue))
    parts.append(np.zeros(tail))
    return wav_bytes(np.concatenate(parts), volume)


@dataclass(frozen=True, slots=True)
class TableMoment:
    """What the sounds follow on the table: the game, its actions, tricks gathered, hands,
    and who is to act."""

    game: str | None
    ply: int
    gathered: int
    hands: int
    to_act: Seat | None = None


def moment(match: Match, *, holding: bool, game: str | None) -> TableMoment:
    """The table now; a trick still on show (``holding``) is not gathered yet."""
    gathered = sum(len(hand.tricks) for hand in match.finished)
    if not match.is_over:
        gathered += len(match.hand.tricks)
    if holding:
        gathered -= 1
    return TableMoment(game, match.ply, gathered, len(match.finished), match.current_player)


def cues_between(
    before: TableMoment | None, after: TableMoment, match: Match, seat: Seat = SOUTH
) -> tuple[str, ...]:
    """The sounds for what happened between two moments of the same game, in order, as
    ``seat`` hears them.

    A card played snaps, a gathered trick swishes, and an ended hand gives our side's bid
    cue (made or set: our team's, or in cutthroat the player's own) and a chime when we
    took more points than every other side; the table coming to ``seat`` knocks. Nothing
    sounds for a first look, another game, or an undo (the table went back).
    """
    if before is None or before.game != after.game or after.ply < before.ply:
        return ()
    cues: list[str] = []
    if any(is_card(action) for action in match.history[before.ply : after.ply]):
        cues.append("snap")
    if after.gathered > before.gathered:
        cues.append("gather")
    if after.hands > before.hands:
        sides = match.results[-1].sides
        mine = match.rules.side_of(seat)
        ours = sides[mine]
        if ours.made is not None:
            cues.append("made" if ours.made else "set")
        if all(ours.points > side.points for i, side in enumerate(sides) if i != mine):
            cues.append("chime")
        if match.winner == mine:
            cues.append("fanfare")
    if after.to_act == seat and before.to_act != seat:
        cues.append("turn")
    return tuple(cues)
