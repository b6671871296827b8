"""The bot family: ``make_bot(name, *, seed=None, **options)`` and the Bot protocol."""

from spades.bots import random_bot
from spades.bots.base import Bot, bot_names, make_bot, register

__all__ = ["Bot", "bot_names", "make_bot", "random_bot", "register"]
