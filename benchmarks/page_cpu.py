"""What the Play page costs the browser and the server in CPU: a first load, and a hand.

Starts the app (see ``browser_clock.serve``) and Debian's Chromium. Each round opens the
Play page in a new browser context (a new visitor: nothing cached) and waits until its
run is done; then, for the hand, it picks the instant pace, bids and plays thirteen
cards, each the first playable one, waiting for it to leave the hand. It reports the CPU
time of Chromium's processes and of the server for the load and for the hand.

    python benchmarks/page_cpu.py [--rounds 3] [--device desktop|phone]
        [--arg=--some-chromium-switch ...] [--css "selector { ... }"]

``--arg`` adds a switch to Chromium's command line and ``--css`` a stylesheet to the page
(after its load), to see what a change would save: ``--css "* { background-image: none
!important }"`` draws no card faces and no felt. ``--keep-profile`` keeps one browser
profile for every round instead of a new context each.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from browser_clock import CHROMIUM, DEVICES, LAUNCH_ARGS, SETTLED_JS, WAIT, cpu_seconds, serve
from playwright.sync_api import Page, sync_playwright

TICKS = os.sysconf("SC_CLK_TCK")
CARDS = ".st-key-hand [class*='st-key-card_'] button:enabled:visible"
#: A card button's key: the class of the container Streamlit keys it by.
KEY_OF = """button => [...button.closest("[class*='st-key-card_']").classList]
  .find(name => name.startsWith("st-key-card_"))"""
YOUR_TURN = """() => (document.querySelector(".st-key-status")?.textContent || "")
  .includes("Your turn")"""


def chromium_seconds() -> float:
    """The CPU seconds of every Chromium process running now."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if CHROMIUM.rsplit("/", 1)[1] not in (entry / "cmdline").read_bytes().decode(
                errors="replace"
            ):
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICKS


def _settled(page: Page) -> None:
    page.wait_for_function(SETTLED_JS, timeout=WAIT, polling=50)


def _instant(page: Page, phone: bool) -> None:
    """Pick the instant pace in the sidebar (opened for it, and closed again, on a phone)."""
    if phone:
        page.get_by_test_id("stExpandSidebarButton").click()
    page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
    _settled(page)
    if phone:
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()


def _hand(page: Page) -> None:
    """Bid, then play the first playable card thirteen times."""
    page.locator(".st-key-bids button:enabled:visible").nth(3).click()
    for _ in range(13):
        page.wait_for_function(YOUR_TURN, timeout=WAIT)
        card = page.locator(CARDS).first
        key = str(card.evaluate(KEY_OF))
        card.click()
        page.wait_for_function("key => !document.querySelector('.' + key)", arg=key, timeout=WAIT)


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
    options = parser.parse_args()
    rows: dict[str, list[float]] = {
        key: [] for key in ("load", "load server", "hand", "hand server")
    }
    launch: dict[str, Any] = {"executable_path": CHROMIUM, "args": [*LAUNCH_ARGS, *options.arg]}
    looks: dict[str, Any] = {"reduced_motion": "reduce", **DEVICES[options.device]}
    with (
        serve() as server,
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory(prefix="spades-profile-") as profile,
    ):
        browser = playwright.chromium.launch(**launch)
        kept = (
            playwright.chromium.launch_persistent_context(profile, **launch, **looks)
            if options.keep_profile
            else None
        )
        for round_ in range(options.rounds):
            context = kept or browser.new_context(**looks)
            context.clear_cookies()
            page = context.new_page()
            before, served = chromium_seconds(), cpu_seconds(server.pid)
            page.goto(server.url)
            page.locator(".st-key-new_game").wait_for(timeout=WAIT)
            _settled(page)
            rows["load"].append(chromium_seconds() - before)
            rows["load server"].append(cpu_seconds(server.pid) - served)
            if options.css:
                page.add_style_tag(content=options.css)
            before, served, start = chromium_seconds(), cpu_seconds(server.pid), time.monotonic()
            _instant(page, phone=options.device == "phone")
            _hand(page)
            rows["hand"].append(chromium_seconds() - before)
            rows["hand server"].append(cpu_seconds(server.pid) - served)
            print(
                f"round {round_ + 1}: load {rows['load'][-1]:.2f} s Chromium,"
                f" {rows['load server'][-1]:.2f} s server; hand {rows['hand'][-1]:.2f} s"
                f" Chromium, {rows['hand server'][-1]:.2f} s server"
                f" ({time.monotonic() - start:.1f} s)"
            )
            page.close()
            if kept is None:
                context.close()
        if kept is not None:
            kept.close()
        browser.close()
    print(", ".join(f"{key} median {statistics.median(v):.2f} s" for key, v in rows.items()))


if __name__ == "__main__":
    main()
