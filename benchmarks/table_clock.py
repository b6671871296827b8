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
- click → shown at the other seat: each page notes the time of every click on a card, and
  the first frame in which each card shows in its trick area, however it came to be
  drawn (the news's own drawing, or the server's). Both times are
  ``performance.timeOrigin + performance.now()`` of two pages of one browser on one
  machine, so the Python side times nothing.

The modes, run one after the other in each round (``--rounds``), so that each pair shares
the machine's load:

- ``news``: the server as players start it (``serve.py``): a page hears of a move through
  the tables' news stream;
- ``looks``: the app without the news route (``streamlit_app.py``): a page finds a move at
  its next look at the table, once a second.

Each person plays the first card their page enables, as a person in a hurry would. A card
still in the hand ``--taken-within`` seconds after its click (10 by default) is a click not
taken: the person clicks it again, and the benchmark keeps what each page and the server
saw around it (``--trace FOLDER``: the page's clicks, runs and sent messages, and the
server's rerun requests, callbacks and moves, ``click_trace.py``).

``--busy N`` runs N busy loops beside the server and the browser for the whole
measurement. ``--db URL`` stores the table in that database (PostgreSQL), and
``--servers 2`` then puts Ann on one app server and Bob on another, sharing it.

    python benchmarks/table_clock.py [--cards 26] [--rounds 2] [--modes news,looks]
        [--busy 2] [--db postgresql+psycopg://…] [--servers 2] [--trace FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
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
from playwright.async_api import Browser, BrowserContext, Page, WebSocket, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout
from streamlit.proto.BackMsg_pb2 import BackMsg

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
  const seen = window.__versions = {drawn: [], clicks: [], cards: {}};
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
    // The first frame that shows each card in the trick, however it was drawn.
    for (const card of document.querySelectorAll(".st-key-trick [data-card]")) {
      const code = card.dataset.card;
      if (!(code in seen.cards) && card.checkVisibility()) seen.cards[code] = now();
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.addEventListener("click", event => {
    const target = event.target instanceof Element ? event.target : null;
    const holder = target && target.closest("[class*='st-key-card_'], [class*='st-key-bid_']");
    const button = target && target.closest("button");
    if (!holder || !button || button.disabled) return;
    const card = (holder.className.match(/st-key-card_(\\w+)/) || [])[1] || null;
    seen.clicks.push({v: drawn(), card, t: performance.timeOrigin + event.timeStamp});
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


#: What a page does with a click, for a click not taken: each click on a button (with the
#: page's run mark, news version and script state at that moment, and whether the page's
#: own listeners let it through to Streamlit), and each change of run mark or script state.
EVENTS_JS = """
(() => {
  if (window.top !== window || window.__events) return;
  const seen = window.__events = [];
  const now = () => performance.timeOrigin + performance.now();
  const page = () => {
    const run = document.querySelector(".sp-run"), news = document.querySelector(".sp-news");
    const app = document.querySelector("[data-testid='stApp']");
    return {run: run && run.dataset.run, hand: run && run.dataset.hand,
            version: news && Number(news.dataset.version),
            script: app && app.dataset.testScriptState,
            stale: document.querySelectorAll("[data-stale='true']").length};
  };
  const keyOf = (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const holder = target && target.closest("[class*='st-key-']");
    const found = holder && holder.className.match(/st-key-(\\w+)/);
    return {key: found && found[1], disabled: Boolean(target && target.closest("button:disabled")),
            detail: event.detail};
  };
  window.addEventListener("click", e => seen.push({ev: "click", t: now(), ...keyOf(e), ...page()}),
    true);
  // Reached the document's bubbling phase: no listener of the page swallowed it.
  document.addEventListener("click", e => seen.push({ev: "click passed", t: now(), ...keyOf(e)}));
  let last = "";
  const frame = () => {
    const at = page(), said = JSON.stringify([at.run, at.script, at.version]);
    if (said !== last) { last = said; seen.push({ev: "frame", t: now(), ...at}); }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""
#: Where the card's button still is: the keyed blocks around it, and whether it shows.
WHERE_JS = """key => [...document.querySelectorAll('.st-key-' + key)].map(e => {
  const keys = [];
  for (let up = e; up; up = up.parentElement) {
    const found = [...up.classList].find(c => c.startsWith('st-key-'));
    if (found) keys.push(found.slice(7));
  }
  const button = e.querySelector('button');
  return {keys, shown: e.checkVisibility({visibilityProperty: true}),
          stale: Boolean(e.closest('[data-stale="true"]')), disabled: button && button.disabled};
})"""
#: The server has taken the card ``key`` (``card_AS``): its own drawing of the trick shows
#: it at the page's seat, or it has left the hand with nothing of the page's own drawing
#: of a click still waiting (the trick may already have gone to its winner).
TAKEN_JS = """key => {
  const code = key.slice(5);
  if (document.querySelector(".st-key-trick [data-seat='S'][data-card='" + code + "']"
      + ":not([data-pending])")) return true;
  return !document.querySelector("[data-pending]") && ![...document
    .querySelectorAll(".st-key-" + key)].some(e => e.checkVisibility());
}"""
#: A card still in the hand this many seconds after its click was not taken.
TAKEN_WITHIN = 10.0
#: Milliseconds of a page's events kept before a click not taken.
BEFORE_MS = 3_000


@contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """``count`` processes that keep a core busy each, until the block ends."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def _sent(messages: list[dict[str, Any]]) -> Any:
    """Notes each rerun the page asks of the server: the fragment and the buttons pressed."""

    def watch(socket: WebSocket) -> None:
        def sent(payload: str | bytes) -> None:
            if isinstance(payload, str):
                return
            message = BackMsg.FromString(payload)
            if message.WhichOneof("type") != "rerun_script":
                return
            state = message.rerun_script
            pressed = [
                w.id.split("-", 2)[-1]
                for w in state.widget_states.widgets
                if w.WhichOneof("value") == "trigger_value" and w.trigger_value
            ]
            messages.append(
                {
                    "ev": "sent",
                    "t": time.time() * 1000,
                    "fragment": state.fragment_id[:8],
                    "pressed": pressed,
                }
            )

        socket.on("framesent", sent)

    return watch


class Person:
    """One person at the table: their page, the clicks it made and the ones not taken."""

    def __init__(self, player: Player, context: BrowserContext, name: str) -> None:
        self.player, self.context, self.name = player, context, name
        self.sent: list[dict[str, Any]] = []
        self.not_taken: list[dict[str, Any]] = []
        player.page.on("websocket", _sent(self.sent))

    @property
    def page(self) -> Page:
        return self.player.page

    async def turn(self) -> None:
        """Take the turn the page asks for: the first card it enables, or what else it asks
        (a bid, the summary), the way :meth:`Player.turn` does."""
        player = self.player
        found = await player.state()
        if found["state"] != "card":
            await player.turn()
            return
        key = found["choices"][0]
        player.cards += 1
        clicked = time.time() * 1000
        await player._press(f".st-key-{key}")
        gone = TAKEN_JS
        try:
            await self.page.wait_for_function(gone, arg=key, timeout=TAKEN_WITHIN * 1000)
        except PlaywrightTimeout:
            events = await self.page.evaluate("() => window.__events")
            where = await self.page.evaluate(WHERE_JS, key)
            self.not_taken.append(
                {
                    "who": self.name,
                    "card": key,
                    "where": where,
                    "clicked": clicked,
                    "page": [e for e in events if e["t"] >= clicked - BEFORE_MS],
                    "sent": [m for m in self.sent if m["t"] >= clicked - BEFORE_MS],
                }
            )
            # A person clicks again once they see the card is still there.
            if await self.page.locator(f".st-key-{key} button:enabled:visible").count():
                await player._press(f".st-key-{key}")
            await self.page.wait_for_function(gone, arg=key, timeout=WAIT)


async def _seat(
    browser: Browser, url: str, table_id: str, token: str, seed: int, name: str
) -> Person:
    context = await browser.new_context(viewport={"width": 1366, "height": 900})
    await context.add_cookies([{"name": f"spades_seat_{table_id}", "value": token, "url": url}])
    await context.add_init_script(CLOCK_JS)
    await context.add_init_script(VERSIONS_JS)
    await context.add_init_script(EVENTS_JS)
    context.set_default_timeout(WAIT)
    page = await context.new_page()
    person = Person(Player(page, touch=False, rng=random.Random(seed)), context, name)
    await page.goto(f"{url}/lobby?table={table_id}", timeout=WAIT)
    await page.locator(".st-key-status").wait_for(timeout=WAIT)
    return person


async def _play(person: Person, cards: int) -> None:
    """Play until ``cards`` cards are played; a wait that times out reloads the page (the
    seat survives it) and is reported under "stuck", three in a row end the series."""
    player = person.player
    in_a_row = 0
    while player.cards < cards and in_a_row < RETRIES:
        try:
            await person.turn()
            in_a_row = 0
        except PlaywrightTimeout as err:
            in_a_row += 1
            await player.recover(err)
    await player.collect()


def _seen_at_other(clicks: list[dict[str, Any]], cards: dict[str, float]) -> list[float]:
    """For each card clicked, ms until the other page first showed it in its trick."""
    return [
        cards[click["card"]] - click["t"]
        for click in clicks
        if click["card"] is not None and cards.get(click["card"], -1) >= click["t"]
    ]


async def measure(
    browser: Browser, args: argparse.Namespace, script: str, seed: int
) -> dict[str, Any]:
    """One series: a new table, Ann and Bob playing ``args.cards`` cards each."""
    trace = Path(args.trace) if args.trace else None
    with ExitStack() as stack:
        servers = []
        for number in range(args.servers):
            log = trace / f"server-{seed}-{number}.jsonl" if trace else None
            servers.append(stack.enter_context(serve(script, db_url=args.db, trace=log)))
        table_id, ann_token, bob_token = started_table(servers[0].db_url)
        bob_url = servers[-1].url
        stack.enter_context(busy_loops(args.busy))
        ann = await _seat(browser, servers[0].url, table_id, ann_token, seed, "Ann")
        bob = await _seat(browser, bob_url, table_id, bob_token, seed + 1, "Bob")
        started = time.monotonic()
        await asyncio.gather(_play(ann, args.cards), _play(bob, args.cards))
        wall = time.monotonic() - started
        versions = [await p.page.evaluate("() => window.__versions") for p in (ann, bob)]
        for person in (ann, bob):
            await person.context.close()
    other = _seen_at_other(versions[0]["clicks"], versions[1]["cards"])
    other += _seen_at_other(versions[1]["clicks"], versions[0]["cards"])
    players = (ann.player, bob.player)
    cards_clicked = [rec for p in players for rec in p.records if rec["kind"] == "card"]
    not_taken = ann.not_taken + bob.not_taken
    if trace is not None:
        (trace / f"pages-{seed}.json").write_text(
            json.dumps({"Ann": versions[0], "Bob": versions[1]})
        )
        if not_taken:
            (trace / f"not-taken-{seed}.json").write_text(json.dumps(not_taken, indent=1))
    return {
        "cards": sum(p.cards for p in players),
        "not_taken": [f"{c['who']} {c['card']}" for c in not_taken],
        "seconds": round(wall, 1),
        "card_drawn_ms": latency(cards_clicked, "drawn"),
        "card_confirmed_ms": latency(cards_clicked, "confirmed"),
        "visible_at_other_seat_ms": figures(other),
        "alerts": sorted(ann.player.alerts | bob.player.alerts),
        "stuck": ann.player.stuck + bob.player.stuck,
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    modes = [mode for mode in args.modes.split(",") if mode]
    results: dict[str, list[dict[str, Any]]] = {mode: [] for mode in modes}
    load_start = load_average()
    if args.trace:
        Path(args.trace).mkdir(parents=True, exist_ok=True)
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for round_no in range(args.rounds):
            for mode in modes:
                found = await measure(browser, args, MODES[mode], args.seed + 2 * round_no)
                results[mode].append(found)
                print(f"{mode} round {round_no + 1}: {json.dumps(found)}", file=sys.stderr)
        about = machine(browser)
        await browser.close()
    return {
        "machine": about,
        "busy_loops": args.busy,
        "servers": args.servers,
        "database": "PostgreSQL" if args.db else "SQLite",
        "load_start": load_start,
        "load_end": load_average(),
        **results,
    }


def _row(mode: str, found: dict[str, Any]) -> list[str]:
    def cell(name: str) -> str:
        times = found[name]
        return f"{ms(times['median_ms'])} / {ms(times['p95_ms'])} (n={times['n']})"

    return [
        mode,
        str(found["cards"]),
        str(len(found["not_taken"])),
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
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the run")
    parser.add_argument("--db", default=None, help="a PostgreSQL database for the table")
    parser.add_argument("--servers", type=int, default=1, choices=(1, 2))
    parser.add_argument("--trace", default=None, help="a folder for the clicks not taken")
    args = parser.parse_args(argv)
    if args.servers > 1 and not args.db:
        parser.error("two servers share a PostgreSQL database: give --db")
    found = asyncio.run(run(args))
    print(json.dumps(found, indent=2))
    header = ["mode", "cards", "not taken", "card drawn", "card confirmed", "at the other seat"]
    rows = [_row(mode, r) for mode in found if mode in MODES for r in found[mode]]
    print(markdown_table(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
