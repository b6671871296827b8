"""Checked random hands for an instruction count: the deal, ``legal_actions``/``apply`` to
the end and the scored result, as ``python -m spades bench`` plays them, after five
warm-up hands.

The wall clock of a shared machine cannot resolve a 1% change in the engine; an
instruction count can. Run the script under callgrind for two numbers of hands with the
hash seed fixed (dict and set layouts otherwise move the count by about 1%), and divide
the difference of the totals by the difference of the hands:

    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/engine_instructions.py 100
    PYTHONHASHSEED=0 valgrind --tool=callgrind python benchmarks/engine_instructions.py 300

Compile the tree first (``python -m compileall spades``) so that neither run counts it.
"""

from __future__ import annotations

import argparse
import random

from spades.engine.rules import Rules
from spades.engine.state import HandState

WARM_UP = 5


def play(hands: int) -> None:
    """Play ``hands`` checked random hands of the standard game after the warm-up ones."""
    rules = Rules()
    rng = random.Random(0)
    for number in range(-WARM_UP, hands):
        hand = HandState.deal(rules, dealer=number % 4, seed=number)
        legal = hand.legal_actions()
        while legal:
            hand.apply(legal[int(rng.random() * len(legal))])
            legal = hand.legal_actions()
        hand.result()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("hands", type=int, help="how many hands to count after the warm-up")
    play(parser.parse_args().hands)


if __name__ == "__main__":
    main()
