"""A double-dummy solver: the exact tricks each partnership takes from a position in the
play when all four hands are known and each side plays for the most tricks (points, nils
and bags are not its concern).

It is alpha-beta minimax over the remaining cards, North/South maximising their tricks and
East/West minimising them, run as a few null-window searches ("at least n tricks?", MTD(f))
that share a transposition table of bounds at trick boundaries, keyed on the four hands,
the leader and the state of spades. Savings that lose nothing: cards in one hand with no
live card between them (a sequence such as K-Q, or 7-5 once the 6 is gone) are played as
one; tricks a side is sure of (the leader's cashable winners, either side's top spades)
bound a position before it is searched; and plays likely to be best are tried first (the
table's remembered card, cheap winners, ducking under a partner, spades cashed first).

Which cards may be played is the engine's own rule, :func:`spades.engine.state.legal_play_mask`;
which card takes a trick is :meth:`spades.engine.state.Deck.beats`, restated for the solver's
layout (tests check the solver against a brute force that plays through the engine).
Inside, a hand is a bitmask with 16 bits a suit in order of power (a card's bit is
``16 * suit + power``, a suit moved down where its powers need more bits: see
:func:`_layout`), so that the jokers sit above the A♠ like any higher spade and a
sequence is a run of bits; the rule's masks are passed in the same layout.

East to lead, two tricks left: cashing the A♥ first is worth a trick; the 2♣ first is not.

>>> from spades.engine.cards import card_str, parse_card
>>> hands = ["5C 6C", "AH 2C", "KH QH", "3C 4C"]  # North, East, South, West
>>> solution = solve_position(
...     Rules(),
...     [[parse_card(code) for code in hand.split()] for hand in hands],
...     seat=1,
...     trick=(),
...     broken=True,
... )
>>> solution.tricks, card_str(solution.card)
((1, 1), 'AH')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from spades.engine.cards import Card, JokerRanking, Mask, Seat, cards_mask
from spades.engine.deck import play_order, seats_after
from spades.engine.rules import Rules
from spades.engine.state import SPADES, HandState, Phase, deck_for, legal_play_mask, trick_winner

_SUIT_BITS: Final = 16
_SUIT_MASKS: Final = tuple(((1 << _SUIT_BITS) - 1) << (_SUIT_BITS * s) for s in range(4))
_SPADE_MASK: Final = _SUIT_MASKS[SPADES]
# The partnership table as the engine seats it, looked up by seat in the search: the seat
# after each, the other three in play order, the two opponents (left, then right), the
# partner, and 1 for a seat of North/South, the side the search maximises (0 for East/West).
_TABLE: Final = Rules()
_NEXT: Final = seats_after(_TABLE.players)
_AFTER: Final = tuple(tuple(play_order(seat, _TABLE.players)[1:]) for seat in _TABLE.seats)
_OPPONENTS: Final = tuple(
    tuple(s for s in _AFTER[seat] if _TABLE.side_of(s) != _TABLE.side_of(seat))
    for seat in _TABLE.seats
)
_PARTNER: Final = tuple(
    mate for seat in _TABLE.seats for mate in _TABLE.sides()[_TABLE.side_of(seat)] if mate != seat
)
_NORTH_SOUTH: Final = tuple(int(_TABLE.side_of(seat) == 0) for seat in _TABLE.seats)
#: The place in a trick of its last card.
_LAST: Final = _TABLE.players - 1


@dataclass(frozen=True, slots=True)
class Solution:
    """The solved value of a position: ``tricks`` is the number of the remaining tricks
    (the current one included) that North/South and East/West take with best play on both
    sides, and ``card`` is a best card for the seat to play (one that keeps its
    partnership's count)."""

    tricks: tuple[int, int]
    card: Card
    #: Positions searched, a measure of the work done.
    nodes: int


@lru_cache(maxsize=4)
def _layout(jokers: JokerRanking | None) -> tuple[tuple[int, ...], dict[int, Card]]:
    """Each card's bit in the solver's layout, and the card of each such bit.

    A suit whose powers run past its 16 bits moves down to fit: the trumps of the joker
    ranking "deuces" run from the 3♠'s power 1 to the Big Joker's 16 (the 2♠ ranks above
    the ace and leaves power 0 empty).
    """
    deck = deck_for(jokers)
    top = [max(deck.power[c] for c in deck.chunks(mask)) for mask in deck.suit_masks]
    below = [max(0, power - _SUIT_BITS + 1) for power in top]
    bits = tuple(
        1 << (_SUIT_BITS * deck.suit[c] + deck.power[c] - below[deck.suit[c]]) for c in range(52)
    )
    return bits, {bit: card for card, bit in enumerate(bits)}


def _to_layout(bits: tuple[int, ...], cards: Iterable[Card]) -> Mask:
    mask = 0
    for card in cards:
        mask |= bits[card]
    return mask


def solve(state: HandState) -> Solution:
    """Solve a hand in its play phase as it stands (the state is not changed).

    >>> from spades.engine.state import HandState
    >>> from spades.engine.cards import bid_action
    >>> h = HandState.deal(Rules(), dealer=0, seed=4)
    >>> for _ in range(4):
    ...     event = h.apply(bid_action(3))
    >>> while len(h.tricks) < 10:
    ...     event = h.apply(h.legal_actions()[0])
    >>> solution = solve(h)
    >>> sum(solution.tricks), solution.card in h.legal_actions()
    (3, True)
    """
    if state.phase is not Phase.PLAYING:
        raise ValueError(f"the hand is not in its play ({state.phase.name.lower()})")
    seat = state.current
    assert seat is not None
    return solve_position(
        state.rules,
        [state.deck.chunks(hand) for hand in state.hands],
        seat=seat,
        trick=state.trick,
        broken=state.broken,
        first=not state.tricks,
    )


def solve_position(
    rules: Rules,
    hands: Sequence[Iterable[Card]],
    *,
    seat: Seat,
    trick: Sequence[Card],
    broken: bool,
    first: bool = False,
) -> Solution:
    """Solve the position where the four ``hands`` (indexed by seat) hold the cards not yet
    played, ``trick`` holds the current trick's cards in play order, ``seat`` is to play,
    ``broken`` says whether spades are broken and ``first`` whether this is the hand's
    first trick. Raises ``ValueError`` for hands that cannot arise in a hand of Spades.

    Cutthroat rules, where every player plays alone, are refused with ``ValueError``.

    The work grows steeply with the cards left: on the reference machine a position with
    5 or 6 tricks left a hand takes a few milliseconds, 7 tricks some tens and 8 tricks
    a few hundred (``benchmarks/solver_speed.py``).
    """
    if not rules.partnerships:
        raise ValueError("the solver counts the tricks of two partnerships; cutthroat has none")
    bits, cards_of = _layout(rules.joker_deck)
    if len(hands) != rules.players:
        raise ValueError(f"four hands are needed, not {len(hands)}")
    if not 0 <= len(trick) < rules.players:
        raise ValueError(f"a trick in progress has 0 to 3 cards, not {len(trick)}")
    masks = [cards_mask(hand) for hand in hands]
    union = cards_mask(trick)
    total = len(trick)
    for mask in masks:
        if union & mask:
            raise ValueError("a card is in two places")
        union |= mask
        total += mask.bit_count()
    if total != union.bit_count():
        raise ValueError("a card is in two places")
    left = masks[seat].bit_count()
    # The cards of the trick were played by the seats before ``seat``, from its leader.
    leader = play_order(seat, rules.players)[-len(trick)] if trick else seat
    order = play_order(leader, rules.players)
    for step, other in enumerate(order):
        expected = left - 1 if step < len(trick) else left
        if masks[other].bit_count() != expected:
            raise ValueError(
                f"seat {other} holds {masks[other].bit_count()} cards where {expected} "
                f"are due with {left} left to the seat to play"
            )
    if not left:
        raise ValueError("there is nothing left to play")
    deck = deck_for(rules.joker_deck)
    internal = [_to_layout(bits, deck.chunks(mask)) for mask in masks]
    search = _Search(internal, rules.spades_lead_any_time, rules.no_spades_first_trick)
    if trick:
        win_seat, win_card = trick_winner(deck, list(zip(order, trick, strict=False)))
        win = bits[win_card].bit_length() - 1
        led_mask = _SUIT_MASKS[deck.suit[trick[0]]]
    else:
        win_seat, win, led_mask = seat, -1, 0
    in_trick = _to_layout(bits, trick)
    ns = search.run(seat, len(trick), led_mask, win_seat, win, in_trick, broken, first)
    return Solution((ns, left - ns), cards_of[search.chosen], search.nodes)


def _moves(
    hand: Mask, legal: Mask, live: Mask, trick_len: int, partner_wins: bool, win: int, hint: Mask
) -> list[Mask]:
    """The cards worth trying, as bits, likely best first: one card of each sequence
    (cards of ``hand`` with no other ``live`` card between them play alike), ordered so
    that alpha-beta meets a good line early and cuts the rest."""
    if not legal & (legal - 1):
        return [legal]
    first: list[Mask] = []
    then: list[Mask] = []
    rest = legal
    while rest:
        bit = rest & -rest
        rest ^= bit
        index = bit.bit_length() - 1
        suit = index >> 4
        above = live & _SUIT_MASKS[suit] & -(bit << 1)
        if above & -above & hand:
            continue  # the next live card up is ours: the same sequence, tried at its top
        if trick_len:
            # Win as cheaply as possible when an opponent is winning, and play under a
            # partner who is; the other cards after, low first. (Cards that beat the
            # winner are all of one suit, so low first is the order met.)
            beats = (index > win) if suit == win >> 4 else suit == SPADES
            (first if beats != partner_wins else then).append(bit)
        elif not above & ~hand:
            # The top live card of its suit, a winner unless trumped: spades, which draw
            # the trumps, first.
            if suit == SPADES:
                first.insert(0, bit)
            else:
                first.append(bit)
        else:
            then.append(bit)
    if not trick_len:
        # Other leads: high cards first, whatever the suit.
        then.sort(key=_rank_down)
    moves = first + then
    if hint and hint in moves:
        moves.remove(hint)
        moves.insert(0, hint)
    return moves


def _rank_down(bit: Mask) -> int:
    return -((bit.bit_length() - 1) & 15)


def _quick_tricks(hands: list[Mask], seat: Seat, spades_open: bool, left: int) -> int:
    """Tricks the side of ``seat``, on lead, wins for sure by leading from the top: first
    its spades above every other spade, then in each side suit its cards above every other
    card of the suit, as many as the opponents must follow when they could still trump.
    Only the leader's own cards count, so the lead never passes to the partner.

    >>> from spades.engine.cards import parse_card
    >>> bits, _ = _layout(None)
    >>> def hand(text: str) -> Mask:
    ...     return _to_layout(bits, [parse_card(code) for code in text.split()])
    >>> hands = [hand("AS KS AH"), hand("QS 2H 3H"), hand("2S 4H 5H"), hand("3S 6H 7H")]
    >>> _quick_tricks(hands, 0, True, 3), _quick_tricks(hands, 0, False, 3)
    (3, 1)
    """
    hand = hands[seat]
    left_seat, right_seat = _OPPONENTS[seat]
    left_opponent, right_opponent = hands[left_seat], hands[right_seat]
    others = left_opponent | right_opponent | hands[_PARTNER[seat]]
    total = 0
    spades = hand & _SPADE_MASK
    if spades and (spades_open or hand == spades):
        total = (spades & -(1 << (others & _SPADE_MASK).bit_length())).bit_count()
        # Each spade cashed draws one from every opponent who still holds one.
        ruffing = (
            max(
                (left_opponent & _SPADE_MASK).bit_count(),
                (right_opponent & _SPADE_MASK).bit_count(),
            )
            > total
        )
    else:
        ruffing = bool((left_opponent | right_opponent) & _SPADE_MASK)
    for suit_mask in _SUIT_MASKS[:SPADES]:
        mine = hand & suit_mask
        if mine:
            winners = (mine & -(1 << (others & suit_mask).bit_length())).bit_count()
            if ruffing:
                winners = min(
                    winners,
                    (left_opponent & suit_mask).bit_count(),
                    (right_opponent & suit_mask).bit_count(),
                )
            total += winners
    return min(total, left)


def _sure_bounds(hands: list[Mask], leader: Seat, spades_open: bool, left: int) -> tuple[int, int]:
    """Bounds on North/South's tricks from a trick boundary, from the tricks each side is
    sure of: the leader's side its quick tricks, and both sides their top spades (a spade
    above all of the other side's wins whatever trick it falls in, and those of one hand
    fall in different tricks)."""
    quick = _quick_tricks(hands, leader, spades_open, left)
    north, east, south, west = hands
    spade_mask = _SPADE_MASK
    above_east_west = -(1 << ((east | west) & spade_mask).bit_length())
    above_north_south = -(1 << ((north | south) & spade_mask).bit_length())
    north_south = max(
        (north & spade_mask & above_east_west).bit_count(),
        (south & spade_mask & above_east_west).bit_count(),
    )
    east_west = max(
        (east & spade_mask & above_north_south).bit_count(),
        (west & spade_mask & above_north_south).bit_count(),
    )
    if not _NORTH_SOUTH[leader]:
        return north_south, left - max(quick, east_west)
    return max(quick, north_south), left - east_west


class _Search:
    """One solve: the hands (changed during the search and put back), the options of
    the play rule, the transposition table and the count of positions searched."""

    __slots__ = ("chosen", "hands", "lead_free", "no_first", "nodes", "table")

    def __init__(self, hands: list[Mask], lead_free: bool, no_first: bool) -> None:
        self.hands = hands
        self.lead_free = lead_free
        self.no_first = no_first
        #: At trick boundaries: (hands, seat to lead and flags) -> (lower bound, upper
        #: bound, best lead) of North/South's tricks from there.
        self.table: dict[tuple[Mask, Mask, Mask, Mask, int], tuple[int, int, Mask]] = {}
        self.nodes = 0
        self.chosen: Mask = 0

    def run(
        self,
        seat: Seat,
        trick_len: int,
        led_mask: Mask,
        win_seat: Seat,
        win: int,
        in_trick: Mask,
        broken: bool,
        first: bool,
    ) -> int:
        """North/South's tricks from the position (exact), noting a best card in
        :attr:`chosen` and the work in :attr:`nodes`."""
        hands = self.hands
        table = self.table
        lead_free, no_first = self.lead_free, self.no_first
        suit_masks = _SUIT_MASKS
        rule = legal_play_mask
        moves_of = _moves
        sure_bounds = _sure_bounds
        following = _AFTER
        seat_after = _NEXT
        partner = _PARTNER
        north_south = _NORTH_SOUTH
        last = _LAST
        count = 0
        chosen = 0

        def last_trick(leader: Seat) -> int:
            """North/South's share (0 or 1) of the last trick, each hand holding one card."""
            win_seat = leader
            win = hands[leader].bit_length() - 1
            for other in following[leader]:
                index = hands[other].bit_length() - 1
                suit = index >> 4
                if (index > win) if suit == win >> 4 else suit == SPADES:
                    win_seat, win = other, index
            return north_south[win_seat]

        def node(
            seat: Seat,
            trick_len: int,
            led_mask: Mask,
            win_seat: Seat,
            win: int,
            in_trick: Mask,
            broken: bool,
            first: bool,
            alpha: int,
            beta: int,
            root: bool = False,
        ) -> int:
            """North/South's tricks from here to the end (the current trick included):
            exact when strictly inside (alpha, beta), otherwise a bound on that side of
            the window (fail-soft). At the ``root`` the table only orders the cards, so
            that the best card found there is one that reaches the value returned."""
            nonlocal count, chosen
            count += 1
            hand = hands[seat]
            key: tuple[Mask, Mask, Mask, Mask, int] | None = None
            hint = 0
            if not trick_len:
                left = hand.bit_count()
                if left < 2 and not root:
                    return last_trick(seat) if left else 0
                key = (hands[0], hands[1], hands[2], hands[3], seat | broken << 2 | first << 3)
                entry = table.get(key)
                if entry is not None:
                    low, high, hint = entry
                elif first:
                    low, high = 0, left
                else:
                    low, high = sure_bounds(hands, seat, broken or lead_free, left)
                if not root:
                    if low == high or low >= beta:
                        return low
                    if high <= alpha:
                        return high
                    if alpha < low:
                        alpha = low
                    if beta > high:
                        beta = high
            window = alpha, beta
            legal = rule(hand, trick_len, led_mask, broken, first, lead_free, no_first, _SPADE_MASK)
            live = hands[0] | hands[1] | hands[2] | hands[3] | in_trick
            maximise = north_south[seat]
            moves = moves_of(hand, legal, live, trick_len, win_seat == partner[seat], win, hint)
            best = -1 if maximise else 99
            best_move = moves[0]
            for bit in moves:
                hands[seat] = hand ^ bit
                index = bit.bit_length() - 1
                suit = index >> 4
                if not trick_len:
                    next_led, next_seat, next_win = suit_masks[suit], seat, index
                elif (index > win) if suit == win >> 4 else suit == SPADES:
                    next_led, next_seat, next_win = led_mask, seat, index
                else:
                    next_led, next_seat, next_win = led_mask, win_seat, win
                if trick_len == last:
                    won = north_south[next_seat]
                    value = won + node(
                        next_seat,
                        0,
                        0,
                        next_seat,
                        -1,
                        0,
                        broken or suit == SPADES,
                        False,
                        alpha - won,
                        beta - won,
                    )
                else:
                    value = node(
                        seat_after[seat],
                        trick_len + 1,
                        next_led,
                        next_seat,
                        next_win,
                        in_trick | bit,
                        broken or suit == SPADES,
                        first,
                        alpha,
                        beta,
                    )
                hands[seat] = hand
                if maximise:
                    if value > best:
                        best, best_move = value, bit
                        if value > alpha:
                            alpha = value
                            if alpha >= beta:
                                break
                elif value < best:
                    best, best_move = value, bit
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            break
            if key is not None:
                if best <= window[0]:
                    high = best
                elif best >= window[1]:
                    low = best
                else:
                    low = high = best
                table[key] = (low, high, best_move)
            # The root finishes last, so this ends holding the root's best card.
            chosen = best_move
            return best

        # MTD(f): null-window searches ("at least beta?") that narrow the bounds, sharing
        # the table, cut far more than one search with the full window.
        low, high = 0, self.hands[seat].bit_count()
        guess = (high + 1) // 2
        while low < high:
            beta = max(guess, low + 1)
            guess = node(
                seat, trick_len, led_mask, win_seat, win, in_trick, broken, first, beta - 1, beta
            )
            if guess < beta:
                high = guess
            else:
                low = guess
        # One more search whose cut at the root is made by a card reaching the value.
        alpha = low - 1 if _NORTH_SOUTH[seat] else low
        node(
            seat,
            trick_len,
            led_mask,
            win_seat,
            win,
            in_trick,
            broken,
            first,
            alpha,
            alpha + 1,
            True,
        )
        value = low
        self.nodes = count
        self.chosen = chosen
        return value
