"""How long the server takes to rerun the Play page after a human click.

Drives the page with Streamlit's AppTest: each sample is one click on a legal bid or card
and the page run that follows, with the store writing every action to a SQLite file. The
bots' moves happen between samples (their pacing is the player's choice, not rerun time).
A second series uses the ``instant`` pace, where the click's rerun also includes the bots'
replies up to the human's next turn.

    python benchmarks/play_rerun.py [--clicks 300] [--bots standard]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "play.py")


def _enabled(at: AppTest, prefix: str) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith(prefix) and not b.disabled]


def _human_click_key(at: AppTest) -> str | None:
    keys = {b.key for b in at.button if b.key and not b.disabled}
    if "next_hand" in keys:
        return "next_hand"
    if "look" in keys:
        return "look"
    bids = [k for k in _enabled(at, "bid_") if k != "bid_blind_nil"]
    if bids:
        return bids[len(bids) // 2]
    cards = _enabled(at, "card_")
    return cards[0] if cards else None


def measure(clicks: int, bots: str, pace: str) -> list[float]:
    """Seconds of each click's rerun."""
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.run()
    at.radio(key="speed").set_value(pace)
    for key in ("bot_N", "bot_E", "bot_W"):
        at.selectbox(key=key).set_value(bots)
    at.button(key="new_game").click().run()
    samples: list[float] = []
    while len(samples) < clicks:
        controller = at.session_state["play_controller"]
        if controller.match.is_over:
            at.button(key="new_game").click().run()
            continue
        if controller.busy:
            # The bots' turns: played out between samples, as the timer would.
            controller.run_bots()
            at.run()
            continue
        key = _human_click_key(at)
        if key is None:
            raise RuntimeError("no human action is available on the page")
        button = at.button(key=key).click()
        start = time.perf_counter()
        button.run()
        elapsed = time.perf_counter() - start
        if at.exception:
            raise RuntimeError(str(at.exception))
        if key != "next_hand":
            samples.append(elapsed)
    return samples


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "clicks": len(ordered),
        "median_ms": round(1000 * statistics.median(ordered), 1),
        "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
        "max_ms": round(1000 * ordered[-1], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--bots", default="standard")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["SPADES_DB_URL"] = f"sqlite:///{Path(folder) / 'bench.db'}"
        paced = summary(measure(args.clicks, args.bots, "normal"))
        instant = summary(measure(args.clicks // 3, args.bots, "instant"))
    print(
        json.dumps(
            {
                "python": platform.python_version(),
                "machine": platform.machine(),
                "bots": args.bots,
                "click_rerun": paced,
                "click_rerun_with_instant_bots": instant,
            },
            indent=2,
        )
    )
    return 0 if paced["median_ms"] <= 100 and paced["p95_ms"] <= 250 else 1


if __name__ == "__main__":
    sys.exit(main())
