"""Cards, suits and ranks as plain ints, hands as bitmasks, and actions.

A card is an ``int`` from 0 to 51: ``suit = card // 13`` (clubs, diamonds, hearts,
spades) and ``rank = card % 13`` (0 is the two, 12 the ace). The 54-card deck of three
players (``Rules.jokers_added``) adds the Little Joker (52) and the Big Joker (53).

An action that plays a card is the card id itself, except for those two jokers: their ids
are the actions of the bids nil and 1, so they are played by actions of their own
(:func:`card_action` and :func:`action_card` turn one into the other).

>>> parse_card("AS"), parse_card("10h"), parse_card("A♠")
(51, 34, 51)
>>> card_str(51), card_label(51)
('AS', 'A♠')
>>> hand_cards(cards_mask([parse_card("2C"), parse_card("KD")]))
[0, 24]
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final, Literal

Card = int
Action = int
Seat = int
Mask = int


class Suit(IntEnum):
    """The four suits in id order; spades are always trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3


class Rank(IntEnum):
    """Ranks from the two (0) to the ace (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12


NUM_CARDS: Final = 52
SEAT_NAMES: Final = ("North", "East", "South", "West")
#: North and South, the seats named in code: a person alone at a table sits South.
NORTH: Final = 0
SOUTH: Final = 2
SEAT_LETTERS: Final = "NESW"
SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_LETTERS: Final = "23456789TJQKA"
RANK_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)

# Actions: 0..51 play a card, then bids, blind nil, looking at the cards (declining
# blind nil), passing a card in the blind-nil exchange, and claiming the rest. The bids
# of 14 to 18 tricks, which only three-handed cutthroat has, come after the claim, and the
# plays of the two jokers added to the 54-card deck after them, so that every action of
# the games before keeps its id.
BID_BASE: Final = 52
NIL: Final = BID_BASE
BLIND_NIL: Final = 66
LOOK: Final = 67
EXCHANGE_BASE: Final = 68
CLAIM: Final = EXCHANGE_BASE + NUM_CARDS
HIGH_BID_BASE: Final = CLAIM + 1
MAX_BID: Final = 18
JOKER_PLAY_BASE: Final = HIGH_BID_BASE + MAX_BID - 13
NUM_ACTIONS: Final = JOKER_PLAY_BASE + 2

#: The rankings of the jokers deck (``Rules.joker_ranking``): "ace", the Big Joker, the
#: Little Joker, then the A♠, with the 2♣ and 2♦ out; "deuces", the Big Joker, the Little
#: Joker, the 2♦ (a trump) and the 2♠ above the A♠, with the 2♣ and 2♥ out; "ace_no_2h",
#: the Big Joker, the Little Joker, then the A♠, with the 2♣ and 2♥ out.
JokerRanking = Literal["ace", "deuces", "ace_no_2h"]
JOKER_RANKINGS: Final[tuple[JokerRanking, ...]] = ("ace", "deuces", "ace_no_2h")

# In the jokers deck the Big Joker takes the place of the 2♣ and the Little Joker that
# of the card it replaces: the 2♦ in the ranking "ace", the 2♥ in the others. Both are
# spades that rank above the ace.
BIG_JOKER: Final = 0
LITTLE_JOKER: Final = 13
LITTLE_JOKER_OF_HEARTS: Final = 26
# In the 54-card deck the jokers are added as cards of their own, again spades above the
# ace: the Little Joker, then the Big Joker.
ADDED_LITTLE_JOKER: Final = 52
ADDED_BIG_JOKER: Final = 53
#: Card ids run from 0 to 53 (the 54-card deck); the standard deck holds the first 52.
MAX_CARDS: Final = 54

FULL_DECK: Final = (1 << NUM_CARDS) - 1
ADDED_JOKERS: Final = 1 << ADDED_LITTLE_JOKER | 1 << ADDED_BIG_JOKER
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

# CARDS_IN_CHUNK[s][m] lists the card ids of suit s whose rank bits are set in m.
CARDS_IN_CHUNK: Final = tuple(
    tuple(tuple(13 * s + r for r in range(13) if m >> r & 1) for m in range(1 << 13))
    for s in range(4)
)

_ADDED_JOKER_NAMES: Final = {"BJ": ADDED_BIG_JOKER, "LJ": ADDED_LITTLE_JOKER}
#: ``_ADDED_JOKERS_IN[mask >> 52]``: the added jokers in a card mask.
_ADDED_JOKERS_IN: Final = (
    (),
    (ADDED_LITTLE_JOKER,),
    (ADDED_BIG_JOKER,),
    (ADDED_LITTLE_JOKER, ADDED_BIG_JOKER),
)
#: Code, label and spoken name of the two added jokers, by card id less 52.
_ADDED_CODES: Final = ("LJ", "BJ")
_ADDED_LABELS: Final = ("Little Joker", "Big Joker")


def suit_of(card: Card) -> int:
    """The printed suit of a card (ignores jokers)."""
    return card // 13


def rank_of(card: Card) -> int:
    """The printed rank of a card, 0 (two) to 12 (ace)."""
    return card % 13


def little_joker(ranking: JokerRanking) -> Card:
    """The id of the Little Joker under a joker ranking: that of the card it replaces.

    >>> little_joker("ace"), little_joker("deuces"), little_joker("ace_no_2h")
    (13, 26, 26)
    """
    return LITTLE_JOKER_OF_HEARTS if ranking in ("deuces", "ace_no_2h") else LITTLE_JOKER


def _joker_code(card: Card, jokers: JokerRanking | None) -> str | None:
    """``"BJ"`` or ``"LJ"`` for a card of the jokers deck that is a joker, else None."""
    if not jokers:
        return None
    if card == BIG_JOKER:
        return "BJ"
    return "LJ" if card == little_joker(jokers) else None


def parse_card(
    text: str, *, jokers: JokerRanking | None = None, jokers_added: bool = False
) -> Card:
    """Parse ``"AS"``, ``"10h"``, ``"T♥"`` or ``"A♠"`` into a card id.

    With ``jokers`` (the table's joker ranking), ``"BJ"`` and ``"LJ"`` name the jokers
    that replace the 2♣ and the 2♦ or 2♥, and with ``jokers_added=True`` those added to
    the 54-card deck.

    >>> parse_card("qd"), parse_card("BJ", jokers="ace"), parse_card("BJ", jokers_added=True)
    (23, 0, 53)
    >>> parse_card("LJ", jokers="ace"), parse_card("LJ", jokers="deuces")
    (13, 26)
    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    ValueError: not a card: '1S' (use a rank 2-10, J, Q, K, A and a suit C, D, H, S)
    """
    cleaned = text.strip().upper()
    if jokers and cleaned in ("BJ", "LJ"):
        return BIG_JOKER if cleaned == "BJ" else little_joker(jokers)
    if jokers_added and cleaned in _ADDED_JOKER_NAMES:
        return _ADDED_JOKER_NAMES[cleaned]
    if len(cleaned) >= 2:
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        if rank_text == "10":
            rank_text = "T"
        suit = SUIT_LETTERS.find(suit_text)
        if suit < 0:
            suit = SUIT_SYMBOLS.find(suit_text)
        if len(rank_text) == 1 and rank_text in RANK_LETTERS and suit >= 0:
            card = 13 * suit + RANK_LETTERS.index(rank_text)
            if _joker_code(card, jokers) is not None:
                # The jokers took these ids; reading "2C" as the Big Joker would be a trap.
                raise ValueError(f"not a card in the jokers deck: {text!r} (use BJ or LJ)")
            return card
    raise ValueError(f"not a card: {text!r} (use a rank 2-10, J, Q, K, A and a suit C, D, H, S)")


def _check(card: Card) -> None:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < MAX_CARDS:
        raise ValueError(f"not a card id: {card!r} (cards are 0..51, and 52..53 the added jokers)")


def card_str(card: Card, *, jokers: JokerRanking | None = None) -> str:
    """The two-letter code of a card, such as ``"AS"`` or ``"TD"`` (``"BJ"`` and ``"LJ"``
    for the jokers of the ranking ``jokers``; the added jokers need no ranking).

    >>> card_str(0), card_str(0, jokers="ace"), card_str(53)
    ('2C', 'BJ', 'BJ')
    >>> card_str(13, jokers="ace"), card_str(13, jokers="deuces"), card_str(26, jokers="deuces")
    ('LJ', '2D', 'LJ')
    """
    _check(card)
    if card >= NUM_CARDS:
        return _ADDED_CODES[card - NUM_CARDS]
    code = _joker_code(card, jokers)
    if code is not None:
        return code
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def card_label(card: Card, *, jokers: JokerRanking | None = None) -> str:
    """A label for people, such as ``"A♠"``, ``"10♥"`` or ``"Little Joker"``."""
    _check(card)
    if card >= NUM_CARDS:
        return _ADDED_LABELS[card - NUM_CARDS]
    code = _joker_code(card, jokers)
    if code is not None:
        return _ADDED_LABELS[_ADDED_CODES.index(code)]
    rank = RANK_LETTERS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


def card_name(card: Card, *, jokers: JokerRanking | None = None) -> str:
    """A spoken name, such as ``"ace of spades"`` or ``"big joker"``."""
    _check(card)
    if card >= NUM_CARDS or _joker_code(card, jokers) is not None:
        return card_label(card, jokers=jokers).lower()
    return f"{RANK_NAMES[card % 13]} of {SUIT_NAMES[card // 13]}"


def cards_mask(cards: Iterable[Card]) -> Mask:
    """The bitmask of a collection of card ids."""
    mask = 0
    for card in cards:
        _check(card)
        mask |= 1 << card
    return mask


def hand_cards(mask: Mask) -> list[Card]:
    """The sorted card ids of a bitmask."""
    return [
        *CARDS_IN_CHUNK[0][mask & 0x1FFF],
        *CARDS_IN_CHUNK[1][mask >> 13 & 0x1FFF],
        *CARDS_IN_CHUNK[2][mask >> 26 & 0x1FFF],
        *CARDS_IN_CHUNK[3][mask >> 39 & 0x1FFF],
        *_ADDED_JOKERS_IN[mask >> NUM_CARDS],
    ]


def bid_action(tricks: int) -> Action:
    """The action that bids ``tricks`` (0 is nil; above 13 only in three-handed play).

    >>> bid_action(0), bid_action(13), bid_action(14), bid_action(18)
    (52, 65, 121, 125)
    """
    if not 0 <= tricks <= MAX_BID:
        raise ValueError(f"a bid is 0 (nil) to {MAX_BID} tricks, not {tricks}")
    return BID_BASE + tricks if tricks <= 13 else HIGH_BID_BASE + tricks - 14


def is_card(action: Action) -> bool:
    """Whether ``action`` plays a card (:func:`action_card` says which).

    >>> is_card(parse_card("AS")), is_card(bid_action(3)), is_card(CLAIM)
    (True, False, False)
    >>> is_card(card_action(ADDED_BIG_JOKER)), is_card(ADDED_BIG_JOKER)  # 53 bids 1
    (True, False)
    """
    return 0 <= action < NUM_CARDS or JOKER_PLAY_BASE <= action < NUM_ACTIONS


def card_action(card: Card) -> Action:
    """The action that plays ``card``: the card id itself, or for the jokers added to the
    54-card deck (whose ids are bidding actions) an action of their own.

    >>> card_action(parse_card("AS")), card_action(ADDED_LITTLE_JOKER), card_action(53)
    (51, 126, 127)
    """
    _check(card)
    return card if card < NUM_CARDS else card - NUM_CARDS + JOKER_PLAY_BASE


def action_card(action: Action) -> Card | None:
    """The card an action plays, or None for any other action.

    >>> action_card(51), action_card(126), action_card(127), action_card(NIL)
    (51, 52, 53, None)
    """
    if 0 <= action < NUM_CARDS:
        return action
    if JOKER_PLAY_BASE <= action < NUM_ACTIONS:
        return action - JOKER_PLAY_BASE + NUM_CARDS
    return None


def bid_of(action: Action) -> int | None:
    """The tricks a bid action bids (0 is nil), or None for any other action.

    Blind nil is its own action, not a number bid, so it gives None as well.

    >>> bid_of(NIL), bid_of(bid_action(13)), bid_of(BLIND_NIL), bid_of(parse_card("AS"))
    (0, 13, None, None)
    >>> bid_of(bid_action(18)), bid_of(CLAIM), bid_of(card_action(ADDED_BIG_JOKER))
    (18, None, None)
    """
    if BID_BASE <= action <= BID_BASE + 13:
        return action - BID_BASE
    return action - HIGH_BID_BASE + 14 if HIGH_BID_BASE <= action < JOKER_PLAY_BASE else None


def passed_card(action: Action) -> Card | None:
    """The card an exchange action passes to the partner, or None for any other action.

    >>> passed_card(EXCHANGE_BASE + parse_card("AS")), passed_card(parse_card("AS"))
    (51, None)
    """
    return action - EXCHANGE_BASE if EXCHANGE_BASE <= action < CLAIM else None


def bid_label(bid: int | None, blind: bool = False) -> str:
    """A seat's bid in words: ``—`` before it bids, ``nil``, ``blind nil`` or the number.

    >>> bid_label(None), bid_label(0), bid_label(0, blind=True), bid_label(4)
    ('—', 'nil', 'blind nil', '4')
    """
    if bid is None:
        return "—"
    if bid == 0:
        return "blind nil" if blind else "nil"
    return str(bid)


def action_str(action: Action, *, jokers: JokerRanking | None = None) -> str:
    """Describe an action for people: ``"play A♠"``, ``"bid 4"``, ``"bid nil"``.

    >>> action_str(card_action(ADDED_BIG_JOKER)), action_str(bid_action(18))
    ('play Big Joker', 'bid 18')
    """
    card = action_card(action)
    if card is not None:
        return "play " + card_label(card, jokers=jokers)
    bid = bid_of(action)
    if bid is not None:
        return "bid " + bid_label(bid)
    if action == BLIND_NIL:
        return "bid " + bid_label(0, blind=True)
    if action == LOOK:
        return "look at the cards"
    passed = passed_card(action)
    if passed is not None:
        return "pass " + card_label(passed, jokers=jokers)
    if action == CLAIM:
        return "claim the rest"
    raise ValueError(f"not an action: {action!r}")


def partner(seat: Seat) -> Seat:
    """The seat across the table.

    >>> partner(0), partner(3)
    (2, 1)
    """
    return (seat + 2) % 4


def team_of(seat: Seat) -> int:
    """0 for North/South, 1 for East/West.

    >>> team_of(2), team_of(3)
    (0, 1)
    """
    return seat % 2
