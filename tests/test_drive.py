"""The one loop that lets bots play a hand or a match."""

from __future__ import annotations

from spades.bots import make_bot
from spades.bots.base import Bot
from spades.bots.drive import drive, next_bot_action
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.state import HandState


def _bots(seats: tuple[int, ...]) -> dict[int, Bot]:
    return {seat: make_bot("random", seed=seat) for seat in seats}


def test_drive_stops_at_the_first_seat_without_a_bot() -> None:
    for seed in range(20):
        hand = HandState.deal(Rules(), dealer=seed % 4, seed=seed)
        made = drive(hand, _bots((0, 1, 3)))
        assert hand.current_player == 2
        assert made == hand.history


def test_drive_plays_a_match_to_its_end_with_four_bots() -> None:
    match = Match(Rules(target_score=200), seed=5)
    made = drive(match, _bots((0, 1, 2, 3)))
    assert match.is_over
    assert made == match.history


def test_drive_stops_as_soon_as_until_says_so() -> None:
    match = Match(Rules(), seed=2)
    made = drive(match, _bots((0, 1, 2, 3)), until=lambda: len(match.finished) >= 1)
    assert len(match.finished) == 1
    assert not match.hand.history
    assert made == match.history


def test_drive_plays_what_the_seats_own_bots_choose() -> None:
    hand = HandState.deal(Rules(), dealer=0, seed=9)
    replay = hand.clone()
    bots = _bots((0, 1, 2, 3))
    twins = _bots((0, 1, 2, 3))
    made = drive(hand, bots)
    for action in made:
        seat = replay.current_player
        assert seat is not None
        assert twins[seat].act(replay.observation(seat)) == action
        replay.apply(action)
    assert replay.is_over


def test_next_bot_action_chooses_a_legal_action_without_applying_it() -> None:
    hand = HandState.deal(Rules(), dealer=3, seed=4)
    action = next_bot_action(hand, _bots((0,)))
    assert action in hand.legal_actions()
    assert hand.history == []


def test_next_bot_action_is_none_for_a_seat_without_a_bot_or_a_finished_game() -> None:
    hand = HandState.deal(Rules(), dealer=3, seed=4)
    assert next_bot_action(hand, _bots((1, 2, 3))) is None
    drive(hand, _bots((0, 1, 2, 3)))
    assert hand.is_over
    assert next_bot_action(hand, _bots((0, 1, 2, 3))) is None
