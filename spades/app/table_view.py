"""What the Play page may draw: one seat's view of the table, and the hands already over.

The page never sees a hand's true state. :class:`TableView` holds the human seat's
:class:`~spades.observation.Observation` with the public facts around it (names, scores,
whose turn, the trick on show) and the controller's answers the page needs (why each bid or
card is refused, the hint, the message). A hand that is over is public: :class:`FinishedHand`
holds its bids, tricks and scored result for the summary and the scoresheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spades.app.play import HUMAN_SEAT, GameController, Notice
from spades.bots.hint import Hint
from spades.cards import BLIND_NIL, LOOK, Action, Card, Seat, bid_action, bid_label, partner
from spades.deck import Trick, deck_for
from spades.match import Match
from spades.observation import Observation, Phase
from spades.scoring import HandResult

Bids = tuple[int | None, int | None, int | None, int | None]
Flags = tuple[bool, bool, bool, bool]


def team_bid_text(bids: tuple[int | None, int | None], blind: tuple[bool, bool]) -> str:
    """A team's bid from its two seats' bids: ``6``, ``4 + nil``, ``nil + blind nil`` or ``—``.

    >>> team_bid_text((4, 0), (False, False)), team_bid_text((0, 0), (False, True))
    ('4 + nil', 'nil + blind nil')
    """
    if all(b is None for b in bids):
        return "—"
    numbers = [b for b in bids if b]
    parts = [str(sum(numbers))] if numbers else []
    parts += [bid_label(b, flag) for b, flag in zip(bids, blind, strict=True) if b == 0]
    return " + ".join(parts)


def team_bids(bids: Bids, blind: Flags) -> tuple[str, str]:
    """Both teams' bids in words (North/South first), from the four seats' bids."""
    texts = [
        team_bid_text((bids[team], bids[partner(team)]), (blind[team], blind[partner(team)]))
        for team in (0, 1)
    ]
    return texts[0], texts[1]


def trump_taker(trick: Trick, *, jokers: bool) -> Seat | None:
    """The winner of ``trick`` when it took a trick led in another suit with a trump."""
    deck = deck_for(jokers)
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
    tricks_won: tuple[int, int, int, int]
    tricks: tuple[Trick, ...]
    claimed_by: Seat | None
    result: HandResult
    #: The match's running score after this hand, North/South first.
    score: tuple[int, int]

    @property
    def team_bids(self) -> tuple[str, str]:
        """Both teams' bids in words."""
        return team_bids(self.bids, self.blind)


def finished_hands(match: Match) -> tuple[FinishedHand, ...]:
    """The public record of every hand of ``match`` that is over, in order."""
    totals = match.score_history()
    return tuple(
        FinishedHand(
            number=index + 1,
            dealer=hand.dealer,
            bids=(hand.bids[0], hand.bids[1], hand.bids[2], hand.bids[3]),
            blind=(hand.blind[0], hand.blind[1], hand.blind[2], hand.blind[3]),
            tricks_won=(
                hand.tricks_won[0],
                hand.tricks_won[1],
                hand.tricks_won[2],
                hand.tricks_won[3],
            ),
            tricks=tuple(hand.tricks),
            claimed_by=hand.claimed_by,
            result=result,
            score=totals[index],
        )
        for index, (hand, result) in enumerate(zip(match.finished, match.results, strict=True))
    )


@dataclass(frozen=True, slots=True)
class TableView:
    """The table as the human seat sees it, with everything the page draws around it.

    ``obs`` is the human's observation of the hand on the table (the one just finished while
    its summary is up). Every other field is public or the controller's own state.
    """

    obs: Observation
    players: tuple[str, str, str, str]
    #: How many actions the match has had; each click carries it.
    ply: int
    #: The hand on the table is the one being played (not a finished one on show).
    live: bool
    #: A finished trick still on the table before it goes to its winner.
    held: Trick | None
    #: The winner of the held trick when it took it with a trump (it shines).
    trumped: Seat | None
    #: The trick just finished, shown over the next one (at the instant pace).
    flash: Trick | None
    #: The end-of-hand summary is up.
    summary: bool
    read_only: bool
    #: Someone else's game that is not over yet: it is watched.
    watching: bool
    human_to_act: bool
    #: Why each bid, blind nil and look is refused now (None: allowed).
    why_not: Mapping[Action, str | None]
    #: Why each card in the human's hand may not be clicked now (None: it may).
    card_why_not: Mapping[Card, str | None]
    #: Each team's bid in words, North/South ("Us") first.
    team_bids: tuple[str, str]
    #: The scores and bags the team panels show (the match's once a hand is over).
    scores: tuple[int, int]
    bags: tuple[int, int]
    target: int
    hint: Hint | None
    notice: Notice | None
    can_claim: bool
    undo_allowed: bool
    can_undo: bool
    show_last_trick: bool
    last_trick: Trick | None

    @property
    def jokers(self) -> bool:
        """Whether the hand is played with the jokers deck."""
        return self.obs.rules.jokers

    @property
    def phase(self) -> Phase:
        """Where the hand on the table stands."""
        return self.obs.phase

    def team_won(self, team: int) -> int:
        """The tricks ``team`` has won in the hand on the table."""
        won = self.obs.tricks_won
        return won[team] + won[partner(team)]


def table_view(controller: GameController) -> TableView:
    """What ``controller``'s page draws of the table now, seen from the human's seat."""
    match = controller.match
    shown = controller.shown_hand
    obs = shown.observation(HUMAN_SEAT)
    held = controller.held_trick
    summary = controller.show_summary
    offered = [bid_action(n) for n in range(14)] + [BLIND_NIL, LOOK]
    return TableView(
        obs=obs,
        players=controller.players,
        ply=controller.ply,
        live=shown is match.hand,
        held=held,
        trumped=trump_taker(held, jokers=obs.rules.jokers) if held is not None else None,
        flash=controller.flash if held is None else None,
        summary=summary,
        read_only=controller.read_only,
        watching=controller.read_only and not match.is_over,
        human_to_act=controller.human_to_act,
        why_not={action: controller.why_not(action) for action in offered},
        card_why_not={
            card: controller.why_not(controller.card_action(card)) for card in obs.hand or ()
        },
        team_bids=team_bids(obs.bids, obs.blind),
        scores=match.scores if summary else obs.scores,
        bags=match.bags if summary else obs.bags,
        target=controller.rules.target_score,
        hint=controller.current_hint(),
        notice=controller.notice,
        can_claim=controller.can_claim(),
        undo_allowed=controller.undo_allowed,
        can_undo=controller.can_undo(),
        show_last_trick=controller.show_last_trick,
        last_trick=controller.last_trick(),
    )
