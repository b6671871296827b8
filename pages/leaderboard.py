"""Explore: people and bot levels ranked by their rating."""

from spades.ui.leaderboard_view import leaderboard_page
from spades.ui.routing import ensure_router

ensure_router()
leaderboard_page()
