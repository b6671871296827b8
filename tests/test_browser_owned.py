"""Games owned and whole, in Chromium: two tabs of one player racing on one game, another
browser that may watch but not play, preferences per browser, and hostile names shown as
text."""

from __future__ import annotations

import re
import time

import pytest
from browser_helpers import (
    CARDS,
    WAIT,
    NewPage,
    choose,
    cookies_set,
    look_then_ready_to_bid,
    on_felt,
    settled,
    your_turn,
)
from playwright.sync_api import Page, expect

from spades.app.play import MOVED_ON
from spades.store import Store

pytestmark = pytest.mark.browser
#: Hostile names; a seat's name holds 20 characters, so each carries one or two tricks.
HOSTILE_NAMES = ("![i](http://e.x/i)", "<img src=x> :red[x]", "[x](//e.x) www.e.x")


def _open(page: Page, url: str, *, name: str | None = None) -> None:
    page.goto(url)
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
    page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
    expect(page.locator(".st-key-speed input[type='radio']:checked")).to_have_value(
        "3", timeout=WAIT
    )
    if name is not None:
        _new_game_as(page, name)


def _new_game_as(page: Page, name: str, *, give_up: bool = False) -> None:
    """Take the player's name ``name`` in the sidebar and start a new game under it
    (``give_up`` the game in progress: the page asks first)."""
    field = page.locator(".st-key-player_name input")
    field.fill(name)
    field.press("Enter")
    settled(page)
    page.locator(".st-key-new_game button:visible").click()
    if give_up:
        page.locator(".st-key-confirm_new_game button:visible").click()
    settled(page)


def _bid(page: Page) -> str:
    """Bid, so the game is stored; returns its id from the address."""
    look_then_ready_to_bid(page)
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    expect(page).to_have_url(re.compile(r"[?&]game=[0-9a-f]{32}"), timeout=WAIT)
    found = re.search(r"game=([0-9a-f]{32})", page.url)
    assert found
    return found.group(1)


def _told(*tabs: Page) -> list[Page]:
    """The tabs that say the game went on in another window, once any of them does."""
    deadline = time.monotonic() + WAIT / 1000
    while time.monotonic() < deadline:
        told = [tab for tab in tabs if tab.get_by_text(MOVED_ON[:40]).count()]
        if told:
            for tab in tabs:
                settled(tab)
            return [tab for tab in tabs if tab.get_by_text(MOVED_ON[:40]).count()]
        tabs[0].wait_for_timeout(100)
    return []


def test_two_tabs_click_at_once_one_wins_and_the_other_is_told(
    new_browser: NewPage, app_url: str, app_db_url: str
) -> None:
    first = new_browser()
    _open(first, app_url)
    game = _bid(first)
    your_turn(first)
    second = first.context.new_page()
    second.goto(f"{app_url}/?game={game}")
    your_turn(second)
    expect(second.locator(CARDS + ":enabled").first).to_be_visible(timeout=WAIT)
    settled(first)
    settled(second)
    # Both tabs click a card before either hears of the other.
    first.locator(CARDS + ":enabled").first.click()
    second.locator(CARDS + ":enabled").last.click()
    told = _told(first, second)
    assert len(told) == 1, "exactly the tab whose click came second is told"
    expect(told[0].locator(CARDS)).to_have_count(12, timeout=WAIT)
    stored = Store(app_db_url)
    try:
        stored_match = stored.load(game).match
    finally:
        stored.close()
    # The game replays (load checks it) with exactly one card of South's: one tab's.
    assert len(stored_match.hand.hand(2)) == 12
    expect(first.locator(CARDS)).to_have_count(12, timeout=WAIT)
    expect(second.locator(CARDS)).to_have_count(12, timeout=WAIT)


def test_another_browser_watches_the_table_but_never_holds_the_hand(
    new_browser: NewPage, app_url: str
) -> None:
    owner = new_browser()
    _open(owner, app_url)
    game = _bid(owner)
    your_turn(owner)
    stranger = new_browser()
    stranger.goto(f"{app_url}/?game={game}")
    status = stranger.locator(".st-key-status")
    expect(status).to_contain_text("You are watching", timeout=WAIT)
    settled(stranger)
    held = stranger.locator("[class*='st-key-card_'], [class*='st-key-bid_']")
    assert held.count() == 0, "no card or bid button of South's is on the page"
    # South's hand is drawn face down.
    expect(stranger.locator(".st-key-hand_hidden .sp-back")).to_have_count(13, timeout=WAIT)
    # The owner's move reaches the watcher without a click there.
    owner.locator(CARDS + ":enabled").first.click()
    expect(stranger.locator(".st-key-hand_hidden .sp-back")).to_have_count(12, timeout=WAIT)


def test_two_browsers_with_the_same_name_keep_their_own_preferences(
    new_browser: NewPage, app_url: str
) -> None:
    ada = new_browser()
    _open(ada, app_url, name="You")
    choose(ada, "felt", "Crimson red")
    # Reloaded only once the run that stored the choice has drawn the crimson felt, and
    # the server has set the cookie of the player that choice made.
    on_felt(ada, "crimson")
    cookies_set(ada, 1)
    other = new_browser()
    _open(other, app_url, name="You")
    expect(other.get_by_role("combobox", name="Felt")).to_have_value("Emerald green")
    ada.reload()
    expect(ada.get_by_role("combobox", name="Felt")).to_have_value("Crimson red", timeout=WAIT)


def test_a_hostile_name_is_shown_as_text(new_browser: NewPage, app_url: str) -> None:
    # One player takes each name in turn and starts a game under it; one watcher looks.
    owner, watcher = new_browser(), new_browser()
    _open(owner, app_url)
    for index, name in enumerate(HOSTILE_NAMES):
        _new_game_as(owner, name, give_up=index > 0)
        game = _bid(owner)
        your_turn(owner)
        watcher.goto(f"{app_url}/?game={game}")
        status = watcher.locator(".st-key-status")
        # Markdown shows the name with invisible word joiners that stop bare addresses linking.
        shown = "\u2060?".join(map(re.escape, f"You are watching. Next to act: {name}."))
        expect(status).to_contain_text(re.compile(shown), timeout=WAIT)
        expect(watcher.locator(".st-key-trick")).to_contain_text(name)
        for page in (owner, watcher):
            assert page.locator("a[href*='e.x'], img[src*='e.x'], img[src='x']").count() == 0
            assert page.locator(".st-key-status [style*='color']").count() == 0, name
