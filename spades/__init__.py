"""Spades against bots in the browser.

The engine's public API is importable from here, wherever its modules live:

>>> from spades import HandState, Rules, cards
>>> hand = HandState.deal(Rules(), dealer=3, seed=1)
>>> hand.current_player, cards.card_str(cards.parse_card("10h"))
(0, 'TH')

``spades.cards`` is a module name too, as the engine contract writes it: ``import
spades.cards`` and ``from spades.cards import parse_card`` give the engine's cards module.
"""

import sys

from spades.engine import cards
from spades.engine.match import Match
from spades.engine.observation import Observation
from spades.engine.rules import Rules, RulesError
from spades.engine.state import HandState, IllegalAction

sys.modules.setdefault(f"{__name__}.cards", cards)

__all__ = ["HandState", "IllegalAction", "Match", "Observation", "Rules", "RulesError", "cards"]
