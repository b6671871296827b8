"""Explore one game: score, bags, hands and tricks."""

from spades.ui.analytics_view import explorer_page

explorer_page()
