"""Hints: the expert's (or standard's) action with a reason read from the observation."""

from __future__ import annotations

import random

import pytest
from bot_positions import (
    ACE_KING,
    NIL_COVER_HANDS,
    TEXTBOOK_NIL,
    TRUMP_HANDS,
    VOID_HANDS,
    bids,
    position,
    with_south,
)
from engine_helpers import cards

import spades.bots.hint as hint_module
from spades.bots import make_bot
from spades.bots.hint import MAX_REASON, Hint, explain, hint, hint_bot_name
from spades.cards import BLIND_NIL, EXCHANGE_BASE, LOOK, NIL, bid_action, parse_card
from spades.rules import Rules
from spades.state import HandState, Phase

C = parse_card
BIDS = bids(3, 4, 3, 3)


def south(state: HandState) -> Hint:
    assert state.current_player == 2
    return hint(state.observation(2))


def test_hint_gives_the_expert_action_when_the_expert_is_registered() -> None:
    state = position(VOID_HANDS, 2, [*BIDS, C("2H")])
    obs = state.observation(0)
    tip = hint(obs)
    assert tip.action == make_bot(hint_bot_name(), seed=0).act(obs)
    assert hint_bot_name() == "expert"


def test_hint_falls_back_to_standard_without_an_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hint_module, "bot_names", lambda: ["random", "basic", "standard"])
    assert hint_module.hint_bot_name() == "standard"
    state = position(NIL_COVER_HANDS, 3, [*bids(0, 3, 4, 4), *cards("9H 2H")])
    tip = south(state)
    assert tip.action == make_bot("standard", seed=0).act(state.observation(2))
    assert tip.reason == "Cover: overtake your partner's 9♥ to save the nil"


def test_duck_reason_names_the_partners_winning_card() -> None:
    state = position(VOID_HANDS, 2, [*BIDS, *cards("2H AH 3H")])
    assert explain(state.observation(2), C("2C")) == "Duck: your partner's A♥ is already winning"


def test_trump_reason_says_the_seat_is_out_of_the_suit() -> None:
    state = position(TRUMP_HANDS, 2, [*BIDS, *cards("KH 2H 3H")])
    reason = explain(state.observation(2), C("2S"))
    assert reason == "Trump: you have no hearts, and the 2♠ takes the trick"


def test_discard_reason_when_the_seat_cannot_follow_or_win() -> None:
    state = position(TRUMP_HANDS, 2, [*BIDS, *cards("KH 2H 3H")])
    assert explain(state.observation(2), C("2C")) == "Discard the 2♣: you have no hearts"


def test_follow_reasons_tell_a_low_card_from_a_higher_one_that_cannot_win() -> None:
    state = position(VOID_HANDS, 2, [*BIDS, C("AC")])
    obs = state.observation(0)
    assert explain(obs, C("7C")) == "Play low: you cannot beat the A♣"
    assert explain(obs, C("9C")) == "Play the 9♣: you cannot beat the A♣ anyway"


def test_nil_bid_reason_says_the_hand_can_duck() -> None:
    tip = south(with_south(TEXTBOOK_NIL))
    assert tip.action == NIL
    assert tip.reason.startswith("Nil: ")
    assert "no card in your hand is likely to win a trick" in tip.reason


def test_number_bid_reason_counts_the_winners() -> None:
    state = with_south(ACE_KING)
    reason = explain(state.observation(2), bid_action(8))
    assert reason == "Bid 8: you count about 8 tricks (A♠, K♠, Q♠, A♣, A♦, K♦, A♥, K♥, long spades)"


def test_look_and_blind_nil_reasons_mention_the_score() -> None:
    state = HandState.deal(Rules(), dealer=1, seed=3, scores=(0, 250))
    obs = state.observation(2)
    assert obs.legal_actions == (BLIND_NIL, LOOK)
    assert "trails by 250" in explain(obs, BLIND_NIL)
    assert explain(obs, LOOK).startswith("Look at your cards")


def test_exchange_reasons_follow_the_blind_nil_roles() -> None:
    rules = Rules(blind_nil_exchange=True)
    state = HandState.deal(rules, dealer=1, seed=4, scores=(0, 250))
    state.apply(BLIND_NIL)
    for action in (bid_action(3), LOOK, bid_action(4), bid_action(3)):
        state.apply(action)
    assert state.phase is Phase.EXCHANGE and state.current_player == 2
    tip = south(state)
    assert tip.action - EXCHANGE_BASE == max(state.hand(2), key=state.deck.power.__getitem__)
    assert "blind nil bidder" in tip.reason
    state.apply(tip.action)
    state.apply(south(state).action)
    mate = hint(state.observation(0))
    assert "low cards" in mate.reason


@pytest.mark.parametrize("seed", range(4))
def test_every_hint_is_legal_and_has_a_reason(seed: int) -> None:
    rng = random.Random(seed)
    state = HandState.deal(Rules(), dealer=seed, seed=seed, scores=(0, 150))
    shown = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if rng.random() < 0.25:
            tip = hint(state.observation(seat))
            assert tip.action in state.legal_actions()
            assert tip.reason and tip.reason[0].isupper() and len(tip.reason) <= MAX_REASON
            shown += 1
        state.apply(make_bot("standard").act(state.observation(seat)))
    assert shown > 0


def test_hint_refuses_a_seat_that_is_not_to_act() -> None:
    state = HandState.from_hands(Rules(), [cards(row) for row in VOID_HANDS], dealer=2)
    with pytest.raises(ValueError, match="not seat 0's turn"):
        hint(state.observation(0))
