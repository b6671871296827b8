"""Speed of the Explore pages over a large store, and of the bot lab filling it.

    python benchmarks/analytics_speed.py [--games 10000] [--players 1000] [--lab 1000] [--db PATH]

1. Fills a SQLite store with ``--games`` valid games: a pool of real matches (basic bots
   to 150 points, about 13 hands each, and random bots to 500) stored again and again
   under new ids, spread over 100 days. Every other day's games are people's, each owned
   by one of ``--players`` players in turn and rated as it is stored; the rest are the
   bot lab's.
2. In a fresh process, reruns each Explore page with Streamlit's AppTest, with the
   analytics cache emptied before each rerun (as after a new game is stored) and with it
   kept, and reports the process's peak memory.
3. Starts the bot lab storing ``--lab`` more matches in its worker process and reruns the
   Overview page meanwhile, with an empty cache each time (as after every stored chunk),
   against the same uncached reruns with the lab idle.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("overview", "explorer", "bids", "leaderboard", "bot_lab")
DAYS = 100
POOL_BASIC = 300
POOL_RANDOM = 100


def fill(url: str, games: int, people: int) -> dict[str, Any]:
    """Store ``games`` games built from a pool of real matches; returns the figures."""
    from spades.bots.drive import play_match
    from spades.engine.match import Match
    from spades.engine.rules import Rules
    from spades.stats.ratings import RATER
    from spades.store import Store

    start = time.perf_counter()
    pool: list[tuple[Match, str]] = [
        (play_match(Rules(target_score=150), seed, ["basic"] * 4), "basic")
        for seed in range(POOL_BASIC)
    ] + [(play_match(Rules(), seed, ["random"] * 4), "random") for seed in range(POOL_RANDOM)]
    played = time.perf_counter() - start
    store = Store(url, rater=RATER)
    owners = [store.new_player(f"Player {i}")[0] for i in range(people)]
    first_day = datetime(2026, 1, 1, 12, 0)
    per_day = max(games // DAYS, 1)
    stored = hands = actions = 0
    while stored < games:
        day = stored // per_day
        chunk = [pool[(stored + i) % len(pool)] for i in range(min(per_day, games - stored))]
        when = first_day + timedelta(days=day)
        if day % 2:
            store.save_matches(
                [
                    (m, ("North", "East", "South", "West"), dict.fromkeys(range(4), level))
                    for m, level in chunk
                ],
                kind="simulated",
                started_at=when,
            )
        for i, (match, level) in enumerate(chunk if day % 2 == 0 else ()):
            owner = owners[(stored + i) % people]
            store.save_matches(
                [(match, ("North", "East", "Player", "West"), {0: level, 1: level, 3: level})],
                kind="human",
                started_at=when,
                owner=owner,
            )
        stored += len(chunk)
        hands += sum(len(m.finished) for m, _ in chunk)
        actions += sum(len(m.history) for m, _ in chunk)
    store.close()
    return {
        "games": stored,
        "players": people,
        "hands": hands,
        "actions": actions,
        "pool_seconds": round(played, 1),
        "fill_seconds": round(time.perf_counter() - start, 1),
    }


def _timed_run(at: Any) -> float:
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"the page failed: {at.exception}")
    return elapsed


def measure(url: str, lab: int, reruns: int) -> dict[str, Any]:
    """AppTest timings of every page, peak memory, and the Overview during a lab run."""
    os.environ["SPADES_DB_URL"] = url
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from spades.app.lab import LabJob, LabSpec
    from spades.engine.rules import Rules

    def page(name: str) -> Any:
        at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=120)
        # My stats and the Explorer show a visitor's own games only: time them over every
        # stored game.
        for key in ("overview_bot_lab", "overview_others", "explorer_others"):
            at.session_state[key] = True
        return at

    # The first run of an AppTest scans the installed packages for components; that is
    # the test harness, not the page, so every page gets one untimed run first.
    figures: dict[str, Any] = {}
    for name in PAGES:
        at = page(name)
        at.run()
        uncached = []
        for _ in range(reruns):
            st.cache_data.clear()
            uncached.append(_timed_run(at))
        cached = [_timed_run(at) for _ in range(reruns)]
        figures[name] = {
            "uncached_median_s": round(statistics.median(uncached), 3),
            "uncached_max_s": round(max(uncached), 3),
            "cached_median_s": round(statistics.median(cached), 3),
            "cached_max_s": round(max(cached), 3),
        }
    figures["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    at = page("overview")
    at.run()
    idle = []
    for _ in range(reruns):
        st.cache_data.clear()
        idle.append(_timed_run(at))
    job = LabJob(url, LabSpec(("random",) * 4, Rules(), matches=lab, seed=10**6), owner="bench")
    during = []
    lab_start = time.perf_counter()
    while job.running:
        st.cache_data.clear()
        during.append(_timed_run(at))
    lab_seconds = time.perf_counter() - lab_start
    job.wait()
    figures["lab"] = {
        "matches": lab,
        "stored": job.done,
        "seconds": round(lab_seconds, 1),
        "overview_uncached_idle_median_s": round(statistics.median(idle), 3),
        "overview_reruns_during_lab": len(during),
        "overview_during_lab_median_s": round(statistics.median(during), 3) if during else None,
        "overview_during_lab_max_s": round(max(during), 3) if during else None,
    }
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--lab", type=int, default=1_000)
    parser.add_argument("--reruns", type=int, default=5)
    parser.add_argument("--db", type=Path, help="reuse (or create) this SQLite file")
    parser.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_only:
        print(json.dumps(measure(f"sqlite:///{args.db}", args.lab, args.reruns)))
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db or Path(scratch) / "bench.db"
        url = f"sqlite:///{db}"
        filled = (
            fill(url, args.games, args.players) if not db.exists() else {"games": "existing file"}
        )
        # A fresh process, so that its peak memory is the pages' and not the filling's.
        measured = subprocess.run(
            [
                sys.executable,
                __file__,
                "--measure-only",
                "--db",
                str(db),
                "--lab",
                str(args.lab),
                "--reruns",
                str(args.reruns),
            ],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        result = {
            "machine": f"{platform.machine()} {os.cpu_count()} cores, {platform.system()}",
            "python": platform.python_version(),
            "store": {**filled, "db_mb": round(db.stat().st_size / 2**20)},
            **json.loads(measured.stdout.strip().splitlines()[-1]),
        }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
