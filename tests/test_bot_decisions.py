"""The decisions of every bot level on seeded hands, checked in as text: what each bot
bids, passes and plays in hands of the partnership game and of cutthroat for three and
for four, dealt from fixed seeds with varied scores and bags (so that blind nil, the
exchange and the end of the match come into the bots' choices).

A change of any bot's behaviour shows as a diff of tests/golden/bot_decisions/<level>.txt.
When a change is meant, write the files again and read their diff before committing it:

    SPADES_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_bot_decisions.py

The expert searches with a small budget of work a decision (the search is the same, its
sample counts smaller), and plays fewer hands, so that the test stays quick.
"""

from __future__ import annotations

import difflib
import os
import random
from pathlib import Path
from typing import Any

import pytest

from spades.bots import make_bot
from spades.engine.cards import SEAT_LETTERS, action_card
from spades.engine.rules import Rules
from spades.engine.state import HandState

GOLDEN = Path(__file__).parent / "golden" / "bot_decisions"
#: Set to write the golden files from the bots instead of checking them.
REGEN_ENV = "SPADES_REGEN_GOLDEN"
DIFF_LINES = 80

#: The partnership game by the book, and with the blind-nil exchange and the jokers.
PARTNERSHIP = (Rules(), Rules(blind_nil_exchange=True, jokers=True))
#: Cutthroat for three (the 2♣ set aside) and for four.
CUTTHROAT = (Rules(players=3, partnerships=False), Rules(partnerships=False))
#: Each level's bot options and its number of hands of each game.
LEVELS: dict[str, tuple[dict[str, Any], int]] = {
    "random": ({}, 100),
    "basic": ({}, 100),
    "standard": ({}, 100),
    "expert": ({"time_budget": 0.001}, 20),
}
#: The expert's other rollouts (uniformly random playouts), in the partnership game only.
RANDOM_ROLLOUT_HANDS = 6


def hand_text(level: str, options: dict[str, Any], rules: Rules, seed: int) -> list[str]:
    """The lines of one seeded hand played by four (or three) bots of ``level``: the deal's
    circumstances, the bidding and exchange, and the tricks as played."""
    rng = random.Random(f"bot-decisions:{seed}")
    sides = 2 if rules.partnerships else rules.players
    scores = tuple(rng.randrange(-150, 460, 10) for _ in range(sides))
    bags = tuple(rng.randrange(10) for _ in range(sides))
    dealer = rng.randrange(rules.players)
    hand = HandState.deal(rules, dealer=dealer, seed=seed, scores=scores, bags=bags)
    bots = {seat: make_bot(level, seed=seed * 4 + seat, **options) for seat in range(rules.players)}
    calls: list[str] = []
    plays: list[str] = []
    while not hand.is_over:
        seat = hand.current_player
        assert seat is not None
        action = bots[seat].act(hand.observation(seat))
        card = action_card(action)
        if card is None:
            calls.append(f"{SEAT_LETTERS[seat]} {hand.describe(action)}")
        else:
            if not hand.trick:
                plays.append(f"| {SEAT_LETTERS[seat]}:")
            plays.append(hand.deck.label(card))
        hand.apply(action)
    scores_text = " ".join(map(str, scores))
    bags_text = " ".join(map(str, bags))
    return [
        f"{rules.game} for {rules.players}, seed {seed}: dealer {SEAT_LETTERS[dealer]},"
        f" scores {scores_text}, bags {bags_text}",
        "  " + "; ".join(calls),
        "  " + " ".join(plays)[2:],
        f"  tricks {' '.join(map(str, hand.tricks_won))}",
    ]


def level_text(level: str) -> str:
    """The text of every hand of ``level``: partnership hands, then cutthroat hands (the
    rule sets of each game taking turns)."""
    options, hands = LEVELS[level]
    lines: list[str] = []
    for games in (PARTNERSHIP, CUTTHROAT):
        for seed in range(hands):
            lines += hand_text(level, options, games[seed % len(games)], seed)
    if level == "expert":
        random_rollouts = {**options, "rollout": "random"}
        for seed in range(RANDOM_ROLLOUT_HANDS):
            lines += hand_text(level, random_rollouts, Rules(), 1000 + seed)
    return "\n".join(lines) + "\n"


def test_every_bot_level_has_its_decisions_checked_in() -> None:
    assert sorted(path.stem for path in GOLDEN.glob("*.txt")) == sorted(LEVELS)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_bots_decide_as_the_stored_text(level: str) -> None:
    text = level_text(level)
    path = GOLDEN / f"{level}.txt"
    if os.environ.get(REGEN_ENV):
        if os.environ.get("CI"):
            pytest.fail(f"{REGEN_ENV} is set: CI checks the golden files, it never writes them")
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    expected = path.read_text()
    if text == expected:
        return
    diff = list(
        difflib.unified_diff(
            expected.splitlines(), text.splitlines(), path.name, "the bots", lineterm=""
        )
    )
    more = f"\n... {len(diff) - DIFF_LINES} more lines" if len(diff) > DIFF_LINES else ""
    pytest.fail(
        f"the bots decide otherwise than {path.name}:\n"
        + "\n".join(diff[:DIFF_LINES])
        + f"{more}\nIf the change is meant, write the file again ({REGEN_ENV}=1) and review"
        " its diff.",
        pytrace=False,
    )
