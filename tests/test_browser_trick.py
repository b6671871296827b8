"""Every trick is seen: in Chromium, at the instant pace and at normal, each card the player
plays is drawn in the trick, and each finished trick is drawn whole with its winner marked.
At the instant pace the whole hand is played by clicking, to its summary and the next hand.

A script in the page looks at the trick area on every animation frame and notes what was
visible; the test then compares those notes with the tricks the store holds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import (
    CARDS,
    WAIT,
    card_key,
    game_id,
    look_then_ready_to_bid,
    screenshot_path,
    settled,
)
from playwright.sync_api import Page, expect

from spades.engine.cards import SEAT_LETTERS, card_str
from spades.store import Store

pytestmark = pytest.mark.browser

#: Notes, frame by frame: the cards the player clicked, whether each was seen in South's
#: place before the next click, and every set of four cards seen at once with one winner.
WATCH = """
(() => {
  const seen = { clicked: [], drawn: [], whole: [] };
  window.spadesSeen = seen;
  const shown = (e) => e.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  document.addEventListener("click", (event) => {
    const holder = event.target instanceof Element
      && event.target.closest(".st-key-hand [class*='st-key-card_']");
    if (!holder) return;
    const key = [...holder.classList].find((c) => c.startsWith("st-key-card_"));
    seen.clicked.push(key.slice("st-key-card_".length));
  }, true);
  const frame = () => {
    const cards = [...document.querySelectorAll(".st-key-trick [data-card]")].filter(shown);
    const last = seen.clicked[seen.clicked.length - 1];
    if (last && !seen.drawn.includes(last)
        && cards.some((e) => e.dataset.seat === "S" && e.dataset.card === last)) {
      seen.drawn.push(last);
    }
    const winners = cards.filter((e) => e.dataset.winner === "true");
    const seats = new Set(cards.map((e) => e.dataset.seat));
    if (winners.length === 1 && seats.size === 4 && cards.length === 4) {
      const trick = cards.map((e) => e.dataset.seat + e.dataset.card).sort().join(" ");
      const mark = trick + " won by " + winners[0].dataset.seat;
      if (!seen.whole.includes(mark)) seen.whole.push(mark);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""


def _open(page: Page, url: str, speed: str) -> None:
    page.add_init_script(WATCH)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url)
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
    page.locator(".st-key-speed").get_by_text(speed, exact=True).click()
    settled(page)


def _play(page: Page, tricks: int, picture: Path) -> None:
    """Bid, then play ``tricks`` cards, each once the table is waiting for it; the table
    is pictured at the fifth trick."""
    look_then_ready_to_bid(page)
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    status = page.locator(".st-key-status")
    for trick in range(tricks):
        expect(status).to_contain_text(re.compile("play a card|hand is over"), timeout=WAIT)
        if "hand is over" in status.inner_text():
            return
        settled(page)
        if trick == 4:
            page.locator(".st-key-trick").scroll_into_view_if_needed()
            page.screenshot(path=str(picture))
        card = page.locator(CARDS + ":enabled").first
        key = card_key(card)
        card.click()
        # The next card is played once this one has left the hand for good.
        expect(page.locator(f".st-key-{key}")).to_have_count(0, timeout=WAIT)
        settled(page)


@pytest.mark.parametrize(("speed", "tricks"), [("instant", 13), ("normal", 2), ("fast", 3)])
def test_every_card_played_is_drawn_and_every_trick_is_seen_whole(
    page: Page, app_url: str, app_db_url: str, tmp_path: Path, speed: str, tricks: int
) -> None:
    picture = screenshot_path("table.png", tmp_path)
    _open(page, app_url, speed)
    _play(page, tricks, picture)
    game = game_id(page)
    if tricks == 13:
        expect(page.get_by_role("dialog")).to_contain_text("Hand 1", timeout=WAIT)
        expect(page.get_by_role("dialog")).to_contain_text("Points this hand")
    else:
        # The last trick played must be over (and shown) before the notes are read.
        expect(page.locator(".st-key-status")).to_contain_text("Your turn", timeout=WAIT)
    settled(page)
    seen = page.evaluate("window.spadesSeen")
    store = Store(app_db_url)
    try:
        match = store.load(game).match
    finally:
        store.close()
    hand = match.finished[0] if match.finished else match.hand
    finished = hand.tricks[:tricks]
    assert len(finished) == tricks
    assert seen["clicked"] == [card_str(dict(t.plays())[2]) for t in finished]
    assert seen["drawn"] == seen["clicked"], "every card you play appears in the trick"
    for trick in finished:
        cards = " ".join(sorted(SEAT_LETTERS[s] + card_str(c) for s, c in trick.plays()))
        assert f"{cards} won by {SEAT_LETTERS[trick.winner]}" in seen["whole"], (
            "every finished trick is drawn whole with its winner marked"
        )
    if tricks == 13:
        # The whole hand played: the summary gives way to the next hand, and the hand's
        # points are on the scoresheet.
        page.locator(".st-key-next_hand button:visible").click()
        expect(page.get_by_role("dialog")).to_have_count(0, timeout=WAIT)
        expect(page.get_by_text("hand 2")).to_be_visible(timeout=WAIT)
        expect(page.locator(".st-key-scoresheet")).to_contain_text("Us points")
        assert picture.stat().st_size > 10_000
