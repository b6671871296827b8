"""Two people at one shared table, in Chromium: how soon a click is drawn at the clicker's
seat, and how soon the move shows at the other person's seat.

For each mode, starts the app with a fresh temporary store and makes a table through the
application layer: Ann (South, the creator) and Bob (North), a bot East and West, target
300. Each person is a browser context of its own holding their seat's cookie; both open
the table's page and play as humans would (a random legal card, a middle bid, the hand
summaries closed), each clicking as soon as their turn comes, until each has played
``--cards`` cards.

- click → drawn / confirmed, at the clicker's seat: the page's own clock, as on Play
  (``browser_clock.py``);
- click → visible at the other seat: each page notes the time of every click on a card or
  bid with the table version it had drawn, and the first frame in which it draws each new
  version (the table's news mark, ``.sp-news``). A move clicked on version v is visible at
  the other seat in its first frame that draws v + 1 or later. Both times are
  ``performance.timeOrigin + performance.now()`` of two pages of one browser on one
  machine, so the Python side times nothing.

The modes, run one after the other in each round (``--rounds``), so that each pair shares
the machine's load:

- ``news``: the server as players start it (``serve.py``): a page hears of a move through
  the tables' news stream;
- ``looks``: the app without the news route (``streamlit_app.py``): a page finds a move at
  its next look at the table, once a second.

    python benchmarks/table_clock.py [--cards 26] [--rounds 2] [--modes news,looks]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

from browser_clock import (
    CHROMIUM,
    CLOCK_JS,
    LAUNCH_ARGS,
    WAIT,
    Player,
    figures,
    latency,
    load_average,
    machine,
    markdown_table,
    ms,
    serve,
)
from playwright.async_api import Browser, BrowserContext, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from spades.app.tables import TableService
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store

MODES = {"news": "serve.py", "looks": "streamlit_app.py"}
#: Timed-out waits in a row before a person's series gives up.
RETRIES = 3

# Each click on a card or bid with the table version drawn at that moment, and the first
# frame drawing each version; times in ms since the epoch (see the module docstring).
VERSIONS_JS = """
(() => {
  if (window.top !== window || window.__versions) return;
  const seen = window.__versions = {drawn: [], clicks: []};
  const now = () => performance.timeOrigin + performance.now();
  const drawn = () => {
    const mark = document.querySelector(".sp-news");
    return mark ? Number(mark.dataset.version) : null;
  };
  let last = null;
  const frame = () => {
    const version = drawn();
    if (version !== null && version !== last) {
      last = version;
      seen.drawn.push({v: version, t: now()});
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.addEventListener("click", event => {
    const target = event.target instanceof Element ? event.target : null;
    const holder = target && target.closest("[class*='st-key-card_'], [class*='st-key-bid_']");
    const button = target && target.closest("button");
    if (!holder || !button || button.disabled) return;
    seen.clicks.push({v: drawn(), t: performance.timeOrigin + event.timeStamp});
  }, true);
})();
"""


def started_table(db_url: str) -> tuple[str, str, str]:
    """The table, started, with Ann and Bob seated; its id and their tokens."""
    store = Store(db_url, rater=RATER)
    service = TableService(store)
    ann, bob = store.new_player("Ann")[0], store.new_player("Bob")[0]
    rules = Rules(target_score=300, mercy_score=None)
    table_id, ann_token = service.create(ann, "Ann", rules, bot_level="random")
    bob_token = service.join(table_id, 0, bob, "Bob")
    service.start(table_id, ann_token, seed=random.randrange(10**6))
    store.close()
    return table_id, ann_token, bob_token


async def _seat(
    browser: Browser, url: str, table_id: str, token: str, seed: int
) -> tuple[Player, BrowserContext]:
    context = await browser.new_context(viewport={"width": 1366, "height": 900})
    await context.add_cookies([{"name": f"spades_seat_{table_id}", "value": token, "url": url}])
    await context.add_init_script(CLOCK_JS)
    await context.add_init_script(VERSIONS_JS)
    context.set_default_timeout(WAIT)
    page = await context.new_page()
    await page.goto(f"{url}/lobby?table={table_id}", timeout=WAIT)
    await page.locator(".st-key-status").wait_for(timeout=WAIT)
    return Player(page, touch=False, rng=random.Random(seed)), context


async def _play(player: Player, cards: int) -> None:
    """Play until ``cards`` cards are played; a wait that times out reloads the page (the
    seat survives it) and is reported under "stuck", three in a row end the series."""
    in_a_row = 0
    while player.cards < cards and in_a_row < RETRIES:
        try:
            await player.turn()
            in_a_row = 0
        except PlaywrightTimeout as err:
            in_a_row += 1
            await player.recover(err)
    await player.collect()


def _seen_at_other(clicks: list[dict[str, float]], drawn: list[dict[str, float]]) -> list[float]:
    """For each click made on version v, ms until the other page first drew v + 1 or later."""
    found = []
    for click in clicks:
        if click["v"] is None:
            continue
        later = [d["t"] for d in drawn if d["v"] >= click["v"] + 1 and d["t"] >= click["t"]]
        if later:
            found.append(min(later) - click["t"])
    return found


async def measure(browser: Browser, script: str, cards: int, seed: int) -> dict[str, Any]:
    with serve(script) as server:
        table_id, ann_token, bob_token = started_table(server.db_url)
        ann, ann_context = await _seat(browser, server.url, table_id, ann_token, seed)
        bob, bob_context = await _seat(browser, server.url, table_id, bob_token, seed + 1)
        started = time.monotonic()
        await asyncio.gather(_play(ann, cards), _play(bob, cards))
        wall = time.monotonic() - started
        versions = [await page.evaluate("() => window.__versions") for page in (ann.page, bob.page)]
        for context in (ann_context, bob_context):
            await context.close()
    other = _seen_at_other(versions[0]["clicks"], versions[1]["drawn"])
    other += _seen_at_other(versions[1]["clicks"], versions[0]["drawn"])
    cards_clicked = [rec for rec in ann.records + bob.records if rec["kind"] == "card"]
    return {
        "cards": ann.cards + bob.cards,
        "seconds": round(wall, 1),
        "card_drawn_ms": latency(cards_clicked, "drawn"),
        "card_confirmed_ms": latency(cards_clicked, "confirmed"),
        "visible_at_other_seat_ms": figures(other),
        "alerts": sorted(ann.alerts | bob.alerts),
        "stuck": ann.stuck + bob.stuck,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    modes = [mode for mode in args.modes.split(",") if mode]
    results: dict[str, list[dict[str, Any]]] = {mode: [] for mode in modes}
    load_start = load_average()
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for round_no in range(args.rounds):
            for mode in modes:
                found = await measure(browser, MODES[mode], args.cards, args.seed + round_no)
                results[mode].append(found)
                print(f"{mode} round {round_no + 1}: {json.dumps(found)}", file=sys.stderr)
        about = machine(browser)
        await browser.close()
    return {"machine": about, "load_start": load_start, "load_end": load_average(), **results}


def _row(mode: str, found: dict[str, Any]) -> list[str]:
    def cell(name: str) -> str:
        times = found[name]
        return f"{ms(times['median_ms'])} / {ms(times['p95_ms'])} (n={times['n']})"

    return [
        mode,
        str(found["cards"]),
        cell("card_drawn_ms"),
        cell("card_confirmed_ms"),
        cell("visible_at_other_seat_ms"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=26, help="cards each person plays")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--modes", default="news,looks")
    parser.add_argument("--seed", type=int, default=1)
    found = asyncio.run(run(parser.parse_args(argv)))
    print(json.dumps(found, indent=2))
    header = ["mode", "cards", "card drawn", "card confirmed", "move at the other seat"]
    rows = [_row(mode, r) for mode in found if mode in MODES for r in found[mode]]
    print(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
