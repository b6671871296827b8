"""The table's looks: felt themes and card backs, drawn with the project's own CSS and SVG.

A :class:`Felt` names every colour the table puts on the cloth, so the contrast of text and
suit marks against it can be checked (:func:`contrast_ratio`, WCAG 2 relative luminance). A
:class:`CardBack` is an SVG pattern made here and used as a CSS background. No image or font
is downloaded.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Final

from spades.engine.cards import SUIT_NAMES


@dataclass(frozen=True, slots=True)
class Felt:
    """A table cloth: its gradient, the text on it and the marks of the seats."""

    name: str
    label: str
    #: Gradient stops from the centre of the table to its rim (lightest first).
    cloth: tuple[str, str, str]
    #: Names, bids and markers printed on the cloth.
    text: str
    #: Ring and badge of the seat to act.
    to_act: str
    #: Ring and badge of the trick's winner.
    winner: str
    #: Text on a badge.
    badge_text: str
    #: The keyboard focus ring.
    focus: str


@dataclass(frozen=True, slots=True)
class CardBack:
    """A card back design: an SVG tile and the card's border colour."""

    name: str
    label: str
    svg: str
    border: str

    def css_url(self) -> str:
        """The tile as a CSS ``url()`` (a base64 data URI, so no file is fetched)."""
        data = base64.b64encode(self.svg.encode()).decode()
        return f'url("data:image/svg+xml;base64,{data}")'


#: The face of every card, with its black and red suit marks (the same on every felt).
CARD_FACE: Final = "#fffdf7"
BLACK_SUIT: Final = "#1b1b1b"
RED_SUIT: Final = "#c62828"
#: The four-colour deck's diamonds and clubs (the faces in ``spades/ui/deck/four-colour``
#: are drawn in these).
BLUE_SUIT: Final = "#1565c0"
GREEN_SUIT: Final = "#2e7d32"


def suit_colours(four_colour: bool) -> tuple[str, str, str, str]:
    """The colour of each suit's marks (clubs, diamonds, hearts, spades): black and red, or
    the four-colour deck's green, blue, red and black.

    >>> suit_colours(True) == (GREEN_SUIT, BLUE_SUIT, RED_SUIT, BLACK_SUIT)
    True
    """
    if four_colour:
        return GREEN_SUIT, BLUE_SUIT, RED_SUIT, BLACK_SUIT
    return BLACK_SUIT, RED_SUIT, RED_SUIT, BLACK_SUIT


FELTS: Final[dict[str, Felt]] = {
    felt.name: felt
    for felt in (
        Felt(
            name="emerald",
            label="Emerald green",
            cloth=("#25704a", "#1b5e3a", "#124428"),
            text="#f4f8f2",
            to_act="#ffd54f",
            winner="#81d4fa",
            badge_text="#1b1b1b",
            focus="#ffeb3b",
        ),
        Felt(
            name="crimson",
            label="Crimson red",
            cloth=("#8c1c2c", "#721426", "#520c19"),
            text="#fdf3f0",
            to_act="#ffd54f",
            winner="#90caf9",
            badge_text="#1b1b1b",
            focus="#ffeb3b",
        ),
        Felt(
            name="royal",
            label="Royal blue",
            cloth=("#245199", "#1b3f7c", "#112a57"),
            text="#f1f5fd",
            to_act="#ffd54f",
            winner="#a5d6a7",
            badge_text="#1b1b1b",
            focus="#ffeb3b",
        ),
    )
}
DEFAULT_FELT: Final = "emerald"


def _linen() -> str:
    # Fine cross-hatched threads on a cream ground, woven with navy diagonals.
    threads = "".join(
        f'<path d="M{i} 0V16M0 {i}H16" stroke="#9fb3c8" stroke-width="0.6"/>'
        for i in (2, 6, 10, 14)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">'
        f'<rect width="16" height="16" fill="#f3efe2"/>{threads}'
        '<path d="M0 16L16 0M0 0L16 16" stroke="#2f4f7a" stroke-width="0.5" '
        'stroke-opacity="0.7"/><circle cx="8" cy="8" r="1.3" fill="#2f4f7a"/></svg>'
    )


def _gold() -> str:
    # A gold lattice of diamonds with a small star in each, on burgundy.
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20" viewBox="0 0 20 20">'
        '<rect width="20" height="20" fill="#5e1224"/>'
        '<path d="M10 0L20 10L10 20L0 10Z" fill="none" stroke="#d4a937" stroke-width="1.4"/>'
        '<path d="M10 6L11.2 8.8L14 10L11.2 11.2L10 14L8.8 11.2L6 10L8.8 8.8Z" '
        'fill="#f0c75e"/></svg>'
    )


def _victorian() -> str:
    # Damask: rings and four petals in deep green and ivory, repeated like wallpaper.
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
        '<rect width="24" height="24" fill="#17382c"/>'
        '<circle cx="12" cy="12" r="7" fill="none" stroke="#e8dcc0" stroke-width="1"/>'
        '<circle cx="12" cy="12" r="2.2" fill="#b08d57"/>'
        '<path d="M12 3.5Q14 8 12 9.5Q10 8 12 3.5ZM12 20.5Q14 16 12 14.5Q10 16 12 20.5Z'
        'M3.5 12Q8 14 9.5 12Q8 10 3.5 12ZM20.5 12Q16 14 14.5 12Q16 10 20.5 12Z" '
        'fill="#e8dcc0"/>'
        '<circle cx="0" cy="0" r="2.5" fill="#b08d57"/><circle cx="24" cy="0" r="2.5" '
        'fill="#b08d57"/><circle cx="0" cy="24" r="2.5" fill="#b08d57"/>'
        '<circle cx="24" cy="24" r="2.5" fill="#b08d57"/></svg>'
    )


CARD_BACKS: Final[dict[str, CardBack]] = {
    back.name: back
    for back in (
        CardBack(name="linen", label="Classic linen", svg=_linen(), border="#2f4f7a"),
        CardBack(name="gold", label="Royal gold", svg=_gold(), border="#d4a937"),
        CardBack(name="victorian", label="Victorian", svg=_victorian(), border="#b08d57"),
    )
}
DEFAULT_BACK: Final = "linen"


def felt(name: str) -> Felt:
    """The felt called ``name``, or the default one for an unknown name."""
    return FELTS.get(name, FELTS[DEFAULT_FELT])


def card_back(name: str) -> CardBack:
    """The card back called ``name``, or the default one for an unknown name."""
    return CARD_BACKS.get(name, CARD_BACKS[DEFAULT_BACK])


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a ``#rrggbb`` colour.

    >>> luminance("#ffffff"), luminance("#000000")
    (1.0, 0.0)
    """
    hex_digits = colour.lstrip("#")
    if len(hex_digits) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    r, g, b = (int(hex_digits[i : i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast_ratio(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white).

    >>> round(contrast_ratio("#000000", "#ffffff"), 1), round(contrast_ratio("#777777", "#777777"))
    (21.0, 1)
    """
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def css_variables(felt_name: str, back_name: str, beat: float, *, four_colour: bool = False) -> str:
    """The CSS custom properties of a felt, a card back, the animation beat (seconds) and
    the suits' colours (``--sp-clubs`` … ``--sp-spades``, four with ``four_colour``)."""
    f = felt(felt_name)
    b = card_back(back_name)
    suits = "".join(
        f" --sp-{name}: {colour};"
        for name, colour in zip(SUIT_NAMES, suit_colours(four_colour), strict=True)
    )
    return (
        ":root {"
        f" --sp-cloth-1: {f.cloth[0]}; --sp-cloth-2: {f.cloth[1]}; --sp-cloth-3: {f.cloth[2]};"
        f" --sp-text: {f.text}; --sp-to-act: {f.to_act}; --sp-winner: {f.winner};"
        f" --sp-badge-text: {f.badge_text}; --sp-focus: {f.focus};"
        f" --sp-face: {CARD_FACE}; --sp-black: {BLACK_SUIT};"
        f" --sp-back: {b.css_url()}; --sp-back-border: {b.border};"
        f"{suits} --sp-beat: {beat:.2f}s; }}"
    )
