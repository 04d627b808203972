"""The card game in chromium, as a person plays it (issue 42): a reaction window asks the person only what
they can do (the Ultimatum's own initiator is told its offer is made), and a finished game says why the
round ended. The fixtures here (a test server whose app a test may reach, to set up a position) are
shared with tests/web/test_browser_ultimatum_world.py."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.ultimatum_cards.positions import position

from . import browser as served
from .browser import chromium, new_page, running_server
from .names import env_name

CARDS = env_name("ultimatum_cards")
RANDOM_BOTS = {"1": "random", "2": "random", "3": "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(address, app) of a test server: a test may reach the app's live games to set up a position."""
    made = []
    real = served.create_app
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(served, "create_app", lambda **kwargs: made.append(real(**kwargs)) or made[-1])
        with running_server(tmp_path_factory.mktemp("replays")) as address:
            yield address, made[0]


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture()
def page(browser):
    with new_page(browser) as (opened, errors):
        yield opened
        assert not errors, errors


def open_game(page, server, body: dict[str, Any], state=None) -> None:
    """A game made as the page makes one; `state`, if given, is its position before the page shows it."""
    url, app = server
    page.add_init_script("localStorage.setItem('ultimataSpeed', '30')")  # bots move at once
    made = page.request.post(f"{url}/api/sessions", data=body)
    assert made.ok, made.text()
    game_id = made.json()["id"]
    if state is not None:
        app.state.store.get(game_id).state = state
    page.goto(f"{url}/#/game/{game_id}")
    page.wait_for_selector(".board")


def click(page, target) -> None:
    """A person's click on something that plays a move, the server's answer, and the page drawn again."""
    before = page.locator("#main").get_attribute("data-moves")
    with page.expect_response(lambda r: r.url.endswith("/move")) as answer:
        target.click()
    assert answer.value.ok, answer.value.text()
    page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)


def test_after_your_own_offer_you_are_told_it_is_made_and_what_a_counter_would_do(page, server):
    hands = {0: ["Ultimatum", "Counter", "Draw"], 1: ["Draw", "Take 1"], 2: ["Draw", "Take 2"], 3: ["Take 3"]}
    open_game(page, server, {"game": CARDS, "human_seat": 0, "opponents": RANDOM_BOTS, "seed": 1},
              position(hands, chips=[10, 10, 12, 8]))
    click(page, page.locator(".hand .card[data-card=Ultimatum]"))
    click(page, page.locator(".seat[data-seat='1']"))
    click(page, page.locator(".seat[data-seat='2']"))
    assert page.locator(".status.turn").inner_text().endswith(": offer the responder a share")
    click(page, page.locator(".amounts button", has_text=re.compile(r"^4$")))
    status = page.locator(".status.turn").inner_text()
    assert "counter or pass" not in status
    assert status.endswith(": your offer is made; you may still play your Counter card to make player_1 a second "
                           "offer for player_2's chips (they may accept either), or 'pass'"), status
    assert page.locator(".amounts span").inner_text().startswith("your counter")
    assert page.locator(".moves > button", has_text="pass").count() == 1


def test_a_round_you_end_with_your_last_card_says_so_when_the_game_is_over(page, server):
    open_game(page, server, {"game": CARDS, "human_seat": 0, "opponents": RANDOM_BOTS, "seed": 1},
              position({0: ["Take 2"], 1: ["Draw", "Round"]}))
    click(page, page.locator(".hand .card[data-card='Take 2']"))
    click(page, page.locator(".seat[data-seat='1']"))
    page.wait_for_selector(".result")
    assert page.locator(".result").inner_text().startswith("Game over: you win!")
    assert page.locator(".board .end-reason").inner_text() == (
        "The round ended: player_0 played the last card of their hand; quick play lasts one round. "
        "Final scores: player_0 12, player_1 8, player_2 10, player_3 10.")


def test_a_game_between_bots_says_why_its_last_round_ended(page, server):
    open_game(page, server, {"game": CARDS, "human_seat": None, "opponents": {"0": "random", **RANDOM_BOTS},
                             "config": {"mode": "match", "match_rounds": 2}, "seed": 5})
    page.wait_for_selector(".result", timeout=180_000)  # a bound for a busy machine, not a timing
    why = page.locator(".board .end-reason").inner_text()
    assert re.fullmatch(r"The round ended: player_\d (played a Round card|played the last card of their hand|was left"
                        r" with no cards by a swap of hands); match play lasts 2 rounds\. Final scores: .*", why), why


def test_the_shipped_bot_trained_on_the_array_path_plays_a_whole_game_in_the_browser(page, server):
    """The card game's shipped bot was trained on the array engine (agents/pretrained/ultimatum_cards.json
    says so): as an ordinary checkpoint it holds every seat of a browser game to its end (issue 52)."""
    import json

    from ultimata.agents.specs import pretrained_path

    assert "array path" in json.loads(pretrained_path(CARDS).with_suffix(".json").read_text())["extra"]["note"]
    bots = {str(seat): "pretrained" for seat in range(4)}
    open_game(page, server, {"game": CARDS, "human_seat": None, "opponents": bots, "seed": 3})
    page.wait_for_selector(".result", timeout=180_000)  # a bound for a busy machine, not a timing
    assert re.match(r"Game over: (player_\d \(pretrained\) won|.*tie)", page.locator(".result").inner_text())
