"""Exercises about tricks (lessons 1 to 4): which card wins a trick, and which cards a
hand may follow with or lead.

Each comes from a seeded deal played forward, or, for a hand of only spades, from hands
built so that every play is legal. The engine answers: a trick really played says who
wins it, and ``legal_actions()`` says which cards may be played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

from spades.engine.cards import (
    NUM_CARDS,
    SEAT_NAMES,
    SOUTH,
    SUIT_NAMES,
    Card,
    Seat,
    card_action,
    card_label,
    hand_cards,
)
from spades.engine.deck import TrickReason, trick_reasons
from spades.engine.state import SPADES, HandState, Trick

from .positions import DECK, RULES, bid_all, playout, refusal, search, seeded_rng, suit_of
from .questions import (
    Exercise,
    Option,
    card_options,
    cards_labels,
    sentence,
    trick_facts,
)
from .views import exercise_table

_SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")

# ------------------------------------------------------------------ who wins (1, 3)

TrickKind = Literal["followed", "trumped", "discarded", "overtrumped", "spade_led"]


def trick_kind(trick: Trick) -> TrickKind:
    """What makes a trick interesting: all followed, trumped once or more, discards,
    or spades led."""
    led = suit_of(trick.cards[0])
    if DECK.is_trump(trick.cards[0]):
        return "spade_led"
    spades = sum(map(DECK.is_trump, trick.cards))
    if spades >= 2:
        return "overtrumped"
    if spades == 1:
        return "trumped"
    if any(suit_of(c) != led for c in trick.cards):
        return "discarded"
    return "followed"


def _trick_verdicts(trick: Trick) -> dict[Seat, str]:
    """Why each card of a finished trick won or lost, seat by seat, as the engine's deck
    says (:func:`~spades.engine.deck.trick_reasons`)."""
    winner, reasons = trick_reasons(DECK, trick)
    plays = dict(trick.plays())
    win = card_label(plays[winner])
    led = _SUIT_SINGULAR[suit_of(trick.cards[0])]
    words = {
        TrickReason.TOP_TRUMP_LED: "is the highest spade, and spades were led",
        TrickReason.TOP_TRUMP: f"is the highest spade played, and a spade beats every {led}",
        TrickReason.TOP_OF_LED: f"is the highest {led}, the led suit, and nobody played a spade",
        TrickReason.LOWER: f"is lower than the {win}",
        TrickReason.TRUMPED: f"followed suit, but the {win} is a spade (trump)",
        TrickReason.OFF_SUIT: f"is neither a {led} (the led suit) nor a spade, so it cannot win",
    }
    return {
        seat: f"{SEAT_NAMES[seat]}'s {card_label(card)} {words[reasons[seat]]}"
        for seat, card in plays.items()
    }


def _find_trick(
    seed: int, lesson_no: int, wanted: tuple[TrickKind, ...]
) -> tuple[HandState, Trick]:
    def find(attempt: int) -> tuple[HandState, Trick] | None:
        positions, final = playout((lesson_no, seed, attempt))
        rng = seeded_rng("pick", lesson_no, seed, attempt)
        candidates = [i for i, t in enumerate(final.tricks) if trick_kind(t) in wanted]
        if not candidates:
            return None
        index = rng.choice(candidates)
        return positions[4 * index], final.tricks[index]

    return search(seed, find)


def _trick_display(trick: Trick) -> tuple[tuple[Seat, Card], ...]:
    return tuple(trick.plays())


def _lesson1(seed: int) -> Exercise:
    wanted: tuple[TrickKind, ...] = ("followed",) if seed % 2 == 0 else ("trumped",)
    before, trick = _find_trick(seed, 1, wanted)
    verdicts = _trick_verdicts(trick)
    plays = trick.plays()
    shown = _trick_display(trick)
    win_card = dict(plays)[trick.winner]
    led = SUIT_NAMES[suit_of(trick.cards[0])]
    return Exercise(
        lesson=1,
        seed=seed,
        kind="card",
        prompt=f"{SEAT_NAMES[trick.leader]} led {led}. Which card wins this trick?",
        options=card_options(trick.cards),
        answer=frozenset((win_card,)),
        explanation=sentence(f"The {card_label(win_card)} wins: {verdicts[trick.winner]}"),
        reasons={card: verdicts[seat] for seat, card in plays},
        trick=shown,
        position=before,
        table=exercise_table(before, trick=shown),
    )


def _lesson3(seed: int) -> Exercise:
    wanted: tuple[TrickKind, ...] = (
        ("trumped", "overtrumped"),
        ("discarded",),
        ("spade_led", "followed", "overtrumped"),
    )[seed % 3]
    before, trick = _find_trick(seed, 3, wanted)
    verdicts = _trick_verdicts(trick)
    plays = trick.plays()
    shown = _trick_display(trick)
    led = SUIT_NAMES[suit_of(trick.cards[0])]
    return Exercise(
        lesson=3,
        seed=seed,
        kind="choice",
        prompt=f"{SEAT_NAMES[trick.leader]} led {led}. Who wins this trick?",
        options=tuple(Option(seat, f"{SEAT_NAMES[seat]} ({card_label(c)})") for seat, c in plays),
        answer=frozenset((trick.winner,)),
        explanation=sentence(f"{SEAT_NAMES[trick.winner]} wins: {verdicts[trick.winner]}"),
        reasons=verdicts,
        trick=shown,
        position=before,
        table=exercise_table(before, trick=shown),
    )


# ------------------------------------------------------------------ legal cards (2, 4)


def _legal_cards_exercise(
    lesson_no: int, seed: int, state: HandState, prompt: str, why_legal: Callable[[Card], str]
) -> Exercise:
    hand = tuple(state.hand(SOUTH))
    legal = frozenset(state.legal_actions())
    reasons = {c: why_legal(c) if c in legal else refusal(state, c) for c in hand}
    return Exercise(
        lesson=lesson_no,
        seed=seed,
        kind="cards",
        prompt=prompt,
        options=card_options(hand),
        answer=legal,
        explanation=_legal_summary(state, hand, legal),
        reasons=reasons,
        hand=hand,
        trick=state.trick_plays,
        facts=trick_facts(state),
        position=state,
        table=exercise_table(state, answers=map(card_action, hand)),
    )


def _legal_summary(state: HandState, hand: tuple[Card, ...], legal: frozenset[int]) -> str:
    """Why exactly these cards are allowed: the engine's reason for the cards it refuses
    (:func:`refusal`), or when it refuses none, why none is refused."""
    deck = state.deck
    refused = sorted({refusal(state, card) for card in hand if card not in legal})
    if refused:
        return f"{'; '.join(refused)}, so you may play {cards_labels(sorted(legal))}."
    if state.trick:
        led = deck.suit[state.trick[0]]
        if any(deck.suit[card] == led for card in hand):
            return f"Every card you hold is a {_SUIT_SINGULAR[led]}, so any of them will do."
        spades_too = "" if deck.is_trump(state.trick[0]) else ", a spade included"
        return f"You have no {SUIT_NAMES[led]}, so any card may be played{spades_too}."
    if all(map(deck.is_trump, hand)) and not state.spades_broken:
        return "Spades are not broken, but you hold only spades, so you may lead any of them."
    if state.spades_broken:
        return "Spades are broken, so you may lead any card, spades included."
    return "You hold no spade, so any card may be led."


def _lesson2(seed: int) -> Exercise:
    # Seed 0 and every third seed must follow; then a void; then any position.
    category = seed % 3

    def fits(state: HandState) -> bool:
        if state.current_player != SOUTH or not state.trick or len(state.hand(SOUTH)) < 4:
            return False
        led = suit_of(state.trick[0])
        holds = any(suit_of(c) == led for c in state.hand(SOUTH))
        if category == 0:
            return holds and 2 <= len(state.legal_actions()) < len(state.hand(SOUTH)) - 1
        if category == 1:
            return not holds
        return True

    def find(attempt: int) -> HandState | None:
        positions, _ = playout((2, seed, attempt))
        candidates = [p for p in positions if fits(p)]
        return seeded_rng("pick", 2, seed, attempt).choice(candidates) if candidates else None

    state = search(seed, find)
    led = SUIT_NAMES[suit_of(state.trick[0])]

    def why(card: Card) -> str:
        if suit_of(card) == suit_of(state.trick[0]):
            return f"{led} follow suit"
        return f"with no {led} in your hand, any card may be played"

    return _legal_cards_exercise(
        2,
        seed,
        state,
        f"{SEAT_NAMES[state.leader]} led {led}. Pick every card you may play.",
        why,
    )


def _only_spades_position(seed: int) -> HandState:
    """South to lead with only spades left and spades not yet broken.

    South is dealt the top cards of some side suits and leads them one after the other;
    everybody else holds enough of each suit to follow, so no spade is played.
    """
    rng = seeded_rng("only-spades", seed)
    while True:
        tops = [rng.randint(0, 3) for _ in range(3)]
        if 3 <= sum(tops) <= 6:
            break
    south = [13 * s + 12 - r for s in range(3) for r in range(tops[s])]
    south += rng.sample(hand_cards(DECK.suit_masks[SPADES]), RULES.hand_size - len(south))
    rest = [c for c in range(NUM_CARDS) if c not in south]
    others: dict[Seat, list[Card]] = {seat: [] for seat in RULES.seats if seat != SOUTH}
    for suit in range(3):
        pool = [c for c in rest if suit_of(c) == suit]
        rng.shuffle(pool)
        for seat in others:
            for _ in range(tops[suit]):
                others[seat].append(pool.pop())
    left = [c for c in rest if not any(c in held for held in others.values())]
    rng.shuffle(left)
    for held in others.values():
        while len(held) < RULES.hand_size:
            held.append(left.pop())
    hands = [south if seat == SOUTH else others[seat] for seat in RULES.seats]
    # East deals, so South bids first and leads the first trick.
    state = HandState.from_hands(RULES, hands, dealer=1)
    bid_all(state, {})
    for card in sorted(south, key=lambda c: (suit_of(c), -c)):
        if DECK.is_trump(card):
            continue
        state.apply(card)
        for _ in others:
            state.apply(rng.choice(state.legal_actions()))
    return state


def _lesson4(seed: int) -> Exercise:
    # Seed 0 and every third seed: spades not broken; then broken; then only spades left.
    category = seed % 3
    if category == 2:
        state = _only_spades_position(seed)
    else:

        def fits(p: HandState) -> bool:
            if p.current_player != SOUTH or p.trick:
                return False
            hand = p.hand(SOUTH)
            spades = sum(map(DECK.is_trump, hand))
            if not 0 < spades < len(hand) or len(hand) < 3:
                return False
            return p.spades_broken == (category == 1)

        def find(attempt: int) -> HandState | None:
            positions, _ = playout((4, seed, attempt))
            candidates = [p for p in positions if fits(p)]
            return seeded_rng("pick", 4, seed, attempt).choice(candidates) if candidates else None

        state = search(seed, find)

    def why(card: Card) -> str:
        if not DECK.is_trump(card):
            return "a suit other than spades may always be led"
        if state.spades_broken:
            return "spades are broken, so spades may be led"
        return "with only spades in your hand, spades may be led before they are broken"

    return _legal_cards_exercise(
        4, seed, state, "It is your lead. Pick every card you may lead.", why
    )


#: The exercise maker of each lesson here, by lesson number.
MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {
    1: _lesson1,
    2: _lesson2,
    3: _lesson3,
    4: _lesson4,
}
