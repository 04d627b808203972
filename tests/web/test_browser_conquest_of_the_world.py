"""Conquest of the World in chromium, as a person plays it (issue 42): the event log names a spend level
in words ("all-out", never the identifier `all_out`), and the record shown beside each player's
homeland says why the homeland is not on it."""

from __future__ import annotations

from ultimata.envs.conquest_of_the_world import actions as A

from .browser import chromium, new_page, running_server
from .names import env_name
from .test_browser import start_game

GAME = env_name("conquest_of_the_world")


def _click(page, target, action: str | None = None) -> None:
    """Click a thing on the page and wait for the move; a menu of moves sharing the spot picks `action`
    (else its first move)."""
    with page.expect_response(lambda r: r.url.endswith("/move")) as response:
        target.click()
        menu = page.locator(".choice-menu button[data-action]")
        if menu.count():
            pick = menu.locator(f"xpath=self::*[@data-action='{action}']") if action else menu
            (pick if pick.count() else menu).first.click()
    assert response.value.ok, response.value.text()


def _play_one_move(page) -> None:
    """An all-out weapon when a battle asks for one; else an attack on a country; else a country to pick;
    else the last button (pass, done, decline)."""
    before = page.locator("#main").get_attribute("data-moves")
    all_out = page.locator(".weapon-dialog button[data-action]", has_text="all-out")
    countries = page.locator(".board g.clickable[data-action]")
    attacks = [countries.nth(i) for i in range(countries.count())
               if A.ATTACK <= int(countries.nth(i).get_attribute("data-action")) < A.WEAPON]
    if all_out.count():
        _click(page, all_out.first)
    elif attacks:
        _click(page, attacks[0], attacks[0].get_attribute("data-action"))
    elif countries.count():
        _click(page, countries.first)
    else:
        _click(page, page.locator(".moves > button[data-action]").last)
    page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)


def test_the_log_names_the_spend_level_in_words_and_the_record_leaves_out_the_homeland(tmp_path):
    with running_server(tmp_path) as url, chromium() as browser, new_page(browser) as (page, errors):
        start_game(page, url, GAME, seed=7)
        log = page.locator("ol.events")
        for _ in range(400):
            page.wait_for_selector(".status.turn, .result", timeout=60_000)
            if page.locator(".result").count() or "player_0 tank (all-out)" in log.inner_text():
                break
            _play_one_move(page)
        said = log.inner_text()
        assert "player_0 tank (all-out)" in said, said[-2000:]  # the battle you fought, in words
        assert "all_out" not in page.locator("body").inner_text()
        info = page.locator(".pitch-info").inner_text()
        home = page.locator(".you").inner_text().split("homeland ")[1].rstrip(".")
        assert f"player_0 (you) (red), homeland {home}: record" in info
        assert "a player's own homeland is not counted" in info
        rules = page.locator(".help").inner_text()
        assert "Your own homeland is not on the record" in rules
        assert not errors
