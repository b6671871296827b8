"""Play a match to 500 against three bots."""

from spades.ui.routing import ensure_router
from spades.ui.table import render

ensure_router()
render()
