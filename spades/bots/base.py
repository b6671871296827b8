"""The Bot protocol and the registry that ``make_bot`` reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol

from spades.engine.cards import SEAT_NAMES, Action, Seat
from spades.engine.observation import Observation


class Bot(Protocol):
    """Anything that picks an action from an observation."""

    name: str

    def act(self, observation: Observation) -> Action:
        """A legal action for the observing seat, which must be the one to act."""
        ...


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, BotFactory] = {}
#: The bots that search, whose factories take a wall-clock cap (``max_seconds``).
_SEARCHING: set[str] = set()
#: The seconds after which the search of a bot a person waits on stops and answers with its
#: best choice so far: with the deal in hand when it stops, a decision is in within a
#: second. Its work a decision is fixed, so the cap cuts a search short only on a server
#: many times busier than a quiet one.
LIVE_SECONDS: Final = 0.9


def register(name: str, *, searches: bool = False) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make the bot available to :func:`make_bot` under ``name``;
    ``searches`` says that its factory takes ``max_seconds``, a wall-clock cap."""

    def wrap(factory: BotFactory) -> BotFactory:
        _REGISTRY[name] = factory
        if searches:
            _SEARCHING.add(name)
        return factory

    return wrap


def bot_names() -> list[str]:
    """The registered bot names."""
    return list(_REGISTRY)


def make_bot(name: str, *, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by name, such as ``"random"``, ``"basic"``, ``"standard"``, ``"expert"``."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"no bot named {name!r} (known: {known})") from None
    return factory(seed=seed, **options)


def live_bot(name: str, *, seed: int | None = None) -> Bot:
    """A bot a person waits on (at the table, for a hint, in the practice hand): as
    :func:`make_bot`, with a searching bot's decisions capped at :data:`LIVE_SECONDS`.
    Measurements make their bots with :func:`make_bot`, uncapped, so that a decision
    depends on the seed alone and never on the machine's load."""
    if name in _SEARCHING:
        return make_bot(name, seed=seed, max_seconds=LIVE_SECONDS)
    return make_bot(name, seed=seed)


def bot_seed(seed: int, seat: Seat) -> int:
    """The seed of the bot at ``seat`` in a game seeded ``seed``: every seat's bot draws
    its own numbers, and no two games' bots the same.

    >>> bot_seed(5, 0), bot_seed(5, 3), bot_seed(6, 0)
    (20, 23, 24)
    """
    # A seed for each seat of the largest table, whatever the table, so that the seeds of
    # every game stay as they are.
    return seed * len(SEAT_NAMES) + seat


def require_turn(observation: Observation) -> None:
    """Raise unless it is the observing seat's turn."""
    if observation.current_player != observation.seat or not observation.legal_actions:
        raise ValueError(f"it is not seat {observation.seat}'s turn")
