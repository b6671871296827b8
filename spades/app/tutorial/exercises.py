"""The tutorial, engine side: lessons, seeded exercises, and feedback that says why.

Every exercise is built from a real position. Some come from a seeded deal played
forward; others from hands built so that the plays are legal. The engine then gives
the answer: ``legal_actions()`` says which cards may be played, a trick really played
says who wins it, and ``score_hand`` gives the points. The tutorial holds no rule of
its own. Seed 0 of every lesson is the fixed first example; other seeds give fresh
practice. The learner sits South, as on the Play page.

>>> ex = make_exercise(2, 0)
>>> ex.kind, ex.check(ex.answer).correct
('cards', True)
>>> make_exercise(2, 0).answer == ex.answer
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple, TypeVar

from spades.bots.hint import Hint, hint
from spades.cards import (
    BLIND_NIL,
    NUM_CARDS,
    SEAT_NAMES,
    SUIT_NAMES,
    Action,
    Card,
    Seat,
    bid_action,
    bid_label,
    bid_of,
    card_label,
    hand_cards,
)
from spades.drive import drive
from spades.observation import Observation
from spades.rules import Rules
from spades.scoring import apply_bag_penalty, match_outcome, score_hand
from spades.state import SPADES, HandState, IllegalAction, Phase, Trick, deck_for

RULES: Final = Rules()
DECK: Final = deck_for(RULES.jokers)
SOUTH: Final = 2
NORTH: Final = 0
EXERCISES_TO_PASS: Final = 3
PRACTICE_LESSON: Final = 9

Kind = Literal["cards", "card", "choice"]

_SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its number, title and the short explanation shown before exercises."""

    number: int
    title: str
    explanation: str

    @property
    def is_practice(self) -> bool:
        """Whether this lesson is the guided practice hand rather than exercises."""
        return self.number == PRACTICE_LESSON


LESSONS: Final = (
    Lesson(
        1,
        "The deck, the ranks, and spades as trump",
        "Spades uses the 52-card deck: four suits of 13 cards. In each suit the ace is "
        "highest, then king, queen, jack, 10 and down to the 2.\n\n"
        "Four players sit North, East, South and West. You are South; North is your "
        "partner. One card each makes a **trick**. The first card sets the **led suit**: "
        "the highest card of that suit wins, unless someone plays a spade. **Spades are "
        "always trump**: any spade beats every card of another suit, and the highest "
        "spade wins. A card of a third suit never wins.",
    ),
    Lesson(
        2,
        "Following suit",
        "When a card is led you must **follow suit**: play a card of the led suit if you "
        "have one. Only when you have none of it may you play any card, a spade (to "
        "trump) or a discard from another suit.\n\n"
        "Pick every card you may play, then check.",
    ),
    Lesson(
        3,
        "Who wins the trick",
        "Look at the led suit first. If no spade was played, the highest card of the "
        "led suit wins; cards of other suits are discards and never win. If spades were "
        "played, the highest spade wins, even a small one against an ace of the led suit.",
    ),
    Lesson(
        4,
        "Breaking spades",
        "The winner of a trick leads the next one. You may lead any suit except spades "
        "until spades are **broken**, which happens when someone plays a spade because "
        "they cannot follow suit. There is one exception: if you hold **only spades**, "
        "you may lead one even before spades are broken.\n\n"
        "Pick every card you may lead, then check.",
    ),
    Lesson(
        5,
        "Bidding",
        "After the deal each player bids how many tricks they expect to take; your bid "
        "and your partner's add up to your team's contract. Count about one trick for "
        "each ace, for a king with another card of its suit, and for each spade beyond "
        "the third. Short side suits help too: once you are out of a suit you can trump "
        "it. It is better to bid a little low than to be set.\n\n"
        "Estimate the hand, then compare with the expert bot.",
    ),
    Lesson(
        6,
        "Nil and blind nil",
        "Bidding **nil** says you will take no trick at all: +100 if you manage it, "
        "−100 if you take even one, and tricks you take count as bags for your team. "
        "Your partner still plays for their own bid and **protects** you: they try to win "
        "the tricks you would otherwise take, so play over your low cards.\n\n"
        "**Blind nil** is bid before you look at your cards and pays ±200. It is only "
        "allowed when your team trails by 100 points or more.",
    ),
    Lesson(
        7,
        "Scoring a hand",
        "Your team's bids add up to its contract. Take at least that many tricks and "
        "score 10 per trick bid, plus 1 point for each extra trick (a **bag**). Take fewer "
        "and you are **set**: you lose 10 per trick bid. A nil bidder's tricks do not help "
        "the partner's bid; the nil scores ±100 on its own.",
    ),
    Lesson(
        8,
        "Bags and the end of the game",
        "Bags add up from hand to hand. Each time your team reaches 10 bags it loses "
        "100 points and 10 bags come off the count. So do not take too many extra "
        "tricks.\n\n"
        "The game ends when a team reaches **500**: it wins, and if both do the higher "
        "score wins. A team that falls to **−200** or lower loses at once.",
    ),
    Lesson(
        9,
        "A guided practice hand",
        "Play a whole hand as South with bots at the other seats. Ask for a hint at any "
        "turn. When your card differs from the expert's choice you will see why it "
        "chose differently, and the hand ends with a review.",
    ),
)


def lesson(number: int) -> Lesson:
    """The lesson with this number (1 to 9)."""
    for item in LESSONS:
        if item.number == number:
            return item
    raise ValueError(f"there is no lesson {number} (lessons are 1 to {len(LESSONS)})")


@dataclass(frozen=True, slots=True)
class Option:
    """One possible answer: the value checked and the label shown."""

    value: int
    label: str


@dataclass(frozen=True, slots=True)
class Feedback:
    """The verdict on an answer, with the reason in plain words."""

    correct: bool
    text: str


class ScoreCase(NamedTuple):
    """A scored hand's inputs: the four seats' bids (0 = nil), blind flags and tricks."""

    bids: tuple[int, int, int, int]
    blind: tuple[bool, bool, bool, bool]
    tricks: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True, eq=False)
class Exercise:
    """A question with its options, the engine's answer, and why.

    ``kind`` is ``"cards"`` (pick every right card), ``"card"`` (pick one card) or
    ``"choice"`` (pick one option). ``answer`` holds every option value that is right;
    for a one-pick kind any of them is accepted. So that anyone can check the answer,
    the exercise keeps what it is about: ``position``, the engine state of the question;
    ``case``, a scored hand; ``scores``, the running scores; ``bags``, the bags on the
    count and the bags taken this hand.
    """

    lesson: int
    seed: int
    kind: Kind
    prompt: str
    options: tuple[Option, ...]
    answer: frozenset[int]
    explanation: str
    reasons: Mapping[int, str]
    hand: tuple[Card, ...] = ()
    trick: tuple[tuple[Seat, Card], ...] = ()
    facts: tuple[str, ...] = ()
    position: HandState | None = field(default=None, repr=False)
    case: ScoreCase | None = None
    scores: tuple[int, int] | None = None
    bags: tuple[int, int] | None = None

    def label(self, value: int) -> str:
        """The label of an option value."""
        for option in self.options:
            if option.value == value:
                return option.label
        raise ValueError(f"{value} is not an option of this exercise")

    def check(self, picked: Iterable[int] | int) -> Feedback:
        """Judge an answer: a set of values for ``"cards"``, one value otherwise."""
        chosen = frozenset((picked,)) if isinstance(picked, int) else frozenset(picked)
        unknown = chosen - {o.value for o in self.options}
        if unknown:
            raise ValueError(f"{sorted(unknown)} are not options of this exercise")
        if self.kind == "cards":
            if chosen == self.answer:
                return Feedback(True, f"Right. {self.explanation}")
            parts = [
                f"{_labels_of(self, group)}: {reason}"
                for reason, group in _by_reason(self, chosen - self.answer)
            ]
            parts += [
                f"Missing {_labels_of(self, group)}: {reason}"
                for reason, group in _by_reason(self, self.answer - chosen)
            ]
            why = " ".join(_sentence(part) for part in parts)
            return Feedback(False, f"Not quite. {why} {self.explanation}")
        if len(chosen) != 1:
            raise ValueError("pick exactly one option")
        (value,) = chosen
        if value in self.answer:
            return Feedback(True, f"Right. {self.explanation}")
        why = self.reasons.get(value, "")
        lead = _sentence(f"Not “{self.label(value)}”: {why}") if why else "Not quite."
        return Feedback(False, f"{lead} {self.explanation}")


def _by_reason(exercise: Exercise, values: Iterable[int]) -> list[tuple[str, list[int]]]:
    """Values grouped by their reason, so that one sentence covers several cards."""
    groups: dict[str, list[int]] = {}
    for value in sorted(values):
        groups.setdefault(exercise.reasons[value], []).append(value)
    return list(groups.items())


def _labels_of(exercise: Exercise, values: Iterable[int]) -> str:
    return ", ".join(exercise.label(v) for v in values)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


# ------------------------------------------------------------------ positions


def _rng(*parts: object) -> random.Random:
    return random.Random(":".join(["tutorial", *map(str, parts)]))


def _bid_all(state: HandState, bids: Mapping[Seat, int]) -> None:
    """Bid through the auction: the given bids, three tricks for everyone else."""
    while state.phase is Phase.BIDDING:
        seat = state.current_player
        assert seat is not None
        state.apply(bid_action(bids.get(seat, 3)))


def _lowest(state: HandState) -> Action:
    """The lowest-ranked legal card: how a nil bidder ducks in these positions."""
    return min(state.legal_actions(), key=lambda c: (DECK.power[c], DECK.suit[c]))


def _playout(
    key: object, *, bids: Mapping[Seat, int] | None = None, ducker: Seat | None = None
) -> tuple[list[HandState], HandState]:
    """A seeded deal bid and played to the end at random.

    Returns the state before every card and the finished hand. ``ducker`` always plays
    its lowest legal card, as a nil bidder would.
    """
    rng = _rng("deal", key)
    state = HandState.deal(RULES, dealer=rng.randrange(4), seed=rng.getrandbits(32))
    _bid_all(state, bids or {})
    positions = []
    while not state.is_over:
        positions.append(state.clone())
        if state.current_player == ducker:
            state.apply(_lowest(state))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return positions, state


def _search(seed: int, find: Callable[[int], _T | None], *, tries: int = 400) -> _T:
    """The first deal (from ``seed``) in which ``find`` finds what the exercise needs."""
    for attempt in range(tries):
        found = find(attempt)
        if found is not None:
            return found
    raise RuntimeError(f"no position found for seed {seed}")


def refusal(state: HandState, action: Action) -> str:
    """The engine's own words for why ``action`` is not allowed now (empty when it is)."""
    try:
        state.verify(action)
    except IllegalAction as err:
        return str(err)
    return ""


def _suit(card: Card) -> int:
    """The suit ``card`` plays as, as the engine's deck has it."""
    return DECK.suit[card]


def _trick_facts(state: HandState) -> tuple[str, ...]:
    broken = "Spades are broken." if state.spades_broken else "Spades are not broken yet."
    return (f"Trick {len(state.tricks) + 1} of 13.", broken)


def _cards_labels(cards: Iterable[Card]) -> str:
    return ", ".join(card_label(c) for c in cards)


def _card_options(cards: Iterable[Card]) -> tuple[Option, ...]:
    return tuple(Option(c, card_label(c)) for c in cards)


# ------------------------------------------------------------------ tricks (lessons 1, 3)

TrickKind = Literal["followed", "trumped", "discarded", "overtrumped", "spade_led"]


def trick_kind(trick: Trick) -> TrickKind:
    """What makes a trick interesting: all followed, trumped once or more, discards,
    or spades led."""
    led = _suit(trick.cards[0])
    if DECK.is_trump(trick.cards[0]):
        return "spade_led"
    spades = sum(map(DECK.is_trump, trick.cards))
    if spades >= 2:
        return "overtrumped"
    if spades == 1:
        return "trumped"
    if any(_suit(c) != led for c in trick.cards):
        return "discarded"
    return "followed"


def _trick_verdicts(trick: Trick) -> dict[Seat, str]:
    """Why each card of a finished trick won or lost, seat by seat."""
    led = _suit(trick.cards[0])
    plays = trick.plays()
    win_card = dict(plays)[trick.winner]
    win = card_label(win_card)
    trumped = DECK.is_trump(win_card) and not DECK.is_trump(trick.cards[0])
    verdicts: dict[Seat, str] = {}
    for seat, card in plays:
        name = f"{SEAT_NAMES[seat]}'s {card_label(card)}"
        if seat == trick.winner:
            if DECK.is_trump(trick.cards[0]):
                verdicts[seat] = f"{name} is the highest spade, and spades were led"
            elif trumped:
                verdicts[seat] = (
                    f"{name} is the highest spade played, and a spade beats every "
                    f"{_SUIT_SINGULAR[led]}"
                )
            else:
                verdicts[seat] = (
                    f"{name} is the highest {_SUIT_SINGULAR[led]}, the led suit, "
                    "and nobody played a spade"
                )
        elif _suit(card) == _suit(win_card):
            verdicts[seat] = f"{name} is lower than the {win}"
        elif _suit(card) == led:
            verdicts[seat] = f"{name} followed suit, but the {win} is a spade (trump)"
        else:
            verdicts[seat] = (
                f"{name} is neither a {_SUIT_SINGULAR[led]} (the led suit) nor a spade, "
                "so it cannot win"
            )
    return verdicts


def _find_trick(
    seed: int, lesson_no: int, wanted: tuple[TrickKind, ...]
) -> tuple[HandState, Trick]:
    def find(attempt: int) -> tuple[HandState, Trick] | None:
        positions, final = _playout((lesson_no, seed, attempt))
        rng = _rng("pick", lesson_no, seed, attempt)
        candidates = [i for i, t in enumerate(final.tricks) if trick_kind(t) in wanted]
        if not candidates:
            return None
        index = rng.choice(candidates)
        return positions[4 * index], final.tricks[index]

    return _search(seed, find)


def _trick_display(trick: Trick) -> tuple[tuple[Seat, Card], ...]:
    return tuple(trick.plays())


def _lesson1(seed: int) -> Exercise:
    wanted: tuple[TrickKind, ...] = ("followed",) if seed % 2 == 0 else ("trumped",)
    before, trick = _find_trick(seed, 1, wanted)
    verdicts = _trick_verdicts(trick)
    plays = trick.plays()
    win_card = dict(plays)[trick.winner]
    led = SUIT_NAMES[_suit(trick.cards[0])]
    return Exercise(
        lesson=1,
        seed=seed,
        kind="card",
        prompt=f"{SEAT_NAMES[trick.leader]} led {led}. Which card wins this trick?",
        options=_card_options(trick.cards),
        answer=frozenset((win_card,)),
        explanation=_sentence(f"The {card_label(win_card)} wins: {verdicts[trick.winner]}"),
        reasons={card: verdicts[seat] for seat, card in plays},
        trick=_trick_display(trick),
        position=before,
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
    led = SUIT_NAMES[_suit(trick.cards[0])]
    return Exercise(
        lesson=3,
        seed=seed,
        kind="choice",
        prompt=f"{SEAT_NAMES[trick.leader]} led {led}. Who wins this trick?",
        options=tuple(Option(seat, f"{SEAT_NAMES[seat]} ({card_label(c)})") for seat, c in plays),
        answer=frozenset((trick.winner,)),
        explanation=_sentence(f"{SEAT_NAMES[trick.winner]} wins: {verdicts[trick.winner]}"),
        reasons=verdicts,
        trick=_trick_display(trick),
        position=before,
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
        options=_card_options(hand),
        answer=legal,
        explanation=_legal_summary(state, hand, legal),
        reasons=reasons,
        hand=hand,
        trick=tuple(((state.leader + i) % 4, c) for i, c in enumerate(state.trick)),
        facts=_trick_facts(state),
        position=state,
    )


def _legal_summary(state: HandState, hand: tuple[Card, ...], legal: frozenset[int]) -> str:
    """Why exactly these cards are allowed, told from the engine's answer."""
    allowed = _cards_labels(sorted(legal))
    if state.trick:
        led = _suit(state.trick[0])
        if len(legal) < len(hand):
            return (
                f"{SUIT_NAMES[led].capitalize()} were led and you hold some, so you must "
                f"follow suit: {allowed}."
            )
        if any(_suit(c) == led for c in hand):
            return f"Every card you hold is a {_SUIT_SINGULAR[led]}, so any of them will do."
        return f"You have no {SUIT_NAMES[led]}, so any card may be played, a spade included."
    if len(legal) < len(hand):
        return (
            "Spades are not broken and you hold other suits, so you may lead anything "
            f"but a spade: {allowed}."
        )
    if all(map(DECK.is_trump, hand)) and not state.spades_broken:
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
        led = _suit(state.trick[0])
        holds = any(_suit(c) == led for c in state.hand(SOUTH))
        if category == 0:
            return holds and 2 <= len(state.legal_actions()) < len(state.hand(SOUTH)) - 1
        if category == 1:
            return not holds
        return True

    def find(attempt: int) -> HandState | None:
        positions, _ = _playout((2, seed, attempt))
        candidates = [p for p in positions if fits(p)]
        return _rng("pick", 2, seed, attempt).choice(candidates) if candidates else None

    state = _search(seed, find)
    led = SUIT_NAMES[_suit(state.trick[0])]

    def why(card: Card) -> str:
        if _suit(card) == _suit(state.trick[0]):
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
    rng = _rng("only-spades", seed)
    while True:
        tops = [rng.randint(0, 3) for _ in range(3)]
        if 3 <= sum(tops) <= 6:
            break
    south = [13 * s + 12 - r for s in range(3) for r in range(tops[s])]
    south += rng.sample(hand_cards(DECK.suit_masks[SPADES]), 13 - len(south))
    rest = [c for c in range(NUM_CARDS) if c not in south]
    others: dict[Seat, list[Card]] = {0: [], 1: [], 3: []}
    for suit in range(3):
        pool = [c for c in rest if _suit(c) == suit]
        rng.shuffle(pool)
        for seat in others:
            for _ in range(tops[suit]):
                others[seat].append(pool.pop())
    left = [c for c in rest if not any(c in held for held in others.values())]
    rng.shuffle(left)
    for held in others.values():
        while len(held) < 13:
            held.append(left.pop())
    hands = [others[0], others[1], south, others[3]]
    # East deals, so South bids first and leads the first trick.
    state = HandState.from_hands(RULES, hands, dealer=1)
    _bid_all(state, {})
    for card in sorted(south, key=lambda c: (_suit(c), -c)):
        if DECK.is_trump(card):
            continue
        state.apply(card)
        for _ in range(3):
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
            positions, _ = _playout((4, seed, attempt))
            candidates = [p for p in positions if fits(p)]
            return _rng("pick", 4, seed, attempt).choice(candidates) if candidates else None

        state = _search(seed, find)

    def why(card: Card) -> str:
        if not DECK.is_trump(card):
            return "a suit other than spades may always be led"
        if state.spades_broken:
            return "spades are broken, so spades may be led"
        return "with only spades in your hand, spades may be led before they are broken"

    return _legal_cards_exercise(
        4, seed, state, "It is your lead. Pick every card you may lead.", why
    )


# ------------------------------------------------------------------ bidding (5)


def _bidding_position(seed: int, attempt: int) -> HandState:
    """A seeded deal bid by the table bots up to South's turn."""
    from spades.bots import make_bot

    rng = _rng("bid", seed, attempt)
    state = HandState.deal(RULES, dealer=rng.randrange(4), seed=rng.getrandbits(32))
    name = table_bot_name()
    drive(state, {seat: make_bot(name, seed=seed * 4 + seat) for seat in range(4) if seat != SOUTH})
    return state


def _lesson5(seed: int) -> Exercise:
    # The fixed first example is a hand worth a few tricks, where counting has something
    # to count; later seeds take whatever the deal gives.
    for attempt in range(8 if seed == 0 else 1):
        state = _bidding_position(seed, attempt)
        advice = hint(state.observation(SOUTH))
        if bid_of(advice.action) in (3, 4, 5):
            break
    expert = bid_of(advice.action)
    assert expert is not None, "South is to bid"
    legal = [b for a in state.legal_actions() if (b := bid_of(a)) is not None]
    if expert == 0:
        accepted = {0}
    else:
        accepted = {b for b in (expert - 1, expert, expert + 1) if b in legal and b > 0}
    said = f"The expert bot bids {bid_label(expert).capitalize()}."
    explanation = f"{said} {_sentence(advice.reason)}" if advice.reason else said
    earlier = [
        f"{SEAT_NAMES[s]} bid {bid_label(b)}" for s in range(4) if (b := state.bids[s]) is not None
    ]
    reasons = {}
    for b in legal:
        if b == 0:
            reasons[b] = "nil promises to take no trick at all, and this hand should take some"
        elif expert == 0:
            reasons[b] = "this hand can duck every trick, so the expert bids nil"
        else:
            reasons[b] = f"that is more than one trick away from {bid_label(expert).capitalize()}"
    return Exercise(
        lesson=5,
        seed=seed,
        kind="choice",
        prompt="How many tricks will this hand take? Pick your bid (within one of the "
        "expert counts as right).",
        options=tuple(Option(b, bid_label(b).capitalize()) for b in legal),
        answer=frozenset(accepted),
        explanation=explanation,
        reasons=reasons,
        hand=tuple(state.hand(SOUTH)),
        facts=tuple(earlier) or ("You bid first.",),
        position=state,
    )


# ------------------------------------------------------------------ nil (6)


def _protect_nil(seed: int) -> Exercise:
    def find(attempt: int) -> tuple[HandState, frozenset[int]] | None:
        positions, _ = _playout((6, seed, attempt), bids={NORTH: 0}, ducker=NORTH)
        for p in positions:
            if p.current_player != SOUTH or len(p.trick) != 3 or p.tricks_won[NORTH]:
                continue
            # The common case to learn: early in the hand, North had to follow suit high.
            north_card = p.trick[(NORTH - p.leader) % 4]
            if len(p.tricks) > 6 or _suit(north_card) != _suit(p.trick[0]):
                continue
            savers = frozenset(c for c in p.legal_actions() if _winner_after(p, c) != NORTH)
            if savers and len(savers) < len(p.legal_actions()):
                return p, savers
        return None

    state, savers = _search(seed, find)
    hand = tuple(state.hand(SOUTH))
    north_card = state.trick[(NORTH - state.leader) % 4]
    north = card_label(north_card)
    reasons: dict[int, str] = {}
    for card in hand:
        problem = refusal(state, card)
        if problem:
            reasons[card] = problem
        elif card in savers:
            reasons[card] = f"it beats North's {north}, so North takes no trick"
        else:
            reasons[card] = f"North's {north} would still win the trick and the nil would fail"
    return Exercise(
        lesson=6,
        seed=seed,
        kind="card",
        prompt=(
            f"Your partner North bid nil and is winning this trick with the {north}. "
            "You play last. Pick a card that saves the nil."
        ),
        options=_card_options(hand),
        answer=savers,
        explanation=(
            f"{_any_of(sorted(savers))} takes the trick from North. Protect a nil "
            "by playing over your partner's card; the cheapest card that does it is best."
        ),
        reasons=reasons,
        hand=hand,
        trick=tuple(((state.leader + i) % 4, c) for i, c in enumerate(state.trick)),
        facts=("North bid nil.", *_trick_facts(state)),
        position=state,
    )


def _any_of(cards: list[Card]) -> str:
    if len(cards) == 1:
        return f"Only the {card_label(cards[0])}"
    return f"Any of {_cards_labels(cards)}"


def _winner_after(state: HandState, card: Card) -> Seat:
    """Who wins the current trick when ``card`` completes it (the engine plays it)."""
    after = state.clone()
    after.apply(card)
    return after.tricks[-1].winner


def _blind_nil_allowed(seed: int) -> Exercise:
    rng = _rng("blind", seed)
    ours = rng.randrange(-15, 40) * 10
    gap = rng.choice((-80, -20, 0, 50, 90, 100, 110, 150, 240))
    theirs = ours + gap
    # East deals, so South is the first to bid and may still bid blind.
    state = HandState.deal(RULES, dealer=1, seed=rng.getrandbits(32), scores=(ours, theirs))
    allowed = BLIND_NIL in state.legal_actions()
    trail = (
        f"you trail by {gap}" if gap > 0 else "you are level" if gap == 0 else f"you lead by {-gap}"
    )
    needed = RULES.blind_nil_deficit
    if allowed:
        explanation = f"Blind nil needs your team to trail by {needed} or more, and {trail}."
        no_reason = f"{trail}, which is enough"
    else:
        explanation = f"{refusal(state, BLIND_NIL)}, and {trail}."
        no_reason = ""
    return Exercise(
        lesson=6,
        seed=seed,
        kind="choice",
        prompt=(
            f"Your team (North/South) has {ours} points and East/West {theirs}. "
            "You bid first. May you bid blind nil?"
        ),
        options=(Option(1, "Yes"), Option(0, "No")),
        answer=frozenset((int(allowed),)),
        explanation=_sentence(explanation),
        reasons={0: no_reason, 1: "" if allowed else f"{trail}, which is not enough"},
        facts=(f"Scores: North/South {ours}, East/West {theirs}.",),
        position=state,
        scores=(ours, theirs),
    )


def _nil_pays(seed: int) -> Exercise:
    rng = _rng("nil", seed)
    blind = rng.random() < 0.3
    taken = rng.choice((0, 0, 1, 2))
    partner_bid = rng.randint(2, 6)
    partner_taken = rng.randint(max(0, partner_bid - 2), partner_bid + 2)
    east = rng.randint(0, 13 - taken - partner_taken)
    case = ScoreCase(
        bids=(0, 3, partner_bid, 3),
        blind=(blind, False, False, False),
        tricks=(taken, east, partner_taken, 13 - taken - partner_taken - east),
    )
    team = score_hand(
        RULES, bids=case.bids, blind=case.blind, tricks=case.tricks, bags_before=(0, 0)
    ).teams[0]
    nil_line = next(line for line in team.lines if line.kind.startswith(("nil", "blind_nil")))
    name = bid_label(0, blind=blind)
    plural = "s" if taken != 1 else ""
    others = [f"{line.text} ({line.points:+d})" for line in team.lines if line is not nil_line]
    return Exercise(
        lesson=6,
        seed=seed,
        kind="choice",
        prompt=(
            f"North bid {name} and took {taken} trick{plural}; South bid {partner_bid} and "
            f"took {partner_taken}. What does North's {name} score?"
        ),
        options=tuple(Option(v, f"{v:+d}") for v in (100, -100, 200, -200)),
        answer=frozenset((nil_line.points,)),
        explanation=_sentence(
            f"{nil_line.text.capitalize()}: {nil_line.points:+d}. South is scored on its "
            f"own: {'; '.join(others) or 'nothing else'}"
        ),
        reasons={
            v: f"a {'blind ' if abs(v) == 200 else ''}nil is worth ±{abs(v)}"
            for v in (100, -100, 200, -200)
        },
        facts=(
            f"North: {name}, {taken} taken.",
            f"South: bid {partner_bid}, {partner_taken} taken.",
        ),
        case=case,
    )


def _lesson6(seed: int) -> Exercise:
    return (_protect_nil, _blind_nil_allowed, _nil_pays)[seed % 3](seed)


# ------------------------------------------------------------------ scoring (7, 8)


def _split13(rng: random.Random) -> tuple[int, int, int, int]:
    cuts = sorted(rng.randint(0, 13) for _ in range(3))
    parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    return parts[0], parts[1], parts[2], parts[3]


def _lesson7(seed: int) -> Exercise:
    rng = _rng("score", seed)
    if seed == 0:
        tricks, bids = (4, 3, 5, 1), [3, 3, 4, 2]
    else:
        tricks = _split13(rng)
        bids = [max(1, t + rng.choice((-2, -1, 0, 0, 1, 2))) for t in tricks]
        # One seed in three has a nil at North/South.
        if seed % 3 == 2:
            bids[0] = 0
    case = ScoreCase(bids=(bids[0], bids[1], bids[2], bids[3]), blind=(False,) * 4, tricks=tricks)
    result = score_hand(
        RULES, bids=case.bids, blind=case.blind, tricks=case.tricks, bags_before=(0, 0)
    )
    ours = result.teams[0]
    slips: dict[int, str] = {}

    def slip(value: int, reason: str) -> None:
        if value != ours.points and value not in slips:
            slips[value] = reason

    if bids[0] == 0 and tricks[0]:
        counted = score_hand(
            RULES.replace(nil_tricks_count_toward_bid=True),
            bids=case.bids,
            blind=case.blind,
            tricks=case.tricks,
            bags_before=(0, 0),
        ).teams[0]
        slip(counted.points, "a nil bidder's tricks do not count toward the partner's bid")
    if ours.bags:
        slip(ours.points - ours.bags, "that leaves out the bags: each extra trick adds 1 point")
    if ours.made is True:
        slip(-ours.points, "the team took at least its bid, so it scores the contract")
    elif ours.made is False:
        slip(-ours.points, "the team took fewer tricks than it bid, so it is set")
    slip(
        10 * (tricks[0] + tricks[2]),
        "a set team scores nothing for its tricks"
        if ours.made is False
        else "only the tricks bid score 10 each",
    )
    for off in (10, -10, 20, -20):
        slip(ours.points + off, f"that is {abs(off)} too {'many' if off > 0 else 'few'}")
    # The first three slips are the telling ones; the round-offs only fill up.
    wrong = list(slips)[:3]
    choices = sorted([*wrong, ours.points])
    breakdown = "; ".join(f"{line.text} ({line.points:+d})" for line in ours.lines)

    def bid_text(seat: Seat) -> str:
        return f"{SEAT_NAMES[seat]} bid {bid_label(bids[seat])} and took {tricks[seat]}"

    return Exercise(
        lesson=7,
        seed=seed,
        kind="choice",
        prompt=(
            f"{bid_text(0)}; {bid_text(2)}. No bags are on the count. "
            "How many points does your team (North/South) score this hand?"
        ),
        options=tuple(Option(v, f"{v:+d}") for v in choices),
        answer=frozenset((ours.points,)),
        explanation=_sentence(f"{ours.points:+d} in all: {breakdown}"),
        reasons={v: slips.get(v, "") for v in choices},
        facts=(f"The other side: {bid_text(1)}; {bid_text(3)}.",),
        case=case,
    )


def _bags_exercise(seed: int) -> Exercise:
    rng = _rng("bags", seed)
    before = 7 if seed == 0 else rng.randint(0, 9)
    new = 4 if seed == 0 else rng.randint(0, 6)
    penalty, after = apply_bag_penalty(RULES, before, new)
    total = before + new
    limit = RULES.bag_limit
    assert limit is not None
    outcomes = sorted(
        {
            (penalty, after),
            (0, total),
            (RULES.bag_penalty, total % limit),
            (0, total % limit),
            (RULES.bag_penalty, total),
        }
    )

    def describe(option: tuple[int, int]) -> str:
        lost = f"−{option[0]} points" if option[0] else "No penalty"
        return f"{lost}, {option[1]} bag{'s' if option[1] != 1 else ''} on the count"

    if penalty:
        why = (
            f"{before} + {new} = {total} bags reach {limit}: −{penalty} points, and "
            f"{total - after} bags come off the count, leaving {after}"
        )
    else:
        why = f"{before} + {new} = {total} bags stay under {limit}: no penalty yet"
    return Exercise(
        lesson=8,
        seed=seed,
        kind="choice",
        prompt=(
            f"Your team has {before} bag{'s' if before != 1 else ''} on the count and takes "
            f"{new} more this hand. What happens?"
        ),
        options=tuple(Option(i, describe(o)) for i, o in enumerate(outcomes)),
        answer=frozenset((outcomes.index((penalty, after)),)),
        explanation=_sentence(why),
        reasons={i: _bag_slip(o, total, limit) for i, o in enumerate(outcomes)},
        bags=(before, new),
    )


def _bag_slip(option: tuple[int, int], total: int, limit: int) -> str:
    """What a wrong bag outcome overlooks."""
    penalty, left = option
    if penalty and total < limit:
        return f"the penalty comes only when the count reaches {limit}"
    if not penalty and total >= limit:
        return f"{total} bags reach {limit}, so the penalty is due"
    if left >= limit:
        return f"with the penalty, {limit} bags come off the count"
    return f"the count goes up by every bag taken, to {total}"


_END_CASES: Final = (
    (520, 380),
    (310, 150),
    (540, 560),
    (-210, 90),
    (-230, -250),
    (470, 490),
    (180, 505),
    (120, -200),
)


def _end_exercise(seed: int) -> Exercise:
    # The first seeds walk through the fixed cases (one of each ending); later ones are
    # random scores, most of which play on.
    index = seed // 2
    if index < len(_END_CASES):
        scores = _END_CASES[index]
    else:
        rng = _rng("end", seed)
        scores = (rng.randrange(-26, 60) * 10, rng.randrange(-26, 60) * 10)
    outcome = match_outcome(RULES, scores)
    value = 2 if not outcome.over or outcome.winner is None else outcome.winner
    why = outcome.reason or (
        f"Neither team has reached {RULES.target_score} or fallen to {RULES.mercy_score}"
    )
    if not outcome.over:
        why += ", so another hand is dealt"
    return Exercise(
        lesson=8,
        seed=seed,
        kind="choice",
        prompt=(
            f"After a hand the scores are North/South {scores[0]}, East/West {scores[1]}. "
            "What happens?"
        ),
        options=(
            Option(0, "North/South win"),
            Option(1, "East/West win"),
            Option(2, "Another hand is played"),
        ),
        answer=frozenset((value,)),
        explanation=_sentence(why),
        reasons={},
        facts=(f"Target {RULES.target_score}, mercy {RULES.mercy_score}.",),
        scores=scores,
    )


def _lesson8(seed: int) -> Exercise:
    return (_bags_exercise, _end_exercise)[seed % 2](seed)


_MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {
    1: _lesson1,
    2: _lesson2,
    3: _lesson3,
    4: _lesson4,
    5: _lesson5,
    6: _lesson6,
    7: _lesson7,
    8: _lesson8,
}


def make_exercise(lesson_no: int, seed: int) -> Exercise:
    """Exercise ``seed`` of a lesson (1 to 8). Seed 0 is the fixed first example."""
    if lesson_no not in _MAKERS:
        raise ValueError(f"lesson {lesson_no} has no exercises (lessons 1 to 8 do)")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"an exercise seed is an int of 0 or more, not {seed!r}")
    return _MAKERS[lesson_no](seed)


def exercise_seed(base: int, lesson_no: int, index: int) -> int:
    """The seed of the ``index``-th exercise of a lesson in a session started with ``base``.

    The first exercise is always seed 0, the fixed example; the rest vary with ``base``.
    """
    if index == 0:
        return 0
    return 1 + _rng("session", base, lesson_no, index).getrandbits(31)


# ------------------------------------------------------------------ practice hand (9)

TABLE_BOTS: Final = ("standard", "expert", "basic")


def table_bot_name() -> str:
    """The bot that sits at the other seats of the practice hand: strong and quick."""
    from spades.bots import bot_names

    names = bot_names()
    for name in TABLE_BOTS:
        if name in names:
            return name
    raise LookupError(f"no table bot is registered (looked for {', '.join(TABLE_BOTS)})")


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision of the learner in the practice hand, beside the expert's advice."""

    trick: int
    action: Action
    advice: Hint

    @property
    def agreed(self) -> bool:
        """Whether the learner chose what the expert chose."""
        return self.action == self.advice.action


class PracticeHand:
    """One hand with the learner at South and bots at the other seats.

    Every action goes through the engine; before each of the learner's actions the
    expert's advice is taken, so that a different choice can be explained.
    """

    def __init__(self, seed: int, *, table_bot: str | None = None) -> None:
        from spades.bots import make_bot

        rng = _rng("practice", seed)
        self.seed = seed
        self.state = HandState.deal(RULES, dealer=rng.randrange(4), seed=rng.getrandbits(32))
        level = table_bot or table_bot_name()
        self.bots = {seat: make_bot(level, seed=seed * 4 + seat) for seat in (0, 1, 3)}
        self.turns: list[Turn] = []
        self.note = ""
        self._advice: tuple[int, Hint] | None = None
        self._bots_act()

    def _bots_act(self) -> None:
        drive(self.state, self.bots)

    @property
    def is_over(self) -> bool:
        """Whether the hand has been played out."""
        return self.state.is_over

    def observation(self) -> Observation:
        """What the learner sees now."""
        return self.state.observation(SOUTH)

    def advice(self) -> Hint:
        """The expert's choice for the learner's turn, worked out once per turn."""
        if self.state.current_player != SOUTH:
            raise ValueError("it is not your turn")
        turn = len(self.state.history)
        if self._advice is None or self._advice[0] != turn:
            self._advice = (turn, hint(self.observation()))
        return self._advice[1]

    def act(self, action: Action) -> str:
        """Apply the learner's action (or raise ``IllegalAction``), let the bots reply,
        and return the one-line note when the expert would have chosen otherwise."""
        self.state.verify(action)
        advice = self.advice()
        trick = len(self.state.tricks) + 1 if self.state.phase is Phase.PLAYING else 0
        self.state.apply(action)
        turn = Turn(trick, action, advice)
        self.turns.append(turn)
        self.note = "" if turn.agreed else _differs(self.state, turn)
        self._bots_act()
        return self.note

    def review(self) -> list[str]:
        """The end-of-hand review: bids against tricks, the points, and the choices that
        differed from the expert's."""
        result = self.state.result()
        bids, won = self.state.bids, self.state.tricks_won
        lines = [
            f"You bid {bid_label(bids[SOUTH])} and took {won[SOUTH]}; "
            f"North bid {bid_label(bids[NORTH])} and took {won[NORTH]}."
        ]
        for team, name in ((0, "Your team"), (1, "East/West")):
            tally = result.teams[team]
            detail = "; ".join(f"{line.text} ({line.points:+d})" for line in tally.lines)
            lines.append(f"{name}: {tally.points:+d} points ({detail or 'nothing'}).")
        agreed = sum(turn.agreed for turn in self.turns)
        lines.append(f"You chose as the expert would in {agreed} of {len(self.turns)} decisions.")
        lines += [_differs(self.state, turn) for turn in self.turns if not turn.agreed]
        return lines


def _differs(state: HandState, turn: Turn) -> str:
    where = f"Trick {turn.trick}" if turn.trick else "Bid"
    said = (
        f"{where}: you chose to {state.describe(turn.action)}; "
        f"the expert would {state.describe(turn.advice.action)}."
    )
    return f"{said} {_sentence(turn.advice.reason)}" if turn.advice.reason else said


# ------------------------------------------------------------------ progress and course


@dataclass(slots=True)
class Progress:
    """Lessons done and exercises right, counted per lesson."""

    right: dict[int, int] = field(default_factory=dict)
    first_try: dict[int, int] = field(default_factory=dict)
    tried: dict[int, int] = field(default_factory=dict)
    done: set[int] = field(default_factory=set)

    def record(self, lesson_no: int, *, correct: bool, first_attempt: bool) -> None:
        """Count an answer; a lesson is done after ``EXERCISES_TO_PASS`` right answers."""
        if first_attempt:
            self.tried[lesson_no] = self.tried.get(lesson_no, 0) + 1
            if correct:
                self.first_try[lesson_no] = self.first_try.get(lesson_no, 0) + 1
        if correct:
            self.right[lesson_no] = self.right.get(lesson_no, 0) + 1
            if self.right[lesson_no] >= EXERCISES_TO_PASS:
                self.done.add(lesson_no)

    def complete(self, lesson_no: int) -> None:
        """Mark a lesson done (the practice hand, once it is played out)."""
        self.done.add(lesson_no)

    @property
    def finished(self) -> bool:
        """Whether every lesson is done."""
        return all(item.number in self.done for item in LESSONS)

    def first_try_totals(self) -> tuple[int, int]:
        """(exercises right on the first try, exercises tried) over all lessons."""
        return sum(self.first_try.values()), sum(self.tried.values())


class Course:
    """A learner's way through the tutorial: the lesson open, its current exercise, the
    answer being built, the last feedback, the practice hand, and the progress."""

    def __init__(self, base_seed: int) -> None:
        self.base_seed = base_seed
        self.progress = Progress()
        self.lesson_no = 0
        self.index = 0
        self.exercise: Exercise | None = None
        self.picked: set[int] = set()
        self.feedback: Feedback | None = None
        self.attempts = 0
        self.solved = False
        self.practice: PracticeHand | None = None
        self.practice_count = 0
        # The next exercise index of each lesson, so that a lesson opened again goes on
        # with a fresh exercise instead of the ones already seen.
        self._next: dict[int, int] = {}
        self.go(1)

    @property
    def lesson(self) -> Lesson:
        """The lesson open now."""
        return lesson(self.lesson_no)

    def go(self, lesson_no: int) -> None:
        """Open a lesson: at its fixed first example the first time, and at a fresh
        exercise when it is opened again. The lesson already open stays as it is."""
        lesson(lesson_no)
        if lesson_no == self.lesson_no:
            return
        self.lesson_no = lesson_no
        self.index = self._next.get(lesson_no, 0)
        if self.lesson.is_practice:
            self.exercise = None
            self._reset_answer()
            if self.practice is None:
                self.new_practice()
        else:
            self._load()

    def _load(self) -> None:
        seed = exercise_seed(self.base_seed, self.lesson_no, self.index)
        self.exercise = make_exercise(self.lesson_no, seed)
        self._next[self.lesson_no] = self.index + 1
        self._reset_answer()

    def _reset_answer(self) -> None:
        self.picked = set()
        self.feedback = None
        self.attempts = 0
        self.solved = False

    def next_exercise(self) -> None:
        """Move on to a fresh exercise of the same lesson."""
        self.index += 1
        self._load()

    def toggle(self, value: int) -> None:
        """Add or remove a card from the answer being built (``"cards"`` exercises).

        A value that is not an option (a click left over from another exercise) is ignored.
        """
        if self.solved or self.exercise is None:
            return
        if value not in {option.value for option in self.exercise.options}:
            return
        self.picked ^= {value}
        self.feedback = None

    def answer(self, value: int | None = None) -> Feedback:
        """Check ``value`` (or, for ``"cards"``, the picked set) and record it.

        Raises ``ValueError`` for a value that is not an option of this exercise, and
        then records nothing.
        """
        exercise = self.exercise
        if exercise is None:
            raise ValueError("the practice hand has no exercise to answer")
        if self.solved:
            assert self.feedback is not None
            return self.feedback
        feedback = exercise.check(self.picked if value is None else value)
        self.progress.record(
            self.lesson_no, correct=feedback.correct, first_attempt=self.attempts == 0
        )
        self.attempts += 1
        self.solved = feedback.correct
        self.feedback = feedback
        return feedback

    def new_practice(self) -> None:
        """Deal a practice hand: the first is the fixed example, later ones vary."""
        seed = exercise_seed(self.base_seed, PRACTICE_LESSON, self.practice_count)
        self.practice_count += 1
        self.practice = PracticeHand(seed)

    def practice_act(self, action: Action) -> str:
        """Play the learner's action in the practice hand; the lesson is done when the
        hand is over."""
        if self.practice is None:
            raise ValueError("no practice hand is dealt")
        note = self.practice.act(action)
        if self.practice.is_over:
            self.progress.complete(PRACTICE_LESSON)
        return note
