"""The table's sounds: synthesized WAV clips and which events make which sound."""

from __future__ import annotations

import io
import wave

import numpy as np
import pytest

from spades.app import sound
from spades.bots.drive import play_match
from spades.engine.cards import NUM_CARDS, SOUTH, team_of
from spades.engine.match import Match
from spades.engine.rules import Rules


@pytest.mark.parametrize("cue", sound.CUES)
def test_each_cue_is_a_short_audible_sound_that_never_clips(cue: str) -> None:
    samples = sound.samples(cue)
    assert 0.05 < samples.size / sound.RATE < 1.5
    assert float(np.max(np.abs(samples))) == pytest.approx(sound.PEAK)
    assert float(np.sqrt(np.mean(samples**2))) > 0.05


def test_the_cues_sound_different() -> None:
    lengths = {cue: sound.samples(cue).size for cue in sound.CUES}
    assert len(set(lengths.values())) == len(sound.CUES)


def test_a_clip_is_a_16_bit_mono_wav_at_the_chosen_volume() -> None:
    loud = sound.clip(("snap",), 1.0)
    quiet = sound.clip(("snap",), 0.25)
    peaks = []
    for data in (loud, quiet):
        with wave.open(io.BytesIO(data)) as clip:
            assert (clip.getnchannels(), clip.getsampwidth(), clip.getframerate()) == (
                1,
                2,
                sound.RATE,
            )
            pcm = np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2")
        peaks.append(int(np.max(np.abs(pcm))))
    assert peaks[0] == round(sound.PEAK * 32767)
    assert peaks[1] == pytest.approx(peaks[0] / 4, abs=2)


def test_a_clip_plays_its_cues_in_order_with_a_gap_and_a_tail() -> None:
    both = sound.clip(("snap", "chime"), 1.0)
    tailed = sound.clip(("snap", "chime"), 1.0, tail=1)
    with wave.open(io.BytesIO(both)) as clip:
        frames = clip.getnframes()
    expected = sound.samples("snap").size + int(sound.RATE * 0.05) + sound.samples("chime").size
    assert frames == expected
    assert len(tailed) == len(both) + 2


def test_volume_outside_zero_to_one_and_unknown_cues_are_refused() -> None:
    with pytest.raises(ValueError, match="volume"):
        sound.wav_bytes(sound.samples("snap"), 1.5)
    with pytest.raises(ValueError, match="unknown sound"):
        sound.samples("applause")
    with pytest.raises(ValueError, match="at least one"):
        sound.clip((), 0.5)


def _play_until(match: Match, done: object) -> list[str]:
    """Apply the first legal action until ``done(match)``; collect the cues on the way
    (but South's knock for its turn, which has a test of its own)."""
    heard: list[str] = []
    before = sound.moment(match, holding=False, game="g")
    for _ in range(400):
        if done(match):  # type: ignore[operator]
            break
        match.apply(match.legal_actions()[0])
        now = sound.moment(match, holding=False, game="g")
        heard += [cue for cue in sound.cues_between(before, now, match) if cue != "turn"]
        before = now
    return heard


def test_bids_are_silent_and_every_card_snaps_and_every_trick_gathers() -> None:
    match = Match(Rules(mercy_score=None), seed=5)
    heard = _play_until(match, lambda m: m.finished)
    cards = sum(1 for a in match.finished[0].history if a < NUM_CARDS)
    assert heard.count("snap") == cards == 52
    assert heard.count("gather") == 13
    result = match.results[0].teams
    end = ["made" if result[0].made else "set"] if result[0].made is not None else []
    if result[0].points > result[1].points:
        end.append("chime")
    assert heard[-len(end) - 2 :] == ["snap", "gather", *end]


def test_a_trick_on_show_is_gathered_when_it_leaves_the_table() -> None:
    match = Match(Rules(), seed=9)
    while not match.hand.trick or len(match.hand.trick) < 3:
        match.apply(match.legal_actions()[0])
    before = sound.moment(match, holding=False, game="g")
    match.apply(match.legal_actions()[0])
    shown = sound.moment(match, holding=True, game="g")
    assert sound.cues_between(before, shown, match, seat=1) == ("snap",)
    gone = sound.moment(match, holding=False, game="g")
    assert sound.cues_between(shown, gone, match, seat=1) == ("gather",)
    assert match.current_player != 1


def test_a_knock_sounds_each_time_the_table_comes_to_the_seat() -> None:
    """Once as the table comes to South (its bid, each of its cards), never for
    another seat's turn, and not again while South acts on (it looks, then bids)."""
    match = Match(Rules(), seed=9)
    knocks = 0
    before = sound.moment(match, holding=False, game="g")
    while not match.finished:
        match.apply(match.legal_actions()[0])
        now = sound.moment(match, holding=False, game="g")
        cues = sound.cues_between(before, now, match)
        assert ("turn" in cues) == (now.to_act == SOUTH and before.to_act != SOUTH)
        knocks += cues.count("turn")
        before = now
    # Its thirteen cards, and its bid unless the hand opened with it.
    assert 13 <= knocks <= 14


def test_a_fanfare_sounds_for_the_side_that_wins_the_match_only() -> None:
    played = play_match(Rules(target_score=150), 3, ["standard"] * 4)
    assert played.winner is not None
    match = Match(played.rules, seed=played.seed)
    for action in played.history[:-1]:
        match.apply(action)
    before = sound.moment(match, holding=False, game="g")
    match.apply(played.history[-1])
    after = sound.moment(match, holding=False, game="g")
    for seat in range(4):
        heard = sound.cues_between(before, after, match, seat)
        assert ("fanfare" in heard) == (team_of(seat) == played.winner), (seat, heard)
