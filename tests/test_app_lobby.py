"""AppTest checks of the Tables page: create a table, share its link, join it from another
browser, seat a bot, start, and see only one's own hand; a spectator sees none."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from spades.cards import card_str
from spades.store import Store
from spades.store.tables import Tables

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


def _created(name: str = "Ann") -> tuple[AppTest, str]:
    at = _page()
    at.text_input(key="lobby_name").set_value(name)
    at.button(key="create_table").click().run()
    table_id = at.query_params["table"]
    at.run()
    assert not at.exception
    return at, table_id if isinstance(table_id, str) else table_id[0]


def test_a_new_table_shows_its_link_and_its_open_seats(database: str) -> None:
    ann, table_id = _created()
    invite = ann.get("code")
    assert any(f"?table={table_id}" in code.proto.code_text for code in invite)
    assert {"seat_bot_0", "seat_bot_1", "seat_bot_3", "start_table"} <= _keys(ann)
    # Another browser sees the seats it may take, on the lobby and on the table's page.
    lobby = _page()
    assert {f"join_{table_id}_{seat}" for seat in (0, 1, 3)} <= _keys(lobby)
    bob = _page(table_id)
    assert {f"join_{table_id}_{seat}" for seat in (0, 1, 3)} <= _keys(bob)
    assert "start_table" not in _keys(bob)


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
    [game_id] = list(store.list_games()["id"])
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
    ann.button(key="remove_0").click().run()
    assert not ann.exception
    bob.run()
    assert not {k for k in _keys(bob) if k.startswith("card_")}, "Bob's seat is no longer his"
    cy = _page(table_id)
    assert f"join_{table_id}_0" in _keys(cy)
    cy.text_input(key="lobby_name").set_value("Cy")
    cy.button(key=f"join_{table_id}_0").click().run()
    assert not cy.exception
    [game_id] = list(store.list_games()["id"])
    match = store.load(game_id).match
    cards = {k for k in _keys(cy) if k.startswith("card_")}
    assert cards == {f"card_{card_str(c)}" for c in match.hand.hand(0)}
    assert Tables(store).info(table_id).seats[0].name == "Cy"
    store.close()
