"""Three-handed cutthroat: the mercy score knocks a player out, and the other two play on.

The seat that is out neither bids nor plays; its 17 cards are left out of the three-handed
deal unseen; the deal, the bidding and the play pass over it; the last player in wins, or
of players falling together the highest score. Four players keep the partnership game's
rule: the mercy score ends the match (tests/test_cutthroat.py)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from engine_helpers import snapshot
from test_cutthroat import bid_all, check_views, play_random_match
from test_golden import golden_match

from spades.engine.cards import CLAIM, LOOK, bid_action
from spades.engine.match import Match
from spades.engine.record import GameRecord, dumps, loads
from spades.engine.rules import Rules
from spades.engine.scoring import match_outcome
from spades.engine.state import HandState, IllegalAction, Phase

THREE = Rules(players=3, partnerships=False)
#: A mercy score close to 0, so that random play knocks players out often.
CLOSE = THREE.replace(mercy_score=-50, target_score=300)
GOLDEN = Path(__file__).parent / "golden"


def knocked_out_hand(seed: int = 3, *, dealer: int = 0, out: int = 1) -> HandState:
    scores = tuple(-250 if seat == out else 40 for seat in range(3))
    return HandState.deal(THREE, dealer=dealer, seed=seed, scores=scores, out=(out,))


# ------------------------------------------------------------------------ the match end
def test_mercy_knocks_out_a_three_handed_player_and_the_other_two_play_on() -> None:
    outcome = match_outcome(THREE, (120, -210, 90))
    assert (outcome.over, outcome.winner, outcome.out) == (False, None, (1,))
    assert outcome.reason == "seat 1 fell to the mercy score and is out"
    # The player who is out stays out, whatever the others score.
    assert match_outcome(THREE, (280, -210, 450), (1,)).out == (1,)
    assert match_outcome(THREE, (280, -210, 450), (1,)).over is False


def test_the_last_player_in_wins() -> None:
    outcome = match_outcome(THREE, (-20, -210, -230), (1,))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 0, (1, 2))
    assert outcome.reason == "seat 2 fell to the mercy score: seat 0 wins as the last player in"


def test_two_falling_in_the_first_hand_leave_the_third_the_winner() -> None:
    # Of two falling in the same hand, the lower finishes last, so is out first.
    outcome = match_outcome(THREE, (-300, -210, -20))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 2, (0, 1))


def test_a_knocked_out_player_finishes_last_even_above_a_later_one() -> None:
    # Seat 1 fell first at -210; seat 2 falls later to -400 and finishes above it.
    outcome = match_outcome(THREE, (100, -210, -400), (1,))
    assert (outcome.winner, outcome.out) == (0, (1, 2))


def test_when_both_players_in_fall_in_the_same_hand_the_higher_score_wins() -> None:
    outcome = match_outcome(THREE, (-230, -210, -220), (1,))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 2, (1, 0))
    assert outcome.reason == (
        "seats 2 and 0 fell to the mercy score: seat 2 wins with the highest score"
    )


def test_both_players_in_falling_level_play_on_or_share_the_game() -> None:
    again = match_outcome(THREE, (-230, -210, -230), (1,))
    assert (again.over, again.winner, again.out) == (False, None, (1,))
    assert again.reason == "exact tie: another hand is played"
    shared = match_outcome(THREE.replace(tie_policy="draw"), (-230, -210, -230), (1,))
    assert (shared.over, shared.winner, shared.out) == (True, None, (1,))
    # Level below the mercy score, they play on; the one who climbs back is the last in.
    assert match_outcome(THREE, (-180, -210, -260), (1,)).winner == 0


def test_all_three_falling_in_the_first_hand_the_highest_wins_and_level_leaders_play_on() -> None:
    outcome = match_outcome(THREE, (-230, -210, -220))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 1, (0, 2))
    level = match_outcome(THREE, (-210, -210, -220))
    assert (level.over, level.out) == (False, (2,))
    assert match_outcome(THREE.replace(tie_policy="draw"), (-210, -210, -220)).out == (2,)


def test_a_player_reaching_the_target_wins_as_another_is_knocked_out() -> None:
    outcome = match_outcome(THREE, (520, -210, 480))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 0, (1,))
    level = match_outcome(THREE, (520, -210, 520))
    assert (level.over, level.out) == (False, (1,))


def test_four_handed_cutthroat_knocks_nobody_out() -> None:
    four = Rules(players=4, partnerships=False)
    outcome = match_outcome(four, (100, -210, 90, 20))
    assert (outcome.over, outcome.winner, outcome.out) == (True, 0, ())


def test_without_a_mercy_score_nobody_is_knocked_out() -> None:
    outcome = match_outcome(THREE.replace(mercy_score=None), (100, -900, 90))
    assert (outcome.over, outcome.out) == (False, ())


# ---------------------------------------------------------------- a hand with a seat out
def test_the_knocked_out_seat_s_cards_are_left_out_of_the_three_handed_deal() -> None:
    for seed in range(20):
        whole = HandState.deal(THREE, dealer=2, seed=seed, scores=(40, -250, 40))
        hand = knocked_out_hand(seed, dealer=2)
        assert hand.left_out == whole.hands[1] and hand.hands[1] == hand.initial_hands[1] == 0
        assert (hand.hands[0], hand.hands[2], hand.set_aside) == (
            whole.hands[0],
            whole.hands[2],
            whole.set_aside,
        )


def test_a_knocked_out_seat_neither_bids_nor_plays_and_the_turn_passes_over_it() -> None:
    hand = knocked_out_hand(dealer=0)
    order = []
    while hand.phase is Phase.BIDDING:
        order.append(hand.current_player)
        assert hand.legal_actions() == [bid_action(n) for n in range(18)]
        bid_all(hand, [4])
    assert order == [2, 0] and hand.bids == [4, None, 4]
    assert hand.current_player == hand.leader == 2
    rng = random.Random(1)
    while not hand.is_over:
        assert hand.current_player in (0, 2)
        hand.apply(rng.choice(hand.legal_actions()))
    assert len(hand.tricks) == 17 and all(len(trick.cards) == 2 for trick in hand.tricks)
    assert hand.tricks_won[1] == 0 and sum(hand.tricks_won) == 17
    assert {seat for trick in hand.tricks for seat, _ in trick.plays()} == {0, 2}
    result = hand.result()
    assert (result.players[1].points, result.players[1].lines) == (0, ())


def test_the_seat_after_the_dealer_bids_and_leads_first_skipping_the_seat_out() -> None:
    for dealer, first in ((0, 2), (2, 0)):
        hand = knocked_out_hand(dealer=dealer)
        assert hand.current_player == hand.leader == first
    with pytest.raises(ValueError, match="seat 1 is out; the deal passes"):
        knocked_out_hand(dealer=1)


def test_a_knocked_out_seat_is_shown_out_and_its_cards_unseen() -> None:
    hand = knocked_out_hand(seed=8, dealer=2)
    rng = random.Random(8)
    while not hand.is_over:
        check_views(hand)
        hand.apply(rng.choice(hand.legal_actions()))
    view = hand.observation(0)
    assert (view.out, view.seats_in) == ((1,), (0, 2))
    assert (view.hand_sizes[1], view.bids[1], view.tricks_won[1]) == (0, None, 0)
    assert view.unseen_mask == hand.left_out  # the 2♣ set aside is known to all
    watcher = knocked_out_hand(seed=8, dealer=2).observation(1)
    assert (watcher.hand, watcher.legal_actions, watcher.hand_sizes) == ((), (), (17, 0, 17))


def test_the_trick_in_play_names_the_seats_in_play_order() -> None:
    hand = knocked_out_hand(dealer=0)
    bid_all(hand, [3, 3])
    hand.apply(hand.legal_actions()[0])
    assert [seat for seat, _ in hand.observation(0).trick] == [2]
    hand.apply(hand.legal_actions()[0])
    trick = hand.tricks[0]
    assert trick.out == (1,) and [seat for seat, _ in trick.plays()] == [2, 0]
    led, followed = (hand.deck.suit[card] for card in trick.cards)
    voids = hand.observation(2).known_voids()
    assert len(voids) == 3 and voids[1] == voids[2] == 0
    assert voids[0] == (0 if led == followed else 1 << led)


def test_a_knocked_out_seat_may_not_bid_blind_nil_and_the_leader_is_among_players_in() -> None:
    rules = THREE.replace(blind_nil_deficit=100)
    hand = HandState.deal(rules, dealer=0, seed=1, scores=(-40, -300, 60), out=(1,))
    assert hand.eligible == (True, False, False)
    assert hand.observation(1).blind_nil_eligible is False


def test_the_dealer_bids_last_under_the_bid_total_rule_with_two_players() -> None:
    rules = THREE.replace(bid_total_not_tricks=True)
    hand = HandState.deal(rules, dealer=2, seed=5, scores=(0, -300, 0), out=(1,))
    bid_all(hand, [9])
    assert hand.current_player == 2 and bid_action(8) not in hand.legal_actions()
    with pytest.raises(IllegalAction, match="may not add up to 17"):
        hand.apply(bid_action(8))


def test_illegal_actions_of_a_hand_with_a_seat_out_change_nothing() -> None:
    hand = knocked_out_hand(dealer=0)
    bid_all(hand, [3, 3])
    left_out = hand.deck.chunks(hand.left_out)
    before = snapshot(hand)
    for action in (left_out[0], left_out[-1], bid_action(2), LOOK, CLAIM):
        with pytest.raises(IllegalAction):
            hand.apply(action)
        assert snapshot(hand) == before
    with pytest.raises(IllegalAction, match="You do not hold"):
        hand.apply(left_out[0])
    copy = hand.clone()
    copy.apply(copy.legal_actions()[0])
    assert snapshot(hand) == before and copy.out == hand.out


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"out": (3,)}, "out must be seats 0..2"),
        ({"out": (True,)}, "out must be seats 0..2"),
        ({"out": (1, 1)}, "out must be seats 0..2"),
        ({"out": 1}, "out must be seats 0..2"),
        ({"out": (1, 2), "scores": (0, -300, -300)}, "two players stay in"),
        ({"out": (1,), "scores": (0, -20, 0)}, "seat 1 has -20, above the mercy score"),
    ],
)
def test_a_hand_refuses_a_seat_out_that_cannot_be(options: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"scores": (0, -300, 0), **options}
    with pytest.raises(ValueError, match=message):
        HandState.deal(THREE, dealer=0, seed=1, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(players=4, partnerships=False), THREE.replace(mercy_score=None)],
    ids=["partnership", "four", "no-mercy"],
)
def test_only_three_handed_cutthroat_with_a_mercy_score_has_a_seat_out(rules: Rules) -> None:
    with pytest.raises(ValueError, match="only the mercy score of three-handed cutthroat"):
        HandState.deal(rules, dealer=0, seed=1, out=(1,))


def test_from_hands_leaves_out_the_hand_of_the_seat_out() -> None:
    whole = HandState.deal(THREE, dealer=0, seed=4)
    hands = [whole.hand(seat) for seat in range(3)]
    hand = HandState.from_hands(THREE, hands, dealer=0, scores=(0, 0, -200), out=(2,))
    assert hand.left_out == whole.hands[2] and hand.hands[:2] == whole.hands[:2]


# ----------------------------------------------------------------------------- matches
def test_the_deal_passes_over_a_knocked_out_seat() -> None:
    loaded = loads((GOLDEN / "record_cutthroat_knockout.json").read_text())
    match = loaded.match
    assert [hand.dealer for hand in match.finished] == [2, 0, 1, 2, 1, 2, 1]
    assert [hand.out for hand in match.finished] == [(), ()] + [(0,)] * 5


def test_golden_knockout_record_replays_to_its_final_scores() -> None:
    # The golden match cutthroat_knockout (tests/golden/match_cutthroat_knockout.txt):
    # seat 0 falls in the second hand, and seat 1 in the seventh, leaving seat 2 the winner.
    loaded = loads((GOLDEN / "record_cutthroat_knockout.json").read_text())
    match = loaded.match
    assert match.is_over and (match.scores, match.winner, match.out) == (
        (-276, -207, 171),
        2,
        (0, 1),
    )
    assert (
        match.outcome.reason == "seat 1 fell to the mercy score: seat 2 wins as the last player in"
    )
    assert match.history == golden_match("match_cutthroat_knockout").history
    # A seat's score no longer moves once it is out.
    assert {scores[0] for scores in match.score_history()[1:]} == {-276}


def check_end(match: Match) -> None:
    """The end of a three-handed match, read from the scores and the seats out."""
    rules = match.rules
    mercy = rules.mercy_score
    assert mercy is not None
    seats_in = [seat for seat in range(3) if seat not in match.out]
    assert all(match.scores[seat] <= mercy for seat in match.out)
    assert len(seats_in) >= 1 and len(match.out) == len(set(match.out))
    if not match.is_over:
        assert len(seats_in) >= 2
        return
    top = max(match.scores[seat] for seat in seats_in)
    if match.winner is None:  # a draw between the players level at the top
        assert rules.tie_policy == "draw"
        assert [match.scores[seat] for seat in seats_in].count(top) >= 2
        return
    assert match.winner in seats_in and match.scores[match.winner] == top
    assert all(match.scores[seat] < top for seat in seats_in if seat != match.winner)
    assert len(seats_in) == 1 or top >= rules.target_score or top <= mercy


@pytest.mark.parametrize("chunk", range(4))
def test_random_matches_with_knock_outs_keep_every_invariant(chunk: int) -> None:
    # 4 chunks of 250 matches: 1,000 in all.
    knocked = after = 0
    for seed in range(chunk * 250, (chunk + 1) * 250):
        # Random bids swing the scores by hundreds: a mercy score of -400 leaves more
        # hands to play after a knock-out than one of -50.
        rules = CLOSE.replace(
            mercy_score=(-50, -400)[seed % 2],
            set_aside=("two_of_clubs", "random")[seed // 2 % 2],
            tie_policy=("play_on", "draw")[seed // 4 % 2],
            blind_nil_deficit=(0, 100)[seed // 8 % 2],
        )
        match = play_random_match(rules, seed, views=seed % 10 == 0)
        check_end(match)
        knocked += bool(match.out)
        after += sum(bool(hand.out) for hand in match.finished)
        record = GameRecord.of(match)
        if seed % 5 == 0:
            replayed = loads(dumps(record)).match
            assert (replayed.scores, replayed.out, replayed.winner) == (
                match.scores,
                match.out,
                match.winner,
            )
    assert knocked > 240 and after > 120


def test_places_rank_the_players_in_by_score_and_the_first_one_out_last() -> None:
    rules = Rules(players=3, partnerships=False, mercy_score=-50)
    seen_out = False
    for seed in range(40):
        match = play_random_match(rules, seed, views=False)
        places = match.places()
        assert min(places) == 1
        if match.winner is not None:
            assert places[match.winner] == 1
        still_in = [s for s in range(3) if s not in match.out]
        for a in still_in:
            for b in still_in:
                if match.scores[a] > match.scores[b]:
                    assert places[a] < places[b]
        for earlier, later in itertools.pairwise(match.out):
            # Players knocked out by the same hand at level scores share a place.
            level = match.scores[earlier] == match.scores[later]
            assert places[earlier] >= places[later] if level else places[earlier] > places[later]
        if match.out:
            seen_out = True
            assert places[match.out[0]] == max(places)
            assert all(places[s] < places[match.out[-1]] for s in still_in)
    assert seen_out


def test_players_knocked_out_by_the_same_hand_are_placed_by_their_scores() -> None:
    # Everyone looks at their cards, seats 0, 1 and 2 bid 17, 16 and 1, and every card
    # played is the first legal one: seats 0 and 1 fall together in the second hand, and
    # the less negative -320 ranks higher.
    bids = (17, 16, 1)
    match = Match(THREE, seed=1)
    while not match.is_over:
        seat = match.current_player
        assert seat is not None
        legal = match.legal_actions()
        if match.hand.phase is Phase.BIDDING:
            match.apply(LOOK if LOOK in legal else bid_action(bids[seat]))
        else:
            match.apply(legal[0])
    assert (match.scores, len(match.finished), match.out) == ((-340, -320, 26), 2, (0, 1))
    assert match.places() == (3, 2, 1)


def test_players_knocked_out_by_the_same_hand_at_level_scores_share_a_place() -> None:
    match = play_random_match(THREE.replace(mercy_score=-50), 11, views=False)
    # Seats 1 and 2 both fall in the first hand, to -140.
    assert (match.scores, len(match.finished), set(match.out)) == ((60, -140, -140), 1, {1, 2})
    assert match.places() == (1, 2, 2)


def test_a_player_knocked_out_by_an_earlier_hand_places_below_a_lower_score_out_later() -> None:
    # Seat 1 falls to -80 in the first hand, seat 2 to -238 in the sixth.
    match = play_random_match(THREE.replace(mercy_score=-50), 6, views=False)
    assert (match.scores, len(match.finished), match.out) == ((87, -80, -238), 6, (1, 2))
    assert [hand.out for hand in match.finished] == [()] + [(1,)] * 5
    assert match.places() == (1, 3, 2)
