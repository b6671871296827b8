"""Observations: a seat sees its own cards and the table, never another seat's hand."""

from __future__ import annotations

import dataclasses
import random

import pytest
from engine_helpers import deal_by_suits, random_rules

from spades.engine.cards import BLIND_NIL, LOOK, bid_action, parse_card
from spades.engine.rules import Rules
from spades.engine.state import HandState


def _positions() -> list[HandState]:
    positions = []
    for seed in range(40):
        rng = random.Random(seed)
        state = HandState.deal(random_rules(rng), dealer=seed % 4, seed=seed, scores=(0, 200))
        for _ in range(rng.randrange(70)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        positions.append(state)
    return positions


POSITIONS = _positions()


def test_an_observation_holds_only_its_own_hand() -> None:
    for state in POSITIONS:
        for seat in range(4):
            view = state.observation(seat)
            cards_seen: set[int] = set(view.hand or ()) | set(view.passed) | set(view.received)
            cards_seen |= {card for _, card in view.trick}
            for trick in view.tricks:
                cards_seen |= set(trick.cards)
            played = {c for t in state.tricks for c in t.cards} | set(state.trick)
            mine = set(state.hand(seat)) | set(state.passes[seat])
            assert cards_seen <= mine | played | set(view.received)
            if view.hand is not None:
                assert view.hand == tuple(state.hand(seat))
                others = set().union(*(state.hand(s) for s in range(4) if s != seat))
                assert {c for c in range(52) if view.unseen_mask >> c & 1} == others


def test_legal_actions_only_on_your_own_turn() -> None:
    for state in POSITIONS:
        for seat in range(4):
            view = state.observation(seat)
            if seat == state.current_player:
                assert view.legal_actions == tuple(state.legal_actions())
            else:
                assert view.legal_actions == ()
                assert view.can_claim is False


def test_observation_shows_the_public_table() -> None:
    state = POSITIONS[5]
    view = state.observation(1)
    assert (view.seat, view.team, view.partner) == (1, 1, 3)
    assert view.dealer == state.dealer
    assert view.phase is state.phase
    assert view.bids == tuple(state.bids)
    assert view.tricks_won == tuple(state.tricks_won)
    assert view.tricks == tuple(state.tricks)
    assert view.scores == state.scores and view.bags == state.bags
    assert view.rules is state.rules
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]


@pytest.mark.parametrize("seat", [-1, 4, None, "N", True, 1.0])
def test_observation_of_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        POSITIONS[0].observation(seat)  # type: ignore[arg-type]


def test_blind_nil_candidate_sees_no_cards_until_choosing() -> None:
    state = HandState.deal(Rules(), dealer=3, seed=1, scores=(0, 100))
    view = state.observation(0)
    assert view.hand is None and view.hand_mask == 0
    assert view.blind_nil_eligible
    assert view.legal_actions == (BLIND_NIL, LOOK)
    assert sum(view.hand_sizes) == 52
    state.apply(LOOK)
    assert state.observation(0).hand == tuple(state.hand(0))


def test_known_voids_after_failing_to_follow_suit() -> None:
    hands = deal_by_suits(
        "2S 3S AH KH QH JH 2C 3C 4C 5C 2D 3D 4D",
        "4S 5S 6S 7S 8S 6C 7C 8C 9C 5D 6D 7D AD",
        "9S TS JS 2H 3H 4H 5H 6H TC JC 9D TD JD",
        "QS KS AS 7H 8H 9H TH QC KC AC QD KD 8D",
    )
    state = HandState.from_hands(Rules(), hands, dealer=3)
    for _ in range(4):
        state.apply(bid_action(3))
    assert state.observation(2).known_voids() == (0, 0, 0, 0)
    state.apply(parse_card("JH"))
    state.apply(parse_card("AD"))
    for seat in range(4):
        assert state.observation(seat).known_voids() == (0, 0b0100, 0, 0)


def test_known_voids_after_leading_an_unbroken_spade() -> None:
    hands = deal_by_suits(
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    )
    state = HandState.from_hands(Rules(), hands, dealer=0)
    for _ in range(4):
        state.apply(bid_action(3))
    state.apply(parse_card("2S"))
    assert state.observation(0).known_voids()[1] == 0b0111
    state.apply(parse_card("2C"))
    assert state.observation(0).known_voids()[2] == 0b1000
    free = HandState.from_hands(Rules(spades_lead_any_time=True), hands, dealer=0)
    for _ in range(4):
        free.apply(bid_action(3))
    free.apply(parse_card("2S"))
    assert free.observation(0).known_voids()[1] == 0


def test_known_voids_after_a_spade_on_the_first_trick_where_spades_are_barred() -> None:
    # East holds only spades, so under "no spades on the first trick" its spade to the
    # heart lead shows it holds nothing else; where spades are allowed, only no hearts.
    hands = deal_by_suits(
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    )
    for rules, shown in ((Rules(no_spades_first_trick=True), 0b0111), (Rules(), 0b0100)):
        state = HandState.from_hands(rules, hands, dealer=3)
        for _ in range(4):
            state.apply(bid_action(3))
        state.apply(parse_card("AH"))
        state.apply(parse_card("2S"))
        assert state.observation(2).known_voids()[1] == shown


def test_known_voids_are_true_voids() -> None:
    marked = 0
    for state in POSITIONS:
        voids = state.observation(0).known_voids()
        for seat in range(4):
            for suit in range(4):
                if voids[seat] >> suit & 1:
                    marked += 1
                    assert not state.hands[seat] & state.deck.suit_masks[suit]
    assert marked > 10
