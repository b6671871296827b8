"""The card table: the human's hand as buttons, bid buttons, and the bots' turns."""

from __future__ import annotations

import streamlit as st

from spades.bots import Bot, make_bot
from spades.cards import BID_BASE, BLIND_NIL, LOOK, Action, card_label, card_str
from spades.match import Match
from spades.rules import Rules
from spades.state import IllegalAction

HUMAN = 2
SEATS = ("North", "East", "South", "West")


def new_game(seed: int, bot_level: str = "random") -> None:
    """Start a new match in the session."""
    st.session_state.match = Match(Rules(), seed=seed)
    st.session_state.bots = {seat: make_bot(bot_level, seed=seed + seat) for seat in (0, 1, 3)}
    st.session_state.message = ""


def _bots_play(match: Match, bots: dict[int, Bot]) -> None:
    while not match.is_over and match.current_player != HUMAN:
        seat = match.current_player
        assert seat is not None
        match.apply(bots[seat].act(match.hand.observation(seat)))


def _human_acts(action: Action) -> None:
    match: Match = st.session_state.match
    try:
        match.apply(action)
    except IllegalAction as err:
        st.session_state.message = str(err)
        return
    st.session_state.message = ""
    _bots_play(match, st.session_state.bots)


def render() -> None:
    """Draw the table for the match in the session and wire the buttons."""
    if "match" not in st.session_state:
        new_game(seed=0)
    match: Match = st.session_state.match
    _bots_play(match, st.session_state.bots)
    hand = match.hand
    obs = hand.observation(HUMAN)
    st.button("New game", key="new_game", on_click=new_game,
              args=(len(match.history) + match.seed + 1,))
    a, b = st.columns(2)
    a.metric("Us (N/S)", match.scores[0], help=f"bags {match.bags[0]}")
    b.metric("Them (E/W)", match.scores[1], help=f"bags {match.bags[1]}")
    if match.is_over:
        winner = "You win!" if match.winner == 0 else "They win."
        st.success(f"Game over. {winner} {match.outcome.reason}")
        return
    bids = " · ".join(
        f"{SEATS[s]}: {'—' if b is None else ('nil' if b == 0 else b)} ({obs.tricks_won[s]})"
        for s, b in enumerate(obs.bids)
    )
    st.caption(f"Hand {match.hand_number} · bids (tricks) {bids} · "
               f"spades {'broken' if obs.spades_broken else 'not broken'}")
    st.write("Trick: " + (" ".join(f"{SEATS[s]} {card_label(c)}" for s, c in obs.trick) or "—"))
    if st.session_state.get("message"):
        st.warning(st.session_state.message)
    legal = set(obs.legal_actions)
    if BLIND_NIL in legal or LOOK in legal:
        st.button("Blind nil", key="bid_blind_nil", on_click=_human_acts, args=(BLIND_NIL,))
        st.button("Look at my cards", key="look", on_click=_human_acts, args=(LOOK,))
        return
    if any(BID_BASE <= x <= BID_BASE + 13 for x in legal):
        cols = st.columns(14)
        for n, col in enumerate(cols):
            col.button("Nil" if n == 0 else str(n), key="bid_nil" if n == 0 else f"bid_{n}",
                       disabled=BID_BASE + n not in legal, on_click=_human_acts,
                       args=(BID_BASE + n,))
    cards = obs.hand or ()
    cols = st.columns(max(len(cards), 1))
    for col, card in zip(cols, cards, strict=False):
        col.button(card_label(card), key=f"card_{card_str(card)}", disabled=card not in legal,
                   on_click=_human_acts, args=(card,))
