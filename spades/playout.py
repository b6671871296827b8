"""The bots' fast path: play the rest of a hand at random on bitmasks, without building
any objects, and count the tricks.

Which cards may be played comes from the engine's own rule, :func:`spades.state.legal_play_mask`.
"""

from __future__ import annotations

import os
import platform
import random
import time
from typing import Any

from spades.rules import Rules
from spades.state import SPADES, HandState, Phase, legal_play_mask


def _nth_bit(mask: int, n: int) -> int:
    """The card id of the ``n``-th lowest set bit of ``mask``."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def finish_bidding(state: HandState, rng: random.Random) -> HandState:
    """A copy of ``state`` with any remaining bidding and exchange done at random."""
    state = state.clone()
    while state.phase is Phase.BIDDING or state.phase is Phase.EXCHANGE:
        legal = state.legal_actions()
        state.apply_fast(legal[int(rng.random() * len(legal))])
    return state


def random_playout(state: HandState, rng: random.Random) -> list[int]:
    """The tricks each seat ends with when the rest of the hand is played at random.

    ``state`` must be in the play (use :func:`finish_bidding` first); it is not changed.
    """
    won = state.tricks_won[:]
    if state.phase is not Phase.PLAYING:
        return won
    rules = state.rules
    deck = state.deck
    suits, power, masks = deck.suit, deck.power, deck.suit_masks
    spades = masks[SPADES]
    hands = state.hands[:]
    lead_free = rules.spades_lead_any_time
    no_first = rules.no_spades_first_trick
    first = not state.tricks
    broken = state.broken
    seat = state.current
    assert seat is not None
    trick = len(state.trick)
    led = suits[state.trick[0]] if trick else -1
    win_seat, win_card = state.win_seat, state.win_card
    left = 13 - len(state.tricks)
    random_ = rng.random
    while True:
        hand = hands[seat]
        legal = legal_play_mask(
            hand, trick, masks[led] if trick else 0, broken, first, lead_free, no_first, spades
        )
        card = _nth_bit(legal, int(random_() * legal.bit_count()))
        hands[seat] = hand ^ (1 << card)
        suit = suits[card]
        if suit == SPADES:
            broken = True
        if not trick:
            led, win_seat, win_card = suit, seat, card
        elif suit == suits[win_card]:
            if power[card] > power[win_card]:
                win_seat, win_card = seat, card
        elif suit == SPADES:
            win_seat, win_card = seat, card
        trick += 1
        if trick < 4:
            seat = (seat + 1) & 3
            continue
        won[win_seat] += 1
        left -= 1
        if not left:
            return won
        trick = 0
        first = False
        seat = win_seat


def bench_playouts(seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random playouts of a full hand (all 52 cards, from the first lead) a second."""
    rng = random.Random(seed)
    rules = Rules()
    starts = [finish_bidding(HandState.deal(rules, dealer=i & 3, seed=i), rng) for i in range(64)]
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for state in starts:
            random_playout(state, rng)
        done += len(starts)
        now = time.perf_counter()
        if now >= deadline:
            return {
                "fast_playouts_per_s": round(done / (now - start)),
                "playout_machine": f"{platform.machine()} {os.cpu_count()} cores",
            }
