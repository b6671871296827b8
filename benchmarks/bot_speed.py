"""Decision time of a bot: every decision of a few seeded hands, with the bot in all
four seats, timed one by one.

    python benchmarks/bot_speed.py standard --hands 20
"""

from __future__ import annotations

import argparse
import statistics
import time

from spades.bots import make_bot
from spades.engine.rules import Rules
from spades.engine.state import HandState


def decision_times(name: str, hands: int, seed: int) -> list[float]:
    """Seconds per decision over ``hands`` seeded hands, scores set so that blind nil
    is open in some of them."""
    bots = [make_bot(name, seed=seed + seat) for seat in range(4)]
    times: list[float] = []
    for i in range(hands):
        scores = ((0, 0), (0, 150), (200, 40))[i % 3]
        state = HandState.deal(Rules(), dealer=i % 4, seed=seed + i, scores=scores)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            observation = state.observation(seat)
            start = time.perf_counter()
            action = bots[seat].act(observation)
            times.append(time.perf_counter() - start)
            state.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bots", nargs="+", help="bot names, such as standard basic")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.bots:
        times = sorted(decision_times(name, args.hands, args.seed))
        p50 = statistics.median(times) * 1000
        p95 = times[int(0.95 * (len(times) - 1))] * 1000
        print(
            f"{name}: {len(times)} decisions, p50 {p50:.2f} ms, p95 {p95:.2f} ms, "
            f"max {times[-1] * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
