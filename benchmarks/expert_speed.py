"""Expert decision time and memory, at its default settings or at the options given.

Positions come from seeded matches (expert and standard partnerships against each other,
or with ``--players`` a cutthroat table where the expert and standard bots alternate
seats); every expert decision in them is timed, then a sample of them is run again under
tracemalloc for the memory one decision adds.

    python benchmarks/expert_speed.py --matches 4 --seed 1
    python benchmarks/expert_speed.py --matches 2 --seed 1 --options '{"rollout": "random"}'
    python benchmarks/expert_speed.py --matches 4 --seed 1 --players 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
import tracemalloc
from typing import Any

from spades.bots import bot_seed, make_bot
from spades.engine.cards import is_card
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(
    matches: int, seed: int, options: dict[str, Any], players: int | None = None
) -> dict[str, Any]:
    rules = Rules() if players is None else Rules(players=players, partnerships=False)
    plays: list[float] = []
    bids: list[float] = []
    kept: list[Observation] = []
    for index in range(matches):
        match_seed = seed + index
        pair = ["expert", "standard"] if index % 2 == 0 else ["standard", "expert"]
        names = (pair * 2)[: rules.players]
        bots = [
            make_bot(name, seed=bot_seed(match_seed, seat), **(options if name == "expert" else {}))
            for seat, name in enumerate(names)
        ]
        match = Match(rules, seed=match_seed)
        while not match.is_over and len(match.finished) < 40:
            seat = match.current_player
            assert seat is not None
            obs = match.hand.observation(seat)
            start = time.perf_counter()
            action = bots[seat].act(obs)
            elapsed = time.perf_counter() - start
            if names[seat] == "expert":
                (plays if is_card(action) else bids).append(elapsed)
                if len(kept) < 60 and len(plays) % 7 == 1:
                    kept.append(obs)
            match.apply(action)
    probe = make_bot("expert", seed=0, **options)
    peaks = []
    for obs in kept:
        tracemalloc.start()
        probe.act(obs)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    every = plays + bids
    ms = 1000.0
    return {
        "machine": f"{platform.machine()} {os.cpu_count()} cores, Python "
        f"{platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "options": options,
        "game": rules.game,
        "players": rules.players,
        "decisions": len(every),
        "p50_ms": round(_quantile(every, 0.5) * ms, 1),
        "p95_ms": round(_quantile(every, 0.95) * ms, 1),
        "max_ms": round(max(every) * ms, 1),
        "play_p50_ms": round(_quantile(plays, 0.5) * ms, 1),
        "play_p95_ms": round(_quantile(plays, 0.95) * ms, 1),
        "bid_p50_ms": round(_quantile(bids, 0.5) * ms, 1),
        "bid_p95_ms": round(_quantile(bids, 0.95) * ms, 1),
        "memory_peak_per_decision_mb": round(max(peaks) / 2**20, 2),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", default="{}", help="expert options as JSON")
    parser.add_argument(
        "--players", type=int, choices=(3, 4), help="a cutthroat table of this many players"
    )
    args = parser.parse_args()
    print(json.dumps(run(args.matches, args.seed, json.loads(args.options), args.players)))


if __name__ == "__main__":
    main()
