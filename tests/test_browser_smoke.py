"""The app starts the way a user starts it and draws the table in Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_play_page_shows_the_new_game_button(page: Page, app_url: str) -> None:
    page.goto(app_url)
    expect(page.locator(".st-key-new_game")).to_be_visible(timeout=30_000)
