"""The bots in cutthroat, three and four players each for themselves: only legal actions in
random hands, no partner to protect, opponents' nils busted, nil judged for the table,
the leader set near the target and the deal sampler's hands (the cutthroat duplicate is
the arena's, in test_arena.py)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from engine_helpers import cards

from spades.bots import Bot, make_bot
from spades.bots.basic import counted_tricks
from spades.bots.expert import ExpertBot
from spades.bots.hint import blunder, explain, hint
from spades.bots.knowledge import Knowledge, evaluate_hand
from spades.bots.sampler import DealSampler
from spades.bots.standard import choose_play, nil_success, read_hand, set_target
from spades.bots.worth import match_bag_costs, team_econ
from spades.cli import main
from spades.engine.cards import (
    ADDED_BIG_JOKER,
    ADDED_LITTLE_JOKER,
    BLIND_NIL,
    LOOK,
    NIL,
    Action,
    Card,
    bid_action,
    bid_of,
    card_action,
    parse_card,
)
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase

C = parse_card
THREE = Rules(players=3, partnerships=False)
FOUR = Rules(players=4, partnerships=False)
# An expert quick enough for many hands in a test, still searching every decision.
FAST_EXPERT = {"time_budget": 0.004}


def _bot(name: str, seat: int) -> Bot:
    return make_bot(name, seed=seat, **(FAST_EXPERT if name == "expert" else {}))


def _play_out(state: HandState, bots: dict[int, Bot]) -> int:
    """Play the hand to its end; every action must be one the engine offers. Returns the
    decisions made."""
    made = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].act(state.observation(seat))
        assert action in state.legal_actions(), (seat, action)
        state.apply(action)
        made += 1
    return made


def _bid(state: HandState, tricks: list[int]) -> None:
    """Bid ``tricks`` in bidding order, looking at the cards first when offered."""
    for bid in tricks:
        seat = state.current_player
        assert seat is not None
        if LOOK in state.legal_actions():
            state.apply(LOOK)
        state.apply(bid_action(bid))


# ------------------------------------------------------------------------- legality
@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
@pytest.mark.parametrize("name", ["basic", "standard"])
def test_cutthroat_bots_play_random_hands_with_legal_actions_only(rules: Rules, name: str) -> None:
    rng = random.Random(7)
    for index in range(150):
        players = rules.players
        state = HandState.deal(
            rules,
            dealer=index % players,
            seed=index,
            scores=tuple(rng.choice((0, 150, 420)) for _ in range(players)),
            bags=tuple(rng.randrange(10) for _ in range(players)),
        )
        _play_out(state, {seat: _bot(name, seat) for seat in range(players)})
        assert sum(state.tricks_won) == rules.hand_size


@pytest.mark.parametrize(
    "rules",
    [
        THREE,
        FOUR,
        THREE.replace(set_aside="random", jokers=True),
        THREE.replace(bid_total_not_tricks=True, whiz=False),
    ],
    ids=["three", "four", "three-random-aside-jokers", "three-bid-total"],
)
def test_cutthroat_mixed_tables_with_the_expert_play_legal_actions_only(rules: Rules) -> None:
    names = ["expert", "standard", "basic", "standard"][: rules.players]
    for index in range(3):
        state = HandState.deal(rules, dealer=index % rules.players, seed=100 + index)
        bots = {
            seat: _bot(names[(seat + index) % rules.players], seat) for seat in range(rules.players)
        }
        assert _play_out(state, bots) >= rules.hand_size * rules.players


def test_cutthroat_bots_play_a_hand_with_a_player_knocked_out() -> None:
    rules = THREE.replace(mercy_score=-200)
    state = HandState.deal(rules, dealer=0, seed=3, scores=(100, -250, 40), out=(1,))
    bots = {seat: _bot(name, seat) for seat, name in ((0, "expert"), (2, "standard"))}
    _play_out(state, bots)
    assert state.tricks_won[1] == 0 and sum(state.tricks_won) == rules.hand_size


# ------------------------------------------------------------------ no partner
# West dealt, so North bids first and leads; South holds K♥ 10♥ 4♥ behind North's 9♥.
NIL_HANDS = (
    "9H 2C 3C 4C 5C 2D 3D 4D 5D 6D 2S 3S 4S",
    "2H 3H 6C 7C 8C 7D 8D 9D 5S 6S 7S 8S 9S",
    "10H KH 4H 9C 10C JC 10D JD QD 10S JS QS KS",
    "AH QH JH 8H 7H 6H 5H QC KC AC KD AD AS",
)


def _nil_position(rules: Rules) -> HandState:
    """North bid nil and leads the 9♥, East plays the 2♥: South to play."""
    state = HandState.from_hands(rules, [cards(row) for row in NIL_HANDS], dealer=3)
    _bid(state, [0, 3, 4, 4])
    for card in ("9H", "2H"):
        state.apply(C(card))
    return state


def test_standard_covers_a_partners_nil_in_the_partnership_game() -> None:
    state = _nil_position(Rules())
    assert make_bot("standard").act(state.observation(2)) in (C("10H"), C("KH"))


@pytest.mark.parametrize("name", ["standard", "expert"])
def test_cutthroat_bot_ducks_under_the_nil_of_the_player_across_instead_of_covering_it(
    name: str,
) -> None:
    # The seat across is no partner in cutthroat: its nil is an opponent's, to bust.
    state = _nil_position(FOUR)
    assert make_bot(name, seed=1).act(state.observation(2)) == C("4H")


def test_cutthroat_knowledge_has_no_partner_and_every_other_player_is_an_opponent() -> None:
    state = _nil_position(FOUR)
    k = Knowledge(state.observation(2))
    assert (k.partner, k.team, k.opponents) == (None, 2, (3, 0, 1))
    assert k.still_to_play() == [3] and k.partner_bid() is None


# ------------------------------------------------------------------ nil bids
THREE_NIL = "2S 3S 4S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 3C 4C 5C 6C"
THREE_JACK = "2S 3S JS 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 3C 4C 5C 6C"


def _three_handed(south: str) -> HandState:
    """A three-handed hand where seat 2, dealt ``south``, bids first (seat 1 dealt)."""
    mine = cards(south)
    rest = [c for c in range(52) if c not in mine and c != C("2C")]
    state = HandState.from_hands(THREE, [rest[:17], rest[17:], mine], dealer=1)
    assert state.current_player == 2 and LOOK not in state.legal_actions()
    return state


def test_cutthroat_standard_bids_nil_with_seventeen_cards_that_cannot_win() -> None:
    state = _three_handed(THREE_NIL)
    assert make_bot("standard").act(state.observation(2)) == NIL


def test_cutthroat_standard_refuses_a_three_handed_nil_a_partner_could_have_covered() -> None:
    state = _three_handed(THREE_JACK)
    k = Knowledge(state.observation(2))
    value = read_hand(k)
    # Across two opponents who both bust it, the same danger makes a far worse nil.
    assert nil_success(value, THREE) < 0.5 < nil_success(value)
    action = make_bot("standard").act(state.observation(2))
    assert action != NIL and bid_of(action)


def test_cutthroat_three_handed_bids_read_seventeen_cards() -> None:
    strong = "AS KS QS JS 5S 4S AH KH 3H 2H AD KD 3D 2D AC 4C 3C"
    state = _three_handed(strong)
    action = make_bot("standard").act(state.observation(2))
    bid = bid_of(action)
    assert bid is not None and bid >= 10


# ------------------------------------------------------------------ setting the leader
def _set_position() -> HandState:
    """Seat 0 bid 4 and needs 3 of the last 6 tricks; seat 2 has made its bid of 1 and
    must play to a club trick, trumping or discarding."""
    state = HandState.deal(THREE, dealer=0, seed=19)
    _bid(state, [4, 1, 4])
    while not (len(state.tricks) == 11 and state.current_player == 2):
        state.apply(min(state.legal_actions()))
    return state


def test_cutthroat_standard_sets_the_leader_near_the_target_whatever_the_bags() -> None:
    obs = _set_position().observation(2)
    near = Knowledge(dataclasses.replace(obs, scores=(470, 100, 100), bags=(0, 0, 9)))
    far = Knowledge(dataclasses.replace(obs, scores=(100, 100, 100), bags=(0, 0, 9)))
    assert (set_target(near), set_target(far)) == (0, None)
    assert near.wins_now(choose_play(near))
    assert not far.wins_now(choose_play(far))


# ------------------------------------------------------------------ deal sampling
@pytest.mark.parametrize(
    ("rules", "sizes"),
    [
        (THREE, [17, 17, 17, 0]),
        (THREE.replace(set_aside="random"), [17, 17, 17, 0]),
        (FOUR, [13, 13, 13, 13]),
    ],
    ids=["three", "three-random-aside", "four"],
)
def test_cutthroat_sampler_deals_the_hidden_cards_to_hands_of_the_right_sizes(
    rules: Rules, sizes: list[int]
) -> None:
    state = HandState.deal(rules, dealer=0, seed=5)
    _bid(state, [3] * rules.players)
    for _ in range(rules.players):
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    obs = state.observation(seat)
    rng = random.Random(1)
    for _ in range(20):
        deal, weight = DealSampler(obs, bid_weight=True).sample(rng)
        assert [hand.bit_count() for hand in deal] == [size - (size > 0) for size in sizes]
        assert deal[obs.seat] == obs.hand_mask
        everything = deal[0] | deal[1] | deal[2] | deal[3]
        assert everything.bit_count() == sum(hand.bit_count() for hand in deal)
        assert not everything & (obs.played_mask | obs.set_aside)
        assert 0 < weight <= 1


def test_cutthroat_random_rollouts_are_refused_with_a_reason() -> None:
    state = HandState.deal(THREE, dealer=0, seed=1)
    seat = state.current_player
    assert seat is not None and state.phase is Phase.BIDDING
    with pytest.raises(ValueError, match="partnership game only"):
        make_bot("expert", rollout="random").act(state.observation(seat))


def _actions(values: dict[Action, float]) -> list[int | None]:
    return sorted(bid_of(a) for a in values)


def test_cutthroat_expert_rates_every_three_handed_bid_up_to_seventeen() -> None:
    state = HandState.deal(THREE, dealer=0, seed=2)
    seat = state.current_player
    assert seat is not None
    values = ExpertBot(seed=0, bid_samples=8).bid_values(state.observation(seat))
    assert _actions(values) == list(range(18))


def test_the_double_dummy_solver_refuses_cutthroat_which_has_no_partnerships() -> None:
    from spades.bots.solver import solve_position

    hands = [cards(row) for row in NIL_HANDS]
    with pytest.raises(ValueError, match="cutthroat has none"):
        solve_position(FOUR, hands, seat=3, trick=(), broken=False, first=True)


@pytest.mark.parametrize(("set_aside", "known"), [("two_of_clubs", True), ("random", False)])
def test_cutthroat_knowledge_counts_the_two_of_clubs_set_aside_as_gone(
    set_aside: str, known: bool
) -> None:
    rules = THREE.replace(set_aside=set_aside)
    state = HandState.deal(rules, dealer=0, seed=11)
    seat = state.current_player
    assert seat is not None
    k = Knowledge(state.observation(seat))
    out_card = state.set_aside.bit_length() - 1
    assert bool(k.unseen >> out_card & 1) is not known
    # Unseen cards in no hand: the random card set aside, which any other seat might hold
    # as far as this seat knows.
    assert k.elsewhere == (0 if known else 1)
    assert k.unseen.bit_count() == 34 + k.elsewhere


@pytest.mark.parametrize("rules", [THREE, FOUR], ids=["three", "four"])
@pytest.mark.parametrize("name", ["standard", "expert"])
def test_cutthroat_bots_look_at_their_cards_rather_than_bid_blind_nil(
    rules: Rules, name: str
) -> None:
    # Far behind a leader about to win: a partner's blind nil would be the try, but alone
    # against every other player a blind nil almost never holds.
    scores = (480, 0, 0, 0)[: rules.players]
    state = HandState.deal(rules, dealer=0, seed=4, scores=scores)
    seat = state.current_player
    assert seat == 1 and BLIND_NIL in state.legal_actions()
    assert make_bot(name, seed=0).act(state.observation(seat)) == LOOK


# ------------------------------------------------------------------ the 54-card deck
JOKERS = Rules(players=3, partnerships=False, jokers_added=True)
JOKER_PLAYS = (card_action(ADDED_LITTLE_JOKER), card_action(ADDED_BIG_JOKER))


def _j54(text: str) -> list[Card]:
    return [parse_card(code, jokers_added=True) for code in text.split()]


@pytest.mark.parametrize(("name", "hands"), [("basic", 150), ("standard", 150), ("expert", 15)])
def test_bots_play_54_card_hands_with_legal_actions_only_the_jokers_by_their_own_actions(
    name: str, hands: int
) -> None:
    rng = random.Random(5)
    jokers_played = 0
    for index in range(hands):
        state = HandState.deal(
            JOKERS,
            dealer=index % 3,
            seed=index,
            scores=tuple(rng.choice((-40, 0, 150, 420)) for _ in range(3)),
            bags=tuple(rng.randrange(10) for _ in range(3)),
        )
        bots = {seat: _bot(name, seat) for seat in range(3)}
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state.observation(seat))
            assert action in state.legal_actions(), (seat, action)
            jokers_played += action in JOKER_PLAYS
            state.apply(action)
        assert sum(state.tricks_won) == 18
    # Every card is dealt and played: both jokers in every hand, by actions 126 and 127.
    assert jokers_played == 2 * hands


@pytest.mark.parametrize("name", ["basic", "standard", "expert"])
def test_bots_play_a_54_card_hand_with_a_player_knocked_out(name: str) -> None:
    rules = JOKERS.replace(mercy_score=-50)
    for seed in range(4):
        dealer = (0, 2)[seed % 2]
        state = HandState.deal(rules, dealer=dealer, seed=seed, scores=(60, -80, 10), out=(1,))
        _play_out(state, {seat: _bot(name, seat) for seat in (0, 2)})
        assert state.tricks_won[1] == 0 and sum(state.tricks_won) == 18


BIG_JOKER_AND_JUNK = "BJ 2S 3S 2H 3H 4H 5H 6H 2D 3D 4D 5D 6D 2C 3C 4C 5C 6C"


def _jokers_bidder(mine: list[Card]) -> HandState:
    """A 54-card hand in which seat 2, dealt ``mine``, bids first (seat 1 dealt)."""
    rest = [c for c in range(54) if c not in mine]
    state = HandState.from_hands(JOKERS, [rest[:18], rest[18:], mine], dealer=1)
    assert state.current_player == 2
    return state


def test_bots_count_the_big_joker_as_a_sure_trick_in_the_bid() -> None:
    with_joker = _jokers_bidder(_j54(BIG_JOKER_AND_JUNK))
    without = _jokers_bidder(_j54(BIG_JOKER_AND_JUNK.replace("BJ", "7C")))
    k, k_without = Knowledge(with_joker.observation(2)), Knowledge(without.observation(2))
    assert (ADDED_BIG_JOKER, 1.0) in evaluate_hand(k.obs.hand or (), k.deck).shares
    assert read_hand(k).tricks - read_hand(k_without).tricks >= 1.0
    assert (counted_tricks(k), counted_tricks(k_without)) == (1, 0)
    # Junk bids nil, but the Big Joker is a trick that no nil survives.
    assert make_bot("standard").act(without.observation(2)) == NIL
    for name in ("basic", "standard", "expert"):
        bid = bid_of(make_bot(name, **FAST_EXPERT if name == "expert" else {}).act(k.obs))
        assert bid is not None and bid >= 1, name
    assert blunder(k.obs, NIL) == "not nil: the Big Joker could win a trick"


def _joker_trump_position() -> HandState:
    """Seat 1 leads the A♥; seat 2 has no hearts; seat 0, holding both jokers and no
    hearts, may trump with any spade."""
    hands = [
        _j54("BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AC KC QC"),
        _j54("AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AD KD QD JD TD"),
        _j54("JC TC 9C 8C 7C 6C 5C 4C 3C 2C 9D 8D 7D 6D 5D 4D 3D 2D"),
    ]
    state = HandState.from_hands(JOKERS, hands, dealer=0)
    _bid(state, [3, 1, 10])
    state.apply(C("AH"))
    state.apply(C("2D"))
    assert state.current_player == 0 and set(JOKER_PLAYS) <= set(state.legal_actions())
    return state


def test_the_hint_plays_and_explains_the_54_card_deck() -> None:
    obs = _joker_trump_position().observation(0)
    tip = hint(obs)
    assert tip.action in obs.legal_actions and tip.reason
    assert explain(obs, card_action(ADDED_BIG_JOKER)) == (
        "Trump: you have no hearts, and the Big Joker takes the trick"
    )
    bidding = _jokers_bidder(_j54(BIG_JOKER_AND_JUNK)).observation(2)
    tip = hint(bidding)
    assert bid_of(tip.action) and tip.reason.startswith("Bid")
    assert "Big Joker" in tip.reason


# The expert's matches take the longest: one is enough to see it through knock-outs.
@pytest.mark.parametrize(
    ("bots", "matches"), [("basic,standard,random", 2), ("expert,standard,basic", 1)]
)
def test_simulate_plays_54_card_matches_with_knock_outs_with_every_bot(
    bots: str, matches: int, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = '{"jokers_added": true, "mercy_score": -50, "target_score": 150}'
    argv = ["simulate", "--players", "3", "--matches", str(matches), "--bots", bots]
    assert main([*argv, "--rules", rules, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == matches and summary["unfinished"] == 0


# ------------------------------------------------------------------ bags at four
def test_four_handed_bags_cost_what_they_add_to_the_penalties_before_the_match_ends() -> None:
    # Three players and partners charge each bag its share of the penalty, as before.
    assert match_bag_costs(THREE, 0, (0, 0, 0)) is None
    assert match_bag_costs(Rules(), 0, (0, 0)) is None
    early = match_bag_costs(FOUR, 0, (0, 0, 0, 0))
    close = match_bag_costs(FOUR, 8, (300, 0, 0, 0))
    last_hand = match_bag_costs(FOUR, 2, (480, 0, 0, 0))
    assert early is not None and close is not None and last_hand is not None
    # From 0-0 a bag is far from the limit: it costs well under its share of 10 points.
    assert early[0] == 0 and 0 < early[1] < 5 and early[2] - early[1] > early[1]
    # Two bags from the limit with the match half over, two bags cost more than their
    # share: the penalty now, which the later hands might well have brought anyway.
    assert 20 < close[2] < 100 and close[2] > 4 * early[2]
    # In the last hand of the match, bags that stay under the limit cost nothing.
    assert last_hand[7] == 0 and last_hand[8] == 100
    share = team_econ(FOUR, (3,), (False,), (5,), 0)[1]
    assert team_econ(FOUR, (3,), (False,), (5,), 0, early)[1] > share
