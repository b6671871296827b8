"""Card counting from one seat's observation, shared by the bots and the hints.

:class:`Knowledge` is built once a decision from an :class:`~spades.engine.observation.Observation`
and answers the questions a careful player asks: which cards are gone, who has shown a void,
which card is the highest left in a suit, who is winning the trick, how likely a card is to
hold, who still needs tricks, whose nil is alive, and how close each team is to a bag penalty.
It never sees a hidden card.

In cutthroat every player is a side of its own: :attr:`Knowledge.team` is then the seat
itself, :attr:`Knowledge.partner` is None, the contract and bag questions take a seat, and
the card set aside when everyone knows it (the 2♣ of three players) is never unseen. A
player knocked out of a three-handed match sits the hand out: it is nobody's opponent,
and its cards, like a card set aside unseen, are unseen cards that no player holds.

The chance estimates treat every unseen card as equally likely to sit with any seat that has
not shown a void in its suit, weighted by the number of cards each seat still holds. That is
the textbook approximation players use at the table; it ignores what the bids suggest.

>>> from spades.engine.rules import Rules
>>> from spades.engine.state import HandState
>>> from spades.engine.cards import parse_card, bid_action
>>> hands = [[parse_card(c) for c in row.split()] for row in (
...     "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
...     "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
...     "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
...     "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")]
>>> h = HandState.from_hands(Rules(), hands, dealer=3)
>>> for b in (13, 0, 0, 0):
...     event = h.apply(bid_action(b))
>>> k = Knowledge(h.observation(0))
>>> k.is_master(parse_card("AS")), k.need(0), k.nil_alive(1)
(True, 13, True)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from spades.engine.cards import (
    EXCHANGE_BASE,
    NIL,
    Action,
    Card,
    Mask,
    Seat,
    action_card,
    bid_action,
    bid_of,
    card_label,
    cards_mask,
)
from spades.engine.deck import play_order
from spades.engine.observation import Observation
from spades.engine.rules import Rules
from spades.engine.state import SPADES, Deck, deck_for, trick_winner

SIDE_SUITS: Final = (0, 1, 2)
# The trick-taking rank of an ace (a king is one below; the jokers rank above).
_ACE_POWER: Final = 12


def rules_deck(rules: Rules) -> Deck:
    """The deck of a table's rules: the jokers deck, the 54-card deck or the standard one."""
    return deck_for(rules.joker_deck, rules.jokers_added)


def touching(deck: Deck, a: Card, b: Card, others: Mask) -> bool:
    """Whether ``a`` and ``b``, of one suit, are the same card to the seat that holds
    them: none of ``others`` ranks between the two."""
    low, high = sorted((deck.power[a], deck.power[b]))
    between = others & deck.suit_masks[deck.suit[a]]
    return not any(low < deck.power[c] < high for c in deck.chunks(between))


class Knowledge:
    """Everything one seat can infer about the hand from its observation."""

    __slots__ = (
        "obs",
        "deck",
        "seat",
        "seats_in",
        "after",
        "sides",
        "elsewhere",
        "partner",
        "team",
        "rivals",
        "opponents",
        "hand",
        "played",
        "unseen",
        "voids",
        "known",
        "led_suit",
        "winner",
    )

    obs: Observation
    deck: Deck
    seat: Seat
    #: The seats that play this hand, in seat order.
    seats_in: tuple[Seat, ...]
    #: The other seats that play, in play order from this seat's left.
    after: tuple[Seat, ...]
    #: The seats of each side (see :meth:`~spades.engine.rules.Rules.sides`).
    sides: tuple[tuple[Seat, ...], ...]
    #: How many unseen cards are in no hand that plays (set aside unseen, or left out).
    elsewhere: int
    #: The partner's seat, or None in cutthroat.
    partner: Seat | None
    #: This seat's side: its team, or in cutthroat the seat itself.
    team: int
    #: The other sides with a seat in play.
    rivals: tuple[int, ...]
    #: The seats of the other sides, in play order from this seat's left.
    opponents: tuple[Seat, ...]
    hand: Mask
    played: Mask
    unseen: Mask
    voids: tuple[int, ...]
    #: The cards this seat knows another seat holds (one mask a seat).
    known: tuple[Mask, ...]
    led_suit: int | None
    winner: tuple[Seat, Card] | None

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.deck = rules_deck(obs.rules)
        self.seat = obs.seat
        self.seats_in = obs.seats_in
        rules = obs.rules
        self.partner = obs.partner
        self.team = obs.team
        self.sides = rules.sides()
        self.rivals = tuple(
            side
            for side, seats in enumerate(self.sides)
            if side != self.team and any(seat in self.seats_in for seat in seats)
        )
        self.after = tuple(
            s for s in play_order(self.seat, rules.players, obs.out) if s != self.seat
        )
        self.opponents = tuple(s for s in self.after if s != self.partner)
        self.hand = obs.hand_mask
        self.played = obs.played_mask
        self.unseen = self.deck.cards & ~self.played & ~self.hand & ~obs.set_aside
        sizes = obs.hand_sizes
        held = sum(sizes) - (sizes[self.seat] if obs.hand is not None else 0)
        self.elsewhere = self.unseen.bit_count() - held
        self.voids = obs.known_voids()
        # The cards this seat passed in a blind-nil exchange sit with the partner
        # until they show up on the table.
        known = [0] * rules.players
        if obs.received and self.partner is not None:
            known[self.partner] = cards_mask(obs.passed) & self.unseen
        self.known = tuple(known)
        self.led_suit = self.deck.suit[obs.trick[0][1]] if obs.trick else None
        self.winner = self._trick_winner()

    # ------------------------------------------------------------------ cards
    def suit(self, card: Card) -> int:
        """The effective suit of a card (a joker is a spade)."""
        return self.deck.suit[card]

    def power(self, card: Card) -> int:
        """The trick-taking rank of a card within its suit (jokers above the ace)."""
        return self.deck.power[card]

    def label(self, card: Card) -> str:
        """The card as people write it, such as ``"K♥"``."""
        return card_label(card, jokers=self.deck.jokers)

    def cards(self, mask: Mask, suit: int | None = None) -> list[Card]:
        """The cards of ``mask`` (only ``suit`` if given), lowest power first."""
        if suit is not None:
            mask &= self.deck.suit_masks[suit]
        return sorted(self.deck.chunks(mask), key=self.deck.power.__getitem__)

    def count(self, mask: Mask, suit: int) -> int:
        """How many cards of ``suit`` are in ``mask``."""
        return (mask & self.deck.suit_masks[suit]).bit_count()

    def legal_cards(self) -> list[Card]:
        """The cards this seat may play now: its legal play actions as card ids (the
        jokers of the 54-card deck are played by actions of their own, 126 and 127)."""
        return [card for a in self.obs.legal_actions if (card := action_card(a)) is not None]

    def my_cards(self, suit: int | None = None) -> list[Card]:
        """This seat's cards (of ``suit`` if given), lowest first."""
        return self.cards(self.hand, suit)

    def unseen_count(self, suit: int) -> int:
        """How many cards of ``suit`` the other seats may still hold."""
        return self.count(self.unseen, suit)

    def highest_unplayed(self, suit: int) -> Card | None:
        """The highest card of ``suit`` not yet played (it may be in this hand)."""
        left = self.cards((self.unseen | self.hand) & self.deck.suit_masks[suit])
        return left[-1] if left else None

    def higher_unseen(self, card: Card) -> list[Card]:
        """The unseen cards of the same suit that outrank ``card``."""
        power = self.deck.power[card]
        return [c for c in self.cards(self.unseen, self.suit(card)) if self.deck.power[c] > power]

    def lower_unseen(self, card: Card) -> list[Card]:
        """The unseen cards of the same suit below ``card``."""
        power = self.deck.power[card]
        return [c for c in self.cards(self.unseen, self.suit(card)) if self.deck.power[c] < power]

    def is_master(self, card: Card) -> bool:
        """Whether no unseen card of its suit outranks ``card`` (the top card left)."""
        return not self.higher_unseen(card)

    # ------------------------------------------------------------------ trick
    def _trick_winner(self) -> tuple[Seat, Card] | None:
        return trick_winner(self.deck, self.obs.trick) if self.obs.trick else None

    def beats(self, card: Card, other: Card) -> bool:
        """Whether ``card`` played after ``other`` would beat it (the engine's rule)."""
        return self.deck.beats(card, other)

    def wins_now(self, card: Card) -> bool:
        """Whether ``card`` would be winning the trick right after this seat plays it."""
        return self.winner is None or self.beats(card, self.winner[1])

    def still_to_play(self) -> list[Seat]:
        """The seats that play to the current trick after this one, in order."""
        return list(self.after[: len(self.seats_in) - 1 - len(self.obs.trick)])

    def played_in_trick(self, seat: Seat) -> Card | None:
        """The card ``seat`` has played to the current trick, if any."""
        for who, card in self.obs.trick:
            if who == seat:
                return card
        return None

    # ------------------------------------------------------------- inference
    def is_void(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` has shown it holds no card of ``suit`` (or none can be left)."""
        if seat == self.seat:
            return not self.count(self.hand, suit)
        return bool(self.voids[seat] >> suit & 1) or not self.count(self.unseen, suit)

    def _share(self, seat: Seat, card: Card) -> float:
        """The chance that ``seat`` (not this one) holds the unseen ``card``."""
        for other in self.seats_in:
            if self.known[other] >> card & 1:
                return 1.0 if other == seat else 0.0
        suit = self.deck.suit[card]
        if self.voids[seat] >> suit & 1:
            return 0.0
        sizes = self.obs.hand_sizes
        # Unseen cards in no hand that plays are one more place an unseen card may be.
        pool = self.elsewhere
        for other in self.seats_in:
            if other != self.seat and not self.voids[other] >> suit & 1:
                pool += sizes[other] - self.known[other].bit_count()
        free = sizes[seat] - self.known[seat].bit_count()
        return free / pool if pool > 0 else 0.0

    def p_holds_any(self, seat: Seat, cards: list[Card]) -> float:
        """The chance that ``seat`` holds at least one of the unseen ``cards``."""
        if seat == self.seat:
            return 1.0 if any(self.hand >> c & 1 for c in cards) else 0.0
        miss = 1.0
        for card in cards:
            if self.unseen >> card & 1:
                miss *= 1.0 - self._share(seat, card)
        return 1.0 - miss

    def p_void(self, seat: Seat, suit: int) -> float:
        """The chance that ``seat`` holds no card of ``suit`` now."""
        if self.is_void(seat, suit):
            return 1.0
        return 1.0 - self.p_holds_any(seat, self.cards(self.unseen, suit))

    def p_beaten_by(self, seat: Seat, card: Card, led: int) -> float:
        """The chance that ``seat``, playing later to a trick led in ``led``, can beat
        ``card`` (by following higher, or by trumping when out of the led suit)."""
        suit = self.deck.suit[card]
        higher = self.higher_unseen(card)
        if suit == led:
            over = self.p_holds_any(seat, higher) if higher else 0.0
            if led == SPADES:
                return over
            spades = self.cards(self.unseen, SPADES)
            ruff = self.p_void(seat, led) * self.p_holds_any(seat, spades) if spades else 0.0
            return min(1.0, over + ruff)
        if suit == SPADES:
            return self.p_void(seat, led) * self.p_holds_any(seat, higher) if higher else 0.0
        return 1.0

    def p_win(self, card: Card, *, against: tuple[Seat, ...] | None = None) -> float:
        """The chance that ``card``, played now, takes the trick.

        Only the later seats in ``against`` are assumed to try to beat it (by default the
        opponents still to play; a partner is glad to let it win).
        """
        if not self.wins_now(card):
            return 0.0
        led = self.led_suit if self.led_suit is not None else self.deck.suit[card]
        later = self.still_to_play()
        rivals = [s for s in later if s != self.partner] if against is None else list(against)
        chance = 1.0
        for seat in later:
            if seat in rivals:
                chance *= 1.0 - self.p_beaten_by(seat, card, led)
        return chance

    def p_current_holds(self) -> float:
        """The chance that the card winning the trick now stays the winner against the
        opponents of its player who are still to play."""
        if self.winner is None:
            return 0.0
        seat, card = self.winner
        led = self.led_suit if self.led_suit is not None else self.deck.suit[card]
        side_of = self.obs.rules.side_of
        side = side_of(seat)
        chance = 1.0
        for later in self.still_to_play():
            if side_of(later) != side:
                chance *= 1.0 - self.p_beaten_by(later, card, led)
        return chance

    def partner_sure_winner(self) -> bool:
        """Whether the partner is winning the current trick with a card that must win it,
        whatever the opponents still to play hold."""
        return (
            self.winner is not None
            and self.winner[0] == self.partner
            and self.p_current_holds() >= 1.0
        )

    def sure_winner(self, card: Card) -> bool:
        """Whether ``card`` must take the trick if played now, whatever the others hold
        (partners included)."""
        return self.p_win(card, against=tuple(self.still_to_play())) >= 1.0

    # ----------------------------------------------------------- contracts
    @property
    def tricks_left(self) -> int:
        """The tricks still to be won, the current one included."""
        return self.obs.rules.hand_size - len(self.obs.tricks)

    def partner_bid(self) -> int | None:
        """The partner's bid (None before it bids, and always in cutthroat)."""
        return None if self.partner is None else self.obs.bids[self.partner]

    def is_nil(self, seat: Seat | None) -> bool:
        """Whether ``seat`` bid nil (blind or not); False for no seat."""
        return seat is not None and self.obs.bids[seat] == 0

    def nil_alive(self, seat: Seat | None) -> bool:
        """Whether ``seat`` bid nil and has not taken a trick yet; False for no seat (the
        partner of cutthroat)."""
        return seat is not None and self.obs.bids[seat] == 0 and self.obs.tricks_won[seat] == 0

    def team_bid(self, team: int) -> int:
        """The side's numeric contract (nil bids add nothing)."""
        bids = self.obs.bids
        return sum(bids[s] or 0 for s in self.sides[team])

    def team_tricks(self, team: int) -> int:
        """The tricks that count toward the side's contract so far."""
        obs = self.obs
        count_nil = obs.rules.nil_tricks_count_toward_bid
        return sum(obs.tricks_won[s] for s in self.sides[team] if count_nil or obs.bids[s] != 0)

    def need(self, team: int) -> int:
        """Tricks the team still needs for its contract (zero or less once made)."""
        return self.team_bid(team) - self.team_tricks(team)

    def bags_room(self, team: int) -> int:
        """How many more bags the team can take before the next bag penalty (99 when
        bags are off)."""
        limit = self.obs.rules.bag_limit
        return 99 if limit is None else limit - self.obs.bags[team]

    def bag_pressure(self, team: int) -> float:
        """From 0 (no bags on the count) to 1 (the next bag costs the penalty)."""
        limit = self.obs.rules.bag_limit
        if limit is None or self.obs.rules.bag_penalty == 0:
            return 0.0
        return min(1.0, self.obs.bags[team] / max(1, limit - 1))

    def best_rival_score(self) -> int:
        """The highest score of the other sides in play."""
        scores = self.obs.scores
        return max(scores[side] for side in self.rivals)

    def deficit(self) -> int:
        """How far this seat's side trails the best other side (negative when it leads)."""
        return self.best_rival_score() - self.obs.scores[self.team]


# ------------------------------------------------------------------ hand value
class HandValue(NamedTuple):
    """A bidder's reading of 13 cards: the tricks they should take and the nil risk.

    ``shares`` are the cards the count rests on, each with its share of a trick (spades
    first), ``length`` the tricks expected from long spades, ``ruffs`` those from
    trumping short side suits, and ``dangers`` the cards most likely to win a trick
    against the holder's will.
    """

    tricks: float
    shares: tuple[tuple[Card, float], ...]
    length: float
    ruffs: float
    nil_danger: float
    dangers: tuple[Card, ...]


# Trick value of a side-suit ace, king and queen by suit length (index = length, capped).
_ACE_VALUE: Final = (0.0, 0.95, 0.95, 0.95, 0.95, 0.85, 0.8, 0.6)
_KING_WITH_ACE: Final = (0.0, 0.0, 0.9, 0.9, 0.85, 0.7, 0.4, 0.3)
_KING_ALONE: Final = (0.0, 0.15, 0.6, 0.65, 0.55, 0.4, 0.2, 0.1)
# Nil danger of a side-suit ace, king, queen and jack by suit length.
_ACE_DANGER: Final = (0.0, 1.0, 0.95, 0.9, 0.8, 0.75, 0.7, 0.7)
_KING_DANGER: Final = (0.0, 0.85, 0.55, 0.35, 0.25, 0.25, 0.3, 0.3)
_QUEEN_DANGER: Final = (0.0, 0.55, 0.3, 0.15, 0.1, 0.1, 0.15, 0.15)
_JACK_DANGER: Final = (0.0, 0.3, 0.15, 0.08, 0.05, 0.05, 0.05, 0.05)
# Nil danger of the spades by their place from the top (ace, or big joker, first).
_SPADE_DANGER: Final = (1.5, 1.2, 0.7, 0.4, 0.25, 0.12, 0.06)


def _top_power(deck: Deck, suit: int) -> int:
    return max(deck.power[c] for c in deck.chunks(deck.suit_masks[suit]))


def evaluate_hand(cards: tuple[Card, ...] | list[Card], deck: Deck) -> HandValue:
    """Estimate the tricks a hand takes and how risky it is for nil.

    High cards count by their place in the suit and the suit's length (a long suit's
    honours are more likely to be trumped), spades beyond the third count as length
    tricks, and short side suits count as ruffs for the spades left over.

    >>> from spades.engine.cards import parse_card
    >>> from spades.engine.state import deck_for
    >>> ace_king = [parse_card(c) for c in "AS KS 4S AH KH 3H AD 7D 5D AC 9C 6C 2C".split()]
    >>> value = evaluate_hand(ace_king, deck_for(None))
    >>> round(value.tricks), [(card_label(c), share) for c, share in value.shares[:3]]
    (6, [('A♠', 1.0), ('K♠', 0.85), ('A♣', 0.95)])
    """
    by_suit: list[list[Card]] = [[], [], [], []]
    for card in cards:
        by_suit[deck.suit[card]].append(card)
    for suit_cards in by_suit:
        suit_cards.sort(key=deck.power.__getitem__, reverse=True)
    tricks = 0.0
    danger = 0.0
    shares: list[tuple[Card, float]] = []
    dangers: list[Card] = []

    spades = by_suit[SPADES]
    count = len(spades)
    top = _top_power(deck, SPADES)
    honours = 0.0
    honour_cards = 0
    for card in spades:
        place = top - deck.power[card]
        if place < len(_SPADE_DANGER):
            risk = _SPADE_DANGER[place]
            danger += risk
            if risk >= 0.4:
                dangers.append(card)
        value = _spade_honour(place, count)
        if value:
            honours += value
            honour_cards += 1
            shares.append((card, value))
    length = 0.75 * max(0, count - max(3, honour_cards)) if count >= 4 else 0.0
    if count >= 4:
        danger += 0.45 * (count - 3)
    tricks += honours + length
    spare = max(0, count - round(honours + length))

    ruffs = 0.0
    for suit in SIDE_SUITS:
        suit_cards = by_suit[suit]
        size = min(len(suit_cards), 7)
        ranks = [12 - deck.power[c] for c in suit_cards]
        for card, place in zip(suit_cards, ranks, strict=True):
            value = 0.0
            if place == 0:
                value = _ACE_VALUE[size]
                risk = _ACE_DANGER[size]
            elif place == 1:
                value = (_KING_WITH_ACE if 0 in ranks else _KING_ALONE)[size]
                risk = _KING_DANGER[size]
            elif place == 2:
                above = sum(1 for r in ranks if r < 2)
                if size >= 3:
                    value = (0.2, 0.4, 0.6)[above] * (0.5 if size >= 5 else 1.0)
                risk = _QUEEN_DANGER[size]
            elif place == 3:
                risk = _JACK_DANGER[size]
            else:
                # A bare ten or nine must be played the first time the suit is led.
                risk = (0.0, 0.3, 0.1)[min(size, 2)] if place <= 5 else 0.0
            # Low cards in the same suit let a nil bidder play under a high one.
            lows = sum(1 for r in ranks if r >= 7)
            risk *= 0.75**lows
            tricks += value
            danger += risk
            if value:
                shares.append((card, value))
            if risk >= 0.3:
                dangers.append(card)
        if spare:
            chances = (2.0, 1.0, 0.35)[len(suit_cards)] if len(suit_cards) < 3 else 0.0
            used = min(float(spare), chances)
            ruffs += 0.6 * used
            spare -= round(used)
    tricks += ruffs
    return HandValue(
        tricks=tricks,
        shares=tuple(shares),
        length=length,
        ruffs=ruffs,
        nil_danger=danger,
        dangers=tuple(dangers),
    )


def unguarded_honours(cards: tuple[Card, ...] | list[Card], deck: Deck) -> tuple[Card, ...]:
    """The cards that rule out a nil bid: every ace (and joker), which wins a trick
    whenever its suit is led and nobody trumps, and every king with fewer than two
    smaller cards of its suit to play first, which must be played by the second or
    third round of the suit and then wins unless the ace falls on it.

    >>> from spades.engine.cards import parse_card
    >>> hand = [parse_card(c) for c in "KH 5H KD 7D 3D 2S".split()]
    >>> [card_label(c) for c in unguarded_honours(hand, deck_for(None))]
    ['K♥']
    """
    found = []
    for card in cards:
        power = deck.power[card]
        if power >= _ACE_POWER:
            found.append(card)
        elif power == _ACE_POWER - 1:
            suit = deck.suit[card]
            guards = sum(1 for c in cards if deck.suit[c] == suit and deck.power[c] < power)
            if guards < 2:
                found.append(card)
    return tuple(found)


def _spade_honour(place: int, count: int) -> float:
    """The trick value of the spade ``place`` steps below the top, in ``count`` spades."""
    if place == 0:
        return 1.0
    if place == 1:
        return 0.85 if count >= 2 else 0.3
    if place == 2:
        return 0.75 if count >= 3 else (0.35 if count == 2 else 0.1)
    if place == 3:
        return 0.6 if count >= 4 else (0.3 if count == 3 else 0.0)
    return 0.0


# ------------------------------------------------------- shared small decisions
def closest_bid(legal: tuple[Action, ...], wanted: int) -> Action:
    """The legal numeric bid nearest to ``wanted`` tricks (the lower one on a tie);
    nil when the house rules allow nothing else."""
    numbers = [b for a in legal if (b := bid_of(a))]
    if not numbers:
        return NIL
    return bid_action(min(numbers, key=lambda n: (abs(n - wanted), n)))


def passes_for_nil(obs: Observation) -> bool:
    """Whether the observing seat passes in an exchange as the nil bidder: it bid blind
    nil, or (the nil pass) it bid nil and its partner did not bid blind nil."""
    seat = obs.seat
    if obs.blind[seat]:
        return True
    mate = obs.rules.partner(seat)
    return obs.bids[seat] == 0 and mate is not None and not obs.blind[mate]


def exchange_pass(k: Knowledge) -> Action:
    """The card to pass in the blind-nil exchange or the nil pass.

    The nil bidder gives away its most dangerous card (the highest, a spade first on a
    tie of rank), and its partner gives the nil bidder its lowest side card, the cards a
    nil bidder ducks with.
    """
    legal = [a - EXCHANGE_BASE for a in k.obs.legal_actions]
    deck = k.deck

    def danger(card: Card) -> tuple[int, int]:
        return deck.power[card], deck.suit[card] == SPADES

    if passes_for_nil(k.obs):
        return EXCHANGE_BASE + max(legal, key=danger)
    return EXCHANGE_BASE + min(legal, key=danger)
