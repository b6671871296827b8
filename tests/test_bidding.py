"""Bidding: the order, the bid ranges and every bidding house rule, blind nil and the
blind-nil card exchange."""

from __future__ import annotations

import random

import pytest
from engine_helpers import cards, snapshot

from spades.engine.cards import (
    BLIND_NIL,
    EXCHANGE_BASE,
    LOOK,
    NIL,
    NUM_ACTIONS,
    Seat,
    bid_action,
)
from spades.engine.rules import Rules
from spades.engine.state import HandState, IllegalAction, Phase

NUMBERS = [bid_action(n) for n in range(1, 14)]


def _bid_all(state: HandState, *bids: int) -> None:
    for action in bids:
        state.apply(action)


def _spade_count(state: HandState, seat: int) -> int:
    return sum(1 for c in state.hand(seat) if state.deck.suit[c] == 3)


def _refused(state: HandState, action: int, reason: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)
    assert not state.can(action)
    assert snapshot(state) == before


@pytest.mark.parametrize("dealer", range(4))
def test_bidding_starts_at_the_dealers_left_and_goes_once_around(dealer: int) -> None:
    state = HandState.deal(Rules(), dealer=dealer, seed=dealer)
    order = []
    for n in (3, 4, 2, 1):
        order.append(state.current_player)
        state.apply(bid_action(n))
    assert order == [(dealer + 1 + i) % 4 for i in range(4)]
    assert state.phase is Phase.PLAYING
    assert state.current_player == (dealer + 1) % 4
    assert [state.bids[(dealer + 1 + i) % 4] for i in range(4)] == [3, 4, 2, 1]
    assert state.history == [bid_action(n) for n in (3, 4, 2, 1)]


def test_bids_run_from_nil_to_13() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=1)
    assert state.legal_actions() == [NIL, *NUMBERS]
    assert state.legal_actions() == [a for a in range(NUM_ACTIONS) if state.can(a)]


def test_nil_off_removes_the_nil_bid() -> None:
    state = HandState.deal(Rules(nil_allowed=False, blind_nil=False), dealer=0, seed=1)
    assert state.legal_actions() == NUMBERS[:-1]
    _refused(state, NIL, "Nil is not allowed at this table")


def test_nil_off_the_first_partner_leaves_the_second_at_least_one_trick() -> None:
    state = HandState.deal(Rules(nil_allowed=False, blind_nil=False), dealer=3, seed=1)
    _refused(state, bid_action(13), "your partner must bid at least 1, so bid 12 or less")
    state.apply(bid_action(12))
    state.apply(bid_action(1))
    assert state.legal_actions() == [bid_action(1)]


def test_team_bid_is_at_most_13() -> None:
    state = HandState.deal(Rules(), dealer=3, seed=2)
    _bid_all(state, bid_action(9), bid_action(2))
    assert state.legal_actions() == [bid_action(n) for n in range(5)]
    _refused(state, bid_action(5), "may not add up to more than 13")


def test_min_team_bid_raises_the_second_partners_lowest_bid() -> None:
    state = HandState.deal(Rules(min_team_bid=4), dealer=3, seed=3)
    assert state.legal_actions() == [NIL, *NUMBERS]
    _bid_all(state, bid_action(1), bid_action(5))
    assert state.legal_actions() == [bid_action(n) for n in range(3, 13)]
    _refused(state, bid_action(2), "Your team must bid at least 4")
    _refused(state, NIL, "Your team must bid at least 4")


def test_min_team_bid_after_a_partners_nil() -> None:
    state = HandState.deal(Rules(min_team_bid=4), dealer=3, seed=3)
    _bid_all(state, NIL, bid_action(2))
    assert state.legal_actions() == [bid_action(n) for n in range(4, 14)]


@pytest.mark.parametrize("seed", range(6))
def test_whiz_bids_nil_or_the_number_of_spades(seed: int) -> None:
    state = HandState.deal(Rules(whiz=True), dealer=3, seed=seed)
    for seat in range(4):
        count = _spade_count(state, seat)
        partner_bid = state.bids[(seat + 2) % 4] or 0
        expected = [NIL] if count == 0 or count + partner_bid > 13 else [NIL, bid_action(count)]
        assert state.legal_actions() == expected
        wrong = bid_action(count % 13 + 1)
        _refused(state, wrong, rf"Whiz: bid nil or your number of spades \({count}\)")
        state.apply(expected[-1])
    assert state.phase is Phase.PLAYING


def test_whiz_counts_jokers_as_spades() -> None:
    north = cards("BJ LJ AS KS 3C 4C 5C 6C 7C 8C 9C TC JC", jokers="ace")
    east = cards("QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S QC KC", jokers="ace")
    south = cards("AC 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", jokers="ace")
    west = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", jokers="ace")
    state = HandState.from_hands(
        Rules(whiz=True, jokers=True), [north, east, south, west], dealer=3
    )
    assert state.legal_actions() == [NIL, bid_action(4)]
    state.apply(bid_action(4))
    assert state.legal_actions() == [NIL, bid_action(11)]
    state.apply(bid_action(11))
    assert state.legal_actions() == [NIL]
    state.apply(NIL)
    assert state.legal_actions() == [NIL]


def test_whiz_with_more_spades_than_room_left_bids_nil() -> None:
    north = cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
    east = cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    south = cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    west = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    state = HandState.from_hands(Rules(whiz=True), [north, east, south, west], dealer=3)
    assert state.legal_actions() == [NIL, bid_action(13)]
    state.apply(bid_action(13))
    state.apply(NIL)
    assert state.legal_actions() == [NIL]


@pytest.mark.parametrize(
    "rules",
    [
        Rules(mirror=True, blind_nil=False),
        Rules(mirror=True, blind_nil=False, partnerships=False),
        Rules(mirror=True, blind_nil=False, partnerships=False, jokers=True),
    ],
    ids=["partnership", "cutthroat", "cutthroat-jokers"],
)
@pytest.mark.parametrize("seed", range(4))
def test_mirror_bids_exactly_the_number_of_spades(rules: Rules, seed: int) -> None:
    state = HandState.deal(rules, dealer=3, seed=seed)
    for seat in range(4):
        count = _spade_count(state, seat)
        assert state.legal_actions() == [bid_action(count)]
        _refused(state, bid_action(count % 13 + 1), rf"Mirror: bid exactly .*\({count}\)")
        if count:
            _refused(state, NIL, rf"Mirror: bid exactly your number of spades \({count}\)")
        state.apply(bid_action(count))
    assert state.phase is Phase.PLAYING
    assert sum(bid or 0 for bid in state.bids) == 13 + 2 * rules.jokers


def test_mirror_without_spades_bids_nil_and_never_blind_nil() -> None:
    north = cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
    east = cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")
    south = cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")
    west = cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    rules = Rules(mirror=True, blind_nil=False)
    state = HandState.from_hands(rules, [north, east, south, west], dealer=3, scores=(0, 300))
    assert state.legal_actions() == [bid_action(13)]
    state.apply(bid_action(13))
    assert state.legal_actions() == [NIL]
    _refused(state, bid_action(1), "Mirror: you hold no spades, so you bid nil")
    _refused(state, BLIND_NIL, "Blind nil is not played at this table")


def test_suicide_one_partner_of_each_team_bids_nil() -> None:
    state = HandState.deal(Rules(suicide=True), dealer=3, seed=4)
    assert state.legal_actions() == [NIL, *NUMBERS]
    _bid_all(state, bid_action(5), NIL)
    assert state.legal_actions() == [NIL]
    _refused(state, bid_action(3), "Suicide: one partner must bid nil, so you must bid nil")
    state.apply(NIL)
    assert state.legal_actions() == NUMBERS
    _refused(state, NIL, "Suicide: your partner bid nil, so you must bid a number")
    state.apply(bid_action(6))
    assert state.bids == [5, 0, 0, 6]


def test_suicide_respects_the_minimum_team_bid() -> None:
    state = HandState.deal(Rules(suicide=True, min_team_bid=4), dealer=3, seed=4)
    assert state.legal_actions() == [NIL, *[bid_action(n) for n in range(4, 14)]]
    state.apply(NIL)
    _refused(state, bid_action(3), "Your team must bid at least 4")
    state.apply(bid_action(4))
    assert state.legal_actions() == [bid_action(n) for n in range(4, 14)]


def test_blind_nil_only_when_the_team_trails_by_the_deficit() -> None:
    trailing = HandState.deal(Rules(), dealer=3, seed=5, scores=(0, 100))
    assert [trailing.eligible[s] for s in range(4)] == [True, False, True, False]
    assert trailing.legal_actions() == [BLIND_NIL, LOOK]
    close = HandState.deal(Rules(), dealer=3, seed=5, scores=(0, 99))
    assert close.legal_actions() == [NIL, *NUMBERS]
    _refused(close, BLIND_NIL, "Blind nil needs your team to trail by 100 or more")
    custom = HandState.deal(Rules(blind_nil_deficit=50), dealer=3, seed=5, scores=(0, 50))
    assert custom.legal_actions() == [BLIND_NIL, LOOK]


def test_blind_nil_off_never_offers_it() -> None:
    state = HandState.deal(Rules(blind_nil=False), dealer=3, seed=5, scores=(-150, 300))
    assert state.legal_actions() == [NIL, *NUMBERS]
    _refused(state, BLIND_NIL, "Blind nil is not played at this table")


def test_blind_nil_hand_stays_hidden_until_blind_nil_or_look() -> None:
    state = HandState.deal(Rules(), dealer=3, seed=6, scores=(0, 150))
    assert state.observation(0).hand is None
    assert state.observation(2).hand is None
    assert state.observation(1).hand == tuple(state.hand(1))
    _refused(state, bid_action(3), "Bid blind nil or look at your cards first")
    _refused(state, NIL, "Bid blind nil or look at your cards first")
    state.apply(BLIND_NIL)
    assert state.observation(0).hand == tuple(state.hand(0))
    assert (state.bids[0], state.blind[0]) == (0, True)
    state.apply(bid_action(4))
    assert state.observation(2).hand is None
    state.apply(LOOK)
    assert state.current_player == 2
    assert state.observation(2).hand == tuple(state.hand(2))
    assert state.legal_actions() == [NIL, *NUMBERS]
    _refused(state, BLIND_NIL, "Blind nil must be bid before looking at your cards")
    _refused(state, LOOK, "You have already looked at your cards")
    state.apply(bid_action(5))
    state.apply(bid_action(3))
    assert state.phase is Phase.PLAYING
    assert state.blind == [True, False, False, False]
    assert state.history == [BLIND_NIL, bid_action(4), LOOK, bid_action(5), bid_action(3)]


def _exchange_ready(seed: int = 7) -> HandState:
    state = HandState.deal(Rules(blind_nil_exchange=True), dealer=3, seed=seed, scores=(0, 200))
    _bid_all(state, BLIND_NIL, bid_action(3), LOOK, bid_action(4), bid_action(3))
    return state


def test_blind_nil_exchange_starts_after_the_bidding() -> None:
    state = _exchange_ready()
    assert state.phase is Phase.EXCHANGE
    assert state.current_player == 0
    assert state.legal_actions() == [EXCHANGE_BASE + c for c in state.hand(0)]
    _refused(state, bid_action(2), "The bidding is over")
    _refused(state, state.hand(0)[0], "Cards are played after the exchange")


def test_blind_nil_exchange_swaps_two_cards_each_way_hidden_until_the_swap() -> None:
    state = _exchange_ready()
    north_before, south_before = state.hand(0), state.hand(2)
    given = north_before[-2:]
    taken = south_before[:2]
    state.apply(EXCHANGE_BASE + given[0])
    _refused(state, EXCHANGE_BASE + given[0], "You are already passing the")
    _refused(state, EXCHANGE_BASE + south_before[0], "You do not hold the")
    state.apply(EXCHANGE_BASE + given[1])
    assert state.current_player == 2
    south_view = state.observation(2)
    assert south_view.hand == tuple(south_before)
    assert south_view.received == ()
    assert state.observation(0).passed == tuple(given)
    state.apply(EXCHANGE_BASE + taken[0])
    north_view = state.observation(0)
    assert north_view.hand == tuple(north_before)
    assert north_view.received == ()
    state.apply(EXCHANGE_BASE + taken[1])
    assert state.phase is Phase.PLAYING
    assert state.current_player == 0
    assert sorted(state.hand(0)) == sorted([*north_before[:-2], *taken])
    assert sorted(state.hand(2)) == sorted([*south_before[2:], *given])
    assert len(state.hand(0)) == len(state.hand(2)) == 13
    assert state.observation(0).received == tuple(taken)
    assert state.observation(2).received == tuple(given)
    assert state.observation(2).passed == tuple(taken)
    assert state.history[-4:] == [EXCHANGE_BASE + c for c in (*given, *taken)]
    assert state.observation(1).passed == state.observation(1).received == ()


def test_no_exchange_without_a_blind_nil() -> None:
    state = HandState.deal(Rules(blind_nil_exchange=True), dealer=3, seed=7, scores=(0, 200))
    _bid_all(state, LOOK, bid_action(3), bid_action(3), LOOK, bid_action(4), bid_action(3))
    assert state.phase is Phase.PLAYING
    _refused(state, EXCHANGE_BASE + state.hand(0)[0], "There is no card exchange now")


def test_no_exchange_when_the_option_is_off() -> None:
    state = HandState.deal(Rules(), dealer=3, seed=7, scores=(0, 200))
    _bid_all(state, BLIND_NIL, bid_action(3), LOOK, bid_action(4), bid_action(3))
    assert state.phase is Phase.PLAYING


@pytest.mark.parametrize("size", [2, 4])
def test_nil_pass_swaps_cards_between_the_nil_bidder_and_partner(size: int) -> None:
    rules = Rules(nil_pass=size, blind_nil=False)
    state = HandState.deal(rules, dealer=3, seed=7)
    _bid_all(state, bid_action(3), NIL, bid_action(4), bid_action(3))
    assert state.phase is Phase.EXCHANGE
    east_before, west_before = state.hand(1), state.hand(3)
    given, taken = east_before[-size:], west_before[:size]
    for card in given:
        assert state.current_player == 1
        state.apply(EXCHANGE_BASE + card)
    assert state.observation(3).hand == tuple(west_before)
    assert state.observation(1).received == ()
    for card in taken:
        assert state.current_player == 3
        state.apply(EXCHANGE_BASE + card)
    assert state.phase is Phase.PLAYING
    assert state.current_player == 0
    assert sorted(state.hand(1)) == sorted([*east_before[:-size], *taken])
    assert sorted(state.hand(3)) == sorted([*west_before[size:], *given])
    assert state.observation(1).received == tuple(taken)
    assert state.observation(3).received == tuple(given)
    assert state.observation(0).received == state.observation(0).passed == ()


def _exchange_order(state: HandState) -> list[Seat]:
    """Pass the first legal card until the exchange is over; the seats that passed, in
    order."""
    order = []
    while state.phase is Phase.EXCHANGE:
        seat = state.current_player
        assert seat is not None
        order.append(seat)
        state.apply(state.legal_actions()[0])
    return order


def test_nil_pass_once_a_team_and_not_after_a_blind_nil() -> None:
    rules = Rules(nil_pass=4, blind_nil_deficit=0)
    state = HandState.deal(rules, dealer=3, seed=7, scores=(0, 0))
    _bid_all(state, BLIND_NIL, LOOK, NIL, LOOK, bid_action(4), LOOK, NIL)
    # North's blind nil has no exchange; East and West both bid nil: East passes first.
    assert state.phase is Phase.EXCHANGE
    assert _exchange_order(state) == [1] * 4 + [3] * 4


def test_nil_pass_follows_the_blind_nil_exchange_for_the_other_team() -> None:
    rules = Rules(nil_pass=2, blind_nil_exchange=True, blind_nil_deficit=0)
    state = HandState.deal(rules, dealer=3, seed=7)
    _bid_all(state, LOOK, bid_action(3), LOOK, NIL, BLIND_NIL, LOOK, bid_action(4))
    assert _exchange_order(state) == [2, 2, 0, 0, 1, 1, 3, 3]


def test_bid_actions_only_during_the_bidding() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=8)
    _bid_all(state, *[bid_action(3)] * 4)
    _refused(state, bid_action(3), "The bidding is over")
    _refused(state, LOOK, "The bidding is over")


@pytest.mark.parametrize("dealer", [-1, 4, True, 1.0, "N", None])
def test_a_dealer_that_is_not_a_seat_is_refused(dealer: object) -> None:
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.3"):
        HandState.deal(Rules(), dealer=dealer, seed=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.3"):
        HandState.from_hands(Rules(), [range(13 * s, 13 * s + 13) for s in range(4)], dealer=dealer)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 7.0, b"7"])
def test_a_seed_that_is_not_an_int_is_refused(seed: object) -> None:
    with pytest.raises(ValueError, match="seed must be an int or None"):
        HandState.deal(Rules(), dealer=0, seed=seed)  # type: ignore[arg-type]


def test_the_deal_draws_its_order_from_random_random_with_the_seed() -> None:
    # Stored games are dealt again from their seeds: the deal must stay the one that
    # Python's random.Random(seed) gives, sorting the cards by one draw each.
    for seed in (0, 11, -5, 2**40):
        rng = random.Random(seed)
        keys = [rng.random() for _ in range(52)]
        order = sorted(range(52), key=keys.__getitem__)
        state = HandState.deal(Rules(), dealer=1, seed=seed)
        for seat in range(4):
            expected = sorted(order[(seat - 2) % 4 :: 4])
            assert state.hand(seat) == expected, (seed, seat)


def test_the_deal_gives_13_different_cards_to_each_seat_from_the_seed() -> None:
    state = HandState.deal(Rules(), dealer=2, seed=11)
    hands = [state.hand(s) for s in range(4)]
    assert all(len(h) == 13 for h in hands)
    assert sorted(c for h in hands for c in h) == list(range(52))
    assert HandState.deal(Rules(), dealer=2, seed=11).initial_hands == state.initial_hands
    assert HandState.deal(Rules(), dealer=2, seed=12).initial_hands != state.initial_hands


@pytest.mark.parametrize(
    ("hands", "reason"),
    [
        ([range(13 * s, 13 * s + 13) for s in range(3)], "four hands are needed"),
        ([range(0, 12), range(12, 25), range(25, 38), range(38, 52)], "seat 0 must hold 13"),
        ([[0] * 13, range(13, 26), range(26, 39), range(39, 52)], "seat 0 must hold 13"),
        ([range(0, 13), range(0, 13), range(26, 39), range(39, 52)], "the whole deck"),
        ([[*range(12), 52], range(13, 26), range(26, 39), range(39, 52)], "not a card id"),
    ],
)
def test_from_hands_refuses_hands_that_are_not_a_deal(hands: list[object], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        HandState.from_hands(Rules(), hands, dealer=0)  # type: ignore[arg-type]
