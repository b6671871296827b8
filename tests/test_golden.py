"""Golden seeded matches: random bots play a whole match from a fixed seed, and the
replay must end exactly where the stored record says (tests/golden/*.json)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from spades.bots import make_bot
from spades.match import Match
from spades.rules import Rules

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(GOLDEN.glob("match_*.json"))


def play_golden(rules: Rules, seed: int) -> Match:
    """A whole match between four seeded random bots."""
    bots = [make_bot("random", seed=seed * 4 + seat) for seat in range(4)]
    match = Match(rules, seed=seed)
    while not match.is_over:
        seat = match.current_player
        assert seat is not None
        match.apply(bots[seat].act(match.hand.observation(seat)))
    return match


def summary(match: Match) -> dict[str, Any]:
    return {
        "hands": len(match.finished),
        "scores": list(match.scores),
        "bags": list(match.bags),
        "winner": match.winner,
        "score_history": [list(s) for s in match.score_history()],
        "actions": len(match.history),
        "actions_sha256": hashlib.sha256(json.dumps(match.history).encode()).hexdigest(),
    }


def test_there_are_golden_matches() -> None:
    assert len(CASES) >= 2


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_match_replays_to_the_stored_result(path: Path) -> None:
    golden = json.loads(path.read_text())
    rules = Rules.from_dict(golden["rules"])
    match = play_golden(rules, golden["seed"])
    assert summary(match) == golden["expected"]
    replayed = Match.replay(rules, seed=golden["seed"], actions=match.history)
    assert summary(replayed) == golden["expected"]
