"""Events: ``apply`` returns a frozen record of what happened (who acted, what they did,
the trick it finished and its winner, the hand's result when it ended the hand), and the
hand and the match keep them in order."""

from __future__ import annotations

import random

import pytest
from engine_helpers import snapshot

from spades.engine.cards import (
    BLIND_NIL,
    CLAIM,
    JOKER_PLAY_BASE,
    LOOK,
    bid_action,
    is_card,
    passed_card,
)
from spades.engine.events import Event
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.engine.state import HandState, IllegalAction, Phase

RULE_SETS = {
    "partnership": Rules(),
    "exchange": Rules(blind_nil_exchange=True, jokers=True),
    "cutthroat3": Rules(players=3, partnerships=False, jokers_added=True),
    "cutthroat4": Rules(partnerships=False),
}


def _play_out(state: HandState, rng: random.Random, *, claims: bool = False) -> list[Event]:
    """Random legal actions to the end of the hand (claiming at times if ``claims``),
    checking each event against the state before and after the action."""
    events = []
    while not state.is_over:
        seat = state.current_player
        tricks = len(state.tricks)
        if claims and state.phase is Phase.PLAYING and state.can_claim() and rng.random() < 0.5:
            action = CLAIM
        else:
            action = rng.choice(state.legal_actions())
        event = state.apply(action)
        assert (event.seat, event.action) == (seat, action)
        if len(state.tricks) > tricks:
            assert event.trick is state.tricks[-1]
        else:
            assert event.trick is None
        assert (event.result is not None) == state.is_over
        events.append(event)
    return events


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_every_action_applied_returns_the_event_the_hand_logs(name: str) -> None:
    rules = RULE_SETS[name]
    for seed in range(8):
        rng = random.Random(seed)
        state = HandState.deal(
            rules, dealer=seed % rules.players, seed=seed, scores=_trailing(rules)
        )
        events = _play_out(state, rng, claims=seed % 2 == 1)
        assert state.events == events
        assert [event.action for event in events] == state.history


def _trailing(rules: Rules) -> tuple[int, ...]:
    """Scores at which some seats may bid blind nil."""
    return (0, 200) if rules.partnerships else (200,) + (0,) * (rules.players - 1)


def test_a_finished_trick_comes_with_its_winner_in_the_event_of_its_last_card() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=3)
    for _ in range(4):
        state.apply(bid_action(3))
    plays = [state.apply(state.legal_actions()[0]) for _ in range(4)]
    assert [event.trick for event in plays[:3]] == [None, None, None]
    trick = plays[3].trick
    assert trick is not None and trick == state.tricks[0]
    assert trick.winner == state.current_player
    assert [seat for seat, _ in trick.plays()] == [event.seat for event in plays]


def test_the_event_that_ends_a_hand_holds_its_result() -> None:
    state = HandState.deal(Rules(), dealer=1, seed=11)
    events = _play_out(state, random.Random(11))
    last = events[-1]
    assert last.result is not None and last.result == state.result()
    assert last.trick == state.tricks[-1]
    assert all(event.result is None for event in events[:-1])


def test_a_claim_ends_the_hand_with_its_result_and_no_trick() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        state = HandState.deal(Rules(), dealer=seed % 4, seed=seed)
        while not state.is_over and not (state.phase is Phase.PLAYING and state.can_claim()):
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        seat = state.current_player
        assert seat is not None
        event = state.apply(CLAIM)
        assert event == Event(seat, CLAIM, None, state.result())
        return
    raise AssertionError("no seeded hand came to a claim")


def test_a_blind_nil_exchange_pass_is_told_with_the_seat_that_passes() -> None:
    state = HandState.deal(Rules(blind_nil_exchange=True), dealer=3, seed=7, scores=(0, 200))
    for action in (BLIND_NIL, bid_action(3), LOOK, bid_action(4), bid_action(3)):
        state.apply(action)
    assert state.phase is Phase.EXCHANGE
    seat = state.current_player
    assert seat is not None
    action = state.legal_actions()[0]
    assert passed_card(action) is not None
    assert state.apply(action) == Event(seat, action)


def test_a_joker_of_the_54_card_deck_is_told_by_the_action_that_played_it() -> None:
    rules = RULE_SETS["cutthroat3"]
    for seed in range(20):
        state = HandState.deal(rules, dealer=0, seed=seed)
        events = _play_out(state, random.Random(seed))
        jokers = [event for event in events if event.action >= JOKER_PLAY_BASE]
        assert all(is_card(event.action) for event in jokers)
        if jokers:
            return
    raise AssertionError("no seeded hand played a joker")


def test_an_illegal_action_raises_logs_nothing_and_changes_nothing() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=5)
    state.apply(bid_action(4))
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"^Cards are played after the bidding"):
        state.apply(state.hand(1)[0])
    assert snapshot(state) == before
    assert len(state.events) == 1


def test_events_are_frozen() -> None:
    event = HandState.deal(Rules(), dealer=0, seed=5).apply(bid_action(4))
    with pytest.raises(AttributeError):
        event.seat = 3  # type: ignore[misc]


def test_a_match_returns_and_keeps_the_events_of_every_hand() -> None:
    match = Match(Rules(target_score=200), seed=9)
    rng = random.Random(9)
    returned = []
    while not match.is_over:
        seat = match.current_player
        hands = len(match.finished)
        event = match.apply(rng.choice(match.legal_actions()))
        assert event.seat == seat
        assert (event.result is not None) == (len(match.finished) > hands)
        if event.result is not None:
            assert event.result == match.results[-1] == match.finished[-1].result()
        returned.append(event)
    assert match.events == returned
    assert [event.action for event in returned] == match.history
    assert [e for hand in match.finished for e in hand.events] == returned
