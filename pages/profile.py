"""Play: the player's profile, their data, and signing in where it is set up."""

from spades.ui.profile_view import profile_page
from spades.ui.routing import ensure_router

ensure_router()
profile_page()
