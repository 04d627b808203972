"""End to end in headless chromium, as a new player would: start a game against bots, read the help and
the legend, and play by clicking what a person clicks (cards, players, fields, units, countries, nations,
and the buttons on show, never the folded list of every legal move). Screenshots go to
$ULTIMATA_SCREENSHOTS (default: tmp); `ULTIMATA_SCREENSHOTS=docs/screenshots` refreshes the README's."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from .browser import chromium, new_page, running_server
from .names import env_name

MOVES = 15
GAMES = {
    # family: (rule variant, words the help must use, fewest legend entries, what "you are" names)
    "ultimatum_cards": ({"mode": "match", "num_players": 3}, ["Ultimatum", "Block"], 8, "player_0"),
    "ultimade": ({"points_to_win": 1}, ["cycle", "offense", "step"], 8, "team A"),
    "ultra_war": ({}, ["activate", "free strike"], 20, "Order of the Round"),
    "conquest_of_the_world": ({}, ["homeland", "weapon"], 9, "player_0"),
    "ultimatum_world": ({"num_players": 2, "max_rounds": 2}, ["Oil Alliance", "chain of clicks"], 12, "player_0"),
}
SCREENSHOT = {  # what to photograph for docs/screenshots/<family>.png: the table, kept small for the README
    "ultimatum_cards": ".board", "ultimade": ".board", "ultra_war": ".skirmish-row",
    "conquest_of_the_world": ".board svg", "ultimatum_world": ".board svg",
}
HOVER = {  # family: (what a person hovers over, where its details show, what they must name)
    "ultra_war": (".board g[data-unit]", ".unit-panel",
                  ["faction", "life", "movement", "offense", "defence", "abilities", "equipment", "crystal", "status"]),
}
CARDS = env_name("ultimatum_cards")


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("ULTIMATA_SCREENSHOTS", tmp_path_factory.mktemp("shots")))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    with running_server(tmp_path_factory.mktemp("replays")) as address:
        yield address


@pytest.fixture(scope="module")
def browser():
    with chromium() as launched:
        yield launched


@pytest.fixture()
def browser_page(browser):
    with new_page(browser) as (page, errors):
        yield page, errors


def open_form(page, url: str, game: str, seed: int = 7, config: dict | None = None):
    page.goto(url)
    page.evaluate("localStorage.setItem('ultimataSpeed', '30')")
    form = page.locator(f"form[data-game={game}]")
    form.wait_for()
    for select in form.locator("label.opp:visible select").all():
        select.select_option("random")
    form.locator("summary").click()
    form.locator("input[name=seed]").fill(str(seed))
    for key, value in (config or {}).items():
        field = form.locator(f"[name={key}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    return form


def sessions_created(page) -> list[dict]:
    """Every POST /api/sessions the page sends, with its body, from now on."""
    sent: list[dict] = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST"
            and r.url.endswith("/api/sessions") else None)
    return sent


def serve_replays_in_pages(page, size: int) -> list[int]:
    """Answers replay requests in pages of `size` frames (smaller than the server's, so that a short game
    needs several), cut from the whole game read from the test server; returns the start of every page
    asked for."""
    asked: list[int] = []

    def page_of(route):
        address = urlparse(route.request.url)
        query = parse_qs(address.query)
        start = int(query["start"][0])
        query.update(start=["0"], count=["500"])  # the whole game, from the same perspective
        whole = route.fetch(url=address._replace(query=urlencode(query, doseq=True)).geturl()).json()
        assert whole["total"] == len(whole["frames"]), "the test game fits in one server page"
        asked.append(start)
        route.fulfill(json={**whole, "start": start, "frames": whole["frames"][start:start + size],
                            "moves": whole["moves"][start:start + size]})

    page.route(re.compile(r".*/api/replays/[^/?]+\?.*"), page_of)
    return asked


def start_game(page, url: str, game: str, seed: int = 7, config: dict | None = None) -> None:
    open_form(page, url, game, seed, config).locator("button[type=submit]").click()
    page.wait_for_selector(".board")


def click_a_move(page, turn: int) -> None:
    """One move as a person makes it: a highlighted thing on the board (a menu's first choice when several
    moves share it), else a button on show."""
    on_board = page.locator(".board [data-action].clickable:visible")
    buttons = page.locator(".moves > button:visible")
    count = on_board.count()
    target = on_board.nth(turn % count) if count else buttons.first
    with page.expect_response(lambda r: r.url.endswith("/move")) as response:
        target.click()
        menu = page.locator(".choice-menu button[data-action]")
        if menu.count():
            menu.first.click()
    assert response.value.ok, response.value.text()


def play_by_clicking(page, moves: int = 2000) -> int:
    made = 0
    while made < moves:
        page.wait_for_selector(".status.turn, .result", timeout=30_000)
        if page.locator(".result").count():
            break
        before = page.locator("#main").get_attribute("data-moves")
        click_a_move(page, made)
        page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)
        made += 1
    return made


@pytest.mark.parametrize("family", list(GAMES))
def test_a_new_player_starts_reads_the_help_and_plays_fifteen_moves(url, browser_page, shots, family) -> None:
    page, errors = browser_page
    config, words, legend_entries, who = GAMES[family]
    game = env_name(family)
    created = sessions_created(page)
    form = open_form(page, url, game, config=config)
    form.locator("button[type=submit]").dblclick()
    page.wait_for_selector(".board")
    assert len(created) == 1, "a double click on Start made more than one game"

    help_box = page.locator("details.help")
    if not help_box.evaluate("d => d.open"):
        help_box.locator("summary").click()
    rules = help_box.inner_text()
    assert all(word in rules for word in words), rules
    assert page.locator(".legend .legend-item").count() >= legend_entries
    assert who in page.locator(".you").inner_text()

    assert play_by_clicking(page, MOVES) == MOVES
    page.wait_for_selector(".status.turn, .result")
    logged = int(page.locator("#main").get_attribute("data-moves"))
    assert page.locator(".events li").count() == logged, "the log keeps every move of the game"
    if family in HOVER:
        thing, details, names = HOVER[family]
        page.locator(thing).last.hover()
        shown = page.locator(details).inner_text()
        assert all(name in shown for name in names), shown
    page.locator(SCREENSHOT[family]).last.screenshot(path=shots / f"{family}.png")
    assert not errors


def test_a_whole_card_game_its_replay_and_play_again(url, browser_page, shots) -> None:
    page, errors = browser_page
    start_game(page, url, CARDS)
    moves = play_by_clicking(page)
    result = page.locator(".result")
    assert result.is_visible() and "Game over" in result.inner_text()
    assert moves > 0
    finished = page.evaluate("location.hash")
    asked = serve_replays_in_pages(page, 10)
    page.locator(".result a").click()
    page.wait_for_selector(".replay-bar")
    page.locator(".replay-bar button", has_text="step").last.click()
    page.wait_for_function("() => document.querySelector('.status').textContent.startsWith('move 1 /')")
    page.locator(".replay-bar button", has_text="last").click()
    page.wait_for_function("() => /move (\\d+) \\/ \\1 — end/.test(document.querySelector('.status').textContent)")
    assert asked[0] == 0 and max(asked) > 0, "the last move's frame was fetched as a page of its own"
    page.locator(".view-as select").select_option("0")  # the replay as seat 0 saw it: its hand
    page.wait_for_selector(".board .card")
    page.goto(f"{url}/#/replays")
    page.wait_for_selector("table.replays")
    listing = page.locator("table.replays").inner_text()
    assert CARDS in listing and ("won by" in listing or "draw" in listing)
    page.goto(f"{url}/{finished}")
    page.wait_for_selector(".result button")
    created = sessions_created(page)
    page.locator(".result button", has_text="play again").dblclick()
    page.wait_for_function(f"() => location.hash.startsWith('#/game/') && location.hash !== '{finished}'")
    assert len(created) == 1, "a double click on play again made more than one game"
    assert not errors


def test_a_difficulty_level_sets_every_bot_seat(url, browser_page) -> None:
    """The server names easy / medium / hard per game; choosing one puts its bot on every bot seat."""
    page, errors = browser_page
    levels = [{"level": "easy", "agent": "random", "strength": "wins 10% against the scripted bot"},
              {"level": "medium", "agent": "heuristic", "strength": "the scripted bot"}]

    def with_levels(route):
        games = route.fetch().json()
        route.fulfill(json=[{**g, "difficulty": levels} for g in games])

    page.route("**/api/games", with_levels)
    created = sessions_created(page)
    form = open_form(page, url, CARDS)
    choice = form.locator("select[name=difficulty]")
    assert "wins 10% against the scripted bot" in form.locator(".difficulty .levels").inner_text()
    choice.select_option("random")
    bots = form.locator("label.opp:visible select")
    assert {bots.nth(i).input_value() for i in range(bots.count())} == {"random"}
    choice.select_option("heuristic")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".board")
    assert set(created[0]["opponents"].values()) == {"heuristic"} and len(created[0]["opponents"]) == 3
    assert not errors


def test_without_levels_the_difficulty_choice_is_hidden(url, browser_page) -> None:
    page, _ = browser_page
    form = open_form(page, url, env_name("ultimade"))
    has_levels = page.evaluate("fetch('/api/games').then(r => r.json()).then(g => !!g[0].difficulty)")
    assert form.locator(".difficulty").is_visible() == has_levels


def test_moving_on_from_a_game_in_play_leaves_it_and_frees_its_slot(url, browser_page) -> None:
    page, errors = browser_page
    start_game(page, url, CARDS)
    game = page.evaluate("location.hash").split("/")[-1]
    status = f"fetch('/api/sessions/{game}').then(r => r.status)"
    assert page.evaluate(status) == 200
    page.goto(f"{url}/#/replays")
    page.wait_for_selector("table.replays, .replays, main p")
    page.wait_for_function(f"() => {status}.then(s => s === 404)")
    assert not errors
