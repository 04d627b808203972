"""End to end in headless chromium, as a new player would: start a game against bots, read the help and
the legend, and play by clicking what a person clicks (cards, players, fields, units, countries, nations,
and the buttons on show, never the folded list of every legal move). A game survives a reload, Back and
other pages; leaving and resigning ask first; finished games are in Your games and the replays; the
new-game cards fit the page at common widths. Screenshots go to
$ULTIMATA_SCREENSHOTS (default: tmp); `ULTIMATA_SCREENSHOTS=docs/screenshots` refreshes the README's."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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


def open_form(page, url: str, game: str, seed: int | None = 7, config: dict | None = None):
    page.goto(url)
    page.evaluate("localStorage.setItem('ultimataSpeed', '30')")
    form = page.locator(f"form[data-game={game}]")
    form.wait_for()
    for select in form.locator("label.opp:visible select").all():
        select.select_option("random")
    form.locator("summary").click()
    if seed is not None:  # none: the server draws it, and the game is rated
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
    try:
        page.wait_for_selector(".board", timeout=120_000)  # a bound for a busy machine, not a timing
    except PlaywrightTimeout as err:  # say what the page showed instead of the board
        shown = page.locator("main").inner_text()[:500]
        raise AssertionError(f"no board after Start; the page says: {shown!r}") from err


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
        # attached, not visible: an empty status line has no size, so it never counts as visible
        page.wait_for_selector(".status.turn, .result", state="attached", timeout=30_000)
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
        help_box.locator("summary").first.click()
    rules = help_box.inner_text()
    for section in help_box.locator("details.help-section > summary").all():  # short sections, one open at a time
        if not section.evaluate("s => s.parentElement.open"):
            section.click()
        rules += help_box.inner_text()
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
    page.locator(".result a", has_text="watch the replay").click()
    page.wait_for_selector(".replay-bar")
    said = page.locator(".replay-result").inner_text()
    assert said.startswith("Result: ") and ("won" in said or "win" in said or "draw" in said), said
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


def game_id(page) -> str:
    return page.evaluate("location.hash").split("/")[-1]


def status_of(page, game: str) -> int:
    return page.evaluate(f"fetch('/api/sessions/{game}').then(r => r.status)")


@pytest.mark.parametrize("family", list(GAMES))
def test_a_reload_in_the_middle_of_a_game_goes_on(url, browser_page, family) -> None:
    page, errors = browser_page
    start_game(page, url, env_name(family), config=GAMES[family][0])
    game = game_id(page)
    assert play_by_clicking(page, 2) == 2
    page.wait_for_selector(".status.turn, .result")
    before = int(page.locator("#main").get_attribute("data-moves"))
    page.reload()
    page.wait_for_selector(".board")
    page.wait_for_selector(".status.turn, .result")
    assert game_id(page) == game and int(page.locator("#main").get_attribute("data-moves")) == before
    assert page.locator(".events li").count() == int(page.locator("#main").get_attribute("data-moves"))
    assert play_by_clicking(page, 1) == 1, "the game goes on after the reload"
    assert status_of(page, game) == 200
    assert not errors


def test_replays_and_back_return_to_the_game_in_play(url, browser_page) -> None:
    page, errors = browser_page
    start_game(page, url, CARDS)
    game = game_id(page)
    page.locator("header a", has_text="Replays").click()
    page.wait_for_selector("main h1:text('Replays')")
    assert status_of(page, game) == 200, "moving on from a game never ends it"
    page.go_back()
    page.wait_for_selector(".board")
    assert game_id(page) == game and play_by_clicking(page, 1) == 1
    page.locator("header a", has_text="Games").first.click()
    in_play = page.locator(f".in-play li[data-game='{game}']")
    in_play.wait_for()
    in_play.locator("a", has_text="go back to it").click()
    page.wait_for_selector(".board")
    assert game_id(page) == game
    assert not errors


def answer_next_dialog(page, accept: bool) -> list[str]:
    """Answers the next confirm() the page shows; returns its question once asked."""
    asked: list[str] = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", answer)
    return asked


def test_leaving_asks_first_and_keeps_the_game_in_your_games(url, browser_page) -> None:
    page, errors = browser_page
    start_game(page, url, CARDS)
    game = game_id(page)
    play_by_clicking(page, 1)
    asked = answer_next_dialog(page, accept=False)
    page.locator(".game-actions .leave").click()
    assert asked and "Leave this game?" in asked[0]
    assert status_of(page, game) == 200 and game_id(page) == game, "a game left only when the person says yes"
    asked = answer_next_dialog(page, accept=True)
    page.locator(".game-actions .leave").click()
    page.wait_for_function("() => location.hash === '#/'")
    assert asked and status_of(page, game) == 404
    page.locator("header a", has_text="Your games").click()
    page.wait_for_selector("table.record")
    assert "unfinished (you left)" in page.locator("table.record").inner_text()
    assert not errors


def test_resigning_asks_first_and_ends_the_game_as_a_loss(url, browser_page) -> None:
    page, errors = browser_page
    start_game(page, url, CARDS)
    page.wait_for_selector(".status.turn")
    asked = answer_next_dialog(page, accept=False)
    page.locator(".game-actions .resign").click()
    assert asked and "Resign this game?" in asked[0] and not page.locator(".result").count()
    answer_next_dialog(page, accept=True)
    page.locator(".game-actions .resign").click()
    page.wait_for_selector(".result")
    assert page.locator(".result").inner_text().startswith("Game over: you resigned")
    assert not page.locator(".game-actions").is_visible()
    assert not errors


def test_your_games_lists_a_finished_game_with_its_rating_and_replay(url, browser_page) -> None:
    page, errors = browser_page
    form = open_form(page, url, CARDS, seed=None, config={"num_players": 3})  # rated: no seed of ours
    for select in form.locator("label.opp:visible select").all():
        select.select_option("heuristic")
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".board")
    play_by_clicking(page)
    said = page.locator(".result").inner_text()
    assert said.startswith("Game over: ") and ("won" in said or "win" in said or "draw" in said)
    other = page.request.post(f"{url}/api/sessions", data={"game": CARDS, "config": {"num_players": 3},
                                                           "opponents": {"1": "random", "2": "random"}})
    assert page.request.delete(f"{url}/api/sessions/{other.json()['id']}").status == 204  # a game the filter leaves out
    page.goto(f"{url}/#/record")
    page.wait_for_selector("table.ratings")
    assert "random" in page.locator("table.record").inner_text()
    page.locator(".filters select[name=opponent]").select_option("heuristic")
    page.wait_for_function("""() => {
        const rows = [...document.querySelectorAll('table.record tr[data-outcome]')];
        return rows.length > 0 && rows.every(r => r.cells[2].textContent === 'heuristic (easy)');
    }""")
    rows = page.locator("table.record tr[data-outcome]")
    rating = page.locator("table.ratings").inner_text()
    assert "heuristic" in rating and "likely" in rating
    rows.first.locator("a", has_text="replay").click()
    page.wait_for_selector(".replay-result")
    assert page.locator("a", has_text="download the replay file").count() == 1
    assert not errors


@pytest.mark.parametrize("width", [1280, 1024, 800, 390])
def test_the_new_game_cards_fit_and_the_page_never_scrolls_sideways(url, browser, width) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(url)
        page.locator("form[data-game] select[name=difficulty]").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        overflowing = page.evaluate("""() => [...document.querySelectorAll('form[data-game]')].flatMap(form => {
            const box = form.getBoundingClientRect();
            return [...form.querySelectorAll('select, input, ul.levels')]
              .filter(e => e.offsetParent && e.getBoundingClientRect().right > box.right + 1)
              .map(e => `${form.dataset.game} ${e.name || e.className}: ${e.getBoundingClientRect().width} px`);
        })""")
        assert overflowing == []
    finally:
        context.close()


def test_the_difficulty_says_what_to_expect_and_keeps_the_figures_at_hand(url, browser_page) -> None:
    page, _ = browser_page
    form = open_form(page, url, env_name("ultimatum_world"))
    levels = form.locator(".difficulty .levels li")
    assert levels.count() == 3 and "fair share" not in levels.first.inner_text()
    assert "fair share" in (levels.first.get_attribute("title") or "")
    assert form.locator("summary").count() == 1, "the rule variant stays the form's one fold"
    form.locator(".difficulty button.figures").click()
    assert "games" in form.locator(".difficulty .measured").inner_text()
    options = form.locator("select[name=difficulty] option")
    assert [options.nth(i).inner_text() for i in range(1, 4)] == ["easy", "medium", "hard"]


def test_the_api_link_answers_with_a_page_of_the_api(url, browser_page) -> None:
    page, errors = browser_page
    page.goto(url)
    with page.expect_response(lambda r: r.url.endswith("/docs")) as response:
        page.locator("header a", has_text="API").click()
    assert response.value.status == 200
    page.wait_for_selector("main.api-page")
    assert "/api/sessions" in page.locator("main").inner_text()
    assert not errors
