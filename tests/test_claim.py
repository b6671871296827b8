"""Claiming the rest: ``can_claim()`` is checked against a brute force over every way the
unseen cards may lie and every legal play of the other three seats."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest
from engine_helpers import (
    deal_by_suits,
    late_position,
    ref_legal_plays,
    ref_power,
    ref_suit,
    ref_trick_winner,
    snapshot,
)

from spades.engine.cards import CLAIM, JokerRanking, bid_action, parse_card
from spades.engine.rules import Rules
from spades.engine.state import HandState, IllegalAction, Phase

Hands = tuple[frozenset[int], frozenset[int], frozenset[int], frozenset[int]]
Play = tuple[int, int]


# ---------------------------------------------------------------- the brute force
Chooser = Callable[[list[int], frozenset[int], frozenset[int], bool], list[int]]


def strategy_choice(
    legal: list[int], hand: frozenset[int], others: frozenset[int], jokers: JokerRanking | None
) -> list[int]:
    """The claimer's plan, using only what it knows: lead its highest spade while the
    others may still hold spades, then its side cards (highest first)."""
    del hand
    spades = [c for c in legal if ref_suit(c, jokers) == 3]
    others_hold_spades = any(ref_suit(c, jokers) == 3 for c in others)
    if spades and others_hold_spades:
        return [max(spades, key=lambda c: ref_power(c, jokers))]
    sides = [c for c in legal if ref_suit(c, jokers) != 3] or legal
    return [max(sides, key=lambda c: (ref_power(c, jokers), c))]


def any_choice(
    legal: list[int], hand: frozenset[int], others: frozenset[int], jokers: JokerRanking | None
) -> list[int]:
    """A claimer who sees every card may pick any legal card."""
    del hand, others, jokers
    return legal


def claimer_takes_all(
    hands: Hands,
    trick: tuple[Play, ...],
    leader: int,
    broken: bool,
    first: bool,
    claimer: int,
    rules: Rules,
    choose: Chooser,
) -> bool:
    """Whether the claimer, choosing with ``choose``, wins every remaining trick against
    every legal play of the other three seats."""
    if not any(hands):
        return True
    seat = (leader + len(trick)) % 4
    legal = ref_legal_plays(hands[seat], trick, broken, first, rules)
    if seat == claimer:
        others = frozenset().union(*(hands[s] for s in range(4) if s != claimer))
        options = choose(legal, hands[seat], others, rules.joker_deck)
        return any(
            _after(hands, trick, leader, broken, first, claimer, rules, choose, seat, card)
            for card in options
        )
    return all(
        _after(hands, trick, leader, broken, first, claimer, rules, choose, seat, card)
        for card in legal
    )


def _after(
    hands: Hands,
    trick: tuple[Play, ...],
    leader: int,
    broken: bool,
    first: bool,
    claimer: int,
    rules: Rules,
    choose: Chooser,
    seat: int,
    card: int,
) -> bool:
    new_hands = list(hands)
    new_hands[seat] = hands[seat] - {card}
    played = (*trick, (seat, card))
    broken = broken or ref_suit(card, rules.joker_deck) == 3
    nxt: Hands = (new_hands[0], new_hands[1], new_hands[2], new_hands[3])
    if len(played) < 4:
        return claimer_takes_all(nxt, played, leader, broken, first, claimer, rules, choose)
    winner = ref_trick_winner(played, rules.joker_deck)
    if winner != claimer:
        return False
    return claimer_takes_all(nxt, (), winner, broken, False, claimer, rules, choose)


def distributions(state: HandState) -> Iterator[Hands]:
    """Every way the cards the claimer cannot see may lie, keeping each seat's count."""
    claimer = state.current_player
    assert claimer is not None
    view = state.observation(claimer)
    unseen = sorted(c for c in range(52) if view.unseen_mask >> c & 1)
    a, b, c = [s for s in range(4) if s != claimer]
    for first in itertools.combinations(unseen, view.hand_sizes[a]):
        rest = [x for x in unseen if x not in first]
        for second in itertools.combinations(rest, view.hand_sizes[b]):
            hands: list[frozenset[int]] = [frozenset()] * 4
            hands[claimer] = frozenset(view.hand or ())
            hands[a] = frozenset(first)
            hands[b] = frozenset(second)
            hands[c] = frozenset(x for x in rest if x not in second)
            yield (hands[0], hands[1], hands[2], hands[3])


def _search(state: HandState, hands: Hands, choose: Chooser, first_card: int | None) -> bool:
    claimer = state.current_player
    assert claimer is not None
    trick = tuple(((state.leader + i) % 4, card) for i, card in enumerate(state.trick))
    args = (state.leader, state.spades_broken, not state.tricks, claimer, state.rules)
    if first_card is None:
        return claimer_takes_all(hands, trick, *args, choose)
    return _after(hands, trick, *args, choose, claimer, first_card)


def strategy_is_sound(state: HandState) -> bool:
    """Some first card, then the plan, wins every trick in every distribution."""
    if not state.trick:
        return all(_search(state, d, strategy_choice, None) for d in distributions(state))
    return any(
        all(_search(state, d, strategy_choice, card) for d in distributions(state))
        for card in state.legal_actions()
    )


def some_distribution_beats_the_claimer(state: HandState) -> bool:
    """Even seeing every card, the claimer loses a trick in some distribution."""
    return any(not _search(state, d, any_choice, None) for d in distributions(state))


# ------------------------------------------------------------------- the positions
def _positions() -> list[HandState]:
    positions = []
    for seed in range(150):
        rules = [
            Rules(),
            Rules(jokers=True),
            Rules(spades_lead_any_time=True),
            Rules(jokers=True, joker_ranking="deuces"),
        ][seed % 4]
        state = late_position(seed, 2 + seed % 2, rules)
        rng = random.Random(seed)
        for _ in range(seed % 4):
            state.apply(rng.choice(state.legal_actions()))
        positions.append(state)
    return positions


POSITIONS = _positions()


def test_claim_is_sound_against_every_distribution_and_every_defence() -> None:
    claims = unsound = 0
    for state in POSITIONS:
        if state.can_claim():
            claims += 1
            assert strategy_is_sound(state), state.history
        elif not strategy_is_sound(state):
            unsound += 1
    # Both kinds occur, so the brute force can tell a sound claim from an unsound one.
    assert claims >= 10
    assert unsound >= 30


def test_no_claim_when_some_distribution_beats_even_a_seeing_claimer() -> None:
    beaten = 0
    for state in POSITIONS:
        if some_distribution_beats_the_claimer(state):
            beaten += 1
            assert not state.can_claim(), state.history
    assert beaten >= 30


# ----------------------------------------------------------- spades not yet broken
def _unbroken_claim_position() -> HandState:
    # North holds the seven top spades and top hearts and the A♣; spades are unbroken,
    # so North must lead a heart or the club, and East, void in both, trumps it.
    hands = deal_by_suits(
        "AS KS QS JS TS 9S 8S AH KH QH JH TH AC",
        "7S 6S 5S 4S 3S 2S 2D 3D 4D 5D 6D 7D 8D",
        "9H 8H 7H 6H 5H 4H 3H 2H 9D TD JD QD KD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD",
    )
    state = HandState.from_hands(Rules(), hands, dealer=3)
    for _ in range(4):
        state.apply(bid_action(3))
    return state


def test_no_claim_when_spades_are_unbroken_and_a_side_lead_can_be_trumped() -> None:
    state = _unbroken_claim_position()
    assert not state.spades_broken
    assert parse_card("AS") not in state.legal_actions()
    for lead in state.legal_actions():
        line = state.clone()
        line.apply(lead)
        line.apply(parse_card("2S"))
        line.apply(line.legal_actions()[0])
        line.apply(line.legal_actions()[0])
        assert line.tricks[-1].winner == 1
    assert not state.can_claim()
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=r"^You cannot claim"):
        state.apply(CLAIM)
    assert snapshot(state) == before


def test_no_claim_on_the_first_trick_when_no_spades_first_trick_forbids_the_spade_lead() -> None:
    hands = deal_by_suits(
        "AS KS QS JS TS 9S 8S AH KH QH JH TH AC",
        "7S 6S 5S 4S 3S 2S 2D 3D 4D 5D 6D 7D 8D",
        "9H 8H 7H 6H 5H 4H 3H 2H 9D TD JD QD KD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD",
    )
    rules = Rules(spades_lead_any_time=True, no_spades_first_trick=True)
    state = HandState.from_hands(rules, hands, dealer=3)
    for _ in range(4):
        state.apply(bid_action(3))
    assert parse_card("AS") not in state.legal_actions()
    assert not state.can_claim()
    open_lead = HandState.from_hands(Rules(spades_lead_any_time=True), hands, dealer=3)
    for _ in range(4):
        open_lead.apply(bid_action(3))
    assert open_lead.can_claim()


def test_claim_with_spades_unbroken_when_the_others_hold_no_spades() -> None:
    hands = deal_by_suits(
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "2S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AC",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    )
    state = HandState.from_hands(Rules(spades_lead_any_time=True), hands, dealer=3)
    for _ in range(4):
        state.apply(bid_action(3))
    assert state.can_claim()
    state.apply(CLAIM)
    assert state.tricks_won == [13, 0, 0, 0]


# ------------------------------------------------------------- applying the claim
def _a_claim() -> HandState:
    for state in POSITIONS:
        if state.can_claim() and state.trick:
            return state.clone()
    raise AssertionError("no mid-trick claim among the positions")


def test_claim_gives_the_claimer_every_remaining_trick_and_ends_the_hand() -> None:
    state = _a_claim()
    claimer = state.current_player
    assert claimer is not None
    before = state.tricks_won[:]
    remaining = 13 - len(state.tricks)
    assert state.observation(claimer).can_claim
    assert not any(state.observation(s).can_claim for s in range(4) if s != claimer)
    state.apply(CLAIM)
    assert state.is_over and state.phase is Phase.OVER
    assert state.current_player is None
    assert state.claimed_by == claimer
    assert state.history[-1] == CLAIM
    expected = before[:]
    expected[claimer] += remaining
    assert state.tricks_won == expected
    assert sum(state.tricks_won) == 13
    assert state.result().teams[claimer % 2].tricks == expected[claimer] + expected[claimer ^ 2]


def test_unsound_claim_is_refused_and_changes_nothing() -> None:
    refused = 0
    for state in POSITIONS:
        if state.can_claim():
            continue
        refused += 1
        before = snapshot(state)
        with pytest.raises(IllegalAction, match="the others might still win a trick"):
            state.apply(CLAIM)
        assert snapshot(state) == before
    assert refused


def test_claim_only_during_the_play() -> None:
    state = HandState.deal(Rules(), dealer=0, seed=1)
    assert not state.can_claim()
    with pytest.raises(IllegalAction, match=r"^You can only claim during the play$"):
        state.apply(CLAIM)
    assert CLAIM not in state.legal_actions()


def _draws_with_a_low_spade(state: HandState) -> bool:
    """The claimer leads and holds a spade lower than one the others may hold."""
    seat = state.current_player
    if state.trick or seat is None:
        return False
    view = state.observation(seat)
    jokers = state.rules.joker_deck
    theirs = [
        ref_power(c, jokers)
        for c in range(52)
        if view.unseen_mask >> c & 1 and ref_suit(c, jokers) == 3
    ]
    mine = [ref_power(c, jokers) for c in view.hand or () if ref_suit(c, jokers) == 3]
    return bool(theirs and mine) and min(mine) < max(theirs)


def test_claim_counts_on_leading_the_top_spades_to_draw_the_others() -> None:
    # Holding, say, the A♠ and the 3♠ against a lone 7♠, the ace draws the seven and the
    # three is then the best spade left: the claim stands although the 3♠ is the lower.
    found = 0
    for seed in range(3000):
        state = late_position(seed, 2)
        if state.can_claim() and _draws_with_a_low_spade(state):
            assert strategy_is_sound(state), seed
            found += 1
            if found == 3:
                break
    assert found == 3
