"""The per-person limit in the browser: Start says it next to the button and lists the games that hold it,
with "go back to it" and "leave", in any browser on that address (issue 54: a fresh browser saw only a
small line at the card's foot, and had no list of the games to leave, since the limit counts per address)."""

from __future__ import annotations

import pytest

from .browser import chromium, new_page, running_server
from .names import env_name
from .test_browser import game_id, open_form, start_game

CARDS = env_name("ultimatum_cards")
LIMIT = 2


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("replays"), max_per_client=LIMIT) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def test_a_fresh_browser_at_the_limit_is_told_next_to_start_and_can_go_back_or_leave(url, browser) -> None:
    with new_page(browser) as (first, first_errors):
        games = []
        for _ in range(LIMIT):
            start_game(first, url, CARDS)
            games.append(game_id(first))
        assert not first_errors
    with new_page(browser) as (page, errors):  # its own storage: it never saw those games start
        form = open_form(page, url, CARDS)
        form.locator("button[type=submit]").click()
        box = form.locator("button[type=submit] + .limit-reached")
        box.wait_for()
        assert f"at most {LIMIT} a person" in box.inner_text()
        rows = box.locator("li[data-game]")
        assert sorted(rows.evaluate_all("rows => rows.map((r) => r.dataset.game)")) == sorted(games)
        assert rows.locator("a", has_text="go back to it").count() == LIMIT
        page.once("dialog", lambda dialog: dialog.accept())
        box.locator(f"li[data-game='{games[0]}'] button", has_text="leave").click()
        listed = page.locator(".in-play li[data-game]")
        page.wait_for_function("() => document.querySelectorAll('.in-play li[data-game]').length === 1")
        assert listed.get_attribute("data-game") == games[1], "the page lists the address's games, from any browser"
        listed.locator("a", has_text="go back to it").click()
        page.wait_for_selector(".board")
        assert game_id(page) == games[1]
        start_game(page, url, CARDS)  # the slot left is free again
        assert game_id(page) not in games
        assert not errors
