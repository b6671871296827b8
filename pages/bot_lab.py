"""Bot lab: simulate matches between bots and compare them."""

from spades.ui.lab_view import bot_lab_page
from spades.ui.routing import ensure_router

ensure_router()
bot_lab_page()
