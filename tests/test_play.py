"""The play: following suit, breaking spades, winning tricks, the first lead, the play
house rules and the jokers deck; illegal actions never change the state."""

from __future__ import annotations

import random

import pytest
from engine_helpers import cards, deal_by_suits, random_rules, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine.cards import (
    BIG_JOKER,
    CLAIM,
    JOKER_RANKINGS,
    LITTLE_JOKER,
    JokerRanking,
    bid_action,
    parse_card,
)
from spades.engine.rules import Rules
from spades.engine.state import HandState, IllegalAction, Phase, deck_for, trick_winner

# North is void of nothing, East of hearts; West deals, so North leads.
VOID_HEARTS_EAST = deal_by_suits(
    "2S 3S AH KH QH JH 2C 3C 4C 5C 2D 3D 4D",
    "4S 5S 6S 7S 8S 6C 7C 8C 9C 5D 6D 7D AD",
    "9S TS JS 2H 3H 4H 5H 6H TC JC 9D TD JD",
    "QS KS AS 7H 8H 9H TH QC KC AC QD KD 8D",
)
ONE_SUIT_EACH = deal_by_suits(
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
)


def _ready(hands: list[list[int]], rules: Rules | None = None, dealer: int = 3) -> HandState:
    state = HandState.from_hands(rules or Rules(), hands, dealer=dealer)
    for _ in range(4):
        state.apply(bid_action(3))
    assert state.phase is Phase.PLAYING
    return state


def _play(state: HandState, codes: str, *, jokers: JokerRanking | None = None) -> None:
    for card in cards(codes, jokers=jokers):
        state.apply(card)


def _refused(
    state: HandState, code: str, reason: str, *, jokers: JokerRanking | None = None
) -> None:
    card = parse_card(code, jokers=jokers)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(card)
    assert not state.can(card)
    assert card not in state.legal_actions()
    assert snapshot(state) == before


@pytest.mark.parametrize("dealer", range(4))
def test_first_lead_is_from_the_dealers_left(dealer: int) -> None:
    state = _ready(VOID_HEARTS_EAST, dealer=dealer)
    assert state.current_player == (dealer + 1) % 4
    assert state.leader == (dealer + 1) % 4


def test_spades_are_not_broken_yet_so_they_cannot_be_led() -> None:
    state = _ready(VOID_HEARTS_EAST)
    assert state.legal_actions() == cards("2C 3C 4C 5C 2D 3D 4D JH QH KH AH")
    _refused(state, "2S", "^Spades are not broken yet$")


def test_must_follow_suit() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH AD")
    assert state.legal_actions() == cards("2H 3H 4H 5H 6H")
    _refused(state, "9S", "^You must follow hearts$")
    _refused(state, "TC", "^You must follow hearts$")


def test_a_player_who_cannot_follow_may_play_any_card() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH")
    assert state.legal_actions() == sorted(state.hand(1))


def test_an_off_suit_discard_never_wins_the_trick() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH AD 2H 7H")
    assert state.tricks[-1].winner == 0
    assert state.tricks_won == [1, 0, 0, 0]


def test_trumping_wins_the_trick_and_breaks_spades() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH AD 2H 7H")
    assert not state.spades_broken
    _play(state, "QH 4S 3H 8H")
    assert state.spades_broken
    assert state.tricks[-1].winner == 1


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH AD 2H 7H")
    assert (state.current_player, state.leader) == (0, 0)
    _play(state, "QH 4S 3H 8H")
    assert (state.current_player, state.leader) == (1, 1)


def test_spades_may_be_led_once_broken_and_the_highest_spade_wins() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH AD 2H 7H QH 4S 3H 8H")
    assert parse_card("5S") in state.legal_actions()
    _play(state, "5S 9S AS 2S")
    assert state.tricks[-1].winner == 3
    assert state.current_player == 3


def test_highest_spade_wins_when_several_players_trump() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH AD 2H 7H QH 4S 3H 8H 6C TC QC 2C")
    _play(state, "9H KH 5S 4H")
    assert state.tricks[-1].winner == 1
    assert state.tricks[-1].cards == tuple(cards("9H KH 5S 4H"))


def test_a_leader_holding_only_spades_may_lead_them_unbroken() -> None:
    state = _ready(ONE_SUIT_EACH, dealer=0)
    assert state.current_player == 1
    assert state.legal_actions() == sorted(state.hand(1))
    _play(state, "2S")
    assert state.spades_broken


def test_spades_lead_any_time_lets_spades_be_led_unbroken() -> None:
    state = _ready(VOID_HEARTS_EAST, Rules(spades_lead_any_time=True))
    assert state.legal_actions() == sorted(state.hand(0))
    _play(state, "2S")
    assert state.spades_broken


def test_no_spades_first_trick_forbids_trumping_the_first_trick() -> None:
    state = _ready(VOID_HEARTS_EAST, Rules(no_spades_first_trick=True))
    _play(state, "JH")
    assert state.legal_actions() == cards("6C 7C 8C 9C 5D 6D 7D AD")
    _refused(state, "4S", "^No spades may be played on the first trick$")
    _play(state, "AD 2H 7H QH")
    assert parse_card("4S") in state.legal_actions()


def test_no_spades_first_trick_forbids_leading_a_spade_even_when_spades_lead_any_time() -> None:
    state = _ready(VOID_HEARTS_EAST, Rules(no_spades_first_trick=True, spades_lead_any_time=True))
    _refused(state, "2S", "^No spades may be played on the first trick$")
    _play(state, "JH AD 2H 7H")
    assert parse_card("2S") in state.legal_actions()


def test_no_spades_first_trick_allows_a_spade_when_holding_nothing_else() -> None:
    state = _ready(ONE_SUIT_EACH, Rules(no_spades_first_trick=True), dealer=3)
    _play(state, "2H")
    assert state.legal_actions() == sorted(state.hand(1))
    _play(state, "AS 2C 2D")
    assert state.tricks[-1].winner == 1
    leader = _ready(ONE_SUIT_EACH, Rules(no_spades_first_trick=True), dealer=0)
    assert leader.legal_actions() == sorted(leader.hand(1))


JOKER_HANDS = deal_by_suits(
    "BJ AS KS 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "LJ QS JS TS KC AC 2H 3H 4H 5H 6H 7H 8H",
    "9S 8S 7S 6S 5S 4S 3S 2S 9H TH JH QH KH",
    "AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    jokers="ace",
)


def test_jokers_deck_jokers_are_spades_above_the_ace() -> None:
    deck = deck_for("ace")
    big, little, ace = (parse_card(c, jokers="ace") for c in ("BJ", "LJ", "AS"))
    assert deck.suit[big] == deck.suit[little] == 3
    assert deck.power[big] > deck.power[little] > deck.power[ace]
    state = _ready(JOKER_HANDS, Rules(jokers=True))
    assert big not in state.legal_actions()
    _play(state, "3C", jokers="ace")
    assert state.legal_actions() == cards("KC AC", jokers="ace")
    _play(state, "AC 2S AH", jokers="ace")
    assert (state.tricks[-1].winner, state.spades_broken) == (2, True)
    _play(state, "4S 3D AS LJ", jokers="ace")
    assert state.tricks[-1].winner == 1
    _play(state, "QS 5S 4D", jokers="ace")
    assert state.legal_actions() == sorted(cards("BJ KS", jokers="ace"))
    _play(state, "BJ", jokers="ace")
    assert state.tricks[-1].winner == 0


@pytest.mark.parametrize(
    ("jokers", "added"), [(None, False), (None, True), *((r, False) for r in JOKER_RANKINGS)]
)
def test_a_card_takes_the_trick_from_exactly_the_cards_it_beats_in_every_deck(
    jokers: JokerRanking | None, added: bool
) -> None:
    # The engine plays a card by the deck's tables of trumps and of the cards that beat
    # each card.
    deck = deck_for(jokers, jokers_added=added)
    in_deck = [c for c in range(54) if deck.cards >> c & 1]
    for other in in_deck:
        assert deck.trump[other] == deck.is_trump(other)
        for card in in_deck:
            assert deck.takes[other][card] == deck.beats(card, other)


def test_jokers_deck_has_no_two_of_clubs_or_diamonds() -> None:
    deck = deck_for("ace")
    assert deck.suit_masks[0] & 1 << parse_card("BJ", jokers="ace") == 0
    assert deck.suit_masks[1] & 1 << parse_card("LJ", jokers="ace") == 0
    assert [deck.suit_masks[s].bit_count() for s in range(4)] == [12, 12, 13, 15]
    assert sum(deck_for(None).suit_masks[s].bit_count() for s in range(4)) == 52


def test_a_card_not_held_is_refused() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _refused(state, "AS", "^You do not hold the A♠$")


def test_cards_are_played_only_in_the_play() -> None:
    state = HandState.from_hands(Rules(), VOID_HEARTS_EAST, dealer=3)
    _refused(state, "2C", "^Cards are played after the bidding$")


def test_nothing_is_legal_once_the_hand_is_over() -> None:
    state = _ready(ONE_SUIT_EACH, dealer=3)
    rng = random.Random(0)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.current_player is None
    assert state.legal_actions() == []
    before = snapshot(state)
    for action in (0, bid_action(3), CLAIM):
        with pytest.raises(IllegalAction, match=r"^The hand is over$"):
            state.apply(action)
    assert snapshot(state) == before


BAD_TYPES = st.sampled_from([None, 1.0, "AS", True, False, [3], b"\x03"])


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 70),
    action=st.one_of(st.integers(-3, 125), st.integers(-(2**70), 2**70), BAD_TYPES),
)
def test_illegal_actions_never_change_the_state(seed: int, steps: int, action: object) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    state = HandState.deal(rules, dealer=seed % 4, seed=seed, scores=(0, rng.choice([0, 250])))
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    if type(action) is int and (action in legal or (action == CLAIM and state.can_claim())):
        assert state.can(action)
        return
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)  # type: ignore[arg-type]
    assert str(refused.value)
    assert not state.can(action)  # type: ignore[arg-type]
    assert snapshot(state) == before
    assert state.legal_actions() == legal


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_legal_actions_are_exactly_the_actions_can_accepts(seed: int) -> None:
    rng = random.Random(seed)
    state = HandState.deal(random_rules(rng), dealer=seed % 4, seed=seed, scores=(0, 250))
    while not state.is_over:
        accepted = [a for a in range(CLAIM) if state.can(a)]
        assert state.legal_actions() == accepted
        state.apply(rng.choice(accepted))


@pytest.mark.parametrize("seed", range(8))
def test_apply_fast_makes_the_same_moves_as_apply(seed: int) -> None:
    rng = random.Random(seed)
    checked = HandState.deal(random_rules(rng), dealer=seed % 4, seed=seed, scores=(0, 250))
    fast = checked.clone()
    while not checked.is_over:
        if checked.phase is Phase.PLAYING and checked.can_claim() and rng.random() < 0.3:
            action = CLAIM
        else:
            action = rng.choice(checked.legal_actions())
        checked.apply(action)
        fast.apply_fast(action)
        assert snapshot(fast) == snapshot(checked)


def test_clone_is_independent_of_the_original() -> None:
    state = _ready(VOID_HEARTS_EAST)
    _play(state, "JH")
    before = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == before
    _play(copy, "AD 2H 7H QH")
    assert snapshot(state) == before
    assert len(copy.tricks) == 1 and not state.tricks


@pytest.mark.parametrize("jokers", [False, True])
def test_trick_winner_agrees_with_the_tricks_the_engine_scores(jokers: bool) -> None:
    rng = random.Random(7)
    rules = Rules(jokers=jokers)
    for seed in range(20):
        hand = HandState.deal(rules, dealer=seed % 4, seed=seed)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
        for trick in hand.tricks:
            seat, card = trick_winner(hand.deck, trick.plays())
            assert seat == trick.winner
            assert (seat, card) in trick.plays()


def test_trumps_are_the_spades_and_in_the_jokers_deck_the_jokers_too() -> None:
    spades = set(range(39, 52))
    two_of_diamonds, two_of_hearts = parse_card("2D"), parse_card("2H")
    expected: dict[JokerRanking | None, set[int]] = {
        None: spades,
        "ace": spades | {BIG_JOKER, LITTLE_JOKER},
        "deuces": spades | {BIG_JOKER, two_of_hearts, two_of_diamonds},
        "ace_no_2h": spades | {BIG_JOKER, two_of_hearts},
    }
    for jokers, trumps in expected.items():
        deck = deck_for(jokers)
        assert {card for card in range(52) if deck.is_trump(card)} == trumps
