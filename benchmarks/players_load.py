"""How the Play page holds up with many players at once on one server.

For each player count N, starts ``streamlit run`` with a fresh temporary store and has N
players (each a new player with their own game, bots at the ``normal`` pace) play at once
for ``--seconds``, each clicking as soon as it is their turn (a random legal card, a middle
bid). Reported per N: the clicks made, click → confirmed by the server, the server's CPU
(user + system seconds of the server and its children over the wall time of the play, in
cores) and memory (VmRSS now, VmHWM its peak), and a check that every game in the store
loads, which replays it through the engine.

The players are either

- ``--via browser`` (the default): contexts of one Debian Chromium, timed by the page's own
  clock (see ``browser_clock.py``), which also gives click → the card drawn in the trick.
  The browsers share the machine with the server: on two cores, twenty of them leave it
  next to nothing;
- ``--via protocol``: players that speak Streamlit's websocket protocol without a browser
  (see ``protocol_player.py``), so nearly all the machine is the server's. Nothing is drawn,
  so only the server's side is timed: click → the end of the run that took it.

    python benchmarks/players_load.py [--via browser|protocol] [--players 10 20]
        [--seconds 120] [--seed 1]

Each N takes ``--seconds`` plus the time to open its pages (about a second a player on two
cores in Chromium); the defaults take about six minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from browser_clock import (
    CHROMIUM,
    LAUNCH_ARGS,
    Player,
    Server,
    cpu_seconds,
    figures,
    latency,
    load_average,
    machine,
    markdown_table,
    memory_mb,
    ms,
    serve,
)
from playwright.async_api import Browser, BrowserContext, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout
from protocol_player import ProtocolPlayer

from spades.stats.ratings import RATER
from spades.store import Store

#: Timed-out waits in a row (each followed by a reload) before a player gives up (its
#: timeouts are reported under "stuck").
RETRIES = 3


async def _play(player: Player, until: float) -> None:
    """Take every turn until the deadline."""
    failures = 0
    while time.monotonic() < until and failures <= RETRIES:
        try:
            if await player.turn(until) == "stopped":
                break
            failures = 0
        except PlaywrightTimeout as err:
            failures += 1
            await player.recover(err)
    await player.collect()


def check_store(db_url: str) -> dict[str, Any]:
    """Load (so replay) every stored game; the count checked and the failures."""
    store = Store(db_url, rater=RATER)
    failed: dict[str, str] = {}
    try:
        ids = [game.id for game in store.list_games()]
        for game_id in ids:
            try:
                store.load(game_id)
            except Exception as err:  # any failure to replay counts, not only the store's
                failed[game_id] = f"{type(err).__name__}: {err}"
    finally:
        store.close()
    return {"games_checked": len(ids), "games_failed": len(failed), "failures": failed}


async def _play_protocol(player: ProtocolPlayer, until: float) -> None:
    await player.play(until)
    await player.close()


async def measure_protocol(
    server: Server, players: int, seconds: float, seed: int
) -> dict[str, Any]:
    """N players speaking Streamlit's protocol on one server for ``seconds``; the figures."""
    team = [await ProtocolPlayer.open(server.url, seed + index) for index in range(players)]
    use = await _server_use(
        server, seconds, lambda until: [_play_protocol(player, until) for player in team]
    )
    clicks = [click for player in team for click in player.clicks]
    cards = [click for click in clicks if click.kind == "card"]
    confirmed = [(c.confirmed - c.t) * 1000 for c in cards if c.confirmed is not None]
    return {
        "via": "protocol",
        "players": players,
        "card_clicks": len(cards),
        "bid_clicks": len(clicks) - len(cards),
        "card_to_drawn": figures([]),
        "card_to_confirmed": figures(confirmed),
        "cards_not_drawn": 0,
        "cards_not_confirmed": len(cards) - len(confirmed),
        "runs": sum(player.runs for player in team),
        "alerts": sorted({text for player in team for text in player.alerts}),
        "stuck": [text for player in team for text in player.stuck],
        "clicks_dropped_at_reload": 0,
        **use,
    }


async def _server_use(
    server: Server, seconds: float, plays: Callable[[float], list[Awaitable[None]]]
) -> dict[str, Any]:
    """Run the players' ``plays`` (given their deadline) for ``seconds``; the wall time, the
    server's CPU and memory, and the load average before and after."""
    load_start, cpu_start, start = load_average(), cpu_seconds(server.pid), time.monotonic()
    await asyncio.gather(*plays(start + seconds))
    wall = time.monotonic() - start
    cpu = cpu_seconds(server.pid) - cpu_start
    return {
        "seconds": round(wall, 1),
        "server_cpu_seconds": round(cpu, 1),
        "server_cores": round(cpu / wall, 2),
        "server_memory_mb": memory_mb(server.pid),
        "load_start": load_start,
        "load_end": load_average(),
    }


async def measure(
    browser: Browser, server: Server, players: int, seconds: float, seed: int
) -> dict[str, Any]:
    """N players on one server for ``seconds``; the figures."""
    contexts: list[BrowserContext] = []
    try:
        # Players arrive one after another: twenty pages loading Streamlit's scripts at
        # once on two cores take minutes, and the figures are about play, not arrival.
        team: list[Player] = []
        for index in range(players):
            player, context = await Player.open(
                browser, server.url, "desktop", "normal", seed + index
            )
            team.append(player)
            contexts.append(context)
        use = await _server_use(
            server, seconds, lambda until: [_play(player, until) for player in team]
        )
    finally:
        for context in contexts:
            await context.close()
    records = [rec for player in team for rec in player.records]
    cards = [rec for rec in records if rec["kind"] == "card"]
    return {
        "via": "browser",
        "players": players,
        "card_clicks": len(cards),
        "bid_clicks": len(records) - len(cards),
        "card_to_drawn": latency(cards, "drawn"),
        "card_to_confirmed": latency(cards, "confirmed"),
        "cards_not_drawn": sum(rec["drawn"] is None for rec in cards),
        "cards_not_confirmed": sum(rec["confirmed"] is None for rec in cards),
        "alerts": sorted({text for player in team for text in player.alerts}),
        "stuck": [text for player in team for text in player.stuck],
        "clicks_dropped_at_reload": sum(player.dropped for player in team),
        **use,
    }


HEADER = [
    "players",
    "card clicks",
    "card → drawn ms (p50 / p95)",
    "card → confirmed ms (p50 / p95)",
    "not drawn / not confirmed",
    "server CPU (cores)",
    "VmRSS / VmHWM MB",
    "games replayed (failed)",
    "load 1 min (start → end)",
]


def _row(found: dict[str, Any]) -> list[str]:
    drawn, confirmed = found["card_to_drawn"], found["card_to_confirmed"]
    memory = found["server_memory_mb"]
    return [
        str(found["players"]),
        str(found["card_clicks"]),
        f"{ms(drawn['median_ms'])} / {ms(drawn['p95_ms'])}",
        f"{ms(confirmed['median_ms'])} / {ms(confirmed['p95_ms'])}",
        f"{found['cards_not_drawn']} / {found['cards_not_confirmed']}",
        f"{found['server_cores']:.2f}",
        f"{memory['VmRSS']:.0f} / {memory['VmHWM']:.0f}",
        f"{found['games_checked']} ({found['games_failed']})",
        f"{found['load_start'][0]} → {found['load_end'][0]}",
    ]


async def _series(args: argparse.Namespace, browser: Browser | None) -> list[dict[str, Any]]:
    series = []
    for players in args.players:
        with serve() as server:
            if browser is None:
                found = await measure_protocol(server, players, args.seconds, args.seed)
            else:
                found = await measure(browser, server, players, args.seconds, args.seed)
            found |= check_store(server.db_url)
        series.append(found)
    return series


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Each player count against a server of its own (in one browser, with ``browser``)."""
    load_start = load_average()
    if args.via == "protocol":
        info, series = machine(None), await _series(args, None)
    else:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
            try:
                info, series = machine(browser), await _series(args, browser)
            finally:
                await browser.close()
    return {**info, "load_start": load_start, "load_end": load_average(), "series": series}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[10, 20])
    parser.add_argument("--seconds", type=float, default=120, help="play time for each N")
    parser.add_argument("--seed", type=int, default=1, help="seeds the choice of cards")
    parser.add_argument(
        "--via",
        choices=("browser", "protocol"),
        default="browser",
        help="players in Chromium, or speaking Streamlit's protocol (no browser)",
    )
    args = parser.parse_args(argv)
    found = asyncio.run(run(args))
    print(markdown_table(HEADER, [_row(s) for s in found["series"]]))
    print()
    print(json.dumps(found, indent=2))
    failed = any(s["games_failed"] or s["stuck"] for s in found["series"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
