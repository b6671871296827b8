"""Exercises about cutthroat (lesson 10): a three-handed player's points, and who wins.

The learner sits South among three players, with Left playing after them and Right
before, as on the Play page. Every answer is the engine's: ``score_players`` for the
points and ``match_outcome`` for the end of the game, under the three-handed rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from spades.app.seats import HUMAN_SEAT, seat_names
from spades.engine.cards import bid_label
from spades.engine.rules import Rules
from spades.engine.scoring import match_outcome, score_players

from .positions import seeded_rng
from .questions import Exercise, Option, sentence

CUTTHROAT_LESSON: Final = 10
THREE: Final = Rules(players=3, partnerships=False)
#: The seats' names in the exercises' words: Left, Right and you.
NAMES: Final = (*seat_names(THREE)[:HUMAN_SEAT], "you")


def _split(rng: random.Random, tricks: int) -> tuple[int, int, int]:
    """Three players' tricks adding up to ``tricks``."""
    cuts = sorted(rng.randint(0, tricks) for _ in range(2))
    return cuts[0], cuts[1] - cuts[0], tricks - cuts[1]


def _score_exercise(seed: int) -> Exercise:
    rng = seeded_rng("cutthroat-score", seed)
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    if seed == 0:
        bids, tricks = (5, 4, 6), (5, 4, 8)
    else:
        tricks = _split(rng, THREE.hand_size)
        bids = tuple(max(1, t + rng.choice((-2, -1, 0, 0, 1, 2))) for t in tricks)
    blind = (False,) * 3
    result = score_players(THREE, bids=bids, blind=blind, tricks=tricks, bags_before=(0, 0, 0))
    mine = result.players[HUMAN_SEAT]
    slips: dict[int, str] = {}

    def slip(value: int, reason: str) -> None:
        if value != mine.points and value not in slips:
            slips[value] = reason

    if mine.bags:
        slip(mine.points - mine.bags, "that leaves out the bags: each extra trick adds 1 point")
    if mine.made is True:
        slip(-mine.points, "you took at least your bid, so you score it")
    elif mine.made is False:
        slip(-mine.points, "you took fewer tricks than you bid, so you are set")
    slip(
        10 * tricks[HUMAN_SEAT],
        "a set player scores nothing for their tricks"
        if mine.made is False
        else "only the tricks bid score 10 each",
    )
    # With no partner, nobody else's tricks help: adding them in is the cutthroat slip.
    team = tricks[HUMAN_SEAT] + tricks[0]
    slip(10 * bids[HUMAN_SEAT] + team - bids[HUMAN_SEAT], "Left's tricks are Left's alone")
    for off in (10, -10, 20):
        slip(mine.points + off, f"that is {abs(off)} too {'many' if off > 0 else 'few'}")
    choices = sorted([*list(slips)[:3], mine.points])
    breakdown = "; ".join(f"{line.text} ({line.points:+d})" for line in mine.lines)
    told = [
        f"{NAMES[seat].capitalize()} bid {bid_label(bids[seat])} and took {tricks[seat]}"
        for seat in (HUMAN_SEAT, 0, 1)
    ]
    return Exercise(
        lesson=CUTTHROAT_LESSON,
        seed=seed,
        kind="choice",
        prompt=f"{told[0]}. No bags are on your count. How many points do you score this hand?",
        options=tuple(Option(v, f"{v:+d}") for v in choices),
        answer=frozenset((mine.points,)),
        explanation=sentence(f"{mine.points:+d} in all: {breakdown}"),
        reasons={v: slips.get(v, "") for v in choices},
        facts=(f"{told[1]}; {told[2]}.", f"Three players share {THREE.hand_size} tricks."),
    )


#: The first seeds' scores, one of each ending; later seeds are random.
_END_CASES: Final = ((520, 380, 505), (310, 150, 470), (530, 530, 490), (480, 495, 440))
_ANOTHER_HAND: Final = 3


def _end_exercise(seed: int) -> Exercise:
    index = seed // 2
    scores: tuple[int, ...]
    if index < len(_END_CASES):
        scores = _END_CASES[index]
    else:
        rng = seeded_rng("cutthroat-end", seed)
        scores = tuple(rng.randrange(35, 60) * 10 for _ in THREE.seats)
    outcome = match_outcome(THREE, scores)
    value = _ANOTHER_HAND if not outcome.over or outcome.winner is None else outcome.winner
    if value == _ANOTHER_HAND:
        top = max(scores)
        why = (
            f"Nobody has reached {THREE.target_score}, so another hand is dealt"
            if top < THREE.target_score
            else f"The leaders are level at {top}, so another hand is played"
        )
    else:
        who = "You win" if value == HUMAN_SEAT else f"{NAMES[value]} wins"
        why = f"{who} with the highest score, {scores[value]}"
    return Exercise(
        lesson=CUTTHROAT_LESSON,
        seed=seed,
        kind="choice",
        prompt=(
            f"After a hand the scores are Left {scores[0]}, Right {scores[1]} and you "
            f"{scores[HUMAN_SEAT]}. What happens?"
        ),
        options=(
            Option(0, "Left wins"),
            Option(1, "Right wins"),
            Option(HUMAN_SEAT, "You win"),
            Option(_ANOTHER_HAND, "Another hand is played"),
        ),
        answer=frozenset((value,)),
        explanation=sentence(why),
        reasons={},
        facts=(f"Target {THREE.target_score}: once someone reaches it, the highest score wins.",),
        scores=scores,
    )


def _lesson10(seed: int) -> Exercise:
    return (_score_exercise, _end_exercise)[seed % 2](seed)


#: The exercise maker of the lesson here, by lesson number.
MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {CUTTHROAT_LESSON: _lesson10}
