"""Ultra War in headless chromium, where a person meets each explanation (issue 42): the dice of an attack in
words, why an activation ends after an attack, why a flying neighbour has no red square, what the crystal's
Mend does, and what caused damage. Each test sets a position on the server's own game, opens it as the
player would, and clicks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

import numpy as np
import pytest

from tests.ultra_war.positions import E, N, S, W, crystal, force, position
from ultimata.envs.ultra_war import actions as A
from ultimata.web.app import create_app

from . import browser as browser_helpers
from .browser import chromium, new_page, running_server
from .names import env_name

GAME = env_name("ultra_war")


class EndsItsTurn:
    """The other seat: ends its turn (or passes) at once, so the position stays the test's."""

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state=None) -> int:
        for action in (A.END_TURN, A.PASS, A.END_ACT):
            if action_mask[action]:
                return action
        return int(np.flatnonzero(action_mask)[0])


@contextmanager
def server(replays) -> Iterator[tuple[str, object]]:
    """browser.py's real server on a free loopback port, with its game store at hand (the app it makes is
    kept as it is made)."""
    made = []

    def keep(**options):
        made.append(create_app(**options))
        return made[-1]

    with patch.object(browser_helpers, "create_app", keep), running_server(replays) as url:
        yield url, made[0].state.store


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with server(tmp_path_factory.mktemp("replays")) as (url, store):
        yield url, store


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture()
def page(browser):
    with new_page(browser) as (opened, errors):
        yield opened
        assert not errors, errors


def open_position(page, site, state) -> None:
    """A game whose position is `state`, shown to player_0 as the page shows any game of theirs."""
    url, store = site
    session = store.create(GAME, {}, 0, 1, lambda: (["human", "ends its turn"], {1: EndsItsTurn()}),
                           client="127.0.0.1")
    session.state = state
    page.goto(f"{url}/#/game/{session.id}")
    page.wait_for_selector(".board .skirmish-row")


def click(page, selector: str) -> None:
    before = page.locator("#main").get_attribute("data-moves")
    page.locator(selector).first.click()
    page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)


def read_rules(page) -> str:
    """The rules panel's text, each short section opened in turn (only the open one shows its text)."""
    help_box = page.locator("details.help")
    if not help_box.evaluate("d => d.open"):
        help_box.locator("summary").first.click()
    text = []
    for summary in help_box.locator("details.help-section > summary").all():
        if not summary.evaluate("s => s.parentElement.open"):
            summary.click()
        text.append(help_box.inner_text())
    return "\n".join(text)


def test_the_rules_are_short_sections_that_open_one_at_a_time(page, site):
    open_position(page, site, duel())
    help_box = page.locator("details.help")
    if not help_box.evaluate("d => d.open"):
        help_box.locator("summary").first.click()
    sections = help_box.locator("details.help-section")
    assert sections.count() >= 6
    opened = "() => [...document.querySelectorAll('details.help-section')].map((d) => d.open)"
    assert page.evaluate(opened) == [True] + [False] * (sections.count() - 1)
    sections.nth(3).locator("summary").click()
    page.wait_for_function(f"() => ({opened})().filter(Boolean).length === 1")
    assert page.evaluate(opened).index(True) == 3
    assert "two dice + the attack number" in sections.nth(3).inner_text()
    assert "two dice + the attack number" not in help_box.inner_text().replace(sections.nth(3).inner_text(), "")


def test_ultra_war_bots_play_at_its_own_quicker_default_pace(page, site):
    """A bot turn is 8-11 moves (up to 30): at the shared default of 700 ms a move one took 8-14 s to watch."""
    open_position(page, site, duel())
    assert page.locator("input[type=range]").input_value() == "50"
    page.locator("input[type=range]").fill("300")
    stored = page.evaluate("() => ['ultimataSpeed:ultra_war', 'ultimataSpeed'].map((k) => localStorage.getItem(k))")
    assert stored == ["300", None]  # its own setting: the other games keep theirs


def duel(*extra):
    return position([("Justice", 0, (6, 3), E), ("Maxian Trooper", 1, (6, 4), W), ("Vegron", 1, (0, 0), S),
                     *extra])


def test_an_attack_tells_its_dice_and_why_the_activation_ended(page, site):
    st = duel()
    force(st, 4, 3, 2, 1)
    open_position(page, site, st)
    rules = read_rules(page)
    assert "An attack turns the character to face its target and ends its activation" in rules
    assert "two dice + the attack number" in rules and "double six" in rules.lower()
    click(page, f".board [data-action='{A.SELECT}']")  # Justice's dashed ring
    click(page, ".board rect[data-field='e6']")  # the red square on the trooper
    log = page.locator(".events").inner_text()
    assert ("Justice attacks Maxian Trooper with Sword: rolls 4+3 + attack 6 = 13 against Maxian Trooper's 2+1 "
            "+ defence 4 = 7") in log
    assert "Maxian Trooper takes 6 damage from Justice's Sword" in log
    assert "Justice's activation ends: its attack turns it, facing its target" in log


def test_a_flying_neighbour_is_explained_when_the_red_square_is_missing(page, site):
    st = position([("Justice", 0, (6, 3), N), ("Rayna", 1, (5, 3), S), ("Vegron", 1, (0, 0), S)])
    open_position(page, site, st)
    click(page, f".board [data-action='{A.SELECT}']")
    assert page.locator(".board rect[data-field='d7']").count() == 0  # no attack square on Rayna
    note = page.locator(".uw-note").inner_text()
    assert "Rayna (d7) is flying: a melee attack cannot reach it" in note
    page.locator(".board g[data-unit='Rayna']").hover()
    assert "flying (only ranged attacks and flyers hit it)" in page.locator(".unit-panel").inner_text()


def test_the_crystals_mend_says_what_it_does_where_it_is_used(page, site):
    st = position([("Sir Gareth", 0, (6, 3), N), ("Justice", 0, (11, 0), N), ("Vegron", 1, (0, 0), S)])
    st.units[0].life = 3
    crystal(st, 0, 4)
    open_position(page, site, st)
    use = page.locator(f".board rect[data-field='d6'][data-action='{A.USE + 6 * 12 + 3}']")  # the purple square
    use.hover()  # shows the bearer's card, crystal and all
    panel = page.locator(".unit-panel").inner_text()
    assert "Mend (2 points of this crystal, used at any time of your turn): its bearer regains 2 life" in panel
    assert "its bearer regains 2 life" in use.locator("title").text_content()
    click(page, f".board rect[data-action='{A.USE + 6 * 12 + 3}']")
    assert "heals Sir Gareth" in page.locator(".events").inner_text()


def test_damage_names_its_cause_when_a_burning_character_takes_it(page, site):
    st = position([("Sir Gareth", 0, (6, 3), N), ("Justice", 0, (11, 0), N), ("Vegron", 1, (0, 0), S)])
    st.units[0].burning = True
    st.turn = 1  # the other seat's turn: it ends it, and Sir Gareth burns as player_0's turn starts
    force(st, 3)
    open_position(page, site, st)
    page.wait_for_selector(".status.turn")
    assert "Sir Gareth takes 2 damage from burning (a Fire Attack last turn)" in page.locator("#main").inner_text()
