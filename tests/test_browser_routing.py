"""Every page runs behind the router, even as a fresh server's very first request."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("path", ["overview", "learn"])
def test_deep_link_as_first_request_runs_through_the_router(
    page: Page, fresh_app_url: str, path: str
) -> None:
    page.goto(f"{fresh_app_url}/{path}")
    nav = page.locator("[data-testid=stSidebarNav]")
    expect(nav.get_by_text("Game explorer")).to_be_visible(timeout=30_000)
    expect(nav.get_by_text("Bid accuracy")).to_be_visible()
