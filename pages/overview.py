"""Explore: charts of all your games."""

from spades.ui.analytics_view import overview_page
from spades.ui.routing import ensure_router

ensure_router()
overview_page()
