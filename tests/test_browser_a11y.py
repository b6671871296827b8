"""The Play page in Chromium for everyone: keyboard play, a phone-width screen, reduced
motion, each felt theme (screenshots for the README) and an axe-core accessibility check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_helpers import (
    CARDS,
    FACE,
    WAIT,
    axe_violations,
    card_key,
    choose,
    face_of,
    look_then_ready_to_bid,
    offered_blind_nil,
    on_felt,
    ready_to_bid,
    screenshot_path,
    settled,
    your_turn,
)
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from spades.app.prefs import TablePrefs
from spades.app.themes import CARD_BACKS, FELTS

pytestmark = pytest.mark.browser

#: The card name, then whether it can be played (and why not).
CARD_LABEL = re.compile(
    r"^(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) of "
    r"(clubs|diamonds|hearts|spades), (playable|not playable: .+)$"
)
BID_LABEL = re.compile(r"^Bid (nil|blind nil|1[0-3]|[1-9])(, not allowed: .+)?$")
THEMES = (("emerald", "linen"), ("crimson", "gold"), ("royal", "victorian"))


def _open(page: Page, url: str, speed: str = "instant", width: int = 1280) -> None:
    page.set_viewport_size({"width": width, "height": 900 if width > 600 else 844})
    page.goto(url)
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=WAIT)
    if width <= 600:
        # On a phone the sidebar starts closed; open it to set the pace, then close it.
        page.get_by_test_id("stExpandSidebarButton").click()
    page.locator(".st-key-speed").get_by_text(speed, exact=True).click()
    expect(page.locator(".st-key-speed input[type='radio']:checked")).to_have_value(
        str(["slow", "normal", "fast", "instant"].index(speed)), timeout=WAIT
    )
    settled(page)
    if width <= 600:
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
    your_turn(page)
    # The player now puts the mouse away: everything below is typed.
    page.evaluate("document.activeElement && document.activeElement.blur()")


def _focused_key(page: Page) -> str:
    return str(
        page.evaluate(
            "(() => { const box = document.activeElement?.closest(\"[class*='st-key-']\");"
            " const m = box && box.className.match(/st-key-(\\S+)/); return m ? m[1] : ''; })()"
        )
    )


def _press_until(page: Page, key: str, wanted: re.Pattern[str], tries: int = 20) -> str:
    """Press ``key`` until the focused button's key matches ``wanted``; returns that key."""
    for _ in range(tries):
        page.keyboard.press(key)
        focused = _focused_key(page)
        if wanted.fullmatch(focused):
            return focused
    rows = page.evaluate(
        "['blind', 'bids', 'hand'].map(k => k + ': ' + [...document.querySelectorAll("
        "'.st-key-' + k + ' button')].filter(b => !b.disabled && b.offsetParent).length)"
    )
    raise AssertionError(
        f"{key} never reached {wanted.pattern}; focus is on {_focused_key(page)!r}, "
        f"{page.evaluate('document.activeElement?.outerHTML?.slice(0, 120)')}, "
        f"enabled buttons per row: {rows}"
    )


def _keyboard_bid(page: Page) -> None:
    if offered_blind_nil(page):
        _press_until(page, "ArrowRight", re.compile("look"))
        page.keyboard.press("Enter")
    ready_to_bid(page)
    page.keyboard.press("2")
    if _focused_key(page) != "bid_2":
        _press_until(page, "ArrowRight", re.compile(r"bid_(nil|\d+)"))
    page.keyboard.press("Enter")
    expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)


def _playable_keys(page: Page) -> list[str]:
    keys = []
    for button in page.locator(".st-key-hand " + CARDS + ":enabled").all():
        box = button.locator("xpath=ancestor::*[contains(@class, 'st-key-card_')][1]")
        found = re.search(r"st-key-card_(\w+)", box.get_attribute("class") or "")
        assert found
        keys.append(found.group(1))
    return keys


def _won(page: Page) -> int:
    text = page.locator(".sp-table").inner_text()
    return sum(int(n) for n in re.findall(r"won (\d+)", text))


def test_a_trick_is_bid_and_played_from_the_keyboard_alone(page: Page, app_url: str) -> None:
    _open(page, app_url)
    _keyboard_bid(page)
    your_turn(page)
    expect(page.locator(".st-key-hand " + CARDS + ":enabled").first).to_be_visible(timeout=WAIT)
    # First trick: type the card's rank and suit.
    code = _playable_keys(page)[0]
    page.keyboard.type(code[0])
    page.keyboard.type(code[1])
    expect(page.locator(f".st-key-card_{code}")).to_have_count(0, timeout=WAIT)
    expect(page.locator(CARDS)).to_have_count(12, timeout=WAIT)
    your_turn(page)
    assert _won(page) == 1, "the bots finished the trick and it was gathered"
    # Second trick: the arrows choose a card (the focus ring shows it), Enter plays it.
    chosen = _press_until(page, "ArrowRight", re.compile(r"card_\w+"))
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid", "the focused card shows a focus ring"
    page.keyboard.press("Enter")
    expect(page.locator(f".st-key-{chosen}")).to_have_count(0, timeout=WAIT)
    your_turn(page)
    assert _won(page) == 2
    expect(page.locator(CARDS)).to_have_count(11, timeout=WAIT)


def _no_horizontal_overflow(page: Page) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"
    for selector in (".sp-table", ".st-key-hand_waiting", ".st-key-hand", ".st-key-bids"):
        for element in page.locator(selector).all():
            box = element.bounding_box()
            if box is not None:  # None: not on screen (a row already gone)
                assert box["x"] >= 0 and box["x"] + box["width"] <= widths[1], selector


def test_a_phone_width_screen_fits_the_hand_trick_and_bids(page: Page, app_url: str) -> None:
    _open(page, app_url, width=390)
    look_then_ready_to_bid(page)
    _no_horizontal_overflow(page)
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    your_turn(page)
    expect(page.locator(".st-key-hand")).to_be_visible(timeout=WAIT)
    _no_horizontal_overflow(page)
    page.locator(".st-key-hand " + CARDS + ":enabled").first.click()
    your_turn(page)
    _no_horizontal_overflow(page)


def _animation(page: Page, selector: str) -> tuple[str, float]:
    """The animation name and duration (seconds) of the first element matching ``selector``,
    found and read in one step of the page (a rerun may replace it between two)."""
    # Playwright's ":visible" becomes the browser's own visibility check.
    css, visible = selector.replace(":visible", ""), ":visible" in selector
    handle = page.wait_for_function(
        """([css, visible]) => {
          const e = [...document.querySelectorAll(css)]
            .find(e => !visible || e.checkVisibility());
          if (!e) return null;
          const style = getComputedStyle(e);
          return [style.animationName, style.animationDuration];
        }""",
        arg=[css, visible],
        timeout=WAIT,
    )
    name, duration = handle.json_value()
    return str(name), float(str(duration).split(",")[0].rstrip("s"))


def test_animations_follow_the_pace_and_stop_for_reduced_motion(page: Page, app_url: str) -> None:
    _open(page, app_url, speed="slow")
    deal = ".st-key-hand_waiting " + CARDS
    look_then_ready_to_bid(page)
    expect(page.locator(deal).first).to_be_visible(timeout=WAIT)
    name, slow = _animation(page, deal)
    assert name == "sp-deal" and slow > 0
    page.locator(".st-key-speed").get_by_text("fast", exact=True).click()
    page.wait_for_function(
        "() => getComputedStyle(document.documentElement).getPropertyValue('--sp-beat')"
        ".trim() === '0.40s'",
        timeout=WAIT,
    )
    assert _animation(page, deal)[1] < slow, "a faster pace deals faster"
    page.emulate_media(reduced_motion="reduce")
    assert _animation(page, deal) == ("none", 0.0)
    # A card played to the trick slides in, unless the player asked for less motion.
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    expect(page.locator(".st-key-status")).to_contain_text("Your turn: play", timeout=WAIT)
    if not page.locator(".sp-slot .sp-card").count():
        page.locator(".st-key-hand " + CARDS + ":enabled").first.click()
    expect(page.locator(".sp-slot .sp-card").first).to_be_visible(timeout=WAIT)
    assert _animation(page, ".sp-slot .sp-card") == ("none", 0.0)
    page.emulate_media(reduced_motion="no-preference")
    expect(page.locator(".sp-fresh")).to_have_count(1, timeout=WAIT)
    assert _animation(page, ".sp-fresh")[0].startswith("sp-from-")


def _labels_of(page: Page, selector: str) -> list[str]:
    return [str(b.get_attribute("aria-label")) for b in page.locator(selector).all()]


def _four_colour(page: Page, *, on: bool) -> None:
    """Switch the four-colour deck on or off in the sidebar, and wait until the page's
    diamonds are drawn from that deck (blue) or the other (red), and the run is over."""
    switch = page.locator(".st-key-four_colour")
    switch.get_by_text("Four-colour deck").click()
    checked = expect(switch.locator("input"))
    (checked.to_be_checked if on else checked.not_to_be_checked)(timeout=WAIT)
    page.wait_for_function(
        f"on => ({FACE})('TD').includes('/four-colour/TD.svg') === on", arg=on, timeout=WAIT
    )
    assert "/four-colour/" not in face_of(page, "TS"), "spades keep their black faces"
    settled(page)
    page.locator(".st-key-header").hover()


def test_each_felt_is_screenshotted_and_passes_the_accessibility_check(
    page: Page, app_url: str, tmp_path: Path
) -> None:
    # Contrast is judged on the settled colours, not halfway through a transition.
    page.emulate_media(reduced_motion="reduce")
    _open(page, app_url)
    look_then_ready_to_bid(page)
    expect(page.locator(".st-key-bids")).to_be_visible(timeout=WAIT)
    # While bidding: every bid and card button has a spoken name, and axe finds no fault.
    expect(page.locator(".st-key-bid_13 button:visible")).to_have_attribute(
        "aria-label", BID_LABEL, timeout=WAIT
    )
    for label in _labels_of(page, ".st-key-bids button:visible"):
        assert BID_LABEL.fullmatch(label), label
    for label in _labels_of(page, CARDS):
        assert CARD_LABEL.fullmatch(label), label
    assert axe_violations(page) == []
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    # The bid taken and the play come round: the status asked "Your turn" while bidding.
    expect(page.locator(".st-key-status")).to_contain_text("Your turn: play", timeout=WAIT)
    page.get_by_text("Show known voids").click()
    for felt, back in THEMES:
        choose(page, "felt", FELTS[felt].label)
        choose(page, "back_design", CARD_BACKS[back].label)
        on_felt(page, felt)
        your_turn(page)
        playable = page.locator(".st-key-hand " + CARDS + ":enabled")
        expect(playable.first).to_have_attribute(
            "aria-label", re.compile(", playable$"), timeout=WAIT
        )
        for label in _labels_of(page, CARDS):
            assert CARD_LABEL.fullmatch(label), label
        expect(page.locator(".sp-voids")).to_have_count(3)
        # The pointer leaves the sidebar: a tooltip fading in or out under it is neither
        # the table's nor the picture's.
        page.locator(".st-key-table_felt").scroll_into_view_if_needed()
        page.locator(".st-key-header").hover()
        expect(page.locator(".stTooltipContent")).to_have_count(0, timeout=WAIT)
        assert axe_violations(page) == [], felt
        picture = screenshot_path(f"theme-{felt}.png", tmp_path)
        page.screenshot(path=str(picture))
        assert picture.stat().st_size > 10_000
        # The four-colour deck on the same felt: its faces are drawn, and pass the check.
        _four_colour(page, on=True)
        assert axe_violations(page) == [], f"{felt}, four colours"
        picture = screenshot_path(f"theme-{felt}-four-colour.png", tmp_path)
        page.screenshot(path=str(picture))
        assert picture.stat().st_size > 10_000
        _four_colour(page, on=False)
        playable.first.click()
        expect(page.locator(CARDS)).to_have_count(13 - THEMES.index((felt, back)) - 1, timeout=WAIT)
    status = page.locator("[role='status'][aria-live='polite']")
    expect(status).to_contain_text("Us: bid")
    expect(status).to_contain_text("score")


def test_sound_is_off_until_turned_on_then_a_card_plays_a_clip(page: Page, app_url: str) -> None:
    _open(page, app_url)
    switch = page.locator(".st-key-sound_on input")
    expect(switch).not_to_be_checked()
    volume = page.locator(".st-key-sound_volume input[type='range']")
    expect(volume).to_have_value(str(TablePrefs().volume), timeout=WAIT)
    assert page.locator("audio").count() == 0
    page.locator(".st-key-sound_on label").click()
    expect(switch).to_be_checked(timeout=WAIT)
    expect(volume).to_have_value(str(TablePrefs().volume))
    settled(page)
    look_then_ready_to_bid(page)
    bids = page.locator(".st-key-bids button:enabled:visible")
    bids.nth(bids.count() // 2).click()
    expect(page.locator(".st-key-status")).to_contain_text("Your turn: play", timeout=WAIT)
    settled(page)
    audio = page.locator(".st-key-table_sound audio")
    # The bots may have played to the trick already (each card snaps): note that clip.
    before = audio.get_attribute("src") if audio.count() else None
    # What becomes of every clip from now on: each that starts playing by itself, and each
    # that fails (media events do not bubble, but they are seen on their way down). A rerun
    # may draw a clip already heard again, which Streamlit does not play again: the clip is
    # checked as it plays, not after.
    page.evaluate(
        """() => { const played = window.spadesPlayed = [], events = window.spadesClips = [];
          for (const kind of ["loadstart", "playing", "error", "abort", "emptied"]) {
            document.addEventListener(kind, event => {
              const clip = event.target;
              if (!clip.closest || !clip.closest(".st-key-table_sound")) return;
              events.push([kind, clip.src.slice(-12), clip.autoplay, clip.error?.code ?? null]);
              if (kind === "playing" && clip.duration > 0.1) played.push(clip.src);
            }, true);
          } }"""
    )
    card = page.locator(".st-key-hand " + CARDS + ":enabled").first
    key = card_key(card)
    card.click()
    expect(page.locator(f".st-key-hand .st-key-{key}")).to_have_count(0, timeout=WAIT)
    # The card's clip is fetched and plays (the click on the card allows autoplay).
    try:
        page.wait_for_function(
            "before => window.spadesPlayed.some(src => src !== before)", arg=before, timeout=WAIT
        )
    except PlaywrightTimeoutError as error:
        clips = page.evaluate("() => window.spadesClips")
        raise AssertionError(f"no new clip played; before {before}; clips {clips}") from error
