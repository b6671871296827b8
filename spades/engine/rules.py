"""House rules: one frozen, keyword-only dataclass, validated at construction.

Every option has its type (an int option takes an int, never a bool) and its range: scores
up to 10,000 either way, bonuses and penalties up to 1,000 points, a bag limit of 1 to 100.
A refused option raises :class:`RulesError` naming the field.

>>> Rules().target_score, Rules().mercy_score, Rules().blind_nil
(500, -200, True)
>>> Rules(target_score=0)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
spades.engine.rules.RulesError: target_score: the target must be a positive score ... not 0
>>> Rules(bag_penalty=10**19)
Traceback (most recent call last):
...
spades.engine.rules.RulesError: bag_penalty: must be 0 to 1,000 points, not 10000000000000000000
>>> Rules(bag_limit=None).bag_penalty  # bags off: the penalty stays at its default
100
>>> Rules(bag_limit=None, bag_penalty=50)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
spades.engine.rules.RulesError: bag_penalty: a penalty of 50 means nothing with bag_limit=None ...

The partnership game is the default. Cutthroat, where three or four players each play for
themselves, is ``partnerships=False``; some options belong to one game only, and setting
one for the other game is refused.

>>> Rules(players=3, partnerships=False).to_dict()["players"]
3
>>> Rules(players=3, partnerships=False, jokers_added=True).hand_size  # the 54-card deck
18
>>> Rules(players=3)
Traceback (most recent call last):
...
spades.engine.rules.RulesError: players: three players play cutthroat; set partnerships=False
>>> Rules(partnerships=False, suicide=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
spades.engine.rules.RulesError: suicide: an option of the partnership game; ...
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Literal

from spades.engine.cards import JOKER_RANKINGS, JokerRanking, Seat, partner, team_of

TiePolicy = Literal["play_on", "draw"]
SetAside = Literal["two_of_clubs", "random"]
#: The number of cards each partner may pass after a nil bid (0: no nil pass).
NIL_PASSES: Final = (0, 2, 4)
Game = Literal["partnership", "cutthroat"]

#: The bounds of the int options, far beyond any table's, so that what a game stores fits
#: a 32-bit column: a hand moves a team's score by at most 13 x MAX_BONUS + 400 points
#: (13 bags, each reaching a bag limit of 1, and two failed blind nils). With a mercy score
#: a match ends between -23,400 and +11,400; without one a losing team needs over 150,000
#: hands to fall out of range.
MAX_TARGET: Final = 10_000
#: The Boston bonus and the bag penalty.
MAX_BONUS: Final = 1_000
MAX_BAG_LIMIT: Final = 100
_DEFAULT_BAG_PENALTY: Final = 100

_HELP = "help"
_LABEL = "label"
_GAME = "game"
_CHOICES = "choices"
_SET_ASIDE_CHOICES: Final = ("two_of_clubs", "random")


def _option(
    default: Any,
    label: str,
    help_text: str,
    game: Game | None = None,
    *,
    choices: tuple[Any, ...] | None = None,
) -> Any:
    """A field with its sidebar label and help; ``game`` names the one game it belongs to
    (None: both), and ``choices`` the only values a number option takes, if it has such
    a list."""
    metadata = {_LABEL: label, _HELP: help_text, _GAME: game, _CHOICES: choices}
    return field(default=default, metadata=metadata)


class RulesError(ValueError):
    """A contradictory or out-of-range rule setting; the message names the field."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every house option of a game. ``Rules()`` gives the standard game."""

    target_score: int = _option(
        500, "Target score", "The first team to reach this score wins (300, 500, 1000…)."
    )
    mercy_score: int | None = _option(
        -200, "Mercy score", "A team at or below this score loses at once; it can be turned off."
    )
    tie_policy: TiePolicy = _option(
        "play_on",
        "Exact tie",
        "When both teams finish level: play another hand, or share the game.",
    )
    nil_allowed: bool = _option(True, "Nil bids", "A player may bid nil (no tricks) for ±100.")
    blind_nil: bool = _option(
        True,
        "Blind nil",
        "Bid nil before looking at your cards for ±200, "
        "only when your team trails by the threshold.",
    )
    blind_nil_deficit: int = _option(
        100, "Blind nil deficit", "How far a team must trail before its players may bid blind nil."
    )
    blind_nil_exchange: bool = _option(
        False,
        "Blind nil exchange",
        "After a blind nil the partners swap two cards.",
        "partnership",
    )
    nil_pass: int = _option(
        0,
        "Nil pass",
        "After a nil bid (not blind) the nil bidder and partner swap this many cards: "
        "0 (none), 2 or 4.",
        "partnership",
        choices=NIL_PASSES,
    )
    nil_tricks_count_toward_bid: bool = _option(
        False,
        "Nil tricks help the bid",
        "A failed nil bidder's tricks count toward the partner's bid instead of being only bags.",
        "partnership",
    )
    min_team_bid: int = _option(
        0,
        "Minimum team bid",
        "The partners' numeric bids must add up to at least this.",
        "partnership",
    )
    whiz: bool = _option(False, "Whiz", "Every player bids nil or exactly their number of spades.")
    suicide: bool = _option(
        False, "Suicide", "In every team exactly one partner bids nil.", "partnership"
    )
    mirror: bool = _option(
        False,
        "Mirror",
        "Every player bids exactly their number of spades; a hand without spades bids nil.",
    )
    ten_for_two_hundred: bool = _option(
        False, "10 for 200", "A team bid of exactly 10 scores ±200 instead of ±100.", "partnership"
    )
    boston_bonus: int = _option(
        0,
        "Boston bonus",
        "Extra points for a team that bids 13 and takes all 13 tricks (0: none).",
        "partnership",
    )
    bag_limit: int | None = _option(
        10, "Bag limit", "Every this many bags costs the bag penalty; bags can be turned off."
    )
    bag_penalty: int = _option(
        _DEFAULT_BAG_PENALTY, "Bag penalty", "Points lost each time the bags reach the limit."
    )
    jokers: bool = _option(
        False,
        "Jokers",
        "The Big and Little Joker replace two cards and rank above the A♠ "
        "(which two, and how the trumps rank: the joker ranking).",
    )
    joker_ranking: JokerRanking = _option(
        "ace",
        "Joker ranking",
        "With the jokers: Big Joker, Little Joker, A♠ with the 2♣ and 2♦ out; or Big Joker, "
        "Little Joker, 2♦, 2♠, A♠ with the 2♣ and 2♥ out (the 2♦ is a spade); or Big "
        "Joker, Little Joker, A♠ with the 2♣ and 2♥ out.",
    )
    no_spades_first_trick: bool = _option(
        False,
        "No spades on the first trick",
        "Nobody may play a spade to the first trick unless they hold nothing else.",
    )
    spades_lead_any_time: bool = _option(
        False, "Lead spades any time", "Spades may be led before they are broken."
    )
    players: int = _option(
        4,
        "Players",
        "Three or four players; three play cutthroat with 17 cards each.",
        "cutthroat",
    )
    partnerships: bool = _option(
        True,
        "Partnerships",
        "Two teams of partners sitting across; off: cutthroat, everyone for themselves.",
        "cutthroat",
    )
    set_aside: SetAside = _option(
        "two_of_clubs",
        "Card set aside",
        "Three players leave one card out: the 2♣ for all to know, or a random card unseen.",
        "cutthroat",
    )
    bid_total_not_tricks: bool = _option(
        False,
        "Bids may not add up to the tricks",
        "The last bid may not make the total of all bids equal the number of tricks.",
        "cutthroat",
    )
    jokers_added: bool = _option(
        False,
        "Jokers added (54 cards)",
        "Three players add the Big and Little Joker as trumps above the A♠: "
        "18 cards each, none set aside.",
        "cutthroat",
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_type(f.name, getattr(self, f.name), f.type)
        # Every number has bounds no table would reach (see MAX_TARGET).
        if not 1 <= self.target_score <= MAX_TARGET:
            raise RulesError(
                f"target_score: the target must be a positive score up to {MAX_TARGET:,}, "
                f"not {self.target_score}"
            )
        if self.mercy_score is not None and not -MAX_TARGET <= self.mercy_score <= -1:
            raise RulesError(
                f"mercy_score: the mercy score must be below zero, down to {-MAX_TARGET:,} "
                f"(or None to turn it off), not {self.mercy_score}"
            )
        if self.tie_policy not in ("play_on", "draw"):
            raise RulesError(f"tie_policy: must be 'play_on' or 'draw', not {self.tie_policy!r}")
        if self.joker_ranking not in JOKER_RANKINGS:
            choices = ", ".join(repr(ranking) for ranking in JOKER_RANKINGS)
            raise RulesError(f"joker_ranking: must be {choices}, not {self.joker_ranking!r}")
        if self.joker_ranking != "ace" and not self.jokers:
            raise RulesError(
                "joker_ranking: a ranking of the jokers needs the jokers; turn jokers on"
            )
        if self.blind_nil and not self.nil_allowed:
            raise RulesError("blind_nil: blind nil needs nil bids; turn nil_allowed on")
        if not 0 <= self.blind_nil_deficit <= MAX_TARGET:
            raise RulesError(
                f"blind_nil_deficit: must be 0 to {MAX_TARGET:,} points, "
                f"not {self.blind_nil_deficit}"
            )
        if self.blind_nil_exchange and not self.blind_nil:
            raise RulesError("blind_nil_exchange: the exchange needs blind nil; turn blind_nil on")
        if self.nil_pass not in NIL_PASSES:
            raise RulesError(f"nil_pass: the partners swap 0, 2 or 4 cards, not {self.nil_pass}")
        if self.nil_pass and not self.nil_allowed:
            raise RulesError("nil_pass: the nil pass needs nil bids; turn nil_allowed on")
        if not 0 <= self.min_team_bid <= 13:
            raise RulesError(f"min_team_bid: must be 0 to 13, not {self.min_team_bid}")
        if self.whiz and not self.nil_allowed:
            raise RulesError("whiz: whiz needs nil bids (a hand with no spades bids nil)")
        if self.whiz and self.min_team_bid:
            raise RulesError(
                "whiz: whiz bids follow the spades held and cannot meet a minimum "
                "team bid; set min_team_bid to 0"
            )
        if self.suicide and not self.nil_allowed:
            raise RulesError("suicide: suicide needs nil bids; turn nil_allowed on")
        if self.suicide and self.whiz:
            raise RulesError("suicide: suicide and whiz contradict each other; pick one")
        if self.mirror:
            self._check_mirror()
        if not 0 <= self.boston_bonus <= MAX_BONUS:
            raise RulesError(
                f"boston_bonus: must be 0 to {MAX_BONUS:,} points, not {self.boston_bonus}"
            )
        if self.bag_limit is not None and not 1 <= self.bag_limit <= MAX_BAG_LIMIT:
            raise RulesError(
                f"bag_limit: must be 1 to {MAX_BAG_LIMIT} bags (or None to turn bags off), "
                f"not {self.bag_limit}"
            )
        if not 0 <= self.bag_penalty <= MAX_BONUS:
            raise RulesError(
                f"bag_penalty: must be 0 to {MAX_BONUS:,} points, not {self.bag_penalty}"
            )
        if self.bag_limit is None and self.bag_penalty != _DEFAULT_BAG_PENALTY:
            raise RulesError(
                f"bag_penalty: a penalty of {self.bag_penalty} means nothing with "
                f"bag_limit=None (bags off); set a bag_limit or leave bag_penalty at "
                f"{_DEFAULT_BAG_PENALTY}"
            )
        self._check_game()

    def _check_game(self) -> None:
        """The checks of the table's shape and of the options that belong to one game."""
        if not 3 <= self.players <= 4:
            raise RulesError(f"players: 3 or 4 players play, not {self.players}")
        if self.players == 3 and self.partnerships:
            raise RulesError("players: three players play cutthroat; set partnerships=False")
        if self.set_aside not in _SET_ASIDE_CHOICES:
            raise RulesError(
                f"set_aside: must be 'two_of_clubs' or 'random', not {self.set_aside!r}"
            )
        game = self.game
        for f in dataclasses.fields(self):
            owner = f.metadata[_GAME]
            if f.name in ("players", "partnerships") or owner in (None, game):
                continue
            if getattr(self, f.name) != f.default:
                raise RulesError(
                    f"{f.name}: an option of the {owner} game; leave it at "
                    f"{value_words(f.default)} in the {game} game"
                )
        if game == "partnership":
            return
        if self.players == 4 and self.set_aside != "two_of_clubs":
            raise RulesError("set_aside: four players hold every card; nothing is set aside")
        if self.jokers_added:
            self._check_jokers_added()
        if self.players == 3 and self.jokers and self.set_aside == "two_of_clubs":
            raise RulesError(
                "jokers: the Big Joker takes the place of the 2♣ that three players set "
                "aside; set set_aside='random'"
            )
        if self.bid_total_not_tricks and self.whiz:
            raise RulesError(
                "bid_total_not_tricks: whiz bids follow the spades held and could leave "
                "the last bidder no bid; turn one of them off"
            )

    def _check_mirror(self) -> None:
        """Mirror bids are forced by the spades held, so no option may offer or ask for
        another bid."""
        if not self.nil_allowed:
            raise RulesError("mirror: mirror needs nil bids (a hand with no spades bids nil)")
        if self.blind_nil:
            raise RulesError(
                "mirror: every bid follows the spades held, so there is no blind nil; "
                "turn blind_nil off"
            )
        if self.whiz or self.suicide:
            other = "whiz" if self.whiz else "suicide"
            raise RulesError(f"mirror: mirror and {other} contradict each other; pick one")
        if self.min_team_bid:
            raise RulesError(
                "mirror: mirror bids follow the spades held and cannot meet a minimum "
                "team bid; set min_team_bid to 0"
            )
        if self.bid_total_not_tricks:
            raise RulesError(
                "mirror: mirror bids follow the spades held and add up to every trump, "
                "so they cannot avoid the number of tricks; turn bid_total_not_tricks off"
            )
        if self.jokers and self.partnerships:
            raise RulesError(
                "mirror: with the jokers a team can hold more than 13 trumps, more than "
                "it can bid; turn jokers off"
            )

    def _check_jokers_added(self) -> None:
        """The 54-card deck: three players, no other jokers, and no card set aside."""
        if self.players != 3:
            raise RulesError(
                "jokers_added: the 54-card deck deals 18 cards to each of three players; "
                "four play with 52"
            )
        if self.jokers:
            raise RulesError(
                "jokers_added: the jokers are either added or take the place of the 2♣ "
                "and 2♦; turn jokers off"
            )
        if self.set_aside != "two_of_clubs":
            raise RulesError("set_aside: the 54-card deck deals every card; nothing is set aside")

    @property
    def game(self) -> Game:
        """``"partnership"`` or ``"cutthroat"``."""
        return "partnership" if self.partnerships else "cutthroat"

    @property
    def joker_deck(self) -> JokerRanking | None:
        """The ranking of the jokers that replace two cards of the deck, or None when no
        joker does (the deck's cards are named and ranked by it).

        >>> Rules().joker_deck, Rules(jokers=True).joker_deck
        (None, 'ace')
        """
        return self.joker_ranking if self.jokers else None

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player, and so the tricks of a hand: 13, or for three
        players 17 (18 with the 54-card deck)."""
        if self.players == 4:
            return 13
        return 18 if self.jokers_added else 17

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats of the table, in play order from North (seat 0).

        >>> Rules().seats, Rules(players=3, partnerships=False).seats
        ((0, 1, 2, 3), (0, 1, 2))
        """
        return _table(self.players, self.partnerships).seats

    def sides(self) -> tuple[tuple[Seat, ...], ...]:
        """The seats of each side that scores: the two teams, North/South (side 0) and
        East/West (side 1), in partnership play; each player alone in cutthroat, side
        ``n`` being seat ``n``.

        >>> Rules().sides(), Rules(players=3, partnerships=False).sides()
        (((0, 2), (1, 3)), ((0,), (1,), (2,)))
        """
        return _table(self.players, self.partnerships).sides

    def side_of(self, seat: Seat) -> int:
        """The side ``seat`` plays for: its team, or in cutthroat the seat itself.

        >>> Rules().side_of(3), Rules(partnerships=False).side_of(3)
        (1, 3)
        """
        return _table(self.players, self.partnerships).side_of[seat]

    def partner(self, seat: Seat) -> Seat | None:
        """The partner of ``seat``, across the table; None in cutthroat.

        >>> Rules().partner(1), Rules(partnerships=False).partner(1)
        (3, None)
        """
        return _table(self.players, self.partnerships).partners[seat]

    def to_dict(self) -> dict[str, Any]:
        """The options of this game as a plain dict (for JSON).

        The options of the other game are left out (they stay at their defaults), so a
        partnership game's dict is the one it has always been.
        """
        return {name: getattr(self, name) for name in _names(self.game)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict; unknown names are refused, missing ones take the default.

        Every value is checked as the constructor checks it (saved games and imported
        records come this way).
        """
        if not isinstance(data, dict):
            raise RulesError(f"rules: expected an object, not {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(str(name) for name in data if name not in known)
        if unknown:
            raise RulesError(f"{unknown[0]}: not a rule option")
        return cls(**data)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, slots=True)
class _Table:
    """The seats of a table's shape and the sides they play for (see :meth:`Rules.sides`)."""

    seats: tuple[Seat, ...]
    sides: tuple[tuple[Seat, ...], ...]
    side_of: tuple[int, ...]
    partners: tuple[Seat | None, ...]


@cache
def _table(players: int, partnerships: bool) -> _Table:
    seats = tuple(range(players))
    if not partnerships:
        return _Table(seats, tuple((seat,) for seat in seats), seats, (None,) * players)
    teams = tuple(tuple(seat for seat in seats if team_of(seat) == team) for team in (0, 1))
    return _Table(seats, teams, tuple(map(team_of, seats)), tuple(map(partner, seats)))


#: Plain words for the option values that are names or "off".
_VALUE_WORDS: Final[dict[Any, str]] = {
    "play_on": "play another hand",
    "draw": "share the game",
    "two_of_clubs": "the 2♣",
    "random": "a random card, unseen",
    "ace": "Big Joker, Little Joker, A♠; jokers for the 2♣ and 2♦",
    "deuces": "Big Joker, Little Joker, 2♦, 2♠, A♠; jokers for the 2♣ and 2♥",
    "ace_no_2h": "Big Joker, Little Joker, A♠; jokers for the 2♣ and 2♥",
    None: "off",
}


def value_words(value: Any) -> str:
    """An option's value in plain words.

    >>> value_words("play_on"), value_words(None), value_words(500), value_words(True)
    ('play another hand', 'off', '500', 'on')
    """
    if isinstance(value, bool):
        return "on" if value else "off"
    return _VALUE_WORDS.get(value, str(value))


def _names(game: Game) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(Rules) if f.metadata[_GAME] in (None, game))


def describe_options(game: Game = "partnership") -> list[tuple[str, str, str, Any]]:
    """(name, label, help, default) for every option of ``game``, in declaration order.

    >>> [name for name, *_ in describe_options("cutthroat")][-5:]
    ['players', 'partnerships', 'set_aside', 'bid_total_not_tricks', 'jokers_added']
    """
    return [
        (f.name, f.metadata[_LABEL], f.metadata[_HELP], f.default)
        for f in dataclasses.fields(Rules)
        if f.metadata[_GAME] in (None, game)
    ]


_FIELDS: Final = {f.name: f for f in dataclasses.fields(Rules)}


def option_choices(name: str) -> tuple[Any, ...] | None:
    """The only values option ``name`` takes, where it is a number picked from a list.

    >>> option_choices("nil_pass"), option_choices("target_score")
    ((0, 2, 4), None)
    """
    choices: tuple[Any, ...] | None = _FIELDS[name].metadata[_CHOICES]
    return choices


def _check_type(name: str, value: Any, declared: Any) -> None:
    text = str(declared)
    if "bool" in text:
        ok = isinstance(value, bool)
    elif "int" in text:
        ok = (isinstance(value, int) and not isinstance(value, bool)) or (
            value is None and "None" in text
        )
    else:
        ok = isinstance(value, str)
    if not ok:
        raise RulesError(f"{name}: {value!r} is not a valid {text.replace('|', 'or')}")


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set with a line saying what it is for."""

    name: str
    description: str
    rules: Rules


#: The named rule sets a player picks from; any other set of options is their own (custom).
PRESETS: Final = (
    Preset(
        "Standard",
        "The rules as printed: nil and blind nil, 10 bags cost 100, first to 500.",
        Rules(),
    ),
    Preset(
        "Casual",
        "No blind nil and no bags to count: just bid and play.",
        Rules(blind_nil=False, bag_limit=None),
    ),
    Preset(
        "Competitive",
        "Partners bid at least 4 together, no spades on the first trick, every 5 bags cost 50.",
        Rules(min_team_bid=4, no_spades_first_trick=True, bag_limit=5, bag_penalty=50),
    ),
    Preset("Whiz", "Bid nil or exactly the number of spades you hold.", Rules(whiz=True)),
    Preset("Suicide", "In every team exactly one partner bids nil.", Rules(suicide=True)),
    Preset(
        "Mirror",
        "Everyone bids exactly their number of spades: nil with none, and no blind nil.",
        Rules(mirror=True, blind_nil=False),
    ),
    Preset("Jokers", "Two jokers replace the 2♣ and 2♦ and rank above the A♠.", Rules(jokers=True)),
    Preset(
        "Jokers and deuces",
        "Two jokers replace the 2♣ and 2♥; trumps rank Big Joker, Little Joker, 2♦, 2♠, A♠.",
        Rules(jokers=True, joker_ranking="deuces"),
    ),
    Preset(
        "Jokers, no 2♥",
        "Two jokers replace the 2♣ and 2♥ and rank above the A♠; the 2♦ stays a diamond.",
        Rules(jokers=True, joker_ranking="ace_no_2h"),
    ),
    Preset(
        "Cutthroat (3)",
        "Three players, each for themselves: the 2♣ is set aside, 17 cards each.",
        Rules(players=3, partnerships=False),
    ),
    Preset(
        "Cutthroat (4)",
        "Four players and no partners: everyone bids and scores alone.",
        Rules(players=4, partnerships=False),
    ),
)


def preset_of(rules: Rules) -> Preset | None:
    """The preset whose rules these are, or None for a set of one's own.

    >>> [preset.name for preset in PRESETS][-5:]
    ['Jokers', 'Jokers and deuces', 'Jokers, no 2♥', 'Cutthroat (3)', 'Cutthroat (4)']
    >>> preset_of(Rules(whiz=True)).name, preset_of(Rules(target_score=300))
    ('Whiz', None)
    """
    return next((preset for preset in PRESETS if preset.rules == rules), None)
