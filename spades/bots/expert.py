"""``expert``: Perfect-Information Monte Carlo search over the hidden cards.

For a card to play, the bot draws deals that agree with everything its seat knows
(:class:`~spades.bots.sampler.DealSampler`: own hand, played cards, shown voids, hand
sizes, the exchange, and the bids as soft evidence), plays each candidate card in every
deal, finishes the hand with a fast heuristic rollout, and scores the result with the
engine's scoring from its team's side: both teams' points, nils, sets, bags at their
expected cost, and the match ending. The card with the best average wins. With
``rollout="random"`` the rollouts play uniformly random legal cards instead, all the
deals and candidate cards of a decision at once on numpy
(:func:`spades.bots.playout.random_playouts`).

Bids come from the same rollouts: the bot plays the hand out in sampled deals once as a
normal bidder and once as a nil bidder and bids what scores best on average. A partner
still to bid is expected to bid its own cards in each deal (a quick trick count of its
sampled hand), so the team's contract follows the partner's strength.

While a nil on its own team is alive, the bot plays by the card-counting rules of
:mod:`spades.bots.standard` (shed the highest card that still loses, lead high and
overtake for a partner's nil). The rollouts see every hand, so in them a nil bidder always
finds a safe card and nobody attacks it; the search therefore undervalues nil safety, and
in duplicate play the rules keep more nils.

In cutthroat the search plays for its own seat: a hand is worth the bot's points minus
the mean of the other players' (:mod:`spades.bots.worth`), the rollouts play 17-card
hands of three-card tricks with three players, and nobody has a partner. At a table of
four a bag is charged what it adds to the bag penalties before the match ends
(:func:`~spades.bots.worth.match_bag_costs`), which early in a match is little more than
the point it scores. The random rollouts play the partnership game only.

The work per decision is a fixed number of simulated card plays (and sampled deals), so
the same seed and the same observation always give the same choice. ``time_budget``
converts seconds into that number with rates measured on the reference machine;
``max_seconds`` is an optional wall-clock cap (which gives up determinism when it fires):
the bots a person waits on have it (:func:`~spades.bots.base.live_bot`), the measured ones
do not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Final, NamedTuple

import numpy as np

from spades.bots.base import register, require_turn
from spades.bots.batched import draw, playout_rows, row_values
from spades.bots.knowledge import Knowledge, passes_for_nil, rules_deck, touching
from spades.bots.playout import Ints, random_playouts
from spades.bots.rollout import RolloutTable, heuristic_rollout, trick_start
from spades.bots.sampler import DealSampler, InconsistentObservation, estimate_tricks
from spades.bots.standard import blind_nil_choice, choose_play, nil_points, read_hand
from spades.bots.worth import hand_value, match_bag_costs, team_econ
from spades.engine.cards import (
    BLIND_NIL,
    EXCHANGE_BASE,
    LOOK,
    Action,
    Card,
    action_card,
    bid_of,
    card_action,
)
from spades.engine.deck import play_order
from spades.engine.observation import Observation
from spades.engine.state import SPADES, Deck, Phase, trick_winner

# Heuristic-rollout card plays a second on the reference machine (2-core x86_64,
# CPython 3.11), measured with benchmarks/expert_speed.py; it turns seconds into work.
PLAYS_PER_SECOND: Final = 300_000
# The random rollouts' costs on the same machine, which turn seconds into sampled deals:
# the deal sampler (benchmarks/expert_speed.py's positions, bid weights on) draws a deal
# in about 27 us in the play and 34 us in the bidding, so 33,000 deals a second; the
# batched playouts play about 18,000,000 cards a second (360,000 full hands of 52 cards,
# `python -m spades bench`, in batches of 4,096 games).
SAMPLES_PER_SECOND: Final = 33_000
RANDOM_PLAYS_PER_SECOND: Final = 18_000_000
# Games played in lockstep at once: past a few thousand the playouts a second level off,
# and between batches the wall-clock cap is checked.
_BATCH_ROWS: Final = 4096
DEFAULT_TIME_BUDGET: Final = 0.1


class BidRollouts(NamedTuple):
    """The rollouts behind a bid (:meth:`ExpertBot.bid_rollouts`): each sampled deal's
    weight, the tricks (own, partner's) in each deal as a numeric bidder
    (``outcomes[0]``) and as a nil bidder, and the partner's quick trick count in each
    deal (None in cutthroat)."""

    weights: list[float]
    outcomes: list[list[tuple[int, int]]]
    readings: list[float] | None


def _sampler(observation: Observation, *, bid_weight: bool) -> DealSampler:
    """A deal sampler; should the shown voids ever contradict the hand sizes, the voids
    give way rather than the bot."""
    try:
        return DealSampler(observation, bid_weight=bid_weight)
    except InconsistentObservation:
        return DealSampler(observation, bid_weight=bid_weight, use_voids=False)


def _public_key(observation: Observation) -> str:
    """The observation's content as text, to seed the search (stable across runs)."""
    return repr(
        (
            observation.seat,
            observation.hand,
            observation.bids,
            observation.blind,
            [t.cards for t in observation.tricks],
            observation.trick,
            observation.scores,
            observation.bags,
            observation.passed,
            observation.legal_actions,
        )
    )


def _partner_bids(
    observation: Observation,
    weights: Sequence[float],
    plain: Sequence[tuple[int, int]],
    readings: Sequence[float] | None,
) -> list[int]:
    """The partner's bid in each sampled deal: the bid it made, or, while it has yet to
    bid, its expected tricks (the weighted mean of ``plain``, the rollouts' (own,
    partner's) tricks) moved by how far its hand's reading in that deal is from the
    average reading; without readings, the expected tricks in every deal."""
    mate = observation.partner
    assert mate is not None, "a partner's bid, in the partnership game"
    made = observation.bids[mate]
    if made is not None:
        return [made] * len(weights)
    total = sum(weights)
    expected = sum(w * t for w, (_, t) in zip(weights, plain, strict=True)) / total
    if readings is None:
        return [max(1, round(expected))] * len(weights)
    mean_reading = sum(w * r for w, r in zip(weights, readings, strict=True)) / total
    return [max(1, round(expected + r - mean_reading)) for r in readings]


def _own_bid_worth(
    observation: Observation,
    weights: Sequence[float],
    outcomes: Sequence[Sequence[tuple[int, int]]],
) -> dict[Action, float]:
    """Cutthroat: the weighted average worth of each legal bid to the bidder alone, from
    its tricks as a numeric bidder (``outcomes[0]``). Nil is worth what nils with such a
    hand make at the table (:func:`~spades.bots.standard.nil_points`): in the clairvoyant
    rollouts a lone nil bidder always finds the card that ducks, and nils looked far
    safer than they are."""
    rules = observation.rules
    bags = observation.bags[observation.seat]
    costs = match_bag_costs(rules, bags, observation.scores)
    total_weight = sum(weights)
    values: dict[Action, float] = {}
    for action in observation.legal_actions:
        bid = bid_of(action)
        if bid is None:
            continue
        if bid == 0:
            values[action] = nil_points(read_hand(Knowledge(observation)), rules)
            continue
        total = 0.0
        for weight, (taken, _) in zip(weights, outcomes[0], strict=True):
            total += weight * team_econ(rules, (bid,), (False,), (taken,), bags, costs)[1]
        values[action] = total / total_weight
    return values


@register("expert", searches=True)
class ExpertBot:
    """Determinized (PIMC) search with heuristic rollouts, for bids and for play (the
    play of a live nil on its team by rule).

    Options: ``time_budget`` (seconds of work a decision, turned into a fixed amount of
    simulation so that choices stay reproducible), ``iterations`` (rollouts a card
    decision, overriding the budget), ``bid_samples`` (deals a bid), ``max_seconds`` (a
    wall-clock cap), ``rollout`` (``"heuristic"``, or ``"random"``: uniformly random
    batched playouts, far cheaper, so a budget buys many more deals), ``epsilon`` (the
    share of random moves in heuristic rollouts) and ``bid_inference`` (read the bids when
    drawing deals).
    """

    name = "expert"

    def __init__(
        self,
        *,
        seed: int | None = None,
        time_budget: float = DEFAULT_TIME_BUDGET,
        iterations: int | None = None,
        bid_samples: int | None = None,
        max_seconds: float | None = None,
        rollout: str = "heuristic",
        epsilon: float = 0.1,
        bid_inference: bool = True,
    ) -> None:
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {rollout!r}")
        if time_budget <= 0:
            raise ValueError(f"time_budget must be positive, not {time_budget}")
        self._seed = 0 if seed is None else seed
        self.time_budget = time_budget
        self.plays = int(time_budget * PLAYS_PER_SECOND)
        self.iterations = iterations
        self.heuristic = rollout == "heuristic"
        # A random bid playout serves both roles: the roles steer only the heuristic.
        default_bids = max(8, self.plays // 104) if self.heuristic else self._random_deals(52)
        self.bid_samples = bid_samples or default_bids
        self.max_seconds = max_seconds
        self.epsilon = epsilon
        self.bid_inference = bid_inference

    def _random_deals(self, plays_per_deal: int) -> int:
        """How many deals the budget buys when each is sampled and then played out at
        random for ``plays_per_deal`` cards in all."""
        cost = 1 / SAMPLES_PER_SECOND + plays_per_deal / RANDOM_PLAYS_PER_SECOND
        return max(4, int(self.time_budget / cost))

    # ------------------------------------------------------------------ entry
    def act(self, observation: Observation) -> Action:
        require_turn(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        rng = random.Random(f"expert:{self._seed}:{_public_key(observation)}")
        if observation.phase is Phase.EXCHANGE:
            return self._exchange(observation)
        if observation.phase is Phase.BIDDING:
            if observation.hand is None:
                return self._blind_choice(observation)
            return self._bid(observation, rng)
        knowledge = Knowledge(observation)
        if knowledge.nil_alive(observation.seat) or knowledge.nil_alive(knowledge.partner):
            # While a nil on the team is alive, the card-counting rules keep and cover
            # it better than the search, whose clairvoyant rollouts never fear for it.
            return choose_play(knowledge)
        scores = self.evaluate(observation, rng)
        return card_action(max(scores, key=lambda card: (scores[card], -card)))

    # ------------------------------------------------------------------- play
    def candidates(self, observation: Observation) -> list[Card]:
        """The legal cards worth searching: one card for each run of equivalent cards
        (no unseen card ranks between them), minus plays no good partner makes."""
        deck = rules_deck(observation.rules)
        unseen = observation.unseen_mask
        cards = [c for a in observation.legal_actions if (c := action_card(a)) is not None]
        legal = sorted(cards, key=lambda c: (deck.suit[c], deck.power[c]))
        moves: list[Card] = []
        for card in legal:
            if (
                moves
                and deck.suit[moves[-1]] == deck.suit[card]
                and touching(deck, moves[-1], card, unseen)
            ):
                continue
            moves.append(card)
        return self._partner_guards(observation, moves)

    def _partner_guards(self, observation: Observation, moves: list[Card]) -> list[Card]:
        if not observation.trick or not observation.rules.partnerships:
            return moves
        deck = rules_deck(observation.rules)
        win_seat, win_card = trick_winner(deck, observation.trick)
        mate = observation.partner
        if win_seat != mate:
            return moves
        beats = [
            c
            for c in moves
            if trick_winner(deck, [(mate, win_card), (observation.seat, c)])[0] != mate
        ]
        if observation.bids[mate] == 0 and observation.tricks_won[mate] == 0:
            # Take the trick off a partner who bid nil whenever we can.
            return beats or moves
        if self._sure_winner(observation, deck, win_card):
            # Never overtake or trump a partner's card that is sure to win.
            return [c for c in moves if c not in beats] or moves
        return moves

    @staticmethod
    def _sure_winner(observation: Observation, deck: Deck, card: Card) -> bool:
        """Whether ``card`` must win the trick whatever the players after us hold."""
        seats = observation.seats_in
        to_come = len(seats) - 1 - len(observation.trick)
        if to_come == 0:
            return True
        suit = deck.suit[card]
        unseen = observation.unseen_mask
        if any(
            deck.power[c] > deck.power[card] for c in deck.chunks(unseen & deck.suit_masks[suit])
        ):
            return False
        if suit == SPADES or not unseen & deck.suit_masks[SPADES]:
            return True
        voids = observation.known_voids()
        order = play_order(observation.seat, observation.rules.players, observation.out)
        return all(voids[s] >> SPADES & 1 for s in order[1 : 1 + to_come])

    def evaluate(
        self, observation: Observation, rng: random.Random | None = None
    ) -> dict[Card, float]:
        """The average worth (points difference for the observing team) of each candidate
        card over the sampled deals."""
        if rng is None:
            rng = random.Random(f"expert:{self._seed}:{_public_key(observation)}")
        moves = self.candidates(observation)
        if len(moves) == 1:
            return {moves[0]: 0.0}
        self._check_rollout(observation)
        sampler = _sampler(observation, bid_weight=self.bid_inference)
        cards_left = sum(observation.hand_sizes)
        if self.iterations is not None:
            deals = max(1, self.iterations // len(moves))
        elif self.heuristic:
            deals = max(4, self.plays // (len(moves) * cards_left))
        else:
            deals = self._random_deals(len(moves) * cards_left)
        deadline = self._deadline()
        if not self.heuristic:
            return self._evaluate_random(observation, moves, sampler, deals, deadline, rng)
        deck = rules_deck(observation.rules)
        table = RolloutTable(
            observation.rules, observation.bids, epsilon=self.epsilon, seats_in=observation.seats_in
        )
        led, win_seat, win_card = trick_start(deck, observation.trick, observation.seat)
        totals = dict.fromkeys(moves, 0.0)
        value = hand_value(observation)
        weights = 0.0
        for _ in range(deals):
            deal, weight = sampler.sample(rng)
            seed = rng.getrandbits(32)
            for card in moves:
                won = heuristic_rollout(
                    table,
                    list(deal),
                    observation.seat,
                    len(observation.trick),
                    led,
                    win_seat,
                    win_card,
                    observation.spades_broken,
                    not observation.tricks,
                    list(observation.tricks_won),
                    card,
                    random.Random(seed).random,
                )
                totals[card] += weight * value(won)
            weights += weight
            if deadline is not None and time.perf_counter() > deadline:
                break
        return {card: total / weights for card, total in totals.items()}

    def _deadline(self) -> float | None:
        return None if self.max_seconds is None else time.perf_counter() + self.max_seconds

    def _evaluate_random(
        self,
        observation: Observation,
        moves: list[Card],
        sampler: DealSampler,
        deals: int,
        deadline: float | None,
        rng: random.Random,
    ) -> dict[Card, float]:
        """:meth:`evaluate` with random playouts: each deal played out once with each
        candidate card first, many deals in one batch."""
        rules = observation.rules
        deck = rules_deck(rules)
        value = hand_value(observation)
        generator = np.random.default_rng(rng.getrandbits(64))
        firsts = np.array(moves, dtype=np.intp)
        per_batch = max(1, _BATCH_ROWS // len(moves))
        totals = np.zeros(len(moves), dtype=np.float64)
        weights = 0.0
        while deals > 0:
            drawn, weight = draw(sampler, rng, min(per_batch, deals), deadline)
            batch = playout_rows(
                drawn,
                len(moves),
                observation.seat,
                observation.trick,
                deck,
                observation.spades_broken,
                observation.tricks_won,
            )
            # Common random numbers: a deal's rows draw alike whatever card they start with.
            won = random_playouts(
                batch,
                rules,
                generator,
                first_cards=np.tile(firsts, len(drawn)),
                common=len(moves),
            )
            totals += np.array(weight) @ row_values(won, value).reshape(len(drawn), len(moves))
            weights += sum(weight)
            deals -= len(drawn)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return {card: total / weights for card, total in zip(moves, totals.tolist(), strict=True)}

    # ---------------------------------------------------------------- bidding
    def bid_values(
        self, observation: Observation, rng: random.Random | None = None
    ) -> dict[Action, float]:
        """The average worth to the team of each legal bid, from rollouts of sampled deals
        played once as a normal bidder and once as a nil bidder (a random rollout, which
        the roles do not steer, serves both)."""
        if rng is None:
            rng = random.Random(f"expert:{self._seed}:{_public_key(observation)}")
        self._check_rollout(observation)
        if not self.heuristic:
            summed, taken = self._random_bid_outcomes(observation, rng)
            return self._bid_worth(observation, summed, [taken, taken])
        rollouts = self.bid_rollouts(observation, rng)
        return self._bid_worth(observation, *rollouts)

    def bid_rollouts(self, observation: Observation, rng: random.Random) -> BidRollouts:
        """The heuristic rollouts behind a bid: ``bid_samples`` sampled deals, each played
        out from the first lead with this seat as a numeric bidder (any positive number:
        the contracts are not known yet) and, but in cutthroat (see _own_bid_worth), as a
        nil bidder; with each deal's weight and, in the partnership game, a quick trick
        count of the partner's hand in it."""
        rules = observation.rules
        me = observation.seat
        mate = observation.partner
        sampler = _sampler(observation, bid_weight=self.bid_inference)
        leader = observation.leader
        plain: list[int | None] = list(observation.bids)
        plain[me] = 1
        as_nil = plain[:]
        as_nil[me] = 0
        roles = (plain, as_nil) if rules.partnerships else (plain,)
        tables = [
            RolloutTable(rules, role, epsilon=self.epsilon, seats_in=observation.seats_in)
            for role in roles
        ]
        outcomes: list[list[tuple[int, int]]] = [[] for _ in roles]
        weights: list[float] = []
        deadline = self._deadline()
        readings: list[float] = []
        for _ in range(self.bid_samples):
            deal, weight = sampler.sample(rng)
            weights.append(weight)
            if mate is not None:
                readings.append(estimate_tricks(sampler.deck, deal[mate]))
            seed = rng.getrandbits(32)
            for table, out in zip(tables, outcomes, strict=True):
                won = heuristic_rollout(
                    table,
                    list(deal),
                    leader,
                    0,
                    0,
                    leader,
                    -1,
                    False,
                    True,
                    [0] * rules.players,
                    -1,
                    random.Random(seed).random,
                )
                out.append((won[me], 0 if mate is None else won[mate]))
            if deadline is not None and time.perf_counter() > deadline:
                break
        return BidRollouts(weights, outcomes, readings if mate is not None else None)

    @staticmethod
    def _bid_worth(
        observation: Observation,
        weights: Sequence[float],
        outcomes: Sequence[Sequence[tuple[int, int]]],
        readings: Sequence[float] | None = None,
    ) -> dict[Action, float]:
        """The weighted average worth of each legal bid, from the tricks (own, partner's)
        of each rollout as a normal bidder (``outcomes[0]``) and as a nil bidder.

        A partner still to bid will bid what its own cards are worth, so with
        ``readings`` (a quick trick count of the partner's hand in each deal) the
        partner's bid follows its hand deal by deal, shifted so that on average it bids
        the tricks it takes: a strong partner bids high exactly when it takes many.

        In cutthroat a bid is worth its own points alone (``outcomes`` then hold the
        tricks (own, 0)): the other players' points do not depend on it."""
        rules = observation.rules
        mate = observation.partner
        if mate is None:
            return _own_bid_worth(observation, weights, outcomes)
        mate_bids = _partner_bids(observation, weights, outcomes[0], readings)
        blind = (False, observation.blind[mate])
        bags = observation.bags[observation.team]
        values: dict[Action, float] = {}
        for action in observation.legal_actions:
            bid = bid_of(action)
            if bid is None:
                continue
            total = 0.0
            rows = zip(weights, outcomes[1 if bid == 0 else 0], mate_bids, strict=True)
            for weight, taken, mate_bid in rows:
                bids = (bid, min(mate_bid, rules.hand_size - bid))
                total += weight * team_econ(rules, bids, blind, taken, bags)[1]
            values[action] = total / sum(weights)
        return values

    def _random_bid_outcomes(
        self, observation: Observation, rng: random.Random
    ) -> tuple[list[float], list[tuple[int, int]]]:
        """The tricks (own, partner's) of random playouts of sampled deals from the first
        lead, each distinct outcome once with the summed weight of its deals."""
        rules = observation.rules
        sampler = _sampler(observation, bid_weight=self.bid_inference)
        leader = observation.leader
        me, mate = observation.seat, observation.partner
        assert mate is not None, "the random rollouts play the partnership game only"
        deck = rules_deck(rules)
        deadline = self._deadline()
        generator = np.random.default_rng(rng.getrandbits(64))
        keys: list[Ints] = []
        weights: list[float] = []
        left = self.bid_samples
        while left > 0:
            drawn, weight = draw(sampler, rng, min(_BATCH_ROWS, left), deadline)
            batch = playout_rows(drawn, 1, leader, (), deck, False, (0,) * rules.players)
            won = random_playouts(batch, rules, generator)
            keys.append(won[:, me] << 4 | won[:, mate])
            weights.extend(weight)
            left -= len(drawn)
            if deadline is not None and time.perf_counter() > deadline:
                break
        distinct, index = np.unique(np.concatenate(keys), return_inverse=True)
        summed = np.bincount(index, weights=weights).tolist()
        return summed, [(key >> 4, key & 15) for key in distinct.tolist()]

    def _bid(self, observation: Observation, rng: random.Random) -> Action:
        values = self.bid_values(observation, rng)
        return max(values, key=lambda action: (values[action], -action))

    def _check_rollout(self, observation: Observation) -> None:
        if not self.heuristic and not observation.rules.partnerships:
            raise ValueError("the random rollouts play the partnership game only")

    @staticmethod
    def _blind_choice(observation: Observation) -> Action:
        """Blind nil is a gamble worth taking only when far behind and running out of
        time: the opponents are close to winning (in cutthroat, as the standard bot
        judges it)."""
        if BLIND_NIL not in observation.legal_actions:
            return LOOK
        rules = observation.rules
        knowledge = Knowledge(observation)
        if knowledge.partner is None:
            return blind_nil_choice(knowledge)
        ours, theirs = observation.scores[knowledge.team], knowledge.best_rival_score()
        desperate = theirs - ours >= max(200, rules.blind_nil_deficit)
        closing = theirs >= rules.target_score * 0.7
        return BLIND_NIL if desperate and closing else LOOK

    @staticmethod
    def _exchange(observation: Observation) -> Action:
        """A nil bidder passes its highest cards; the partner passes its lowest."""
        deck = rules_deck(observation.rules)
        cards = [a - EXCHANGE_BASE for a in observation.legal_actions]
        order = sorted(cards, key=lambda c: (deck.power[c], deck.suit[c] == SPADES))
        pick = order[-1] if passes_for_nil(observation) else order[0]
        return EXCHANGE_BASE + pick
