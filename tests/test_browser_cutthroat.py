"""Three-handed cutthroat in Chromium: the rule set picked in the sidebar, the three-seat
table, a hand played to its summary by clicking, with a reload in the middle that resumes
it."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import (
    CARDS,
    WAIT,
    axe_violations,
    game_id,
    offered_blind_nil,
    open_house_rules,
    pick_rule_set,
    play_a_card,
    ready_to_bid,
    screenshot_path,
    settled,
    your_turn,
)
from playwright.sync_api import Page, expect

from spades.engine.rules import Rules
from spades.store import Store

pytestmark = pytest.mark.browser

THREE = "Cutthroat (3)"


def _start_three_handed(page: Page, url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url)
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
    page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
    open_house_rules(page)
    pick_rule_set(page, THREE)
    page.locator(".st-key-new_game_with_rules button:visible").click()
    expect(page.locator(".st-key-new_game_with_rules")).to_have_count(0, timeout=WAIT)


def _bid(page: Page) -> None:
    """Look at the 17 cards when blind nil is offered, then bid from the middle."""
    if offered_blind_nil(page):
        page.locator(".st-key-look button:visible").click()
    ready_to_bid(page, cards=17)
    bids = page.locator(".st-key-bids button:enabled:visible")
    expect(page.locator(".st-key-bids button:visible")).to_have_count(18)
    bids.nth(bids.count() // 2).click()
    expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)


def test_a_three_handed_hand_played_by_clicking_survives_a_reload(
    page: Page, app_url: str, app_db_url: str, tmp_path: Path
) -> None:
    picture = screenshot_path("table-cutthroat.png", tmp_path)
    _start_three_handed(page, app_url)
    table = page.locator(".st-key-trick .sp-table")
    expect(table.locator(".sp-seat")).to_have_count(3, timeout=WAIT)
    expect(table.locator(".sp-north")).to_have_count(0)
    expect(table.locator(".sp-west")).to_contain_text("Left")
    expect(table.locator(".sp-east")).to_contain_text("Right")
    for seat in range(3):
        expect(page.locator(f".st-key-player_{seat}")).to_be_visible()
    expect(page.locator(".st-key-team_us")).to_have_count(0)
    _bid(page)
    assert axe_violations(page) == []
    game = game_id(page)
    for trick in range(17):
        if trick == 3:
            page.locator(".st-key-trick").scroll_into_view_if_needed()
            page.screenshot(path=str(picture))
        if trick == 6:
            page.reload()
            expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
            assert game_id(page) == game
            expect(page.locator(CARDS)).to_have_count(11, timeout=WAIT)
            expect(page.locator(".st-key-trick .sp-seat")).to_have_count(3)
            page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
        your_turn(page)
        play_a_card(page)
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Hand 1", timeout=WAIT)
    expect(dialog.get_by_text("Points this hand")).to_have_count(3)
    page.locator(".st-key-next_hand button:visible").click()
    expect(page.get_by_role("dialog")).to_have_count(0, timeout=WAIT)
    settled(page)
    sheet = page.locator(".st-key-scoresheet")
    expect(sheet).to_contain_text("Left score", timeout=WAIT)
    expect(sheet).to_contain_text("Right score")
    store = Store(app_db_url)
    try:
        loaded = store.load(game).match
    finally:
        store.close()
    assert picture.stat().st_size > 10_000
    assert loaded.rules == Rules(players=3, partnerships=False)
    assert len(loaded.finished) == 1 and len(loaded.results[0].players) == 3
