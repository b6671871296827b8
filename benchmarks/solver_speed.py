"""Double-dummy solve times by the number of tricks left, on random positions: seeded
deals bid and played with random legal cards until that many tricks remain, each then
solved from the trick boundary. Prints a Markdown table.

Times are CPU time of this process, so that other work on a shared machine inflates them
less than it would wall-clock time; the search is single-threaded, so on a quiet machine
the two agree.

    python benchmarks/solver_speed.py --positions 30 --tricks 3 4 5 6 7
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from spades.bots.solver import solve
from spades.engine.rules import Rules
from spades.engine.state import HandState, Phase


def position(seed: int, tricks_left: int) -> HandState:
    """A seeded deal, bid and played at random until ``tricks_left`` tricks remain."""
    rng = random.Random(seed)
    state = HandState.deal(Rules(), dealer=seed % 4, seed=seed)
    while state.phase is not Phase.PLAYING or 13 - len(state.tricks) > tricks_left:
        legal = state.legal_actions()
        state.apply(legal[int(rng.random() * len(legal))])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30, help="positions a row")
    parser.add_argument("--tricks", type=int, nargs="+", default=[3, 4, 5, 6, 7])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, seed {args.seed}"
    )
    print()
    print("| tricks left | positions | median ms | mean ms | p90 ms | max ms | median nodes |")
    print("|---|---|---|---|---|---|---|")
    for tricks in args.tricks:
        times: list[float] = []
        nodes: list[int] = []
        for index in range(args.positions):
            state = position(args.seed * 1000 + index, tricks)
            start = time.process_time()
            solution = solve(state)
            times.append(time.process_time() - start)
            nodes.append(solution.nodes)
        times.sort()
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(
            f"| {tricks} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
            f"{statistics.fmean(times) * 1000:.1f} | {p90 * 1000:.1f} | "
            f"{times[-1] * 1000:.1f} | {statistics.median(nodes):.0f} |"
        )


if __name__ == "__main__":
    main()
