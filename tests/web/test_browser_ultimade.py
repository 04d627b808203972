"""ULTIMADE in headless chromium, as a person plays it (issue 42, item 4): no rule may cost the person the
disc unseen. The kick-off prompt offers only what is offered, a run or 'done' that leaves the holder with
no free team-mate says so before it happens and the turn says why after, every field that is not a move
says why when hovered or clicked, and the Monster-Defense die says what a 2-5 does where it is shown.

Positions are set on the server when the game is created (the page then draws them as any game)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.ultimade.positions import field_action, position
from tests.web import browser
from tests.web.names import env_name
from ultimata.envs.core.rng import ScriptedRng
from ultimata.web.app import create_app

GAME = env_name("ultimade")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The test server and its session store, so a test can set the position a game starts from."""
    apps = []

    def keep(**options):
        apps.append(create_app(**options))
        return apps[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(browser, "create_app", keep)
        with browser.running_server(tmp_path_factory.mktemp("replays")) as url:
            yield url, apps[0].state.store


@pytest.fixture(scope="module")
def chromium():
    with browser.chromium() as launched:
        yield launched


@pytest.fixture()
def page(chromium):
    with browser.new_page(chromium) as (opened, errors):
        opened.set_default_timeout(180_000)  # a busy machine builds the games' list slowly: wait, never fail on time
        yield opened
        assert not errors


def start(page, server, build: Callable | None = None) -> None:
    """A game against random bots, the person on team A; `build(game)` gives the position it starts from."""
    url, store = server

    def set_position(route) -> None:
        response = route.fetch()
        if build is not None and route.request.method == "POST" and response.ok:
            session = store.get(response.json()["id"])
            session.state = build(session.state.game)
        route.fulfill(response=response)

    page.route("**/api/sessions", set_position)
    page.goto(url)
    page.evaluate("localStorage.setItem('ultimataSpeed', '50')")
    form = page.locator(f"form[data-game={GAME}]")
    form.wait_for()
    for select in form.locator("label.opp:visible select").all():
        select.select_option("random")
    form.locator("summary").click()
    form.locator("input[name=seed]").fill("3")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".board svg")


def moves_made(page) -> int:
    return int(page.evaluate("document.getElementById('main').dataset.moves || '0'"))


def click_and_wait(page, target) -> None:
    """Click a move and wait until the page has drawn what followed."""
    before = moves_made(page)
    target.click()
    page.wait_for_function("n => Number(document.getElementById('main').dataset.moves) > n", arg=before)


def click_field(page, field: str) -> None:
    click_and_wait(page, page.locator(f".board rect.clickable[data-field={field}]"))


def info(page) -> str:
    return page.locator(".board .pitch-info").inner_text()


def test_after_the_kick_off_the_prompt_offers_no_done_that_is_not_there(page, server) -> None:
    start(page, server)
    for _ in range(4):  # set up team A on the first highlighted fields; the bots place and pull
        click_and_wait(page, page.locator(".board rect.clickable").first)
    prompt = page.locator(".board .prompt", has_text="disc lies on the ground")
    prompt.wait_for()
    assert "or 'done'" not in prompt.inner_text() and "after that run" in prompt.inner_text()
    assert not page.locator(".moves > button", has_text="done").count()


def _turn_ahead(game):
    """A1 holds the disc on e5; A2 on e8 is his only free team-mate (b1 and h1 are on no line from e5)."""
    return position(game, ["e5", "e8", "b1", "h1"], ["c16", "g16", "i16", "a16"])


def test_a_run_that_leaves_the_holder_no_free_team_mate_warns_and_the_turn_says_why(page, server) -> None:
    start(page, server, _turn_ahead)
    page.locator(".board .prompt", has_text="Your offense step").wait_for()
    assert "A1 (disc) could throw now to: A2 on e8" in info(page)
    click_field(page, "e8")  # pick A2 to run
    warned, safe = (page.locator(f".board rect.clickable[data-field={f}]") for f in ("f10", "e10"))
    assert warned.locator("title").text_content() == "run A2 e8->f10 - then A1 has no free team-mate"
    assert warned.get_attribute("data-warning") == "no-free-team-mate" and safe.get_attribute("data-warning") is None
    assert "no free team-mate" not in safe.locator("title").text_content()
    prompt = page.locator(".board .prompt").inner_text()
    assert "A dashed orange square leaves A1 (disc) with no free team-mate" in prompt
    click_field(page, "f10")
    assert "A1 (disc) has no free team-mate now" in info(page)
    done = page.locator(".moves > button", has_text="done")
    assert "unless one is free after the defense's runs, a turn follows" in done.inner_text()
    done.click()
    turn = page.locator(".events li", has_text="finds no free team-mate")
    turn.wait_for()
    assert "A2 on f10: not on a straight line (row, column or diagonal) from e5" in turn.inner_text()
    assert "the nearest defender, takes the disc" in turn.inner_text()


def test_a_field_that_is_no_move_says_why_on_hover_and_click(page, server) -> None:
    start(page, server, _turn_ahead)
    page.locator(".board .prompt", has_text="Your offense step").wait_for()
    held = page.locator(".board rect.why-not[data-why-field=e5]")
    assert held.locator("title").text_content() == "e5: A1 holds the disc, and the player with the disc must not move"
    click_field(page, "e8")
    far = page.locator(".board rect.why-not[data-why-field=e13]")
    far.hover()
    assert far.locator("title").text_content() == "e13: 5 fields from e8: a run is 4 fields at most"
    far.click()
    message = page.locator(".board .why-not-message")
    assert message.inner_text() == "Not e13: 5 fields from e8: a run is 4 fields at most."
    page.locator(".board rect.why-not[data-why-field=c16]").click()
    assert message.inner_text() == "Not c16: B1 stands there: a run ends on an empty field."


def _monster_choice(game):
    """B1 on e14 has thrown to B2 on e11, next to A1 on f10: team A (the person) may roll; the die shows 3."""
    state = position(game, ["f10", "a1", "b1", "c1"], ["e14", "e11", "b18", "h18"], offense=1, holder="B1",
                     step="throw", rng=ScriptedRng([3]))  # fmt: skip
    state.apply(field_action(state, "e11"))
    return state


def test_the_monster_defense_die_says_what_2_to_5_does_where_the_roll_is_shown(page, server) -> None:
    start(page, server, _monster_choice)
    prompt = page.locator(".board .prompt", has_text="Monster-Defense")
    prompt.wait_for()
    assert "2, 3, 4, 5 is no turn: the catcher keeps the disc" in prompt.inner_text()
    roll = page.locator(".board rect.clickable[data-field=f10] title").text_content()
    assert "1 or 6: a turn, A1 takes the disc; 2, 3, 4, 5: B2 keeps it and only A1 may run next step" in roll
    click_field(page, "f10")
    shown = page.locator(".board .pitch-info div", has_text="last Monster-Defense roll: 3")
    shown.wait_for()
    assert "2, 3, 4, 5 is no turn: the catcher keeps the disc" in shown.inner_text()
    assert "only the marker who rolled may run" in shown.inner_text()
    told = page.locator(".events li", has_text="rolls 3").inner_text()
    assert "no turn (that needs 1 or 6): B2 keeps the disc, and in the defense's next step only A1 may run" in told
