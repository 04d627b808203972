""""Why?" and "hint" in the browser, in all five games: with the toggle on, every bot move in the log says
why it was chosen (off, the reasons hide); on your turn, "hint" asks the bot you pick what it would play
in your seat and why (issue 54)."""

from __future__ import annotations

import pytest

from .browser import chromium, new_page, running_server
from .names import env_name
from .test_browser import GAMES, click_a_move, start_game

MOST_MOVES = 40
"""Moves made by clicking until a bot has moved (the world's set-up asks the person several times first)."""


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("replays")) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def your_turn(page) -> bool:
    page.wait_for_selector(".status.turn, .result", timeout=30_000)
    return not page.locator(".result").count()


@pytest.mark.parametrize("family", list(GAMES))
def test_bot_moves_say_why_and_a_hint_answers_your_turn(url, browser, family) -> None:
    with new_page(browser) as (page, errors):
        start_game(page, url, env_name(family), seed=5, config=GAMES[family][0])
        assert your_turn(page)
        hint = page.locator(".moves .hint-box")
        hint.locator("select").select_option("heuristic")
        hint.locator("button.hint").click()
        said = page.locator(".hint-said")
        page.wait_for_function("() => /would .*a scripted rule/.test(document.querySelector('.hint-said').textContent)")
        assert said.inner_text().startswith("heuristic would ")
        reasons = page.locator(".events li .bot-why")
        for turn in range(MOST_MOVES):
            if reasons.count() or not your_turn(page):
                break
            before = page.locator("#main").get_attribute("data-moves")
            click_a_move(page, turn)
            page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)
        assert reasons.count(), f"no bot moved in {MOST_MOVES} moves of {family}"
        assert not reasons.first.is_visible(), "the reasons hide until the toggle is on"
        page.locator(".why-toggle input").check()
        assert reasons.first.is_visible() and reasons.first.inner_text().startswith("why: ")
        # counted in one look at the page: bots may still be moving between two separate counts
        bot_moves, said_why = page.evaluate("""() => [document.querySelectorAll('.events li:not(.human)').length,
                                                     document.querySelectorAll('.events li .bot-why').length]""")
        assert bot_moves == said_why, "every bot move says why"
        assert all("a random legal move" in text for text in reasons.all_inner_texts())  # the form's bots are random
        assert not errors
