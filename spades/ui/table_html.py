"""The table's pieces made from a :class:`~spades.app.table_view.TableView`, no widget.

What each seat shows, the middle of the table, the status line, the table in words for a
screen reader, and the scoresheet's rows: all drawn from what the page's seat may see and
the public record of the hands that are over, so :mod:`spades.ui.table` only places them.
The table is turned so that the page's seat sits at the bottom, its partner across.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from spades.app.prefs import TablePrefs
from spades.app.seats import seat_names
from spades.app.table_view import FinishedHand, TableView, side_names
from spades.engine.cards import Card, bid_label, card_label, card_name
from spades.ui.cards import SeatView
from spades.ui.points import points

#: What a seat knocked out of a three-handed match shows for its bid.
OUT: Final = "out"


def seat_views(view: TableView, look: TablePrefs) -> list[SeatView]:
    """What each seat shows: name, bid, tricks, its card (the newest slides in, a trump that
    takes a trick shines), cards left, and the known voids when that aid is on."""
    obs = view.obs
    held = view.held
    # The held trick's winner, unless the page asks who it is.
    winner = held.winner if held is not None and view.held_winner != "hidden" else None
    on_table: dict[int, Card] = dict(held.plays()) if held is not None else dict(obs.trick)
    acting = None if held is not None or view.summary else obs.current_player
    # The player's own card is drawn by the browser the moment it is clicked (see
    # spades.ui.quick), so only the other seats' cards slide in from the server's drawing.
    fresh = (
        obs.trick[-1][0] if held is None and obs.trick and obs.trick[-1][0] != view.seat else None
    )
    voids = obs.known_voids() if look.voids else None
    flash = view.flash
    flashed = dict(flash.plays()) if flash is not None else {}
    return [
        SeatView(
            name=view.players[seat],
            bid=OUT if seat in obs.out else bid_label(obs.bids[seat], obs.blind[seat]),
            tricks=obs.tricks_won[seat],
            card=on_table.get(seat),
            to_act=seat == acting,
            dealer=seat == obs.dealer,
            winner=seat == winner,
            fresh=seat == fresh,
            trumped=winner is not None and seat == view.trumped,
            voids=tuple(s for s in range(4) if voids[seat] >> s & 1)
            if voids is not None and seat != view.seat
            else None,
            held=obs.hand_sizes[seat] if seat != view.seat else None,
            flash=flashed.get(seat),
            flash_winner=flash is not None and flash.winner == seat,
            place=view.place_of(seat),
        )
        for seat in obs.rules.seats
    ]


def announcement(view: TableView) -> str:
    """The table in words for a screen reader: the trick, whose turn, bids and scores."""
    obs = view.obs
    held = view.held
    plays = held.plays() if held is not None else list(obs.trick)
    if plays:
        played = ", ".join(
            f"{view.players[seat]} {card_name(card, jokers=view.jokers)}" for seat, card in plays
        )
        trick = f"On the table: {played}."
    else:
        trick = "No card on the table."
    if view.flash is not None:
        trick = f"{view.players[view.flash.winner]} won the last trick. {trick}"
    scores = "; ".join(
        f"{side.name}: bid {side.bid}, won {side.won}, score {points(side.score)}"
        for side in view.sides
    )
    return f"{trick} {status(view)} {scores}."


def center_html(view: TableView) -> str:
    """The middle of the table: spades are trump, whether they are broken, the jokers."""
    broken = "Spades broken" if view.obs.spades_broken else "Spades not broken yet"
    jokers = ""
    if view.jokers is not None:
        # Besides the jokers (the top two), the cards above the A♠: the 2♦ and 2♠ of the
        # ranking "deuces".
        names = ["Jokers", *map(card_label, view.above_the_ace)]
        above = " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]
        jokers = f"<div class='sp-marker'>{above} rank above the A♠</div>"
    return (
        "<div class='sp-trump' title='Spades are always trump'>♠</div>"
        "<div class='sp-marker'>trump</div>"
        f"<div class='sp-marker'>{broken}</div>{jokers}"
    )


def status(view: TableView) -> str:
    """The status line: who wins the trick on show, whose turn it is and to do what."""
    if view.held is not None:
        if view.held_winner == "hidden":
            return "The trick is complete."
        if view.held.winner == view.seat and not view.watching:
            return "You win the trick."
        return f"{view.players[view.held.winner]} wins the trick."
    seat = view.obs.current_player
    if view.watching:
        if seat is None:
            return "You are watching this game."
        # Named, never addressed: the watched player may be called "You".
        return f"You are watching. Next to act: {view.players[seat]}."
    if view.summary or seat is None:
        return "The hand is over."
    if seat != view.seat:
        doing = "bidding" if view.bidding else "passing cards" if view.passing else "playing"
        return f"{view.players[seat]} is {doing}…"
    return _your_turn(view)


def _your_turn(view: TableView) -> str:
    if view.bidding:
        if view.obs.hand is None:
            return "Your turn: bid blind nil before you see your cards, or look at them."
        return "Your turn: how many tricks will you take?"
    if view.passing:
        return "Your turn: pick a card to pass to your partner."
    return "Your turn: play a card."


def scoresheet_rows(
    hands: Sequence[FinishedHand], players: Sequence[str], seat: int
) -> list[dict[str, int | str]]:
    """One row a finished hand: each side's bid, tricks, points, score and bags (the
    teams', Us being ``seat``'s, or in cutthroat every player's under their name); points
    and scores are printed, with a true minus sign."""
    rows: list[dict[str, int | str]] = []
    for hand in hands:
        names = _distinct(side_names(hand.rules, players, seat))
        row: dict[str, int | str] = {
            "Hand": hand.number,
            "Dealer": seat_names(hand.rules)[hand.dealer],
        }
        for side, name in enumerate(names):
            result = hand.result.sides[side]
            row[f"{name} bid"] = hand.side_bids[side]
            row[f"{name} won"] = result.tricks
            row[f"{name} points"] = points(result.points, sign=True)
            row[f"{name} score"] = points(hand.score[side])
            row[f"{name} bags"] = result.bags_after
        rows.append(row)
    return rows


def _distinct(names: Sequence[str]) -> list[str]:
    """The names made distinct (a second "Left" becomes "Left (2)"), to head columns.

    >>> _distinct(["Left", "Right", "Left"])
    ['Left', 'Right', 'Left (2)']
    """
    seen: dict[str, int] = {}
    distinct = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        distinct.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return distinct
