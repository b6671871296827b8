"""Skill ratings: one Weng-Lin rating (openskill's Plackett-Luce model) per person and per
bot level, moved by every partnership match they finish.

A rating is a belief about skill: a mean ``mu`` and an uncertainty ``sigma``, shown as
``mu ± sigma`` and ranked by the conservative ``mu - 3 sigma`` (a skill the subject is
almost surely above), so a newcomer with one lucky win does not top the table. The model
keeps openskill's defaults: everyone starts at 25 ± 25/3.

Whom a rating belongs to is a *subject*: ``person:<player id>`` or ``bot:<level>``. The two
teams are N+S and E+W, and partners share their team's result. A subject may sit at more
than one seat (a person against three ``standard`` bots has ``bot:standard`` on both
teams), so each seat is rated as a player of its own, starting from its subject's rating,
and the seats are then folded back into one rating per subject:

- on one team, the subject's ``mu`` moves by the sum of its seats' moves (it played every
  one of those seats) and its ``sigma`` becomes the smallest its seats reached;
- on both teams, the subject played itself: the match says nothing of its skill and it
  keeps its rating, though its seats still count as the strength the others met.

>>> updates = rate_match([person("a"), bot("basic"), bot("standard"), bot("basic")], 0, {})
>>> [(u.subject, u.won, u.after.mu > u.before.mu) for u in updates]
[('bot:basic', False, False), ('bot:standard', True, True), ('person:a', True, True)]
>>> str(Rating())
'25.0 ± 8.3'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from spades.cards import team_of

#: The model every rating is kept by, with the library's defaults (mu 25, sigma 25/3).
MODEL: Final = PlackettLuce()
#: How many sigmas below the mean the conservative rating is taken.
Z: Final = 3.0
PERSON: Final = "person:"
BOT: Final = "bot:"
#: The seats of each team: N and S (team 0), E and W (team 1).
TEAMS: Final = ((0, 2), (1, 3))


def person(player_id: str) -> str:
    """The subject of a person (a player id of the store)."""
    return PERSON + player_id


def bot(level: str) -> str:
    """The subject of a bot level (``basic``, ``standard``, ``expert`` …)."""
    return BOT + level


def is_person(subject: str) -> bool:
    """Whether ``subject`` is a person rather than a bot level."""
    return subject.startswith(PERSON)


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


def rated_subjects(seats: Sequence[str]) -> list[str]:
    """The subjects of a match that its result moves, sorted: those on one team only.

    >>> rated_subjects([bot("basic"), bot("standard"), person("a"), bot("standard")])
    ['bot:basic', 'bot:standard', 'person:a']
    >>> rated_subjects([bot("basic"), bot("standard"), person("a"), bot("basic")])
    ['bot:standard', 'person:a']
    """
    sides: dict[str, set[int]] = {}
    for seat, subject in enumerate(seats):
        sides.setdefault(subject, set()).add(team_of(seat))
    return sorted(subject for subject, teams in sides.items() if len(teams) == 1)


def rate_match(
    seats: Sequence[str], winner: int | None, ratings: Mapping[str, Rating]
) -> list[Update]:
    """The rating updates of one finished match, sorted by subject.

    ``seats`` names the subject at N, E, S and W; ``winner`` is the winning team (0 for N/S,
    1 for E/W, None for a tie); ``ratings`` holds the subjects' ratings so far (a subject
    missing from it starts at :class:`Rating`'s defaults). A subject that sat on both teams
    gets no update (see the module's notes).
    """
    if len(seats) != 4:
        raise ValueError(f"a partnership match has four seats, not {len(seats)}")
    if winner not in (0, 1, None):
        raise ValueError(f"winner: expected team 0, 1 or None, not {winner!r}")
    before = {subject: ratings.get(subject, Rating()) for subject in seats}
    teams = [
        [MODEL.rating(before[seats[s]].mu, before[seats[s]].sigma) for s in team] for team in TEAMS
    ]
    ranks = [0.0, 0.0] if winner is None else [float(winner != 0), float(winner != 1)]
    rated = MODEL.rate(teams, ranks=ranks)
    new = {
        seat: rating
        for team, ratings_of in zip(TEAMS, rated, strict=True)
        for seat, rating in zip(team, ratings_of, strict=True)
    }
    updates = []
    for subject in rated_subjects(seats):
        held = [seat for seat, name in enumerate(seats) if name == subject]
        old = before[subject]
        mu = old.mu + sum(new[seat].mu - old.mu for seat in held)
        sigma = min(new[seat].sigma for seat in held)
        won = None if winner is None else winner == team_of(held[0])
        updates.append(Update(subject, old, Rating(mu, sigma), sum(1 << s for s in held), won))
    return updates
