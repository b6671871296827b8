"""What an exercise is: a question, its options, the engine's answer, and the verdict on a
pick, with the reason in plain words.

The generators of each lesson group (:mod:`~spades.app.tutorial.trick_lessons`,
:mod:`~spades.app.tutorial.bid_lessons`, :mod:`~spades.app.tutorial.score_lessons`) build
exercises from these parts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from spades.app.table_view import TableView
from spades.engine.cards import Card, Seat, card_label
from spades.engine.rules import Rules
from spades.engine.scoring import HandResult, score_hand, score_players
from spades.engine.state import HandState

Kind = Literal["cards", "card", "choice"]


@dataclass(frozen=True, slots=True)
class Option:
    """One possible answer: the value checked and the label shown."""

    value: int
    label: str


@dataclass(frozen=True, slots=True)
class Feedback:
    """The verdict on an answer, with the reason in plain words."""

    correct: bool
    text: str


class ScoreCase(NamedTuple):
    """A scored hand's inputs: the seats' bids (0 = nil), blind flags and tricks."""

    bids: tuple[int, ...]
    blind: tuple[bool, ...]
    tricks: tuple[int, ...]

    def score(self, rules: Rules) -> HandResult:
        """The engine's score of the hand, from no bags on the count: by team, or in
        cutthroat by player."""
        if not rules.partnerships:
            return score_players(
                rules,
                bids=self.bids,
                blind=self.blind,
                tricks=self.tricks,
                bags_before=(0,) * rules.players,
            )
        b0, b1, b2, b3 = self.bids
        f0, f1, f2, f3 = self.blind
        t0, t1, t2, t3 = self.tricks
        return score_hand(
            rules,
            bids=(b0, b1, b2, b3),
            blind=(f0, f1, f2, f3),
            tricks=(t0, t1, t2, t3),
            bags_before=(0, 0),
        )


@dataclass(frozen=True, slots=True, eq=False)
class Exercise:
    """A question with its options, the engine's answer, and why.

    ``kind`` is ``"cards"`` (pick every right card), ``"card"`` (pick one card) or
    ``"choice"`` (pick one option). ``answer`` holds every option value that is right;
    for a one-pick kind any of them is accepted. So that anyone can check the answer,
    the exercise keeps what it is about: ``position``, the engine state of the question;
    ``case``, a scored hand; ``scores``, the running scores; ``bags``, the bags on the
    count and the bags taken this hand. What the page draws of the position is
    ``table``, the table as South sees it (``None`` when the question shows no table);
    where its cards or bids are the answers (:attr:`on_table`), the learner clicks them
    there.
    """

    lesson: int
    seed: int
    kind: Kind
    prompt: str
    options: tuple[Option, ...]
    answer: frozenset[int]
    explanation: str
    reasons: Mapping[int, str]
    hand: tuple[Card, ...] = ()
    trick: tuple[tuple[Seat, Card], ...] = ()
    facts: tuple[str, ...] = ()
    position: HandState | None = field(default=None, repr=False)
    table: TableView | None = field(default=None, repr=False)
    case: ScoreCase | None = None
    scores: tuple[int, ...] | None = None
    bags: tuple[int, int] | None = None

    @property
    def on_table(self) -> bool:
        """Whether the exercise is answered on its table (South's cards or bid) rather
        than with answers of its own beside it."""
        return self.table is not None and not self.table.read_only

    def label(self, value: int) -> str:
        """The label of an option value."""
        for option in self.options:
            if option.value == value:
                return option.label
        raise ValueError(f"{value} is not an option of this exercise")

    def check(self, picked: Iterable[int] | int) -> Feedback:
        """Judge an answer: a set of values for ``"cards"``, one value otherwise."""
        chosen = frozenset((picked,)) if isinstance(picked, int) else frozenset(picked)
        unknown = chosen - {o.value for o in self.options}
        if unknown:
            raise ValueError(f"{sorted(unknown)} are not options of this exercise")
        if self.kind == "cards":
            if chosen == self.answer:
                return Feedback(True, f"Right. {self.explanation}")
            parts = [
                f"{_labels_of(self, group)}: {reason}"
                for reason, group in _by_reason(self, chosen - self.answer)
            ]
            parts += [
                f"Missing {_labels_of(self, group)}: {reason}"
                for reason, group in _by_reason(self, self.answer - chosen)
            ]
            why = " ".join(sentence(part) for part in parts)
            return Feedback(False, f"Not quite. {why} {self.explanation}")
        if len(chosen) != 1:
            raise ValueError("pick exactly one option")
        (value,) = chosen
        if value in self.answer:
            return Feedback(True, f"Right. {self.explanation}")
        why = self.reasons.get(value, "")
        lead = sentence(f"Not “{self.label(value)}”: {why}") if why else "Not quite."
        return Feedback(False, f"{lead} {self.explanation}")


def _by_reason(exercise: Exercise, values: Iterable[int]) -> list[tuple[str, list[int]]]:
    """Values grouped by their reason, so that one sentence covers several cards."""
    groups: dict[str, list[int]] = {}
    for value in sorted(values):
        groups.setdefault(exercise.reasons[value], []).append(value)
    return list(groups.items())


def _labels_of(exercise: Exercise, values: Iterable[int]) -> str:
    return ", ".join(exercise.label(v) for v in values)


def sentence(text: str) -> str:
    """``text`` as a sentence: stripped, and closed with a full stop unless it has one."""
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def trick_facts(state: HandState) -> tuple[str, ...]:
    """Which trick of the hand this is, and whether spades are broken."""
    broken = "Spades are broken." if state.spades_broken else "Spades are not broken yet."
    return (f"Trick {len(state.tricks) + 1} of {state.hand_size}.", broken)


def cards_labels(cards: Iterable[Card]) -> str:
    """Cards as the learner reads them: ``A♠, 10♥``."""
    return ", ".join(card_label(c) for c in cards)


def card_options(cards: Iterable[Card]) -> tuple[Option, ...]:
    """One option a card, labelled with the card."""
    return tuple(Option(c, card_label(c)) for c in cards)
