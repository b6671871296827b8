"""Bot lab: simulate matches between bots and compare them."""

from spades.ui.lab_view import bot_lab_page

bot_lab_page()
