"""Random full matches under random valid house rules: every invariant of a hand and a
match holds after every hand, and the observations never leak another seat's cards."""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_rules, ref_legal_plays, ref_suit, ref_trick_winner
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.engine.cards import CLAIM, EXCHANGE_BASE, FULL_DECK, JOKER_RANKINGS, cards_mask
from spades.engine.match import Match
from spades.engine.rules import Rules, RulesError
from spades.engine.scoring import HandResult, match_outcome
from spades.engine.state import HandState, Phase

HAND_CAP = 40


def check_observations(state: HandState) -> None:
    """Each seat sees its own cards only, and legal actions only on its own turn."""
    for seat in range(4):
        view = state.observation(seat)
        if state.looked[seat]:
            assert view.hand == tuple(state.hand(seat))
            others = FULL_DECK & ~view.hand_mask & ~view.played_mask
            assert view.unseen_mask == others
            assert others == sum(state.hands[s] for s in range(4) if s != seat)
        else:
            assert view.hand is None
        assert view.hand_sizes == tuple(len(state.hand(s)) for s in range(4))
        if seat == state.current_player:
            assert view.legal_actions == tuple(state.legal_actions())
        else:
            assert view.legal_actions == ()
            assert not view.can_claim
        assert view.passed == tuple(state.passes[seat])
        mate = (seat + 2) % 4
        passing = state.phase is Phase.EXCHANGE and state.current_player in (seat, mate)
        if _exchanged(state, seat, mate) and not passing:
            assert view.received == tuple(state.passes[mate])
        else:
            assert view.received == ()


def _exchanged(state: HandState, seat: int, mate: int) -> bool:
    """Whether both partners have passed the same number of cards (in a finished hand:
    they made an exchange)."""
    return bool(state.passes[seat]) and len(state.passes[seat]) == len(state.passes[mate])


def hands_after_exchange(state: HandState) -> list[int]:
    hands = list(state.initial_hands)
    for seat in range(4):
        mate = (seat + 2) % 4
        if _exchanged(state, seat, mate):
            hands[seat] = hands[seat] & ~cards_mask(state.passes[seat]) | cards_mask(
                state.passes[mate]
            )
    return hands


def check_hand(state: HandState, result: HandResult, rules: Rules) -> None:
    """The invariants of one finished hand."""
    assert state.is_over and state.current_player is None
    assert sum(state.tricks_won) == 13
    held = hands_after_exchange(state)
    assert all(h.bit_count() == 13 for h in held)
    assert held[0] | held[1] | held[2] | held[3] == FULL_DECK
    seen = 0
    broken = False
    hands = [set(state.deck.chunks(h)) for h in held]
    winners = [0, 0, 0, 0]
    for index, trick in enumerate(state.tricks):
        plays = trick.plays()
        for position, (seat, card) in enumerate(plays):
            assert not seen >> card & 1, "a card was played twice"
            seen |= 1 << card
            legal = ref_legal_plays(hands[seat], plays[:position], broken, index == 0, rules)
            assert card in legal
            hands[seat].discard(card)
            broken = broken or ref_suit(card, rules.joker_deck) == 3
        assert trick.winner == ref_trick_winner(plays, rules.joker_deck)
        winners[trick.winner] += 1
        if index + 1 < len(state.tricks):
            assert state.tricks[index + 1].leader == trick.winner
    if state.claimed_by is None:
        assert len(state.tricks) == 13
        assert seen == FULL_DECK
        assert winners == state.tricks_won
    else:
        assert state.history[-1] == CLAIM
        left = 13 - len(state.tricks)
        winners[state.claimed_by] += left
        assert winners == state.tricks_won
    if state.tricks:
        assert state.tricks[0].leader == (state.dealer + 1) % 4
    for team in (0, 1):
        line = result.teams[team]
        assert sum(p.points for p in line.lines) == line.points
        assert line.tricks == state.tricks_won[team] + state.tricks_won[team + 2]
        assert line.bags >= 0 and line.bags_before >= 0 and line.bags_after >= 0
        if rules.bag_limit is None:
            assert line.bags == line.bags_after == line.penalty == 0
        else:
            total = line.bags_before + line.bags
            assert line.bags_after == total % rules.bag_limit
            assert line.penalty == total // rules.bag_limit * rules.bag_penalty
            assert line.bags_after < rules.bag_limit


def play_match(seed: int, rules: Rules, *, check_views: bool) -> Match:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    scores = (0, 0)
    bags = (0, 0)
    while not match.is_over and len(match.finished) < HAND_CAP:
        hand = match.hand
        assert hand.dealer == (match.first_dealer + len(match.finished)) % 4
        assert (hand.scores, hand.bags) == (scores, bags)
        if check_views:
            check_observations(hand)
        if hand.phase is Phase.PLAYING and hand.can_claim() and rng.random() < 0.5:
            action = CLAIM
        else:
            action = rng.choice(hand.legal_actions())
        if EXCHANGE_BASE <= action < CLAIM:
            assert hand.phase is Phase.EXCHANGE
        result = match.apply(action).result
        if result is None:
            continue
        check_hand(match.finished[-1], result, rules)
        scores = (scores[0] + result.teams[0].points, scores[1] + result.teams[1].points)
        bags = (result.teams[0].bags_after, result.teams[1].bags_after)
        assert match.scores == scores
        assert match.bags == bags
        assert min(bags) >= 0
    assert match.score_history()[-1] == match.scores
    outcome = match_outcome(rules, match.scores)
    assert (match.is_over, match.winner) == (outcome.over, outcome.winner)
    assert match.history == [a for h in match.finished for a in h.history] + (
        [] if match.is_over else match.hand.history
    )
    return match


@pytest.mark.parametrize("seed", range(24))
def test_random_matches_under_random_rules_keep_every_invariant(seed: int) -> None:
    rules = random_rules(random.Random(seed * 7919))
    match = play_match(seed, rules, check_views=seed % 4 == 0)
    assert match.finished


def test_random_matches_cover_claims_blind_nils_exchanges_and_endings() -> None:
    claimed = blind = exchanged = ended = 0
    for seed in range(24):
        rules = random_rules(random.Random(seed * 7919))
        match = play_match(seed, rules, check_views=False)
        ended += match.is_over
        for hand in match.finished:
            claimed += hand.claimed_by is not None
            blind += any(hand.blind)
            exchanged += any(hand.passes)
    assert claimed and blind and exchanged and ended


def _any_rules() -> st.SearchStrategy[Rules]:
    """Every combination of options, valid or not; the invalid ones are filtered out. The
    options that rule others out (no nil, whiz, suicide, Mirror) are drawn less often."""
    return (
        st.builds(
            dict,
            target_score=st.sampled_from([1, 300, 500]),
            mercy_score=st.sampled_from([None, -1, -200]),
            tie_policy=st.sampled_from(["play_on", "draw"]),
            nil_allowed=st.sampled_from([True, True, True, False]),
            blind_nil=st.booleans(),
            blind_nil_deficit=st.sampled_from([0, 100]),
            blind_nil_exchange=st.booleans(),
            nil_pass=st.sampled_from([0, 2, 4]),
            nil_tricks_count_toward_bid=st.booleans(),
            min_team_bid=st.sampled_from([0, 0, 4, 13]),
            whiz=st.sampled_from([False, False, True]),
            suicide=st.sampled_from([False, False, True]),
            mirror=st.sampled_from([False, False, False, True]),
            ten_for_two_hundred=st.booleans(),
            boston_bonus=st.sampled_from([0, 100]),
            bag_limit=st.sampled_from([None, 1, 5, 10]),
            bag_penalty=st.sampled_from([0, 50, 100]),
            jokers=st.booleans(),
            joker_ranking=st.sampled_from(JOKER_RANKINGS),
            no_spades_first_trick=st.booleans(),
            spades_lead_any_time=st.booleans(),
        )
        # A joker ranking without the jokers is refused, and a bag penalty without a bag
        # limit: each is drawn only where it applies, so that few draws are filtered out.
        .map(_applicable)
        .filter(_valid)
        .map(lambda options: Rules(**options))
    )


def _applicable(options: dict[str, object]) -> dict[str, object]:
    """``options`` with the joker ranking and the bag penalty left at their defaults where
    the jokers or the bag limit are off."""
    if not options["jokers"]:
        options = options | {"joker_ranking": "ace"}
    if options["bag_limit"] is None:
        options = options | {"bag_penalty": Rules().bag_penalty}
    return options


def _valid(options: dict[str, object]) -> bool:
    try:
        Rules(**options)  # type: ignore[arg-type]
    except RulesError:
        return False
    return True


@settings(max_examples=60, deadline=None)
@given(rules=_any_rules(), seed=st.integers(0, 2**32), trailing=st.sampled_from([0, 150]))
def test_every_valid_rule_set_plays_a_hand_to_the_end(
    rules: Rules, seed: int, trailing: int
) -> None:
    rng = random.Random(seed)
    state = HandState.deal(rules, dealer=seed % 4, seed=seed, scores=(0, trailing))
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, (state.phase, state.bids)
        state.apply(rng.choice(legal))
    assert all(bid is not None for bid in state.bids)
    result = state.result()
    for team in (0, 1):
        assert result.teams[team].tricks == state.tricks_won[team] + state.tricks_won[team + 2]
