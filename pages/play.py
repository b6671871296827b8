"""Play a match to 500 against three bots."""

from spades.ui.table import render

render()
