"""``standard``: a strong heuristic player that counts cards.

Bidding reads the hand with :func:`~spades.bots.knowledge.evaluate_hand` (high cards, spade
length, short suits for ruffing) and weighs nil by how well the hand can duck, then leans
on the partner's bid, the score and the bags on the count. Blind nil is a comeback try
when the team trails far.

In the play every decision starts from :class:`~spades.bots.knowledge.Knowledge`: the cards
gone, the voids shown and the chance that a card holds. In order of priority the bot
keeps its own nil, covers a partner's nil, busts an opponent's nil, and then either goes
for tricks (its contract, or a set of opponents who overbid) or ducks to keep bags off the
count. It never trumps or overtakes a partner's card that is sure to win.

The heuristics are deterministic; the seed is accepted for the common ``make_bot``
signature.
"""

from __future__ import annotations

import math
from typing import Final

from spades.bots.base import register, require_turn
from spades.bots.knowledge import (
    HandValue,
    Knowledge,
    closest_bid,
    evaluate_hand,
    exchange_pass,
)
from spades.engine.cards import BLIND_NIL, LOOK, NIL, Action, Card, Seat, card_action
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.scoring import nil_worth, trick_worth
from spades.engine.state import SPADES, Phase

# Added to the hand's trick estimate before the bid is rounded: a set costs more than
# the bags of an underbid (tuned in duplicate matches of the bot against itself).
BID_BIAS = -0.3
# The nil danger (see evaluate_hand) accepted with a neutral partner and score.
NIL_RISK = 0.65
# A partner's card that holds at least this often is left alone.
PARTNER_HOLDS = 0.7
# A card must hold at least this often to be played for the trick.
GOOD_WIN = 0.75
# Cutthroat hands are read on the partnership game's scale: (intercept, slope) that turn
# the 13-card reading of evaluate_hand into the tricks a seat takes at this table, by
# the number of players. Fitted to 600 hands of standard bots at each table (tricks taken
# against the reading, by least squares) and mapped onto the same fit in the partnership
# game (0.60 + 0.98 x reading): three players take 0.98 + 1.24 x, four 0.38 + 1.04 x.
_CUTTHROAT_READING: Final = {3: (0.39, 1.27), 4: (-0.22, 1.06)}
# Cutthroat nil, with no partner to cover and every other player to bust it: the chance
# of making it is a logistic in the nil danger, (intercept, slope) by the number of
# players, fitted to 1,500 nils forced on standard bots at each table.
_CUTTHROAT_NIL: Final = {3: (0.3, -2.3), 4: (0.9, -2.4)}
# Three players bid this much lower again: 17-card hands spread wider. Tuned in duplicate
# (300 three-handed deals, seed 6000): a total bias of -0.9 beat -0.3 by +5.2 points a
# hand (95% CI +3.0 to +7.4), and +1.8 with bags at their cost; -1.2 did no better.
_THREE_HANDED_BIAS: Final = -0.6
# The tricks a seat has in the partnership game, the scale of a reading.
_TRICKS_A_SEAT: Final = Rules().hand_size / Rules().players


@register("standard")
class StandardBot:
    """Card counting, nil play on both sides, bag control and setting."""

    name = "standard"

    def __init__(
        self, *, seed: int | None = None, bid_bias: float = BID_BIAS, nil_risk: float = NIL_RISK
    ) -> None:
        """``bid_bias`` is added to the hand's trick estimate before rounding the bid, and
        ``nil_risk`` is the nil danger accepted with a neutral partner and score."""
        self.seed = seed
        self.bid_bias = bid_bias
        self.nil_risk = nil_risk

    def act(self, observation: Observation) -> Action:
        """Choose a legal action for the observing seat."""
        require_turn(observation)
        legal = observation.legal_actions
        if len(legal) == 1:
            return legal[0]
        if observation.phase is Phase.BIDDING and observation.hand is None:
            return blind_nil_choice(Knowledge(observation))
        k = Knowledge(observation)
        if observation.phase is Phase.BIDDING:
            return choose_bid(k, bid_bias=self.bid_bias, nil_risk=self.nil_risk)
        if observation.phase is Phase.EXCHANGE:
            return exchange_pass(k)
        return choose_play(k)


# ----------------------------------------------------------------- bidding
def blind_nil_choice(k: Knowledge) -> Action:
    """Blind nil when it is open and the team trails far enough to need the gamble; never
    in cutthroat, where alone against every other player blind nils almost never hold (in
    60 self-play matches none of 81 held with 17 cards, and 12 of 170 with 13)."""
    obs = k.obs
    if BLIND_NIL not in obs.legal_actions or k.partner_bid() == 0 or k.partner is None:
        return LOOK
    deficit = k.deficit()
    theirs = k.best_rival_score()
    target = obs.rules.target_score
    # Blind nil fails more often than not, so it is only worth it when a normal hand
    # cannot save the match.
    far_behind = deficit >= 400 and theirs >= target // 2
    about_to_lose = deficit >= max(150, obs.rules.blind_nil_deficit) and theirs >= target - 60
    return BLIND_NIL if far_behind or about_to_lose else LOOK


def nil_threshold(k: Knowledge, base: float) -> float:
    """The nil danger this seat accepts, given the partner's bid and the score."""
    threshold = base
    partner_bid = k.partner_bid()
    if partner_bid is not None:
        if partner_bid >= 4:
            threshold += 0.15
        elif partner_bid <= 2:
            threshold -= 0.2
    deficit = k.deficit()
    if deficit >= 150:
        threshold += 0.15
    elif deficit <= -150:
        threshold -= 0.1
    return threshold


def wants_nil(
    k: Knowledge, value: HandValue, nil_risk: float, *, bid_bias: float = BID_BIAS
) -> bool:
    """Whether the hand should bid nil. In cutthroat, with no partner to cover it, only
    when it is worth more than the numeric bid."""
    obs = k.obs
    if NIL not in obs.legal_actions or k.partner_bid() == 0:
        return False
    if obs.rules.whiz:
        numbers = [a - NIL for a in obs.legal_actions if a > NIL]
        return not numbers or nil_points(value, obs.rules) > bid_points(
            value, numbers[0], obs.rules
        )
    if k.partner is None:
        wanted = wanted_tricks(k, value, bid_bias)
        return nil_points(value, obs.rules) > bid_points(value, wanted, obs.rules)
    if value.tricks > 3.5:
        return False
    threshold = nil_threshold(k, nil_risk)
    # Suicide: one of the pair must bid nil. The first to bid takes it on when its hand
    # is at least as fit for nil as a typical hand (median danger about 2), so the
    # partner's hand is likelier to be the worse nil.
    if obs.rules.suicide and k.partner_bid() is None:
        threshold = max(threshold + 0.6, 1.8)
    return value.nil_danger <= threshold


def nil_success(value: HandValue, rules: Rules | None = None) -> float:
    """The rough chance that a nil with this hand is made (fitted to self-play) in the
    partnership game, or in the cutthroat game of ``rules``."""
    if rules is None or rules.partnerships:
        return min(0.95, max(0.05, 0.95 - 0.4 * value.nil_danger))
    intercept, slope = _CUTTHROAT_NIL[rules.players]
    return 1 / (1 + math.exp(-(intercept + slope * value.nil_danger)))


def nil_points(value: HandValue, rules: Rules | None = None) -> float:
    """Expected points of bidding nil with this hand (see :func:`nil_success`), at what a
    nil is worth under the game's rules."""
    worth = nil_worth(rules if rules is not None else Rules())
    return worth * (2 * nil_success(value, rules) - 1)


def bid_points(value: HandValue, bid: int, rules: Rules | None = None) -> float:
    """Expected points of a forced numeric bid: made more often the further the hand's
    trick estimate is above it, at what a trick bid is worth under the game's rules."""
    made = 1 / (1 + math.exp(-1.5 * (value.tricks - bid + 0.3)))
    return trick_worth(rules if rules is not None else Rules()) * bid * (2 * made - 1)


def wanted_tricks(k: Knowledge, value: HandValue, bid_bias: float) -> int:
    """The numeric bid the hand is worth, leaning on the bags, the score and the
    partner's bid."""
    obs = k.obs
    rules = obs.rules
    bias = bid_bias
    if k.bags_room(k.team) <= 3:
        # Overtricks would cost the bag penalty: bid them instead.
        bias += 0.3
    if k.partner is None and rules.players == 3:
        bias += _THREE_HANDED_BIAS
    deficit = k.deficit()
    if deficit >= 150:
        bias += 0.2
    ours = obs.scores[k.team]
    if deficit < 0 and ours >= rules.target_score - 100:
        # Ahead and close to the target: a safe contract wins the match.
        bias -= 0.2
    # The table's bids so far (about three tricks for each seat still to bid in the
    # 13-trick hand) tell how scarce tricks will be: shade down when the table has
    # claimed more than the tricks there are, up when many will be left over as bags.
    others = [b for s, b in enumerate(obs.bids) if s != k.seat and b is not None]
    if others:
        tricks = rules.hand_size
        players = len(k.seats_in)
        per_seat = 3.0 * (tricks / players) / _TRICKS_A_SEAT
        table = sum(others) + value.tricks + per_seat * (players - 1 - len(others))
        bias += max(-0.6, min(0.6, 0.2 * (tricks - 1.5 - table)))
    wanted = max(1, int(value.tricks + 0.5 + bias))
    partner_bid = k.partner_bid()
    if (
        rules.ten_for_two_hundred
        and partner_bid
        and partner_bid + wanted == 9
        and value.tricks + bias >= wanted + 0.2
    ):
        wanted += 1
    return wanted


def read_hand(k: Knowledge) -> HandValue:
    """The seat's hand read by :func:`~spades.bots.knowledge.evaluate_hand`, its tricks
    put on the scale of this table in cutthroat (17 cards and two opponents, or four
    players alone)."""
    assert k.obs.hand is not None
    value = evaluate_hand(k.obs.hand, k.deck)
    if k.partner is not None:
        return value
    intercept, slope = _CUTTHROAT_READING[k.obs.rules.players]
    return value._replace(tricks=max(0.0, intercept + slope * value.tricks))


def choose_bid(k: Knowledge, *, bid_bias: float = BID_BIAS, nil_risk: float = NIL_RISK) -> Action:
    """The bid for a seat that has looked at its cards."""
    value = read_hand(k)
    if wants_nil(k, value, nil_risk, bid_bias=bid_bias):
        return NIL
    return closest_bid(k.obs.legal_actions, wanted_tricks(k, value, bid_bias))


# -------------------------------------------------------------------- play
def choose_play(k: Knowledge) -> Action:
    """The action that plays the chosen card (see :func:`choose_card`)."""
    return card_action(choose_card(k))


def choose_card(k: Knowledge) -> Card:
    """The card to play."""
    legal = sorted(k.legal_cards(), key=k.deck.power.__getitem__)
    if k.nil_alive(k.seat):
        return nil_play(k, legal)
    if k.nil_alive(k.partner) and not k.is_nil(k.seat):
        card = cover_play(k, legal)
        if card is not None:
            return card
    card = bust_play(k, legal)
    if card is not None:
        return card
    want = wants_tricks(k)
    if k.obs.trick:
        return follow_for_tricks(k, legal) if want else follow_ducking(k, legal)
    return lead_for_tricks(k, legal) if want else lead_ducking(k, legal)


def likely_winners(k: Knowledge) -> int:
    """This seat's cards that should take a trick later: the top cards of their suits
    and the spades that at most one unseen spade outranks."""
    count = 0
    for card in k.my_cards():
        higher = len(k.higher_unseen(card))
        if higher == 0 or (k.suit(card) == SPADES and higher == 1):
            count += 1
    return count


def wants_tricks(k: Knowledge) -> bool:
    """Whether to play for tricks now: to make the contract, or to set the opponents
    when that is within reach and the bags allow it."""
    mine_count = not k.is_nil(k.seat) or k.obs.rules.nil_tricks_count_toward_bid
    if mine_count and k.team_bid(k.team) > 0 and k.need(k.team) > 0:
        return True
    mate = k.partner
    if mate is None:
        return set_target(k) is not None
    (them,) = k.rivals
    their_need = k.need(them)
    if k.team_bid(them) == 0 or their_need <= 0 or their_need > k.tricks_left:
        return False
    to_set = k.tricks_left - their_need + 1
    partner_bid = k.obs.bids[mate] or 0
    partner_left = max(0, partner_bid - k.obs.tricks_won[mate])
    reach = likely_winners(k) + max(1, partner_left)
    return to_set <= reach and (to_set < k.bags_room(k.team) or k.team_bid(them) >= 5)


def near_target(k: Knowledge, seat: Seat) -> bool:
    """Whether making its contract would bring cutthroat player ``seat`` to the target."""
    return k.obs.scores[seat] + 10 * (k.obs.bids[seat] or 0) >= k.obs.rules.target_score


def set_target(k: Knowledge) -> Seat | None:
    """Cutthroat: the opponent worth setting now, or None.

    Tricks the bidder does not take go to the other players, and the other opponents
    take their own missing tricks anyway, so a set is within reach when this seat's
    likely winners and their needs cover the tricks the bidder must lose. A bidder
    about to reach the target is set whatever the bags cost; any other only when the
    bags allow it or its bid is big. The leader near the target comes first, then the
    highest score.
    """
    left = k.tricks_left
    needs = {s: k.need(s) for s in k.opponents if k.team_bid(s) > 0}
    mine = likely_winners(k)
    best: tuple[bool, int] | None = None
    target = None
    for seat, need in needs.items():
        if need <= 0 or need > left:
            continue
        to_set = left - need + 1
        helpers = sum(max(0, n) for other, n in needs.items() if other != seat)
        if to_set > mine + helpers:
            continue
        urgent = near_target(k, seat)
        if not (urgent or to_set < k.bags_room(k.team) or k.team_bid(seat) >= 5):
            continue
        rank = (urgent, k.obs.scores[seat])
        if best is None or rank > best:
            best, target = rank, seat
    return target


def _following(k: Knowledge, cards: list[Card]) -> bool:
    return k.led_suit is not None and k.suit(cards[0]) == k.led_suit


def shed(k: Knowledge, cards: list[Card], *, keep_high: bool) -> Card:
    """A card that is not meant to win this trick.

    Keeping high cards (when tricks are wanted later), it follows with the lowest card or
    discards a low card from the shortest side suit to make a void. Ducking, it follows
    with the highest card that loses or discards the card likeliest to win a trick later.
    """
    if _following(k, cards):
        return cards[0] if keep_high else cards[-1]
    side = [c for c in cards if k.suit(c) != SPADES]
    if not side:
        return cards[0] if keep_high else cards[-1]
    if keep_high:
        return min(
            side,
            key=lambda c: (k.is_master(c), k.count(k.hand, k.suit(c)), k.power(c)),
        )
    return min(side, key=lambda c: (len(k.higher_unseen(c)), -k.power(c)))


def follow_for_tricks(k: Knowledge, legal: list[Card]) -> Card:
    """Follow when the team wants this trick."""
    assert k.winner is not None
    later = k.still_to_play()
    losers = [c for c in legal if not k.wins_now(c)]
    winners = [c for c in legal if k.wins_now(c)]
    if k.winner[0] == k.partner:
        holds = k.p_current_holds()
        if holds >= PARTNER_HOLDS or not later or not _following(k, legal):
            return shed(k, losers or legal, keep_high=True)
        # Third hand high: the partner's card may not hold, a better one will.
        better = [c for c in winners if k.p_win(c) >= max(PARTNER_HOLDS, holds + 0.25)]
        return better[0] if better else shed(k, losers or legal, keep_high=True)
    if winners:
        if not later:
            return winners[0]
        good = [c for c in winners if k.p_win(c) >= GOOD_WIN]
        following = _following(k, legal)
        if good:
            # Second hand low: the partner still plays and a middling card is wasted.
            second_hand = (
                following
                and len(later) == 2
                and k.partner is not None
                and losers
                and k.p_win(good[0]) < 0.85
            )
            if not second_hand:
                return good[0]
        elif len(later) == 1 or not following:
            best = max(winners, key=lambda c: (k.p_win(c), -k.power(c)))
            # A ruff is also worth a try when the only discards are winners.
            masters_only = losers and all(k.is_master(c) for c in losers)
            if k.p_win(best) >= 0.3 and (following or masters_only or len(later) == 1):
                return best
    return shed(k, losers or legal, keep_high=True)


def follow_ducking(k: Knowledge, legal: list[Card]) -> Card:
    """Follow when the team wants no more tricks (bags)."""
    losers = [c for c in legal if not k.wins_now(c)]
    if losers:
        return shed(k, losers, keep_high=False)
    later = k.still_to_play()
    if not later:
        return legal[-1]
    return min(legal, key=lambda c: (k.p_win(c, against=tuple(later)), -k.power(c)))


def lead_for_tricks(k: Knowledge, legal: list[Card]) -> Card:
    """Lead when the team wants tricks."""
    side = [c for c in legal if k.suit(c) != SPADES]
    spades = [c for c in legal if k.suit(c) == SPADES]
    cashes = [c for c in side if k.p_win(c) >= GOOD_WIN]
    if cashes:
        return max(cashes, key=lambda c: (k.p_win(c), k.power(c)))
    their_spades = k.unseen_count(SPADES)
    if spades and k.is_master(spades[-1]) and (len(spades) * 2 >= their_spades or not side):
        return spades[-1]
    if not side:
        return spades[-1] if k.p_win(spades[-1]) >= GOOD_WIN else spades[0]
    if len(spades) >= 2:
        singles = [c for c in side if k.count(k.hand, k.suit(c)) == 1 and not k.is_master(c)]
        if singles:
            return min(singles, key=k.power)
    # Lead low where the partner may ruff or hold the top, never away from a guarded
    # honour if another suit will do, and not into a known void of an opponent.
    mate = k.partner

    def lead_key(card: Card) -> tuple[float, int, int]:
        suit = k.suit(card)
        top = k.my_cards(suit)[-1]
        honour = top != card and len(k.higher_unseen(top)) <= 1
        ruffed = sum(k.p_void(o, suit) for o in k.opponents if not k.is_void(o, SPADES))
        mate_ruff = 0.0
        if mate is not None and not k.is_void(mate, SPADES):
            mate_ruff = k.p_void(mate, suit)
        return (ruffed - mate_ruff + honour, -k.count(k.hand, suit), k.power(card))

    lows = [min((c for c in side if k.suit(c) == s), key=k.power) for s in _suits(k, side)]
    low = min(lows, key=lead_key)
    # From a suit headed by the top card, lead the top card: a low one only gives a
    # trick away that the top card could have taken.
    top = k.my_cards(k.suit(low))[-1]
    return top if k.is_master(top) else low


def lead_ducking(k: Knowledge, legal: list[Card]) -> Card:
    """Lead when the team wants no more tricks: the card least likely to win, the higher
    of equals so that high cards leave the hand while they are safe."""
    side = [c for c in legal if k.suit(c) != SPADES] or legal
    return min(side, key=lambda c: (round(k.p_win(c), 2), -k.power(c)))


def _suits(k: Knowledge, cards: list[Card]) -> list[int]:
    return sorted({k.suit(c) for c in cards})


# --------------------------------------------------------------------- nil
def nil_play(k: Knowledge, legal: list[Card]) -> Card:
    """Play to keep this seat's own nil."""
    if not k.obs.trick:
        # A card no unseen card can duck under forces every follower above it.
        return min(
            legal,
            key=lambda c: (
                k.suit(c) == SPADES,
                len(k.lower_unseen(c)),
                -len(k.higher_unseen(c)),
                k.power(c),
            ),
        )
    losers = [c for c in legal if not k.wins_now(c)]
    if losers:
        if _following(k, losers):
            return losers[-1]
        return min(losers, key=lambda c: (len(k.higher_unseen(c)), -k.power(c)))
    later = k.still_to_play()
    if not later:
        return legal[-1]
    return min(legal, key=lambda c: (k.p_win(c, against=tuple(later)), k.power(c)))


def cover_play(k: Knowledge, legal: list[Card]) -> Card | None:
    """Protect the partner's nil, or None when this trick needs no cover."""
    mate = k.partner
    assert mate is not None
    if not k.obs.trick:
        spades_ok = [c for c in legal if k.suit(c) != SPADES or k.is_master(c)] or legal

        def cover_key(card: Card) -> tuple[float, int]:
            return (
                len(k.higher_unseen(card)) - 2 * k.p_void(mate, k.suit(card)),
                -k.power(card),
            )

        return min(spades_ok, key=cover_key)
    assert k.winner is not None
    if k.played_in_trick(mate) is not None:
        if k.winner[0] != mate:
            return None
        winners = [c for c in legal if k.wins_now(c)]
        return winners[0] if winners else None
    top = legal[-1]
    if _following(k, legal):
        return top if k.wins_now(top) else None
    led = k.led_suit
    assert led is not None
    threat = k.higher_unseen(k.winner[1]) and not k.is_void(mate, led)
    if led != SPADES and threat:
        ruffs = [c for c in legal if k.suit(c) == SPADES and k.wins_now(c)]
        if ruffs:
            return ruffs[0]
    return None


def bust_play(k: Knowledge, legal: list[Card]) -> Card | None:
    """Try to make an opponent's nil fail, or None when there is none to bust or the
    team's own contract cannot spare the tricks."""
    nils = [s for s in k.opponents if k.nil_alive(s)]
    if not nils:
        return None
    need = k.need(k.team) if not k.is_nil(k.seat) else 0
    if need > 0 and need >= k.tricks_left - 1:
        return None
    if not k.obs.trick:
        target = nils[0]
        open_suits = [c for c in legal if not k.is_void(target, k.suit(c))]
        pool = [c for c in open_suits if k.suit(c) != SPADES] or open_suits or legal
        return min(pool, key=lambda c: (len(k.lower_unseen(c)), k.power(c)))
    assert k.winner is not None
    losers = [c for c in legal if not k.wins_now(c)]
    played = [s for s in nils if k.played_in_trick(s) is not None]
    if played:
        if k.winner[0] in nils and losers:
            return shed(k, losers, keep_high=wants_tricks(k))
        return None
    if k.obs.rules.side_of(k.winner[0]) != k.team:
        # Another side is winning: the nil bidder will duck under its card anyway.
        return None
    if losers:
        return losers[0] if _following(k, losers) else shed(k, losers, keep_high=True)
    return legal[0]
