"""What the Play page costs the browser and the server in CPU: a first load, and a hand.

Starts the app (see ``browser_clock.serve``) and Debian's Chromium. Each round opens the
Play page in a new browser context (a new visitor: nothing cached) and waits until its
run is done; then, for the hand, it picks the instant pace and plays the human's turns
as ``browser_clock.Player`` does (without its in-page clock), until thirteen cards are
played. It reports the CPU time of Chromium's processes and of the server for the load
and for the hand.

    python benchmarks/page_cpu.py [--rounds 3] [--device desktop|phone]
        [--arg=--some-chromium-switch ...] [--css "selector { ... }"]

``--arg`` adds a switch to Chromium's command line and ``--css`` a stylesheet to the page
(after its load), to see what a change would save: ``--css "* { background-image: none
!important }"`` draws no card faces and no felt. ``--keep-profile`` keeps one browser
profile for every round instead of a new context each.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from browser_clock import (
    CHROMIUM,
    DEVICES,
    LAUNCH_ARGS,
    SETTLED_JS,
    WAIT,
    Player,
    cpu_seconds,
    serve,
)
from playwright.async_api import async_playwright

TICKS = os.sysconf("SC_CLK_TCK")
ROWS = ("load", "load server", "hand", "hand server")


def chromium_seconds() -> float:
    """The CPU seconds of every Chromium process running now."""
    name = CHROMIUM.rsplit("/", 1)[1]
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if name not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


async def run(options: argparse.Namespace) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = {key: [] for key in ROWS}
    launch: dict[str, Any] = {"executable_path": CHROMIUM, "args": [*LAUNCH_ARGS, *options.arg]}
    looks: dict[str, Any] = {"reduced_motion": "reduce", **DEVICES[options.device]}
    with serve() as server, tempfile.TemporaryDirectory(prefix="spades-profile-") as profile:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(**launch)
            kept = (
                await playwright.chromium.launch_persistent_context(profile, **launch, **looks)
                if options.keep_profile
                else None
            )
            for round_ in range(options.rounds):
                context = kept or await browser.new_context(**looks)
                await context.clear_cookies()
                page = await context.new_page()
                before, served = chromium_seconds(), cpu_seconds(server.pid)
                await page.goto(server.url, timeout=WAIT)
                await page.locator(".st-key-new_game").first.wait_for(timeout=WAIT)
                await page.wait_for_function(SETTLED_JS, timeout=WAIT)
                rows["load"].append(chromium_seconds() - before)
                rows["load server"].append(cpu_seconds(server.pid) - served)
                if options.css:
                    await page.add_style_tag(content=options.css)
                # Clicks, not taps, on the phone too: this counts CPU, and the phone's
                # player waits a person's reaction time between taps.
                player = Player(page, touch=False, rng=random.Random(round_))
                before, served, start = (
                    chromium_seconds(),
                    cpu_seconds(server.pid),
                    time.monotonic(),
                )
                await player.set_speed("instant")
                while player.cards < 13:
                    await player.turn()
                rows["hand"].append(chromium_seconds() - before)
                rows["hand server"].append(cpu_seconds(server.pid) - served)
                print(
                    f"round {round_ + 1}: load {rows['load'][-1]:.2f} s Chromium,"
                    f" {rows['load server'][-1]:.2f} s server; hand {rows['hand'][-1]:.2f} s"
                    f" Chromium, {rows['hand server'][-1]:.2f} s server"
                    f" ({time.monotonic() - start:.1f} s)"
                )
                await page.close()
                if kept is None:
                    await context.close()
            if kept is not None:
                await kept.close()
            await browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--device", choices=sorted(DEVICES), default="desktop")
    parser.add_argument("--arg", action="append", default=[], help="a Chromium switch")
    parser.add_argument("--css", help="a stylesheet added to the page")
    parser.add_argument(
        "--keep-profile",
        action="store_true",
        help="one browser profile kept on disk for every round (a new page and no cookies"
        " each round), so Chromium may reuse what it compiled",
    )
    rows = asyncio.run(run(parser.parse_args()))
    print(", ".join(f"{key} median {statistics.median(v):.2f} s" for key, v in rows.items()))


if __name__ == "__main__":
    main()
