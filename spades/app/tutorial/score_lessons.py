"""Exercises about the score, in both kinds of game: a hand's points and the end of the
game in the partnership game (lessons 7 and 8, with bags and their penalty) and in
cutthroat for three (lesson 10).

Every answer is the engine's: its scoring for a hand's points, ``apply_bag_penalty`` for
the bags, and ``match_outcome`` for the end of the game. The learner sits South: with North
as partner in the partnership game, and in cutthroat among three players, with Left playing
after them and Right before, as on the Play page.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Final

from spades.app.seats import HUMAN_SEAT, seat_names
from spades.engine.cards import SEAT_NAMES, Seat, bid_label
from spades.engine.rules import Rules
from spades.engine.scoring import Outcome, apply_bag_penalty, bag_worth, match_outcome, trick_worth

from .positions import RULES, THREE_HANDED, seeded_rng
from .questions import Exercise, Option, ScoreCase, sentence


@dataclass(frozen=True, slots=True)
class _Game:
    """One kind of game as its exercises tell it: the rules and the lessons, the fixed
    examples the first seeds walk through, and the words that differ between the games."""

    rules: Rules
    score_lesson: int
    end_lesson: int
    key: str  # what the exercises' random sources are named after
    first_hand: tuple[tuple[int, ...], tuple[int, ...]]  # seed 0's bids and tricks
    end_cases: tuple[tuple[int, ...], ...]  # the first seeds' scores, one of each ending
    end_range: tuple[int, int]  # the later seeds' scores, in tens
    names: tuple[str, ...]  # each seat at the start of a sentence
    question: str  # how the learner's points are asked for
    made: str  # why a made bid does not lose its points
    set: str  # why a set does not win its points
    set_tricks: str  # why a set scores nothing for the tricks taken
    winners: tuple[str, ...]  # each side's win, as an option
    scores: str  # the running scores in words, filled in side by side
    end_fact: str  # what ends the game, filled in with the target


PARTNERSHIP: Final = _Game(
    rules=RULES,
    score_lesson=7,
    end_lesson=8,
    key="",
    first_hand=((3, 3, 4, 2), (4, 3, 5, 1)),
    end_cases=(
        (520, 380),
        (310, 150),
        (540, 560),
        (-210, 90),
        (-230, -250),
        (470, 490),
        (180, 505),
        (120, -200),
    ),
    end_range=(-26, 60),
    names=SEAT_NAMES,
    question="No bags are on the count. How many points does your team (North/South) score "
    "this hand?",
    made="the team took at least its bid, so it scores the contract",
    set="the team took fewer tricks than it bid, so it is set",
    set_tricks="a set team scores nothing for its tricks",
    winners=("North/South win", "East/West win"),
    scores="North/South {}, East/West {}",
    end_fact="Target {}, mercy {}.",
)
CUTTHROAT: Final = _Game(
    rules=THREE_HANDED,
    score_lesson=10,
    end_lesson=10,
    key="cutthroat-",
    first_hand=((5, 4, 6), (5, 4, 8)),
    end_cases=((520, 380, 505), (310, 150, 470), (530, 530, 490), (480, 495, 440)),
    end_range=(35, 60),
    names=(*seat_names(THREE_HANDED)[:HUMAN_SEAT], "You"),
    question="No bags are on your count. How many points do you score this hand?",
    made="you took at least your bid, so you score it",
    set="you took fewer tricks than you bid, so you are set",
    set_tricks="a set player scores nothing for their tricks",
    winners=("Left wins", "Right wins", "You win"),
    scores="Left {}, Right {} and you {}",
    end_fact="Target {}: once someone reaches it, the highest score wins.",
)


def _split(rng: random.Random, tricks: int, players: int) -> tuple[int, ...]:
    """The players' tricks, adding up to ``tricks``."""
    cuts = sorted(rng.randint(0, tricks) for _ in range(players - 1))
    return tuple(end - start for start, end in itertools.pairwise((0, *cuts, tricks)))


def _score_exercise(game: _Game, seed: int) -> Exercise:
    """How many points the learner's side scores in a hand, with the slips that lead to
    the wrong answers."""
    rules = game.rules
    rng = seeded_rng(f"{game.key}score", seed)
    mate = rules.partner(HUMAN_SEAT)
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    if seed == 0:
        bids, tricks = game.first_hand
    else:
        tricks = _split(rng, rules.hand_size, rules.players)
        bids = tuple(max(1, t + rng.choice((-2, -1, 0, 0, 1, 2))) for t in tricks)
        # One seed in three has a nil at the learner's partner.
        if mate is not None and seed % 3 == 2:
            bids = tuple(0 if seat == mate else bid for seat, bid in enumerate(bids))
    case = ScoreCase(bids, (False,) * rules.players, tricks)
    mine = rules.side_of(HUMAN_SEAT)
    ours = rules.sides()[mine]
    side = case.score(rules).sides[mine]
    trick, bag = trick_worth(rules), bag_worth(rules)
    slips: dict[int, str] = {}

    def slip(value: int, reason: str) -> None:
        if value != side.points and value not in slips:
            slips[value] = reason

    if mate is not None and bids[mate] == 0 and tricks[mate]:
        counted = case.score(rules.replace(nil_tricks_count_toward_bid=True))
        slip(
            counted.sides[mine].points,
            "a nil bidder's tricks do not count toward the partner's bid",
        )
    if side.bags:
        slip(
            side.points - side.bags * bag,
            f"that leaves out the bags: each extra trick adds {bag} point{'s' if bag != 1 else ''}",
        )
    if side.made is True:
        slip(-side.points, game.made)
    elif side.made is False:
        slip(-side.points, game.set)
    slip(
        trick * sum(tricks[seat] for seat in ours),
        game.set_tricks if side.made is False else f"only the tricks bid score {trick} each",
    )
    if mate is None:
        # With no partner, nobody else's tricks help: adding them in is the cutthroat slip.
        bid, taken = bids[HUMAN_SEAT], tricks[HUMAN_SEAT] + tricks[0]
        slip(
            trick * bid + bag * (taken - bid),
            f"{game.names[0]}'s tricks are {game.names[0]}'s alone",
        )
    for off in (trick, -trick, 2 * trick):
        slip(side.points + off, f"that is {abs(off)} too {'many' if off > 0 else 'few'}")
    # The first three slips are the telling ones; the round-offs only fill up.
    choices = sorted([*list(slips)[:3], side.points])
    breakdown = "; ".join(f"{line.text} ({line.points:+d})" for line in side.lines)

    def told(seats: tuple[Seat, ...]) -> str:
        return "; ".join(
            f"{game.names[seat]} bid {bid_label(bids[seat])} and took {tricks[seat]}"
            for seat in seats
        )

    others = told(tuple(seat for seat in rules.seats if seat not in ours))
    if mate is not None:
        facts: tuple[str, ...] = (f"The other side: {others}.",)
    else:
        facts = (f"{others}.", f"Three players share {rules.hand_size} tricks.")
    return Exercise(
        lesson=game.score_lesson,
        seed=seed,
        kind="choice",
        prompt=f"{told(ours)}. {game.question}",
        options=tuple(Option(v, f"{v:+d}") for v in choices),
        answer=frozenset((side.points,)),
        explanation=sentence(f"{side.points:+d} in all: {breakdown}"),
        reasons={v: slips.get(v, "") for v in choices},
        facts=facts,
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
        lesson=PARTNERSHIP.end_lesson,
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


def _end_exercise(game: _Game, seed: int) -> Exercise:
    """Whether the game ends after a hand, and who wins."""
    rules = game.rules
    # The first seeds walk through the fixed cases (one of each ending); later ones are
    # random scores, most of which play on.
    index = seed // 2
    scores: tuple[int, ...]
    if index < len(game.end_cases):
        scores = game.end_cases[index]
    else:
        rng = seeded_rng(f"{game.key}end", seed)
        scores = tuple(rng.randrange(*game.end_range) * 10 for _ in game.winners)
    outcome = match_outcome(rules, scores)
    another = len(game.winners)
    value = another if not outcome.over or outcome.winner is None else outcome.winner
    return Exercise(
        lesson=game.end_lesson,
        seed=seed,
        kind="choice",
        prompt=f"After a hand the scores are {game.scores.format(*scores)}. What happens?",
        options=(
            *(Option(side, label) for side, label in enumerate(game.winners)),
            Option(another, "Another hand is played"),
        ),
        answer=frozenset((value,)),
        explanation=sentence(_end_reason(game, outcome, scores)),
        reasons={},
        facts=(game.end_fact.format(rules.target_score, rules.mercy_score),),
        scores=scores,
    )


def _end_reason(game: _Game, outcome: Outcome, scores: tuple[int, ...]) -> str:
    """Why the game ends or goes on: the engine's reason where it names the teams, and in
    cutthroat, where it names seats, the same in the players' names."""
    rules = game.rules
    if rules.partnerships:
        why = outcome.reason or (
            f"Neither team has reached {rules.target_score} or fallen to {rules.mercy_score}"
        )
        return why if outcome.over else f"{why}, so another hand is dealt"
    if not outcome.over or outcome.winner is None:
        top = max(scores)
        if top < rules.target_score:
            return f"Nobody has reached {rules.target_score}, so another hand is dealt"
        return f"The leaders are level at {top}, so another hand is played"
    winner = game.winners[outcome.winner]
    return f"{winner} with the highest score, {scores[outcome.winner]}"


def _bags_or_end(seed: int) -> Exercise:
    """Lesson 8's exercises: the bags on even seeds, the end of the game on odd ones."""
    return _bags_exercise(seed) if seed % 2 == 0 else _end_exercise(PARTNERSHIP, seed)


def _points_or_end(game: _Game, seed: int) -> Exercise:
    """A lesson on both the points and the end: the points on even seeds, the end on odd."""
    return (_score_exercise, _end_exercise)[seed % 2](game, seed)


#: The exercise maker of each lesson here, by lesson number.
MAKERS: Final[dict[int, Callable[[int], Exercise]]] = {
    PARTNERSHIP.score_lesson: partial(_score_exercise, PARTNERSHIP),
    PARTNERSHIP.end_lesson: _bags_or_end,
    CUTTHROAT.score_lesson: partial(_points_or_end, CUTTHROAT),
}
