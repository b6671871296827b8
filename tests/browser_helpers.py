"""Shared helpers for the Play page's browser tests: waiting on the page, never on a clock.

Streamlit draws a run's elements one after another, so a check made the moment one element
appears may see the page half drawn; these helpers wait for the state they name.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, WebSocketRoute, expect

from spades.app.themes import FELTS

# Streamlit draws a second, hidden copy of each button (to measure its label): count
# only the visible ones.
CARDS = "[class*='st-key-card_'] button:visible"
#: Opens a page in a browser of its own (the ``new_browser`` fixture of tests/conftest.py).
NewPage = Callable[[], Page]
WAIT = 30_000
# Every check on a page waits for its condition as long as the named waits do: a busy
# machine may take more than Playwright's default 5 s to draw a run.
expect.set_options(timeout=WAIT)


#: A script function: the face the page's stylesheet draws for a card's code (the
#: background image of a card of that code, made for the look and taken away).
FACE = """code => { const card = document.createElement("span");
  card.className = "sp-card sp-f-" + code; document.body.append(card);
  const image = getComputedStyle(card).backgroundImage; card.remove(); return image; }"""


def face_of(page: Page, code: str) -> str:
    """The face the page draws for the card ``code``: its ``url(...)``."""
    return str(page.evaluate(FACE, code))


class LostBid:
    """The page's connection to the server, which loses the first press of a bid button
    once armed: its message never reaches the server, as when a run of the whole page takes
    the place of the run that carried it. Set up before the page opens the app."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.armed = False
        self.dropped: list[bytes | str] = []
        page.route_web_socket(re.compile(r"/_stcore/stream"), self._route)

    def _route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: bytes | str) -> None:
            press = isinstance(message, bytes) and b"bid_" in message
            if press and self.armed and not self.dropped:
                self.dropped.append(message)
                return
            server.send(message)

        ws.on_message(to_server)

    def bid(self) -> str:
        """Press the middle bid, whose press is lost; its words, once the page has drawn it
        and the route has dropped its message (the handler runs while the page's events are
        let through)."""
        self.armed = True
        bids = self.page.locator(".st-key-bids button:enabled:visible")
        choice = bids.nth(bids.count() // 2)
        said = choice.inner_text().strip().lower()
        choice.click()
        self.page.wait_for_function("() => document.querySelector('[data-pending]') !== null")
        for _ in range(WAIT // 50):
            if self.dropped:
                return said
            self.page.wait_for_timeout(50)
        raise AssertionError("the bid's press was not dropped")


def your_turn(page: Page) -> Locator:
    """Wait until the status line asks the human to act; returns the status element.
    Looked at every 50 ms: the bots may take seconds, and a look every frame would keep
    the browser drawing frames all the while."""
    page.wait_for_function(
        """() => { const status = document.querySelector(".st-key-status");
          return status !== null && status.textContent.includes("Your turn"); }""",
        polling=50,
        timeout=WAIT,
    )
    return page.locator(".st-key-status")


def settled(page: Page) -> None:
    """Wait until the app has finished its run: Streamlit's running indicator is gone, no
    element is left stale (drawn dimmed until the run redraws or removes it) and none is
    still fading back in."""
    # The running indicator shows only once a run has lasted a moment: the app's own
    # script state says whether a run is still drawing. An element no longer stale fades
    # back from dimmed: none may be see-through. Looked at every 50 ms, in one function,
    # so the wait ends within 50 ms of the page settling (every frame would cost the
    # browser a style pass a frame over the whole page).
    page.wait_for_function(
        """() => !document.querySelector("[data-testid='stStatusWidget']")
          && document.querySelector("[data-testid='stApp']")
               ?.getAttribute("data-test-script-state") === "notRunning"
          && !document.querySelector("[data-stale='true']")
          && [...document.querySelectorAll("[data-testid='stElementContainer']")]
               .every(e => getComputedStyle(e).opacity === "1")""",
        polling=50,
        timeout=WAIT,
    )


def choose(page: Page, key: str, label: str) -> None:
    """Pick ``label`` in the select box keyed ``key``: its open button shows the list (a
    click on the box itself may land on its label), then the option is clicked."""
    page.locator(f".st-key-{key} button[aria-label='Open']").click()
    page.get_by_role("option", name=label, exact=True).click()
    expect(page.locator(f".st-key-{key} input")).to_have_value(label, timeout=WAIT)


def offered_blind_nil(page: Page) -> bool:
    """Whether the human, to bid, is first asked to bid blind nil or look at the cards."""
    return "blind nil before you see" in your_turn(page).inner_text()


def ready_to_bid(page: Page, cards: int = 13) -> None:
    """Wait until the bids and the whole hand of ``cards`` cards are drawn."""
    expect(page.locator(".st-key-status")).to_contain_text("how many tricks", timeout=WAIT)
    expect(page.locator(".st-key-bids")).to_be_visible(timeout=WAIT)
    expect(page.locator(CARDS)).to_have_count(cards, timeout=WAIT)


def look_then_ready_to_bid(page: Page) -> None:
    """Decline blind nil by looking at the cards when it is offered, then wait to bid."""
    if offered_blind_nil(page):
        page.locator(".st-key-look button:visible").click()
    ready_to_bid(page)


def game_id(page: Page) -> str:
    """The stored game's id, once the address names it."""
    expect(page).to_have_url(re.compile(r"[?&]game=[0-9a-f]{32}"), timeout=WAIT)
    found = re.search(r"game=([0-9a-f]{32})", page.url)
    assert found
    return found.group(1)


def card_key(button: Locator) -> str:
    """The widget key (``card_AS``) of a card button."""
    classes = button.locator("xpath=ancestor::*[contains(@class, 'st-key-card_')][1]")
    found = re.search(r"st-key-(card_\w+)", classes.get_attribute("class") or "")
    assert found
    return found.group(1)


def screenshot_path(name: str, scratch: Path) -> Path:
    """Where a test saves the picture ``name``: the test's own folder ``scratch``, or the
    README's pictures when asked for (``SPADES_SCREENSHOTS=docs/screenshots``)."""
    folder = Path(os.environ.get("SPADES_SCREENSHOTS") or scratch)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


#: A script function: the page's scroll (the window's and Streamlit's main area's) read,
#: or, given one read before, put back.
SCROLL = """was => {
  const main = document.querySelector("[data-testid='stMain']");
  if (was) { window.scrollTo(was[0], was[1]); if (main) main.scrollTop = was[2]; }
  return [window.scrollX, window.scrollY, main ? main.scrollTop : 0];
}"""


def click_in_place(page: Page, target: Locator) -> None:
    """Click ``target`` and leave the page scrolled as it was. Playwright scrolls what it
    clicks into view, and when it has to try again (the button moved, or a redraw covered
    it) it scrolls it to the window's end, centre or start in turn. That scroll is the
    test's, not the app's: a check that the table stays in view must not see it."""
    was = page.evaluate(SCROLL, None)
    target.click()
    page.evaluate(SCROLL, was)


def play_a_card(page: Page) -> str:
    """Play the first playable card (the page left scrolled as it was); returns its key once
    the card has left the hand."""
    card = page.locator(CARDS + ":enabled").first
    expect(card).to_be_visible(timeout=WAIT)
    key = card_key(card)
    click_in_place(page, card)
    gone(page, key)
    return key


def gone(page: Page, key: str, timeout: float = WAIT) -> None:
    """Wait until no element keyed ``key`` is left in the page (a redraw may hold a stale
    copy beside the new one for a moment), looked for every frame."""
    page.wait_for_function(
        "key => !document.querySelector('.st-key-' + key)", arg=key, timeout=timeout
    )


def at_rest(page: Page, element: Locator) -> None:
    """Wait until ``element``'s box has stayed put for ten frames in a row."""
    page.wait_for_function(
        """el => {
          const r = el.getBoundingClientRect();
          const box = [r.x, r.y, r.width, r.height].join();
          el.spadesStill = box === el.spadesBox ? (el.spadesStill || 0) + 1 : 0;
          el.spadesBox = box;
          return el.spadesStill >= 10;
        }""",
        arg=element.element_handle(timeout=WAIT),
        polling="raf",
        timeout=WAIT,
    )


def pick(page: Page, key: str, name: str) -> None:
    """Pick ``name`` in the sidebar's select box keyed ``key``.

    The box's list closes as soon as the sidebar moves under it (an expander still opening,
    or a scroll to bring the box into view), so the name is typed only once the box is in
    view and at rest.
    """
    picker = page.locator(f".st-key-{key} input")
    picker.scroll_into_view_if_needed()
    at_rest(page, picker)
    picker.fill(name)
    page.get_by_role("option", name=name, exact=True).click()
    expect(picker).to_have_value(name, timeout=WAIT)
    settled(page)


def pick_rule_set(page: Page, name: str) -> None:
    """Pick a preset (or Custom) in the open house rules expander, once it has opened."""
    expander = page.get_by_test_id("stExpander").filter(has=page.locator(".st-key-preset"))
    at_rest(page, expander)
    pick(page, "preset", name)


def fold(page: Page, label: str, *, open_: bool) -> None:
    """Open (or close) the expander labelled ``label`` and wait until its content shows (or
    hides). Its header is clicked only once it has come to rest: one above it still folding
    moves it, and a click aimed at a moving header lands on whatever takes its place."""
    expander = page.get_by_test_id("stExpander").filter(
        has=page.locator("summary").get_by_text(label, exact=True)
    )
    header = expander.locator("summary")
    at_rest(page, header)
    header.click()
    content = expander.get_by_test_id("stExpanderDetails")
    if open_:
        expect(content).to_be_visible(timeout=WAIT)
    else:
        expect(content).to_be_hidden(timeout=WAIT)


def open_house_rules(page: Page) -> None:
    """Open the house rules expander once the page has drawn the game and is at rest (a run
    still drawing it could close the rule set picker's list as it opens). A new game offers
    no blind nil, so the bids are up."""
    ready_to_bid(page)
    settled(page)
    fold(page, "House rules for the next game", open_=True)
    expect(page.locator(".st-key-preset input")).to_be_visible(timeout=WAIT)


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's WCAG 2 A and AA violations on the page once it has settled (Streamlit's
    own page menu aside, and its tooltips: one fading in under the pointer mid-check is
    judged half drawn). A fault seen while something on the page was still changing is
    judged again once it has settled once more: only one found twice is reported."""
    settled(page)
    found = _axe_once(page)
    if found:
        settled(page)
        found = _axe_once(page)
    return found


def _axe_once(page: Page) -> list[dict[str, Any]]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(
        page,
        context={
            "exclude": [
                ["[data-testid='stSidebarNav']"],
                ["[role='tooltip']"],
                [".stTooltipContent"],
            ]
        },
        options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]}},
    )
    violations: list[dict[str, Any]] = results.response["violations"]
    return [
        {
            "id": v["id"],
            "nodes": [(n["target"], n["html"][:300], n["failureSummary"]) for n in v["nodes"]],
        }
        for v in violations
    ]


def cookies_set(page: Page, count: int) -> dict[str, dict[str, Any]]:
    """Wait until the server has set the ``count`` cookies the page was handed codes for
    (each code its scripts posted has been answered); the browser's cookies, by name."""
    page.wait_for_function(
        """count => {
          const sent = window.spadesCookies;
          return !!sent && sent.size >= count && [...sent.values()].every(s => s === "set");
        }""",
        arg=count,
        timeout=WAIT,
    )
    return {cookie["name"]: dict(cookie) for cookie in page.context.cookies()}


def kept_from_scripts(page: Page, cookie: dict[str, Any]) -> None:
    """``cookie`` is HttpOnly and strict, and no script on the page sees it."""
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
    assert cookie["path"] == "/" and cookie["value"]
    seen = page.evaluate("document.cookie")
    assert cookie["name"] not in seen and cookie["value"] not in seen


def rgb(colour: str) -> str:
    """A ``#rrggbb`` colour as the browser gives a computed one: ``rgb(r, g, b)``."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def on_felt(page: Page, felt: str) -> None:
    """Wait until the table is drawn on the felt named ``felt`` (a key of ``FELTS``): the
    run that took the choice has drawn the page, so its callbacks are done."""
    cloth = re.compile(re.escape(rgb(FELTS[felt].cloth[0])))
    expect(page.locator(".st-key-table_felt")).to_have_css("background-image", cloth)


@contextmanager
def busy_loops(count: int) -> Iterator[None]:
    """``count`` processes that each keep a core busy until the block ends: the app and
    the browser then share the machine with other work, as on a busy server."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
