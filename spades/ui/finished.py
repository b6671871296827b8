"""The Play page's record of finished hands: a hand's summary, the scoresheet, and the
match's result in words, for the two teams of the partnership game or every cutthroat
player (drawn from the public :class:`~spades.app.table_view.FinishedHand`)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from spades.app.play import GameController
from spades.app.seats import HUMAN_SEAT
from spades.app.table_view import FinishedHand, side_names
from spades.engine.cards import Seat, bid_label
from spades.ui import safe
from spades.ui.points import points
from spades.ui.table_html import scoresheet_rows


def scoresheet(
    hands: Sequence[FinishedHand], players: Sequence[str], seat: Seat = HUMAN_SEAT
) -> None:
    """The running scoresheet as ``seat`` sees it: a row a finished hand (see
    :func:`scoresheet_rows`)."""
    rows = scoresheet_rows(hands, players, seat)
    with st.container(key="scoresheet"):
        st.subheader("Scoresheet")
        if rows:
            # Every hand in view, the deciding one included, figures to the right.
            right = {name: st.column_config.TextColumn(alignment="right") for name in rows[0]}
            st.dataframe(
                rows, hide_index=True, width="stretch", height="content", column_config=right
            )
        else:
            st.caption("The scores of each hand appear here.")


def hand_summary(players: Sequence[str], hand: FinishedHand, seat: Seat = HUMAN_SEAT) -> None:
    """A finished hand: each seat's bid and tricks, then each side's points line by line
    (the two teams', Us being ``seat``'s, or in cutthroat every player's)."""
    seats = [
        {
            "Seat": players[seat],
            "Bid": bid_label(hand.bids[seat], hand.blind[seat]),
            "Won": hand.tricks_won[seat],
        }
        for seat in hand.rules.seats
    ]
    st.dataframe(seats, hide_index=True, width="stretch")
    if hand.claimed_by is not None:
        st.caption(f"{safe.md(players[hand.claimed_by])} claimed the last tricks.")
    names = side_names(hand.rules, players, seat)
    sides = hand.result.sides
    for side, column in enumerate(st.columns(len(sides))):
        t = sides[side]
        key = f"summary_{names[side].lower()}" if hand.rules.partnerships else f"summary_{side}"
        with column, st.container(key=key, border=True):
            st.markdown(f"**{safe.md(names[side])}: bid {hand.side_bids[side]} | won {t.tricks}**")
            for line in t.lines:
                st.markdown(f"- {line.text}: **{points(line.points, sign=True)}**")
            if not t.lines:
                st.markdown("- no points")
            st.markdown(
                f"Points this hand **{points(t.points, sign=True)}** · "
                f"score **{points(hand.score[side])}** · bags {t.bags_before} → {t.bags_after}"
                + (f" · penalty {points(-t.penalty)}" if t.penalty else "")
            )


def winner_heading(controller: GameController) -> str:
    """Who won the match, said to the player."""
    rules = controller.rules
    winner = controller.outcome.winner
    if winner is None:
        return "A shared game"
    if winner == rules.side_of(HUMAN_SEAT) and not controller.read_only:
        if rules.partner(HUMAN_SEAT) is None:
            return ":material/trophy: You win!"
        return ":material/trophy: You and your partner win!"
    seats = rules.sides()[winner]
    names = " and ".join(safe.md(controller.players[seat]) for seat in seats)
    return f"{names} {'win' if len(seats) > 1 else 'wins'} this time"


def final_scores(controller: GameController) -> str:
    """The final score of every side in words."""
    rules = controller.rules
    names = side_names(rules, controller.players)
    if rules.partnerships:
        names = ("us", "them")
    return ", ".join(
        f"{safe.md(name)} **{points(score)}**"
        for name, score in zip(names, controller.scores, strict=True)
    )


def reason_words(words: str) -> str:
    """The engine's reason the match ended (its outcome's words, each cutthroat player
    named), escaped for Markdown.

    >>> print(reason_words("*Ada* wins with the highest score"))
    \\*Ada\\* wins with the highest score
    """
    return safe.md(words, limit=300)
