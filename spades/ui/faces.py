"""The card faces: a public-domain SVG deck kept in ``spades/ui/deck`` (its README says
where it comes from and how it was changed), served by the app's server.

Each face is a file named by the card's code (``AS.svg``, ``TD.svg``, ``BJ.svg``), and the
four-colour deck's diamonds and clubs are in ``deck/four-colour/``. The server
(``serve.py``) answers ``GET /_spades/cards/<version>/<file>`` (under Streamlit's
``server.baseUrlPath``, if one is set) from the files read once, with the deck's digest as
its version: a browser keeps each face for a year, and a changed deck has new addresses.

The page names the files in a few short rules of its stylesheet (:func:`faces_css`), one a
card: a card button's container (keyed ``card_AS``, or ``card_learn_AS`` in a lesson) and
a face-up card drawn as ``sp-f-AS`` get the card's address as ``--sp-img``, which the
stylesheet paints. Which deck is chosen only changes these rules, so the trick, the card
the browser draws itself on a click and the hand all follow it.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from spades.engine.cards import NUM_CARDS, card_str
from spades.ui.cookies import served

#: Where the faces are kept.
FOLDER: Final = Path(__file__).resolve().parent / "deck"
#: The four-colour deck's own faces (its diamonds and clubs), within :data:`FOLDER`.
FOUR_COLOUR: Final = "four-colour"
#: The suits the four-colour deck draws in colours of its own (diamonds and clubs).
RECOLOURED: Final = frozenset("DC")
#: The code of every face: the 52 cards, then the Big and the Little Joker.
CODES: Final = (*(card_str(card) for card in range(NUM_CARDS)), "BJ", "LJ")
#: The route's path, under the app's base path (:func:`~spades.ui.cookies.served`).
PATH: Final = "/_spades/cards/{version}/{name:path}"
#: A face never changes under its address, which names the deck's version.
CACHE: Final = "public, max-age=31536000, immutable"


def face_file(code: str, *, four_colour: bool = False) -> str:
    """The file of the face of the card ``code``, within :data:`FOLDER`.

    >>> face_file("AS"), face_file("TD"), face_file("TD", four_colour=True)
    ('AS.svg', 'TD.svg', 'four-colour/TD.svg')
    >>> face_file("BJ", four_colour=True)
    'BJ.svg'
    """
    if four_colour and code[-1] in RECOLOURED and code not in ("BJ", "LJ"):
        return f"{FOUR_COLOUR}/{code}.svg"
    return f"{code}.svg"


@functools.cache
def _faces() -> dict[str, bytes]:
    """Every face file, by its name within :data:`FOLDER`, read once."""
    names = {face_file(code, four_colour=four) for code in CODES for four in (False, True)}
    return {name: (FOLDER / name).read_bytes() for name in sorted(names)}


@functools.cache
def deck_version() -> str:
    """A digest of the deck's files: it changes whenever a face does."""
    digest = hashlib.sha256()
    for name, data in _faces().items():
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()[:12]


def face_url(code: str, *, four_colour: bool = False) -> str:
    """The address of the face of the card ``code``, as the server serves it."""
    return served(f"/_spades/cards/{deck_version()}/{face_file(code, four_colour=four_colour)}")


def faces_css(*, four_colour: bool = False) -> str:
    """The stylesheet's rules naming every card's face in the chosen deck: the container of
    the card's button (any key ``card_…_AS``) and a face-up card (``sp-f-AS``)."""
    return "".join(
        f'[class*="st-key-card_"][class*="_{code}"],.sp-f-{code}'
        f'{{--sp-img:url("{face_url(code, four_colour=four_colour)}")}}'
        for code in CODES
    )


def routes() -> list[BaseRoute]:
    """The route that serves the faces."""
    return [Route(served(PATH), face, methods=["GET"])]


async def face(request: Request) -> Response:
    """One face, kept by the browser for a year; ``404`` for anything else, or a version
    of the deck the server no longer has."""
    data = _faces().get(request.path_params["name"])
    if data is None or request.path_params["version"] != deck_version():
        return PlainTextResponse("No such card face.", status_code=404)
    return Response(data, media_type="image/svg+xml", headers={"Cache-Control": CACHE})
