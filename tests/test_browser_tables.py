"""A shared table in Chromium: one person creates it, a friend joins by its link from another
browser, bots fill the rest; each page holds only its own hand, a move at one seat shows at
the other within two seconds, a reload keeps the seat, and a spectator sees no hand. Each
test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import WAIT, NewPage, card_key, choose, settled
from conftest import serve_app
from playwright.sync_api import Page, expect

from spades.store import Store
from spades.store.tables import Tables

pytestmark = pytest.mark.browser

CARD_KEYS = re.compile(r"st-key-card_(\w\w)\b")
#: A move at one seat must show at the others within this many milliseconds.
SHOWN_WITHIN = 2_000


@pytest.fixture
def table_app(db_url: str, tmp_path: Path) -> Iterator[str]:
    """An app server of the test's own on a new database: once on SQLite and once on
    PostgreSQL, the store several servers share."""
    with serve_app(tmp_path, db_url) as url:
        yield url


def _cards_in(page: Page) -> set[str]:
    """The codes of every card button in the page's DOM, hidden or not."""
    return set(CARD_KEYS.findall(page.content()))


def _create(page: Page, url: str, *, navigate: bool = True) -> str:
    """Ann creates a table from the lobby (opened first unless ``navigate`` is off); its
    invite link."""
    if navigate:
        page.goto(url + "/lobby")
    name = page.locator(".st-key-lobby_name input")
    name.fill("Ann")
    name.press("Enter")
    settled(page)
    page.locator(".st-key-create_table button:visible").click()
    link = page.locator(".st-key-invite_link code")
    expect(link).to_contain_text("?table=", timeout=WAIT)
    return link.inner_text().strip()


def _bid_seat(ann: Page, bob: Page) -> tuple[Page, Page, str]:
    """Wait until Ann or Bob is to bid (the bots bid at the table's pace before them);
    (the bidder's page, the other's, the bidder's place on the table)."""
    status = ann.locator(".st-key-status")
    expect(status).to_contain_text(re.compile("Your turn: bid|Bob is to act"), timeout=WAIT)
    if "Your turn" in status.inner_text():
        return ann, bob, "south"
    return bob, ann, "north"


def _join_as_bob(bob: Page, url: str, table_id: str) -> None:
    """Bob opens the table's invite link at ``url`` (a table is private: not listed in the
    lobby), names himself and takes North."""
    bob.goto(f"{url}/lobby?table={table_id}")
    name = bob.locator(".st-key-lobby_name input")
    name.fill("Bob")
    name.press("Enter")
    settled(bob)
    bob.locator(f".st-key-join_{table_id}_0 button:visible").click()
    expect(bob.locator(".st-key-invite_link")).to_be_visible(timeout=WAIT)


def _with_bob(ann: Page, ann_url: str, bob: Page, bob_url: str, *, navigate: bool = True) -> str:
    """Ann creates a table at ``ann_url`` and Bob takes North from ``bob_url``; its link."""
    link = _create(ann, ann_url, navigate=navigate)
    _join_as_bob(bob, bob_url, link.split("?table=", 1)[1])
    return link


def _start(ann: Page) -> None:
    """Ann, once she sees North taken, starts the match (bots take the other seats)."""
    expect(ann.locator(".st-key-seat_bot_0")).to_have_count(0, timeout=WAIT)
    ann.locator(".st-key-start_table button:visible").click()


def _bid_shows_at_the_other_seat(ann: Page, bob: Page) -> None:
    """Whichever of Ann and Bob bids first bids; the other page shows it within the time."""
    bidder, other, place = _bid_seat(ann, bob)
    bids = bidder.locator(".st-key-bids button:visible")
    choice = bids.nth(bids.count() // 2)
    said = choice.inner_text().strip().lower()
    choice.click()
    expect(other.locator(f".sp-{place} .sp-stats")).to_contain_text(
        f"bid {said}", timeout=SHOWN_WITHIN
    )


def test_two_people_and_two_bots_at_one_table(new_browser: NewPage, table_app: str) -> None:
    app_url = table_app
    ann, bob, watcher = new_browser(), new_browser(), new_browser()
    link = _with_bob(ann, app_url, bob, app_url)
    table_id = link.split("?table=", 1)[1]
    expect(bob.locator(f".st-key-join_{table_id}_1")).to_have_count(0, timeout=WAIT)
    _start(ann)

    for page in (ann, bob):
        expect(page.locator(".st-key-trick")).to_be_visible(timeout=WAIT)
        expect(page.locator(".st-key-hand [class*='st-key-card_']")).to_have_count(13)
    # Each browser holds its own hand and nothing of the other's.
    mine, theirs = _cards_in(ann), _cards_in(bob)
    assert len(mine) == 13 and len(theirs) == 13 and not mine & theirs

    _bid_shows_at_the_other_seat(ann, bob)

    bob.reload()
    expect(bob.locator(".st-key-hand [class*='st-key-card_']")).to_have_count(13, timeout=WAIT)
    assert _cards_in(bob) == theirs, "a reload keeps the seat and its hand"

    watcher.goto(link)
    expect(watcher.locator(".st-key-trick")).to_be_visible(timeout=WAIT)
    assert not _cards_in(watcher), "a spectator's page holds no hand"
    expect(watcher.locator("[class*='st-key-join_']")).to_have_count(0)


def test_two_servers_on_one_database_serve_one_table(
    new_browser: NewPage, db_url: str, tmp_path: Path
) -> None:
    """Ann's requests go to one server and Bob's to another, as behind a load balancer; Bob
    then moves to Ann's server and carries on in his seat."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with serve_app(tmp_path / "one", db_url) as one, serve_app(tmp_path / "two", db_url) as two:
        ann, bob = new_browser(), new_browser()
        link = _with_bob(ann, one, bob, two)
        _start(ann)
        for page in (ann, bob):
            expect(page.locator(".st-key-hand [class*='st-key-card_']")).to_have_count(
                13, timeout=WAIT
            )
        hand = _cards_in(bob)
        assert not hand & _cards_in(ann)
        _bid_shows_at_the_other_seat(ann, bob)
        bob.goto(link)  # the link names server one: Bob's next request lands there
        expect(bob.locator(".st-key-hand [class*='st-key-card_']")).to_have_count(13, timeout=WAIT)
        assert _cards_in(bob) == hand, "on the other server Bob is still North with his hand"


def _move(page: Page) -> None:
    """Make the move the page's status asks for, a middle bid or the first playable card,
    and wait until the table has taken it (the bid row or the card has left the page)."""
    status = page.locator(".st-key-status")
    expect(status).to_contain_text("Your turn", timeout=WAIT)
    if "bid" in status.inner_text():
        bids = page.locator(".st-key-bids button:visible")
        bids.nth(bids.count() // 2).click()
        expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)
    else:
        card = page.locator(".st-key-hand [class*='st-key-card_'] button:enabled:visible").first
        key = card_key(card)
        card.click()
        expect(page.locator(f".st-key-{key}")).to_have_count(0, timeout=WAIT)


def _whose_turn(*pages: Page) -> Page:
    """The page whose status says it is its turn, looking at each in turn (a page learns
    of a move at its next look at the table, so one page's word about another is late)."""
    for _ in range(WAIT // 1000):
        for page in pages:
            try:
                expect(page.locator(".st-key-status")).to_contain_text("Your turn", timeout=500)
            except AssertionError:
                continue
            return page
    raise AssertionError("nobody's turn came")


def test_two_people_play_a_whole_hand_together(
    new_browser: NewPage, table_app: str, db_url: str
) -> None:
    app_url = table_app
    ann, bob = new_browser(), new_browser()
    link = _with_bob(ann, app_url, bob, app_url)
    table_id = link.split("?table=", 1)[1]
    _start(ann)
    unscored = ann.get_by_text("Score: North/South 0 · East/West 0")
    expect(unscored).to_be_visible(timeout=WAIT)
    # Each plays a bid and thirteen cards; the bots move between them at the table's pace.
    for _ in range(2 * 14):
        _move(_whose_turn(ann, bob))
    expect(unscored).to_have_count(0, timeout=WAIT)
    store = Store(db_url)
    try:
        game_id = Tables(store).info(table_id).game_id
        match = store.load(game_id or "").match
    finally:
        store.close()
    first = match.finished[0]
    assert first.bids[0] is not None and first.bids[2] is not None
    assert len(first.tricks) == 13


def test_a_bot_plays_for_an_absent_person_until_they_take_their_seat_back(
    new_browser: NewPage, table_app: str
) -> None:
    app_url = table_app
    ann, bob = new_browser(), new_browser()
    ann.goto(app_url + "/lobby")
    settled(ann)
    choose(ann, "lobby_turn_limit", "15 seconds")
    _with_bob(ann, app_url, bob, app_url, navigate=False)
    _start(ann)
    standing_in = ann.locator(".sp-north .sp-name", has_text="Bob (bot playing)")
    # Ann plays her turns; Bob lets his run out, and a bot plays for him.
    for _ in range(WAIT // 1000):
        try:
            expect(standing_in).to_be_visible(timeout=1_000)
            break
        except AssertionError:
            if "Your turn" in ann.locator(".st-key-status").inner_text():
                _move(ann)
    expect(standing_in).to_be_visible()
    bob.locator(".st-key-take_back button:visible").click()
    expect(bob.locator(".st-key-take_back")).to_have_count(0, timeout=WAIT)
    expect(ann.locator(".sp-north .sp-name")).not_to_contain_text("bot playing", timeout=WAIT)


def test_the_table_s_game_is_the_table_s_and_its_creator_closes_it(
    new_browser: NewPage, table_app: str, db_url: str
) -> None:
    app_url = table_app
    ann, bob = new_browser(), new_browser()
    link = _with_bob(ann, app_url, bob, app_url)
    table_id = link.split("?table=", 1)[1]
    _start(ann)
    expect(ann.locator(".st-key-trick")).to_be_visible(timeout=WAIT)
    store = Store(db_url)
    try:
        game_id = Tables(store).info(table_id).game_id or ""
        before = store.load(game_id).match.history
    finally:
        store.close()
    # In a new tab of Ann's browser, Play neither offers the table's game nor plays it.
    play = ann.context.new_page()
    play.goto(app_url + "/")
    expect(play.locator(".st-key-status")).to_be_visible(timeout=WAIT)
    expect(play.locator(".st-key-continue_game")).to_have_count(0)
    play.goto(f"{app_url}/?game={game_id}")
    expect(play.locator(".st-key-status")).to_contain_text("watching", timeout=WAIT)
    assert not _cards_in(play), "the creator's Play page holds no hand of the table's"
    expect(play.locator("[class*='st-key-bid_']")).to_have_count(0)
    play.close()
    # Ann closes the table, after a confirmation; both pages say so in plain words.
    ann.locator(".st-key-close_table button:visible").click()
    ann.locator(".st-key-confirm_close button:visible").click()
    for page in (ann, bob):
        expect(page.locator(".st-key-table_closed")).to_contain_text(
            "This table is closed", timeout=WAIT
        )
        expect(page.locator("[class*='st-key-card_']")).to_have_count(0)
    store = Store(db_url)
    try:
        info = store.game_info(game_id)
        after = store.load(game_id).match.history
    finally:
        store.close()
    assert info["status"] == "abandoned"
    assert after[: len(before)] == before
