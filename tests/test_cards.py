"""Card ids, parsing and formatting, bitmasks and action ids (DESIGN §4)."""

from __future__ import annotations

import pytest

from spades.engine.cards import (
    ADDED_BIG_JOKER,
    ADDED_LITTLE_JOKER,
    BID_BASE,
    BIG_JOKER,
    BLIND_NIL,
    CLAIM,
    EXCHANGE_BASE,
    JOKER_PLAY_BASE,
    LITTLE_JOKER,
    LOOK,
    MAX_CARDS,
    NIL,
    NUM_ACTIONS,
    Rank,
    Suit,
    action_card,
    action_str,
    bid_action,
    bid_label,
    bid_of,
    card_action,
    card_label,
    card_name,
    card_str,
    cards_mask,
    hand_cards,
    is_card,
    parse_card,
    partner,
    passed_card,
    rank_of,
    suit_of,
    team_of,
)


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("AS", 51),
        ("as", 51),
        (" As ", 51),
        ("A♠", 51),
        ("2C", 0),
        ("2♣", 0),
        ("10h", 34),
        ("10♥", 34),
        ("TH", 34),
        ("T♥", 34),
        ("qd", 23),
        ("K♦", 24),
        ("JC", 9),
        ("9S", 46),
    ],
)
def test_parse_card_reads_codes_tens_and_suit_symbols(text: str, card: int) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text", ["", "  ", "A", "10", "1S", "11H", "AX", "ASS", "ZS", "A♤", "0S", "BJ", "LJ"]
)
def test_parse_card_refuses_text_that_is_not_a_card(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


def test_card_id_is_suit_times_13_plus_rank() -> None:
    for suit in Suit:
        for rank in Rank:
            card = 13 * suit + rank
            assert suit_of(card) == suit
            assert rank_of(card) == rank
    assert parse_card("2C") == 13 * Suit.CLUBS + Rank.TWO
    assert parse_card("AS") == 13 * Suit.SPADES + Rank.ACE


def test_card_str_and_label_name_every_card_and_parse_back() -> None:
    for card in range(52):
        assert parse_card(card_str(card)) == card
        assert parse_card(card_label(card)) == card
    assert (card_str(51), card_label(51), card_name(51)) == ("AS", "A♠", "ace of spades")
    assert (card_str(34), card_label(34)) == ("TH", "10♥")


def test_jokers_are_named_bj_and_lj_in_the_jokers_deck() -> None:
    assert parse_card("BJ", jokers="ace") == BIG_JOKER
    assert parse_card("lj", jokers="ace") == LITTLE_JOKER
    assert card_str(BIG_JOKER, jokers="ace") == "BJ"
    assert card_str(LITTLE_JOKER, jokers="ace") == "LJ"
    assert card_label(BIG_JOKER, jokers="ace") == "Big Joker"
    assert card_name(LITTLE_JOKER, jokers="ace") == "little joker"
    for card in range(52):
        assert parse_card(card_str(card, jokers="ace"), jokers="ace") == card


@pytest.mark.parametrize("text", ["2C", "2♣", "2D", "2♦"])
def test_jokers_deck_has_no_two_of_clubs_or_diamonds(text: str) -> None:
    with pytest.raises(ValueError, match="jokers deck"):
        parse_card(text, jokers="ace")


def test_the_jokers_added_to_the_54_card_deck_are_cards_52_and_53_named_lj_and_bj() -> None:
    assert (ADDED_LITTLE_JOKER, ADDED_BIG_JOKER, MAX_CARDS) == (52, 53, 54)
    assert parse_card("LJ", jokers_added=True) == ADDED_LITTLE_JOKER
    assert parse_card("bj", jokers_added=True) == ADDED_BIG_JOKER
    # The codes, labels and names need no flag: the ids are the added jokers' alone.
    assert [card_str(c) for c in (52, 53)] == ["LJ", "BJ"]
    assert [card_label(c) for c in (52, 53)] == ["Little Joker", "Big Joker"]
    assert [card_name(c) for c in (52, 53)] == ["little joker", "big joker"]
    for card in range(MAX_CARDS):
        assert parse_card(card_str(card), jokers_added=True) == card
    with pytest.raises(ValueError, match="not a card"):
        parse_card("BJ")  # not a card of the standard deck


@pytest.mark.parametrize("bad", [-1, 54, 100, True, 1.0, "AS", None])
def test_formatting_refuses_a_bad_card_id(bad: object) -> None:
    for format_card in (card_str, card_label, card_name):
        with pytest.raises(ValueError, match="not a card id"):
            format_card(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a card id"):
        cards_mask([bad])  # type: ignore[list-item]


def test_cards_mask_and_hand_cards_round_trip() -> None:
    hand = [0, 12, 13, 25, 26, 38, 39, 51]
    mask = cards_mask(reversed(hand))
    assert mask.bit_count() == len(hand)
    assert hand_cards(mask) == hand
    assert hand_cards(cards_mask(range(52))) == list(range(52))
    assert hand_cards(cards_mask([53, 0, 52, 51])) == [0, 51, 52, 53]


def test_action_ids_follow_the_contract() -> None:
    assert (BID_BASE, NIL, BLIND_NIL, LOOK, EXCHANGE_BASE, CLAIM) == (52, 52, 66, 67, 68, 120)
    assert NUM_ACTIONS == 128
    assert [bid_action(n) for n in (0, 1, 13)] == [52, 53, 65]
    # Three-handed cutthroat bids up to 17, and 18 with the 54-card deck: those bids
    # follow the claim, and the plays of the added jokers follow them.
    assert [bid_action(n) for n in (14, 17, 18)] == [121, 124, 125]
    assert [card_action(c) for c in (52, 53)] == [JOKER_PLAY_BASE, JOKER_PLAY_BASE + 1]
    assert JOKER_PLAY_BASE == 126
    for bad in (-1, 19):
        with pytest.raises(ValueError, match="0 \\(nil\\) to 18"):
            bid_action(bad)


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (51, "play A♠"),
        (34, "play 10♥"),
        (52, "bid nil"),
        (53, "bid 1"),
        (65, "bid 13"),
        (66, "bid blind nil"),
        (67, "look at the cards"),
        (68 + 51, "pass A♠"),
        (120, "claim the rest"),
        (121, "bid 14"),
        (124, "bid 17"),
        (125, "bid 18"),
        (126, "play Little Joker"),
        (127, "play Big Joker"),
    ],
)
def test_action_str_describes_every_kind_of_action(action: int, text: str) -> None:
    assert action_str(action) == text


def test_action_str_names_jokers_in_the_jokers_deck() -> None:
    assert action_str(BIG_JOKER, jokers="ace") == "play Big Joker"
    assert action_str(EXCHANGE_BASE + LITTLE_JOKER, jokers="ace") == "pass Little Joker"


@pytest.mark.parametrize("bad", [-1, 128, 1000])
def test_action_str_refuses_a_number_that_is_no_action(bad: int) -> None:
    with pytest.raises(ValueError, match="not an action"):
        action_str(bad)


def test_partners_sit_across_and_teams_are_north_south_and_east_west() -> None:
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_every_action_decodes_as_exactly_one_kind() -> None:
    for action in range(NUM_ACTIONS):
        kinds = [
            is_card(action),
            bid_of(action) is not None,
            passed_card(action) is not None,
            action in (BLIND_NIL, LOOK, CLAIM),
        ]
        assert kinds.count(True) == 1, action


def test_only_card_ids_and_the_added_jokers_plays_decode_as_cards() -> None:
    cards = [a for a in range(NUM_ACTIONS) if is_card(a)]
    assert cards == [*range(52), 126, 127]
    assert [action_card(a) for a in cards] == list(range(54))
    assert [card_action(c) for c in range(54)] == cards
    assert {action_card(a) for a in range(NUM_ACTIONS) if not is_card(a)} == {None}


def test_bid_of_reads_back_the_tricks_of_every_bid_action() -> None:
    assert [bid_of(bid_action(n)) for n in range(19)] == list(range(19))
    assert bid_of(NIL) == 0
    assert bid_of(BLIND_NIL) is None


def test_passed_card_reads_back_the_card_of_every_exchange_action() -> None:
    assert [passed_card(EXCHANGE_BASE + card) for card in range(52)] == list(range(52))
    assert passed_card(CLAIM) is None


@pytest.mark.parametrize(
    ("bid", "blind", "text"),
    [(None, False, "—"), (0, False, "nil"), (0, True, "blind nil"), (7, False, "7")],
)
def test_bid_label_names_no_bid_nil_blind_nil_and_numbers(
    bid: int | None, blind: bool, text: str
) -> None:
    assert bid_label(bid, blind) == text


def test_action_str_words_bids_as_bid_label_does() -> None:
    for n in range(14):
        assert action_str(bid_action(n)) == "bid " + bid_label(n)
    assert action_str(BLIND_NIL) == "bid " + bid_label(0, blind=True)
