"""Exercises about the auction (lessons 5 and 6): what a hand is worth, protecting a
partner's nil, when blind nil may be bid, and what a nil scores.

The expert bot gives the bid to compare with, the engine says which bids and cards are
allowed and who wins a trick, and its scoring gives a nil's points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from spades.app.seats import bot_seats
from spades.bots.drive import drive
from spades.bots.hint import hint
from spades.engine.cards import (
    BLIND_NIL,
    NORTH,
    SEAT_NAMES,
    SOUTH,
    Card,
    Seat,
    bid_action,
    bid_label,
    bid_of,
    card_action,
    card_label,
)
from spades.engine.scoring import nil_worth
from spades.engine.state import HandState

from .positions import RULES, playout, refusal, search, seeded_rng, suit_of, table_bot_name
from .questions import (
    Exercise,
    Option,
    ScoreCase,
    card_options,
    cards_labels,
    sentence,
    trick_facts,
)
from .views import exercise_table

# ------------------------------------------------------------------ bidding (5)


def _bidding_position(seed: int, attempt: int) -> HandState:
    """A seeded deal bid by the table bots up to South's turn."""
    from spades.bots import bot_seed, make_bot

    rng = seeded_rng("bid", seed, attempt)
    state = HandState.deal(RULES, dealer=rng.randrange(RULES.players), seed=rng.getrandbits(32))
    name = table_bot_name()
    drive(state, {seat: make_bot(name, seed=bot_seed(seed, seat)) for seat in bot_seats(RULES)})
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
    explanation = f"{said} {sentence(advice.reason)}" if advice.reason else said
    earlier = [
        f"{SEAT_NAMES[s]} bid {bid_label(b)}"
        for s in RULES.seats
        if (b := state.bids[s]) is not None
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
        table=exercise_table(state, answers=map(bid_action, legal)),
    )


# ------------------------------------------------------------------ nil (6)


def _protect_nil(seed: int) -> Exercise:
    def find(attempt: int) -> tuple[HandState, frozenset[int]] | None:
        positions, _ = playout((6, seed, attempt), bids={NORTH: 0}, ducker=NORTH)
        for p in positions:
            if p.current_player != SOUTH or len(p.trick) != 3 or p.tricks_won[NORTH]:
                continue
            # The common case to learn: early in the hand, North had to follow suit high.
            north_card = dict(p.trick_plays)[NORTH]
            if len(p.tricks) > 6 or suit_of(north_card) != suit_of(p.trick[0]):
                continue
            savers = frozenset(c for c in p.legal_actions() if _winner_after(p, c) != NORTH)
            if savers and len(savers) < len(p.legal_actions()):
                return p, savers
        return None

    state, savers = search(seed, find)
    hand = tuple(state.hand(SOUTH))
    north_card = dict(state.trick_plays)[NORTH]
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
        options=card_options(hand),
        answer=savers,
        explanation=(
            f"{_any_of(sorted(savers))} takes the trick from North. Protect a nil "
            "by playing over your partner's card; the cheapest card that does it is best."
        ),
        reasons=reasons,
        hand=hand,
        trick=state.trick_plays,
        facts=("North bid nil.", *trick_facts(state)),
        position=state,
        table=exercise_table(state, answers=map(card_action, hand)),
    )


def _any_of(cards: list[Card]) -> str:
    if len(cards) == 1:
        return f"Only the {card_label(cards[0])}"
    return f"Any of {cards_labels(cards)}"


def _winner_after(state: HandState, card: Card) -> Seat:
    """Who wins the current trick when ``card`` completes it (the engine plays it)."""
    after = state.clone()
    after.apply(card)
    return after.tricks[-1].winner


def _blind_nil_allowed(seed: int) -> Exercise:
    rng = seeded_rng("blind", seed)
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
        explanation=sentence(explanation),
        reasons={0: no_reason, 1: "" if allowed else f"{trail}, which is not enough"},
        facts=(f"Scores: North/South {ours}, East/West {theirs}.",),
        position=state,
        scores=(ours, theirs),
    )


def _nil_pays(seed: int) -> Exercise:
    rng = seeded_rng("nil", seed)
    blind = rng.random() < 0.3
    taken = rng.choice((0, 0, 1, 2))
    partner_bid = rng.randint(2, 6)
    partner_taken = rng.randint(max(0, partner_bid - 2), partner_bid + 2)
    east = rng.randint(0, RULES.hand_size - taken - partner_taken)
    case = ScoreCase(
        bids=(0, 3, partner_bid, 3),
        blind=(blind, False, False, False),
        tricks=(taken, east, partner_taken, RULES.hand_size - taken - partner_taken - east),
    )
    team = case.score(RULES).teams[0]
    nil_line = next(line for line in team.lines if line.kind.startswith(("nil", "blind_nil")))
    plain_value, blind_value = nil_worth(RULES), nil_worth(RULES, blind=True)
    values = (plain_value, -plain_value, blind_value, -blind_value)
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
        options=tuple(Option(v, f"{v:+d}") for v in values),
        answer=frozenset((nil_line.points,)),
        explanation=sentence(
            f"{nil_line.text.capitalize()}: {nil_line.points:+d}. South is scored on its "
            f"own: {'; '.join(others) or 'nothing else'}"
        ),
        reasons={
            v: f"a {'blind ' if abs(v) == blind_value else ''}nil is worth ±{abs(v)}"
            for v in values
        },
        facts=(
            f"North: {name}, {taken} taken.",
            f"South: bid {partner_bid}, {partner_taken} taken.",
        ),
        case=case,
    )


def _lesson6(seed: int) -> Exercise:
    return (_protect_nil, _blind_nil_allowed, _nil_pays)[seed % 3](seed)


#: The exercise maker of each lesson here, by lesson number.
MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {5: _lesson5, 6: _lesson6}
