"""A whole short match on the Play page in Chromium, on a desktop's screen and a phone's:
every hand is played on one screen, and the match ends in its celebration or its final
score, the whole scoresheet and a rematch with the same house rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import (
    CARDS,
    WAIT,
    click_in_place,
    fold,
    offered_blind_nil,
    open_house_rules,
    pick,
    pick_rule_set,
    play_a_card,
    settled,
    your_turn,
)
from playwright.sync_api import Browser, Page, expect

from spades.app.play import TRICK_HOLD

pytestmark = pytest.mark.browser

DESKTOP: dict[str, Any] = {"viewport": {"width": 1366, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
#: The card buttons (the script below keeps the visible ones: Streamlit draws hidden copies).
CARD_BUTTONS = "[class*='st-key-card_'] button"
#: A short match: first to 130, and blind nil offered before every hand's cards are seen
#: (while the player's side is not ahead). The player bids low and never blind nil, so
#: their side needs two hands at least (a nil of the partner's, 100, and 1 bid, with 12
#: bags at most, make 122).
TARGET = 130
#: The two screens, each with its opponents: on the desktop the random bots (the
#: player's side then mostly wins, to its celebration), on the phone the default ones.
CASES = {"desktop": (DESKTOP, "random"), "phone": (PHONE, None)}
#: The mercy score against the random bots: they fall to it in a few hands (at the
#: default, in one).
WEAK_MERCY = -300
#: What a player acts on or reads during a hand: the table with North's seat, the trick,
#: the status line, the hand (face down too), the bids, and beside it the scores, the
#: controls, the notice, the hint and the last trick.
IN_VIEW = (
    ".st-key-side_panels",
    ".st-key-table_felt",
    ".sp-north",
    ".st-key-trick",
    ".st-key-status",
    ".st-key-hand_hidden .sp-card",
    CARD_BUTTONS,
    ".st-key-blind button",
    ".st-key-bids button",
    ".st-key-table_aside",
    ".st-key-controls button",
    ".st-key-table_aside [data-testid='stAlert']",
    ".st-key-last_trick_view",
)
#: The visible elements of ``IN_VIEW`` that lie (partly) outside the window, and whether
#: each selector matched anything visible.
OUT_OF_VIEW = """selectors => {
  const width = window.innerWidth, height = window.innerHeight;
  const out = [], seen = {};
  for (const sel of selectors) {
    const shown = [...document.querySelectorAll(sel)].filter(e => e.checkVisibility());
    seen[sel] = shown.length > 0;
    for (const e of shown) {
      const r = e.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > height || r.right > width) {
        out.push(sel + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      }
    }
  }
  return {out, seen};
}"""
#: From now until the hand's summary or the end screen shows, watch every frame for a card
#: drawn both in the hand and at South's place in the trick.
WATCH_DOUBLES = """() => {
  const doubles = window.spadesDoubles = [];
  const watch = () => {
    const south = new Set([...document.querySelectorAll(".sp-south [data-card]")]
      .map(e => e.dataset.card));
    for (const holder of document.querySelectorAll(
        ":is(.st-key-hand, .st-key-hand_waiting) [class*='st-key-card_']")) {
      const code = [...holder.classList].find(n => n.startsWith("st-key-card_"));
      if (holder.checkVisibility() && south.has(code.slice(12))) doubles.push(code.slice(12));
    }
    const done = document.querySelector("[role='dialog'], .st-key-match_over");
    if (!done || getComputedStyle(done).visibility === "hidden") requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}"""
#: From now until the hand's summary is closed, note when it first shows and every frame
#: in which it is hidden after that: it must not blink, since a click in the blink is lost.
WATCH_SUMMARY = """() => {
  const seen = window.spadesSummary = {shown: null, blinks: []};
  const watch = () => {
    const dialog = document.querySelector("[data-testid='stDialog']");
    const visible = dialog !== null && dialog.checkVisibility({visibilityProperty: true});
    if (seen.shown !== null && dialog !== null && !visible) seen.blinks.push(performance.now());
    if (seen.shown === null && visible) seen.shown = performance.now();
    if (seen.shown === null || dialog !== null) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}"""
#: What the page shows now: the human's turn, a hand's summary, or the end of the match.
MOMENT = """() => {
  if (document.querySelector(".st-key-match_over")) return "over";
  const dialog = document.querySelector("[role='dialog']");
  if (dialog && dialog.checkVisibility({visibilityProperty: true})) return "summary";
  const status = document.querySelector(".st-key-status");
  const playable = [...document.querySelectorAll(
    ".st-key-hand [class*='st-key-card_'] button:enabled, .st-key-bids button:enabled, "
    + ".st-key-blind button:enabled")].some(b => b.checkVisibility());
  return status && status.innerText.includes("Your turn") && playable ? "turn" : null;
}"""


@pytest.fixture(params=list(CASES))
def screen(request: pytest.FixtureRequest, browser: Browser, app_url: str) -> Iterator[Page]:
    """The Play page in a context of its own, at the screen size of the case and without
    motion (the boxes measured are where things come to rest), a short match started
    against the case's opponents."""
    device, opponents = CASES[request.param]
    context = browser.new_context(**device, reduced_motion="reduce")
    try:
        page = context.new_page()
        page.goto(app_url)
        expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
        _short_match(page, opponents)
        yield page
    finally:
        context.close()


def _phone(page: Page) -> bool:
    return (page.viewport_size or {"width": 0})["width"] < 640


def _short_match(page: Page, opponents: str | None) -> None:
    """Pick the instant pace, the ``opponents`` (East's and West's bot, when given) and the
    house rules of a short match in the sidebar (opened for it on a phone), and start the
    match."""
    if _phone(page):
        page.get_by_test_id("stExpandSidebarButton").click()
    page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
    if opponents is not None:
        settled(page)
        for seat in "EW":
            pick(page, f"bot_{seat}", opponents)
    open_house_rules(page)
    pick_rule_set(page, "Custom")
    numbers = {"rule_target_score": TARGET, "rule_blind_nil_deficit": 0}
    if opponents is not None:
        # Weak opponents fall to the default mercy score in a hand: they last a few.
        numbers["rule_mercy_score"] = WEAK_MERCY
    for key, value in numbers.items():
        number = page.locator(f".st-key-{key} input")
        number.fill(str(value))
        number.press("Enter")
        expect(number).to_have_value(str(value), timeout=WAIT)
        settled(page)
    page.locator(".st-key-new_game_with_rules button:visible").click()
    expect(page.locator(".st-key-new_game_with_rules")).to_have_count(0, timeout=WAIT)
    fold(page, "House rules for the next game", open_=False)
    if _phone(page):
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
        expect(page.get_by_test_id("stSidebarContent")).not_to_be_in_viewport(timeout=WAIT)
    expect(page.locator(".st-key-header")).to_contain_text(f"first to {TARGET}", timeout=WAIT)


def _in_view(page: Page, *must: str) -> None:
    """Once the page has settled, every part of a hand on show lies inside the window (so
    the app has not left the page scrolled away from the table: the test's own clicks keep
    it in place), the parts ``must`` among them."""
    settled(page)
    found: dict[str, Any] = page.evaluate(OUT_OF_VIEW, [*IN_VIEW, *must])
    assert not found["out"], f"out of view: {found['out']}"
    assert all(found["seen"][sel] for sel in must), f"not shown: {found['seen']}"


def _moment(page: Page) -> str:
    return str(page.wait_for_function(MOMENT, timeout=WAIT).json_value())


def _bid(page: Page) -> None:
    """Look at the cards when blind nil is offered (the face-down hand one row, on screen),
    then bid low: the lowest bid past nil that may be made."""
    if offered_blind_nil(page):
        _in_view(page, ".st-key-hand_hidden .sp-card", ".st-key-blind button")
        backs = page.locator(".st-key-hand_hidden .sp-card").evaluate_all(
            "cards => cards.map(c => Math.round(c.getBoundingClientRect().top))"
        )
        assert len(backs) == 13 and len(set(backs)) == 1, f"the backs lie in rows: {backs}"
        click_in_place(page, page.locator(".st-key-look button:visible"))
    expect(page.locator(".st-key-bids")).to_be_visible(timeout=WAIT)
    expect(page.locator(CARDS)).to_have_count(13, timeout=WAIT)
    _in_view(page, ".st-key-bids button", CARD_BUTTONS, ".sp-north", ".st-key-controls button")
    bids = page.locator(".st-key-bids button:enabled:visible")
    click_in_place(page, bids.nth(1 if bids.count() > 1 else 0))
    expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)


def _play_hand(page: Page) -> str:
    """Play the human's cards to the hand's end, the controls tried on its second trick:
    the last trick shown (it stays for the hand), a hint, a card taken back. Returns what
    ends the hand: its summary, or the end of the match."""
    cards = 13
    while (moment := _moment(page)) == "turn":
        _in_view(page, CARD_BUTTONS)
        if cards == 12:
            click_in_place(page, page.locator(".st-key-last_trick button:visible"))
            expect(page.locator(".st-key-last_trick_view")).to_contain_text("won by")
            click_in_place(page, page.locator(".st-key-hint button:visible"))
            expect(page.locator(".st-key-table_aside [data-testid='stAlert']")).to_be_visible(
                timeout=WAIT
            )
            _in_view(page, ".st-key-last_trick_view", ".st-key-table_aside [data-testid='stAlert']")
            play_a_card(page)
            your_turn(page)
            click_in_place(page, page.locator(".st-key-undo button:visible"))
            expect(page.locator(".st-key-table_aside")).to_contain_text(
                "Your last move was taken back.", timeout=WAIT
            )
            expect(page.locator(CARDS)).to_have_count(12, timeout=WAIT)
            your_turn(page)
            _in_view(page, ".st-key-table_aside [data-testid='stAlert']", CARD_BUTTONS)
        if cards == 1:
            # The last card goes from the hand as it lands on the table, never drawn in both.
            page.evaluate(WATCH_DOUBLES)
            # The hand's end is seen with motion, as most players see it: Streamlit then
            # slides its dialogs in.
            page.emulate_media(reduced_motion="no-preference")
            page.evaluate(WATCH_SUMMARY)
        play_a_card(page)
        cards -= 1
    if cards == 0:
        doubles = page.evaluate("window.spadesDoubles")
        assert not doubles, f"the last card showed in the hand and on the table: {doubles}"
    return moment


def test_a_short_match_is_played_on_one_screen_to_its_end_and_a_rematch(screen: Page) -> None:
    page = screen
    hands = 0
    while True:
        hands += 1
        expect(page.locator(".st-key-header")).to_contain_text(f"hand {hands}", timeout=WAIT)
        your_turn(page)
        _bid(page)
        if _play_hand(page) == "over":
            break
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text(f"Hand {hands}", timeout=WAIT)
        # The summary stays shown from the moment it opens, for twice a trick's moment.
        page.wait_for_function(
            """ms => { const seen = window.spadesSummary;
              return seen.shown !== null && performance.now() - seen.shown > ms; }""",
            arg=2000 * TRICK_HOLD,
            timeout=WAIT,
        )
        blinks = page.evaluate("window.spadesSummary.blinks.length")
        assert not blinks, f"the summary was hidden in {blinks} frames after it showed"
        page.locator(".st-key-next_hand button:visible").click()
        expect(page.get_by_role("dialog")).to_have_count(0, timeout=WAIT)
        page.emulate_media(reduced_motion="reduce")
    over = page.locator(".st-key-match_over")
    expect(over).to_contain_text(f"Final score after {hands} hands", timeout=WAIT)
    won = "You and your partner win" in over.locator("h2").inner_text()
    # The winners' balloons rise; a lost match ends on its final score alone.
    expect(page.get_by_test_id("stBalloons")).to_have_count(1 if won else 0, timeout=WAIT)
    sheet = page.locator(".st-key-scoresheet [data-testid='stDataFrame']")
    expect(sheet).to_be_visible(timeout=WAIT)
    sheet.scroll_into_view_if_needed()
    rows = sheet.locator("table [role='row']")
    expect(rows).to_have_count(hands + 1, timeout=WAIT)
    expect(rows.last.locator("[role='gridcell']").first).to_have_text(str(hands))
    page.locator(".st-key-rematch button:visible").click()
    expect(page.locator(".st-key-match_over")).to_have_count(0, timeout=WAIT)
    header = page.locator(".st-key-header")
    expect(header).to_contain_text("hand 1", timeout=WAIT)
    expect(header).to_contain_text(f"first to {TARGET}")
    expect(header).not_to_contain_text("undo used")
    # The same house rules: blind nil is offered before the cards are seen.
    expect(page.locator(".st-key-blind")).to_be_visible(timeout=WAIT)
    _in_view(page, ".st-key-hand_hidden .sp-card", ".st-key-blind button")
