"""Shared helpers for the Play page's AppTests: the session's game, the buttons drawn, and
the move a player would click."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from spades.app.play import GameController


def play_controller(at: AppTest) -> GameController:
    """The game the page holds in its session."""
    controller = at.session_state["play_controller"]
    assert isinstance(controller, GameController)
    return controller


def button_keys(at: AppTest) -> set[str]:
    """The keys of every button drawn."""
    return {b.key for b in at.button if b.key}


def enabled(at: AppTest, prefix: str) -> list[str]:
    """The keys of the enabled buttons whose key starts with ``prefix``, in page order."""
    return [b.key for b in at.button if b.key and b.key.startswith(prefix) and not b.disabled]


def human_move(at: AppTest) -> None:
    """Click what a player would: look at the cards, else a middle bid, else the first
    playable card."""
    if "look" in enabled(at, "look"):
        at.button(key="look").click().run()
    elif enabled(at, "bid_"):
        bids = [k for k in enabled(at, "bid_") if k != "bid_blind_nil"]
        at.button(key=bids[len(bids) // 2]).click().run()
    else:
        at.button(key=enabled(at, "card_")[0]).click().run()
    assert not at.exception
