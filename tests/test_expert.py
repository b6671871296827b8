"""The expert bot: legal and reproducible choices, the rollouts' play rules match the
engine's, and scripted positions pin the skills a partner relies on."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from engine_helpers import deal_by_suits, fill_hands, random_rules

from spades.bots import LIVE_SECONDS, live_bot, make_bot
from spades.bots.expert import ExpertBot
from spades.bots.rollout import RolloutTable, heuristic_rollout
from spades.bots.sampler import Deal, DealSampler
from spades.engine.cards import BID_BASE, LOOK, NIL, Card, Mask, Seat, is_card, parse_card
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase, legal_play_mask

# Small budgets keep the tests fast; the search is the same at any size.
FAST = {"iterations": 24, "bid_samples": 12}
ROLLOUTS = pytest.mark.parametrize("rollout", ["heuristic", "random"])


def _script(
    hands: list[list[int]],
    *,
    dealer: int,
    bids: list[int],
    plays: str,
    bags: tuple[int, int] = (0, 0),
) -> HandState:
    state = HandState.from_hands(Rules(), hands, dealer=dealer, bags=bags)
    for bid in bids:
        state.apply(BID_BASE + bid)
    for code in plays.split():
        state.apply(parse_card(code))
    return state


@ROLLOUTS
def test_expert_only_returns_legal_actions_under_every_house_rule_set(rollout: str) -> None:
    decisions = 0
    for seed in range(8):
        rules = random_rules(random.Random(100 + seed))
        bots = [make_bot("expert", seed=seed * 4 + s, rollout=rollout, **FAST) for s in range(4)]
        state = HandState.deal(rules, dealer=seed % 4, seed=seed, scores=(0, 250))
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].act(state.observation(seat))
            assert action in state.legal_actions()
            state.apply(action)
            decisions += 1
    assert decisions >= 8 * 56


def test_the_rollouts_play_rules_match_the_engine() -> None:
    rng = random.Random(4)
    for seed in range(30):
        rules = random_rules(random.Random(seed))
        state = HandState.deal(rules, dealer=seed % 4, seed=seed)
        while state.phase is not Phase.PLAYING:
            state.apply(rng.choice(state.legal_actions()))
        masks = state.deck.suit_masks
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            led = state.deck.suit[state.trick[0]] if state.trick else 0
            mask = legal_play_mask(
                state.hands[seat],
                len(state.trick),
                masks[led],
                state.broken,
                not state.tricks,
                rules.spades_lead_any_time,
                rules.no_spades_first_trick,
                masks[SPADES],
            )
            legal = state.legal_actions()
            assert mask == sum(1 << c for c in legal)
            state.apply(rng.choice(legal))


class _Scripted(RolloutTable):
    """Rollout constants whose policy plays a given sequence of cards."""

    def __init__(self, rules: Rules, bids: list[int | None], cards: list[Card]) -> None:
        super().__init__(rules, bids, epsilon=0.0)
        self.cards = cards

    def choose(
        self,
        hands: list[Mask],
        seat: Seat,
        legal: Mask,
        trick_len: int,
        led: int,
        win_seat: Seat,
        win_card: Card,
    ) -> Card:
        card = self.cards[52 - sum(h.bit_count() for h in hands)]
        assert legal >> card & 1, "the rollout refuses a card the engine allowed"
        return card


def test_the_rollouts_trick_winners_match_the_engine() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        rules = random_rules(rng)
        state = HandState.deal(rules, dealer=seed % 4, seed=seed, scores=(0, 200))
        while state.phase is not Phase.PLAYING:
            state.apply(rng.choice(state.legal_actions()))
        start = state.clone()
        cards: list[Card] = []
        while not state.is_over:
            cards.append(rng.choice([a for a in state.legal_actions() if is_card(a)]))
            state.apply(cards[-1])
        leader = start.current_player
        assert leader is not None
        won = heuristic_rollout(
            _Scripted(rules, start.bids, cards),
            start.hands[:],
            leader,
            0,
            0,
            leader,
            -1,
            start.broken,
            True,
            [0, 0, 0, 0],
            cards[0],
            lambda: 0.5,
        )
        assert won == state.tricks_won, seed


@ROLLOUTS
def test_same_seed_and_observation_give_the_same_choice(rollout: str) -> None:
    match = Match(Rules(), seed=9)
    first = make_bot("expert", seed=5, rollout=rollout, **FAST)
    second = make_bot("expert", seed=5, rollout=rollout, **FAST)
    for _ in range(30):
        seat = match.current_player
        assert seat is not None
        obs = match.hand.observation(seat)
        # The second bot sees an unrelated position first: no memory leaks in.
        other = Match(Rules(), seed=seat + 1).hand
        assert other.current_player is not None
        second.act(other.observation(other.current_player))
        choice = first.act(obs)
        assert second.act(obs) == choice == first.act(obs)
        match.apply(choice)


@ROLLOUTS
def test_the_choice_does_not_depend_on_hidden_cards(rollout: str) -> None:
    # Two deals that differ only in which of East and West holds two hearts: North's
    # observation is the same, so North's choices must be too.
    base = deal_by_suits(
        "AS KS 4S 3S AH 9H 2H AD 9D 2D AC 9C 2C",
        "QS JS TS QH JH 8H 7H KD QD 8D KC QC 8C",
        "9S 8S 7S 2S TH 6H 5H JD TD 7D JC TC 7C",
        "6S 5S KH 4H 3H 6D 5D 4D 3D 6C 5C 4C 3C",
    )
    swapped = [hand[:] for hand in base]
    for card, src, dst in ((parse_card("QH"), 1, 3), (parse_card("KH"), 3, 1)):
        swapped[src].remove(card)
        swapped[dst].append(card)
    choices = []
    for hands in (base, swapped):
        state = HandState.from_hands(Rules(), hands, dealer=3)
        bot = make_bot("expert", seed=1, rollout=rollout, **FAST)
        picks = []
        picks.append(bot.act(state.observation(0)))
        state.apply(picks[-1])
        for bid in (3, 4, 3):
            state.apply(BID_BASE + bid)
        picks.append(bot.act(state.observation(0)))
        choices.append(picks)
    assert choices[0] == choices[1]


def test_random_rollouts_give_the_same_values_for_the_same_seed_and_observation() -> None:
    state = HandState.deal(Rules(), dealer=1, seed=21)
    bidder = state.current_player
    assert bidder is not None
    bids = [ExpertBot(seed=3, rollout="random").bid_values(state.observation(bidder))]
    bids.append(ExpertBot(seed=3, rollout="random").bid_values(state.observation(bidder)))
    for bid in (3, 4, 2, 3):
        state.apply(BID_BASE + bid)
    state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    plays = [ExpertBot(seed=3, rollout="random").evaluate(state.observation(seat))]
    plays.append(ExpertBot(seed=3, rollout="random").evaluate(state.observation(seat)))
    assert bids[0] == bids[1] and len(bids[0]) >= 2
    assert plays[0] == plays[1] and len(plays[0]) >= 2
    other = ExpertBot(seed=4, rollout="random").evaluate(state.observation(seat))
    assert other != plays[0]


def _nil_on_the_last_seat(north_bid: int = 0) -> Observation:
    """North bid nil (or ``north_bid``) and plays last to a heart trick: the A♥ surely
    takes it (busting the nil), the 2♥ surely does not."""
    hands = fill_hands(
        [
            "AH 2H 3H 4H 2C 3C 4C 5C 2D 3D 4D 5D 6D",
            "5H",
            "6H",
            "7H",
        ]
    )
    state = _script(hands, dealer=0, bids=[3, 4, 3, north_bid], plays="5H 6H 7H")
    assert state.current_player == 0
    return state.observation(0)


@ROLLOUTS
def test_each_candidate_card_is_scored_by_the_rollouts_that_play_it_first(rollout: str) -> None:
    obs = _nil_on_the_last_seat()
    values = ExpertBot(seed=0, rollout=rollout, iterations=400).evaluate(obs)
    assert set(values) == {parse_card("AH"), parse_card("2H")}
    # A nil kept is worth 100 and a nil set costs 100: ducking is far ahead.
    assert values[parse_card("2H")] > values[parse_card("AH")] + 50


@ROLLOUTS
def test_a_tiny_time_cap_still_gives_a_legal_choice_from_fewer_deals(
    rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    draws = 0
    sample: Callable[[DealSampler, random.Random], tuple[Deal, float]] = DealSampler.sample

    def counted(self: DealSampler, rng: random.Random) -> tuple[Deal, float]:
        nonlocal draws
        draws += 1
        return sample(self, rng)

    monkeypatch.setattr(DealSampler, "sample", counted)

    def draws_for(obs: Observation, cap: float | None) -> int:
        nonlocal draws
        draws = 0
        bot = ExpertBot(seed=0, rollout=rollout, max_seconds=cap, iterations=400)
        assert bot.act(obs) in obs.legal_actions
        return draws

    # A card for a numeric bidder (a live nil on the team is played by rule, without a
    # search), and a bid.
    bidding = HandState.deal(Rules(), dealer=2, seed=8)
    assert bidding.current_player is not None
    positions = [_nil_on_the_last_seat(north_bid=2), bidding.observation(bidding.current_player)]
    for obs in positions:
        assert 1 <= draws_for(obs, 1e-9) < draws_for(obs, None)


def test_a_bot_a_person_waits_on_stops_its_search_at_the_live_cap() -> None:
    live = live_bot("expert", seed=3)
    assert isinstance(live, ExpertBot) and live.max_seconds == LIVE_SECONDS < 1.0
    measured = make_bot("expert", seed=3)
    assert isinstance(measured, ExpertBot) and measured.max_seconds is None
    # A bot that does not search is made as ever.
    assert live_bot("standard", seed=3).name == "standard"


def test_covers_a_partners_nil_by_overtaking_their_card() -> None:
    hands = fill_hands(
        [
            "9H 6H 2C 3C 4C 2D 3D 4D 2S 3S",
            "2H 3H 4H",
            "KH 5H 7H",
            "8H TH JH QH AH",
        ]
    )
    state = _script(hands, dealer=3, bids=[0, 3, 4, 3], plays="9H 2H")
    choice = make_bot("expert", seed=0).act(state.observation(2))
    assert choice == parse_card("KH")


def test_never_trumps_a_partners_winning_card() -> None:
    hands = fill_hands(
        [
            "5H 4H 2C",
            "AH 3H 6H",
            "2H 7H 8H",
            "2S 3S 9S AS 3C 4C 5C 6C 2D 3D 4D 5D 6D",
        ]
    )
    state = _script(hands, dealer=3, bids=[3, 3, 3, 4], plays="5H AH 2H")
    choice = make_bot("expert", seed=0).act(state.observation(3))
    assert state.deck.suit[choice] != SPADES


def test_ducks_a_bag_once_the_contract_is_made() -> None:
    hands = fill_hands(
        [
            "AC KC QC JC 4D JD QD KD AD",
            "2C 3C 4C 9D 6D 7D 8D",
            "5C 6C 7C TD 2D 2H 3H 4H 5H 6H 2S 3S 4S",
            "8C 9C TC 3D 5D",
        ]
    )
    state = _script(
        hands,
        dealer=3,
        bids=[2, 1, 1, 1],
        plays="AC 2C 5C 8C KC 3C 6C 9C QC 4C 7C TC 4D 9D",
        bags=(9, 0),
    )
    assert state.tricks_won[0] == 3 and state.current_player == 2
    choice = make_bot("expert", seed=0).act(state.observation(2))
    assert choice == parse_card("2D")


def _bid_with(hand: str) -> int:
    hands = fill_hands([hand, "", "", ""])
    state = HandState.from_hands(Rules(), hands, dealer=3)
    return make_bot("expert", seed=0).act(state.observation(0))


def test_bids_nil_with_a_textbook_nil_hand() -> None:
    assert _bid_with("2C 3C 4C 6C 2D 3D 5D 7D 2H 4H 6H 2S 3S") == NIL


def test_does_not_bid_nil_with_aces_and_kings() -> None:
    bid = _bid_with("AS KS QS AH KH AD KD AC KC 2C 3D 4H 5S")
    assert bid != NIL and bid - BID_BASE >= 6


def test_the_blind_nil_exchange_passes_high_cards_from_the_blind_bidder() -> None:
    rules = Rules(blind_nil_exchange=True)
    state = HandState.deal(rules, dealer=3, seed=12, scores=(0, 200))
    state.apply(66)  # North bids blind nil
    while state.phase is Phase.BIDDING:
        if LOOK in state.legal_actions():
            state.apply(LOOK)
        state.apply(BID_BASE + 3)
    assert state.phase is Phase.EXCHANGE and state.current_player == 0
    bot = ExpertBot(seed=0, **FAST)
    passed = bot.act(state.observation(0)) - 68
    hand = state.hand(0)
    assert state.deck.power[passed] == max(state.deck.power[c] for c in hand)
