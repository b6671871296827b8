"""Golden seeded matches, played through the way OpenSpiel's playthroughs are: random bots
play a whole match from a fixed seed, and the text of that play must be the one checked in
as tests/golden/<case>.txt. For each hand the text holds the deal, then a line a step (the
seat to act, what every seat sees of the bidding or of the trick, the legal actions and the
action taken), a line a finished trick and the hand's score.

A change of the engine's behaviour shows as a diff of that text. When a change is meant,
write the files again from the engine and read their diff before committing it:

    SPADES_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from spades.bots import make_bot
from spades.engine.cards import SEAT_LETTERS, Action, Seat, bid_label, card_label, hand_cards
from spades.engine.match import Match
from spades.engine.observation import Observation, Phase
from spades.engine.rules import Rules

GOLDEN = Path(__file__).parent / "golden"
#: Set to write the golden files from the engine instead of checking them.
REGEN_ENV = "SPADES_REGEN_GOLDEN"
#: Lines of a diff shown when a playthrough differs; the rest is in ``git diff`` after a
#: regeneration.
DIFF_LINES = 80

CUTTHROAT_THREE = Rules(target_score=300, players=3, partnerships=False)
#: Each case's rules and seed: the standard game, the house options, and cutthroat for four,
#: for three, with the 54-card deck, and with a seat knocked out by the mercy score (the
#: match then ends by the mercy score again, or by the target).
CASES: dict[str, tuple[Rules, int]] = {
    "match_standard": (Rules(), 36),
    "match_house_rules": (
        Rules(
            target_score=300,
            mercy_score=-500,
            blind_nil_deficit=50,
            blind_nil_exchange=True,
            nil_tricks_count_toward_bid=True,
            ten_for_two_hundred=True,
            boston_bonus=100,
            bag_limit=5,
            bag_penalty=50,
            jokers=True,
            no_spades_first_trick=True,
        ),
        7,
    ),
    "match_cutthroat_four": (
        Rules(target_score=300, mercy_score=-500, partnerships=False, bid_total_not_tricks=True),
        2,
    ),
    "match_cutthroat_three": (CUTTHROAT_THREE.replace(mercy_score=-500), 5),
    "match_cutthroat_jokers_added": (
        CUTTHROAT_THREE.replace(mercy_score=-300, jokers_added=True),
        6,
    ),
    "match_cutthroat_knockout": (CUTTHROAT_THREE.replace(mercy_score=-150), 6),
    "match_cutthroat_knockout_target": (CUTTHROAT_THREE.replace(mercy_score=-150), 173),
}

Choose = Callable[[Match], Action]


def bots_choose(seed: int) -> Choose:
    """Four random bots, seeded from the match's seed, choosing for the seat to act."""
    bots = [make_bot("random", seed=seed * 4 + seat) for seat in range(4)]

    def choose(match: Match) -> Action:
        seat = match.current_player
        assert seat is not None
        return bots[seat].act(match.observation(seat))

    return choose


def replay_choose(actions: Iterable[Action]) -> Choose:
    """The actions of a played match, in order."""
    moves = iter(actions)
    return lambda match: next(moves)


def golden_match(name: str) -> Match:
    """The match of a golden case, as its random bots play it."""
    rules, seed = CASES[name]
    return play(rules, seed, bots_choose(seed), lambda line: None)


def play(rules: Rules, seed: int, choose: Choose, write: Callable[[str], None]) -> Match:
    """Play a match to its end with ``choose``, writing its playthrough a line at a time."""
    match = Match(rules, seed=seed)
    changed = {
        field.name: getattr(rules, field.name)
        for field in dataclasses.fields(rules)
        if getattr(rules, field.name) != getattr(Rules(), field.name)
    }
    write("rules: " + (", ".join(f"{k}={v!r}" for k, v in changed.items()) or "the defaults"))
    write(f"seed: {seed}")
    while not match.is_over:
        hand = match.hand
        write("")
        write(
            f"hand {match.hand_number}, dealer {_seat(hand.dealer)}:"
            f" scores {_sides(rules, hand.scores)}; bags {_sides(rules, hand.bags)}"
            + (f"; out {_seats(hand.out)}" if hand.out else "")
        )
        jokers = hand.deck.jokers
        for seat in range(rules.players):
            if seat not in hand.out:
                cards = (card_label(c, jokers=jokers) for c in hand_cards(hand.initial_hands[seat]))
                write(f"  {_seat(seat)} holds {' '.join(cards)}")
        if hand.set_aside:
            aside = (card_label(c, jokers=jokers) for c in hand_cards(hand.set_aside))
            write(f"  set aside {' '.join(aside)}")
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            view = hand.observation(seat)
            tricks = len(hand.tricks)
            action = choose(match)
            legal = _actions(hand.describe(a) for a in view.legal_actions)
            write(f"  {_seat(seat)} | {_table(view)} | legal {legal} | {hand.describe(action)}")
            match.apply(action)
            if len(hand.tricks) > tricks:
                done = hand.tricks[-1]
                write(
                    f"  trick {len(hand.tricks)} to {_seat(done.winner)}: taken"
                    f" {_per_seat(hand.tricks_won, hand.out)}"
                    + (", spades broken" if hand.spades_broken else "")
                )
        for side, result in enumerate(match.results[-1].sides):
            name = _side_names(rules)[side]
            if not rules.partnerships and side in hand.out:
                write(f"  {name} is out")
                continue
            reasons = "; ".join(line.text for line in result.lines)
            write(
                f"  {name} bid {result.bid}, took {result.tricks}: {result.points:+d}"
                f" ({reasons}); bags {result.bags_before} -> {result.bags_after}"
            )
    write("")
    write(f"over after {len(match.finished)} hands: scores {_sides(rules, match.scores)}")
    write(match.outcome.reason)
    return match


def _seat(seat: Seat) -> str:
    return SEAT_LETTERS[seat]


def _seats(seats: Iterable[Seat]) -> str:
    return " ".join(map(_seat, seats))


def _side_names(rules: Rules) -> list[str]:
    return ["N/S", "E/W"] if rules.partnerships else list(SEAT_LETTERS[: rules.players])


def _sides(rules: Rules, values: Iterable[int]) -> str:
    """A value a side: ``N/S 120, E/W -40``, or in cutthroat ``N 63, E 0, S 12``."""
    pairs = zip(_side_names(rules), values, strict=True)
    return ", ".join(f"{name} {value}" for name, value in pairs)


def _per_seat(values: Iterable[int], out: tuple[Seat, ...]) -> str:
    return ", ".join(f"{_seat(s)} {v}" for s, v in enumerate(values) if s not in out)


def _table(view: Observation) -> str:
    """What every seat sees: the bids so far while bidding, the trick so far in play."""
    if view.phase is Phase.BIDDING:
        bids = [
            f"{_seat(seat)} {bid_label(bid, blind)}"
            for seat, (bid, blind) in enumerate(zip(view.bids, view.blind, strict=True))
            if bid is not None
        ]
        return "bids " + (", ".join(bids) or "none yet")
    if view.phase is Phase.EXCHANGE:
        return "exchange"
    jokers = view.rules.joker_deck
    plays = [f"{_seat(seat)} {card_label(card, jokers=jokers)}" for seat, card in view.trick]
    return "trick " + (", ".join(plays) or "to lead")


def _actions(words: Iterator[str]) -> str:
    """Actions in words, the ones of a verb together: ``play 2♣ 5♣; claim the rest``."""
    groups: list[tuple[str, list[str]]] = []
    for text in words:
        verb, _, rest = text.partition(" ")
        if groups and groups[-1][0] == verb:
            groups[-1][1].append(rest)
        else:
            groups.append((verb, [rest]))
    return "; ".join(f"{verb} {', '.join(rest)}" for verb, rest in groups)


def test_there_are_golden_playthroughs() -> None:
    assert len(CASES) >= 2
    assert sorted(path.stem for path in GOLDEN.glob("*.txt")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_match_plays_through_as_the_stored_text(name: str) -> None:
    rules, seed = CASES[name]
    lines: list[str] = []
    match = play(rules, seed, bots_choose(seed), lines.append)
    text = "\n".join(lines) + "\n"
    path = GOLDEN / f"{name}.txt"
    if os.environ.get(REGEN_ENV):
        if os.environ.get("CI"):
            pytest.fail(f"{REGEN_ENV} is set: CI checks the golden files, it never writes them")
        path.write_text(text)
    _same_text(path, text)
    # The record (rules, seed, actions) plays back to the same text.
    replayed: list[str] = []
    play(rules, seed, replay_choose(match.history), replayed.append)
    _same_text(path, "\n".join(replayed) + "\n")


def _same_text(path: Path, text: str) -> None:
    expected = path.read_text()
    if text == expected:
        return
    diff = list(
        difflib.unified_diff(
            expected.splitlines(), text.splitlines(), str(path.name), "the engine", lineterm=""
        )
    )
    shown = "\n".join(diff[:DIFF_LINES])
    more = f"\n... {len(diff) - DIFF_LINES} more lines" if len(diff) > DIFF_LINES else ""
    pytest.fail(
        f"the play differs from {path.name}:\n{shown}{more}\n"
        f"If the change is meant, write the file again ({REGEN_ENV}=1) and review its diff.",
        pytrace=False,
    )
