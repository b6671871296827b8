"""The rankings of the jokers deck: "ace" (Big Joker, Little Joker, A♠; the 2♣ and 2♦
out), "deuces" (Big Joker, Little Joker, 2♦, 2♠, A♠; the 2♣ and 2♥ out, the 2♦ a
trump) and "ace_no_2h" (Big Joker, Little Joker, A♠; the 2♣ and 2♥ out)."""

from __future__ import annotations

import itertools
import random

import pytest
from engine_helpers import cards, deal_by_suits, snapshot
from test_cutthroat import play_random_match
from test_invariants import play_match

from spades.engine.cards import (
    BIG_JOKER,
    JOKER_RANKINGS,
    LITTLE_JOKER,
    LITTLE_JOKER_OF_HEARTS,
    JokerRanking,
    bid_action,
    card_label,
    card_name,
    card_str,
    parse_card,
)
from spades.engine.match import Match
from spades.engine.record import GameRecord, dumps, loads
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, IllegalAction, Phase, deck_for, trick_winner

DEUCES = Rules(jokers=True, joker_ranking="deuces")
NO_2H = Rules(jokers=True, joker_ranking="ace_no_2h")

# West deals, so North leads first. Under "deuces" South holds the 2♦ among its spades.
DEUCE_HANDS = deal_by_suits(
    "BJ AS KS 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "LJ QS JS TS KC AC 3H 4H 5H 6H 7H 8H 9H",
    "2D 2S 9S 8S 7S 6S 5S 4S 3S TH JH QH KH",
    "AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    jokers="deuces",
)


# North leads a diamond and East, whose only "diamond" is the 2♦ (a trump under "deuces"),
# is void in diamonds.
DIAMOND_VOID_HANDS = deal_by_suits(
    "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 3C",
    "2D BJ 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "LJ 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
    "AS 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    jokers="deuces",
)


def ready(hands: list[list[int]], rules: Rules, dealer: int = 3) -> HandState:
    """The hand of ``hands`` under ``rules``, each seat bidding 3, at the first lead."""
    state = HandState.from_hands(rules, hands, dealer=dealer)
    for _ in range(4):
        state.apply(bid_action(3))
    assert state.phase is Phase.PLAYING
    return state


def _play(state: HandState, codes: str, jokers: JokerRanking) -> None:
    for card in cards(codes, jokers=jokers):
        state.apply(card)


# ------------------------------------------------------------------ the deck
def test_the_jokers_replace_the_two_of_clubs_and_the_two_of_diamonds_or_hearts() -> None:
    assert [parse_card(code, jokers="ace") for code in ("BJ", "LJ")] == [BIG_JOKER, LITTLE_JOKER]
    for ranking in ("deuces", "ace_no_2h"):
        assert parse_card("BJ", jokers=ranking) == BIG_JOKER == parse_card("2C")
        assert parse_card("LJ", jokers=ranking) == LITTLE_JOKER_OF_HEARTS == parse_card("2H")
        assert parse_card("2D", jokers=ranking) == parse_card("2D")
        for gone in ("2C", "2H"):
            with pytest.raises(ValueError, match="not a card in the jokers deck"):
                parse_card(gone, jokers=ranking)


def test_the_jokers_are_named_by_their_ranking() -> None:
    two_of_hearts = parse_card("2H")
    assert card_str(two_of_hearts, jokers="deuces") == "LJ"
    assert card_label(two_of_hearts, jokers="ace_no_2h") == "Little Joker"
    assert card_name(two_of_hearts, jokers="ace") == "two of hearts"
    assert card_str(LITTLE_JOKER, jokers="deuces") == "2D"
    assert card_label(LITTLE_JOKER, jokers="ace") == "Little Joker"
    for ranking in JOKER_RANKINGS:
        for card in range(52):
            assert parse_card(card_str(card, jokers=ranking), jokers=ranking) == card


@pytest.mark.parametrize(
    ("ranking", "sizes"),
    [("ace", [12, 12, 13, 15]), ("deuces", [12, 12, 12, 16]), ("ace_no_2h", [12, 13, 12, 15])],
)
def test_each_ranking_s_suits_have_their_number_of_cards(
    ranking: JokerRanking, sizes: list[int]
) -> None:
    deck = deck_for(ranking)
    assert [mask.bit_count() for mask in deck.suit_masks] == sizes
    assert deck.suit_masks[0] | deck.suit_masks[1] | deck.suit_masks[2] | deck.suit_masks[3] == (
        deck.cards
    )


def test_the_two_of_diamonds_is_a_trump_under_the_jokers_deuces_ranking() -> None:
    two = parse_card("2D")
    assert deck_for("deuces").is_trump(two) and deck_for("deuces").suit[two] == SPADES
    assert not deck_for("ace_no_2h").is_trump(two)


@pytest.mark.parametrize(
    ("ranking", "order"),
    [
        ("ace", "BJ LJ AS KS 2S"),
        ("deuces", "BJ LJ 2D 2S AS KS 3S"),
        ("ace_no_2h", "BJ LJ AS KS 2S"),
    ],
)
def test_the_trumps_rank_from_the_big_joker_down_under_each_ranking(
    ranking: JokerRanking, order: str
) -> None:
    deck = deck_for(ranking)
    ranked = cards(order, jokers=ranking)
    for high, low in itertools.combinations(ranked, 2):
        assert deck.beats(high, low) and not deck.beats(low, high)
        for first, second in ((high, low), (low, high)):
            assert trick_winner(deck, [(0, first), (1, second)]) == (
                (0, first) if first == high else (1, second)
            )


def test_the_two_of_spades_beats_the_ace_of_spades_under_the_deuces_ranking() -> None:
    state = ready(DEUCE_HANDS, DEUCES.replace(spades_lead_any_time=True))
    _play(state, "AS QS 2S 3D", "deuces")
    assert state.tricks[-1].winner == 2


def test_the_two_of_spades_is_the_lowest_spade_under_the_other_rankings() -> None:
    for ranking in ("ace", "ace_no_2h"):
        deck = deck_for(ranking)
        assert deck.beats(parse_card("3S"), parse_card("2S"))


def test_the_two_of_diamonds_is_a_diamond_under_the_ace_no_2h_ranking() -> None:
    deck = deck_for("ace_no_2h")
    two, three = parse_card("2D"), parse_card("3D")
    assert trick_winner(deck, [(0, two), (1, three)]) == (1, three)
    assert trick_winner(deck, [(0, three), (1, two)]) == (0, three)


# ------------------------------------------------------------------ the play
def test_the_two_of_diamonds_trumps_a_side_suit_and_breaks_spades_under_deuces() -> None:
    state = ready(DEUCE_HANDS, DEUCES)
    _play(state, "3C KC", "deuces")
    # South holds no club: the 2♦, a spade, trumps the trick and breaks spades.
    assert parse_card("2D") in state.legal_actions()
    _play(state, "2D AH", "deuces")
    assert state.tricks[-1].winner == 2 and state.spades_broken


def test_the_two_of_diamonds_is_led_as_a_spade_only_once_spades_are_broken() -> None:
    state = ready(DEUCE_HANDS, DEUCES, dealer=1)  # South leads
    two = parse_card("2D")
    assert state.legal_actions() == sorted(cards("TH JH QH KH"))
    with pytest.raises(IllegalAction, match="Spades are not broken yet"):
        state.apply(two)


def test_a_player_void_in_spades_holding_the_two_of_diamonds_must_follow_a_spade_lead_with_it() -> (
    None
):
    hands = deal_by_suits(
        "BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
        "LJ 2S 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "AC 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        jokers="deuces",
    )
    state = ready(hands, DEUCES.replace(spades_lead_any_time=True))
    _play(state, "AS 2S", "deuces")
    assert state.legal_actions() == [parse_card("2D")]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="You must follow spades"):
        state.apply(parse_card("3D"))
    assert snapshot(state) == before
    _play(state, "2D AC", "deuces")
    assert state.tricks[-1].winner == 2


def test_a_player_holding_only_the_two_of_diamonds_may_discard_on_a_diamond_lead() -> None:
    state = ready(DIAMOND_VOID_HANDS, DEUCES)
    _play(state, "3D", "deuces")
    assert state.legal_actions() == sorted(state.hand(1))
    _play(state, "4C", "deuces")
    view = state.observation(2)
    assert view.known_voids()[1] == 1 << 1  # diamonds, and not spades
    assert view.legal_actions == tuple(state.legal_actions())


def test_a_whiz_bid_counts_the_two_of_diamonds_among_the_spades_under_deuces() -> None:
    state = HandState.from_hands(DEUCES.replace(whiz=True), DEUCE_HANDS, dealer=1)
    # South bids first and holds the 2♦ and eight spades: nil or 9.
    assert state.legal_actions() == [bid_action(0), bid_action(9)]


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("ranking", JOKER_RANKINGS)
def test_random_matches_under_each_joker_ranking_keep_every_invariant(
    ranking: JokerRanking,
) -> None:
    rules = Rules(jokers=True, joker_ranking=ranking, target_score=300)
    for seed in range(3):
        assert play_match(seed, rules, check_views=seed == 0).finished


@pytest.mark.parametrize("ranking", JOKER_RANKINGS)
def test_random_cutthroat_matches_under_each_joker_ranking_keep_every_invariant(
    ranking: JokerRanking,
) -> None:
    three = Rules(players=3, partnerships=False, set_aside="random", jokers=True)
    for rules in (three, three.replace(players=4, set_aside="two_of_clubs")):
        for seed in range(3):
            play_random_match(rules.replace(joker_ranking=ranking), seed, views=seed == 0)


@pytest.mark.parametrize("ranking", JOKER_RANKINGS)
def test_a_game_under_each_joker_ranking_round_trips_and_replays(ranking: JokerRanking) -> None:
    rules = Rules(jokers=True, joker_ranking=ranking)
    rng = random.Random(1)
    match = Match(rules, seed=4)
    while len(match.finished) < 1:
        match.apply(rng.choice(match.hand.legal_actions()))
    loaded = loads(dumps(GameRecord.of(match)))
    assert loaded.record.rules.joker_deck == ranking
    assert loaded.match.scores == match.scores
