"""Cutthroat: three or four players, each for themselves. The rules of the table, the
three-handed deal, the bids, the scoring per player, the end of a match, and the engine's
contract (legality, observations, clone, record and replay) as in the partnership game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from engine_helpers import cards, snapshot
from test_golden import golden_match

from spades.engine.cards import (
    BLIND_NIL,
    CLAIM,
    FULL_DECK,
    LOOK,
    NIL,
    bid_action,
    parse_card,
)
from spades.engine.match import Match
from spades.engine.record import GameRecord, RecordError, dumps, loads
from spades.engine.rules import Rules, RulesError, describe_options
from spades.engine.scoring import match_outcome, score_players
from spades.engine.state import HandState, IllegalAction, Phase

THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)
TWO_OF_CLUBS = parse_card("2C")


def score(
    rules: Rules,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    *,
    blind: tuple[bool, ...] | None = None,
    bags_before: tuple[int, ...] | None = None,
) -> list[tuple[int, int, int]]:
    """(points, bags added, bags on the count after) for each player."""
    result = score_players(
        rules,
        bids=bids,
        blind=blind or (False,) * len(bids),
        tricks=tricks,
        bags_before=bags_before or (0,) * len(bids),
    )
    assert result.teams == ()
    return [(p.points, p.bags, p.bags_after) for p in result.players]


def bid_all(state: HandState, bids: list[int]) -> None:
    """Bid ``bids`` in seat order from the dealer's left."""
    for bid in bids:
        seat = state.current_player
        assert seat is not None
        if not state.looked[seat]:
            state.apply(LOOK)
        state.apply(bid_action(bid))


# ------------------------------------------------------------------------- the rules
def test_cutthroat_rules_are_players_and_no_partnerships() -> None:
    assert (THREE.players, THREE.partnerships, THREE.hand_size, THREE.game) == (
        3,
        False,
        17,
        "cutthroat",
    )
    assert (FOUR.hand_size, Rules().game) == (13, "partnership")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"players": 3}, "players"),
        ({"players": 2, "partnerships": False}, "players"),
        ({"players": 5, "partnerships": False}, "players"),
        ({"players": True, "partnerships": False}, "players"),
        ({"partnerships": False, "suicide": True}, "suicide"),
        ({"partnerships": False, "min_team_bid": 4}, "min_team_bid"),
        ({"partnerships": False, "blind_nil_exchange": True}, "blind_nil_exchange"),
        (
            {"partnerships": False, "nil_tricks_count_toward_bid": True},
            "nil_tricks_count_toward_bid",
        ),
        ({"partnerships": False, "ten_for_two_hundred": True}, "ten_for_two_hundred"),
        ({"partnerships": False, "boston_bonus": 100}, "boston_bonus"),
        ({"set_aside": "random"}, "set_aside"),
        ({"bid_total_not_tricks": True}, "bid_total_not_tricks"),
        ({"partnerships": False, "set_aside": "random"}, "set_aside"),
        ({"players": 3, "partnerships": False, "set_aside": "face_up"}, "set_aside"),
        ({"players": 3, "partnerships": False, "jokers": True}, "jokers"),
        (
            {"players": 3, "partnerships": False, "whiz": True, "bid_total_not_tricks": True},
            "bid_total_not_tricks",
        ),
    ],
)
def test_cutthroat_refuses_options_that_do_not_go_together_naming_the_field(
    options: dict[str, object], field: str
) -> None:
    for make in (lambda o: Rules(**o), Rules.from_dict):
        with pytest.raises(RulesError, match=f"^{field}: "):
            make(options)


def test_cutthroat_rules_round_trip_through_a_dict_that_names_the_table() -> None:
    rules = THREE.replace(set_aside="random", bid_total_not_tricks=True, jokers=True)
    data = rules.to_dict()
    assert data["players"] == 3 and data["partnerships"] is False
    assert "suicide" not in data and "min_team_bid" not in data
    assert Rules.from_dict(data) == rules
    # The partnership game's dict is the one it has always been.
    assert "players" not in Rules().to_dict()


def test_cutthroat_options_are_described_for_cutthroat_only() -> None:
    names = [name for name, *_ in describe_options("cutthroat")]
    assert {"players", "partnerships", "set_aside", "bid_total_not_tricks"} <= set(names)
    assert "suicide" not in names and "players" not in [n for n, *_ in describe_options()]
    assert names == list(THREE.to_dict())


# -------------------------------------------------------------------- the three-handed deal
def test_cutthroat_three_handed_deal_sets_the_two_of_clubs_aside() -> None:
    for seed in range(50):
        state = HandState.deal(THREE, dealer=seed % 3, seed=seed)
        assert state.set_aside == 1 << TWO_OF_CLUBS
        assert not any(hand >> TWO_OF_CLUBS & 1 for hand in state.hands)


def test_cutthroat_three_handed_deal_gives_seventeen_cards_each() -> None:
    state = HandState.deal(THREE, dealer=0, seed=3)
    assert [hand.bit_count() for hand in state.hands] == [17, 17, 17]
    assert state.hands[0] | state.hands[1] | state.hands[2] | state.set_aside == FULL_DECK
    assert state.hands[0] & state.hands[1] == state.hands[1] & state.hands[2] == 0


def test_cutthroat_random_set_aside_is_a_card_nobody_sees() -> None:
    rules = THREE.replace(set_aside="random")
    aside = set()
    for seed in range(40):
        state = HandState.deal(rules, dealer=1, seed=seed)
        assert state.set_aside.bit_count() == 1
        assert not state.set_aside & (state.hands[0] | state.hands[1] | state.hands[2])
        aside.add(state.set_aside)
        for seat in range(3):
            view = state.observation(seat)
            assert view.set_aside == 0
            assert view.unseen_mask & state.set_aside  # as unknown as any other card
    assert len(aside) > 20


def test_cutthroat_four_handed_deal_gives_thirteen_cards_each_and_sets_nothing_aside() -> None:
    state = HandState.deal(FOUR, dealer=2, seed=9)
    assert [hand.bit_count() for hand in state.hands] == [13] * 4
    assert state.set_aside == 0


@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
def test_cutthroat_dealer_s_left_bids_and_leads_first(rules: Rules) -> None:
    n = rules.players
    for dealer in range(n):
        state = HandState.deal(rules, dealer=dealer, seed=dealer)
        assert state.current_player == (dealer + 1) % n
        order = []
        while state.phase is Phase.BIDDING:
            order.append(state.current_player)
            bid_all(state, [1])
        assert order == [(dealer + 1 + i) % n for i in range(n)]
        assert state.current_player == (dealer + 1) % n
        state.apply(state.legal_actions()[0])
        assert state.tricks == [] and state.trick and state.leader == (dealer + 1) % n


def test_cutthroat_three_handed_bids_are_nil_to_seventeen() -> None:
    state = HandState.deal(THREE, dealer=0, seed=1)
    assert state.legal_actions() == [bid_action(n) for n in range(18)]
    state.apply(bid_action(17))
    assert state.bids[1] == 17 and state.current_player == 2


def test_cutthroat_four_handed_bids_are_nil_to_thirteen_whatever_the_others_bid() -> None:
    state = HandState.deal(FOUR, dealer=3, seed=1)
    bid_all(state, [13, 13])
    assert state.legal_actions() == [bid_action(n) for n in range(14)]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="nil to 13"):
        state.apply(bid_action(14))
    assert snapshot(state) == before


def test_cutthroat_bid_total_may_not_equal_tricks_for_the_last_bidder() -> None:
    rules = THREE.replace(bid_total_not_tricks=True)
    state = HandState.deal(rules, dealer=2, seed=5)
    bid_all(state, [6, 5])
    assert state.current_player == 2
    assert bid_action(6) not in state.legal_actions()
    assert bid_action(5) in state.legal_actions() and bid_action(7) in state.legal_actions()
    with pytest.raises(IllegalAction, match="may not add up to 17"):
        state.apply(bid_action(6))
    state.apply(bid_action(7))
    assert state.phase is Phase.PLAYING


def test_cutthroat_bid_total_may_equal_tricks_without_the_option() -> None:
    state = HandState.deal(THREE, dealer=2, seed=5)
    bid_all(state, [6, 5, 6])
    assert sum(b or 0 for b in state.bids) == 17


def test_cutthroat_bid_total_rule_takes_away_nil_and_blind_nil_when_they_would_make_it() -> None:
    rules = THREE.replace(bid_total_not_tricks=True, blind_nil_deficit=0)
    state = HandState.deal(rules, dealer=2, seed=5)
    bid_all(state, [9, 8])
    assert state.legal_actions() == [LOOK]  # blind nil (0) would bring the total to 17
    state.apply(LOOK)
    assert NIL not in state.legal_actions()


def refusal(state: HandState, action: int) -> str:
    """The reason ``action`` is refused, checking that ``can``, ``verify`` and ``apply``
    agree and that the refusal changes nothing."""
    before = snapshot(state)
    assert not state.can(action) and action not in state.legal_actions()
    with pytest.raises(IllegalAction) as verified:
        state.verify(action)
    with pytest.raises(IllegalAction) as applied:
        state.apply(action)
    assert str(verified.value) == str(applied.value)
    assert snapshot(state) == before
    return str(applied.value)


def test_cutthroat_bid_total_rule_refuses_the_dealer_s_blind_nil_that_would_make_it() -> None:
    # Blind nil counts as 0: after blind nil and 17 the dealer's blind nil makes 17.
    rules = THREE.replace(bid_total_not_tricks=True)
    state = HandState.deal(rules, dealer=1, seed=231, scores=(150, -50, 0))
    state.apply(BLIND_NIL)
    state.apply(bid_action(17))  # the leader need not look: no blind nil is open to them
    assert state.current_player == 1 and state.eligible[1]
    assert state.legal_actions() == [LOOK]
    assert refusal(state, BLIND_NIL) == (
        "The bids may not add up to 17, the number of tricks: bid another number"
    )


def test_cutthroat_bid_total_refusal_names_the_rule_with_four_players() -> None:
    rules = FOUR.replace(bid_total_not_tricks=True, blind_nil_deficit=0)
    reason = "The bids may not add up to 13, the number of tricks: bid another number"
    state = HandState.deal(rules, dealer=3, seed=0)
    bid_all(state, [5, 4, 4])
    assert state.current_player == 3
    assert refusal(state, BLIND_NIL) == reason
    state.apply(LOOK)
    assert refusal(state, NIL) == reason


def test_cutthroat_spades_are_broken_and_led_as_in_the_partnership_game() -> None:
    hands = [
        cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH JH"),
        cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C AD KD QD JD TD"),
        cards("9D 8D 7D 6D 5D 4D 3D 2D TH 9H 8H 7H 6H 5H 4H 3H 2H"),
    ]
    state = HandState.from_hands(THREE, hands, dealer=2, scores=(0, 0, 0))
    bid_all(state, [10, 5, 1])
    assert state.current_player == 0
    with pytest.raises(IllegalAction, match="Spades are not broken"):
        state.apply(parse_card("AS"))
    state.apply(parse_card("AH"))
    state.apply(parse_card("AC"))  # void in hearts, East throws a club
    state.apply(parse_card("2H"))
    assert state.tricks[0].winner == 0
    state.apply(parse_card("KH"))
    state.apply(parse_card("KC"))
    state.apply(parse_card("3H"))
    state.apply(parse_card("QH"))
    state.apply(parse_card("QC"))
    state.apply(parse_card("4H"))
    state.apply(parse_card("JH"))
    state.apply(parse_card("JC"))
    state.apply(parse_card("5H"))
    # Only spades left: North may lead one now.
    assert state.legal_actions() == cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")


def test_cutthroat_from_hands_refuses_a_hand_holding_the_card_set_aside() -> None:
    deck = [c for c in range(52) if c != parse_card("3C")]
    with pytest.raises(ValueError, match="2♣ is the card set aside"):
        HandState.from_hands(THREE, [deck[:17], deck[17:34], deck[34:]], dealer=0)
    state = HandState.from_hands(
        THREE.replace(set_aside="random"), [deck[:17], deck[17:34], deck[34:]], dealer=0
    )
    assert state.set_aside == 1 << parse_card("3C")


def test_cutthroat_seats_scores_and_bags_are_checked() -> None:
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.2"):
        HandState.deal(THREE, dealer=3, seed=1)
    with pytest.raises(ValueError, match="scores must be 3 ints"):
        HandState.deal(THREE, dealer=0, seed=1, scores=(0, 0, 0, 0))
    with pytest.raises(ValueError, match="bags must stay below"):
        HandState.deal(THREE, dealer=0, seed=1, bags=(0, 10, 0))
    with pytest.raises(ValueError, match=r"seat must be 0\.\.2"):
        HandState.deal(THREE, dealer=0, seed=1).observation(3)


# --------------------------------------------------------------------------- scoring
def test_cutthroat_made_bid_scores_ten_a_trick_plus_a_bag() -> None:
    assert score(THREE, (5, 4, 6), (7, 4, 6)) == [(52, 2, 2), (40, 0, 0), (60, 0, 0)]


def test_cutthroat_set_loses_ten_a_trick_bid() -> None:
    assert score(THREE, (9, 4, 3), (8, 3, 6)) == [(-90, 0, 0), (-40, 0, 0), (33, 3, 3)]


def test_cutthroat_nil_made_scores_a_hundred_and_failed_loses_a_hundred() -> None:
    made = score(FOUR, (0, 4, 4, 4), (0, 4, 4, 5))
    failed = score(FOUR, (0, 4, 4, 4), (2, 4, 4, 3))
    assert made[0] == (100, 0, 0) and failed[0] == (-98, 2, 2)  # failed nil tricks are bags


def test_cutthroat_blind_nil_scores_two_hundred_either_way() -> None:
    blind = (True, False, False)
    assert score(THREE, (0, 8, 8), (0, 9, 8), blind=blind)[0] == (200, 0, 0)
    assert score(THREE, (0, 8, 8), (1, 8, 8), blind=blind)[0] == (-199, 1, 1)


def test_cutthroat_blind_nil_only_when_trailing_the_leader_by_the_deficit() -> None:
    state = HandState.deal(THREE, dealer=0, seed=4, scores=(250, 151, 150))
    assert state.eligible == (False, False, True)
    assert LOOK not in state.legal_actions()  # seat 1 trails the leader by 99 only
    state.apply(bid_action(3))
    assert state.legal_actions() == [BLIND_NIL, LOOK]
    state.apply(BLIND_NIL)
    assert (state.bids[2], state.blind[2]) == (0, True)
    state = HandState.deal(THREE, dealer=2, seed=4, scores=(250, 150, 150))
    with pytest.raises(IllegalAction, match="Blind nil needs you to trail the leader by 100"):
        state.apply(BLIND_NIL)
    state = HandState.deal(FOUR, dealer=2, seed=4, scores=(300, 221, 320, 220))
    assert state.eligible == (False, False, False, True)


def test_cutthroat_look_is_refused_to_a_player_never_offered_blind_nil() -> None:
    # Seat 1 trails the leader by 99 only: its cards are in its hand from the deal.
    state = HandState.deal(THREE, dealer=0, seed=4, scores=(250, 151, 150))
    assert state.current_player == 1 and not state.eligible[1]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"^There is no blind nil to turn down: your cards"):
        state.apply(LOOK)
    assert not state.can(LOOK)
    assert snapshot(state) == before
    state.apply(bid_action(3))
    state.apply(LOOK)  # seat 2 trails by 100 and turns blind nil down
    with pytest.raises(IllegalAction, match=r"^You have already looked at your cards"):
        state.verify(LOOK)


def test_cutthroat_ten_bags_cost_a_hundred_and_come_off_the_count() -> None:
    result = score(THREE, (5, 4, 3), (8, 4, 5), bags_before=(8, 0, 9))
    assert result == [(53 - 100, 3, 1), (40, 0, 0), (32 - 100, 2, 1)]
    rules = THREE.replace(bag_limit=5, bag_penalty=50)
    assert score(rules, (5, 4, 3), (8, 4, 5), bags_before=(4, 0, 0))[0] == (3, 3, 2)


def test_cutthroat_bags_off_scores_overtricks_and_keeps_no_count() -> None:
    assert score(THREE.replace(bag_limit=None), (5, 4, 3), (8, 4, 5))[0] == (53, 0, 0)


def test_cutthroat_scoring_needs_every_trick() -> None:
    with pytest.raises(ValueError, match="17 tricks"):
        score(THREE, (5, 4, 3), (5, 4, 3))


# ----------------------------------------------------------------------- the match end
def test_cutthroat_match_ends_when_a_player_reaches_the_target_and_the_highest_wins() -> None:
    assert match_outcome(THREE, (490, 499, 120)).over is False
    outcome = match_outcome(THREE, (505, 530, 120))
    assert (outcome.over, outcome.winner) == (True, 1)
    assert match_outcome(FOUR, (100, 200, 520, 300)).winner == 2


def test_cutthroat_tie_at_the_top_plays_another_hand_or_shares_the_game() -> None:
    assert match_outcome(THREE, (520, 520, 510)).over is False
    shared = match_outcome(THREE.replace(tie_policy="draw"), (520, 520, 510))
    assert (shared.over, shared.winner) == (True, None)
    # A tie below the top decides nothing.
    assert match_outcome(THREE, (530, 520, 520)).winner == 0


def test_four_handed_cutthroat_mercy_ends_the_match_and_the_highest_score_wins() -> None:
    # As a fallen team ends the partnership game; three players knock the fallen one out
    # instead (tests/test_cutthroat_knockout.py).
    outcome = match_outcome(FOUR, (150, -200, 180, 90))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 2, ())
    assert match_outcome(FOUR.replace(mercy_score=None), (150, -900, 180, 0)).over is False


def test_cutthroat_match_rotates_the_dealer_among_the_players() -> None:
    match = Match(THREE, seed=11)
    rng = random.Random(1)
    dealers = []
    while not match.is_over and len(match.finished) < 6:
        dealers.append(match.hand.dealer)
        hand_number = match.hand_number
        while match.hand_number == hand_number and not match.is_over:
            match.apply(rng.choice(match.legal_actions()))
    assert dealers == [(match.first_dealer + i) % 3 for i in range(len(dealers))]


# ------------------------------------------------------------- random matches: invariants
def check_views(state: HandState) -> None:
    """Each player sees their own cards only; never another's, nor a card set aside unseen,
    nor the cards left out with a seat knocked out."""
    n = state.seat_count
    known_aside = state.set_aside if state.rules.set_aside == "two_of_clubs" else 0
    for seat in range(n):
        view = state.observation(seat)
        others = 0
        for other in range(n):
            if other != seat:
                others |= state.hands[other]
        if state.looked[seat]:
            assert view.hand == tuple(state.hand(seat))
            hidden = (state.set_aside & ~known_aside) | state.left_out
            assert view.unseen_mask == others | hidden
        else:
            assert view.hand is None
        assert view.out == state.out and view.seats_in == tuple(
            s for s in range(n) if s not in state.out
        )
        for out in state.out:
            assert (view.hand_sizes[out], view.bids[out], view.tricks_won[out]) == (0, None, 0)
        assert view.set_aside == known_aside
        assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)
        assert len(view.bids) == len(view.tricks_won) == len(view.scores) == n
        if seat == state.current_player:
            assert view.legal_actions == tuple(state.legal_actions())
        else:
            assert view.legal_actions == () and not view.can_claim
        seen = set(view.hand or ()) | {c for _, c in view.trick}
        for trick in view.tricks:
            seen |= set(trick.cards)
        assert not seen & set(state.deck.chunks(others))
        assert not any((state.set_aside | state.left_out) >> card & 1 for card in seen)


def check_hand(state: HandState, rules: Rules) -> None:
    n, size = rules.players, rules.hand_size
    seats_in = [seat for seat in range(n) if seat not in state.out]
    assert state.is_over and sum(state.tricks_won) == size
    held = state.initial_hands
    assert [hand.bit_count() for hand in held] == [0 if s in state.out else size for s in range(n)]
    assert state.left_out.bit_count() == size * len(state.out)
    assert all(state.bids[s] is None and not state.tricks_won[s] for s in state.out)
    union = 0
    for hand in held:
        assert not union & hand
        union |= hand
    aside = state.set_aside | state.left_out
    assert union | aside == state.deck.cards and not union & aside
    assert state.set_aside.bit_count() == state.deck.cards.bit_count() - n * size
    assert not state.set_aside & state.left_out
    winners = [0] * n
    played = 0
    for index, trick in enumerate(state.tricks):
        assert len(trick.cards) == len(seats_in)
        assert sorted(seat for seat, _ in trick.plays()) == seats_in
        for seat, card in trick.plays():
            assert held[seat] >> card & 1 and not played >> card & 1
            played |= 1 << card
        winners[trick.winner] += 1
        if index:
            assert trick.leader == state.tricks[index - 1].winner
    if state.claimed_by is None:
        assert played == union and winners == state.tricks_won
    else:
        winners[state.claimed_by] += size - len(state.tricks)
        assert winners == state.tricks_won
    if state.tricks:
        assert (
            state.tricks[0].leader == seats_in[(seats_in.index(state.dealer) + 1) % len(seats_in)]
        )


def play_random_match(rules: Rules, seed: int, *, views: bool) -> Match:
    """A match of random legal actions (and claims), checking every hand and the end.

    A seat knocked out never acts nor scores, and the deal passes over it."""
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    n = rules.players
    scores, bags = (0,) * n, (0,) * n
    out: tuple[int, ...] = ()
    dealer = match.first_dealer
    while not match.is_over and len(match.finished) < 60:
        hand = match.hand
        assert (hand.scores, hand.bags, hand.out, hand.dealer) == (scores, bags, out, dealer)
        assert hand.current_player not in out
        if views:
            check_views(hand)
        if hand.phase is Phase.PLAYING and hand.can_claim() and rng.random() < 0.5:
            action = CLAIM
        else:
            action = rng.choice(hand.legal_actions())
        if rng.random() < 0.05:
            copy = hand.clone()
            before = snapshot(hand)
            copy.apply(action)
            assert snapshot(hand) == before  # the clone is independent
        result = match.apply(action).result
        if result is None:
            continue
        check_hand(match.finished[-1], rules)
        assert result.teams == () and len(result.players) == n
        for seat, player in enumerate(result.players):
            assert sum(line.points for line in player.lines) == player.points
            if seat in out:
                assert (player.points, player.bags_after) == (0, bags[seat])
        scores = tuple(s + p.points for s, p in zip(scores, result.players, strict=True))
        bags = tuple(p.bags_after for p in result.players)
        assert match.scores == scores and match.bags == bags
        outcome = match_outcome(rules, scores, out)
        assert match.outcome == outcome and match.out == outcome.out
        assert outcome.out[: len(out)] == out  # once out, out for good
        out = outcome.out
        assert all(scores[seat] <= (rules.mercy_score or 0) for seat in out)
        dealer = (dealer + 1) % n
        while dealer in out:
            dealer = (dealer + 1) % n
    if match.finished:
        assert match.score_history()[-1] == match.scores
    return match


def random_cutthroat_rules(rng: random.Random) -> Rules:
    players = rng.choice([3, 4])
    nil_allowed = rng.random() < 0.85
    whiz = nil_allowed and rng.random() < 0.1
    set_aside = rng.choice(["two_of_clubs", "random"]) if players == 3 else "two_of_clubs"
    bag_limit = rng.choice([None, 5, 10, 10])
    return Rules(
        players=players,
        partnerships=False,
        target_score=rng.choice([200, 300, 500]),
        mercy_score=rng.choice([None, -200, -500]),
        tie_policy=rng.choice(["play_on", "draw"]),
        nil_allowed=nil_allowed,
        blind_nil=nil_allowed and rng.random() < 0.6,
        blind_nil_deficit=rng.choice([0, 50, 100]),
        whiz=whiz,
        bag_limit=bag_limit,
        bag_penalty=50 if bag_limit == 5 else 100,
        jokers=(players == 4 or set_aside == "random") and rng.random() < 0.3,
        no_spades_first_trick=rng.random() < 0.2,
        spades_lead_any_time=rng.random() < 0.2,
        set_aside=set_aside,
        bid_total_not_tricks=not whiz and rng.random() < 0.3,
    )


@pytest.mark.parametrize("chunk", range(8))
@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
def test_cutthroat_random_matches_keep_every_invariant(rules: Rules, chunk: int) -> None:
    # 8 chunks of 150 matches a table: 2,400 matches in all.
    for seed in range(chunk * 150, (chunk + 1) * 150):
        play_random_match(rules, seed, views=seed % 25 == 0)


@pytest.mark.parametrize("chunk", range(2))
def test_cutthroat_random_matches_under_random_options_keep_every_invariant(chunk: int) -> None:
    for seed in range(chunk * 100, (chunk + 1) * 100):
        rules = random_cutthroat_rules(random.Random(seed * 7919))
        play_random_match(rules, seed, views=seed % 20 == 0)


def test_cutthroat_random_matches_cover_claims_blind_nils_ties_and_endings() -> None:
    claimed = blind = ended = 0
    for seed in range(150):
        match = play_random_match(THREE.replace(blind_nil_deficit=0), seed, views=False)
        ended += match.is_over
        for hand in match.finished:
            claimed += hand.claimed_by is not None
            blind += any(hand.blind)
    assert claimed and blind and ended == 150


# --------------------------------------------------------------------- record and replay
@pytest.mark.parametrize("rules", [THREE, FOUR, THREE.replace(set_aside="random")])
def test_cutthroat_record_round_trips_and_replays(rules: Rules) -> None:
    for seed in range(30):
        match = play_random_match(rules, seed, views=False)
        record = GameRecord.of(match)
        assert len(record.players) == rules.players
        loaded = loads(dumps(record))
        assert loaded.record == record
        assert loaded.match.history == match.history
        assert (loaded.match.scores, loaded.match.bags, loaded.match.winner) == (
            match.scores,
            match.bags,
            match.winner,
        )


def test_cutthroat_record_needs_one_name_a_player() -> None:
    match = Match(THREE, seed=1)
    with pytest.raises(ValueError, match="3 names are needed"):
        GameRecord(THREE, 1, (), ("N", "E", "S", "W"))
    text = dumps(GameRecord.of(match))
    with pytest.raises(RecordError, match="players: expected 3 names, found 4"):
        loads(text.replace('"Player 3"', '"Player 3","Player 4"'))


def test_cutthroat_illegal_action_leaves_the_state_unchanged_and_says_why() -> None:
    state = HandState.deal(THREE, dealer=0, seed=2)
    before = snapshot(state)
    for action in (parse_card("AS"), 200, True, CLAIM, bid_action(4) + 1000):
        with pytest.raises(IllegalAction):
            state.apply(action)  # type: ignore[arg-type]
        assert snapshot(state) == before


def test_cutthroat_golden_record_replays_to_its_final_scores() -> None:
    # The golden match cutthroat_three (tests/golden/match_cutthroat_three.txt, played again
    # by tests/test_golden.py): its whole record is checked in here.
    text = (Path(__file__).parent / "golden" / "record_cutthroat_three.json").read_text()
    loaded = loads(text)
    assert loaded.record.rules.players == 3 and not loaded.record.rules.partnerships
    match = loaded.match
    assert match.is_over and len(match.finished) == 4
    assert (match.scores, match.winner) == ((-520, -691, -400), 2)
    assert list(loaded.record.actions) == match.history
    assert match.history == golden_match("match_cutthroat_three").history
