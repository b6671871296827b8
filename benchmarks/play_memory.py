"""The app server's memory with ten games in play at once.

Starts ``streamlit run`` on a free port with a fresh SQLite store (``browser_clock.serve``),
opens ten browser sessions in Debian's Chromium (one context each, so ten separate games),
bids and plays a few cards in each, and reports the server's resident memory (VmRSS, and its
peak VmHWM).

    python benchmarks/play_memory.py [--sessions 10] [--cards 3]
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from browser_clock import CHROMIUM, LAUNCH_ARGS, WAIT, memory_mb, serve
from playwright.sync_api import Page, expect, sync_playwright


def _play(page: Page, cards: int) -> None:
    """Bid (looking at the cards first if asked), then play ``cards`` cards."""
    status = page.locator(".st-key-status")
    for _ in range(cards + 2):
        expect(status).to_contain_text("Your turn", timeout=WAIT)
        look = page.locator(".st-key-look button:enabled:visible")
        bids = page.locator(".st-key-bids button:enabled:visible")
        if look.count():
            look.click()
            expect(page.locator(".st-key-look")).to_have_count(0, timeout=WAIT)
        elif bids.count():
            bids.nth(bids.count() // 2).click()
            expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)
        else:
            card = page.locator("[class*='st-key-card_'] button:visible:enabled").first
            holder = card.locator("xpath=ancestor::*[contains(@class, 'st-key-card_')][1]")
            key = re.findall(r"st-key-card_\w+", holder.get_attribute("class") or "")[0]
            card.click()
            expect(page.locator(f".{key}")).to_have_count(0, timeout=WAIT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--cards", type=int, default=3)
    args = parser.parse_args(argv)
    with serve() as server, sync_playwright() as playwright:
        idle = memory_mb(server.pid)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        pages = []
        for _ in range(args.sessions):
            page = browser.new_context().new_page()
            page.goto(server.url)
            expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
            page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
            pages.append(page)
        for page in pages:
            _play(page, args.cards)
        busy = memory_mb(server.pid)
        browser.close()
    print(
        json.dumps(
            {"sessions": args.sessions, "server_idle_mb": idle, "server_with_games_mb": busy},
            indent=2,
        )
    )
    return 0 if busy["VmRSS"] < 400 else 1


if __name__ == "__main__":
    sys.exit(main())
