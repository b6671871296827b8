"""A shared table in Chromium: one person creates it, a friend joins by its link from another
browser, bots fill the rest; each page holds only its own hand, hears the table's news, and
shows a move at one seat within two seconds at the other, a reload keeps the seat (its
cookie, which no script on the page can read), and a spectator sees no hand. Each test
runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_helpers import (
    WAIT,
    LostBid,
    NewPage,
    busy_loops,
    card_key,
    choose,
    cookies_set,
    face_of,
    kept_from_scripts,
    screenshot_path,
    settled,
)
from conftest import serve_app
from playwright.sync_api import Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from spades.engine.cards import card_str, hand_cards
from spades.store import StaleWrite, Store
from spades.store.tables import Tables

pytestmark = pytest.mark.browser

CARD_KEYS = re.compile(r"st-key-card_(\w\w)\b")
#: The card buttons of a page's hand, while it bids (``hand_waiting``) or plays (``hand``).
HAND = ".st-key-hand [class*='st-key-card_'], .st-key-hand_waiting [class*='st-key-card_']"
#: A move at one seat must show at the others within this many milliseconds, without a
#: reload, on a busy test machine too (the speed itself is measured by
#: benchmarks/tables_load.py, and is a fraction of this).
SHOWN_WITHIN = 5_000


#: What a table's pages do alone (cookies, news, turns, stand-ins, a whole hand) is the
#: same on either database, and the store's tests run on both: these browser tests run on
#: SQLite. The closed table and the rematch run on both; two servers sharing one store is
#: PostgreSQL's deployment.
SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
POSTGRESQL_ONLY = pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)


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
    """Ann creates a table from the lobby (opened first unless ``navigate`` is off), with
    the bots at the fast pace; its invite link."""
    if navigate:
        page.goto(url + "/lobby")
    name = page.locator(".st-key-lobby_name input")
    name.fill("Ann")
    name.press("Enter")
    settled(page)
    choose(page, "lobby_pace", "fast (0.4 s a move)")
    page.locator(".st-key-create_table button:visible").click()
    link = page.locator(".st-key-invite_link code")
    expect(link).to_contain_text("?table=", timeout=WAIT)
    return link.inner_text().strip()


def _bid_seat(ann: Page, bob: Page) -> tuple[Page, Page]:
    """Wait until Ann or Bob is to bid (the bots bid at the table's pace before them);
    (the bidder's page, the other's)."""
    status = ann.locator(".st-key-status")
    expect(status).to_contain_text(re.compile("Your turn|Bob is bidding"), timeout=WAIT)
    if "Your turn" in status.inner_text():
        return ann, bob
    return bob, ann


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
    """Whichever of Ann and Bob bids first bids; the other page shows it within the time,
    across the table (each page is turned so that its own seat is at the bottom)."""
    bidder, other = _bid_seat(ann, bob)
    bids = bidder.locator(".st-key-bids button:enabled:visible")
    choice = bids.nth(bids.count() // 2)
    said = choice.inner_text().strip().lower()
    choice.click()
    expect(other.locator(".sp-north .sp-stats")).to_contain_text(
        f"bid {said}", timeout=SHOWN_WITHIN
    )


def _hears_the_table_s_news(page: Page, table_id: str) -> None:
    """The page keeps the table's news stream open (a move shows the moment it is
    stored, not at the page's next look), and its listener takes no room on the page."""
    page.wait_for_function(
        "id => window.spadesNews && window.spadesNews[id]"
        " && window.spadesNews[id].readyState === EventSource.OPEN",
        arg=table_id,
        timeout=WAIT,
    )
    reply = page.request.get(f"{page.url.split('/lobby')[0]}/_spades/tables/{table_id}x/news")
    assert reply.status == 404, "the route knows no other table"
    expect(page.locator(".st-key-news_listener")).to_be_hidden()


#: Notes the time of each press of the table's hidden button: the page's looks at the
#: table, and the news it heard.
PRESSES_JS = """() => { window.spadesPresses = [];
  document.addEventListener("click", (event) => {
    if (event.target.closest(".st-key-table_news")) window.spadesPresses.push(performance.now());
  }, true); }"""


def _looks_less_often_while_the_news_is_heard(hearing: Page, deaf: Page) -> None:
    """While the table is still, a page that hears the news looks at the table by itself
    every five seconds, its seat's sign of life, and a page that cannot hear it every
    second, to find each move."""
    for page in (hearing, deaf):
        page.evaluate(PRESSES_JS)
    presses = "n => window.spadesPresses.length >= n"
    deaf.wait_for_function(presses, arg=3, polling=100, timeout=WAIT)
    hearing.wait_for_function(presses, arg=2, polling=100, timeout=WAIT)
    for page, low, high in ((hearing, 4_000, None), (deaf, 0, 4_000)):
        times = page.evaluate("() => window.spadesPresses")
        gaps = [later - sooner for sooner, later in itertools.pairwise(times)]
        assert all(gap >= low and (high is None or gap < high) for gap in gaps), gaps


def _seat_and_player_kept_from_scripts(page: Page, table_id: str) -> None:
    """A person who has just taken a seat: the server has set their player's and their
    seat's cookies, HttpOnly, and neither token is in reach of the page's scripts."""
    held = cookies_set(page, 2)
    drawn = page.content()
    for name in (f"spades_seat_{table_id}", "spades_player"):
        kept_from_scripts(page, held[name])
        assert held[name]["value"] not in drawn, "nor is the token drawn in the page"


@SQLITE_ONLY
def test_two_people_and_two_bots_at_one_table(new_browser: NewPage, table_app: str) -> None:
    app_url = table_app
    ann, bob, watcher = new_browser(), new_browser(), new_browser()
    link = _with_bob(ann, app_url, bob, app_url)
    table_id = link.split("?table=", 1)[1]
    for page in (ann, bob):
        _seat_and_player_kept_from_scripts(page, table_id)
    expect(bob.locator(f".st-key-join_{table_id}_1")).to_have_count(0, timeout=WAIT)
    _start(ann)

    for page in (ann, bob):
        expect(page.locator(".st-key-trick")).to_be_visible(timeout=WAIT)
        expect(page.locator(HAND)).to_have_count(13)
        _hears_the_table_s_news(page, table_id)
    # Each browser holds its own hand and nothing of the other's.
    mine, theirs = _cards_in(ann), _cards_in(bob)
    assert len(mine) == 13 and len(theirs) == 13 and not mine & theirs

    _bid_shows_at_the_other_seat(ann, bob)

    bob.reload()
    expect(bob.locator(HAND)).to_have_count(13, timeout=WAIT)
    assert _cards_in(bob) == theirs, "a reload keeps the seat and its hand"

    # The watcher's page cannot hear the news (as behind a proxy that holds streams back).
    watcher.route("**/_spades/tables/*/news", lambda route: route.abort())
    watcher.goto(link)
    expect(watcher.locator(".st-key-trick")).to_be_visible(timeout=WAIT)
    assert not _cards_in(watcher), "a spectator's page holds no hand"
    expect(watcher.locator("[class*='st-key-join_']")).to_have_count(0)
    _bid_seat(ann, bob)  # the table is still while a person is to bid
    _looks_less_often_while_the_news_is_heard(ann, watcher)


@POSTGRESQL_ONLY
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
            expect(page.locator(HAND)).to_have_count(13, timeout=WAIT)
        hand = _cards_in(bob)
        assert not hand & _cards_in(ann)
        _bid_shows_at_the_other_seat(ann, bob)
        bob.goto(link)  # the link names server one: Bob's next request lands there
        expect(bob.locator(HAND)).to_have_count(13, timeout=WAIT)
        assert _cards_in(bob) == hand, "on the other server Bob is still North with his hand"


@SQLITE_ONLY
def test_a_table_under_a_base_path_keeps_its_seat_and_hears_its_news(
    new_browser: NewPage, db_url: str, tmp_path: Path
) -> None:
    """The server's routes, and the pages' scripts that reach them, follow Streamlit's
    ``server.baseUrlPath``."""
    with serve_app(tmp_path, db_url, base_path="cards/spades") as url:
        ann = new_browser()
        asked: list[str] = []
        ann.on("request", lambda request: asked.append(request.url))
        table_id = _create(ann, url).split("?table=", 1)[1]
        _seat_and_player_kept_from_scripts(ann, table_id)
        _hears_the_table_s_news(ann, table_id)
        ours = {path.split("?")[0] for path in asked if "/_spades/" in path}
        assert {f"{url}/_spades/cookie", f"{url}/_spades/tables/{table_id}/news"} <= ours
        assert all(path.startswith(f"{url}/_spades/") for path in ours), ours
        _card_faces_served(ann, url)
        ann.reload()
        expect(ann.locator(".st-key-start_table button:visible")).to_be_visible(timeout=WAIT)


def _card_faces_served(page: Page, url: str) -> None:
    """The page's stylesheet names each card's face at the server's route (under the base
    path), which serves it."""
    face = face_of(page, "QH")
    found = re.fullmatch(r'url\("([^"]+)"\)', face)
    assert found and found.group(1).startswith(f"{url}/_spades/cards/"), face
    reply = page.request.get(found.group(1))
    assert reply.ok and reply.headers["content-type"] == "image/svg+xml"
    assert reply.body().startswith(b"<svg")


#: Keeps every notice the page shows (a refused click's reason among them).
NOTICES = """() => { if (window.spadesNotices) return; const seen = window.spadesNotices = [];
  new MutationObserver(() => { for (const alert of document.querySelectorAll(
      "[data-testid='stAlert']")) { const text = alert.innerText.trim();
      if (text && !seen.includes(text)) seen.push(text); } })
    .observe(document.body, {childList: true, subtree: true}); }"""
#: The server has taken the card ``key`` (``card_AS``): its own drawing of the trick shows
#: it at the page's seat, or it has left the hand with nothing of the page's own drawing
#: of a click still waiting (the trick may already have gone to its winner).
TAKEN = """key => {
  const code = key.slice(5);
  if (document.querySelector(".st-key-trick [data-seat='S'][data-card='" + code + "']"
      + ":not([data-pending])")) return true;
  return !document.querySelector("[data-pending]") && ![...document
    .querySelectorAll(".st-key-" + key)].some(e => e.checkVisibility());
}"""
#: What the page shows, for a click not taken.
SEEN = """() => ({
  status: document.querySelector(".st-key-status").innerText,
  notices: window.spadesNotices,
  pending: [...document.querySelectorAll("[data-pending]")].map(e => e.outerHTML.slice(0, 120)),
  marks: [...document.querySelectorAll(".sp-run")].map(e => e.outerHTML),
  news: [...document.querySelectorAll(".sp-news")].map(e => e.dataset.version),
  script: document.querySelector("[data-testid='stApp']").dataset.testScriptState,
  shown: [...document.querySelectorAll("[class*='st-key-card_']")]
    .filter(e => e.checkVisibility()).map(e => e.className.match(/st-key-(card_\\w+)/)[1]),
  trick: [...document.querySelectorAll(".st-key-trick [data-card]")]
    .map(e => e.dataset.seat + e.dataset.card),
})"""
#: How long a clicked card may take to leave the hand: far more than the table takes on a
#: busy machine, far less than a person waits before clicking again.
CARD_LEAVES = 10_000


def _move(page: Page) -> None:
    """Make the move the page's status asks for, a middle bid or the first playable card,
    once, and check that the table took that very move: the bid row or that card leaves
    the page, with no refusal shown."""
    page.evaluate(NOTICES)
    status = page.locator(".st-key-status")
    expect(status).to_contain_text("Your turn", timeout=WAIT)
    if page.locator(".st-key-bids").count():
        bids = page.locator(".st-key-bids button:enabled:visible")
        bids.nth(bids.count() // 2).click()
        expect(page.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)
        return
    key = card_key(
        page.locator(".st-key-hand [class*='st-key-card_'] button:enabled:visible").first
    )
    page.locator(f".st-key-hand .st-key-{key} button:enabled:visible").click()
    try:
        page.wait_for_function(TAKEN, arg=key, timeout=CARD_LEAVES)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the click on {key} was not taken: {page.evaluate(SEEN)}") from None
    # The run that drew it is over: the status says whose turn it is now, and the card
    # shows nowhere in the hand (Streamlit could leave its button there, shown).
    settled(page)
    shown = "k => [...document.querySelectorAll('.st-key-' + k)].some(e => e.checkVisibility())"
    assert not page.evaluate(shown, key), f"{key} still shows in the hand after it was played"
    assert page.evaluate("window.spadesNotices") == [], "a click was refused"


def _whose_turn(*pages: Page) -> Page:
    """The page whose status says it is its turn, looking at each in turn (a page learns
    of a move at its next look at the table, so one page's word about another is late)."""
    look = 150
    for _ in range(WAIT // look // len(pages)):
        for page in pages:
            try:
                expect(page.locator(".st-key-status")).to_contain_text("Your turn", timeout=look)
            except AssertionError:
                continue
            return page
    raise AssertionError("nobody's turn came")


def _frames(page: Page) -> list[bytes]:
    """Every websocket frame the page receives from now on, as bytes."""
    frames: list[bytes] = []

    def watch(socket: WebSocket) -> None:
        socket.on(
            "framereceived",
            lambda payload: frames.append(
                payload if isinstance(payload, bytes) else payload.encode()
            ),
        )

    page.on("websocket", watch)
    return frames


def _styled_like_play(page: Page) -> None:
    """The page wears the Play table's look: the felt, the trick area, card faces."""
    expect(page.locator(".st-key-table_felt .st-key-trick .sp-table")).to_be_visible(timeout=WAIT)
    felt = page.locator(".st-key-table_felt").evaluate(
        "e => getComputedStyle(e).backgroundImage + getComputedStyle(e).backgroundColor"
    )
    assert "gradient" in felt or "rgba(0, 0, 0, 0)" not in felt, "the felt is drawn"
    face = page.locator(
        ".st-key-hand_waiting [class*='st-key-card_'] button, "
        ".st-key-hand [class*='st-key-card_'] button"
    ).first
    expect(face).to_be_visible(timeout=WAIT)
    assert face.evaluate("e => getComputedStyle(e).borderRadius") != "0px", "a card face"


#: Holds the page's 0 ms timers for 1.5 s while ``window.spadesHeld`` is set: Streamlit's
#: page sends a click from such a timer, and a busy browser may run a 1 s timer first.
HOLD_CLICKS = """() => { const later = window.setTimeout;
  window.setTimeout = (run, ms, ...rest) =>
    later(run, !ms && window.spadesHeld ? 1500 : ms, ...rest); }"""
#: Counts the times the last trick, once on show, leaves the page.
COUNT_HIDDEN = """() => { window.spadesHidden = 0; let shown = false;
  new MutationObserver(() => {
    const now = Boolean(document.querySelector(".st-key-last_trick_view"));
    if (shown && !now) window.spadesHidden += 1;
    shown = now;
  }).observe(document.body, {childList: true, subtree: true}); }"""


#: The page's look at the table, then "Next hand", in one task: Streamlit sends both in
#: one message, which reruns the table's fragment (the first asked for), not the dialog.
NEXT_HAND_WITH_A_LOOK = """() => {
  document.querySelector(".st-key-table_news button").click();
  document.querySelector(".st-key-next_hand button").click(); }"""


def _last_trick_shown_by_one_held_click(page: Page) -> None:
    """Show the last trick with a click held back as a busy browser may hold it, and check
    that the click ran once. A fragment's ``run_every`` timer sent a click still waiting to
    go, which then went again: the toggle showed the trick and hid it. The page's own look
    at the table waits with the click, and the click runs once."""
    toggle = page.locator(".st-key-last_trick button")
    expect(toggle).to_be_enabled(timeout=WAIT)
    page.evaluate(HOLD_CLICKS)
    page.evaluate(COUNT_HIDDEN)
    page.evaluate("window.spadesHeld = true")
    toggle.click()
    page.evaluate("window.spadesHeld = false")
    expect(page.locator(".st-key-last_trick_view")).to_contain_text("won by", timeout=WAIT)
    run = int(page.locator(".sp-run").get_attribute("data-run") or 0)
    page.wait_for_function(
        "run => Number(document.querySelector('.sp-run').dataset.run) >= run + 3",
        arg=run,
        timeout=WAIT,
    )
    assert page.evaluate("window.spadesHidden") == 0, "the click's callback ran again"
    assert page.locator(".st-key-last_trick_view").count() == 1
    expect(toggle).to_have_text("Hide last trick")


@SQLITE_ONLY
def test_two_people_play_a_whole_hand_together(
    new_browser: NewPage, table_app: str, db_url: str, tmp_path: Path
) -> None:
    app_url = table_app
    ann, bob = new_browser(), new_browser()
    ann.set_viewport_size({"width": 1366, "height": 900})
    bob.set_viewport_size({"width": 1366, "height": 900})
    heard = {ann: _frames(ann), bob: _frames(bob)}
    link = _with_bob(ann, app_url, bob, app_url)
    table_id = link.split("?table=", 1)[1]
    _start(ann)
    for page in (ann, bob):
        _styled_like_play(page)
    store = Store(db_url)
    try:
        game_id = Tables(store).info(table_id).game_id or ""
        dealt = store.load(game_id).match.hand
        hands = {ann: dealt.hand(2), bob: dealt.hand(0)}
    finally:
        store.close()
    # Each page is turned so that its person sits at the bottom, the partner across.
    expect(ann.locator(".sp-north .sp-name")).to_contain_text("Bob")
    expect(bob.locator(".sp-north .sp-name")).to_contain_text("Ann")
    expect(ann.locator(".sp-east .sp-name")).to_contain_text("East · standard bot")
    for page in (ann, bob):
        # Once the deal has flown in.
        page.wait_for_function(
            "document.getAnimations().every("
            "a => a.effect.getTiming().iterations === Infinity || a.playState !== 'running')",
            timeout=WAIT,
        )
    ann.screenshot(path=str(screenshot_path("table-shared-ann.png", tmp_path)))
    bob.screenshot(path=str(screenshot_path("table-shared-bob.png", tmp_path)))
    # Each plays a bid and thirteen cards, each taken at its first click though two busy
    # loops share the machine; the bots move between them at the table's pace.
    with busy_loops(2):
        for move in range(2 * 14):
            _move(_whose_turn(ann, bob))
            if move == 10:
                # Tricks are done: the last one can be looked at again, by a click that runs
                # once though the page looks at the table meanwhile.
                _last_trick_shown_by_one_held_click(ann)
                ann.locator(".st-key-last_trick button").click()
                expect(ann.locator(".st-key-last_trick_view")).to_have_count(0, timeout=WAIT)
    for page in (ann, bob):
        summary = page.get_by_role("dialog")
        expect(summary).to_contain_text("Hand 1", timeout=WAIT)
        expect(summary.locator(".st-key-summary_us")).to_be_visible(timeout=WAIT)
        if page is ann:
            # The page's look at the table and the click go in one message.
            page.evaluate(NEXT_HAND_WITH_A_LOOK)
        else:
            page.locator(".st-key-next_hand button").click()
        expect(page.get_by_role("dialog")).to_have_count(0, timeout=WAIT)
        expect(page.locator(".st-key-scoresheet")).to_be_visible(timeout=WAIT)
        expect(page.locator(".st-key-scoresheet")).not_to_contain_text("appear here", timeout=WAIT)
    store = Store(db_url)
    try:
        match = store.load(game_id).match
    finally:
        store.close()
    first = match.finished[0]
    assert first.bids[0] is not None and first.bids[2] is not None
    assert len(first.tricks) == 13
    # Neither page was ever sent a card button of the other's hand (but for the cards it
    # was dealt itself in the next hand, drawn as soon as the first ended).
    next_deal = {
        ann: hand_cards(match.hand.initial_hands[2]),
        bob: hand_cards(match.hand.initial_hands[0]),
    }
    for page, other in ((ann, bob), (bob, ann)):
        sent = b"".join(heard[page])
        assert any(f"card_{card_str(card)}".encode() in sent for card in hands[page]), (
            "the page's own card buttons are heard in its frames"
        )
        for card in set(hands[other]) - set(next_deal[page]):
            assert f"card_{card_str(card)}".encode() not in sent


@SQLITE_ONLY
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


def _playing(new_browser: NewPage, app_url: str) -> tuple[Page, Page, str]:
    """Ann's table with Bob at North, started, on its way; both pages and the table's id."""
    ann, bob = new_browser(), new_browser()
    link = _with_bob(ann, app_url, bob, app_url)
    _start(ann)
    expect(ann.locator(".st-key-trick")).to_be_visible(timeout=WAIT)
    return ann, bob, link.split("?table=", 1)[1]


def test_the_table_s_game_is_the_table_s_and_its_creator_closes_it(
    new_browser: NewPage, table_app: str, db_url: str
) -> None:
    app_url = table_app
    ann, bob, table_id = _playing(new_browser, app_url)
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
    assert info.status == "abandoned"
    assert after[: len(before)] == before


def test_a_finished_match_is_played_again_with_the_same_seats(
    new_browser: NewPage, table_app: str, db_url: str
) -> None:
    ann, bob, table_id = _playing(new_browser, table_app)
    # The match is played to its end behind the pages' backs, every seat's first legal move;
    # the table's bots may move a seat of theirs first, and the match is then read again.
    store = Store(db_url)
    try:
        tables = Tables(store)
        first = tables.info(table_id).game_id or ""
        match = store.load(first).match
        while not match.is_over:
            seat = match.current_player
            assert seat is not None
            action = match.legal_actions()[0]
            try:
                tables.act(table_id, seat, action, after=match.history, person=False)
            except StaleWrite:
                match = store.load(first).match
                continue
            match.apply(action)
    finally:
        store.close()
    for page in (ann, bob):
        expect(page.locator(".st-key-match_over")).to_contain_text(
            "The match is over", timeout=WAIT
        )
    expect(bob.locator(".st-key-rematch")).to_have_count(0)
    ann.locator(".st-key-rematch button:visible").last.click()
    for page in (ann, bob):
        expect(page.locator(HAND)).to_have_count(13, timeout=WAIT)
    expect(bob.locator(".sp-north .sp-name")).to_contain_text("Ann")
    store = Store(db_url)
    try:
        info = Tables(store).info(table_id)
        assert info.status == "playing" and info.game_id != first
        assert store.game_info(first).status == "finished"
        assert [seat.name for seat in info.seats][::2] == ["Bob", "Ann"]
    finally:
        store.close()


@SQLITE_ONLY
def test_a_bid_whose_press_never_reached_the_server_is_sent_again_at_a_table(
    new_browser: NewPage, table_app: str
) -> None:
    """A press can be lost on its way; here the browser's message with Ann's bid is
    dropped, and she asks for a hint at once. The hint's drawing of the table, the same
    position with the bid still offered, sends the bid again."""
    ann = new_browser()
    lost = LostBid(ann)
    ann.goto(table_app + "/lobby")
    name = ann.locator(".st-key-lobby_name input")
    name.fill("Ann")
    name.press("Enter")
    settled(ann)
    ann.locator(".st-key-lobby_hints label").click()
    ann.locator(".st-key-create_table button:visible").click()
    expect(ann.locator(".st-key-invite_link")).to_be_visible(timeout=WAIT)
    ann.locator(".st-key-start_table button:visible").click()
    expect(ann.locator(".st-key-status")).to_contain_text("Your turn", timeout=WAIT)
    expect(ann.locator(".st-key-bids")).to_be_visible(timeout=WAIT)
    settled(ann)
    said = lost.bid()
    ann.locator(".st-key-hint button:visible").click()
    expect(ann.locator(".st-key-bids")).to_have_count(0, timeout=WAIT)
    expect(ann.locator(".sp-south .sp-stats")).to_contain_text(f"bid {said}", timeout=WAIT)
