"""The card faces: every card and joker has a face in the deck shipped with the app, the
four-colour deck draws diamonds blue and clubs green, the stylesheet names each face by its
address, and the server serves the faces for browsers to keep."""

from __future__ import annotations

import re

import httpx
import pytest
import streamlit as st
from conftest import run_async
from starlette.applications import Starlette

from spades.app.themes import BLUE_SUIT, GREEN_SUIT, RED_SUIT, suit_colours
from spades.engine.cards import (
    ADDED_BIG_JOKER,
    ADDED_LITTLE_JOKER,
    BIG_JOKER,
    LITTLE_JOKER,
    NUM_CARDS,
    card_str,
)
from spades.ui import faces
from spades.ui.cards import card_html, suit_marks, voids_html
from spades.ui.faces import CODES, FOLDER, deck_version, face_file, face_url, faces_css

#: The code of every card a game can deal: the 52, and the jokers of both joker rules.
DEALT = sorted(
    {card_str(card) for card in range(NUM_CARDS)}
    | {card_str(c, jokers="ace") for c in (BIG_JOKER, LITTLE_JOKER)}
    | {card_str(c) for c in (ADDED_BIG_JOKER, ADDED_LITTLE_JOKER)}
)
#: An SVG file's elements (the opening tags' names).
TAGS = re.compile(r"<([a-zA-Z]+)[\s>/]")


def _svg(code: str, *, four_colour: bool = False) -> str:
    return (FOLDER / face_file(code, four_colour=four_colour)).read_text()


def _get(path: str) -> httpx.Response:
    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=Starlette(routes=faces.routes()))
        async with httpx.AsyncClient(transport=transport, base_url="http://app") as client:
            return await client.get(path)

    return run_async(send())


# ------------------------------------------------------------------------ the deck
def test_every_card_and_joker_dealt_has_a_face_in_each_deck() -> None:
    assert sorted(CODES) == DEALT
    for code in DEALT:
        for four_colour in (False, True):
            svg = _svg(code, four_colour=four_colour)
            assert svg.startswith("<svg") and 'viewBox="-120 -168 240 336"' in svg, code
            # Optimised: drawing elements only, nothing that is not part of the picture.
            assert set(TAGS.findall(svg)) <= {"svg", "defs", "symbol", "path", "use", "g"}, code


def test_the_deck_ships_its_licence_and_says_where_it_comes_from() -> None:
    assert "CC0 1.0 Universal" in (FOLDER / "LICENSE").read_text()
    readme = (FOLDER / "README.md").read_text()
    assert "@letele/playing-cards" in readme and "Adrian Kennard" in readme


def test_the_deck_has_no_file_the_app_does_not_use() -> None:
    used = {face_file(code, four_colour=four) for code in CODES for four in (False, True)}
    shipped = {path.relative_to(FOLDER).as_posix() for path in FOLDER.rglob("*.svg")}
    assert shipped == used


def test_the_four_colour_deck_draws_diamonds_blue_and_clubs_green() -> None:
    for code in CODES:
        standard, four = _svg(code), _svg(code, four_colour=True)
        if code in ("BJ", "LJ") or code[1] in "SH":
            assert face_file(code, four_colour=True) == face_file(code), code
            continue
        colour = BLUE_SUIT if code[1] == "D" else GREEN_SUIT
        assert colour in four and colour not in standard, code
        if code[0] not in "JQK":
            # The pips and the index are all the card draws: none is left red or black.
            assert "red" not in four and "#000" not in four, code
    assert suit_colours(True) == (GREEN_SUIT, BLUE_SUIT, RED_SUIT, suit_colours(False)[3])


# ------------------------------------------------------------------ the stylesheet
@pytest.mark.parametrize("four_colour", [False, True])
def test_the_stylesheet_names_each_card_s_face_by_its_address(four_colour: bool) -> None:
    css = faces_css(four_colour=four_colour)
    for code in CODES:
        url = face_url(code, four_colour=four_colour)
        rule = f'[class*="st-key-card_"][class*="_{code}"],.sp-f-{code}{{--sp-img:url("{url}")}}'
        assert css.count(rule) == 1, code
        assert url == f"/_spades/cards/{deck_version()}/{face_file(code, four_colour=four_colour)}"
    assert "<svg" not in css and "base64" not in css, "the faces are fetched, not inlined"
    assert len(css) < 120 * len(CODES)


def test_a_face_s_address_follows_the_app_s_base_path(monkeypatch: pytest.MonkeyPatch) -> None:
    option = st.get_option
    monkeypatch.setattr(
        st, "get_option", lambda key: "/games/" if key == "server.baseUrlPath" else option(key)
    )
    assert face_url("AS") == f"/games/_spades/cards/{deck_version()}/AS.svg"
    [route] = faces.routes()
    assert getattr(route, "path", None) == "/games/_spades/cards/{version}/{name:path}"


def test_a_face_up_card_is_drawn_from_the_deck_and_named() -> None:
    face = card_html(ADDED_BIG_JOKER)
    assert "sp-f-BJ" in face and 'aria-label="big joker"' in face.lower()
    assert 'class="sp-card sp-f-TD sp-small"' in card_html(21, classes="sp-small")
    assert "sp-f-LJ" in card_html(LITTLE_JOKER, jokers="ace")
    assert "sp-f-2D" in card_html(LITTLE_JOKER)


def test_the_four_colour_deck_colours_the_suits_in_text_on_the_table() -> None:
    text = "Play the 10♦: you hold the A♣, K♥ and Q♠"
    assert suit_marks(text, four_colour=False) == text
    marked = suit_marks(text, four_colour=True)
    for symbol, colour in zip("♣♦♥♠", suit_colours(True), strict=True):
        assert f':color[{symbol}]{{foreground="{colour}" ' in marked
    assert marked.count(":color[") == 4
    voids = voids_html([0, 1])
    assert '<b class="sp-clubs">♣</b>' in voids and '<b class="sp-diamonds">♦</b>' in voids


# ----------------------------------------------------------------------- the route
def test_the_server_serves_each_face_for_browsers_to_keep() -> None:
    version = deck_version()
    for name in ("AS.svg", "BJ.svg", "four-colour/QD.svg"):
        reply = _get(f"/_spades/cards/{version}/{name}")
        assert reply.status_code == 200, name
        assert reply.headers["content-type"] == "image/svg+xml"
        assert reply.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert reply.content == (FOLDER / name).read_bytes()


def test_the_server_serves_nothing_but_the_faces_of_its_own_deck() -> None:
    version = deck_version()
    for path in (
        f"/_spades/cards/{version}/README.md",
        f"/_spades/cards/{version}/four-colour/AS.svg",
        f"/_spades/cards/{version}/..%2Ffaces.py",
        f"/_spades/cards/{version}/AS.png",
        "/_spades/cards/000000000000/AS.svg",
    ):
        assert _get(path).status_code == 404, path
