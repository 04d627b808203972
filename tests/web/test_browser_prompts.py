"""Every button a prompt names is on the page: a prompt quotes a button by its label ('pass the attack
option'), and over the first positions of each game against random bots every quoted name is the start
of a button's label on show (issue 54: Conquest asked for 'done' beside a button reading "stop allying in
your home zone")."""

from __future__ import annotations

import re

import pytest

from .browser import chromium, new_page, running_server
from .names import env_name
from .test_browser import GAMES, click_a_move, start_game

POSITIONS = 12
MOST_POSITIONS = 80
"""At least POSITIONS positions, and on until a prompt has quoted a button (the world's set-up quotes none)."""
QUOTED = re.compile(r"(?<!\w)'(.+?)'(?!\w)")
"""A name in single quotes; an apostrophe inside a word (player_2's) neither opens nor closes one."""


def quoted_names(text: str) -> list[str]:
    return QUOTED.findall(text)


def test_quoted_names_skip_apostrophes() -> None:
    text = "homeland's value): click them, then 'stop allying'; player_2's chips, or 'resume Rayna's activation'."
    assert quoted_names(text) == ["stop allying", "resume Rayna's activation"]


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("replays")) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


def unnamed_buttons(page) -> list[tuple[str, list[str]]]:
    """Each quoted name in a prompt on show that no visible button's label starts with, with the labels."""
    labels = [t.strip() for t in page.locator("button:visible").all_inner_texts()]
    missing = []
    for prompt in page.locator(".prompt:visible").all_inner_texts():
        for name in quoted_names(prompt):
            if not any(label.startswith(name) for label in labels):
                missing.append((prompt, labels))
    return missing


@pytest.mark.parametrize("family", list(GAMES))
def test_every_button_a_prompt_names_is_on_the_page(url, browser, family) -> None:
    config = GAMES[family][0]
    named = 0
    with new_page(browser) as (page, errors):
        start_game(page, url, env_name(family), seed=3, config=config)
        for turn in range(MOST_POSITIONS):
            if turn >= POSITIONS and named:
                break
            page.wait_for_selector(".status.turn, .result", timeout=30_000)
            if page.locator(".result").count():
                break
            assert not unnamed_buttons(page), unnamed_buttons(page)
            named += sum(len(quoted_names(p)) for p in page.locator(".prompt:visible").all_inner_texts())
            before = page.locator("#main").get_attribute("data-moves")
            click_a_move(page, turn)
            page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)
        assert not errors
    assert named, f"no prompt of {family} named a button in {MOST_POSITIONS} positions: the test checked nothing"
