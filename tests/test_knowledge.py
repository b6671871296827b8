"""Card counting from an observation: what is gone, who is void, which card is top,
who is winning, the contracts, the bags, and the cards known from an exchange."""

from __future__ import annotations

import random

from bot_positions import BAGS_HANDS, TRUMP_HANDS, VOID_HANDS, bids, position
from engine_helpers import cards

from spades.bots.knowledge import Knowledge
from spades.engine.cards import BLIND_NIL, EXCHANGE_BASE, FULL_DECK, LOOK, bid_action, parse_card
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase

C = parse_card
HEARTS = 2


def test_hand_played_and_unseen_cards_partition_the_deck() -> None:
    rng = random.Random(3)
    state = HandState.deal(Rules(), dealer=0, seed=3)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        k = Knowledge(state.observation(seat))
        assert k.hand | k.played | k.unseen == FULL_DECK
        assert not (k.hand & k.played or k.hand & k.unseen or k.played & k.unseen)
        assert k.unseen.bit_count() == sum(
            state.hands[s].bit_count() for s in range(4) if s != seat
        )
        state.apply(rng.choice(state.legal_actions()))


def test_a_seat_that_did_not_follow_is_known_void() -> None:
    state = position(TRUMP_HANDS, 2, [*bids(3, 4, 3, 3), *cards("KH 2H 3H 2S")])
    k = Knowledge(state.observation(0))
    assert k.is_void(2, HEARTS) and k.p_void(2, HEARTS) == 1.0
    assert k.p_holds_any(2, k.cards(k.unseen, HEARTS)) == 0.0
    assert 0.0 < k.p_void(1, HEARTS) < 1.0


def test_a_card_is_a_master_when_no_unseen_card_outranks_it() -> None:
    state = position(VOID_HANDS, 2, [*bids(3, 4, 3, 3), *cards("2H AH 3H 2C")])
    north = Knowledge(state.observation(0))
    assert north.highest_unplayed(HEARTS) == C("KH")
    # North holds the K♥ itself, so its Q♥ is as good as the top card.
    assert north.is_master(C("KH")) and north.is_master(C("QH"))
    west = Knowledge(state.observation(3))
    assert not west.is_master(C("JH"))
    assert [west.label(c) for c in west.higher_unseen(C("9H"))] == ["Q♥", "K♥"]


def test_trick_winner_and_sure_winners() -> None:
    state = position(VOID_HANDS, 2, [*bids(3, 4, 3, 3), *cards("2H AH 3H")])
    k = Knowledge(state.observation(2))
    assert k.winner == (0, C("AH"))
    assert k.still_to_play() == []
    assert k.sure_winner(C("2S")) and not k.sure_winner(C("2C"))
    opener = Knowledge(position(VOID_HANDS, 2, bids(3, 4, 3, 3)).observation(3))
    assert opener.winner is None and opener.still_to_play() == [0, 1, 2]
    # Hearts may be ruffed by a seat that turns out to be void.
    assert 0.0 < opener.p_win(C("JH")) < 1.0


def test_need_counts_the_numeric_bidders_tricks_only() -> None:
    state = position(BAGS_HANDS, 3, [*bids(0, 4, 3, 4), *cards("AC 4C 7C 10C")])
    k = Knowledge(state.observation(2))
    assert k.nil_alive(0) is False and k.is_nil(0)
    assert k.team_bid(0) == 3 and k.need(0) == 3
    counted = HandState.from_hands(
        Rules(nil_tricks_count_toward_bid=True),
        [cards(row) for row in BAGS_HANDS],
        dealer=3,
    )
    for action in [*bids(0, 4, 3, 4), *cards("AC 4C 7C 10C")]:
        counted.apply(action)
    assert Knowledge(counted.observation(2)).need(0) == 2


def test_bag_room_and_pressure_follow_the_count() -> None:
    rows = [cards(row) for row in BAGS_HANDS]
    state = HandState.from_hands(Rules(), rows, dealer=3, bags=(8, 0))
    k = Knowledge(state.observation(0))
    assert k.bags_room(0) == 2 and k.bags_room(1) == 10
    assert k.bag_pressure(0) > 0.8 and k.bag_pressure(1) == 0.0
    off = HandState.from_hands(Rules(bag_limit=None), rows, dealer=3)
    assert Knowledge(off.observation(0)).bags_room(0) == 99


def test_cards_passed_in_the_exchange_are_known_to_sit_with_the_partner() -> None:
    state = HandState.deal(Rules(blind_nil_exchange=True), dealer=1, seed=4, scores=(0, 250))
    for action in (BLIND_NIL, bid_action(3), LOOK, bid_action(4), bid_action(3)):
        state.apply(action)
    passed = state.hand(0)[:2]
    for card in state.hand(2)[-2:]:
        state.apply(EXCHANGE_BASE + card)
    for card in passed:
        state.apply(EXCHANGE_BASE + card)
    assert state.phase is Phase.PLAYING
    k = Knowledge(state.observation(0))
    assert k.p_holds_any(2, passed) == 1.0
    assert k.p_holds_any(1, passed) == 0.0 and k.p_holds_any(3, passed) == 0.0
