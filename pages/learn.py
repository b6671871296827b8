"""Learn Spades by doing: lessons and exercises that the engine checks."""

from spades.ui.routing import ensure_router
from spades.ui.tutorial_view import render

ensure_router()
render()
