"""Bid accuracy: bids against tricks taken, and nil success."""

from spades.ui.analytics_view import bids_page

bids_page()
