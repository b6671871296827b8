"""The Play page's game in the session: a new one, the one the address names, or the
stored game reopened when it has moved on without this session (another window, or its
owner while it is watched); and the address kept on it.

The controller lives in ``st.session_state``; the table's callbacks reach it through
:func:`session_game`, and a move through :func:`acting_game`, which first makes sure the
player the game will belong to exists.
"""

from __future__ import annotations

import re
import secrets
from typing import Final

import streamlit as st

from spades.app.errors import StoreError, StoreUnavailable
from spades.app.play import MOVED_ON, GameController
from spades.app.seats import HUMAN_SEAT
from spades.app.table_view import Notice
from spades.engine.rules import Rules
from spades.ui import identity, sidebar
from spades.ui.db import app_site

CONTROLLER_KEY: Final = "play_controller"
#: The player's unfinished game, offered when they open the table on a new one.
OFFER_KEY: Final = "play_unfinished"
GAME_ID: Final = re.compile(r"[0-9a-f]{32}")


def start_game(notice: Notice | None = None) -> GameController:
    """A new game with the sidebar's settings (the standard rules if they conflict)."""
    chosen = sidebar.settings()
    try:
        rules = chosen.rules()
    except ValueError:
        rules = Rules()
        notice = Notice("warning", "The house rules chosen conflict; this game uses the standard.")
    controller = app_site().new_game(
        rules,
        seed=secrets.randbelow(2**31),
        player_name=chosen.player_name,
        bot_levels=chosen.levels(rules),
        undo_allowed=chosen.undo_allowed,
        owner=identity.player_id(),
    )
    controller.set_pace(chosen.pace)
    controller.notice = notice
    return controller


def rematch(finished: GameController) -> GameController:
    """A new game against the same bots, under the same house rules, undo and name, at the
    same pace, as the match just finished."""
    controller = app_site().new_game(
        finished.rules,
        seed=secrets.randbelow(2**31),
        player_name=finished.players[HUMAN_SEAT],
        bot_levels=finished.bot_levels,
        undo_allowed=finished.undo_allowed,
        owner=identity.player_id(),
    )
    controller.set_pace(finished.pace)
    return controller


def open_game(game_id: str) -> GameController:
    """The game named in the URL, or a new one with a message saying why not."""
    if not GAME_ID.fullmatch(game_id):
        # Never echoed: the value came from a link anyone can craft.
        return start_game(
            Notice("warning", "That link does not name a game. A new game has started.")
        )
    try:
        controller = app_site().resume(game_id, viewer=identity.player_id())
    except StoreUnavailable:
        # The store itself is at fault, not the game: the fault page says so.
        raise
    except StoreError as err:
        return start_game(
            Notice("warning", f"That game could not be opened ({err}). A new game has started.")
        )
    controller.set_pace(sidebar.settings().pace)
    return controller


def current() -> GameController:
    """The session's game: resumed from the URL's ``game`` id, or a new one."""
    controller = st.session_state.get(CONTROLLER_KEY)
    wanted = st.query_params.get("game")
    if not isinstance(controller, GameController):
        controller = open_game(wanted) if wanted else start_game()
        player = identity.player_id()
        if not wanted and player is not None:
            st.session_state[OFFER_KEY] = app_site().unfinished_game(player)
    elif wanted and wanted != controller.game_id:
        controller = open_game(wanted)
    elif controller.game_id is not None and (
        controller.elsewhere or not controller.in_step_with_store()
    ):
        earlier = controller
        controller = open_game(controller.game_id)
        controller.set_pace(earlier.pace)
        # The player hears of it when a move of theirs was refused or made elsewhere.
        told = earlier.told_elsewhere or controller.moved_by_hand(earlier.history)
        if controller.game_id == earlier.game_id and not earlier.read_only and told:
            controller.notice = Notice("info", MOVED_ON)
    st.session_state[CONTROLLER_KEY] = controller
    link(controller)
    return controller


def link(controller: GameController) -> None:
    """Keep the address on the session's game: its id once stored, else no id at all."""
    if controller.game_id is None:
        st.query_params.pop("game", None)
    elif st.query_params.get("game") != controller.game_id:
        st.query_params["game"] = controller.game_id


def session_game() -> GameController:
    """The session's game, opened as :func:`current` does when there is none yet."""
    controller = st.session_state.get(CONTROLLER_KEY)
    return controller if isinstance(controller, GameController) else current()


def acting_game() -> GameController | None:
    """The session's game, about to take the human's move (None when it cannot be kept): a
    new game is stored with its first move, so the player it will belong to must exist."""
    controller = session_game()
    if controller.owner is None and controller.game_id is None:
        try:
            controller.owner = identity.ensure_player(controller.players[HUMAN_SEAT])
        except StoreError as err:
            controller.notice = Notice("error", f"This move could not be saved: {err}")
            return None
    return controller
