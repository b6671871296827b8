"""Shared helpers for the engine tests: card lists from text, state snapshots, seeded
late-hand positions and random valid house rules."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from typing import Any

from spades.engine.cards import JOKER_RANKINGS, Card, JokerRanking, parse_card
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase


def cards(text: str, *, jokers: JokerRanking | None = None) -> list[Card]:
    """Card ids from space-separated codes: ``cards("AS KS 2H")``."""
    return [parse_card(code, jokers=jokers) for code in text.split()]


def fill_hands(partial: Sequence[str]) -> list[list[Card]]:
    """Four 13-card hands: each row's cards (codes such as ``"AS 2H"``), then the rest of
    the deck in id order."""
    hands = [cards(text) for text in partial]
    used = {c for hand in hands for c in hand}
    spare = [c for c in range(52) if c not in used]
    for hand in hands:
        while len(hand) < 13:
            hand.append(spare.pop(0))
    return hands


def deal_by_suits(*hands: str, jokers: JokerRanking | None = None) -> list[list[Card]]:
    """Four hands of card codes (seat order N, E, S, W)."""
    return [cards(hand, jokers=jokers) for hand in hands]


def snapshot(state: HandState) -> dict[str, Any]:
    """A copy of every slot of a hand, except the memo of the legal plays (a cache that a
    question such as ``verify`` may fill without changing the hand)."""
    return {name: _copied(getattr(state, name)) for name in HandState.__slots__ if name != "_legal"}


def _copied(value: Any) -> Any:
    """``value`` as it is now. Lists and dicts are copied item by item; a hashable value
    (the deck, a frozen event, a tuple of numbers) cannot change, so it is kept, not copied:
    a hand's log and deck are most of its size. (A hand holds nothing hashed by identity,
    which could change and still hash.)"""
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    try:
        hash(value)
    except TypeError:
        return copy.deepcopy(value)
    return value


def finish_bidding_randomly(state: HandState, rng: random.Random) -> None:
    """Bid (and exchange) at random through the checked API until the play starts."""
    while state.phase in (Phase.BIDDING, Phase.EXCHANGE):
        state.apply(rng.choice(state.legal_actions()))


def play_to_tricks_left(state: HandState, rng: random.Random, tricks_left: int) -> None:
    """Play random legal cards until ``tricks_left`` whole tricks remain to be played."""
    finish_bidding_randomly(state, rng)
    while 13 - len(state.tricks) > tricks_left or state.trick:
        state.apply(rng.choice(state.legal_actions()))


def late_position(seed: int, tricks_left: int, rules: Rules | None = None) -> HandState:
    """A seeded deal bid and played at random until ``tricks_left`` tricks remain."""
    rng = random.Random(seed)
    state = HandState.deal(rules or Rules(), dealer=seed % 4, seed=seed)
    play_to_tricks_left(state, rng, tricks_left)
    return state


def random_rules(rng: random.Random) -> Rules:
    """A random valid set of house rules (every option takes part).

    The options added later are drawn last, so that the draws before them, and so the
    rules of a seed without them, stay the same.
    """
    nil_allowed = rng.random() < 0.85
    blind_nil = nil_allowed and rng.random() < 0.6
    whiz = nil_allowed and rng.random() < 0.15
    suicide = nil_allowed and not whiz and rng.random() < 0.15
    bag_limit = rng.choice([None, 5, 10, 10])
    options = {
        "target_score": rng.choice([300, 500, 1000]),
        "mercy_score": rng.choice([None, -200, -500]),
        "tie_policy": rng.choice(["play_on", "draw"]),
        "nil_allowed": nil_allowed,
        "blind_nil": blind_nil,
        "blind_nil_deficit": rng.choice([0, 50, 100]),
        "blind_nil_exchange": blind_nil and rng.random() < 0.5,
        "nil_tricks_count_toward_bid": rng.random() < 0.3,
        "min_team_bid": 0 if whiz else rng.choice([0, 0, 2, 4]),
        "whiz": whiz,
        "suicide": suicide,
        "ten_for_two_hundred": rng.random() < 0.3,
        "boston_bonus": rng.choice([0, 0, 100, 200]),
        "bag_limit": bag_limit,
        "bag_penalty": 50 if bag_limit == 5 else 100,
        "jokers": rng.random() < 0.3,
        "no_spades_first_trick": rng.random() < 0.3,
        "spades_lead_any_time": rng.random() < 0.2,
    }
    if rng.random() < 0.12:
        # Mirror forces every bid, so the options that offer or ask for others are off.
        options |= {
            "mirror": True,
            "nil_allowed": True,
            "blind_nil": False,
            "blind_nil_exchange": False,
            "min_team_bid": 0,
            "whiz": False,
            "suicide": False,
            "jokers": False,
        }
    options["nil_pass"] = rng.choice([0, 0, 2, 4]) if options["nil_allowed"] else 0
    if options["jokers"]:
        options["joker_ranking"] = rng.choice(JOKER_RANKINGS)
    return Rules(**options)  # type: ignore[arg-type]


# The rules of the play restated from the rule texts, independently of the engine, so
# the brute-force tests (claim, perft, invariants) can check the engine against them.
#: The trumps above the ace in each joker ranking, from the top: the Big Joker (the 2♣'s
#: id), the Little Joker (the 2♦'s id 13, or the 2♥'s 26), then the 2♦ and the 2♠.
_REF_TOPS: dict[JokerRanking | None, tuple[int, ...]] = {
    None: (),
    "ace": (0, 13),
    "deuces": (0, 26, 13, 39),
    "ace_no_2h": (0, 26),
}


def ref_suit(card: int, jokers: JokerRanking | None) -> int:
    """A card's suit for play: the jokers, and the 2♦ of the ranking "deuces", are
    spades."""
    return 3 if card in _REF_TOPS[jokers] else card // 13


def ref_power(card: int, jokers: JokerRanking | None) -> int:
    """A card's rank for play: the trumps above the ace in their order, then the ace
    down to the two."""
    tops = _REF_TOPS[jokers]
    return 12 + len(tops) - tops.index(card) if card in tops else card % 13


def ref_legal_plays(
    hand: Iterable[int],
    trick: Sequence[tuple[int, int]],
    broken: bool,
    first: bool,
    rules: Rules,
) -> list[int]:
    """The cards a player may play: follow suit if you can; lead a spade only once
    spades are broken (or by house rule), or when holding nothing else."""
    hand = sorted(hand)
    jokers = rules.joker_deck
    side = [c for c in hand if ref_suit(c, jokers) != 3]
    if trick:
        led = ref_suit(trick[0][1], jokers)
        follow = [c for c in hand if ref_suit(c, jokers) == led]
        if follow:
            return follow
        if first and rules.no_spades_first_trick and side:
            return side
        return hand
    restricted = (not broken and not rules.spades_lead_any_time) or (
        first and rules.no_spades_first_trick
    )
    return side if restricted and side else hand


def ref_trick_winner(trick: Sequence[tuple[int, int]], jokers: JokerRanking | None) -> int:
    """The seat that wins a trick of (seat, card): the highest spade, else the highest
    card of the led suit."""
    spades = [(ref_power(c, jokers), s) for s, c in trick if ref_suit(c, jokers) == 3]
    if spades:
        return max(spades)[1]
    led = ref_suit(trick[0][1], jokers)
    return max((ref_power(c, jokers), s) for s, c in trick if ref_suit(c, jokers) == led)[1]
