"""The tutorial in Chromium: lesson 2 completed by clicking South's cards on the table, and
a trick's winner shown on the table once the question who wins it is answered."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from spades.app.tutorial import EXERCISES_TO_PASS, LESSONS, exercise_seed, make_exercise
from spades.engine.cards import SEAT_LETTERS, card_label, card_str
from spades.ui.cards import card_key

pytestmark = pytest.mark.browser

SESSION_SEED = 7
WAIT = 30_000


def _button(page: Page, key: str) -> Locator:
    # A button with a tooltip is drawn twice, once hidden for measuring; take the shown one.
    return page.locator(f".st-key-{key} button:visible")


def test_lesson_two_is_completed_by_clicking_the_playable_cards(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/learn?seed={SESSION_SEED}")
    lesson_button = _button(page, "learn_lesson_2")
    expect(lesson_button).to_be_visible(timeout=WAIT)
    lesson_button.click()
    expect(page.get_by_role("heading", name="Lesson 2: Following suit")).to_be_visible(timeout=WAIT)
    for index in range(EXERCISES_TO_PASS):
        # The URL's seed fixes the session's exercises, so the engine here knows the answer.
        ex = make_exercise(2, exercise_seed(SESSION_SEED, 2, index))
        title = "First example" if index == 0 else f"Exercise {index + 1}"
        expect(page.get_by_role("heading", name=title)).to_be_visible(timeout=WAIT)
        expect(page.get_by_text(ex.prompt)).to_be_visible(timeout=WAIT)
        for card in ex.hand:
            # South's cards on the table, drawn by the Play page's renderer, are the answers.
            expect(_button(page, card_key(card))).to_be_visible()
        picked: list[int] = []
        for card in sorted(ex.answer):
            _button(page, card_key(card)).click()
            picked.append(card)
            # Wait for the rerun that records this pick before clicking the next card.
            labels = ", ".join(card_label(c) for c in picked)
            expect(page.get_by_text(f"Picked: {labels}", exact=True)).to_be_visible(timeout=WAIT)
        _button(page, "learn_check").click()
        expect(page.get_by_text(re.compile(r"^Right\."))).to_be_visible(timeout=WAIT)
        if index < EXERCISES_TO_PASS - 1:
            _button(page, "learn_next").click()
    expect(page.get_by_text("Lesson 2 done", exact=False)).to_be_visible(timeout=WAIT)
    expect(_button(page, "learn_lesson_2")).to_have_text(re.compile("✓"), timeout=WAIT)
    lessons = f"1 of {len(LESSONS)} lessons done"
    expect(page.get_by_text(re.compile(lessons))).to_be_visible(timeout=WAIT)


def test_the_winner_of_a_trick_is_marked_on_the_table_once_the_learner_names_it(
    page: Page, app_url: str
) -> None:
    page.goto(f"{app_url}/learn?seed={SESSION_SEED}")
    ex = make_exercise(1, 0)
    expect(page.get_by_text(ex.prompt)).to_be_visible(timeout=WAIT)
    trick = page.locator(".st-key-trick")
    for seat, card in ex.trick:
        placed = trick.locator(f'[data-card="{card_str(card)}"][data-seat="{SEAT_LETTERS[seat]}"]')
        expect(placed).to_be_visible()
    expect(trick.locator('[data-winner="true"]')).to_have_count(0)
    expect(page.locator(".st-key-status")).to_have_text("The trick is complete.")
    (winning,) = ex.answer
    _button(page, f"card_learn_{card_str(winning)}").click()
    expect(page.get_by_text(re.compile(r"^Right\."))).to_be_visible(timeout=WAIT)
    won = trick.locator('[data-winner="true"]')
    expect(won).to_have_count(1, timeout=WAIT)
    expect(won).to_have_attribute("data-card", card_str(winning))
    expect(page.locator(".st-key-status")).to_have_text(re.compile("wins the trick"))
