"""The bot family: ``make_bot(name, *, seed=None, **options)`` and the Bot protocol."""

from spades.bots import basic, expert, random_bot, standard
from spades.bots.base import Bot, bot_names, bot_seed, make_bot, register

__all__ = [
    "Bot",
    "basic",
    "bot_names",
    "bot_seed",
    "expert",
    "make_bot",
    "random_bot",
    "register",
    "standard",
]
