"""The engine positions the tutorial starts from: seeded deals bid and played forward, the
search for a deal that shows what an exercise needs, and the engine's refusals.

The learner sits South, as on the Play page, with North as partner, under the default rules
(and in the cutthroat lesson among three players, under :data:`THREE_HANDED`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Final, TypeVar

from spades.engine.cards import Action, Card, Seat, bid_action
from spades.engine.rules import Rules
from spades.engine.state import HandState, IllegalAction, Phase, deck_for

RULES: Final = Rules()
#: The rules of the cutthroat lesson: three players, each for themselves.
THREE_HANDED: Final = Rules(players=3, partnerships=False)
DECK: Final = deck_for(RULES.joker_deck)
TABLE_BOTS: Final = ("standard", "expert", "basic")

_T = TypeVar("_T")


def seeded_rng(*parts: object) -> random.Random:
    """A random source fixed by ``parts``, so that every exercise can be dealt again."""
    return random.Random(":".join(["tutorial", *map(str, parts)]))


def bid_all(state: HandState, bids: Mapping[Seat, int]) -> None:
    """Bid through the auction: the given bids, three tricks for everyone else."""
    while state.phase is Phase.BIDDING:
        seat = state.current_player
        assert seat is not None
        state.apply(bid_action(bids.get(seat, 3)))


def _lowest(state: HandState) -> Action:
    """The lowest-ranked legal card: how a nil bidder ducks in these positions."""
    return min(state.legal_actions(), key=lambda c: (DECK.power[c], DECK.suit[c]))


def playout(
    key: object, *, bids: Mapping[Seat, int] | None = None, ducker: Seat | None = None
) -> tuple[list[HandState], HandState]:
    """A seeded deal bid and played to the end at random.

    Returns the state before every card and the finished hand. ``ducker`` always plays
    its lowest legal card, as a nil bidder would.
    """
    rng = seeded_rng("deal", key)
    state = HandState.deal(RULES, dealer=rng.randrange(RULES.players), seed=rng.getrandbits(32))
    bid_all(state, bids or {})
    positions = []
    while not state.is_over:
        positions.append(state.clone())
        if state.current_player == ducker:
            state.apply(_lowest(state))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return positions, state


def search(seed: int, find: Callable[[int], _T | None], *, tries: int = 400) -> _T:
    """The first deal (from ``seed``) in which ``find`` finds what the exercise needs."""
    for attempt in range(tries):
        found = find(attempt)
        if found is not None:
            return found
    raise RuntimeError(f"no position found for seed {seed}")


def refusal(state: HandState, action: Action) -> str:
    """The engine's own words for why ``action`` is not allowed now (empty when it is)."""
    try:
        state.verify(action)
    except IllegalAction as err:
        return str(err)
    return ""


def suit_of(card: Card) -> int:
    """The suit ``card`` plays as, as the engine's deck has it."""
    return DECK.suit[card]


def table_bot_name() -> str:
    """The bot that sits at the other seats of the practice hand: strong and quick."""
    from spades.bots import bot_names

    names = bot_names()
    for name in TABLE_BOTS:
        if name in names:
            return name
    raise LookupError(f"no table bot is registered (looked for {', '.join(TABLE_BOTS)})")
