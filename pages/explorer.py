"""Explore one game: score, bags, hands and tricks."""

from spades.ui.analytics_view import explorer_page
from spades.ui.routing import ensure_router

ensure_router()
explorer_page()
