"""In Chromium: a visitor makes a profile with a handle, kept by a cookie no script on the
page can read, a game they finish moves their rating, the Leaderboard opens on their own
rating history, and "Download my data" gives one JSON file holding their profile and their
game."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from browser_helpers import WAIT, cookies_set, kept_from_scripts
from db_helpers import run_sql
from playwright.sync_api import Page, expect

from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import Store

pytestmark = pytest.mark.browser


def test_a_profile_s_rated_game_shows_on_the_leaderboard_and_in_its_download(
    page: Page, app_url: str, app_db_url: str, tmp_path: Path
) -> None:
    handle = f"ada_{uuid.uuid4().hex[:8]}"
    page.goto(app_url + "/profile")
    page.locator(".st-key-profile_new_handle input").fill(handle)
    page.locator(".st-key-profile_new_name input").fill("Ada")
    page.locator(".st-key-profile_create_submit button").click()
    expect(page.locator(".st-key-profile_handle input")).to_have_value(handle, timeout=WAIT)
    [(player,)] = run_sql(app_db_url, "SELECT id FROM players WHERE handle = :h", h=handle)
    # The server has set the player's cookie, HttpOnly: a reload is still Ada.
    kept_from_scripts(page, cookies_set(page, 1)["spades_player"])
    page.reload()
    expect(page.locator(".st-key-profile_handle input")).to_have_value(handle, timeout=WAIT)

    # Ada finishes a game against bots: it is rated as it is stored.
    store = Store(app_db_url, rater=RATER)
    try:
        match = play_match(Rules(target_score=100), 7, ["random"] * 4)
        store.save_matches(
            [(match, ("North", "East", "Ada", "West"), {0: "random", 1: "basic", 3: "basic"})],
            kind="human",
            owner=player,
        )
    finally:
        store.close()

    page.goto(app_url + "/leaderboard")
    expect(page.locator(".st-key-board_subject input")).to_have_value("Ada", timeout=WAIT)
    chart = page.locator("[data-testid=stVegaLiteChart]")
    expect(chart.locator("canvas, svg.marks").first).to_be_visible(timeout=WAIT)

    page.goto(app_url + "/profile")
    with page.expect_download(timeout=WAIT) as download:
        page.locator(".st-key-profile_export button").click()
    saved = tmp_path / "mine.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert handle in json.dumps(data["profile"])
    assert len(data["games"]) == 1
