"""The bot family: ``make_bot(name, *, seed=None, **options)`` and the Bot protocol."""

from spades.bots import basic, expert, random_bot, standard
from spades.bots.base import LIVE_SECONDS, Bot, bot_names, bot_seed, live_bot, make_bot, register

__all__ = [
    "LIVE_SECONDS",
    "Bot",
    "basic",
    "bot_names",
    "bot_seed",
    "expert",
    "live_bot",
    "make_bot",
    "random_bot",
    "register",
    "standard",
]
