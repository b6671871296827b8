"""A stored game as the game explorer shows it: its standing and the public record of its
hands that are over, never the match itself.

A game still in play has a hand whose cards nobody may see, so the page gets an
:class:`ExploredGame`: the scores, bags and result as they stand, and the charts' frames,
the scoresheet and the tricks of the hands that are over, each asked for by a method.

>>> from spades.engine.match import Match
>>> from spades.engine.rules import Rules
>>> game = ExploredGame.of(Match(Rules(), seed=1), ("N", "E", "S", "W"))
>>> game.hands, game.scores, game.reason
(0, (0, 0), '')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pandas as pd

from spades.engine.cards import Seat
from spades.engine.match import Match
from spades.engine.rules import Rules
from spades.stats import analytics
from spades.stats.analytics import ReplayedTrick


@dataclass(frozen=True, slots=True)
class ExploredGame:
    """One stored game as it stands: what every page may show of it."""

    rules: Rules
    players: tuple[str, ...]
    #: Each side's score and bags so far (a team's, or in cutthroat a player's).
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    #: The seats knocked out of a three-handed match.
    out: tuple[Seat, ...]
    #: Why the match ended, once it has (empty while it is played).
    reason: str
    #: How many hands are over.
    hands: int
    _match: Match = field(repr=False)

    @classmethod
    def of(cls, match: Match, players: tuple[str, ...]) -> ExploredGame:
        """The explorer's view of ``match``, its seats named ``players``."""
        return cls(
            rules=match.rules,
            players=players,
            scores=match.scores,
            bags=match.bags,
            out=match.out,
            reason=match.outcome.reason,
            hands=len(match.finished),
            _match=match,
        )

    def score_progression(self, names: Sequence[str]) -> pd.DataFrame:
        """Each side's running score, hand by hand (see :func:`analytics.score_progression`)."""
        return analytics.score_progression(self._match, names)

    def bags_progression(self, names: Sequence[str]) -> pd.DataFrame:
        """Each side's bags, hand by hand (see :func:`analytics.bags_progression`)."""
        return analytics.bags_progression(self._match, names)

    def hand_table(self, names: Sequence[str]) -> pd.DataFrame:
        """A row a hand that is over (see :func:`analytics.hand_table`)."""
        return analytics.hand_table(self._match, names)

    def tricks(self, hand_index: int) -> list[ReplayedTrick]:
        """The tricks of the hand ``hand_index`` (from 0), one that is over."""
        self._over(hand_index)
        return analytics.replayed_tricks(self._match, hand_index)

    def trick_table(self, hand_index: int) -> pd.DataFrame:
        """The tricks of the hand ``hand_index`` (from 0) as a table, one that is over."""
        self._over(hand_index)
        return analytics.trick_table(self._match, hand_index)

    def _over(self, hand_index: int) -> None:
        if not 0 <= hand_index < self.hands:
            raise ValueError(f"hand {hand_index + 1} of this game is not over")
