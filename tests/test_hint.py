"""Hints: the expert's (or standard's) action with a reason read from the observation."""

from __future__ import annotations

import random

import pytest
from bot_positions import (
    ACE_KING,
    NIL_COVER_HANDS,
    TEXTBOOK_NIL,
    TRUMP_HANDS,
    VOID_HANDS,
    bids,
    position,
    with_south,
)
from engine_helpers import cards

import spades.bots.hint as hint_module
from spades.bots import make_bot
from spades.bots.hint import MAX_REASON, Hint, advise, blunder, explain, hint, hint_bot_name
from spades.bots.knowledge import Knowledge, unguarded_honours
from spades.bots.standard import read_hand
from spades.engine.cards import (
    BIG_JOKER,
    BLIND_NIL,
    EXCHANGE_BASE,
    LITTLE_JOKER,
    LOOK,
    NIL,
    bid_action,
    bid_of,
    card_label,
    parse_card,
)
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase, deck_for

C = parse_card
BIDS = bids(3, 4, 3, 3)


def south(state: HandState) -> Hint:
    assert state.current_player == 2
    return hint(state.observation(2))


def test_hint_gives_the_expert_action_when_the_expert_is_registered() -> None:
    state = position(VOID_HANDS, 2, [*BIDS, C("2H")])
    obs = state.observation(0)
    tip = hint(obs)
    assert tip.action == make_bot(hint_bot_name(), seed=0).act(obs)
    assert hint_bot_name() == "expert"


def test_hint_falls_back_to_standard_without_an_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hint_module, "bot_names", lambda: ["random", "basic", "standard"])
    assert hint_module.hint_bot_name() == "standard"
    state = position(NIL_COVER_HANDS, 3, [*bids(0, 3, 4, 4), *cards("9H 2H")])
    tip = south(state)
    assert tip.action == make_bot("standard", seed=0).act(state.observation(2))
    assert tip.reason == "Cover: overtake your partner's 9♥ to save the nil"


def test_duck_reason_names_the_partners_winning_card() -> None:
    state = position(VOID_HANDS, 2, [*BIDS, *cards("2H AH 3H")])
    assert explain(state.observation(2), C("2C")) == "Duck: your partner's A♥ is already winning"


def test_trump_reason_says_the_seat_is_out_of_the_suit() -> None:
    state = position(TRUMP_HANDS, 2, [*BIDS, *cards("KH 2H 3H")])
    reason = explain(state.observation(2), C("2S"))
    assert reason == "Trump: you have no hearts, and the 2♠ takes the trick"


def test_discard_reason_when_the_seat_cannot_follow_or_win() -> None:
    state = position(TRUMP_HANDS, 2, [*BIDS, *cards("KH 2H 3H")])
    assert explain(state.observation(2), C("2C")) == "Discard the 2♣: you have no hearts"


def test_follow_reasons_tell_a_low_card_from_a_higher_one_that_cannot_win() -> None:
    state = position(VOID_HANDS, 2, [*BIDS, C("AC")])
    obs = state.observation(0)
    assert explain(obs, C("7C")) == "Play low: you cannot beat the A♣"
    assert explain(obs, C("9C")) == "Play the 9♣: you cannot beat the A♣ anyway"


def test_nil_bid_reason_says_the_hand_can_duck() -> None:
    tip = south(with_south(TEXTBOOK_NIL))
    assert tip.action == NIL
    assert tip.reason.startswith("Nil: ")
    assert "no card in your hand is likely to win a trick" in tip.reason


def test_number_bid_reason_names_every_card_the_count_rests_on_with_its_share() -> None:
    state = with_south(ACE_KING)
    reason = explain(state.observation(2), bid_action(8))
    assert reason.startswith(
        "Bid 8: you count about 8 tricks"
        " (A♠ 1, K♠ ¾, Q♠ ¾, A♣ 1, A♦ 1, K♦ 1, A♥ 1, K♥ 1, long spades ¾)"
    )


def test_a_bid_hint_names_every_card_of_its_count_on_any_deal() -> None:
    """Whatever the deal, each card the count rests on, however small its share, is in
    the reason, and the shares named add up to the count."""
    for seed in range(40):
        state = HandState.deal(Rules(), dealer=1, seed=seed)
        while state.current_player != 2:
            state.apply(
                make_bot("standard", seed=seed).act(state.observation(state.current_player))
            )
        obs = state.observation(2)
        if obs.hand is None:
            state.apply(LOOK)
            obs = state.observation(2)
        value = read_hand(Knowledge(obs))
        bids = [a for a in obs.legal_actions if bid_of(a)]
        named = explain(obs, bids[0])
        for card, _ in value.shares:
            assert f"{card_label(card)} " in named, (seed, named)
        parts = sum(share for _, share in value.shares) + value.length + value.ruffs
        assert parts == pytest.approx(value.tricks)


def test_look_and_blind_nil_reasons_mention_the_score() -> None:
    state = HandState.deal(Rules(), dealer=1, seed=3, scores=(0, 250))
    obs = state.observation(2)
    assert obs.legal_actions == (BLIND_NIL, LOOK)
    assert "trails by 250" in explain(obs, BLIND_NIL)
    assert explain(obs, LOOK).startswith("Look at your cards")


def test_exchange_reasons_follow_the_blind_nil_roles() -> None:
    rules = Rules(blind_nil_exchange=True)
    state = HandState.deal(rules, dealer=1, seed=4, scores=(0, 250))
    state.apply(BLIND_NIL)
    for action in (bid_action(3), LOOK, bid_action(4), bid_action(3)):
        state.apply(action)
    assert state.phase is Phase.EXCHANGE and state.current_player == 2
    tip = south(state)
    assert tip.action - EXCHANGE_BASE == max(state.hand(2), key=state.deck.power.__getitem__)
    assert "blind nil bidder" in tip.reason
    state.apply(tip.action)
    state.apply(south(state).action)
    mate = hint(state.observation(0))
    assert "low cards" in mate.reason


@pytest.mark.parametrize("seed", range(4))
def test_every_hint_is_legal_and_has_a_reason(seed: int) -> None:
    rng = random.Random(seed)
    state = HandState.deal(Rules(), dealer=seed, seed=seed, scores=(0, 150))
    shown = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if rng.random() < 0.25:
            tip = hint(state.observation(seat))
            assert tip.action in state.legal_actions()
            assert tip.reason and tip.reason[0].isupper() and len(tip.reason) <= MAX_REASON
            shown += 1
        state.apply(make_bot("standard").act(state.observation(seat)))
    assert shown > 0


@pytest.mark.parametrize("seed", range(3))
def test_mirror_bid_hints_say_mirror_makes_you_bid_your_spades(seed: int) -> None:
    state = HandState.deal(Rules(mirror=True, blind_nil=False), dealer=1, seed=seed)
    count = sum(1 for c in state.hand(2) if state.deck.suit[c] == SPADES)
    tip = south(state)
    assert tip.action == bid_action(count)
    if count:
        plural = "s" if count != 1 else ""
        assert tip.reason == f"Bid {count}: Mirror makes you bid your {count} spade{plural}"
    else:
        assert tip.reason == "Nil: Mirror makes you bid your spades, and you hold none"


def test_nil_pass_reasons_follow_the_nil_roles() -> None:
    state = HandState.deal(Rules(nil_pass=2, blind_nil=False), dealer=1, seed=4)
    for action in (NIL, bid_action(4), bid_action(3), bid_action(3)):
        state.apply(action)
    assert state.phase is Phase.EXCHANGE and state.current_player == 2
    tip = south(state)
    assert tip.action - EXCHANGE_BASE == max(state.hand(2), key=state.deck.power.__getitem__)
    assert tip.reason.endswith("as the nil bidder, give away your highest cards")
    state.apply(tip.action)
    state.apply(south(state).action)
    tip = hint(state.observation(0))
    assert tip.action - EXCHANGE_BASE == min(state.hand(0), key=state.deck.power.__getitem__)
    assert tip.reason.endswith("give your nil partner low cards to duck with")


def test_hint_refuses_a_seat_that_is_not_to_act() -> None:
    state = HandState.from_hands(Rules(), [cards(row) for row in VOID_HANDS], dealer=2)
    with pytest.raises(ValueError, match="not seat 0's turn"):
        hint(state.observation(0))


# ------------------------------------------------------------ no blunders
# South holds the A♥ as its only high card: tempting for nil, and the expert bids it.
ACE_NIL = "2C 3C 8C 2D 5D 6D 8D 2H 6H 7H AH 2S 4S"


def _nil_position(row: str) -> HandState:
    """South to bid with ``row`` after North and East bid 3 (West dealt)."""
    state = with_south(row, dealer=3)
    for action in bids(3, 3):
        state.apply(action)
    assert state.current_player == 2
    return state


def test_the_hint_never_advises_nil_with_an_unguarded_ace() -> None:
    obs = _nil_position(ACE_NIL).observation(2)
    expert = make_bot("expert", seed=0)
    assert expert.act(obs) == NIL  # the raw search would bid it
    tip = hint(obs)
    assert tip.action != NIL and tip.action in obs.legal_actions
    assert tip.reason.startswith(f"Bid {tip.action - NIL}, not nil: the A♥ could win a trick")


def test_a_forced_nil_with_a_bare_king_becomes_the_best_number() -> None:
    obs = _nil_position("KD 2D 2C 3C 5C 8C 2H 3H 6H 7H 9H 2S 4S").observation(2)
    assert blunder(obs, NIL) == "not nil: the K♦ could win a trick"
    tip = advise(obs, NIL, make_bot("standard", seed=0))
    assert tip.action != NIL and tip.action in obs.legal_actions
    assert "not nil: the K♦ could win a trick" in tip.reason


def test_a_king_with_two_smaller_cards_of_its_suit_allows_nil() -> None:
    obs = _nil_position("KD 5D 2D 2C 3C 5C 8C 2H 3H 6H 7H 2S 4S").observation(2)
    assert blunder(obs, NIL) is None
    assert advise(obs, NIL, make_bot("standard", seed=0)) == Hint(NIL, explain(obs, NIL))


@pytest.mark.parametrize(
    ("row", "unguarded"),
    [
        ("AC 2C 3C 4C", ["A♣"]),
        ("KH 2H", ["K♥"]),
        ("KH 2H 3H", []),
        ("KS 2S AD", ["A♦", "K♠"]),
        ("QS JS 2D", []),
    ],
)
def test_unguarded_honours_are_every_ace_and_a_king_with_fewer_than_two_guards(
    row: str, unguarded: list[str]
) -> None:
    state = with_south(TEXTBOOK_NIL)
    found = unguarded_honours(cards(row), state.deck)
    assert sorted(found) == sorted(parse_card(code) for code in unguarded)


def test_the_jokers_are_unguarded_honours_like_the_aces() -> None:
    deck = deck_for("ace")
    assert unguarded_honours([BIG_JOKER, LITTLE_JOKER, C("2S"), C("3S")], deck) == (
        BIG_JOKER,
        LITTLE_JOKER,
    )


def test_the_hint_never_trumps_a_partners_sure_winner() -> None:
    # North's A♥ wins the trick and South, void in hearts, plays last.
    state = position(VOID_HANDS, 2, [*BIDS, *cards("2H AH 3H")])
    obs = state.observation(2)
    assert blunder(obs, C("2S")) == "trumping your partner's sure winner wastes a trick"
    tip = advise(obs, C("2S"), make_bot("expert", seed=0))
    assert state.deck.suit[tip.action] != SPADES
    assert tip.reason == (
        "Duck: your partner's A♥ is already winning; "
        "trumping your partner's sure winner wastes a trick"
    )
    assert hint(obs).action not in (C("2S"), C("3S"), C("4S"), C("5S"))


def test_the_hint_never_overtakes_a_partners_sure_winner() -> None:
    # North's K♥ can only be beaten by South's own A♥, and South plays last.
    rows = (
        "KH QH JH 7C 8C 9C 6D 7D 8D 6S 7S 8S 9S",
        "4H 5H 6H 3C 10C JC 9D 10D JD 10S JS QS KS",
        "AH 2H 2C 4C 5C 6C 2D 3D 4D 5D 2S 3S 4S",
        "3H 7H 8H 9H 10H QC KC AC QD KD AD AS 5S",
    )
    state = position(rows, 2, [*BIDS, *cards("3H KH 4H")])
    obs = state.observation(2)
    assert blunder(obs, C("AH")) == "overtaking your partner's sure winner wastes a trick"
    assert blunder(obs, C("2H")) is None
    assert advise(obs, C("AH"), make_bot("standard", seed=0)).action == C("2H")


def test_trumping_a_partners_card_that_may_lose_is_no_blunder() -> None:
    # North leads the 8♥ and South, void in hearts, plays before West, who may hold
    # the higher hearts (and does).
    state = position(TRUMP_HANDS, 3, [*bids(3, 3, 4, 3), *cards("8H 3H")])
    obs = state.observation(2)
    assert blunder(obs, C("2S")) is None


def test_taking_a_partners_trick_is_no_blunder_while_the_partners_nil_is_alive() -> None:
    state = position(NIL_COVER_HANDS, 3, [*bids(0, 3, 4, 4), *cards("9H 2H")])
    obs = state.observation(2)
    assert blunder(obs, C("KH")) is None


_JARGON = ("rollout", "sample", "search", "score", "expected", "value", "eval", "%", ".")


@pytest.mark.parametrize("seed", range(3))
def test_hint_reasons_are_plain_words(seed: int) -> None:
    # A player's words: no search jargon, no decimals or percentages, one sentence.
    state = HandState.deal(Rules(), dealer=seed, seed=20 + seed)
    rng = random.Random(seed)
    shown = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        obs = state.observation(seat)
        if rng.random() < 0.2:
            reason = hint(obs).reason
            assert not any(word in reason.lower() for word in _JARGON), reason
            shown += 1
        state.apply(make_bot("standard").act(obs))
    assert shown > 0
