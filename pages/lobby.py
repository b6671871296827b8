"""Shared tables: create one, join one by its link, and play with friends and bots."""

from spades.ui.lobby import render
from spades.ui.routing import ensure_router

ensure_router()
render()
