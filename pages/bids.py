"""Bid accuracy: bids against tricks taken, and nil success."""

from spades.ui.analytics_view import bids_page
from spades.ui.routing import ensure_router

ensure_router()
bids_page()
