"""Exercises about the score (lessons 7 and 8): a hand's points, bags and their penalty,
and when the game ends.

Every answer is the engine's: ``score_hand`` for a hand's points, ``apply_bag_penalty``
for the bags, and ``match_outcome`` for the end of the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from spades.engine.cards import SEAT_NAMES, Seat, bid_label
from spades.engine.scoring import apply_bag_penalty, match_outcome, score_hand

from .positions import RULES, seeded_rng
from .questions import Exercise, Option, ScoreCase, sentence


def _split13(rng: random.Random) -> tuple[int, int, int, int]:
    cuts = sorted(rng.randint(0, RULES.hand_size) for _ in range(3))
    parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], RULES.hand_size - cuts[2]]
    return parts[0], parts[1], parts[2], parts[3]


def _lesson7(seed: int) -> Exercise:
    rng = seeded_rng("score", seed)
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
        explanation=sentence(f"{ours.points:+d} in all: {breakdown}"),
        reasons={v: slips.get(v, "") for v in choices},
        facts=(f"The other side: {bid_text(1)}; {bid_text(3)}.",),
        case=case,
    )


def _bags_exercise(seed: int) -> Exercise:
    rng = seeded_rng("bags", seed)
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
        explanation=sentence(why),
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
        rng = seeded_rng("end", seed)
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
        explanation=sentence(why),
        reasons={},
        facts=(f"Target {RULES.target_score}, mercy {RULES.mercy_score}.",),
        scores=scores,
    )


def _lesson8(seed: int) -> Exercise:
    return (_bags_exercise, _end_exercise)[seed % 2](seed)


#: The exercise maker of each lesson here, by lesson number.
MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {7: _lesson7, 8: _lesson8}
