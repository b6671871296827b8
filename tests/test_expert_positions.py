"""Scripted positions for the expert's partnership skills: covering a partner's nil,
leaving a partner's sure winner alone, ducking once the contract is made, playing the
score (taking a bag to set a leader near the target, loading bags onto opponents near the
bag limit), and bidding nil (or not) with the textbook hands; each asserts the expert's
choice at a small budget."""

from __future__ import annotations

import pytest
from engine_helpers import fill_hands

from spades.bots.expert import ExpertBot, _partner_bids
from spades.engine.cards import BID_BASE, LOOK, NIL, parse_card
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState

# Small budgets keep the tests fast; the search is the same at any size.
FAST = {"iterations": 120, "bid_samples": 48}
NORTH, EAST, SOUTH, WEST = range(4)


def _position(
    hands: list[str], *, dealer: int, bids: list[int], plays: str = "", bags: int = 0
) -> HandState:
    """A hand from four rows (N, E, S, W; filled up from the rest of the deck), with
    the bids (in bidding order, 0 is nil) and the card plays applied."""
    state = HandState.from_hands(Rules(), fill_hands(hands), dealer=dealer, bags=(bags, bags))
    for bid in bids:
        state.apply(BID_BASE + bid)
    for code in plays.split():
        state.apply(parse_card(code))
    return state


def _choice(state: HandState, **options: float) -> int:
    seat = state.current_player
    assert seat is not None
    return ExpertBot(seed=0, **{**FAST, **options}).act(state.observation(seat))


# ------------------------------------------------------------- partner's nil
def test_covers_a_partners_nil_second_hand_high() -> None:
    # East leads a low heart; North (nil) plays last and holds the Q♥ and J♥: South
    # takes the trick with the A♥ so that North can throw anything under it.
    state = _position(
        [
            "QH JH 2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 8D",
            "5H 6H 7H",
            "AH 4H",
            "KH TH 9H 8H",
        ],
        dealer=NORTH,
        bids=[3, 4, 3, 0],
        plays="5H",
    )
    assert state.current_player == SOUTH
    assert _choice(state) == parse_card("AH")


def test_covers_a_partners_nil_by_overtaking_their_high_card() -> None:
    # North (nil) was forced to lead the K♦; East ducked. South overtakes with the A♦
    # rather than leave North to win with the king.
    state = _position(
        [
            "KD 2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H",
            "2D 3D 4D",
            "AD 5D 6D",
            "7D 8D 9D",
        ],
        dealer=WEST,
        bids=[0, 3, 5, 3],
        plays="KD 2D",
    )
    assert state.current_player == SOUTH
    assert _choice(state) == parse_card("AD")


def test_covers_a_partners_nil_with_a_small_spade() -> None:
    # East leads the 5♥; North (nil) holds the K♥ and Q♥ and plays last, under the A♥ if
    # West has it to play. South, void in hearts, trumps with its smallest spade: North
    # then sheds a heart under it, and the A♠ and K♠ are kept.
    state = _position(
        ["KH QH", "5H", "2S 3S KS AS 2C 3C 4C 5C 2D 3D 4D 5D 6D", "AH"],
        dealer=NORTH,
        bids=[3, 4, 3, 0],
        plays="5H",
    )
    assert state.current_player == SOUTH
    assert _choice(state) == parse_card("2S")


def test_a_nil_bidder_under_a_king_sheds_its_highest_card_that_still_loses() -> None:
    # West leads the K♥ and North (nil) holds Q♥ J♥ 10♥ 2♥: the queen goes now, while
    # it is safe, rather than wait to be caught by a low lead later.
    state = _position(
        [
            "QH JH TH 2H 3C 5C 7C 9C 2D 4D 6D 8D 3S",
            "3H 4H 5H",
            "6H 7H 8H",
            "KH AH 9H",
        ],
        dealer=SOUTH,
        bids=[3, 0, 3, 4],
        plays="KH",
    )
    assert state.current_player == NORTH
    assert _choice(state) == parse_card("QH")


def test_leads_high_for_a_partners_nil() -> None:
    # North bid nil; South leads the 10♦, the side card the fewest unseen cards beat,
    # so that North can play under it, not a low card that North might have to win.
    state = _position(
        [
            "",
            "",
            "TD 8D 7D 4D 2D AS KS JS 9S 8S 3C 4C 5C",
            "",
        ],
        dealer=EAST,
        bids=[4, 3, 0, 3],
    )
    assert state.current_player == SOUTH
    assert _choice(state) == parse_card("TD")


# ------------------------------------------------------------- partnership play
def test_never_overtrumps_a_partners_sure_winner() -> None:
    # North's A♥ is the last heart out and nobody after South can trump: West throws a
    # club, and South, void in hearts, discards instead of trumping its partner's trick.
    state = _position(
        [
            "AH 2C 3C",
            "4H 5H",
            "2S 3S 9S AS 4C 5C 6C 7C 2D 3D 4D 5D 6D",
            "8C",
        ],
        dealer=WEST,
        bids=[3, 3, 4, 3],
        plays="AH 4H",
    )
    assert state.current_player == SOUTH
    assert state.deck.suit[_choice(state)] != SPADES


def test_ducks_a_bag_once_the_contract_is_made() -> None:
    # North and South bid 3 between them and have taken 3; with 9 bags on the count the
    # next bag costs 100 points, so South throws the 2♦ under East's 9♦, not the 10♦.
    state = _position(
        [
            "AC KC QC JC 4D JD QD KD AD",
            "2C 3C 4C 9D 6D 7D 8D",
            "5C 6C 7C TD 2D 2H 3H 4H 5H 6H 2S 3S 4S",
            "8C 9C TC 3D 5D",
        ],
        dealer=WEST,
        bids=[2, 1, 1, 1],
        plays="AC 2C 5C 8C KC 3C 6C 9C QC 4C 7C TC 4D 9D",
        bags=9,
    )
    assert state.current_player == SOUTH
    assert _choice(state) == parse_card("2D")


# West dealt; North leads the 2♣ and East follows with the 9♣; South holds 3♣ 10♣ K♣.
_BUST_ROWS = [
    "2C 4C 5C 6C 2D 3D 4D 5D 2H 3H 2S 3S 4S",
    "9C 7C 8C 6D 7D 8D 4H 5H 6H 5S 6S 7S 8S",
    "3C TC KC 9D TD JD 7H 8H 9H 9S TS JS QS",
    "JC QC AC QD KD AD TH JH QH KH AH KS AS",
]


@pytest.mark.parametrize(
    ("east_bid", "plays"),
    [
        # East bid nil and is winning with the 9♣: South plays under it, not over.
        (0, ["3C"]),
        # East bid 2, so there is no nil to bust: South takes the trick over the 9♣.
        (2, ["TC", "KC"]),
    ],
)
def test_busts_an_opponents_nil_by_playing_under_it(east_bid: int, plays: list[str]) -> None:
    state = _position(_BUST_ROWS, dealer=WEST, bids=[3, east_bid, 3, 4], plays="2C 9C")
    assert state.current_player == SOUTH
    assert _choice(state) in [parse_card(code) for code in plays]


# ------------------------------------------------------------- the score
# West dealt. Eleven tricks are over (North/South took 9, East/West 2), and West leads the
# K♥ to the twelfth: North follows with the 3♥, East with the Q♥, and South holds the A♥
# and the 2♥. Nobody else holds a spade or a heart above North's 4♥. South's A♥ takes this
# trick and the last one too (South leads the 2♥ to North's 4♥); the 2♥ leaves both to
# East/West (West then leads a club).
_LATE_ROWS = [
    "6D 8D JD KD AD 3H 4H TH 4S 6S 9S JS AS",
    "3C 4C 6C 7C 8C TC JC 4D 5D 9D 8H QH 8S",
    "2C AC 3D 2H 7H 9H JH AH 2S 7S TS QS KS",
    "5C 9C QC KC 2D 7D TD QD 5H 6H KH 3S 5S",
]
_LATE_PLAYS = (
    "KD 5D 3D 7D TH 8H 7H 5H JD 9D QS TD TS 3S 4S 8S 2C KC 6D 4C 2D AD 4D 9H 6S 3C 2S 5S"
    " JS JC KS 9C 7S QC AS 7C 9S TC JH 6H 8D 8C AC QD KH 3H QH"
)


def _late(
    bids: list[int], *, scores: tuple[int, int], bags: tuple[int, int], rules: Rules
) -> HandState:
    """The twelfth trick above, after ``bids`` (North first), from ``scores`` and
    ``bags`` (North/South, East/West)."""
    state = HandState.from_hands(
        rules, fill_hands(_LATE_ROWS), dealer=WEST, scores=scores, bags=bags
    )
    for bid in bids:
        if LOOK in state.legal_actions():  # a team far behind may bid blind nil
            state.apply(LOOK)
        state.apply(BID_BASE + bid)
    for code in _LATE_PLAYS.split():
        state.apply(parse_card(code))
    assert state.current_player == SOUTH
    assert state.tricks_won == [6, 0, 3, 2]
    return state


def test_takes_a_bag_to_set_a_leader_near_the_target() -> None:
    # East/West bid 3, have 2, and stand at 470: making the bid wins them the match. The
    # A♥ sets them, though North/South have bid 8, taken 9, and carry 8 bags from before,
    # so that the two tricks it takes bring their tenth bag and its 100 points.
    state = _late([5, 1, 3, 2], scores=(300, 470), bags=(8, 0), rules=Rules())
    assert _choice(state) == parse_card("AH")


@pytest.mark.parametrize(
    ("rules", "bags", "play"),
    [
        # East/West carry 8 bags: the two tricks the 2♥ leaves them bring their tenth.
        (Rules(), (0, 8), "2H"),
        # Without a bag penalty an overtrick is a point: South takes both.
        (Rules(bag_limit=None), (0, 0), "AH"),
    ],
)
def test_loads_bags_onto_opponents_near_the_bag_limit(
    rules: Rules, bags: tuple[int, int], play: str
) -> None:
    # Both teams have made their bids: North/South 8 (9 taken), East/West 2 (2 taken).
    state = _late([5, 1, 3, 1], scores=(200, 200), bags=bags, rules=rules)
    assert _choice(state) == parse_card(play)


# ------------------------------------------------------------------- bidding
def _bid(hand: str, *, before: list[int]) -> int:
    """The expert's bid as South with ``hand`` after the bids ``before`` (East first:
    North dealt)."""
    state = _position(["", "", hand, ""], dealer=NORTH, bids=before)
    assert state.current_player == SOUTH
    return _choice(state)


def test_bids_nil_with_a_textbook_nil_hand_over_a_strong_partner() -> None:
    assert _bid("2C 3C 5C 7C 2D 4D 6D 3H 5H 7H 9H 2S 4S", before=[3]) == NIL


def test_does_not_bid_nil_holding_the_ace_of_spades() -> None:
    assert _bid("AS 2C 3C 5C 7C 2D 4D 6D 3H 5H 7H 9H 4S", before=[3]) != NIL


def test_bids_its_tricks_with_aces_and_kings() -> None:
    bid = _bid("AS KS QS 5S AH KH 3H AD KD 4D AC 9C 6C", before=[3])
    assert bid != NIL and bid - BID_BASE >= 6


# ------------------------------------------------------------ partner model
def _opening_observation() -> Observation:
    state = _position(["", "", "", ""], dealer=NORTH, bids=[])
    return state.observation(EAST)


def test_a_partner_yet_to_bid_bids_its_hand_deal_by_deal() -> None:
    obs = _opening_observation()
    weights = [1.0, 1.0, 1.0]
    plain = [(3, 2), (3, 4), (3, 3)]
    # Readings one trick apart move the partner's bid one trick apart, around the
    # three tricks it takes on average.
    assert _partner_bids(obs, weights, plain, [1.5, 3.5, 2.5]) == [2, 4, 3]
    assert _partner_bids(obs, weights, plain, None) == [3, 3, 3]


def test_a_partner_who_has_bid_keeps_its_bid_in_every_deal() -> None:
    state = _position(["", "", "", ""], dealer=WEST, bids=[5])
    obs = state.observation(SOUTH)
    assert _partner_bids(obs, [1.0, 1.0], [(3, 1), (3, 7)], [0.5, 8.0]) == [5, 5]
