"""AppTest checks of the Play page."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "play.py")

pytestmark = pytest.mark.apptest


def _app() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    return at


def test_play_page_offers_bids_or_cards() -> None:
    at = _app()
    assert not at.exception
    keys = {b.key for b in at.button}
    assert "new_game" in keys
    assert any(k.startswith("bid_") or k == "look" for k in keys)


def test_bidding_then_a_legal_card_can_be_played() -> None:
    at = _app()
    if "look" in {b.key for b in at.button}:
        at.button(key="look").click().run()
    enabled_bids = [b for b in at.button if b.key.startswith("bid_") and not b.disabled]
    enabled_bids[0].click().run()
    cards = [b for b in at.button if b.key.startswith("card_")]
    assert len(cards) == 13
    legal = [b for b in cards if not b.disabled]
    assert legal, "some card must be playable when it is our turn"
    legal[0].click().run()
    assert not at.exception
    assert len([b for b in at.button if b.key.startswith("card_")]) == 12
