"""The ``basic`` and ``standard`` bots: scripted positions for the key skills, legal
actions under every house rule, determinism, and no peeking at hidden cards."""

from __future__ import annotations

import random

import pytest
from bot_positions import (
    ACE_KING,
    BAGS_HANDS,
    BUST_HANDS,
    NIL_COVER_HANDS,
    TEXTBOOK_NIL,
    TRUMP_HANDS,
    VOID_HANDS,
    bids,
    position,
    with_south,
)
from engine_helpers import cards, random_rules

from spades.bots import Bot, make_bot
from spades.bots.drive import play_match
from spades.bots.knowledge import Knowledge, evaluate_hand
from spades.engine.cards import NIL, Action, bid_action, parse_card
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase, deck_for

C = parse_card


def choice(bot: str, state: HandState) -> Action:
    seat = state.current_player
    assert seat is not None
    return make_bot(bot, seed=0).act(state.observation(seat))


# ------------------------------------------------------------------ scripted skills
def test_standard_covers_partners_nil_by_overtaking() -> None:
    state = position(NIL_COVER_HANDS, 3, [*bids(0, 3, 4, 4), *cards("9H 2H")])
    assert choice("standard", state) in (C("10H"), C("KH"))


def test_standard_without_a_nil_to_cover_plays_under_its_partners_card() -> None:
    state = position(NIL_COVER_HANDS, 3, [*bids(3, 3, 4, 3), *cards("9H 2H")])
    assert choice("standard", state) == C("4H")


@pytest.mark.parametrize("bot", ["basic", "standard"])
def test_bots_never_trump_a_partners_sure_winner(bot: str) -> None:
    state = position(VOID_HANDS, 2, [*bids(3, 4, 3, 3), *cards("2H AH 3H")])
    assert state.deck.suit[choice(bot, state)] != 3


def test_standard_trumps_when_an_opponent_is_winning() -> None:
    state = position(TRUMP_HANDS, 2, [*bids(3, 4, 3, 3), *cards("KH 2H 3H")])
    assert choice("standard", state) == C("2S")


def _bags_position(north: int, south: int) -> HandState:
    plays = cards("AC 4C 7C 10C AD 4D 6D 10D 5H 10H")
    return position(BAGS_HANDS, 3, [*bids(north, 4, south, 4), *plays])


def test_standard_ducks_bags_once_the_contract_is_made() -> None:
    state = _bags_position(1, 1)
    assert Knowledge(state.observation(2)).need(0) <= 0
    assert choice("standard", state) == C("9H")


def test_standard_takes_the_trick_while_the_contract_needs_it() -> None:
    state = _bags_position(3, 3)
    assert choice("standard", state) == C("AH")


def _bust_position(east: int, south: int) -> HandState:
    return position(BUST_HANDS, 3, [*bids(3, east, south, 4), *cards("2C 9C")])


def test_standard_plays_under_an_opponents_nil_to_bust_it() -> None:
    assert choice("standard", _bust_position(0, 3)) == C("3C")


def test_standard_without_a_nil_to_bust_plays_for_the_trick() -> None:
    assert choice("standard", _bust_position(2, 3)) in (C("10C"), C("KC"))


def test_standard_keeps_its_own_nil_by_staying_under() -> None:
    assert choice("standard", _bust_position(2, 0)) == C("3C")


def test_standard_bids_nil_with_a_textbook_nil_hand() -> None:
    assert choice("standard", with_south(TEXTBOOK_NIL)) == NIL


def test_standard_does_not_bid_nil_with_aces_and_kings() -> None:
    action = choice("standard", with_south(ACE_KING))
    assert action != NIL
    assert action >= bid_action(5)


def test_standard_under_whiz_bids_nil_rather_than_spades_it_cannot_make() -> None:
    state = with_south("7S 6S 5S 4S 2H 3H 4H 2D 3D 5D 2C 3C 4C", rules=Rules(whiz=True))
    assert state.legal_actions() == [NIL, bid_action(4)]
    assert choice("standard", state) == NIL


def test_standard_under_whiz_bids_its_spades_with_a_strong_hand() -> None:
    assert choice("standard", with_south(ACE_KING, rules=Rules(whiz=True))) == bid_action(4)


def test_basic_bids_its_aces_guarded_kings_and_top_spades() -> None:
    # Side aces (hearts, diamonds, clubs), the guarded K♥ and K♦, the A♠ and K♠: seven.
    assert choice("basic", with_south(ACE_KING)) == bid_action(7)


def test_four_basic_bots_finish_a_match_in_about_the_time_people_take() -> None:
    """Median at most 20 hands to 500 (counting only sure aces, it was about 70)."""
    lengths = sorted(len(play_match(Rules(), seed, ["basic"] * 4).finished) for seed in range(15))
    assert lengths[len(lengths) // 2] <= 20


def test_basic_follows_low_when_it_cannot_win() -> None:
    state = position(VOID_HANDS, 2, [*bids(3, 4, 3, 3), C("AC")])
    assert choice("basic", state) == C("7C")


def test_basic_wins_cheaply_when_its_team_needs_tricks() -> None:
    state = position(VOID_HANDS, 2, [*bids(3, 4, 3, 3), C("2H")])
    assert choice("basic", state) == C("QH")


def test_hand_value_counts_high_cards_and_spade_length() -> None:
    deck = deck_for(None)
    weak = evaluate_hand(cards(TEXTBOOK_NIL), deck)
    strong = evaluate_hand(cards(ACE_KING), deck)
    long_spades = evaluate_hand(cards("9S 8S 7S 6S 5S 4S 2H 3H 4H 2D 3D 2C 3C"), deck)
    assert weak.tricks < 1 < 2 < long_spades.tricks < 4 < strong.tricks
    assert weak.nil_danger < 0.5 < strong.nil_danger


# --------------------------------------------------------- legality and determinism
def _drive(state: HandState, bots: dict[int, Bot], rng: random.Random) -> int:
    """Play the hand out, mixing bot choices with random ones; returns the decisions."""
    decisions = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if rng.random() < 0.25:
            state.apply(rng.choice(legal))
            continue
        bot = bots[seat]
        action = bot.act(state.observation(seat))
        assert action in legal, (bot, action, legal)
        state.apply(action)
        decisions += 1
    return decisions


@pytest.mark.parametrize("seed", range(40))
def test_bots_only_choose_legal_actions_under_any_house_rules(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    scores = rng.choice([(0, 0), (0, 150), (120, -90), (300, 460)])
    names = ("basic", "standard")
    bots = {seat: make_bot(names[(seat + seed) % 2], seed=seed) for seat in range(4)}
    for hand in range(3):
        state = HandState.deal(rules, dealer=hand % 4, seed=seed * 10 + hand, scores=scores)
        assert _drive(state, bots, rng) > 0


@pytest.mark.parametrize("name", ["basic", "standard"])
@pytest.mark.parametrize("seed", range(3))
def test_bots_bid_their_spades_under_mirror(name: str, seed: int) -> None:
    rules = Rules(mirror=True, blind_nil=False)
    bot = make_bot(name, seed=seed)
    for dealer in range(4):
        state = HandState.deal(rules, dealer=dealer, seed=seed * 4 + dealer)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bot.act(state.observation(seat))
            if state.phase is Phase.BIDDING:
                spades = sum(1 for c in state.hand(seat) if state.deck.suit[c] == 3)
                assert action == bid_action(spades)
            state.apply(action)


@pytest.mark.parametrize("bot", ["basic", "standard"])
def test_same_seed_and_observation_give_the_same_choice(bot: str) -> None:
    rng = random.Random(5)
    state = HandState.deal(Rules(), dealer=0, seed=5, scores=(0, 200))
    first, second = make_bot(bot, seed=9), make_bot(bot, seed=9)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        obs = state.observation(seat)
        action = first.act(obs)
        assert second.act(obs) == action
        assert first.act(obs) == action
        state.apply(action if rng.random() < 0.7 else rng.choice(state.legal_actions()))


def _swap_hidden_same_suit(state: HandState) -> HandState:
    """The same history with two unplayed cards of one suit swapped between East and
    West: South's view is unchanged, the true hands are not."""
    deck = state.deck
    east, west = state.hand(1), state.hand(3)
    for suit in range(4):
        e = [c for c in east if deck.suit[c] == suit]
        w = [c for c in west if deck.suit[c] == suit]
        if e and w:
            swap = {e[0]: w[0], w[0]: e[0]}
            break
    else:
        raise AssertionError("East and West share no suit")
    hands = [
        [swap.get(c, c) if seat in (1, 3) else c for c in deck.chunks(state.initial_hands[seat])]
        for seat in range(4)
    ]
    other = HandState.from_hands(state.rules, hands, dealer=state.dealer, scores=state.scores)
    for action in state.history:
        other.apply(action)
    return other


@pytest.mark.parametrize("bot", ["basic", "standard"])
@pytest.mark.parametrize("seed", range(6))
def test_bots_read_no_hidden_cards(bot: str, seed: int) -> None:
    rng = random.Random(seed)
    state = HandState.deal(Rules(), dealer=seed % 4, seed=seed)
    driver = make_bot("standard", seed=1)
    checked = 0
    while not state.is_over and checked < 6:
        seat = state.current_player
        assert seat is not None
        if seat == 2 and len(state.hand(1)) > 2:
            other = _swap_hidden_same_suit(state)
            assert other.hands != state.hands
            assert other.observation(2) == state.observation(2)
            assert choice(bot, other) == choice(bot, state)
            checked += 1
        if rng.random() < 0.8:
            state.apply(driver.act(state.observation(seat)))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 0
