"""What a table's page may draw: one seat's view of the table, and the hands already over.

The page never sees a hand's true state. :class:`TableView` holds its seat's
:class:`~spades.engine.observation.Observation` with the public facts around it (names, scores,
whose turn, the trick on show) and the answers the page needs (why each bid or card is
refused, the hint, the message). The Play page's controller, a shared table's service and
the tutorial each build one with :func:`observed_view`, so one renderer draws them all,
turned so that the page's seat sits at the bottom. A hand that is over is public:
:class:`FinishedHand` holds its bids, tricks and scored result for the summary and the
scoresheet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from spades.app.moves import hand_card_action
from spades.app.seats import HUMAN_SEAT
from spades.bots.hint import Hint
from spades.engine.cards import (
    BLIND_NIL,
    LOOK,
    NUM_CARDS,
    Action,
    Card,
    JokerRanking,
    Seat,
    bid_action,
    bid_label,
)
from spades.engine.deck import Trick, deck_for, play_order
from spades.engine.match import Match
from spades.engine.observation import Observation, Phase
from spades.engine.rules import Rules
from spades.engine.scoring import HandResult

MessageKind = Literal["info", "warning", "error"]
Bids = tuple[int | None, ...]
Flags = tuple[bool, ...]
#: The teams as a seat sees them: its own team first.
TEAM_NAMES: Final = ("Us", "Them")
#: The places round the table (0 north, 1 east, 2 south, 3 west) in play order from the
#: bottom, where the viewer sits: the one who plays after them on their left (west), and
#: at four the partner across; three players leave the north empty.
PLACES_IN_PLAY_ORDER: Final = {4: (2, 3, 0, 1), 3: (2, 3, 1)}
#: Suits left to right in a hand (♠ ♥ ♣ ♦): colours alternate so neighbouring suits stand
#: apart.
DISPLAY_SUIT_ORDER: Final = (3, 2, 0, 1)
#: How a held trick shows who took it: ``taken``, the winner marked and the cards going to
#: it (a table in play); ``marked``, the winner marked and the cards left lying (an exercise
#: answered); ``hidden``, no winner marked (an exercise that asks who wins the trick).
HeldWinner = Literal["taken", "marked", "hidden"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the player: what was refused and why, or what happened."""

    kind: MessageKind
    text: str


def team_bid_text(bids: tuple[int | None, ...], blind: tuple[bool, ...]) -> str:
    """A side's bid from its seats' bids: ``6``, ``4 + nil``, ``nil + blind nil`` or ``—``.

    >>> team_bid_text((4, 0), (False, False)), team_bid_text((0, 0), (False, True))
    ('4 + nil', 'nil + blind nil')
    """
    if all(b is None for b in bids):
        return "—"
    numbers = [b for b in bids if b]
    parts = [str(sum(numbers))] if numbers else []
    parts += [bid_label(b, flag) for b, flag in zip(bids, blind, strict=True) if b == 0]
    return " + ".join(parts)


def side_bids(rules: Rules, bids: Bids, blind: Flags) -> tuple[str, ...]:
    """Each side's bid in words, from the seats' bids (see
    :meth:`~spades.engine.rules.Rules.sides`)."""
    return tuple(
        team_bid_text(tuple(bids[s] for s in seats), tuple(blind[s] for s in seats))
        for seats in rules.sides()
    )


def side_names(rules: Rules, players: Sequence[str], seat: Seat = HUMAN_SEAT) -> tuple[str, ...]:
    """Each side's name as ``seat`` sees it, North/South first: Us for its own team and
    Them for the other, or in cutthroat each player's.

    >>> side_names(Rules(), ["N", "E", "S", "W"], seat=1)
    ('Them', 'Us')
    """
    if rules.partnerships:
        us, them = TEAM_NAMES
        mine = rules.side_of(seat)
        return tuple(us if side == mine else them for side in range(len(rules.sides())))
    return tuple(players[: rules.players])


def place_of(seat: Seat, viewer: Seat, players: int) -> int:
    """Where ``seat`` sits on the table drawn for ``viewer``: turned so that the viewer is
    at the bottom and the others follow in play order (see :data:`PLACES_IN_PLAY_ORDER`).

    >>> [place_of(seat, 1, 4) for seat in range(4)], [place_of(seat, 2, 3) for seat in range(3)]
    ([1, 2, 3, 0], [3, 1, 2])
    """
    return PLACES_IN_PLAY_ORDER[players][play_order(viewer, players).index(seat)]


def in_hand_order(cards: Iterable[Card], *, jokers: JokerRanking | None = None) -> list[Card]:
    """Cards in hand order: by suit (♠ ♥ ♣ ♦, jokers with the spades), high to low, as
    the deck of ``jokers`` ranks them.

    >>> from spades.engine.cards import card_label
    >>> [card_label(c) for c in in_hand_order([0, 12, 25, 38, 51, 39])]
    ['A♠', '2♠', 'A♥', 'A♣', '2♣', 'A♦']
    """
    held = list(cards)
    # Cards past the 52 are the jokers added to the 54-card deck.
    deck = deck_for(jokers, jokers_added=any(c >= NUM_CARDS for c in held))
    order = {suit: i for i, suit in enumerate(DISPLAY_SUIT_ORDER)}
    return sorted(held, key=lambda c: (order[deck.suit[c]], -deck.power[c]))


def offered_actions(rules: Rules) -> tuple[Action, ...]:
    """The bids, blind nil and look a table offers (each with its refusal, if any)."""
    return (*(bid_action(n) for n in range(rules.hand_size + 1)), BLIND_NIL, LOOK)


def trump_taker(trick: Trick, rules: Rules) -> Seat | None:
    """The winner of ``trick`` when it took a trick led in another suit with a trump."""
    deck = deck_for(rules.joker_deck, rules.jokers_added)
    winning = dict(trick.plays())[trick.winner]
    if deck.is_trump(winning) and not deck.is_trump(trick.cards[0]):
        return trick.winner
    return None


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A hand that is over, as everyone may now see it: bids, tricks and the score."""

    number: int
    dealer: Seat
    bids: Bids
    blind: Flags
    tricks_won: tuple[int, ...]
    tricks: tuple[Trick, ...]
    claimed_by: Seat | None
    result: HandResult
    #: The match's running score after this hand, a side each (North/South first).
    score: tuple[int, ...]
    rules: Rules

    @property
    def side_bids(self) -> tuple[str, ...]:
        """Each side's bid in words."""
        return side_bids(self.rules, self.bids, self.blind)


def finished_hands(match: Match) -> tuple[FinishedHand, ...]:
    """The public record of every hand of ``match`` that is over, in order."""
    totals = match.score_history()
    return tuple(
        FinishedHand(
            number=index + 1,
            dealer=hand.dealer,
            bids=tuple(hand.bids),
            blind=tuple(hand.blind),
            tricks_won=tuple(hand.tricks_won),
            tricks=tuple(hand.tricks),
            claimed_by=hand.claimed_by,
            result=result,
            score=totals[index],
            rules=match.rules,
        )
        for index, (hand, result) in enumerate(zip(match.finished, match.results, strict=True))
    )


@dataclass(frozen=True, slots=True)
class SidePanel:
    """A side's line beside the table: its name, bid, tricks won, score and bags."""

    name: str
    bid: str
    won: int
    score: int
    bags: int
    #: The panel's widget key: ``team_us``/``team_them``, or ``player_<seat>`` in cutthroat.
    key: str


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as the human seat sees it, with everything the page draws around it.

    ``obs`` is the human's observation of the hand on the table (the one just finished while
    its summary is up). Every other field is public or the page's own state: the fields
    up to ``last_trick`` follow from the observation (:func:`observed_view`), and the rest
    are the page's answers, each off unless the page gives it.
    """

    obs: Observation
    players: tuple[str, ...]
    #: What each click carries, so that a click on a table that has moved on is refused:
    #: the match's number of actions on Play, the table's version at a shared table.
    ply: int
    #: A finished trick still on the table before it goes to its winner.
    held: Trick | None
    #: The winner of the held trick when it took it with a trump (it shines).
    trumped: Seat | None
    #: Why each bid, blind nil and look is refused now (None: allowed).
    why_not: Mapping[Action, str | None]
    #: Why each card in the human's hand may not be clicked now (None: it may).
    card_why_not: Mapping[Card, str | None]
    #: Each side's panel: both teams (Us first), or in cutthroat every player.
    sides: tuple[SidePanel, ...]
    target: int
    last_trick: Trick | None
    #: The hand on the table is the one being played (not a finished one on show).
    live: bool = True
    #: How the held trick shows who took it (see :data:`HeldWinner`).
    held_winner: HeldWinner = "taken"
    #: The trick just finished, shown over the next one (at the instant pace).
    flash: Trick | None = None
    #: The end-of-hand summary is up.
    summary: bool = False
    read_only: bool = False
    #: Someone else's game that is not over yet: it is watched.
    watching: bool = False
    human_to_act: bool = False
    hint: Hint | None = None
    notice: Notice | None = None
    can_claim: bool = False
    undo_allowed: bool = False
    can_undo: bool = False
    show_last_trick: bool = False
    #: The hint button is offered (Play, the practice hand, a table whose options allow it).
    hints: bool = False
    #: The held trick stays until the player taps it (their choice on Play).
    waits_for_tap: bool = False

    @property
    def seat(self) -> Seat:
        """The page's seat, drawn at the bottom of the table."""
        return self.obs.seat

    @property
    def jokers(self) -> JokerRanking | None:
        """The ranking of the jokers deck the hand is played with (None: no jokers
        replace any card)."""
        return self.obs.rules.joker_deck

    @property
    def bidding(self) -> bool:
        """The hand on the table is in its bidding."""
        return self.obs.phase is Phase.BIDDING

    @property
    def passing(self) -> bool:
        """The partners are passing cards (the exchange after a nil or blind nil)."""
        return self.obs.phase is Phase.EXCHANGE

    @property
    def playing(self) -> bool:
        """The hand on the table is in its play."""
        return self.obs.phase is Phase.PLAYING

    def card_action(self, card: Card) -> Action:
        """The action a click on ``card`` in the hand stands for now: pass it in the
        exchange, else play it."""
        return hand_card_action(self.obs.phase, card)

    def place_of(self, seat: Seat) -> int:
        """Where ``seat`` is drawn (see :func:`place_of`): the page's seat at the bottom."""
        return place_of(seat, self.seat, self.obs.rules.players)

    @property
    def above_the_ace(self) -> tuple[Card, ...]:
        """The cards but the jokers that rank above the A♠ in this game, from the top: the
        2♦ and 2♠ of the ranking "deuces", else none."""
        if self.jokers is None:
            return ()
        return tuple(reversed(deck_for(self.jokers).above_ace[:-2]))


def observed_view(
    obs: Observation,
    players: tuple[str, ...],
    why_not: Callable[[Action], str | None],
    *,
    ply: int,
    held: Trick | None = None,
    scores: Sequence[int] | None = None,
    bags: Sequence[int] | None = None,
) -> TableView:
    """The table as ``obs``'s seat sees it, with ``players``' names and ``held`` lying on
    it; ``why_not(action)`` says why the seat may not take an action now (None: it may).
    The bids and cards on offer, the panels beside the table (with ``scores`` and ``bags``,
    the observation's unless given) and the last trick follow from these. Nothing else is
    on offer: the page adds its own answers with :func:`dataclasses.replace`."""
    rules = obs.rules
    return TableView(
        obs=obs,
        players=players,
        ply=ply,
        held=held,
        trumped=trump_taker(held, rules) if held is not None else None,
        why_not={action: why_not(action) for action in offered_actions(rules)},
        card_why_not={card: why_not(hand_card_action(obs.phase, card)) for card in obs.hand or ()},
        sides=side_panels(
            obs,
            players,
            scores=obs.scores if scores is None else scores,
            bags=obs.bags if bags is None else bags,
        ),
        target=rules.target_score,
        last_trick=obs.tricks[-1] if obs.tricks else None,
    )


def side_panels(
    obs: Observation, players: Sequence[str], *, scores: Sequence[int], bags: Sequence[int]
) -> tuple[SidePanel, ...]:
    """The panels beside the table, the seat's own side first: Us and Them, or every
    player from the seat on in the order they play."""
    rules = obs.rules
    names = side_names(rules, players, obs.seat)
    bids = side_bids(rules, obs.bids, obs.blind)
    mine = rules.side_of(obs.seat)
    panels = [
        SidePanel(
            name=names[side],
            bid="out" if set(seats) <= set(obs.out) else bids[side],
            won=sum(obs.tricks_won[s] for s in seats),
            score=scores[side],
            bags=bags[side],
            key=f"team_{'us' if side == mine else 'them'}"
            if rules.partnerships
            else f"player_{side}",
        )
        for side, seats in enumerate(rules.sides())
    ]
    # Each side where its first seat comes in play order from the seat's own.
    order = dict.fromkeys(rules.side_of(seat) for seat in play_order(obs.seat, rules.players))
    return tuple(panels[side] for side in order)
