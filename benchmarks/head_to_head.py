"""Quick duplicate head-to-head of two bots, for tuning (the arena gives the official
figures): every match seed is played twice with the teams swapping seats.

    python benchmarks/head_to_head.py standard basic --matches 100 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math

from spades.cli import play_match
from spades.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--matches", type=int, default=100, help="deals (each played twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="{}", help="house rules as a JSON object")
    args = parser.parse_args()
    rules = Rules.from_dict(json.loads(args.rules))
    wins = games = 0
    margin = 0
    for i in range(args.matches):
        seed = args.seed * 100_000 + i
        for a_team, seats in ((0, [args.a, args.b] * 2), (1, [args.b, args.a] * 2)):
            match = play_match(rules, seed, seats)
            games += 1
            wins += match.winner == a_team
            margin += match.scores[a_team] - match.scores[1 - a_team]
    rate = wins / games
    half = 1.96 * math.sqrt(rate * (1 - rate) / games)
    print(
        f"{args.a} vs {args.b}: {wins}/{games} matches = {rate:.1%} ± {half:.1%}, "
        f"mean final margin {margin / games:+.0f}"
    )


if __name__ == "__main__":
    main()
