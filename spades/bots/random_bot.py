"""``random``: uniform over the legal actions."""

from __future__ import annotations

import random

from spades.bots.base import register, require_turn
from spades.engine.cards import Action
from spades.engine.observation import Observation


@register("random")
class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, *, seed: int | None = None) -> None:
        self._seed = 0 if seed is None else seed

    def act(self, observation: Observation) -> Action:
        require_turn(observation)
        # Seeded by the observation too, so that the same seed and the same
        # observation always give the same choice.
        rng = random.Random(
            hash(
                (
                    self._seed,
                    observation.seat,
                    observation.legal_actions,
                    len(observation.tricks),
                    observation.trick,
                )
            )
        )
        return rng.choice(observation.legal_actions)
