"""AppTest checks of the Tables page: create a table, share its link, join it from another
browser, seat a bot, start, and see only one's own hand; a spectator sees none."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

import pytest
from app_helpers import open_play, play_controller
from streamlit.testing.v1 import AppTest

from spades.app.cookies import PLAYER_COOKIE, SEAT_COOKIE_PREFIX, CookieService
from spades.app.tables import ABSENT_AFTER, MAX_OPEN
from spades.engine.cards import card_str
from spades.engine.match import Match
from spades.store import Store, StoreUnavailable
from spades.store.rows import utc_now
from spades.store.schema import seats
from spades.store.tables import Tables
from spades.ui.cookies import OWED_KEY

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "lobby.py")

pytestmark = pytest.mark.apptest


def _page(table_id: str | None = None) -> AppTest:
    """A new browser on the Tables page (on a table's page with ``table_id``)."""
    at = AppTest.from_file(PAGE, default_timeout=30)
    if table_id is not None:
        at.query_params["table"] = table_id
    at.run()
    assert not at.exception
    return at


def _keys(at: AppTest) -> set[str]:
    return {b.key for b in at.button if b.key}


def _tree_keys(node: object) -> set[str]:
    """The keys of every element and container under ``node`` of a page's tree."""
    key = getattr(node, "key", None)
    found = {key} if isinstance(key, str) else set()
    children = getattr(node, "children", None)
    for child in children.values() if isinstance(children, dict) else ():
        found |= _tree_keys(child)
    return found


def _created(
    name: str = "Ann",
    *,
    public: bool = False,
    hints: bool = False,
    undo: bool = False,
    preset: str = "Standard",
) -> tuple[AppTest, str]:
    at = _page()
    at.text_input(key="lobby_name").set_value(name)
    at.selectbox(key="lobby_preset").set_value(preset)
    at.checkbox(key="lobby_public").set_value(public)
    at.checkbox(key="lobby_hints").set_value(hints)
    at.checkbox(key="lobby_undo").set_value(undo)
    at.button(key="create_table").click().run()
    table_id = at.query_params["table"]
    at.run()
    assert not at.exception
    return at, table_id if isinstance(table_id, str) else table_id[0]


def test_a_new_table_shows_its_link_and_its_open_seats(database: str) -> None:
    ann, table_id = _created(public=True)
    invite = ann.get("code")
    assert any(f"?table={table_id}" in code.proto.code_text for code in invite)
    assert {"seat_bot_0", "seat_bot_1", "seat_bot_3", "start_table"} <= _keys(ann)
    # Another browser sees the seats it may take, on the lobby and on the table's page.
    lobby = _page()
    assert {f"join_{table_id}_{seat}" for seat in (0, 1, 3)} <= _keys(lobby)
    bob = _page(table_id)
    assert {f"join_{table_id}_{seat}" for seat in (0, 1, 3)} <= _keys(bob)
    assert "start_table" not in _keys(bob)


def test_a_cutthroat_table_for_three_seats_three_and_each_plays_for_themselves(
    database: str,
) -> None:
    ann, table_id = _created(public=True, preset="Cutthroat (3)")
    assert {"seat_bot_0", "seat_bot_1"} <= _keys(ann) and "seat_bot_3" not in _keys(ann)
    bob = _page(table_id)
    assert {k for k in _keys(bob) if k.startswith("join_")} == {
        f"join_{table_id}_{seat}" for seat in (0, 1)
    }
    bob.button(key=f"join_{table_id}_1").click().run()
    ann.run()
    ann.button(key="start_table").click().run()
    assert not ann.exception
    store = Store(database)
    [game] = store.list_games()
    match = store.load(game.id).match
    assert game.variant == "cutthroat3" and len(match.hand.hand(2)) == 17
    cards = {k for k in _keys(ann) if k.startswith("card_")}
    assert cards == {f"card_{card_str(c)}" for c in match.hand.hand(2)}
    # A panel for each player, none for teams.
    drawn = _tree_keys(ann._tree)
    assert {f"player_{side}" for side in range(3)} <= drawn
    assert not any(key.startswith("team_") for key in drawn)
    store.close()


def test_two_people_and_two_bots_start_and_each_sees_only_their_own_hand(
    database: str,
) -> None:
    ann, table_id = _created()
    bob = _page(table_id)
    bob.button(key=f"join_{table_id}_0").click().run()
    assert not bob.exception
    ann.run()
    ann.button(key="seat_bot_1").click().run()
    ann.button(key="start_table").click().run()
    assert not ann.exception
    bob.run()
    spectator = _page(table_id)
    store = Store(database)
    [game_id] = [g.id for g in store.list_games()]
    match = store.load(game_id).match
    for at, seat in ((ann, 2), (bob, 0)):
        cards = {k for k in _keys(at) if k.startswith("card_")}
        assert cards == {f"card_{card_str(c)}" for c in match.hand.hand(seat)}
    assert not {k for k in _keys(spectator) if k.startswith("card_")}
    store.close()


def test_the_creator_frees_an_absent_player_s_seat_and_a_newcomer_takes_it(
    database: str,
) -> None:
    ann, table_id = _created()
    bob = _page(table_id)
    bob.button(key=f"join_{table_id}_0").click().run()
    ann.run()
    ann.button(key="start_table").click().run()
    assert "remove_0" not in _keys(ann), "Bob is here: his seat is not Ann's to free"
    store = Store(database)
    Tables(store).stand_in(table_id, 0, True)  # Bob's turn ran out
    ann.run()
    assert "remove_0" not in _keys(ann), "Bob's page is open: he is slow, not gone"
    # Bob's page has not looked at the table for a while: he is absent.
    with store.engine.begin() as conn:
        conn.execute(
            seats.update().where(seats.c.seat == 0).values(seen_at=utc_now() - ABSENT_AFTER)
        )
    Tables(store).stand_in(table_id, 0, True)  # the table moves on: Ann's page reads it again
    ann.run()
    ann.button(key="remove_0").click().run()
    assert not ann.exception
    bob.run()
    assert not {k for k in _keys(bob) if k.startswith("card_")}, "Bob's seat is no longer his"
    cy = _page(table_id)
    assert f"join_{table_id}_0" in _keys(cy)
    cy.text_input(key="lobby_name").set_value("Cy")
    cy.button(key=f"join_{table_id}_0").click().run()
    assert not cy.exception
    [game_id] = [g.id for g in store.list_games()]
    match = store.load(game_id).match
    cards = {k for k in _keys(cy) if k.startswith("card_")}
    assert cards == {f"card_{card_str(c)}" for c in match.hand.hand(0)}
    assert Tables(store).info(table_id).seats[0].name == "Cy"
    store.close()


def _text(at: AppTest) -> str:
    """Everything the page says in words: markdown, notices and captions."""
    parts = [*at.markdown, *at.info, *at.warning, *at.error, *at.caption]
    return " ".join(str(part.value) for part in parts)


def _started_with_bob(**options: bool) -> tuple[AppTest, AppTest, str]:
    ann, table_id = _created(**options)
    bob = _page(table_id)
    bob.text_input(key="lobby_name").set_value("Bob")
    bob.button(key=f"join_{table_id}_0").click().run()
    ann.run()
    ann.button(key="start_table").click().run()
    bob.run()
    assert not ann.exception and not bob.exception
    return ann, bob, table_id


def test_the_page_is_handed_a_single_use_code_for_each_cookie_never_a_token(
    database: str,
) -> None:
    ann, table_id = _created()
    owed = ann.session_state[OWED_KEY]
    assert set(owed) == {PLAYER_COOKIE, SEAT_COOKIE_PREFIX + table_id}
    seat, offer = owed[SEAT_COOKIE_PREFIX + table_id]
    assert seat.value == ann.session_state["table_tokens"][table_id]
    drawn = " ".join(html.value for html in ann.html)
    assert offer.code in drawn and "/_spades/cookie" in drawn
    assert all(cookie.value not in drawn for cookie, _ in owed.values())
    assert "document.cookie" not in drawn
    # The browser takes the seat's code: the page draws it no more, and owes only the rest.
    store = Store(database)
    assert CookieService(store).redeem(offer.code) == seat
    store.close()
    ann.run()
    assert offer.code not in " ".join(html.value for html in ann.html)
    assert set(ann.session_state[OWED_KEY]) == {PLAYER_COOKIE}


def test_a_private_table_is_not_listed_but_its_link_still_joins_it(database: str) -> None:
    _, table_id = _created()
    lobby = _page()
    assert not {k for k in _keys(lobby) if table_id in k}
    assert f"join_{table_id}_0" in _keys(_page(table_id))


def test_a_name_with_invisible_characters_makes_a_table_without_an_error(
    database: str,
) -> None:
    ann, table_id = _created("A\u200bnn\u0007")
    assert not ann.exception and not ann.error
    assert Tables(Store(database)).info(table_id).seats[2].name == "Ann"


def test_the_creator_closes_the_table_after_confirming_and_every_page_says_so(
    database: str,
) -> None:
    ann, bob, table_id = _started_with_bob()
    assert "close_table" not in _keys(bob)
    ann.button(key="close_table").click().run()
    assert Tables(Store(database)).info(table_id).status == "playing", "not before confirming"
    ann.button(key="keep_table").click().run()
    assert "confirm_close" not in _keys(ann)
    ann.button(key="close_table").click().run()
    ann.button(key="confirm_close").click().run()
    bob.run()
    store = Store(database)
    assert Tables(store).info(table_id).status == "closed"
    [game_id] = [g.id for g in store.list_games()]
    assert store.game_info(game_id).status == "abandoned"
    for at in (ann, bob):
        assert not at.exception and "This table is closed: its creator closed it." in _text(at)
        assert not {k for k in _keys(at) if k.startswith(("card_", "bid_"))}
    store.close()


def _to_a_person(store: Store, table_id: str) -> int:
    """Let the bots' seats move until a person is to act; that person's seat."""
    tables = Tables(store)
    for _ in range(20):
        info = tables.info(table_id)
        match = store.load(info.game_id or "").match
        seat = match.current_player
        assert seat is not None
        if info.seats[seat].kind == "human":
            return seat
        tables.act(table_id, seat, match.legal_actions()[0], after=match.history, person=False)
    raise AssertionError("no person's turn came")


def test_a_refused_click_at_a_table_says_why_where_it_was_made(database: str) -> None:
    ann, bob, table_id = _started_with_bob()
    store = Store(database)
    tables = Tables(store)
    seat = _to_a_person(store, table_id)
    mover = bob if seat == 0 else ann
    mover.run()
    button = next(
        b for b in mover.button if b.key and b.key.startswith(("card_", "bid_")) and not b.disabled
    )
    # The table moves on between drawing the button and the click.
    tables.stand_in(table_id, 2 - seat, False)
    version = tables.info(table_id).version
    button.click().run()
    assert not mover.exception
    assert "moved on" in " ".join(str(w.value) for w in mover.warning)
    assert tables.info(table_id).version == version
    store.close()


def _busy_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every read and write of the store finds the database busy."""

    def busy(self: Store) -> None:
        raise StoreUnavailable("busy")

    monkeypatch.setattr(Store, "_read", busy)
    monkeypatch.setattr(Store, "_write", busy)


def test_a_busy_database_at_a_table_shows_the_plain_fault_not_an_error_box(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, _, _ = _started_with_bob()
    _busy_database(monkeypatch)
    ann.run()
    assert not ann.exception
    assert "store_fault_retry" in _keys(ann)
    assert "busy" in " ".join(str(e.value) for e in ann.error)


def test_a_table_s_page_keeps_looking_through_a_fault_and_comes_back_by_itself(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fault box does not take the place of the page's look at the table: once the
    # database is back, the page's next look draws the table, with no click on Try again
    # (meanwhile a person's turn runs on at the table).
    ann, _, _ = _started_with_bob()
    with monkeypatch.context() as faulty:
        _busy_database(faulty)
        ann.run()
    assert not ann.exception
    assert {"store_fault_retry", "table_news"} <= _keys(ann)
    ann.button(key="table_news").click().run()
    assert not ann.exception
    assert "store_fault_retry" not in _keys(ann)
    assert any(key.startswith(("card_", "bid_")) for key in _keys(ann)), "the table is back"


def _when_a_person_is_to_act(store: Store, game_id: str) -> Match:
    """The table's match once Ann (South) or Bob (North) is to act, the bots having
    moved on the server's clock."""
    deadline = time.monotonic() + 30
    while (match := store.load(game_id).match).current_player not in (0, 2):
        assert time.monotonic() < deadline, "the bots never came to a person's turn"
        time.sleep(0.05)
    return match


def test_the_creator_s_play_page_neither_offers_nor_moves_the_table_s_game(
    database: str,
) -> None:
    ann, _, table_id = _started_with_bob()
    store = Store(database)
    game_id = Tables(store).info(table_id).game_id or ""
    # The server's clock moves the bots on; from a person's turn on, nothing may move.
    before = _when_a_person_is_to_act(store, game_id).history
    fresh = open_play(same_player_as=ann)
    assert "continue_game" not in _keys(fresh), "a table's game is never offered on Play"
    watcher = open_play(query={"game": game_id}, same_player_as=ann)
    controller = play_controller(watcher)
    assert controller.read_only and controller.game_id == game_id
    assert not [b for b in watcher.button if b.key.startswith(("card_", "bid_"))]
    watcher.run()
    assert not watcher.exception
    assert store.load(game_id).match.history == before
    assert store.game_info(game_id).status == "playing"
    store.close()


def test_a_sixth_open_table_is_refused_with_a_message(database: str) -> None:
    ann, _ = _created()
    for _ in range(MAX_OPEN):
        ann.query_params.clear()
        ann.run()
        ann.button(key="create_table").click().run()
        assert not ann.exception
    assert f"already have {MAX_OPEN} tables open" in " ".join(str(w.value) for w in ann.warning)
    assert len(Tables(Store(database)).idle(datetime.max)) == MAX_OPEN


def test_a_seat_s_page_is_the_play_table_turned_to_its_seat(database: str) -> None:
    ann, bob, _ = _started_with_bob()
    for at in (ann, bob):
        keys = {c.key for c in at.get("flex_container") if getattr(c, "key", None)} | _keys(at)
        assert {"table_felt", "trick", "status", "side_panels", "team_us", "team_them"} <= keys
        assert {"scoresheet", "last_trick", "controls"} <= keys
        assert "hint" not in keys and "undo" not in keys, "both table options are off"
    north = [m for m in bob.get("html") if "sp-north" in str(m.proto)]
    assert north and "Ann" in str(north[0].proto), "Bob's partner Ann sits across from him"


def test_the_table_s_hints_and_undo_are_offered_to_every_seat_when_set(database: str) -> None:
    ann, bob, table_id = _started_with_bob(hints=True, undo=True)
    store = Store(database)
    mover = bob if _to_a_person(store, table_id) == 0 else ann
    store.close()
    for at in (ann, bob):
        at.run()
        assert {"hint", "undo"} <= _keys(at)
    mover.button(key="hint").click().run()
    assert not mover.exception
    advice = [str(box.value) for box in mover.info]
    assert any(text.startswith(("Bid", "Play", "Nil", "Pass")) for text in advice), advice


def test_a_seat_the_creator_fills_gets_a_standard_bot_unless_another_is_chosen(
    database: str,
) -> None:
    ann, table_id = _created()
    assert [ann.selectbox(key=f"bot_level_{seat}").value for seat in (0, 1, 3)] == ["standard"] * 3
    ann.selectbox(key="bot_level_3").set_value("basic").run()
    ann.button(key="seat_bot_1").click().run()
    ann.button(key="seat_bot_3").click().run()
    store = Store(database)
    try:
        seats = Tables(store).info(table_id).seats
    finally:
        store.close()
    assert (seats[1].kind, seats[1].level) == ("bot", "standard")
    assert (seats[3].kind, seats[3].level) == ("bot", "basic")
