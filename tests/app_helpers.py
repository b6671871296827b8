"""Shared helpers for the Play page's AppTests: the session's game, the buttons drawn, and
the move a player would click."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from spades.app.play import GameController
from spades.ui.identity import STATE_KEY

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "play.py")


def open_play(
    *,
    speed: str = "instant",
    rule_set: str | None = None,
    name: str | None = None,
    query: dict[str, str] | None = None,
    same_player_as: AppTest | None = None,
) -> AppTest:
    """The Play page with random bots at ``speed``, on a new game (of ``rule_set``, a
    preset's name, when given; played under ``name``) or on the game in ``query``.

    A new AppTest is a new browser: a new player, unless ``same_player_as`` names a page
    whose player it carries on (as the player's cookie does in a real browser).
    """
    at = AppTest.from_file(PAGE, default_timeout=30)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    if same_player_as is not None:
        at.session_state[STATE_KEY] = same_player_as.session_state[STATE_KEY]
    at.run()
    at.radio(key="speed").set_value(speed)
    if name is not None:
        at.text_input(key="player_name").set_value(name)
    if rule_set is not None:
        at.selectbox(key="preset").set_value(rule_set).run()
    for key in bot_keys(at):
        at.selectbox(key=key).set_value("random")
    if query:
        at.run()
    else:
        at.button(key="new_game").click().run()
    assert not at.exception
    return at


def bot_keys(at: AppTest) -> list[str]:
    """The keys of the sidebar's bot level pickers, one a bot seat of the next game."""
    return [box.key for box in at.selectbox if box.key and box.key.startswith("bot_")]


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
