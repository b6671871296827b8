"""In Chromium: each Explore page draws its charts once the store holds a few games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from spades.app.lab import LabSpec, run_lab
from spades.bots.drive import play_match
from spades.engine.rules import Rules
from spades.stats.ratings import RATER
from spades.store import GameFilter, Store

pytestmark = pytest.mark.browser

CHARTS = {"overview": 1, "explorer": 2, "bids": 4, "bot_lab": 1}


@pytest.fixture(scope="module")
def seeded(app_db_url: str) -> None:
    store = Store(app_db_url)
    run_lab(store, LabSpec(("random",) * 4, Rules(), matches=12, seed=3))
    human = [play_match(Rules(), seed, ["random"] * 4) for seed in (40, 41, 42)]
    store.save_matches(
        [
            (m, ("North", "East", "You", "West"), {0: "random", 1: "random", 3: "random"})
            for m in human
        ],
        kind="human",
    )
    store.close()


@pytest.mark.parametrize("path", list(CHARTS))
def test_each_explore_page_draws_its_charts(
    page: Page, app_url: str, seeded: None, path: str
) -> None:
    page.goto(f"{app_url}/{path}")
    # A new visitor owns no game: the seeded games are the bot lab's and nobody's.
    if path == "explorer":
        page.locator(".st-key-explorer_others label").click()
    if path == "overview":
        page.locator(".st-key-overview_bot_lab label").click()
    charts = page.locator("[data-testid=stVegaLiteChart]")
    expect(charts).to_have_count(CHARTS[path], timeout=30_000)
    for index in range(CHARTS[path]):
        drawn = charts.nth(index).locator("canvas, svg.marks").first
        expect(drawn).to_be_visible(timeout=30_000)


def test_the_bot_lab_runs_matches_from_the_browser(page: Page, app_url: str) -> None:
    page.goto(f"{app_url}/bot_lab")
    matches = page.locator(".st-key-lab_matches input")
    matches.fill("3")
    page.locator(".st-key-lab_run button").click()
    expect(page.get_by_text("Stored 3 of 3 simulated matches")).to_be_visible(timeout=60_000)


def _simulated(url: str) -> int:
    return len(Store(url).list_games(GameFilter(kinds=("simulated",))))


def test_enter_in_the_matches_field_starts_no_run(
    page: Page, app_url: str, app_db_url: str
) -> None:
    before = _simulated(app_db_url)
    page.goto(f"{app_url}/bot_lab")
    matches = page.locator(".st-key-lab_matches input")
    matches.fill("3")
    matches.press("Enter")
    # Had Enter started a run of 3, its matches would be stored before these 2 (the Run
    # button waits for a run to end).
    matches.fill("2")
    page.locator(".st-key-lab_run button").click()
    expect(page.get_by_text("Stored 2 of 2 simulated matches")).to_be_visible(timeout=60_000)
    assert _simulated(app_db_url) == before + 2


def test_a_lab_run_logs_no_warning(page: Page, fresh_app_url: str, tmp_path: Path) -> None:
    page.goto(f"{fresh_app_url}/bot_lab")
    page.locator(".st-key-lab_matches input").fill("2")
    page.locator(".st-key-lab_run button").click()
    expect(page.get_by_text("Stored 2 of 2 simulated matches")).to_be_visible(timeout=60_000)
    # The server's log, where its worker processes write too.
    log = (tmp_path / "server.log").read_text()
    assert "ScriptRunContext" not in log
    assert "Session State API" not in log
    assert "WARNING" not in log


def test_the_boards_toolbar_leaves_the_people_only_toggle_clear(
    page: Page, app_url: str, app_db_url: str
) -> None:
    store = Store(app_db_url, rater=RATER)
    try:
        player, _ = store.new_player("Board")
        match = play_match(Rules(target_score=100), 8, ["random"] * 4)
        store.save_matches(
            [(match, ("North", "East", "Board", "West"), {0: "random", 1: "basic", 3: "basic"})],
            kind="human",
            owner=player,
        )
    finally:
        store.close()
    page.goto(f"{app_url}/leaderboard")
    board = page.locator("[data-testid=stDataFrame]")
    board.hover()
    toolbar = page.locator("[data-testid=stElementToolbar]").first
    expect(toolbar).to_be_visible(timeout=30_000)
    # The toolbar slides in over the space just above the table: measured from the table,
    # whose place stands still, it must clear the toggle.
    table, tools = board.bounding_box(), toolbar.bounding_box()
    toggle = page.locator(".st-key-board_people").bounding_box()
    assert table is not None and tools is not None and toggle is not None
    assert table["y"] - tools["height"] >= toggle["y"] + toggle["height"]


def test_the_replay_draws_the_table_s_card_faces(page: Page, app_url: str, seeded: None) -> None:
    """Each card of the replay is painted with its face from the table's deck (whose hearts
    and diamonds are red), served by the app."""
    page.goto(f"{app_url}/explorer")
    page.locator(".st-key-explorer_others label").click()
    card = page.locator(".st-key-explorer_replay .sp-card").first
    expect(card).to_have_css("background-image", re.compile(r"/_spades/cards/"), timeout=30_000)
