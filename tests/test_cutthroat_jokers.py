"""Three-handed cutthroat with the 54-card deck (``Rules(jokers_added=True)``): the Big and
Little Joker are added as cards 52 and 53, trumps above the A♠ (Big over Little), nothing
is set aside, each player holds 18 cards and bids nil to 18, and a joker is played by an
action of its own (its card id is the action of a bid)."""

from __future__ import annotations

import pytest
from engine_helpers import snapshot
from test_cutthroat import bid_all, play_random_match

from spades.engine.cards import (
    ADDED_BIG_JOKER,
    ADDED_LITTLE_JOKER,
    FULL_DECK,
    NIL,
    Card,
    action_card,
    bid_action,
    card_action,
    parse_card,
)
from spades.engine.match import Match
from spades.engine.record import GameRecord, RecordError, dumps, loads
from spades.engine.rules import Rules, RulesError, describe_options
from spades.engine.state import HandState, IllegalAction, deck_for, trick_winner

JOKERS = Rules(players=3, partnerships=False, jokers_added=True)
LJ = ADDED_LITTLE_JOKER
BJ = ADDED_BIG_JOKER


def j54(text: str) -> list[Card]:
    return [parse_card(code, jokers_added=True) for code in text.split()]


def position() -> HandState:
    """Seat 0 holds the Big Joker and most spades, seat 1 the Little Joker and the 2♠."""
    hands = [
        j54("BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH KH QH JH TH"),
        j54("LJ 2S AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AD KD QD"),
        j54("JD TD 9D 8D 7D 6D 5D 4D 3D 2D 9H 8H 7H 6H 5H 4H 3H 2H"),
    ]
    return HandState.from_hands(JOKERS, hands, dealer=2)


# ---------------------------------------------------------------------------- the rules
def test_the_54_card_deck_is_an_option_of_three_handed_cutthroat() -> None:
    assert (JOKERS.hand_size, JOKERS.to_dict()["jokers_added"]) == (18, True)
    assert Rules.from_dict(JOKERS.to_dict()) == JOKERS
    names = [name for name, *_ in describe_options("cutthroat")]
    assert "jokers_added" in names and "jokers_added" not in Rules().to_dict()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"jokers_added": True}, "jokers_added"),
        ({"partnerships": False, "jokers_added": True}, "jokers_added"),
        (
            {"players": 3, "partnerships": False, "jokers_added": True, "jokers": True},
            "jokers_added",
        ),
        (
            {"players": 3, "partnerships": False, "jokers_added": True, "set_aside": "random"},
            "set_aside",
        ),
        ({"players": 3, "partnerships": False, "jokers_added": 1}, "jokers_added"),
    ],
)
def test_the_54_card_deck_is_refused_elsewhere_naming_the_field(
    options: dict[str, object], field: str
) -> None:
    for make in (lambda o: Rules(**o), Rules.from_dict):
        with pytest.raises(RulesError, match=f"^{field}: "):
            make(options)


# ------------------------------------------------------------------------------ the deal
def test_the_54_card_deck_deals_eighteen_cards_to_each_of_three_and_sets_nothing_aside() -> None:
    seen_jokers = set()
    for seed in range(30):
        state = HandState.deal(JOKERS, dealer=seed % 3, seed=seed)
        assert [hand.bit_count() for hand in state.hands] == [18, 18, 18]
        assert state.hands[0] | state.hands[1] | state.hands[2] == FULL_DECK | 1 << LJ | 1 << BJ
        assert state.set_aside == 0 and state.observation(0).set_aside == 0
        seen_jokers |= {seat for seat in range(3) if state.hands[seat] >> BJ & 1}
    assert seen_jokers == {0, 1, 2}


def test_from_hands_needs_the_whole_54_card_deck() -> None:
    deck = list(range(54))
    state = HandState.from_hands(JOKERS, [deck[:18], deck[18:36], deck[36:]], dealer=0)
    assert state.hand(2)[-2:] == [LJ, BJ]
    with pytest.raises(ValueError, match="whole 54-card deck"):
        HandState.from_hands(JOKERS, [deck[:18], deck[18:36], deck[35:53]], dealer=0)
    three = Rules(players=3, partnerships=False, set_aside="random")
    with pytest.raises(ValueError, match="not a card id: 53"):
        HandState.from_hands(three, [deck[:17], deck[17:34], deck[37:]], dealer=0)


# ------------------------------------------------------------------------- the bidding
def test_three_players_bid_nil_to_eighteen_with_the_54_card_deck() -> None:
    state = HandState.deal(JOKERS, dealer=0, seed=1)
    assert state.legal_actions() == [bid_action(n) for n in range(19)]
    state.apply(bid_action(18))
    assert state.bids[1] == 18
    with pytest.raises(IllegalAction, match="nil to 17"):
        HandState.deal(Rules(players=3, partnerships=False), dealer=0, seed=1).apply(bid_action(18))


# ---------------------------------------------------------------------------- the play
def test_the_added_jokers_rank_above_the_ace_of_spades_big_over_little() -> None:
    deck = deck_for(None, jokers_added=True)
    ace = parse_card("AS")
    assert deck.beats(BJ, LJ) and deck.beats(LJ, ace) and not deck.beats(LJ, BJ)
    assert deck.beats(LJ, parse_card("AH")) and deck.is_trump(BJ)
    assert trick_winner(deck, [(0, ace), (1, BJ), (2, LJ)]) == (1, BJ)


def test_a_joker_is_played_by_its_own_action_and_its_card_goes_to_the_trick() -> None:
    state = position()
    bid_all(state, [10, 5, 1])
    assert state.current_player == 0
    # Spades are not broken and the Big Joker is a spade.
    assert state.legal_actions() == j54("TH JH QH KH AH")
    with pytest.raises(IllegalAction, match="Spades are not broken"):
        state.apply(card_action(BJ))
    state.apply(parse_card("AH"))
    legal = state.legal_actions()
    assert card_action(LJ) in legal and LJ not in legal  # 52 is the action of a nil bid
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="The bidding is over"):
        state.apply(NIL)
    assert snapshot(state) == before
    state.apply(card_action(LJ))
    state.apply(parse_card("2H"))
    trick = state.tricks[0]
    assert (trick.cards, trick.winner, state.spades_broken) == ((*j54("AH LJ 2H"),), 1, True)
    assert state.history[-3:] == [parse_card("AH"), card_action(LJ), parse_card("2H")]
    assert state.describe(state.history[-2]) == "play Little Joker"


def test_the_jokers_are_spades_to_follow() -> None:
    state = position()
    bid_all(state, [10, 5, 1])
    # Seat 1 ruffs the hearts and leads a club; seat 0 is void in clubs: anything goes.
    for code in ("AH", "2S", "2H", "AC", "2D"):
        state.apply(parse_card(code))
    assert state.current_player == 0 and card_action(BJ) in state.legal_actions()
    state.apply(parse_card("KS"))
    state.apply(parse_card("AS"))
    # A spade is led and seat 1's only spade left is the Little Joker.
    assert state.legal_actions() == [card_action(LJ)]
    view = state.observation(1)
    assert view.legal_actions == (card_action(LJ),) and view.hand is not None
    assert LJ in view.hand and view.unseen_mask >> BJ & 1
    assert view.known_voids()[0] == 1 << 0  # seat 0 did not follow the club


def test_a_claim_counts_the_jokers() -> None:
    rules = JOKERS.replace(spades_lead_any_time=True)
    spades = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH"
    clubs = "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AD KD QD JD"
    rest = j54("TD 9D 8D 7D 6D 5D 4D 3D 2D TH 9H 8H 7H 6H 5H 4H 3H 2H")
    # Seat 0 leads every trump but the other joker, then its top hearts.
    for mine, theirs, claim in (("BJ", "LJ", True), ("LJ", "BJ", False)):
        hands = [j54(f"{mine} {spades}"), j54(f"{theirs} {clubs}"), rest]
        state = HandState.from_hands(rules, hands, dealer=2)
        bid_all(state, [15, 1, 1])
        assert state.can_claim() is claim  # the Big Joker takes the Little Joker


def test_a_joker_play_is_no_action_in_the_other_decks() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=1)
    bid_all(state, [3, 3, 3, 3])
    with pytest.raises(IllegalAction, match="126 is not an action"):
        state.apply(card_action(LJ))
    assert action_card(card_action(LJ)) == LJ


# --------------------------------------------------------------------- matches, records
@pytest.mark.parametrize("mercy", [-200, -50])
def test_random_54_card_matches_keep_every_invariant(mercy: int) -> None:
    rules = JOKERS.replace(mercy_score=mercy, target_score=300)
    jokers_played = 0
    for seed in range(150):
        match = play_random_match(rules, seed, views=seed % 15 == 0)
        for hand in match.finished:
            jokers_played += sum(action_card(a) in (LJ, BJ) for a in hand.history)
        if seed % 10 == 0:
            loaded = loads(dumps(GameRecord.of(match)))
            assert (loaded.match.history, loaded.match.scores, loaded.match.out) == (
                match.history,
                match.scores,
                match.out,
            )
    assert jokers_played > 200


def test_a_standard_record_refuses_a_joker_play() -> None:
    text = dumps(GameRecord.of(Match(Rules(players=3, partnerships=False), seed=2)))
    text = text.replace('"actions":[]', f'"actions":[{card_action(BJ)}]')
    refused = r"actions\[0\] \(hand 1, play Big Joker\): 127 is not an action"
    with pytest.raises(RecordError, match=refused):
        loads(text)
