"""My stats: the player's record, streaks, nils, bags and best and worst hands."""

from spades.ui.analytics_view import overview_page
from spades.ui.routing import ensure_router

ensure_router()
overview_page()
