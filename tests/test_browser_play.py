"""The Play page in Chromium, started the way a user starts the app (``streamlit run``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import (
    CARDS,
    WAIT,
    LostBid,
    card_key,
    cookies_set,
    fold,
    game_id,
    gone,
    look_then_ready_to_bid,
    open_house_rules,
    pick_rule_set,
    play_a_card,
    settled,
    your_turn,
)
from playwright.sync_api import Browser, Locator, Page, expect

from spades.engine.rules import PRESETS, Rules
from spades.store import Store
from spades.ui.quick import ECHO_MS

pytestmark = pytest.mark.browser


def _open(page: Page, url: str, speed: str = "instant") -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url)
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
    page.locator(".st-key-speed").get_by_text(speed, exact=True).click()


def _bid_or_look(page: Page) -> None:
    """Make the human's bidding choices: look at the cards if asked, then bid."""
    look_then_ready_to_bid(page)
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)


def _whole_hand(page: Page, count: int) -> set[str]:
    """The keys of the cards held, read once the hand shows ``count`` different cards.

    While a run redraws the hand, the page holds only the cards drawn so far; the count and
    the keys are read together in one look at the page, so a half-drawn hand is never read.
    """
    keys = page.wait_for_function(
        """n => {
          const keys = [...document.querySelectorAll("[class*='st-key-card_']")]
            .map(e => (e.className.match(/st-key-(card_\\w+)/) || [])[1]).filter(Boolean);
          return keys.length === n && new Set(keys).size === n ? keys : null;
        }""",
        arg=count,
        timeout=WAIT,
    ).json_value()
    return {str(key) for key in keys}


def test_reload_in_the_middle_of_a_trick_and_continue(page: Page, app_url: str) -> None:
    _open(page, app_url, speed="slow")
    _bid_or_look(page)
    game = game_id(page)
    your_turn(page)
    played = play_a_card(page)
    expect(page.locator(".sp-south .sp-card")).to_have_count(1, timeout=WAIT)
    # The UI contract: the card in the trick names itself and its seat.
    code = played.removeprefix("card_")
    expect(page.locator(f".st-key-trick [data-seat='S'][data-card='{code}']")).to_have_count(1)
    held = _whole_hand(page, 12)
    assert played not in held
    page.reload()
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
    assert game_id(page) == game
    expect(page.locator(CARDS)).to_have_count(12, timeout=WAIT)
    assert _whole_hand(page, 12) == held
    page.locator(".st-key-speed").get_by_text("instant", exact=True).click()
    your_turn(page)
    play_a_card(page)
    assert game_id(page) == game


def test_two_browser_contexts_play_two_separate_games(browser: Browser, app_url: str) -> None:
    first = browser.new_context()
    second = browser.new_context()
    try:
        one, two = first.new_page(), second.new_page()
        _open(one, app_url)
        _open(two, app_url)
        _bid_or_look(one)
        _bid_or_look(two)
        assert game_id(one) != game_id(two)
        # The page reloaded must come back as the game's owner: its cookie is set first.
        cookies_set(two, 1)
        held = _whole_hand(two, 13)
        your_turn(one)
        play_a_card(one)
        two.reload()
        expect(two.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
        assert _whole_hand(two, 13) == held
        expect(one.locator(CARDS)).to_have_count(12, timeout=WAIT)
    finally:
        first.close()
        second.close()


def test_opening_and_closing_the_app_stores_no_game(
    page: Page, fresh_app_url: str, tmp_path: Path
) -> None:
    _open(page, fresh_app_url)
    look_then_ready_to_bid(page)
    assert "game=" not in page.url
    page.close()
    store = Store(f"sqlite:///{tmp_path / 'spades.db'}")
    try:
        assert not store.list_games()
    finally:
        store.close()


def test_new_game_asks_before_giving_up_the_game_in_play(page: Page, app_url: str) -> None:
    _open(page, app_url)
    _bid_or_look(page)
    game = game_id(page)
    page.locator(".st-key-new_game button:visible").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Start a new game?", timeout=WAIT)
    page.locator(".st-key-keep_playing button:visible").click()
    expect(page.get_by_role("dialog")).to_have_count(0, timeout=WAIT)
    assert game_id(page) == game
    page.locator(".st-key-new_game button:visible").click()
    page.locator(".st-key-confirm_new_game button:visible").click()
    expect(page).not_to_have_url(re.compile(game), timeout=WAIT)
    expect(page.locator(".st-key-bids")).to_be_visible(timeout=WAIT)


def _spot(card: Locator) -> tuple[float, float]:
    """A point of ``card`` (a button in the fanned hand) that no other card covers."""
    found = card.evaluate(
        """button => {
          const box = button.getBoundingClientRect();
          for (let fx = 0.1; fx < 1; fx += 0.1) {
            const x = box.left + fx * box.width, y = box.top + box.height / 2;
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest("button") === button) return [x, y];
          }
          return null;
        }"""
    )
    assert found, "the card is covered everywhere"
    return float(found[0]), float(found[1])


def test_a_double_click_plays_one_card_but_a_late_second_click_or_tap_plays_another(
    page: Page, app_url: str
) -> None:
    # A double click plays one card, without a warning. A click the browser counts as a
    # double click's second (a mouse's on the same spot, a phone's two taps on two cards of
    # its fan) is a card played once the hand under it has been on show for longer than
    # a double click's echo: a person's answer to what they see, not the echo.
    _open(page, app_url)
    _bid_or_look(page)
    your_turn(page)
    _whole_hand(page, 13)
    first = page.locator(CARDS + ":enabled").first
    key = card_key(first)
    first.dblclick()
    gone(page, key)
    held = _whole_hand(page, 12)
    assert page.get_by_text("moved on").count() == 0
    for touch in (False, True):
        your_turn(page)
        settled(page)
        shown = page.evaluate("performance.now()")
        card = page.locator(CARDS + ":enabled").first
        played = card_key(card)
        page.wait_for_function(
            "([since, ms]) => performance.now() - since > ms", arg=[shown, ECHO_MS]
        )
        if touch:
            card.evaluate(
                """button => button.dispatchEvent(new PointerEvent("click", {
                  bubbles: true, cancelable: true, composed: true, view: window,
                  pointerType: "touch", detail: 2,
                }))"""
            )
        else:
            x, y = _spot(card)
            page.mouse.move(x, y)
            page.mouse.down(click_count=2)
            page.mouse.up(click_count=2)
        gone(page, played)
        held -= {played}
        assert _whole_hand(page, len(held)) == held


#: What Streamlit can leave behind after a run of the table cut short by the next: the
#: button of a card no longer held, still drawn in the hand (a copy of a real card's
#: element, renamed to a card of the other hand).
LEFT_BEHIND = """() => {
  const held = [...document.querySelectorAll(".st-key-hand [class*='st-key-card_'],"
    + " .st-key-hand_waiting [class*='st-key-card_']")];
  const keys = new Set(held.map(e => e.className.match(/st-key-(card_\\w+)/)[1]));
  const gone = ["card_2C", "card_3C", "card_4C", "card_5C"].find(key => !keys.has(key));
  const copy = held[0].cloneNode(true);
  copy.className = copy.className.replace(/st-key-card_\\w+/, "st-key-" + gone);
  held[0].parentElement.append(copy);
  return gone;
}"""


def test_a_card_button_left_behind_in_the_hand_by_a_run_is_hidden(page: Page, app_url: str) -> None:
    # The table's run mark lists the card buttons the server drew; once the run is over,
    # the page hides any other one, so a played card never shows in the hand.
    _open(page, app_url)
    _bid_or_look(page)
    your_turn(page)
    settled(page)
    gone = page.evaluate(LEFT_BEHIND)
    expect(page.locator(f".st-key-{gone}")).to_be_hidden()
    held = page.locator(CARDS + ":enabled").first
    expect(held).to_be_visible()


def test_a_preset_picked_in_the_browser_reaches_the_engine_and_stays_picked(
    page: Page, app_url: str, app_db_url: str
) -> None:
    jokers = next(preset for preset in PRESETS if preset.name == "Jokers")
    _open(page, app_url)
    open_house_rules(page)
    pick_rule_set(page, jokers.name)
    expect(page.get_by_text(jokers.description)).to_be_visible(timeout=WAIT)
    expect(page.locator("[class*='st-key-rule_']")).to_have_count(0)
    page.locator(".st-key-new_game_with_rules button:visible").click()
    expect(page.locator(".st-key-new_game_with_rules")).to_have_count(0, timeout=WAIT)
    # Further runs (the bid) must not bring back the rules shown before the pick.
    _bid_or_look(page)
    game = game_id(page)
    settled(page)
    expect(page.locator(".st-key-preset input")).to_have_value(jokers.name)
    expect(page.locator(".st-key-new_game_with_rules")).to_have_count(0)
    store = Store(app_db_url)
    try:
        assert store.load(game).match.rules == jokers.rules
    finally:
        store.close()


def test_custom_rules_in_the_browser_start_from_the_preset_picked_before(
    page: Page, app_url: str, app_db_url: str
) -> None:
    _open(page, app_url)
    open_house_rules(page)
    pick_rule_set(page, "Whiz")
    expect(page.locator(".st-key-new_game_with_rules")).to_be_visible(timeout=WAIT)
    pick_rule_set(page, "Custom")
    whiz = page.locator(".st-key-rule_whiz input")
    expect(whiz).to_be_checked(timeout=WAIT)
    page.locator(".st-key-rule_mercy_score_on").get_by_text("Use the mercy score").click()
    # The run this change makes draws the mercy score's number disabled.
    expect(page.locator(".st-key-rule_mercy_score input")).to_be_disabled(timeout=WAIT)
    settled(page)
    expect(whiz).to_be_checked()
    expect(page.locator(".st-key-preset input")).to_have_value("Custom")
    page.locator(".st-key-new_game button:visible").click()
    expect(page.locator(".st-key-new_game_with_rules")).to_have_count(0, timeout=WAIT)
    # The sidebar tells the rules of the game in play.
    fold(page, "House rules for the next game", open_=False)
    fold(page, "This game's rules", open_=True)
    expect(page.get_by_text("Mercy score: off")).to_be_visible(timeout=WAIT)
    fold(page, "This game's rules", open_=False)
    _bid_or_look(page)
    game = game_id(page)
    store = Store(app_db_url)
    try:
        assert store.load(game).match.rules == Rules(whiz=True, mercy_score=None)
    finally:
        store.close()


def test_a_bid_whose_press_never_reached_the_server_is_sent_again(page: Page, app_url: str) -> None:
    """A press can be lost on its way: a run of the whole page that the player starts at
    once (the sidebar) can take the place of the run that carried it. Here the browser's
    message with the bid is dropped on its way to the server; the next drawing of the
    table, the same position with the bid still offered, sends it again."""
    lost = LostBid(page)
    _open(page, app_url)
    look_then_ready_to_bid(page)
    lost.bid()
    page.get_by_text("Show known voids").click()
    expect(page.locator(".st-key-status")).to_contain_text("Your turn: play", timeout=WAIT)
    expect(page.locator(".st-key-bids")).to_have_count(0)
