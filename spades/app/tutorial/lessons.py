"""The tutorial's prose: each lesson's number, title and explanation, in teaching order.

Lessons 1 to 8 are followed by exercises (:mod:`spades.app.tutorial.exercises`); lesson 9
is a guided practice hand (:mod:`spades.app.tutorial.practice`), and lesson 10, with its
own exercises, shows cutthroat, the game without partners.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spades.engine.rules import Rules
from spades.engine.scoring import bag_worth, nil_worth, trick_worth

from .positions import RULES, THREE_HANDED

PRACTICE_LESSON: Final = 9


def quoted(rules: Rules) -> dict[str, object]:
    """The numbers the prose quotes under ``rules``, by name: the rules' own, and the points
    asked of the engine's scoring.

    >>> quoted(RULES)["nil"], quoted(RULES)["mercy"], quoted(THREE_HANDED)["cards"]
    (100, '−200', 17)
    """
    return {
        "nil": nil_worth(rules),
        "blind_nil": nil_worth(rules, blind=True),
        "trick": trick_worth(rules),
        "bag": bag_worth(rules),
        "bag_limit": rules.bag_limit,
        "bag_penalty": rules.bag_penalty,
        "deficit": rules.blind_nil_deficit,
        "target": rules.target_score,
        # Prose writes a loss with a true minus sign.
        "mercy": str(rules.mercy_score).replace("-", "−"),
        "cards": rules.hand_size,
    }


@dataclass(frozen=True, slots=True)
class Lesson:
    """One lesson: its number, title and the short explanation shown before exercises."""

    number: int
    title: str
    explanation: str

    @property
    def is_practice(self) -> bool:
        """Whether this lesson is the guided practice hand rather than exercises."""
        return self.number == PRACTICE_LESSON


LESSONS: Final = (
    Lesson(
        1,
        "The deck, the ranks, and spades as trump",
        "Spades uses the 52-card deck: four suits of 13 cards. In each suit the ace is "
        "highest, then king, queen, jack, 10 and down to the 2.\n\n"
        "Four players sit North, East, South and West. You are South; North is your "
        "partner. One card each makes a **trick**. The first card sets the **led suit**: "
        "the highest card of that suit wins, unless someone plays a spade. **Spades are "
        "always trump**: any spade beats every card of another suit, and the highest "
        "spade wins. A card of a third suit never wins.",
    ),
    Lesson(
        2,
        "Following suit",
        "When a card is led you must **follow suit**: play a card of the led suit if you "
        "have one. Only when you have none of it may you play any card, a spade (to "
        "trump) or a discard from another suit.\n\n"
        "Pick every card you may play, then check.",
    ),
    Lesson(
        3,
        "Who wins the trick",
        "Look at the led suit first. If no spade was played, the highest card of the "
        "led suit wins; cards of other suits are discards and never win. If spades were "
        "played, the highest spade wins, even a small one against an ace of the led suit.",
    ),
    Lesson(
        4,
        "Breaking spades",
        "The winner of a trick leads the next one. You may lead any suit except spades "
        "until spades are **broken**, which happens when someone plays a spade because "
        "they cannot follow suit. There is one exception: if you hold **only spades**, "
        "you may lead one even before spades are broken.\n\n"
        "Pick every card you may lead, then check.",
    ),
    Lesson(
        5,
        "Bidding",
        "After the deal each player bids how many tricks they expect to take; your bid "
        "and your partner's add up to your team's contract. Count about one trick for "
        "each ace, for a king with another card of its suit, and for each spade beyond "
        "the third. Short side suits help too: once you are out of a suit you can trump "
        "it. It is better to bid a little low than to be set.\n\n"
        "Estimate the hand, then compare with the expert bot.",
    ),
    Lesson(
        6,
        "Nil and blind nil",
        (
            "Bidding **nil** says you will take no trick at all: +{nil} if you manage it, "
            "−{nil} if you take even one, and tricks you take count as bags for your team. "
            "Your partner still plays for their own bid and **protects** you: they try to "
            "win the tricks you would otherwise take, so play over your low cards.\n\n"
            "**Blind nil** is bid before you look at your cards and pays ±{blind_nil}. It is "
            "only allowed when your team trails by {deficit} points or more."
        ).format_map(quoted(RULES)),
    ),
    Lesson(
        7,
        "Scoring a hand",
        (
            "Your team's bids add up to its contract. Take at least that many tricks and "
            "score {trick} per trick bid, plus {bag} point for each extra trick (a **bag**). "
            "Take fewer and you are **set**: you lose {trick} per trick bid. A nil bidder's "
            "tricks do not help the partner's bid; the nil scores ±{nil} on its own."
        ).format_map(quoted(RULES)),
    ),
    Lesson(
        8,
        "Bags and the end of the game",
        (
            "Bags add up from hand to hand. Each time your team reaches {bag_limit} bags it "
            "loses {bag_penalty} points and {bag_limit} bags come off the count. So do not "
            "take too many extra tricks.\n\n"
            "The game ends when a team reaches **{target}**: it wins, and if both do the "
            "higher score wins. A team that falls to **{mercy}** or lower loses at once."
        ).format_map(quoted(RULES)),
    ),
    Lesson(
        9,
        "A guided practice hand",
        "Play a whole hand as South with bots at the other seats. Ask for a hint at any "
        "turn. When your card differs from the expert's choice you will see why it "
        "chose differently, and the hand ends with a review.",
    ),
    Lesson(
        10,
        "Cutthroat: everyone for themselves",
        (
            "In **cutthroat** there are no partners: every player bids, takes tricks and "
            "scores alone. It is the usual game for three. With three players the 2♣ is set "
            "aside and each gets **{cards} cards**, so bids run from nil to {cards}; the "
            "player to the dealer's left bids first and leads first, and spades break as "
            "usual.\n\n"
            "The scoring is the one you know, for one player: a made bid scores {trick} a "
            "trick plus {bag} a bag, a set loses {trick} a trick bid, nil is ±{nil}, and "
            "every {bag_limit} of your own bags cost {bag_penalty}. Nobody protects your nil, "
            "and the others gladly set the leader. When someone reaches **{target}** the "
            "highest score wins. With three, a player who falls to **{mercy}** is out: the "
            "other two play on until one of them wins.\n\n"
            "To play it, pick **Cutthroat (3)** or **Cutthroat (4)** under the house rules "
            "on the Play page."
        ).format_map(quoted(THREE_HANDED)),
    ),
)


def lesson(number: int) -> Lesson:
    """The lesson with this number (1 to 10)."""
    for item in LESSONS:
        if item.number == number:
            return item
    raise ValueError(f"there is no lesson {number} (lessons are 1 to {len(LESSONS)})")
