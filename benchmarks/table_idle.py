"""What a still shared table costs the browser and the server: two people's pages open on
it, nobody moving.

Starts the app (``browser_clock.serve``), makes a table through the application layer as
``table_clock.py`` does (Ann at South, Bob at North, bots East and West, started), and
opens both seats' pages in Chromium, each in a context of its own holding its seat's
cookie. Once both pages show the bidding, it waits a few seconds for the bots' bids to
end (the table then waits on a person), and reads the CPU time of Chromium's processes
and of the server over ``--seconds``, each round on a new table.

    python benchmarks/table_idle.py [--seconds 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics

from browser_clock import CHROMIUM, LAUNCH_ARGS, WAIT, cpu_seconds, serve
from page_cpu import chromium_seconds
from playwright.async_api import async_playwright
from table_clock import started_table

#: Seconds left for the bots' bids before the still table is measured.
SETTLE = 5.0


async def run(options: argparse.Namespace) -> dict[str, list[float]]:
    rows: dict[str, list[float]] = {"chromium": [], "server": []}
    with serve() as server:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=list(LAUNCH_ARGS)
            )
            for round_ in range(options.rounds):
                table_id, *tokens = started_table(server.db_url)
                contexts = []
                for token in tokens:
                    context = await browser.new_context(viewport={"width": 1366, "height": 900})
                    cookie = {"name": f"spades_seat_{table_id}", "value": token}
                    await context.add_cookies([{**cookie, "url": server.url}])
                    page = await context.new_page()
                    await page.goto(f"{server.url}/lobby?table={table_id}", timeout=WAIT)
                    await page.locator(".st-key-status").wait_for(timeout=WAIT)
                    contexts.append(context)
                await asyncio.sleep(SETTLE)
                before, served = chromium_seconds(), cpu_seconds(server.pid)
                await asyncio.sleep(options.seconds)
                rows["chromium"].append(chromium_seconds() - before)
                rows["server"].append(cpu_seconds(server.pid) - served)
                print(
                    f"round {round_ + 1}: {options.seconds:.0f} s still, two pages:"
                    f" Chromium {rows['chromium'][-1]:.2f} s, server {rows['server'][-1]:.2f} s"
                )
                for context in contexts:
                    await context.close()
            await browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3)
    rows = asyncio.run(run(parser.parse_args()))
    print(", ".join(f"{key} median {statistics.median(v):.2f} s" for key, v in rows.items()))


if __name__ == "__main__":
    main()
