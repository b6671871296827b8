"""Why a trick's card won or lost, as the engine tells it (the tutorial's verdicts): the
highest trump takes the trick, or else the highest card of the suit led, under every deck."""

from __future__ import annotations

import pytest
from test_cutthroat import play_random_match
from test_invariants import play_match

from spades.engine.cards import BIG_JOKER, parse_card
from spades.engine.deck import Trick, TrickReason, deck_for, trick_reasons
from spades.engine.rules import Rules

WINNING = {TrickReason.TOP_TRUMP_LED, TrickReason.TOP_TRUMP, TrickReason.TOP_OF_LED}


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(jokers=True),
        Rules(jokers=True, joker_ranking="deuces"),
        Rules(players=3, partnerships=False),
        Rules(players=3, partnerships=False, jokers_added=True),
    ],
    ids=["standard", "jokers", "deuces", "cutthroat3", "cutthroat3_54_cards"],
)
def test_the_highest_trump_or_else_the_highest_of_the_suit_led_takes_the_trick_and_says_why(
    rules: Rules,
) -> None:
    checked = 0
    for seed in range(10):
        match = (
            play_match(seed, rules, check_views=False)
            if rules.partnerships
            else play_random_match(rules, seed, views=False)
        )
        for hand in match.finished:
            deck = hand.deck
            for trick in hand.tricks:
                winner, reasons = trick_reasons(deck, trick)
                plays = dict(trick.plays())
                assert winner == trick.winner and set(reasons) == set(plays)
                assert {s for s, why in reasons.items() if why in WINNING} == {winner}
                lead, best = trick.cards[0], plays[winner]
                assert (reasons[winner] is TrickReason.TOP_TRUMP_LED) == deck.is_trump(lead)
                assert (reasons[winner] is TrickReason.TOP_TRUMP) == (
                    deck.is_trump(best) and not deck.is_trump(lead)
                )
                for seat, card in plays.items():
                    why = reasons[seat]
                    if why is TrickReason.LOWER:
                        assert deck.suit[card] == deck.suit[best] and deck.beats(best, card)
                    elif why is TrickReason.TRUMPED:
                        assert deck.suit[card] == deck.suit[lead] and deck.is_trump(best)
                    elif why is TrickReason.OFF_SUIT:
                        assert deck.suit[card] not in (deck.suit[lead], deck.suit[best])
                checked += 1
    assert checked > 100


def test_a_joker_is_a_trump_that_beats_a_side_suit_led() -> None:
    deck = deck_for("ace")
    trick = Trick(0, (parse_card("KH"), BIG_JOKER, parse_card("AH"), parse_card("2S")), 1)
    winner, reasons = trick_reasons(deck, trick)
    assert winner == 1 and reasons[1] is TrickReason.TOP_TRUMP
    assert reasons[3] is TrickReason.LOWER and reasons[2] is TrickReason.TRUMPED
