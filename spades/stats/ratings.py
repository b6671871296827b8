"""Skill ratings: one Weng-Lin rating (openskill's Plackett-Luce model) per person and per
bot level, moved by every match they finish, of the partnership game or of cutthroat.

A rating is a belief about skill: a mean ``mu`` and an uncertainty ``sigma``, shown as
``mu ± sigma`` and ranked by the conservative ``mu - 3 sigma`` (a skill the subject is
almost surely above), so a newcomer with one lucky win does not top the table. The model
keeps openskill's defaults: everyone starts at 25 ± 25/3.

Whom a rating belongs to is a *subject* (:mod:`spades.store.ratings` names them:
``person:<player id>`` or ``bot:<level>``), which the maths takes as it is. The sides of a
match are ranked: in the partnership game the two teams N+S and E+W, partners
sharing their team's result (:func:`rate_match`); in cutthroat every player alone, a
free-for-all ranked by the players' places: by final score, players level on points
sharing a place, except that in three-handed cutthroat a player knocked out by the mercy
score places below those still in (:func:`rate_cutthroat`). Cutthroat moves the same
rating as the partnership game: it is one skill at one card game, and a rating of its own
would stay unsure for the few cutthroat games most people play.

A subject may sit at more than one seat (a person against three ``standard`` bots has
``bot:standard`` on both teams), so each seat is rated as a player of its own, starting
from its subject's rating, and the seats are then folded back into one rating per subject:

- on one side, the subject's ``mu`` moves by the sum of its seats' moves (it played every
  one of those seats) and its ``sigma`` becomes the smallest its seats reached;
- on more than one side (in cutthroat, at more than one seat), the subject played itself:
  the match says nothing of its skill and it keeps its rating, though its seats still
  count as the strength the others met.

The store keeps the ratings and moves them as each game that counts is finished, by
:data:`RATER`, the maths as it asks for it (:class:`spades.store.ratings.Rater`).

>>> updates = rate_match(["person:a", "bot:basic", "bot:standard", "bot:basic"], 0, {})
>>> [(u.subject, u.won, u.after.mu > u.before.mu) for u in updates]
[('bot:basic', False, False), ('bot:standard', True, True), ('person:a', True, True)]
>>> updates = rate_cutthroat(["bot:basic", "bot:basic", "person:a"], (2, 1, 3), 1, {})
>>> [(u.subject, u.won, u.after.mu > u.before.mu) for u in updates]
[('person:a', False, False)]
>>> str(Rating())
'25.0 ± 8.3'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from spades.engine.rules import Rules
from spades.store.ratings import RatedGame, Skill

#: The model every rating is kept by, with the library's defaults (mu 25, sigma 25/3).
MODEL: Final = PlackettLuce()
#: How many sigmas below the mean the conservative rating is taken.
Z: Final = 3.0
#: The seats of each team: N and S (team 0), E and W (team 1).
TEAMS: Final = Rules().sides()


def conservative(mu: float, sigma: float) -> float:
    """The rating a subject is ranked by: ``mu - 3 sigma``, openskill's ordinal.

    >>> conservative(25.0, 25 / 3)
    0.0
    """
    return mu - Z * sigma


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill belief: mean and uncertainty."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative rating (:func:`conservative`)."""
        return conservative(self.mu, self.sigma)

    def __str__(self) -> str:
        return f"{self.mu:.1f} ± {self.sigma:.1f}"


@dataclass(frozen=True, slots=True)
class Update:
    """What one match did to one subject: its rating before and after, the seats it held
    (a bit a seat, N = 1) and whether it won (None for a tie)."""

    subject: str
    before: Rating
    after: Rating
    seats: int
    won: bool | None = None


def rated_subjects(seats: Sequence[str], sides: Sequence[Sequence[int]] = TEAMS) -> list[str]:
    """The subjects of a match that its result moves, sorted: those on one side only
    (``sides`` lists each side's seats: the teams, or in cutthroat each seat alone).

    >>> rated_subjects(["bot:basic", "bot:standard", "person:a", "bot:standard"])
    ['bot:basic', 'bot:standard', 'person:a']
    >>> rated_subjects(["bot:basic", "bot:standard", "person:a", "bot:basic"])
    ['bot:standard', 'person:a']
    >>> rated_subjects(["bot:basic", "bot:standard", "person:a"], [[0], [1], [2]])
    ['bot:basic', 'bot:standard', 'person:a']
    """
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    held: dict[str, set[int]] = {}
    for seat, subject in enumerate(seats):
        held.setdefault(subject, set()).add(side_of[seat])
    return sorted(subject for subject, found in held.items() if len(found) == 1)


def rate_match(
    seats: Sequence[str], winner: int | None, ratings: Mapping[str, Rating]
) -> list[Update]:
    """The rating updates of one finished partnership match, sorted by subject.

    ``seats`` names the subject at N, E, S and W; ``winner`` is the winning team (0 for N/S,
    1 for E/W, None for a tie); ``ratings`` holds the subjects' ratings so far (a subject
    missing from it starts at :class:`Rating`'s defaults). A subject that sat on both teams
    gets no update (see the module's notes).
    """
    if len(seats) != 4:
        raise ValueError(f"a partnership match has four seats, not {len(seats)}")
    if winner not in (0, 1, None):
        raise ValueError(f"winner: expected team 0, 1 or None, not {winner!r}")
    ranks = [0.0, 0.0] if winner is None else [float(winner != 0), float(winner != 1)]
    won = [None if winner is None else winner == team for team in range(2)]
    return _rate(seats, TEAMS, ranks, won, ratings)


def rate_cutthroat(
    seats: Sequence[str],
    places: Sequence[int],
    winner: int | None,
    ratings: Mapping[str, Rating],
) -> list[Update]:
    """The rating updates of one finished cutthroat match, sorted by subject.

    ``seats`` names the subject at each of the three or four seats and ``places`` the
    seats' places at the end (1 the best; players level share one), which rank them;
    ``winner`` is the winning seat (None when the game was shared), which alone counts as
    won. A subject at more than one seat gets no update (see the module's notes).
    """
    if len(seats) not in (3, 4) or len(places) != len(seats):
        raise ValueError(
            f"a cutthroat match has three or four seats and a place each, not "
            f"{len(seats)} seats and {len(places)} places"
        )
    if winner is not None and winner not in range(len(seats)):
        raise ValueError(f"winner: expected a seat or None, not {winner!r}")
    sides = [(seat,) for seat in range(len(seats))]
    ranks = [float(place - 1) for place in places]
    won = [None if winner is None else winner == seat for seat in range(len(seats))]
    return _rate(seats, sides, ranks, won, ratings)


def _rate(
    seats: Sequence[str],
    sides: Sequence[Sequence[int]],
    ranks: Sequence[float],
    won: Sequence[bool | None],
    ratings: Mapping[str, Rating],
) -> list[Update]:
    """Rate the ``sides`` (each a list of seats) by their ``ranks`` (0 best), and fold the
    seats back into one update per subject on one side, which ``won`` or not."""
    before = {subject: ratings.get(subject, Rating()) for subject in seats}
    teams = [
        [MODEL.rating(before[seats[s]].mu, before[seats[s]].sigma) for s in side] for side in sides
    ]
    rated = MODEL.rate(teams, ranks=list(ranks))
    new = {
        seat: rating
        for side, ratings_of in zip(sides, rated, strict=True)
        for seat, rating in zip(side, ratings_of, strict=True)
    }
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    updates = []
    for subject in rated_subjects(seats, sides):
        held = [seat for seat, name in enumerate(seats) if name == subject]
        old = before[subject]
        mu = old.mu + sum(new[seat].mu - old.mu for seat in held)
        sigma = min(new[seat].sigma for seat in held)
        mask = sum(1 << s for s in held)
        updates.append(Update(subject, old, Rating(mu, sigma), mask, won[side_of[held[0]]]))
    return updates


class Maths:
    """The rating maths as the store asks for it (:class:`spades.store.ratings.Rater`): a
    partnership game ranks its teams by the winner (:func:`rate_match`), and cutthroat its
    players by their places (:func:`rate_cutthroat`).

    >>> game = RatedGame(("person:a", "bot:basic", "bot:basic", "bot:standard"), winner=0)
    >>> RATER.moving(game)
    ['bot:standard', 'person:a']
    >>> [(u.subject, u.before.mu) for u in RATER.rate(game, {"person:a": Rating(30.0, 5.0)})]
    [('bot:standard', 25.0), ('person:a', 30.0)]
    """

    start: Final = Rating()

    def moving(self, game: RatedGame) -> list[str]:
        """The subjects whose ratings ``game`` moves: those on one side only."""
        if game.places is None:
            return rated_subjects(game.subjects)
        return rated_subjects(game.subjects, [(seat,) for seat in range(len(game.subjects))])

    def rate(self, game: RatedGame, known: Mapping[str, Skill]) -> list[Update]:
        """The updates ``game`` makes to the ratings ``known`` so far."""
        ratings = {subject: Rating(skill.mu, skill.sigma) for subject, skill in known.items()}
        if game.places is None:
            return rate_match(game.subjects, game.winner, ratings)
        return rate_cutthroat(game.subjects, game.places, game.winner, ratings)


#: The rating maths a store moves the ratings by.
RATER: Final = Maths()
