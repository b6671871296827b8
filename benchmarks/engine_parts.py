"""Where a checked random hand spends its time: the deal, the four bids, the 52 cards
through ``legal_actions``/``apply``, and the scored result.

    python benchmarks/engine_parts.py [--number 3000]

Prints the best of three timings of each part in microseconds, as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import timeit
from collections.abc import Callable

from spades.engine.rules import Rules
from spades.engine.state import HandState


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=3000)
    args = parser.parse_args()
    rules = Rules()
    rng = random.Random(0)

    def deal() -> HandState:
        return HandState.deal(rules, dealer=1, seed=5)

    def deal_and_bid() -> HandState:
        hand = deal()
        for _ in range(4):
            legal = hand.legal_actions()
            hand.apply(legal[int(rng.random() * len(legal))])
        return hand

    bidden = deal_and_bid()

    def play() -> HandState:
        hand = bidden.clone()
        legal = hand.legal_actions()
        while legal:
            hand.apply(legal[int(rng.random() * len(legal))])
            legal = hand.legal_actions()
        return hand

    played = play()

    def best(func: Callable[[], object]) -> float:
        runs = timeit.repeat(func, number=args.number, repeat=3)
        return round(min(runs) / float(args.number) * 1e6, 1)

    deal_us = best(deal)
    print(
        json.dumps(
            {
                "deal_us": deal_us,
                "bids_us": round(best(deal_and_bid) - deal_us, 1),
                "clone_us": best(bidden.clone),
                "cards_us": round(best(play) - best(bidden.clone), 1),
                "result_us": best(played.result),
            }
        )
    )


if __name__ == "__main__":
    main()
