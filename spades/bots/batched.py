"""The plumbing of the expert's random rollouts: sampled deals drawn against a deadline,
laid out as rows of a :class:`~spades.bots.playout.PlayoutBatch`, and the worth of each row's
tricks (the partnership game only: a seat's tricks are packed in four bits)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from spades.bots.playout import Ints, PlayoutBatch
from spades.bots.sampler import Deal, DealSampler
from spades.engine.cards import Card, Seat
from spades.engine.state import Deck, trick_winner


def draw(
    sampler: DealSampler, rng: random.Random, count: int, deadline: float | None
) -> tuple[list[Deal], list[float]]:
    """Up to ``count`` sampled deals and their weights; at least one, fewer once the
    deadline has passed."""
    deals: list[Deal] = []
    weights: list[float] = []
    for _ in range(count):
        deal, weight = sampler.sample(rng)
        deals.append(deal)
        weights.append(weight)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return deals, weights


def playout_rows(
    deals: Sequence[Deal],
    repeat: int,
    seat: Seat,
    trick: Sequence[tuple[Seat, Card]],
    deck: Deck,
    broken: bool,
    won: Sequence[int],
) -> PlayoutBatch:
    """The playouts of each deal ``repeat`` times over (in consecutive rows) from the
    public state of the play: the seat to play, the current trick, spades broken and the
    tricks won so far."""
    rows = len(deals) * repeat
    if trick:
        win_seat, win_card = trick_winner(deck, trick)
        led = deck.suit[trick[0][1]]
    else:
        # Ignored by the playouts while the trick has no card.
        win_seat, win_card, led = seat, 0, 0
    return PlayoutBatch(
        hands=np.repeat(np.array(deals, dtype=np.uint64), repeat, axis=0),
        seat=np.full(rows, seat, dtype=np.intp),
        led=np.full(rows, led, dtype=np.intp),
        win_seat=np.full(rows, win_seat, dtype=np.intp),
        win_card=np.full(rows, win_card, dtype=np.intp),
        broken=np.full(rows, broken, dtype=np.bool_),
        won=np.tile(np.array(won, dtype=np.intp), (rows, 1)),
    )


def row_values(won: Ints, value: Callable[[Sequence[int]], float]) -> npt.NDArray[np.float64]:
    """``value`` of each row's tricks per seat, computed once for each distinct row."""
    keys = won[:, 0] | won[:, 1] << 4 | won[:, 2] << 8 | won[:, 3] << 12
    distinct, index = np.unique(keys, return_inverse=True)
    worth = np.array(
        [value([k & 15, k >> 4 & 15, k >> 8 & 15, k >> 12]) for k in distinct.tolist()],
        dtype=np.float64,
    )
    values: npt.NDArray[np.float64] = worth[index]
    return values
