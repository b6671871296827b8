"""Explore: charts of all your games."""

from spades.ui.analytics_view import overview_page

overview_page()
