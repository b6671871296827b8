"""One hand of Spades: deal, bidding, the blind-nil exchange, play, and the score.

All legality lives here. ``legal_actions()`` lists the moves, ``verify(action)`` raises
:class:`IllegalAction` with a reason, ``can(action)`` asks the same question, and
``apply(action)`` makes the move and returns what happened, an
:class:`~spades.engine.events.Event` (or raises and leaves the state as it was).
``apply_fast`` is the unchecked path the bots' playouts vouch for.

The module is long because it is one thing: :class:`HandState` is where every rule of a
hand is stated once (the deck and the play rule below it live in :mod:`spades.engine.deck`).

>>> from spades.engine.rules import Rules
>>> from spades.engine.cards import bid_action
>>> h = HandState.deal(Rules(), dealer=3, seed=7)
>>> h.current_player, h.phase.name
(0, 'BIDDING')
>>> for seat in range(4):
...     event = h.apply(bid_action(3))
>>> h.phase.name, h.current_player
('PLAYING', 0)
>>> h.apply(h.legal_actions()[0]).seat, len(h.trick)
(0, 1)
"""

from __future__ import annotations

import _random
from collections.abc import Iterable, Sequence
from functools import lru_cache, partial
from itertools import starmap
from typing import Final

from spades.engine.cards import (
    BID_BASE,
    BLIND_NIL,
    CARDS_IN_CHUNK,
    CLAIM,
    EXCHANGE_BASE,
    FULL_DECK,
    HIGH_BID_BASE,
    JOKER_PLAY_BASE,
    LOOK,
    MAX_CARDS,
    NUM_ACTIONS,
    NUM_CARDS,
    SEAT_NAMES,
    SUIT_NAMES,
    Action,
    Card,
    Mask,
    Seat,
    action_card,
    action_str,
    bid_action,
    bid_of,
    card_action,
    cards_mask,
    partner,
    team_of,
)
from spades.engine.deck import SPADES as SPADES
from spades.engine.deck import Deck as Deck
from spades.engine.deck import Trick as Trick
from spades.engine.deck import deck_for as deck_for
from spades.engine.deck import legal_play_mask as legal_play_mask
from spades.engine.deck import play_order, seats_after
from spades.engine.deck import trick_winner as trick_winner
from spades.engine.events import Event
from spades.engine.observation import Observation
from spades.engine.observation import Phase as Phase
from spades.engine.rules import Rules
from spades.engine.scoring import HandResult, score_hand, score_players

_PLAYING: Final = Phase.PLAYING
_BIT: Final = tuple(1 << card for card in range(MAX_CARDS))
_FIRST_BID_BIT: Final = 1 << NUM_CARDS
#: One empty argument list a card to shuffle: the standard deck's and the 54-card deck's.
_NO_ARGS: Final = ((),) * NUM_CARDS
_NO_ARGS_54: Final = ((),) * MAX_CARDS
_NOBODY: Final = (False, False, False, False)
_NIL_BIT: Final = 1 << BID_BASE
_COUNT_WORDS: Final = {3: "three", 4: "four"}
#: ``_SEAT_AFTER[n][seat]``: the seat to play after ``seat`` at a table of ``n``.
_SEAT_AFTER: Final = {n: seats_after(n) for n in (3, 4)}
#: Cutthroat: the numeric bids (1 to the hand size) as a mask over action ids.
_PLAYER_BIDS: Final = {
    size: sum(1 << bid_action(n) for n in range(1, size + 1)) for size in (13, 17, 18)
}
_WHOLE_DECK: Final = {
    3: "the three hands must hold all the deck but one card, each card once",
    4: "the four hands must hold the whole deck, each card once",
}
_WHOLE_54: Final = "the three hands must hold the whole 54-card deck, each card once"
#: The two of clubs, which three players set aside unless the rules pick a random card.
_TWO_OF_CLUBS: Final = 0


class IllegalAction(ValueError):
    """An action that is not allowed now; the message says why in plain words."""


#: ``Trick(leader, cards, winner)`` from one tuple, without the Python-level constructor
#: (a trick is made 13 times a hand), and an :class:`Event` likewise (one an action).
_new_trick: Final = partial(tuple.__new__, Trick)
_new_event: Final = partial(tuple.__new__, Event)
#: ``_QUIET[seat][action]``: the event of an action that ends no trick (a bid, a pass, most
#: cards). Events are immutable, so every hand shares these instead of making one a card.
_QUIET: Final = tuple(
    tuple(_new_event((seat, action, None, None)) for action in range(NUM_ACTIONS))
    for seat in range(len(SEAT_NAMES))
)


@lru_cache(maxsize=4096)
def _other_actions(mask: Mask) -> tuple[Action, ...]:
    """The bidding or exchange actions in a legal-action ``mask`` (no cards), sorted."""
    return tuple(a for a in range(NUM_CARDS, mask.bit_length()) if mask >> a & 1)


def _check_dealer(dealer: object, players: int) -> Seat:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer!r}")
    return dealer


def _check_seed(seed: object) -> None:
    # A text seed would be hashed differently in every process, and True would deal as 1.
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be an int or None, not {seed!r}")


def _int_pair(pair: object, name: str) -> tuple[int, int]:
    """``pair`` (the scores or the bags of the two teams) as a tuple of two ints."""
    if (
        not isinstance(pair, tuple | list)
        or len(pair) != 2
        or isinstance(pair[0], bool)
        or isinstance(pair[1], bool)
        or not isinstance(pair[0], int)
        or not isinstance(pair[1], int)
    ):
        raise ValueError(f"{name} must be a pair of ints (North/South, East/West), not {pair!r}")
    return pair[0], pair[1]


def _int_tuple(values: object, players: int, name: str) -> tuple[int, ...]:
    """``values`` (the scores or the bags of the cutthroat players) as a tuple of ints;
    the default pair of zeros of the partnership game starts every player from 0."""
    if values == (0, 0):
        return (0,) * players
    if (
        not isinstance(values, tuple | list)
        or len(values) != players
        or any(isinstance(v, bool) or not isinstance(v, int) for v in values)
    ):
        raise ValueError(f"{name} must be {players} ints, one a player, not {values!r}")
    return tuple(values)


def _check_out(
    rules: Rules, out: object, dealer: Seat, scores: tuple[int, ...]
) -> tuple[Seat, ...]:
    """``out`` (the seats knocked out of a three-handed match) as a tuple of seats."""
    players = rules.players
    if (
        not isinstance(out, tuple | list)
        or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players for s in out)
        or len(set(out)) != len(out)
    ):
        raise ValueError(f"out must be seats 0..{players - 1}, each once, not {out!r}")
    mercy = rules.mercy_score
    if players != 3 or rules.partnerships or mercy is None:
        raise ValueError("out: only the mercy score of three-handed cutthroat knocks players out")
    if len(out) > 1:
        raise ValueError("out: two players stay in while a hand is played")
    if scores[out[0]] > mercy:
        raise ValueError(
            f"out: seat {out[0]} has {scores[out[0]]}, above the mercy score of {mercy}"
        )
    if dealer == out[0]:
        raise ValueError(f"dealer: seat {dealer} is out; the deal passes to the players in")
    return tuple(out)


def _check_start(
    rules: Rules, dealer: object, scores: object, bags: object, out: object
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Seat, ...]]:
    """Check what a hand starts from (before any dealing); returns the scores, the bags and
    the seats out."""
    if not isinstance(rules, Rules):
        raise TypeError("rules must be a Rules")
    players = rules.players
    seat = _check_dealer(dealer, players)
    if rules.partnerships:
        score_pair: tuple[int, ...] = _int_pair(scores, "scores")
        bag_pair: tuple[int, ...] = _int_pair(bags, "bags")
    else:
        score_pair = _int_tuple(scores, players, "scores")
        bag_pair = _int_tuple(bags, players, "bags")
    if min(bag_pair) < 0:
        raise ValueError(f"bags are never negative, not {bag_pair}")
    limit = rules.bag_limit
    if limit is not None and max(bag_pair) >= limit:
        # The penalty takes the limit off the count whenever it is reached.
        raise ValueError(f"bags must stay below the bag limit of {limit}, not {bag_pair}")
    if out == ():
        return score_pair, bag_pair, ()
    return score_pair, bag_pair, _check_out(rules, out, seat, score_pair)


def _blind_eligible(
    rules: Rules, scores: tuple[int, ...], out: tuple[Seat, ...]
) -> tuple[bool, ...]:
    """Which seats may bid blind nil: those whose team trails by the rule's deficit, or in
    cutthroat those still in who trail the leader by it."""
    if not rules.blind_nil:
        return _NOBODY[: rules.players]
    if not rules.partnerships:
        top = max(score for seat, score in enumerate(scores) if seat not in out)
        return tuple(
            seat not in out and top - score >= rules.blind_nil_deficit
            for seat, score in enumerate(scores)
        )
    behind = scores[1] - scores[0]
    ours, theirs = behind >= rules.blind_nil_deficit, -behind >= rules.blind_nil_deficit
    return ours, theirs, ours, theirs


class HandState:
    """The full, true state of one hand. Bots never see it, only observations."""

    __slots__ = (
        "rules",
        "deck",
        "dealer",
        "scores",
        "bags",
        "initial_hands",
        "hands",
        "phase",
        "current",
        "bids",
        "blind",
        "looked",
        "eligible",
        "exchange_queue",
        "passes",
        "trick",
        "leader",
        "win_seat",
        "win_card",
        "tricks_won",
        "tricks",
        "broken",
        "played",
        "events",
        "claimed_by",
        "seat_count",
        "seat_after",
        "hand_size",
        "set_aside",
        "out",
        "left_out",
        "trick_size",
        "_legal",
    )

    rules: Rules
    deck: Deck
    dealer: Seat
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    initial_hands: tuple[Mask, ...]
    hands: list[Mask]
    phase: Phase
    current: Seat | None
    bids: list[int | None]
    blind: list[bool]
    looked: list[bool]
    eligible: tuple[bool, ...]
    exchange_queue: list[Seat]
    passes: list[list[Card]]
    trick: list[Card]
    leader: Seat
    win_seat: Seat
    win_card: Card
    tricks_won: list[int]
    tricks: list[Trick]
    broken: bool
    played: Mask
    #: What each action did, in order (see :class:`~spades.engine.events.Event`): the
    #: hand's one log, from which :attr:`history` is read.
    events: list[Event]
    claimed_by: Seat | None
    seat_count: int
    seat_after: tuple[Seat, ...]
    hand_size: int
    set_aside: Mask
    out: tuple[Seat, ...]
    left_out: Mask
    trick_size: int
    _legal: Mask

    # ----------------------------------------------------------------- creation
    @classmethod
    def deal(
        cls,
        rules: Rules,
        *,
        dealer: Seat,
        seed: int | None,
        scores: tuple[int, ...] = (0, 0),
        bags: tuple[int, ...] = (0, 0),
        out: tuple[Seat, ...] = (),
    ) -> HandState:
        """Shuffle with ``seed`` and deal 13 cards to each seat (17 to each of three).

        ``seed`` is an int (None: a fresh random deal), ``dealer`` a seat 0..3, and
        ``scores`` and ``bags`` the running totals of (North/South, East/West) before the
        hand: ints, with bags from 0 to below the bag limit. In cutthroat they hold one
        total a player (left at the default, every player starts from 0), and the seats
        are 0 to ``players - 1``. Anything else raises ``ValueError`` before dealing.

        Three players set one card aside, in no hand: the 2♣, or under
        ``set_aside="random"`` the last card of the shuffle.

        ``out`` names the seat knocked out of a three-handed match by the mercy score
        (its score at or below it; see :func:`spades.engine.scoring.match_outcome`). The deal is
        the three-handed deal, but that seat's 17 cards are left out, unseen by anyone
        (:attr:`left_out`): it neither bids nor plays, the two players in bid nil to 17
        and play 17 tricks of two cards, and the turn passes over it. The dealer is one
        of the players in, who bid and lead from the dealer's left as ever.

        >>> HandState.deal(Rules(), dealer=0, seed=True)
        Traceback (most recent call last):
        ...
        ValueError: seed must be an int or None, not True
        >>> HandState.deal(Rules(), dealer=0, seed=1, bags=(10, 0))
        Traceback (most recent call last):
        ...
        ValueError: bags must stay below the bag limit of 10, not (10, 0)
        """
        scores, bags, out = _check_start(rules, dealer, scores, bags, out)
        _check_seed(seed)
        # random.Random(seed) draws the same numbers; its C base is quicker to seed.
        added = rules.jokers_added
        keys = list(starmap(_random.Random(seed).random, _NO_ARGS_54 if added else _NO_ARGS))
        deck = sorted(range(MAX_CARDS if added else NUM_CARDS), key=keys.__getitem__)
        set_aside = 0
        if rules.players == 3 and not added:
            aside = _TWO_OF_CLUBS if rules.set_aside == "two_of_clubs" else deck[-1]
            deck.remove(aside)
            set_aside = 1 << aside
        # Cards go round one at a time, starting at the dealer's left: the i-th card of
        # every round goes to the i-th seat after the dealer.
        n = rules.players
        masks = [0] * n
        for i in range(n):
            masks[(dealer + 1 + i) % n] = sum(map(_BIT.__getitem__, deck[i::n]))
        return cls._start(rules, masks, dealer, scores, bags, set_aside, out)

    @classmethod
    def from_hands(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[Card]],
        *,
        dealer: Seat,
        scores: tuple[int, ...] = (0, 0),
        bags: tuple[int, ...] = (0, 0),
        out: tuple[Seat, ...] = (),
    ) -> HandState:
        """A hand from four given hands of 13 cards, indexed by seat (the other inputs as
        for :meth:`deal`).

        Three players give three hands of 17 cards: the card in none of them is the one
        set aside (the 2♣ unless ``set_aside="random"``). The hand of a seat ``out`` is
        the one left out.
        """
        scores, bags, out = _check_start(rules, dealer, scores, bags, out)
        n, size = rules.players, rules.hand_size
        if len(hands) != n:
            raise ValueError(f"{_COUNT_WORDS[n]} hands are needed, not {len(hands)}")
        deck = deck_for(rules.joker_deck, rules.jokers_added).cards
        masks: list[Mask] = []
        for seat, cards in enumerate(hands):
            card_list = list(cards)
            mask = cards_mask(card_list)
            if mask & ~deck:
                stray = (mask & ~deck).bit_length() - 1
                raise ValueError(f"not a card id: {stray} (this deck's cards are 0..51)")
            if len(card_list) != size or mask.bit_count() != size:
                raise ValueError(f"seat {seat} must hold {size} different cards")
            masks.append(mask)
        held = 0
        for mask in masks:
            held |= mask
        set_aside = deck & ~held
        if set_aside.bit_count() != deck.bit_count() - n * size:
            raise ValueError(_WHOLE_DECK[n] if deck == FULL_DECK else _WHOLE_54)
        if set_aside and rules.set_aside == "two_of_clubs" and set_aside != 1 << _TWO_OF_CLUBS:
            raise ValueError("the 2♣ is the card set aside: no hand may hold it")
        return cls._start(rules, masks, dealer, scores, bags, set_aside, out)

    @classmethod
    def _start(
        cls,
        rules: Rules,
        masks: list[Mask],
        dealer: Seat,
        scores: tuple[int, ...],
        bags: tuple[int, ...],
        set_aside: Mask,
        out: tuple[Seat, ...],
    ) -> HandState:
        """A new hand from checked inputs (see :func:`_check_start`)."""
        self = cls.__new__(cls)
        n = len(masks)
        self.out = out
        if out:
            self._leave_out(masks, out)
        else:
            self.left_out = 0
            self.seat_after = _SEAT_AFTER[n]
            self.trick_size = n
        self.scores = scores
        self.bags = bags
        self.rules = rules
        self.deck = deck_for(rules.joker_deck, rules.jokers_added)
        self.dealer = dealer
        self.initial_hands = tuple(masks)
        self.hands = masks
        self.phase = Phase.BIDDING
        self.current = self.leader = self.win_seat = self.seat_after[dealer]
        self.bids = [None] * n
        self.blind = [False] * n
        self.eligible = _blind_eligible(rules, self.scores, out)
        self.looked = [not e for e in self.eligible]
        self.exchange_queue = []
        passes: list[list[Card]] = [[], [], [], []]
        self.passes = passes[:n]
        self.trick = []
        self.win_card = -1
        self.tricks_won = [0] * n
        self.tricks = []
        self.broken = False
        self.played = 0
        self.events = []
        self.claimed_by = None
        self.seat_count = n
        self.hand_size = rules.hand_size
        self.set_aside = set_aside
        self._legal = -1
        return self

    def _leave_out(self, masks: list[Mask], out: tuple[Seat, ...]) -> None:
        """Leave the cards of the seats ``out`` out of the hand, and pass the turn over
        those seats."""
        left_out = 0
        for seat in out:
            left_out |= masks[seat]
            masks[seat] = 0
        n = len(masks)
        self.left_out = left_out
        self.seat_after = seats_after(n, out)
        self.trick_size = n - len(out)

    def clone(self) -> HandState:
        """An independent copy (cheap: a few short lists)."""
        other = HandState.__new__(HandState)
        other.rules = self.rules
        other.deck = self.deck
        other.dealer = self.dealer
        other.scores = self.scores
        other.bags = self.bags
        other.initial_hands = self.initial_hands
        other.hands = self.hands[:]
        other.phase = self.phase
        other.current = self.current
        other.bids = self.bids[:]
        other.blind = self.blind[:]
        other.looked = self.looked[:]
        other.eligible = self.eligible
        other.exchange_queue = self.exchange_queue[:]
        other.passes = [p[:] for p in self.passes]
        other.trick = self.trick[:]
        other.leader = self.leader
        other.win_seat = self.win_seat
        other.win_card = self.win_card
        other.tricks_won = self.tricks_won[:]
        other.tricks = self.tricks[:]
        other.broken = self.broken
        other.played = self.played
        other.events = self.events[:]
        other.claimed_by = self.claimed_by
        other.seat_count = self.seat_count
        other.seat_after = self.seat_after
        other.hand_size = self.hand_size
        other.set_aside = self.set_aside
        other.out = self.out
        other.left_out = self.left_out
        other.trick_size = self.trick_size
        other._legal = self._legal
        return other

    # ------------------------------------------------------------------ queries
    @property
    def current_player(self) -> Seat | None:
        """The seat to act, or None once the hand is over."""
        return self.current

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def history(self) -> list[Action]:
        """The actions taken in this hand, in order (read from :attr:`events`)."""
        return [event.action for event in self.events]

    @property
    def spades_broken(self) -> bool:
        return self.broken

    @property
    def trick_plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The current trick's plays, (seat, card) in play order."""
        seats = play_order(self.leader, self.seat_count, self.out)
        return tuple(zip(seats, self.trick, strict=False))

    @property
    def led_suit(self) -> int | None:
        """The suit of the current trick's first card, if any."""
        return self.deck.suit[self.trick[0]] if self.trick else None

    def hand(self, seat: Seat) -> list[Card]:
        """The cards a seat holds now, sorted."""
        return self.deck.chunks(self.hands[seat])

    def legal_actions(self) -> list[Action]:
        """Every legal action for the current player, sorted. Empty once the hand is over.

        Claiming the rest is offered separately by :meth:`can_claim`.
        """
        mask = self._legal
        if mask < 0:
            mask = self._legal_mask()
        if mask < _FIRST_BID_BIT:
            return [
                *CARDS_IN_CHUNK[0][mask & 0x1FFF],
                *CARDS_IN_CHUNK[1][mask >> 13 & 0x1FFF],
                *CARDS_IN_CHUNK[2][mask >> 26 & 0x1FFF],
                *CARDS_IN_CHUNK[3][mask >> 39],
            ]
        if self.phase is _PLAYING:  # the 54-card deck, a joker among the cards
            return list(map(card_action, self.deck.chunks(mask)))
        return list(_other_actions(mask))

    def _legal_mask(self) -> Mask:
        """The legal actions as a bitmask over action ids: the one source of legality.

        In the play it is the mask of the playable cards, whose bits are the actions that
        play them, but for the jokers added to the 54-card deck: their bits 52 and 53 stand
        for their own actions (:func:`~spades.engine.cards.card_action`), not for the bids nil
        and 1, so a bit above the cards means a bid only outside the play (this keeps the
        check off the partnership game's path of every card).
        """
        if self._legal >= 0:
            return self._legal
        phase = self.phase
        seat = self.current
        if phase is _PLAYING:
            assert seat is not None
            trick = self.trick
            deck = self.deck
            rules = self.rules
            mask = legal_play_mask(
                self.hands[seat],
                len(trick),
                deck.suit_masks[deck.suit[trick[0]]] if trick else 0,
                self.broken,
                not self.tricks,
                rules.spades_lead_any_time,
                rules.no_spades_first_trick,
                deck.suit_masks[SPADES],
            )
        elif phase is Phase.BIDDING:
            assert seat is not None
            bids = self._bid_mask(seat)
            if not self.looked[seat]:
                mask = 1 << LOOK | (1 << BLIND_NIL if bids & _NIL_BIT else 0)
            else:
                mask = bids
        elif phase is Phase.EXCHANGE:
            assert seat is not None
            mask = (self.hands[seat] & ~cards_mask(self.passes[seat])) << EXCHANGE_BASE
        else:
            mask = 0
        self._legal = mask
        return mask

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` with a reason unless ``action`` is legal now."""
        if (
            type(action) is int
            and 0 <= action < NUM_ACTIONS
            and (self._legal if self._legal >= 0 else self._legal_mask()) >> action & 1
            and (action < NUM_CARDS or self.phase is not _PLAYING)
        ):
            return
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalAction(f"an action is an int, not {action!r}")
        if self.phase is Phase.OVER:
            raise IllegalAction("The hand is over")
        seat = self.current
        assert seat is not None
        card = action_card(action)
        if action == CLAIM:
            problem = self._claim_problem()
            if problem is None:
                return
        elif card is not None and self.deck.cards >> card & 1:
            problem = self._play_problem(seat, card)
            if problem is None:  # an added joker, whose bit in the play is not its action's
                return
        elif BID_BASE <= action <= LOOK or HIGH_BID_BASE <= action < JOKER_PLAY_BASE:
            problem = self._bidding_problem(seat, action)
        elif EXCHANGE_BASE <= action < CLAIM:
            problem = self._exchange_problem(seat, action - EXCHANGE_BASE)
        else:
            problem = f"{action} is not an action"
        raise IllegalAction(problem or "That is not allowed now")

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now (the same question :meth:`verify` asks)."""
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def _play_problem(self, seat: Seat, card: Card) -> str | None:
        if self.phase is not Phase.PLAYING:
            return f"Cards are played after the {self.phase.name.lower()}"
        if not self.hands[seat] >> card & 1:
            return f"You do not hold the {self.deck.label(card)}"
        if self._legal_mask() >> card & 1:
            return None
        suit = self.deck.suit[card]
        if self.trick:
            led = self.deck.suit[self.trick[0]]
            if self.hands[seat] & self.deck.suit_masks[led]:
                return f"You must follow {SUIT_NAMES[led]}"
            return "No spades may be played on the first trick"
        if suit == SPADES and not self.tricks and self.rules.no_spades_first_trick:
            return "No spades may be played on the first trick"
        return "Spades are not broken yet"

    def _bidding_problem(self, seat: Seat, action: Action) -> str | None:
        if self.phase is not Phase.BIDDING:
            return "The bidding is over"
        if action == LOOK:
            if not self.looked[seat]:
                return None
            if not self.eligible[seat]:
                # Looking turns blind nil down; a seat never offered it holds its cards.
                return "There is no blind nil to turn down: your cards are already in your hand"
            return "You have already looked at your cards"
        if action == BLIND_NIL:
            if not self.rules.blind_nil:
                return "Blind nil is not played at this table"
            if not self.eligible[seat]:
                who = "your team" if self.rules.partnerships else "you"
                whom = "" if self.rules.partnerships else " the leader"
                return (
                    f"Blind nil needs {who} to trail{whom} by "
                    f"{self.rules.blind_nil_deficit} or more"
                )
            if self.looked[seat]:
                return "Blind nil must be bid before looking at your cards"
            return self._bid_problem(seat, 0)
        if not self.looked[seat]:
            return "Bid blind nil or look at your cards first"
        bid = bid_of(action)
        assert bid is not None
        if bid > self.hand_size:
            return f"A bid is nil to {self.hand_size} tricks"
        return self._bid_problem(seat, bid)

    def _bid_mask(self, seat: Seat) -> Mask:
        """The bids open to ``seat`` under the house rules, as a mask over action ids."""
        rules = self.rules
        if not rules.partnerships:
            return self._player_bid_mask(seat)
        if rules.mirror:
            return 1 << bid_action(self._spade_count(seat))
        partner_bid = self.bids[partner(seat)]
        room = 13 if partner_bid is None else 13 - partner_bid
        if partner_bid is None and not rules.nil_allowed:
            # Without nil the partner bids at least 1, and the team may not pass 13.
            room = 12
        if rules.whiz:
            count = (self.hands[seat] & self.deck.suit_masks[SPADES]).bit_count()
            return _NIL_BIT if count == 0 or count > room else _NIL_BIT | _NIL_BIT << count
        low = 1 if partner_bid is None else max(1, rules.min_team_bid - partner_bid)
        nil = rules.nil_allowed and (partner_bid is None or partner_bid >= rules.min_team_bid)
        if rules.suicide:
            if partner_bid is None:
                low = max(1, rules.min_team_bid)
            elif partner_bid == 0:
                nil = False
            else:
                room = 0
        numbers = (_NIL_BIT << room + 1) - (_NIL_BIT << low) if low <= room else 0
        return numbers | (_NIL_BIT if nil else 0)

    def _bid_problem(self, seat: Seat, bid: int) -> str | None:
        """Why ``seat`` may not bid ``bid`` (0 for nil and blind nil alike), or None."""
        if not self.rules.partnerships:
            return self._player_bid_problem(seat, bid)
        if self._bid_mask(seat) >> (BID_BASE + bid) & 1:
            return None
        rules = self.rules
        partner_bid = self.bids[partner(seat)]
        if bid == 0 and not rules.nil_allowed:
            return "Nil is not allowed at this table"
        if rules.mirror:
            return self._mirror_problem(seat)
        if rules.whiz:
            count = (self.hands[seat] & self.deck.suit_masks[SPADES]).bit_count()
            if bid not in (0, count):
                return f"Whiz: bid nil or your number of spades ({count})"
        if rules.suicide and partner_bid is not None:
            if partner_bid == 0 and bid == 0:
                return "Suicide: your partner bid nil, so you must bid a number"
            if partner_bid > 0 and bid > 0:
                return "Suicide: one partner must bid nil, so you must bid nil"
        if partner_bid is not None and partner_bid + bid > 13:
            return "Your team's bids may not add up to more than 13"
        if partner_bid is None and bid == 13:
            return "Without nil your partner must bid at least 1, so bid 12 or less"
        return f"Your team must bid at least {rules.min_team_bid}"

    def _player_bid_mask(self, seat: Seat) -> Mask:
        """Cutthroat: the bids open to ``seat``, who bids alone, as a mask over action ids."""
        rules = self.rules
        size = self.hand_size
        if rules.mirror:
            return 1 << bid_action(self._spade_count(seat))
        if rules.whiz:
            count = (self.hands[seat] & self.deck.suit_masks[SPADES]).bit_count()
            return _NIL_BIT | (1 << bid_action(count) if count else 0)
        mask = _PLAYER_BIDS[size] | (_NIL_BIT if rules.nil_allowed else 0)
        if rules.bid_total_not_tricks and seat == self.dealer:
            # The dealer bids last, and may not bring the total to the number of tricks.
            left = size - sum(bid or 0 for bid in self.bids)
            if left >= 0:
                mask &= ~(1 << bid_action(left))
        return mask

    def _player_bid_problem(self, seat: Seat, bid: int) -> str | None:
        if self._player_bid_mask(seat) >> bid_action(bid) & 1:
            return None
        if bid == 0 and not self.rules.nil_allowed:
            return "Nil is not allowed at this table"
        if self.rules.mirror:
            return self._mirror_problem(seat)
        if self.rules.whiz:
            count = (self.hands[seat] & self.deck.suit_masks[SPADES]).bit_count()
            return f"Whiz: bid nil or your number of spades ({count})"
        return (
            f"The bids may not add up to {self.hand_size}, the number of tricks: bid another number"
        )

    def _spade_count(self, seat: Seat) -> int:
        """The spades (the jokers among them) in ``seat``'s hand."""
        return (self.hands[seat] & self.deck.suit_masks[SPADES]).bit_count()

    def _mirror_problem(self, seat: Seat) -> str:
        """Why any bid but ``seat``'s number of spades is refused under Mirror."""
        count = self._spade_count(seat)
        if count == 0:
            return "Mirror: you hold no spades, so you bid nil"
        return f"Mirror: bid exactly your number of spades ({count})"

    def _exchange_problem(self, seat: Seat, card: Card) -> str | None:
        if self.phase is not Phase.EXCHANGE:
            return "There is no card exchange now"
        label = self.deck.label(card)
        if not self.hands[seat] >> card & 1:
            return f"You do not hold the {label}"
        if card in self.passes[seat]:
            return f"You are already passing the {label}"
        return None

    # ------------------------------------------------------------------ actions
    def apply(self, action: Action) -> Event:
        """Apply a legal action and return what happened (also kept in :attr:`events`), or
        raise :class:`IllegalAction` and change nothing."""
        if (
            type(action) is int
            and 0 <= action < NUM_ACTIONS
            and (self._legal if self._legal >= 0 else self._legal_mask()) >> action & 1
        ):
            if action < NUM_CARDS:
                return self._play(action, action)
            if self.phase is not _PLAYING:  # in the play the bits above are the jokers
                if action < EXCHANGE_BASE or action > CLAIM:
                    return self._bid(action)
                return self._pass(action - EXCHANGE_BASE)
        self.verify(action)  # raises unless the action is a sound claim or plays a joker
        if action == CLAIM:
            return self._claim()
        return self._play(action, action - JOKER_PLAY_BASE + NUM_CARDS)

    def apply_fast(self, action: Action) -> Event:
        """Apply an action the caller knows is legal (the bots' fast path)."""
        if action < NUM_CARDS:
            return self._play(action, action)
        if action == CLAIM:
            return self._claim()
        if action >= JOKER_PLAY_BASE:
            return self._play(action, action - JOKER_PLAY_BASE + NUM_CARDS)
        if action < EXCHANGE_BASE or action > CLAIM:
            return self._bid(action)
        return self._pass(action - EXCHANGE_BASE)

    def undo(self) -> Event:
        """Take back the last action and return its event; raises ``ValueError`` when no
        action has been taken in this hand.

        The hand is dealt again from its own start (the cards dealt, the dealer, the scores
        and bags before it) and its other actions applied once more: at most one hand's
        actions, whatever the match before it.

        >>> h = HandState.deal(Rules(), dealer=3, seed=7)
        >>> before = h.observation(0)
        >>> h.apply(bid_action(3)).action == h.undo().action, h.observation(0) == before
        (True, True)
        """
        if not self.events:
            raise ValueError("there is no action to take back in this hand")
        *kept, last = self.events
        again = HandState._start(
            self.rules,
            list(self.initial_hands),
            self.dealer,
            self.scores,
            self.bags,
            self.set_aside,
            self.out,
        )
        again.left_out = self.left_out
        for event in kept:
            again.apply(event.action)
        for name in HandState.__slots__:
            setattr(self, name, getattr(again, name))
        return last

    def _logged(self, event: Event) -> Event:
        self.events.append(event)
        return event

    def _bid(self, action: Action) -> Event:
        seat = self.current
        assert seat is not None
        self._legal = -1
        event = self._logged(_QUIET[seat][action])
        if action == LOOK:
            self.looked[seat] = True
            return event
        self.looked[seat] = True
        if action == BLIND_NIL:
            self.bids[seat] = 0
            self.blind[seat] = True
        else:
            self.bids[seat] = action - BID_BASE if action < CLAIM else action - HIGH_BID_BASE + 14
        if seat != self.dealer:
            self.current = self.seat_after[seat]
            return event
        if self.rules.blind_nil_exchange or self.rules.nil_pass:
            # One exchange a team, for its first blind nil, else its first nil.
            teams: set[int] = set()
            order = play_order(self.seat_after[seat], self.seat_count)
            for bidder in sorted(order, key=lambda b: not self.blind[b]):
                count = self._exchange_size(bidder)
                if count and team_of(bidder) not in teams:
                    teams.add(team_of(bidder))
                    self.exchange_queue += [bidder] * count + [partner(bidder)] * count
        if self.exchange_queue:
            self.phase = Phase.EXCHANGE
            self.current = self.exchange_queue[0]
        else:
            self.phase = Phase.PLAYING
            self.current = self.leader
        return event

    def _exchange_size(self, bidder: Seat) -> int:
        """The cards each partner passes after ``bidder``'s bid: 2 after a blind nil with
        the blind nil exchange, ``nil_pass`` after a nil, else none."""
        if self.blind[bidder]:
            return 2 if self.rules.blind_nil_exchange else 0
        return self.rules.nil_pass if self.bids[bidder] == 0 else 0

    def _exchanged(self, seat: Seat) -> bool:
        """Whether ``seat`` and its partner have both passed all their cards."""
        queue = self.exchange_queue
        return bool(self.passes[seat]) and seat not in queue and partner(seat) not in queue

    def _pass(self, card: Card) -> Event:
        self._legal = -1
        seat = self.exchange_queue.pop(0)
        event = self._logged(_QUIET[seat][EXCHANGE_BASE + card])
        self.passes[seat].append(card)
        mate = partner(seat)
        if self._exchanged(seat):
            given, taken = cards_mask(self.passes[seat]), cards_mask(self.passes[mate])
            self.hands[seat] = self.hands[seat] & ~given | taken
            self.hands[mate] = self.hands[mate] & ~taken | given
        if self.exchange_queue:
            self.current = self.exchange_queue[0]
        else:
            self.phase = Phase.PLAYING
            self.current = self.leader
        return event

    def _play(self, action: Action, card: Card) -> Event:
        """Play ``card`` by ``action`` (its id, but for the jokers of the 54-card deck, whose
        ids are other actions')."""
        seat = self.current
        assert seat is not None
        self._legal = -1
        bit = 1 << card
        self.hands[seat] ^= bit
        self.played |= bit
        trick = self.trick
        deck = self.deck
        if not trick or deck.takes[self.win_card][card]:
            self.win_seat = seat
            self.win_card = card
        if deck.trump[card]:
            self.broken = True
        trick.append(card)
        if len(trick) < self.trick_size:
            self.current = self.seat_after[seat]
            event = _QUIET[seat][action]
        else:
            winner = self.win_seat
            done = _new_trick((self.leader, tuple(trick), winner, self.out))
            self.tricks.append(done)
            self.tricks_won[winner] += 1
            self.trick = []
            self.leader = winner
            result = None
            if len(self.tricks) < self.hand_size:
                self.current = winner
            else:
                self.phase = Phase.OVER
                self.current = None
                result = self._score()
            event = _new_event((seat, action, done, result))
        self.events.append(event)
        return event

    # -------------------------------------------------------------------- claim
    def can_claim(self) -> bool:
        """Whether the seat to play must win every remaining trick, whatever the others
        hold and however they play, and so may claim them."""
        return self.phase is Phase.PLAYING and self._claim_problem() is None

    def _claim_problem(self) -> str | None:
        if self.phase is not Phase.PLAYING:
            return "You can only claim during the play"
        seat = self.current
        assert seat is not None
        hand = self.hands[seat]
        unseen = self.deck.cards & ~self.played & ~hand & ~self._public_set_aside()
        lead_free = self.rules.spades_lead_any_time
        if not self.trick:
            first = not self.tricks and self.rules.no_spades_first_trick
            spades_open = (self.broken or lead_free) and not first
            return None if self._leads_win_all(hand, unseen, spades_open) else _CLAIM_REFUSED
        for card in self.deck.chunks(self._legal_mask()):
            spades_open = self.broken or lead_free or self.deck.suit[card] == SPADES
            if self._wins_current_trick(card, unseen) and self._leads_win_all(
                hand & ~(1 << card), unseen, spades_open
            ):
                return None
        return _CLAIM_REFUSED

    def _top(self, mask: Mask, suit: int) -> int:
        """The highest power among the cards of ``suit`` in ``mask`` (-1 if none)."""
        power = self.deck.power
        best = -1
        for card in self.deck.chunks(mask & self.deck.suit_masks[suit]):
            best = max(best, power[card])
        return best

    def _leads_win_all(self, hand: Mask, unseen: Mask, spades_open: bool) -> bool:
        # Lead every spade from the top while the others may still hold spades, then
        # the side suits from the top. Each lead of a suit draws at least one of the
        # others' cards of it while they have any, so only the first as many leads as
        # they hold cards of the suit can meet opposition, and each must beat them all.
        masks = self.deck.suit_masks
        power = self.deck.power
        for suit in range(4):
            theirs = (unseen & masks[suit]).bit_count()
            if not theirs or not hand & masks[suit]:
                continue
            top = self._top(unseen, suit)
            mine = sorted((power[c] for c in self.deck.chunks(hand & masks[suit])), reverse=True)
            if any(p < top for p in mine[:theirs]):
                return False
        sides = hand & ~masks[SPADES]
        their_spades = (unseen & masks[SPADES]).bit_count()
        if sides and their_spades and not spades_open:
            # A side card must be led first, and a hand void in its suit may trump it.
            return False
        return not (sides and their_spades > (hand & masks[SPADES]).bit_count())

    def _wins_current_trick(self, card: Card, unseen: Mask) -> bool:
        deck = self.deck
        suit = deck.suit[card]
        if not deck.beats(card, self.win_card):
            return False
        if len(self.trick) == self.trick_size - 1:
            return True
        if suit != SPADES and unseen & deck.suit_masks[SPADES]:
            return False
        return deck.power[card] > self._top(unseen, suit)

    def _claim(self) -> Event:
        seat = self.current
        assert seat is not None
        self._legal = -1
        remaining = self.hand_size - len(self.tricks)
        self.tricks_won[seat] += remaining
        self.claimed_by = seat
        self.trick = []
        self.phase = Phase.OVER
        self.current = None
        return self._logged(_new_event((seat, CLAIM, None, self._score())))

    # ------------------------------------------------------------------ results
    def result(self) -> HandResult:
        """The scored hand, as the event of its last action holds it. Raises
        ``ValueError`` before the hand is over."""
        result = self.events[-1].result if self.phase is Phase.OVER else None
        if result is None:
            raise ValueError("the hand is not over yet")
        return result

    def _score(self) -> HandResult:
        """Score the hand that has just ended."""
        bids = self.bids  # every seat has bid by now: `or 0` only tells the type checker
        if not self.rules.partnerships:
            return score_players(
                self.rules,
                bids=tuple(bid or 0 for bid in bids),
                blind=tuple(self.blind),
                tricks=tuple(self.tricks_won),
                bags_before=self.bags,
                out=self.out,
            )
        return score_hand(
            self.rules,
            bids=(bids[0] or 0, bids[1] or 0, bids[2] or 0, bids[3] or 0),
            blind=(self.blind[0], self.blind[1], self.blind[2], self.blind[3]),
            tricks=(self.tricks_won[0], self.tricks_won[1], self.tricks_won[2], self.tricks_won[3]),
            bags_before=self.bags,
        )

    def describe(self, action: Action) -> str:
        """An action in words, with this hand's deck (jokers named as such)."""
        return action_str(action, jokers=self.deck.jokers)

    def _public_set_aside(self) -> Mask:
        """The card set aside if everyone knows which it is (the 2♣), else 0."""
        return self.set_aside if self.rules.set_aside == "two_of_clubs" else 0

    def observation(self, seat: Seat) -> Observation:
        """What ``seat`` may know now, and nothing more (a card set aside unseen, and the
        cards left out with a knocked-out seat, are in no observation). A seat that is out
        watches: it holds no cards."""
        n = self.seat_count
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
        hidden = not self.looked[seat]
        mine = self.current == seat
        mate = partner(seat)
        exchanged = self._exchanged(seat)
        return Observation(
            seat=seat,
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            current_player=self.current,
            hand=None if hidden else tuple(self.hand(seat)),
            hand_sizes=tuple(map(int.bit_count, self.hands)),
            bids=tuple(self.bids),
            blind=tuple(self.blind),
            tricks_won=tuple(self.tricks_won),
            leader=self.leader,
            trick=self.trick_plays,
            tricks=tuple(self.tricks),
            spades_broken=self.broken,
            scores=self.scores,
            bags=self.bags,
            legal_actions=tuple(self.legal_actions()) if mine else (),
            can_claim=mine and self.phase is Phase.PLAYING and self.can_claim(),
            blind_nil_eligible=self.eligible[seat],
            passed=tuple(self.passes[seat]),
            received=tuple(self.passes[mate]) if exchanged else (),
            set_aside=self._public_set_aside(),
            out=self.out,
        )


_CLAIM_REFUSED = "You cannot claim: the others might still win a trick"
