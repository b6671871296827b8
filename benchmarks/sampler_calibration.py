"""How well the expert's deal sampler reads the bids: real deals against sampled ones.

Seeded deals are bid and played by four bots of one kind (``--bidders``, the standard bot
by default: the expert's usual opponent). For every bid, the real hand behind it gives
the honours it held (aces and kings), whether it held the A♠, its spades, and the tricks
it went on to take. Then, from South's seat once the bidding is over, the expert's
sampler (:class:`spades.bots.sampler.DealSampler`) draws ``--samples`` deals that agree
with what South knows; each draw gives the same figures for the hands it deals the other
three seats, with the same bids, and the same bots play it out for the tricks. The
sampler is calibrated where, bid by bid, its weighted figures match the real ones.

Run with the bids read (the expert's setting) and without, on the same deals:

    python benchmarks/sampler_calibration.py --deals 400 --samples 16 --seed 30000
"""

from __future__ import annotations

import argparse
import platform
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from spades.bots import bot_seed, make_bot
from spades.bots.base import Bot
from spades.bots.drive import drive
from spades.bots.sampler import Deal, DealSampler
from spades.engine.cards import Mask, Seat, bid_action, hand_cards, parse_card
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase, deck_for
from spades.sim.progress import Progress

RULES = Rules()
OBSERVER: Seat = 2
HONOURS: Mask = sum(1 << parse_card(rank + suit) for rank in "AK" for suit in "CDHS")
ACE_OF_SPADES: Mask = 1 << parse_card("AS")
SPADE_MASK: Mask = deck_for(None).suit_masks[SPADES]
#: Bids of this many tricks or more are counted together.
TOP_BID = 6
FIGURES = ("honours", "A♠ held", "spades", "tricks")


@dataclass
class Tally:
    """Weighted sums of the figures for one bid."""

    weight: float = 0.0
    sums: list[float] = field(default_factory=lambda: [0.0] * len(FIGURES))

    def add(self, figures: Sequence[float], weight: float) -> None:
        self.weight += weight
        for index, value in enumerate(figures):
            self.sums[index] += value * weight

    def mean(self, index: int) -> float:
        return self.sums[index] / self.weight if self.weight else float("nan")


def _figures(hand: Mask, tricks: int) -> tuple[float, ...]:
    return (
        float((hand & HONOURS).bit_count()),
        float(bool(hand & ACE_OF_SPADES)),
        float((hand & SPADE_MASK).bit_count()),
        float(tricks),
    )


def _bid_key(bid: int) -> int:
    return min(bid, TOP_BID)


def _bots(kind: str, deal_seed: int) -> dict[Seat, Bot]:
    return {seat: make_bot(kind, seed=bot_seed(deal_seed, seat)) for seat in range(RULES.players)}


def _played(hands: Deal, dealer: Seat, bids: Sequence[int], bots: dict[Seat, Bot]) -> HandState:
    """The deal of ``hands`` bid as ``bids`` (in seat order) and played out by ``bots``."""
    state = HandState.from_hands(RULES, [hand_cards(hand) for hand in hands], dealer=dealer)
    while state.phase is Phase.BIDDING:
        seat = state.current_player
        assert seat is not None
        state.apply(bid_action(bids[seat]))
    drive(state, bots)
    return state


Tallies = dict[bool, dict[str, dict[int, Tally]]]


def _tally_deal(tallies: Tallies, index: int, seed: int, samples: int, bidders: str) -> None:
    """Bid and play deal ``seed + index``, and sample it from South's seat after the bids."""
    deal_seed = seed + index
    bots = _bots(bidders, deal_seed)
    state = HandState.deal(RULES, dealer=index % RULES.players, seed=deal_seed)
    drive(state, bots, until=lambda: state.phase is not Phase.BIDDING)
    if state.phase is not Phase.PLAYING or any(state.blind):
        return  # an exchange or a blind nil: the bids are not read then
    observation = state.observation(OBSERVER)
    bids = [bid or 0 for bid in state.bids]
    drive(state, bots)
    others = [seat for seat in range(RULES.players) if seat != OBSERVER]
    for read in (True, False):
        for seat in others:
            real = _figures(state.initial_hands[seat], state.tricks_won[seat])
            tallies[read]["real"][_bid_key(bids[seat])].add(real, 1.0)
        sampler = DealSampler(observation, bid_weight=read)
        rng = random.Random(deal_seed)
        draws: list[tuple[Deal, float]] = [sampler.sample(rng) for _ in range(samples)]
        total = sum(weight for _, weight in draws)
        for hands, weight in draws:
            replay = _played(hands, state.dealer, bids, _bots(bidders, deal_seed))
            for seat in others:
                figures = _figures(hands[seat], replay.tricks_won[seat])
                tallies[read]["sampled"][_bid_key(bids[seat])].add(figures, weight / total)


def run(deals: int, samples: int, seed: int, bidders: str) -> Tallies:
    """The tallies, with the bids read and without: real and sampled, by bid."""
    tallies: Tallies = {
        read: {"real": defaultdict(Tally), "sampled": defaultdict(Tally)} for read in (True, False)
    }
    with Progress(deals, "deals") as bar:
        for index in range(deals):
            _tally_deal(tallies, index, seed, samples, bidders)
            bar.advance()
    return tallies


def report(tallies: Tallies) -> str:
    """A table a reading of the bids: for each bid, the real mean of each figure and the
    sampler's weighted mean beside it."""
    lines = []
    for read in (True, False):
        real, sampled = tallies[read]["real"], tallies[read]["sampled"]
        title = "bids read (the expert's setting)" if read else "bids not read"
        lines += [
            "",
            f"Sampler with {title}: real / sampled",
            "",
            "| bid | hands | " + " | ".join(FIGURES) + " |",
            "|---|---|" + "---|" * len(FIGURES),
        ]
        for bid in sorted(real):
            name = "nil" if bid == 0 else f"{bid}+" if bid == TOP_BID else str(bid)
            cells = [
                f"{real[bid].mean(i):.2f} / {sampled[bid].mean(i):.2f}" for i in range(len(FIGURES))
            ]
            lines.append(f"| {name} | {real[bid].weight:.0f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--samples", type=int, default=16, help="sampled deals a real one")
    parser.add_argument("--seed", type=int, default=30_000)
    parser.add_argument("--bidders", default="standard", help="the bots that bid and play")
    args = parser.parse_args()
    tallies = run(args.deals, args.samples, args.seed, args.bidders)
    print(f"{platform.machine()}, Python {platform.python_version()}; {args.deals} deals")
    print(report(tallies))


if __name__ == "__main__":
    main()
