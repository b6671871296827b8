"""Reusable card-table components: card buttons, a hand, the trick, and a team's panel.

The Play page and the tutorial draw cards only through these functions, so a card looks
the same everywhere. A card button's key starts with ``card_`` (``card_AS`` by default):
the stylesheet in :mod:`spades.ui.style` gives every such button the look of a card, its
face from the deck (:mod:`spades.ui.faces`), and keeps its text label for assistive
technology only. Nothing here knows a rule; the caller says which cards are enabled and
why the others are not, from the engine.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from spades.app.table_view import in_hand_order
from spades.app.themes import CARD_FACE, suit_colours
from spades.engine.cards import (
    RANK_LETTERS,
    SEAT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    JokerRanking,
    card_name,
    card_str,
    rank_of,
    suit_of,
)
from spades.ui.points import points

RED_SUITS = frozenset({1, 2})


def card_key(card: Card, *, jokers: JokerRanking | None = None) -> str:
    """The widget key of a card's button, per the UI contract: ``card_AS``, ``card_TD``.

    >>> card_key(51), card_key(21)
    ('card_AS', 'card_TD')
    """
    return "card_" + card_str(card, jokers=jokers)


def _face(card: Card, jokers: JokerRanking | None) -> tuple[str, str, bool]:
    """(rank text, suit symbol, red?) of a card as printed on its face."""
    code = card_str(card, jokers=jokers)
    if code in ("BJ", "LJ"):
        return code, "★", code == "BJ"
    rank = RANK_LETTERS[rank_of(card)]
    return ("10" if rank == "T" else rank), SUIT_SYMBOLS[suit_of(card)], suit_of(card) in RED_SUITS


def button_label(card: Card, *, jokers: JokerRanking | None = None) -> str:
    """A card button's label: rank and suit, in red for hearts and diamonds.

    >>> button_label(51), button_label(34), button_label(0, jokers="ace")
    ('A♠', ':red[10♥]', ':red[BJ★]')
    """
    rank, suit, red = _face(card, jokers)
    text = f"{rank}{suit}"
    return f":red[{text}]" if red else text


def card_html(card: Card, *, jokers: JokerRanking | None = None, classes: str = "") -> str:
    """A face-up card as HTML, for the trick and summaries: the card's face (``sp-f-AS``,
    painted by the stylesheet from the chosen deck), named for a screen reader.

    >>> card_html(51).startswith('<span class="sp-card sp-f-AS " title="ace of spades"')
    True
    """
    title = html.escape(card_name(card, jokers=jokers))
    return (
        f'<span class="sp-card sp-f-{card_str(card, jokers=jokers)} {classes}" '
        f'title="{title}" role="img" aria-label="{title}"></span>'
    )


def card_back_html(*, mini: bool = False) -> str:
    """A face-down card as HTML, showing the chosen card back (a small one with ``mini``)."""
    if mini:
        return '<span class="sp-card sp-back sp-mini" aria-hidden="true"></span>'
    return '<span class="sp-card sp-back" role="img" aria-label="face-down card"></span>'


def spoken(text: str) -> str:
    """Text with suit symbols spelled out, for a screen reader.

    >>> spoken("you must follow ♥")
    'you must follow hearts'
    """
    for symbol, name in zip(SUIT_SYMBOLS, SUIT_NAMES, strict=True):
        text = text.replace(symbol, name)
    return text


def suit_marks(text: str, *, four_colour: bool) -> str:
    """Markdown ``text`` with each suit symbol in its colour of the four-colour deck, on the
    card face's colour (``text`` as it is without ``four_colour``).

    >>> suit_marks("Lead the K♦", four_colour=True)
    'Lead the K:color[♦]{foreground="#1565c0" background="#fffdf7"}'
    """
    if not four_colour:
        return text
    for symbol, colour in zip(SUIT_SYMBOLS, suit_colours(True), strict=True):
        text = text.replace(
            symbol, f':color[{symbol}]{{foreground="{colour}" background="{CARD_FACE}"}}'
        )
    return text


def card_aria_label(card: Card, why_not: str | None, *, jokers: JokerRanking | None = None) -> str:
    """A card button's accessible name: what the card is and whether it can be played.

    >>> card_aria_label(51, None), card_aria_label(34, "you must follow ♣")
    ('Ace of spades, playable', 'Ten of hearts, not playable: you must follow clubs')
    """
    name = card_name(card, jokers=jokers).capitalize()
    return f"{name}, playable" if why_not is None else f"{name}, not playable: {spoken(why_not)}"


def card_button(
    card: Card,
    *,
    on_click: Callable[..., Any] | None = None,
    args: Sequence[Any] = (),
    disabled: bool = False,
    why_disabled: str | None = None,
    jokers: JokerRanking | None = None,
    key: str | None = None,
) -> bool:
    """A card as a button; a disabled card says why on hover.

    ``key`` defaults to ``card_<CODE>``; a custom key must keep the ``card_`` prefix to get
    the card look. Returns whether it was clicked in this run.
    """
    name = card_name(card, jokers=jokers).capitalize()
    help_text = f"{name}: {why_disabled}" if disabled and why_disabled else name
    return st.button(
        button_label(card, jokers=jokers),
        key=key or card_key(card, jokers=jokers),
        help=help_text,
        on_click=on_click,
        args=tuple(args),
        disabled=disabled,
    )


def hand_row(
    cards: Iterable[Card],
    *,
    why_not: Callable[[Card], str | None],
    on_click: Callable[[Card], None] | None = None,
    jokers: JokerRanking | None = None,
    key: str = "hand",
    key_prefix: str = "card_",
) -> dict[str, str]:
    """A hand of card buttons in hand order; ``why_not(card)`` is None for a playable card.

    Clicking a card calls ``on_click(card)``. The row is a keyed container (``key``) that
    the stylesheet fans out in one row. Returns each button's key with its accessible name
    (:func:`card_aria_label`), for the page to hand to assistive technology.
    """
    labels: dict[str, str] = {}
    with st.container(key=key, horizontal=True, gap="small", horizontal_alignment="center"):
        for card in in_hand_order(cards, jokers=jokers):
            reason = why_not(card)
            labels[key_prefix + card_str(card, jokers=jokers)] = card_aria_label(
                card, reason, jokers=jokers
            )
            card_button(
                card,
                on_click=on_click,
                args=(card,),
                disabled=reason is not None,
                why_disabled=reason,
                jokers=jokers,
                key=key_prefix + card_str(card, jokers=jokers),
            )
        if not labels:
            # The row's first place held the card played last: Streamlit keeps an element
            # the run does not draw again (dimmed) until the run ends, so the card would show
            # in the hand and on the table at once. An empty element takes its place now.
            st.empty()
    return labels


def hidden_hand(count: int, *, key: str = "hand_hidden") -> None:
    """``count`` face-down cards (a hand not looked at yet), fanned in one row as the
    face-up hand is (the stylesheet's ``sp-fan``)."""
    backs = f'<span class="sp-fan-card">{card_back_html()}</span>' * count
    with st.container(key=key):
        st.html(f'<div class="sp-fan">{backs}</div>')


@dataclass(frozen=True, slots=True)
class SeatView:
    """What the trick view shows at one seat."""

    name: str
    bid: str
    tricks: int
    card: Card | None = None
    to_act: bool = False
    dealer: bool = False
    winner: bool = False
    #: The card was just played (it slides in from the seat).
    fresh: bool = False
    #: The card is a trump that wins a trick led in another suit (briefly highlighted).
    trumped: bool = False
    #: Suits (0 clubs .. 3 spades) the seat is known to be out of, when the aid is on.
    voids: tuple[int, ...] | None = None
    #: How many cards the seat holds, shown as a card back when given.
    held: int | None = None
    #: The seat's card in the trick just finished, shown a moment over the table.
    flash: Card | None = None
    #: The seat won the trick just finished.
    flash_winner: bool = False
    #: Where the seat sits on the table (0 north, 1 east, 2 south, 3 west) when that is
    #: not its number: three players sit at west, east and south.
    place: int | None = None


_POSITIONS = ("sp-north", "sp-east", "sp-south", "sp-west")
_DIRECTIONS = ("north", "east", "south", "west")


def voids_html(suits: Sequence[int]) -> str:
    """A seat's known voids: the suit marks, with the words for a screen reader.

    >>> voids_html([])
    '<div class="sp-voids">no known voids</div>'
    """
    if not suits:
        return '<div class="sp-voids">no known voids</div>'
    marks = "".join(f'<b class="sp-{SUIT_NAMES[s]}">{SUIT_SYMBOLS[s]}</b>' for s in suits)
    words = " and ".join(SUIT_NAMES[s] for s in suits)
    return (
        f'<div class="sp-voids" title="Known to hold no {words}">'
        f'<span aria-hidden="true">void{marks}</span>'
        f'<span class="sp-sr">known void in {words}</span></div>'
    )


def _placed(
    card: Card, place: int, kind: str, winner: bool, jokers: JokerRanking | None, classes: str = ""
) -> str:
    """A card on the table. The UI contract: it names itself and its seat's place at the
    table (N, E, S, W; three players sit W, E and S), and a finished trick's winner says
    so, for tests and tools that read the page."""
    won = ' data-winner="true"' if winner else ""
    return (
        f'<span class="{kind}" data-card="{card_str(card, jokers=jokers)}" '
        f'data-seat="{SEAT_LETTERS[place]}"{won}>'
        f"{card_html(card, jokers=jokers, classes=classes)}</span>"
    )


def trick_html(
    seats: Sequence[SeatView],
    *,
    center: str,
    jokers: JokerRanking | None = None,
    gather_to: int | None = None,
) -> str:
    """The table seen from above as HTML: four seats (N, E, S, W) around the trick.

    With ``gather_to`` (a seat) the cards on the table slide to that seat, the trick's winner.
    A trick just finished (the seats' ``flash`` cards) is shown whole over the table for a
    moment, its winner marked, before the cards of the trick now in play appear.
    """
    cells = []
    places = [seat if view.place is None else view.place for seat, view in enumerate(seats)]
    for seat, (place, view) in enumerate(zip(places, seats, strict=True)):
        classes = ["sp-seat", _POSITIONS[place]]
        if view.to_act:
            classes.append("sp-to-act")
        if view.winner:
            classes.append("sp-winner")
        if view.flash_winner:
            classes.append("sp-flash-winner")
        card_classes = " ".join(
            name for name, on in (("sp-fresh", view.fresh), ("sp-trumped", view.trumped)) if on
        )
        card = (
            _placed(view.card, place, "sp-now", view.winner, jokers, card_classes)
            if view.card is not None
            else ""
        )
        flash = (
            _placed(view.flash, place, "sp-flash", view.flash_winner, jokers)
            if view.flash is not None
            else ""
        )
        voids = voids_html(view.voids) if view.voids is not None else ""
        held = (
            f'<span class="sp-held">{card_back_html(mini=True)}'
            f'<span aria-hidden="true">{view.held}</span>'
            f'<span class="sp-sr">{view.held} cards in hand</span></span>'
            if view.held is not None
            else ""
        )
        dealer = ' <span class="sp-dealer" title="dealer">D</span>' if view.dealer else ""
        badge = '<span class="sp-badge">to act</span>' if view.to_act else ""
        badge = '<span class="sp-badge">wins</span>' if view.winner else badge
        # Four seats go by their own letter, wherever the table is turned; three players
        # sit at west, east and south, and go by those places.
        letter = SEAT_LETTERS[seat if len(seats) == 4 else place]
        cells.append(
            # data-at: the seat itself, wherever it sits on this page (a card another
            # seat plays is drawn in its place the moment the news tells it).
            f'<div class="{" ".join(classes)}" data-at="{seat}">'
            f'<div class="sp-name"><span class="sp-letter">{letter}</span> '
            f"{html.escape(view.name)}{dealer} {badge}</div>"
            f'<div class="sp-stats">bid <span class="sp-bid">{html.escape(view.bid)}</span>'
            f" · won {view.tricks} {held}</div>"
            f'{voids}<div class="sp-slot">{flash}{card}</div></div>'
        )
    gather = f" sp-to-{_DIRECTIONS[places[gather_to]]}" if gather_to is not None else ""
    flashing = " sp-flashing" if any(view.flash is not None for view in seats) else ""
    return (
        f'<div class="sp-table{gather}{flashing}">{"".join(cells)}'
        f'<div class="sp-center">{center}</div></div>'
    )


def trick_view(
    seats: Sequence[SeatView],
    *,
    center: str,
    jokers: JokerRanking | None = None,
    gather_to: int | None = None,
) -> None:
    """Draw the trick area (key ``trick``): each seat's name, bid, tricks and card, and who
    is to act.

    ``center`` is HTML for the middle of the table (the trump and broken markers); with
    ``gather_to`` the trick slides to that seat.
    """
    with st.container(key="trick"):
        st.html(trick_html(seats, center=center, jokers=jokers, gather_to=gather_to))


def trick_cards_html(
    plays: Iterable[tuple[str, Card]], *, jokers: JokerRanking | None = None
) -> str:
    """A finished trick in a row: each seat's name over its card."""
    parts = [
        f'<span class="sp-play"><small>{html.escape(name)}</small>'
        f"{card_html(card, jokers=jokers, classes='sp-small')}</span>"
        for name, card in plays
    ]
    return f'<div class="sp-row">{"".join(parts)}</div>'


def side_panel(
    title: str,
    *,
    bid: str,
    won: int,
    score: int,
    bags: int,
    target: int,
    key: str,
) -> None:
    """A side's line (a team's, or a cutthroat player's): ``Us: bid 6 | won 4``, then
    score, bags on the count and the target."""
    with st.container(key=key, border=True):
        st.markdown(f"**{title}: bid {bid} | won {won}**")
        st.caption(f"Score {points(score)} of {target} · bags {bags}")
