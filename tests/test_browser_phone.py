"""The Play page on a phone (390×844, a touch screen) in Chromium: the whole table on the
first screen, the hand as one fanned row of card faces (on a desktop too), both teams'
scores above the table, and the keyboard help only where there is a keyboard."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    CARDS,
    WAIT,
    look_then_ready_to_bid,
    screenshot_path,
    settled,
    your_turn,
)
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 390, 844
PHONE: dict[str, Any] = {
    "viewport": {"width": WIDTH, "height": HEIGHT},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
#: The card buttons; only the visible ones count (Streamlit draws hidden copies).
CARD_BUTTONS = "[class*='st-key-card_'] button"
#: The visible boxes of the elements a selector matches, read in one look at the page.
BOXES = """sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility())
  .map(e => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })"""
#: How much of a face's width its corner index takes (rank and suit, in the top left corner
#: of the deck's faces: spades/ui/deck/README.md).
INDEX_WIDTH = 0.2
#: Each card of the hand: whether a tap on the part of it left uncovered reaches it, whether
#: the index in its corner is left uncovered, whether its face is drawn from the deck, and
#: whether it is playable.
FAN = """index => {
  const cards = [...document.querySelectorAll("[class*='st-key-card_'] button")]
    .filter(b => b.checkVisibility());
  return cards.map((card, i) => {
    const box = card.getBoundingClientRect();
    const cover = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().left : box.right;
    const hit = document.elementFromPoint((box.left + cover) / 2, box.top + box.height / 2);
    return {
      tapped: hit !== null && hit.closest("button") === card,
      corner: cover - box.left >= box.width * index,
      face: getComputedStyle(card).backgroundImage.includes("/_spades/cards/"),
      playable: !card.disabled, top: box.top, height: box.height,
    };
  });
}"""


@contextmanager
def _page(browser: Browser, app_url: str, device: dict[str, Any]) -> Iterator[Page]:
    """The Play page in a context of its own; with reduced motion, so that the boxes
    measured are where the cards come to rest, not where the deal is flying them."""
    context = browser.new_context(**device, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(app_url)
        expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
        yield page
    finally:
        context.close()


def _boxes(page: Page, selector: str) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.evaluate(BOXES, selector)
    assert boxes, f"nothing visible matches {selector}"
    return boxes


def _on_first_screen(page: Page, selector: str) -> list[dict[str, float]]:
    """The boxes of ``selector``, each asserted to lie inside the phone's first screen."""
    boxes = _boxes(page, selector)
    for box in boxes:
        assert box["top"] >= 0 and box["bottom"] <= HEIGHT, f"{selector} is off screen: {box}"
        assert box["left"] >= 0 and box["right"] <= WIDTH, f"{selector} is off screen: {box}"
    return boxes


def _rows(boxes: list[dict[str, float]], within: float) -> int:
    """How many rows the boxes form: a box whose top is more than ``within`` below the
    row's first box starts a new row."""
    tops = sorted(box["top"] for box in boxes)
    rows, first = 1, tops[0]
    for top in tops[1:]:
        if top - first > within:
            rows, first = rows + 1, top
    return rows


def _fan(page: Page) -> list[dict[str, Any]]:
    """The hand's cards, each asserted to be tappable and to show its face and its corner
    index."""
    cards: list[dict[str, Any]] = page.evaluate(FAN, INDEX_WIDTH)
    for number, card in enumerate(cards):
        assert card["tapped"], f"card {number + 1} of the hand cannot be tapped"
        assert card["corner"], f"the corner of card {number + 1} of the hand is covered"
        assert card["face"], f"card {number + 1} of the hand shows no face"
    return cards


def _shared_panels_row(page: Page) -> None:
    us, them = (
        _on_first_screen(page, ".st-key-team_us"),
        _on_first_screen(page, ".st-key-team_them"),
    )
    assert abs(us[0]["top"] - them[0]["top"]) < 2, "the team panels sit side by side"
    table = _boxes(page, ".st-key-table_felt")[0]
    assert us[0]["bottom"] <= table["top"], "the scores come before the table"


def test_phone_first_screen_holds_hand_bids_and_scores(browser: Browser, app_url: str) -> None:
    with _page(browser, app_url, PHONE) as page:
        look_then_ready_to_bid(page)
        settled(page)
        _on_first_screen(page, ".st-key-status")
        _on_first_screen(page, ".st-key-trick")
        _shared_panels_row(page)
        cards = _on_first_screen(page, CARD_BUTTONS)
        assert len(cards) == 13
        assert _rows(cards, within=3) == 1, "the hand is one row"
        bids = _on_first_screen(page, ".st-key-bids button")
        assert len(bids) == 14
        assert _rows(bids, within=3) <= 2, "the bids take at most two rows"
        _fan(page)


def test_phone_first_screen_holds_the_hand_while_playing(
    browser: Browser, app_url: str, tmp_path: Path
) -> None:
    picture = screenshot_path("table-phone.png", tmp_path)
    with _page(browser, app_url, PHONE) as page:
        look_then_ready_to_bid(page)
        bids = page.locator(".st-key-bids button:enabled:visible")
        bids.nth(bids.count() // 2).tap()
        expect(your_turn(page)).to_contain_text("play a card", timeout=WAIT)
        expect(page.locator(".st-key-hand " + CARDS + ":enabled").first).to_be_visible()
        settled(page)
        _on_first_screen(page, ".st-key-status")
        _on_first_screen(page, ".st-key-trick")
        _shared_panels_row(page)
        cards = _on_first_screen(page, CARD_BUTTONS)
        assert len(cards) == 13
        fan = _fan(page)
        # The playable cards stand raised, less than half a card: still the same row.
        assert _rows(cards, within=fan[0]["height"] / 2) == 1, "the hand is one row"
        raised = [card["top"] for card in fan if card["playable"]]
        lowered = [card["top"] for card in fan if not card["playable"]]
        assert raised, "a card can be played"
        if lowered:
            assert max(raised) + 4 <= min(lowered), "the playable cards stand raised"
        page.screenshot(path=str(picture), scale="css")
    assert picture.stat().st_size > 10_000


def test_the_hand_is_one_fanned_row_of_card_faces_on_a_desktop(
    browser: Browser, app_url: str
) -> None:
    with _page(browser, app_url, DESKTOP) as page:
        look_then_ready_to_bid(page)
        settled(page)
        cards = _boxes(page, CARD_BUTTONS)
        assert len(cards) == 13
        assert _rows(cards, within=3) == 1, "the hand is one row"
        felt = _boxes(page, ".st-key-table_felt")[0]
        for card in cards:
            assert felt["left"] <= card["left"] and card["right"] <= felt["right"], card
        _fan(page)


def test_touch_screen_hides_keyboard_help(browser: Browser, app_url: str) -> None:
    for device, shown in ((PHONE, False), (DESKTOP, True)):
        with _page(browser, app_url, device) as page:
            keys = page.locator(".st-key-keys")
            expect(keys).to_have_count(1, timeout=WAIT)
            if shown:
                expect(keys).to_be_visible()
            else:
                expect(keys).to_be_hidden()


def test_to_act_badge_stays_on_one_line_on_a_phone(browser: Browser, app_url: str) -> None:
    with _page(browser, app_url, PHONE) as page:
        look_then_ready_to_bid(page)
        settled(page)
        badge = page.locator(".sp-south .sp-badge")
        expect(badge).to_have_text("to act")
        lines, height, size = badge.evaluate(
            """b => { const text = document.createRange(); text.selectNodeContents(b);
              const tops = new Set([...text.getClientRects()].map(r => Math.round(r.top)));
              return [tops.size, b.getBoundingClientRect().height,
                parseFloat(getComputedStyle(b).fontSize)]; }"""
        )
        assert lines == 1, "the badge's words share one line"
        assert height < 2 * size, f"the badge is one line high: {height}px at {size}px type"
