"""How faithful the expert's heuristic rollouts are to the table: the judge of every deal
the expert samples is a rollout, and a biased judge biases every choice.

Two reports, each on the hands of ``python -m spades arena``'s duplicate (the first hand
of the match seeded ``seed + i`` from 0-0, each seat's bot seeded by the deal and the
seat):

``bids``: the expert plays against standard with each team's cards in turn; at each of
its bids it also draws its bidding rollouts once more (:meth:`ExpertBot.bid_rollouts`,
the same number of deals) and they are set beside what the hand then brought. For the
numeric bidders whose partner also bid a number, the rollouts' mean tricks for the
bidder and for the team against the tricks taken, the rollouts' spread against the
spread of what was taken about their mean, and where the tricks taken fall in the
rollouts' own distribution (ten bins of equal chance: a faithful judge fills them
evenly); for the nil bidders, the share of rollouts in which the nil held against the
share of nils held.

``plays``: four copies of one bot (standard by default) play the hands; at each card
with a choice, the rollout policy (:meth:`RolloutTable.choose`, shown every hand as the
rollouts are) is asked for its card, and the report gives how often it picks the card
played, or one equal to it (no card held by another seat ranks between the two), by
the card's place in the trick.

    python benchmarks/rollout_fidelity.py bids --deals 150
    python benchmarks/rollout_fidelity.py plays --deals 300 --bot standard
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter
from typing import Any

from spades.bots import bot_seed, make_bot
from spades.bots.drive import drive
from spades.bots.expert import ExpertBot
from spades.bots.knowledge import touching
from spades.bots.rollout import RolloutTable, trick_start
from spades.engine.cards import Card, Mask, Seat, action_card, team_of
from spades.engine.match import Match
from spades.engine.observation import Observation, Phase
from spades.engine.rules import Rules
from spades.engine.state import Deck, HandState, legal_play_mask
from spades.sim.arena import play_all

_BINS = 10


class _Recorder:
    """An expert that notes, at each of its bids, what its bidding rollouts foresee."""

    name = "expert"

    def __init__(self, seed: int, notes: list[dict[str, Any]]) -> None:
        self.bot = ExpertBot(seed=seed)
        self.notes = notes

    def act(self, observation: Observation) -> int:
        action = self.bot.act(observation)
        if observation.phase is Phase.BIDDING and observation.hand is not None:
            rollouts = self.bot.bid_rollouts(observation, random.Random(len(self.notes)))
            self.notes.append(
                {
                    "seat": observation.seat,
                    "weights": rollouts.weights,
                    "numeric": rollouts.outcomes[0],
                    "nil": rollouts.outcomes[1],
                }
            )
        return action


def _first_hand(seed: int, bots: dict[Seat, Any]) -> HandState:
    """The first hand of the match seeded ``seed``, played by ``bots``, once finished."""
    match = Match(Rules(), seed=seed)
    drive(match, bots, until=lambda: len(match.finished) >= 1)
    return match.finished[0]


def _bid_notes(seed: int) -> list[dict[str, Any]]:
    """Both plays of one duplicate deal, the expert on each team in turn: its bids'
    rollouts and what the hand then brought."""
    found: list[dict[str, Any]] = []
    for expert_team in (0, 1):
        notes: list[dict[str, Any]] = []
        bots = {
            seat: _Recorder(bot_seed(seed, seat), notes)
            if team_of(seat) == expert_team
            else make_bot("standard", seed=bot_seed(seed, seat))
            for seat in range(4)
        }
        hand = _first_hand(seed, bots)
        for note in notes:
            seat = note["seat"]
            note.update(
                bid=hand.bids[seat],
                partner_bid=hand.bids[seat ^ 2],
                took=hand.tricks_won[seat],
                partner_took=hand.tricks_won[seat ^ 2],
            )
        found.extend(notes)
    return found


def _numeric_report(notes: list[dict[str, Any]]) -> list[str]:
    own_foreseen, team_foreseen, spreads = [], [], []
    bins: Counter[int] = Counter()
    for note in notes:
        total = sum(note["weights"])
        chances = [0.0] * 14
        own = 0.0
        for weight, (mine, partner) in zip(note["weights"], note["numeric"], strict=True):
            chances[mine + partner] += weight / total
            own += weight * mine / total
        mean = sum(tricks * chance for tricks, chance in enumerate(chances))
        spread = sum((tricks - mean) ** 2 * chance for tricks, chance in enumerate(chances))
        taken = note["took"] + note["partner_took"]
        own_foreseen.append(own - note["took"])
        team_foreseen.append(mean - taken)
        spreads.append(math.sqrt(spread))
        # Where the tricks taken fall in the foreseen distribution (half the chance of
        # the very number taken counted below it).
        place = sum(chances[:taken]) + chances[taken] / 2
        bins[min(_BINS - 1, int(place * _BINS))] += 1
    return [
        f"{len(notes)} numeric bids with a numeric partner",
        f"  the bidder's tricks, foreseen minus taken: {statistics.fmean(own_foreseen):+.2f}",
        f"  the team's tricks, foreseen minus taken: {statistics.fmean(team_foreseen):+.2f}",
        f"  spread of the team's tricks: foreseen {statistics.fmean(spreads):.2f}, "
        f"taken about the foreseen mean {statistics.pstdev(team_foreseen):.2f}",
        "  tricks taken in the foreseen distribution's tenths (low to high): "
        + " ".join(str(bins[i]) for i in range(_BINS)),
    ]


def _nil_report(notes: list[dict[str, Any]]) -> list[str]:
    foreseen = [
        sum(w for w, (mine, _) in zip(n["weights"], n["nil"], strict=True) if mine == 0)
        / sum(n["weights"])
        for n in notes
    ]
    held = sum(1 for n in notes if n["took"] == 0)
    return [
        f"{len(notes)} nil bids: held in {statistics.fmean(foreseen):.0%} of their rollouts, "
        f"at the table {held / len(notes):.0%}"
    ]


def bids_report(deals: int, seed: int, workers: int) -> str:
    tasks = [seed + i for i in range(deals)]
    notes = [note for found in play_all(_bid_notes, tasks, workers, "deals") for note in found]
    numeric = [n for n in notes if n["bid"] and n["partner_bid"]]
    nils = [n for n in notes if n["bid"] == 0]
    lines = [f"bids: the expert against standard, {deals} deals from seed {seed}"]
    if numeric:
        lines += _numeric_report(numeric)
    if nils:
        lines += _nil_report(nils)
    return "\n".join(lines)


def policy_card(state: HandState, table: RolloutTable) -> tuple[Card, Mask]:
    """The rollout policy's card for the seat to play, shown every hand, and the legal
    cards it chose among."""
    deck = state.deck
    seat = state.current_player
    assert seat is not None
    observation = state.observation(seat)
    table.start(observation.tricks_won)
    trick = observation.trick
    led, win_seat, win_card = trick_start(deck, trick, seat)
    legal = legal_play_mask(
        state.hands[seat],
        len(trick),
        table.masks[led] if trick else 0,
        observation.spades_broken,
        not observation.tricks,
        table.lead_free,
        table.no_first,
        table.spades,
    )
    hands = list(state.hands)
    return table.choose(hands, seat, legal, len(trick), led, win_seat, win_card), legal


def equal_cards(deck: Deck, a: Card, b: Card, others: Mask) -> bool:
    """Whether ``a`` and ``b`` are the same card to the seat that holds them (``others``:
    the cards the other seats hold)."""
    return a == b or (deck.suit[a] == deck.suit[b] and touching(deck, a, b, others))


def _play_counts(task: tuple[int, str]) -> Counter[tuple[str, int]]:
    """Agreement counts for one deal played by four copies of ``bot``."""
    seed, bot = task
    rules = Rules()
    match = Match(rules, seed=seed)
    state = match.hand
    bots = [make_bot(bot, seed=bot_seed(seed, seat)) for seat in range(4)]
    counts: Counter[tuple[str, int]] = Counter()
    table: RolloutTable | None = None
    while not state.is_over:
        seat: Seat | None = state.current_player
        assert seat is not None
        observation = state.observation(seat)
        action = bots[seat].act(observation)
        if observation.phase is Phase.PLAYING:
            if table is None:
                table = RolloutTable(rules, observation.bids, epsilon=0.0)
            card, legal = policy_card(state, table)
            if legal & (legal - 1):
                place = len(observation.trick)
                played = action_card(action)
                assert played is not None
                others = state.deck.cards & ~state.hands[seat] & ~state.played
                counts["choices", place] += 1
                counts["agreed", place] += equal_cards(state.deck, card, played, others)
        state.apply(action)
    return counts


def plays_report(deals: int, seed: int, workers: int, bot: str) -> str:
    tasks = [(seed + i, bot) for i in range(deals)]
    counts: Counter[tuple[str, int]] = Counter()
    for found in play_all(_play_counts, tasks, workers, "deals"):
        counts.update(found)
    lines = [f"plays: four {bot} bots, {deals} deals from seed {seed}"]
    names = ["leads", "second hand", "third hand", "fourth hand"]
    for place, name in enumerate(names):
        choices = counts["choices", place]
        if choices:
            agreed = counts["agreed", place] / choices
            lines.append(f"  {name}: the rollout policy plays that card {agreed:.0%} of {choices}")
    total = sum(counts["choices", p] for p in range(4))
    agreed_all = sum(counts["agreed", p] for p in range(4))
    lines.append(f"  in all: {agreed_all / max(1, total):.0%} of {total}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", choices=["bids", "plays"])
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bot", default="standard", help="the bot whose plays are read")
    args = parser.parse_args()
    if args.report == "bids":
        print(bids_report(args.deals, args.seed, args.workers))
    else:
        print(plays_report(args.deals, args.seed, args.workers, args.bot))


if __name__ == "__main__":
    main()
