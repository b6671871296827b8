"""The bots' fast path: random playouts of many hands at once, played in lockstep on numpy
arrays of card bitmasks, and the random finish of the bidding that comes before them.

Which cards may be played is the engine's rule :func:`spades.engine.state.legal_play_mask`,
restated over arrays in :func:`legal_play_masks`; which card takes a trick is
:meth:`spades.engine.state.Deck.beats`, likewise restated. Tests hold each pair together.
"""

from __future__ import annotations

import os
import platform
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from spades.engine.cards import FULL_DECK, JokerRanking
from spades.engine.deck import seats_after
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase, deck_for

Masks = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.intp]
Flags = npt.NDArray[np.bool_]

#: ``_NTH_IN_BYTE[b, n]``: the position (0..7) of the ``n``-th lowest set bit of byte ``b``.
_NTH_IN_BYTE: Final = np.array(
    [[([i for i in range(8) if b >> i & 1] + [0] * 8)[n] for n in range(8)] for b in range(256)],
    dtype=np.intp,
)
_ONE: Final = np.uint64(1)
#: The halvings of a card mask down to a byte: (bits in the low half, its mask).
_HALVES: Final = tuple((width, np.uint64((1 << width) - 1)) for width in (32, 16, 8))


@dataclass(frozen=True)
class _Tables:
    """A :class:`spades.engine.state.Deck` as numpy lookup tables."""

    suit: Ints
    power: Ints
    suit_masks: Masks
    spades: int


@lru_cache(maxsize=4)
def _tables(jokers: JokerRanking | None) -> _Tables:
    deck = deck_for(jokers)
    return _Tables(
        np.array(deck.suit, dtype=np.intp),
        np.array(deck.power, dtype=np.intp),
        np.array(deck.suit_masks, dtype=np.uint64),
        deck.suit_masks[SPADES],
    )


def legal_play_masks(
    hands: Masks,
    trick_len: int | Ints,
    led_mask: Masks,
    broken: Flags,
    first: bool | Flags,
    lead_free: bool,
    no_first: bool,
    spades: int,
) -> Masks:
    """The playable cards of each hand: :func:`spades.engine.state.legal_play_mask`, the same rule
    with the same arguments, over arrays that broadcast against each other."""
    side = hands & np.uint64(~spades & FULL_DECK)
    following = np.asarray(trick_len) != 0
    follow = hands & led_mask
    restricted = (np.asarray(first) & no_first) | (~following & ~broken & (not lead_free))
    free = np.where(restricted & (side != 0), side, hands)
    return np.where(following & (follow != 0), follow, free)


def _random_cards(legal: Masks, rng: np.random.Generator, common: int) -> Ints:
    """One card a game, uniformly among the set bits of its ``legal`` mask; the games in
    each run of ``common`` consecutive ones use the same random number.

    The n-th set bit is found by halving: while more than a byte is left, count the set
    bits of the low half and go on in the half that holds it; the byte left is looked up.
    """
    draws = rng.random(len(legal) // common)
    if common > 1:
        draws = np.repeat(draws, common)
    pick = (draws * np.bitwise_count(legal)).astype(np.uint8)
    cards = np.zeros(len(legal), dtype=np.intp)
    for width, low_mask in _HALVES:
        low = legal & low_mask
        below = np.bitwise_count(low)
        high = pick >= below
        pick -= below * high
        legal = np.where(high, legal >> np.uint64(width), low)
        cards += width * high
    found: Ints = cards + _NTH_IN_BYTE[legal, pick]
    return found


@dataclass(frozen=True)
class PlayoutBatch:
    """N hands in the play, one a row, as arrays for :func:`random_playouts`.

    Every game must have the same number of cards left, so the cards already in the
    current trick and whether it is the first trick are the same for all and follow from
    that number.
    """

    hands: Masks  #: (N, seats) the cards each seat holds, as bitmasks of card ids.
    seat: Ints  #: (N,) the seat to play.
    led: Ints  #: (N,) the led suit of the current trick (ignored when it has no card).
    win_seat: Ints  #: (N,) the seat winning the current trick so far (likewise).
    win_card: Ints  #: (N,) the card winning it (likewise).
    broken: Flags  #: (N,) whether spades are broken.
    won: Ints  #: (N, seats) the tricks each seat has won so far.

    @classmethod
    def of(cls, states: Sequence[HandState]) -> PlayoutBatch:
        """The batch of ``states``, which must all be in the play phase; they are not
        changed."""
        for index, state in enumerate(states):
            if state.phase is not Phase.PLAYING:
                raise ValueError(f"state {index} is not in the play phase ({state.phase.name})")
        return cls(
            hands=np.array([state.hands for state in states], dtype=np.uint64),
            seat=np.array([state.current for state in states], dtype=np.intp),
            led=np.array([s.deck.suit[s.trick[0]] if s.trick else 0 for s in states], np.intp),
            win_seat=np.array([s.win_seat if s.trick else 0 for s in states], np.intp),
            win_card=np.array([s.win_card if s.trick else 0 for s in states], np.intp),
            broken=np.array([state.broken for state in states], dtype=np.bool_),
            won=np.array([state.tricks_won for state in states], dtype=np.intp),
        )


def random_playouts(
    batch: PlayoutBatch,
    rules: Rules,
    rng: np.random.Generator,
    *,
    first_cards: Ints | None = None,
    plays: npt.NDArray[np.int8] | None = None,
    common: int = 1,
) -> Ints:
    """The tricks each seat ends with, shape (N, seats), when every game of ``batch`` is
    played out with a uniformly random legal card at every turn under ``rules``.

    ``first_cards``, if given, is the card each game plays first (it must be legal), the
    rest being random. ``plays``, if given, an (N, cards left) array, receives each game's
    cards in the order played. ``common``, which must divide N, makes each run of that
    many consecutive games share their random numbers (every game still plays uniformly
    random cards): common random numbers, for comparing first cards in the same deal with
    less noise. ``batch`` is not changed.
    """
    count = len(batch.seat)
    if common < 1 or count % common:
        raise ValueError(f"common must be a positive divisor of the {count} games, not {common}")
    left = np.bitwise_count(batch.hands).sum(axis=1)
    if count and (left != left[0]).any():
        other = int(np.flatnonzero(left != left[0])[0])
        raise ValueError(
            "every game of a batch must have the same number of cards left: "
            f"game 0 has {left[0]}, game {other} has {left[other]}"
        )
    steps = int(left[0]) if count else 0
    if plays is not None and plays.shape != (count, steps):
        raise ValueError(f"plays must have shape {(count, steps)}, not {plays.shape}")
    tables = _tables(rules.joker_deck)
    lead_free, no_first = rules.spades_lead_any_time, rules.no_spades_first_trick
    seats = rules.players
    after = np.array(seats_after(seats), dtype=np.intp)
    # Row-major offsets of each game's seat 0, to address one seat a game in the flat arrays.
    rows = np.arange(0, seats * count, seats, dtype=np.intp)
    hands, won = batch.hands.flatten(), batch.won.flatten()
    broken = batch.broken.copy()
    seat, win_seat, win_card = batch.seat, batch.win_seat, batch.win_card
    led_mask = tables.suit_masks[batch.led]
    played = seats * rules.hand_size - steps
    for step in range(steps):
        trick_len = played % seats
        hand = hands[rows + seat]
        legal = legal_play_masks(
            hand, trick_len, led_mask, broken, played < seats, lead_free, no_first, tables.spades
        )
        if step == 0 and first_cards is not None:
            card = np.asarray(first_cards, dtype=np.intp)
            if card.shape != (count,):
                raise ValueError(f"first_cards must have shape {(count,)}, not {card.shape}")
            illegal = np.flatnonzero((legal >> card.astype(np.uint64) & _ONE) == 0)
            if len(illegal):
                game = int(illegal[0])
                raise ValueError(f"first card {card[game]} is not legal in game {game}")
        else:
            card = _random_cards(legal, rng, common)
        if plays is not None:
            plays[:, step] = card
        hands[rows + seat] = hand ^ (_ONE << card.astype(np.uint64))
        suit = tables.suit[card]
        broken |= suit == SPADES
        if trick_len == 0:
            led_mask, win_seat, win_card = tables.suit_masks[suit], seat, card
        else:
            # Deck.beats: a higher card of the winning card's suit, or a spade over a side suit.
            beats = np.where(
                suit == tables.suit[win_card],
                tables.power[card] > tables.power[win_card],
                suit == SPADES,
            )
            win_seat = np.where(beats, seat, win_seat)
            win_card = np.where(beats, card, win_card)
        played += 1
        if played % seats:
            seat = after[seat]
        else:
            won[rows + win_seat] += 1
            seat = win_seat
    return won.reshape(count, seats)


def random_playouts_of(
    states: Sequence[HandState],
    rng: np.random.Generator,
    *,
    first_cards: Ints | None = None,
    plays: npt.NDArray[np.int8] | None = None,
) -> Ints:
    """:func:`random_playouts` of ``states``: hands in the play phase, all under the same
    rules and with the same number of cards left; they are not changed."""
    if not states:
        return np.zeros((0, 0), dtype=np.intp)
    rules = states[0].rules
    for index, state in enumerate(states):
        if state.rules != rules:
            raise ValueError(f"state {index} is played under other rules than state 0")
    return random_playouts(
        PlayoutBatch.of(states), rules, rng, first_cards=first_cards, plays=plays
    )


def finish_bidding(state: HandState, rng: random.Random) -> HandState:
    """A copy of ``state`` with any remaining bidding and exchange done at random."""
    state = state.clone()
    while state.phase is Phase.BIDDING or state.phase is Phase.EXCHANGE:
        legal = state.legal_actions()
        state.apply_fast(legal[int(rng.random() * len(legal))])
    return state


#: Games played in lockstep by the bench: the playouts a second grow with the batch and
#: level off past a few thousand games.
BENCH_BATCH: Final = 4096


def bench_playouts(seconds: float, seed: int = 0, size: int = BENCH_BATCH) -> dict[str, Any]:
    """Random playouts of a full hand (all 52 cards, from the first lead) a second, in
    batches of ``size`` games dealt from 64 seeds."""
    rng = random.Random(seed)
    rules = Rules()
    deals = [
        finish_bidding(HandState.deal(rules, dealer=i % rules.players, seed=i), rng)
        for i in range(64)
    ]
    batch = PlayoutBatch.of([deals[i % len(deals)] for i in range(size)])
    generator = np.random.default_rng(seed)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        random_playouts(batch, rules, generator)
        done += size
        now = time.perf_counter()
        if now >= deadline:
            return {
                "fast_playouts_per_s": round(done / (now - start)),
                "playout_batch": size,
                "playout_machine": f"{platform.machine()} {os.cpu_count()} cores",
            }
