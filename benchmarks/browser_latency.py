"""How soon a human's card or bid shows on the Play page, in Chromium, by device and bot speed.

Starts ``streamlit run`` with a fresh temporary store, opens Debian's Chromium and plays
real games as a human: on each turn a random legal card, or a bid in the middle of the
enabled ones (looking at the cards first when blind nil is offered), then it waits until
the server has taken the click and the page has settled before the next; hand summaries
and the end of a match are clicked through. Each (device, speed) pair is a new browser
context, so a new player and game, and plays until it has made ``--clicks`` card clicks.
A speed's desktop and phone series play side by side (``--apart``: one after the other).

The page's own clock times every click (see ``browser_clock.py``): click → the card
*drawn* in the trick (pending or not) and → *confirmed* (the server's drawing in place: the
card's button gone and the card without ``data-pending``); for bids, click → the bid
*shown* beside South and → confirmed (not pending, the bids row gone). It also counts the
cards played that were never drawn in the trick before the next click (a miss), and the
tricks seen whole (four cards at once, one a seat, one of them the winner) out of the
tricks played.

    python benchmarks/browser_latency.py [--clicks 100] [--speeds slow,normal,fast,instant]
        [--devices desktop,phone] [--apart] [--seed 1]

The bots' pace sets the run time. On the development machine (2 cores, busy) a card took
about 7 s at slow, 4.5 s at normal, 3 s at fast and 0.5 s at instant, bids and hand
summaries included, so the defaults take about 27 minutes (about 50 with ``--apart``);
``--clicks 10 --speeds normal,instant`` takes about a minute and a half.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from browser_clock import (
    CHROMIUM,
    DEVICES,
    LAUNCH_ARGS,
    Player,
    latency,
    load_average,
    machine,
    markdown_table,
    ms,
    serve,
)
from playwright.async_api import Browser, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

SPEEDS = ("slow", "normal", "fast", "instant")
#: Timed-out waits in a row (each followed by a reload) before a series gives up (it is
#: reported with what it has, and its timeouts under "stuck").
RETRIES = 3


async def measure(
    browser: Browser, url: str, device: str, speed: str, clicks: int, seed: int
) -> dict[str, Any]:
    """Play as one new player until ``clicks`` cards are played; the series' figures."""
    load_start, start = load_average(), time.monotonic()
    player, context = await Player.open(browser, url, device, speed, seed)
    try:
        failures = 0
        while player.cards < clicks and failures <= RETRIES:
            try:
                await player.turn()
                failures = 0
            except PlaywrightTimeout as err:
                failures += 1
                await player.recover(err)
        if failures <= RETRIES:
            # The last card's trick plays out before the records close.
            await player.state()
        await player.collect()
        frames = await player.frames()
    finally:
        await context.close()
    cards = [r for r in player.records if r["kind"] == "card"]
    bids = [r for r in player.records if r["kind"] == "bid"]
    return {
        "device": device,
        "speed": speed,
        "card_clicks": len(cards),
        "bid_clicks": len(bids),
        "card_to_drawn": latency(cards, "drawn"),
        "card_to_confirmed": latency(cards, "confirmed"),
        "bid_to_shown": latency(bids, "drawn"),
        "bid_to_confirmed": latency(bids, "confirmed"),
        "cards_not_drawn": [r["code"] for r in cards if r["drawn"] is None],
        "cards_not_confirmed": [r["code"] for r in cards if r["confirmed"] is None],
        "bids_not_shown": [r["text"] for r in bids if r["drawn"] is None],
        "drawn_pending_first": sum(r["pendingSeen"] for r in player.records),
        "tricks_played": len(cards),
        "tricks_seen_whole": sum(r["whole"] for r in cards),
        "tricks_not_seen_whole": [r["code"] for r in cards if not r["whole"]],
        "hands_ended": player.hands,
        "matches_ended": player.matches,
        "alerts": sorted(player.alerts),
        "stuck": player.stuck,
        "clicks_dropped_at_reload": player.dropped,
        "frames": frames,
        "seconds": round(time.monotonic() - start, 1),
        "load_start": load_start,
        "load_end": load_average(),
    }


def _row(found: dict[str, Any]) -> list[str]:
    drawn, confirmed = found["card_to_drawn"], found["card_to_confirmed"]
    shown, bid_confirmed = found["bid_to_shown"], found["bid_to_confirmed"]
    return [
        found["device"],
        found["speed"],
        str(found["card_clicks"]),
        f"{ms(drawn['median_ms'])} / {ms(drawn['p95_ms'])} / {ms(drawn['max_ms'])}",
        f"{ms(confirmed['median_ms'])} / {ms(confirmed['p95_ms'])}",
        str(found["bid_clicks"]),
        f"{ms(shown['median_ms'])} / {ms(shown['p95_ms'])}",
        f"{ms(bid_confirmed['median_ms'])} / {ms(bid_confirmed['p95_ms'])}",
        str(len(found["cards_not_drawn"])),
        f"{found['tricks_seen_whole']} / {found['tricks_played']}",
        f"{found['load_start'][0]} → {found['load_end'][0]}",
    ]


HEADER = [
    "device",
    "speed",
    "cards",
    "card → drawn ms (median / p95 / max)",
    "card → confirmed ms (median / p95)",
    "bids",
    "bid → shown ms (median / p95)",
    "bid → confirmed ms (median / p95)",
    "cards not drawn",
    "tricks seen whole / played",
    "load 1 min (start → end)",
]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Every (device, speed) series against one server and one browser: each speed's
    devices side by side, or with ``--apart`` one series at a time."""
    load_start = load_average()
    series: list[dict[str, Any]] = []
    with serve() as server:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            try:
                info = machine(browser)
                for speed in args.speeds:
                    runs = [
                        measure(browser, server.url, device, speed, args.clicks, args.seed)
                        for device in args.devices
                    ]
                    if args.apart:
                        series += [await one for one in runs]
                    else:
                        series += await asyncio.gather(*runs)
            finally:
                await browser.close()
    order = {device: index for index, device in enumerate(args.devices)}
    series.sort(key=lambda found: order[found["device"]])
    return {
        **info,
        "devices_side_by_side": not args.apart,
        "load_start": load_start,
        "load_end": load_average(),
        "series": series,
    }


def _names(allowed: tuple[str, ...]) -> Any:
    def parse(text: str) -> list[str]:
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = sorted(set(names) - set(allowed))
        if unknown or not names:
            raise argparse.ArgumentTypeError(f"choose from {', '.join(allowed)}")
        return names

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=100, help="card clicks a series")
    parser.add_argument(
        "--speeds", type=_names(SPEEDS), default=list(SPEEDS), help="comma-separated bot speeds"
    )
    parser.add_argument(
        "--devices", type=_names(tuple(DEVICES)), default=list(DEVICES), help="desktop,phone"
    )
    parser.add_argument("--seed", type=int, default=1, help="seeds the choice of cards")
    parser.add_argument(
        "--apart", action="store_true", help="play the devices one after the other (twice the time)"
    )
    args = parser.parse_args(argv)
    found = asyncio.run(run(args))
    print(markdown_table(HEADER, [_row(s) for s in found["series"]]))
    print()
    print(json.dumps(found, indent=2))
    return 1 if any(s["stuck"] for s in found["series"]) else 0


if __name__ == "__main__":
    sys.exit(main())
