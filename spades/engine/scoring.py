"""Pure scoring: a hand's points per team (or per player in cutthroat) with the reason for
each, the bag penalty, and the end of a match.

In three-handed cutthroat the mercy score knocks a player out instead of ending the match:
see :func:`match_outcome`. A player who is out scores nothing more.

>>> from spades.engine.rules import Rules
>>> r = score_hand(Rules(), bids=(3, 2, 4, 2), blind=(False,) * 4,
...                tricks=(4, 1, 6, 2), bags_before=(0, 0))
>>> r.teams[0].points, r.teams[0].bags, r.teams[1].points
(73, 3, -40)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final, Literal, NamedTuple

from spades.engine.cards import Seat, bid_label
from spades.engine.rules import Rules

LineKind = Literal[
    "contract_made",
    "contract_set",
    "ten_for_two_hundred",
    "ten_for_two_hundred_set",
    "boston",
    "bags",
    "nil_made",
    "nil_failed",
    "blind_nil_made",
    "blind_nil_failed",
    "bag_penalty",
]


class ScoreLine(NamedTuple):
    """One reason for points: its kind, the points, and a sentence for people."""

    kind: LineKind
    points: int
    text: str


class TeamResult(NamedTuple):
    """One side's hand: its numeric bid and tricks, points, bags and the breakdown.

    A side is a team in the partnership game and a single player in cutthroat.
    """

    bid: int
    tricks: int
    points: int
    bags: int
    bags_before: int
    bags_after: int
    penalty: int
    lines: tuple[ScoreLine, ...]

    @property
    def made(self) -> bool | None:
        """Whether the numeric contract was made (None when the team bid only nils)."""
        kinds = {line.kind for line in self.lines}
        if kinds & {"contract_made", "ten_for_two_hundred"}:
            return True
        if kinds & {"contract_set", "ten_for_two_hundred_set"}:
            return False
        return None


class HandResult(NamedTuple):
    """The scored hand: ``teams[0]`` is North/South, ``teams[1]`` East/West.

    In cutthroat ``teams`` is empty and ``players[seat]`` holds each player's result.
    """

    teams: tuple[TeamResult, ...]
    players: tuple[TeamResult, ...] = ()

    @property
    def sides(self) -> tuple[TeamResult, ...]:
        """The results that score: the teams, or in cutthroat the players."""
        return self.teams or self.players


def apply_bag_penalty(rules: Rules, bags_before: int, new_bags: int) -> tuple[int, int]:
    """(penalty points lost, bags on the count afterwards) when ``new_bags`` are added.

    >>> apply_bag_penalty(Rules(), 8, 3)
    (100, 1)
    >>> apply_bag_penalty(Rules(bag_limit=None), 8, 3)
    (0, 0)
    """
    if rules.bag_limit is None:
        return 0, 0
    count = bags_before + new_bags
    times, after = divmod(count, rules.bag_limit)
    return times * rules.bag_penalty, after


def score_team(
    rules: Rules,
    *,
    bids: tuple[int, ...],
    blind: tuple[bool, ...],
    tricks: tuple[int, ...],
    bags_before: int,
) -> TeamResult:
    """Score one side from its players' bids (0 = nil), blind flags and tricks: the two
    partners of a team, or the one player of cutthroat."""
    lines: list[ScoreLine] = []
    bid = sum(bids)
    counted = 0
    nil_tricks = 0
    for player_bid, is_blind, taken in zip(bids, blind, tricks, strict=True):
        if player_bid:
            counted += taken
            continue
        value = 200 if is_blind else 100
        name = bid_label(0, blind=is_blind)
        if taken == 0:
            kind: LineKind = "blind_nil_made" if is_blind else "nil_made"
            lines.append(ScoreLine(kind, value, f"{name} made"))
        else:
            kind = "blind_nil_failed" if is_blind else "nil_failed"
            plural = "s" if taken != 1 else ""
            lines.append(ScoreLine(kind, -value, f"{name} failed ({taken} trick{plural})"))
        if rules.nil_tricks_count_toward_bid:
            counted += taken
        else:
            nil_tricks += taken
    bags = nil_tricks
    if bid > 0:
        ten = rules.ten_for_two_hundred and bid == 10
        value = 20 * bid if ten else 10 * bid
        if counted >= bid:
            kind = "ten_for_two_hundred" if ten else "contract_made"
            lines.append(ScoreLine(kind, value, f"bid {bid}, took {counted}: made"))
            bags += counted - bid
            if rules.boston_bonus and bid == 13 and counted == 13:
                lines.append(ScoreLine("boston", rules.boston_bonus, "Boston: bid and took all 13"))
        else:
            kind = "ten_for_two_hundred_set" if ten else "contract_set"
            lines.append(ScoreLine(kind, -value, f"bid {bid}, took {counted}: set"))
    else:
        bags += counted
    if rules.bag_limit is None:
        if bags:
            lines.append(ScoreLine("bags", bags, f"{bags} overtrick{'s' if bags != 1 else ''}"))
        bags = 0  # overtricks score a point each and never reach a bag count
    elif bags:
        lines.append(ScoreLine("bags", bags, f"{bags} bag{'s' if bags != 1 else ''}"))
    penalty, bags_after = apply_bag_penalty(rules, bags_before, bags)
    if penalty:
        lines.append(
            ScoreLine(
                "bag_penalty",
                -penalty,
                f"bag penalty: {bags_before + bags} bags reach {rules.bag_limit}",
            )
        )
    points = 0
    for line in lines:
        points += line.points
    return TeamResult(
        bid=bid,
        tricks=sum(tricks),
        points=points,
        bags=bags,
        bags_before=bags_before,
        bags_after=bags_after,
        penalty=penalty,
        lines=tuple(lines),
    )


def _alone(rules: Rules, bid: int, taken: int, *, blind: bool = False) -> int:
    """One player's points for a hand alone, from nothing on the count."""
    return score_team(rules, bids=(bid,), blind=(blind,), tricks=(taken,), bags_before=0).points


def nil_worth(rules: Rules, *, blind: bool = False) -> int:
    """What a nil (or a blind nil) made is worth under ``rules``, and a failed one costs.

    >>> nil_worth(Rules()), nil_worth(Rules(), blind=True)
    (100, 200)
    """
    return _alone(rules, 0, 0, blind=blind)


def trick_worth(rules: Rules) -> int:
    """What each trick bid scores when the bid is made, and costs when it is set.

    >>> trick_worth(Rules())
    10
    """
    return _alone(rules, 1, 1)


def bag_worth(rules: Rules) -> int:
    """What each trick taken beyond the bid (a bag) scores, before any bag penalty.

    >>> bag_worth(Rules())
    1
    """
    return _alone(rules, 1, 2) - trick_worth(rules)


def score_hand(
    rules: Rules,
    *,
    bids: tuple[int, int, int, int],
    blind: tuple[bool, bool, bool, bool],
    tricks: tuple[int, int, int, int],
    bags_before: tuple[int, ...],
) -> HandResult:
    """Score a finished hand from the four seats' bids, blind flags and tricks."""
    if sum(tricks) != 13:
        raise ValueError(f"a hand has 13 tricks, not {sum(tricks)}")
    return HandResult(
        teams=(
            score_team(
                rules,
                bids=(bids[0], bids[2]),
                blind=(blind[0], blind[2]),
                tricks=(tricks[0], tricks[2]),
                bags_before=bags_before[0],
            ),
            score_team(
                rules,
                bids=(bids[1], bids[3]),
                blind=(blind[1], blind[3]),
                tricks=(tricks[1], tricks[3]),
                bags_before=bags_before[1],
            ),
        )
    )


def score_players(
    rules: Rules,
    *,
    bids: tuple[int, ...],
    blind: tuple[bool, ...],
    tricks: tuple[int, ...],
    bags_before: tuple[int, ...],
    out: tuple[Seat, ...] = (),
) -> HandResult:
    """Score a finished cutthroat hand: every player alone, from the seats' bids, blind
    flags and tricks. A seat in ``out`` (knocked out, see :func:`match_outcome`) sat the
    hand out: it scores nothing and keeps its bags (its bid and tricks are ignored).

    >>> from spades.engine.rules import Rules
    >>> r = score_players(Rules(players=3, partnerships=False, mercy_score=None),
    ...                   bids=(5, 0, 6), blind=(False,) * 3, tricks=(7, 0, 10),
    ...                   bags_before=(0, 0, 9))
    >>> [(p.points, p.bags, p.bags_after) for p in r.players]
    [(52, 2, 2), (100, 0, 0), (-36, 4, 3)]
    >>> r = score_players(Rules(players=3, partnerships=False), bids=(5, 0, 6),
    ...                   blind=(False,) * 3, tricks=(7, 0, 10), bags_before=(0, 4, 9),
    ...                   out=(1,))
    >>> [(p.points, p.bags, p.bags_after, p.lines) for p in r.players][1]
    (0, 0, 4, ())
    """
    if sum(tricks) != rules.hand_size:
        raise ValueError(f"a hand has {rules.hand_size} tricks, not {sum(tricks)}")
    return HandResult(
        teams=(),
        players=tuple(
            TeamResult(0, 0, 0, 0, bags_before[seat], bags_before[seat], 0, ())
            if seat in out
            else score_team(
                rules,
                bids=(bids[seat],),
                blind=(blind[seat],),
                tricks=(tricks[seat],),
                bags_before=bags_before[seat],
            )
            for seat in range(rules.players)
        ),
    )


class EndReason(Enum):
    """Why a match ended after a hand, or why it goes on: the code of an :class:`Outcome`'s
    reason."""

    #: No side has reached the target or fallen to the mercy score.
    PLAYING = "playing"
    #: One side reached the target, and wins.
    TARGET = "target"
    #: More than one side reached the target in the same hand: the highest score wins.
    HIGHER_SCORE = "higher_score"
    #: Both teams fell to the mercy score in the same hand: the less negative score wins.
    LESS_NEGATIVE = "less_negative"
    #: A side fell to the mercy score, which ended the match: in the partnership game the
    #: other team wins; in cutthroat the highest score among the players still in.
    MERCY = "mercy"
    #: Three-handed cutthroat: a player fell to the mercy score and is out; the others
    #: play on.
    KNOCKED_OUT = "knocked_out"
    #: Three-handed cutthroat: the others fell to the mercy score, and the last player in
    #: wins.
    LAST_IN = "last_in"
    #: The sides level at the top play another hand.
    TIE = "tie"
    #: The sides level at the top share the game (``tie_policy="draw"``).
    SHARED = "shared"


#: The reasons that leave a match going on.
_GOING_ON: Final = frozenset((EndReason.PLAYING, EndReason.KNOCKED_OUT, EndReason.TIE))
TEAM_NAMES: Final = ("North/South", "East/West")


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where a match stands after a hand (see :func:`match_outcome`): whether it is over and
    why, as a code and as a sentence, who won and everyone's place.

    Sides are the two teams of the partnership game (0 North/South, 1 East/West), or in
    cutthroat the players (side ``n`` is seat ``n``). ``places`` holds each side's place,
    1 the best, level sides sharing one; ``winners`` the sides that won (more than one
    when they share the game; none while the match goes on); ``fallen`` the sides the
    reason names as falling to the mercy score, and ``out`` the players knocked out of a
    three-handed match, in the order they finish from the bottom up: the first one out
    finishes last (of players falling in the same hand, the lower score finishes below).
    ``out`` is empty in every other game.
    """

    rules: Rules = field(repr=False)
    code: EndReason
    places: tuple[int, ...]
    winners: tuple[int, ...] = ()
    fallen: tuple[int, ...] = ()
    out: tuple[Seat, ...] = ()

    @property
    def over(self) -> bool:
        """Whether the match is over."""
        return self.code not in _GOING_ON

    @property
    def winner(self) -> int | None:
        """The side that won alone, or None while the match goes on or when it is shared."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def reason(self) -> str:
        """The reason as a sentence, empty while nothing has happened yet (see
        :meth:`words`)."""
        return self.words()

    def words(self, players: Sequence[str] | None = None) -> str:
        """The reason as a sentence: the teams are North/South and East/West, and the
        players of cutthroat are named by ``players`` (one name a seat), or without it
        ``seat 1``.

        >>> three = Rules(players=3, partnerships=False)
        >>> outcome = match_outcome(three, (150, -210, -220), (1,))
        >>> outcome.words(), outcome.words(["Left", "Right", "Ada"])
        ('seat 2 fell to the mercy score: seat 0 wins as the last player in', \
'Ada fell to the mercy score: Left wins as the last player in')
        """
        code = self.code
        if code is EndReason.PLAYING:
            return ""
        if code is EndReason.TIE:
            return "exact tie: another hand is played"
        if code is EndReason.SHARED:
            return "exact tie: the game is shared"
        winner = self._names(self.winners, players)
        if self.rules.partnerships:
            if code is EndReason.TARGET:
                return f"{winner} reached {self.rules.target_score}"
            if code is EndReason.MERCY:
                return f"{self._names(self.fallen, players)} fell to the mercy score"
            why = "higher" if code is EndReason.HIGHER_SCORE else "less negative"
            return f"{winner} wins with the {why} score"
        fell = f"{self._names(self.fallen, players)} fell to the mercy score"
        if code is EndReason.KNOCKED_OUT:
            return f"{fell} and is out"
        if code is EndReason.LAST_IN:
            return f"{fell}: {winner} wins as the last player in"
        wins = f"{winner} wins with the highest score"
        return f"{fell}: {wins}" if code is EndReason.MERCY else wins

    def _names(self, sides: Sequence[int], players: Sequence[str] | None) -> str:
        """``North/South``; in cutthroat ``Ada``, ``Ada and Left``, or without names
        ``seat 1`` or ``seats 0 and 2``."""
        if self.rules.partnerships:
            return _and_words([TEAM_NAMES[side] for side in sides])
        if players is None:
            numbers = _and_words([str(seat) for seat in sides])
            return f"seat{'s' if len(sides) > 1 else ''} {numbers}"
        return _and_words([players[seat] for seat in sides])


def _and_words(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _places(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each side's place from its key (the higher the better): 1 plus the sides above."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def match_outcome(rules: Rules, scores: tuple[int, ...], out: tuple[Seat, ...] = ()) -> Outcome:
    """Decide the match from the running scores after a hand (the teams', or in cutthroat
    the players'), and in three-handed cutthroat the players already knocked out.

    >>> match_outcome(Rules(), (510, 480)).winner
    0
    >>> outcome = match_outcome(Rules(), (-210, 100))
    >>> outcome.code, outcome.reason, outcome.places
    (<EndReason.MERCY: 'mercy'>, 'North/South fell to the mercy score', (2, 1))
    """
    if not rules.partnerships:
        return _players_outcome(rules, scores, out)
    places = _places([(score,) for score in scores])
    reached = [s >= rules.target_score for s in scores]
    busted = [rules.mercy_score is not None and s <= rules.mercy_score for s in scores]
    if not any(reached) and not any(busted):
        return Outcome(rules, EndReason.PLAYING, places)
    if reached[0] != reached[1]:
        return Outcome(rules, EndReason.TARGET, places, (0 if reached[0] else 1,))
    if busted[0] != busted[1]:
        loser = 0 if busted[0] else 1
        return Outcome(rules, EndReason.MERCY, places, (1 - loser,), (loser,))
    if scores[0] != scores[1]:
        code = EndReason.HIGHER_SCORE if reached[0] else EndReason.LESS_NEGATIVE
        return Outcome(rules, code, places, (0 if scores[0] > scores[1] else 1,))
    if rules.tie_policy == "draw":
        return Outcome(rules, EndReason.SHARED, places, (0, 1))
    return Outcome(rules, EndReason.TIE, places)


def _players_outcome(rules: Rules, scores: tuple[int, ...], out: tuple[Seat, ...]) -> Outcome:
    """Cutthroat: once anyone still in reaches the target, the match ends and the highest
    score wins; players level at the top play another hand (or share the game under
    ``tie_policy="draw"``).

    Four players: a player at or below the mercy score ends the match, and the highest
    score wins (the partnership game's rule, where a fallen team ends it).

    Three players: a player at or below the mercy score is knocked out and finishes last;
    the other two play on. When only one player is left in, that player wins. When every
    player still in falls in the same hand, the highest score among them wins, and those
    level at the top play on (or share the game) while the others are out.

    The players still in are placed above those out by their scores; those out in this
    hand above those out before (only one player can be out while a match goes on), and
    those out in the same hand by their scores.

    >>> cutthroat = Rules(players=3, partnerships=False)
    >>> match_outcome(cutthroat, (480, 530, 510)).reason
    'seat 1 wins with the highest score'
    >>> match_outcome(cutthroat, (120, -210, 90))
    Outcome(code=<EndReason.KNOCKED_OUT: 'knocked_out'>, places=(1, 3, 2), winners=(), \
fallen=(1,), out=(1,))
    >>> match_outcome(cutthroat, (150, -210, -220), (1,)).reason
    'seat 2 fell to the mercy score: seat 0 wins as the last player in'
    >>> match_outcome(cutthroat, (-230, -210, -220), (1,)).out
    (1, 0)
    >>> match_outcome(cutthroat, (520, 520, 100)).reason
    'exact tie: another hand is played'
    >>> match_outcome(Rules(players=4, partnerships=False), (120, -210, 90, 0)).reason
    'seat 1 fell to the mercy score: seat 0 wins with the highest score'
    """
    before = out
    mercy = rules.mercy_score
    standing = [seat for seat in range(len(scores)) if seat not in out]
    fallen = [] if mercy is None else [seat for seat in standing if scores[seat] <= mercy]
    named: tuple[Seat, ...] = ()
    code = None
    if fallen and rules.players == 3:
        # Highest first, as they are named and the top of them may win; of the players
        # falling in the same hand the lower score finishes below, so is out first.
        fallen.sort(key=scores.__getitem__, reverse=True)
        named = tuple(fallen)
        rest = [seat for seat in standing if seat not in fallen]
        if len(rest) == 1:
            out = (*out, *reversed(fallen))
            return _placed(rules, EndReason.LAST_IN, scores, before, out, rest, named)
        if rest:
            out, standing, fallen = (*out, *reversed(fallen)), rest, []
        else:
            top = scores[fallen[0]]
            out += tuple(seat for seat in reversed(fallen) if scores[seat] < top)
            standing = [seat for seat in fallen if scores[seat] == top]
    elif fallen:
        named = (fallen[0],)
    top = max(scores[seat] for seat in standing)
    if top < rules.target_score and not fallen:
        code = EndReason.KNOCKED_OUT if named else EndReason.PLAYING
        return _placed(rules, code, scores, before, out, [], named)
    leaders = [seat for seat in standing if scores[seat] == top]
    if len(leaders) > 1:
        code = EndReason.SHARED if rules.tie_policy == "draw" else EndReason.TIE
        won = leaders if code is EndReason.SHARED else []
        return _placed(rules, code, scores, before, out, won, ())
    if top < rules.target_score:
        code = EndReason.MERCY
    else:
        reached = sum(scores[seat] >= rules.target_score for seat in standing)
        code = EndReason.TARGET if reached == 1 else EndReason.HIGHER_SCORE
        named = ()
    return _placed(rules, code, scores, before, out, leaders, named)


def _placed(
    rules: Rules,
    code: EndReason,
    scores: tuple[int, ...],
    before: tuple[Seat, ...],
    out: tuple[Seat, ...],
    winners: Sequence[Seat],
    fallen: tuple[Seat, ...],
) -> Outcome:
    """The cutthroat outcome with every player's place: those in by their scores, then
    those out in this hand by theirs, then those out ``before`` it, the first out last."""
    keys = [
        (0, before.index(seat), 0)
        if seat in before
        else (1, 0, score)
        if seat in out
        else (2, 0, score)
        for seat, score in enumerate(scores)
    ]
    return Outcome(rules, code, _places(keys), tuple(winners), fallen, out)
