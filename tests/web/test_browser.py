"""End to end in headless chromium: start the server, open the page, and play whole games against
`random` by clicking, as a person would. Screenshots go to $ULTIMATA_SCREENSHOTS (default: tmp)."""

import os
from pathlib import Path

import pytest

from .browser import chromium_page, running_server


@pytest.fixture()
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("ULTIMATA_SCREENSHOTS", tmp_path / "shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def start_game(page, url: str, game: str, seed: int = 7, config: dict | None = None) -> None:
    page.goto(url)
    page.evaluate("localStorage.setItem('ultimataSpeed', '30')")
    form = page.locator(f"form[data-game={game}]")
    form.wait_for()
    for select in form.locator("label.opp:visible select").all():
        select.select_option("random")
    form.locator("summary").click()
    form.locator("input[name=seed]").fill(str(seed))
    for key, value in (config or {}).items():
        form.locator(f"[name={key}]").fill(str(value))
    form.locator("button[type=submit]").click()
    page.wait_for_selector(".board")


def play_by_clicking(page, shots: Path, game: str, max_moves: int = 2000) -> int:
    """Click until the result shows: board elements (a card, a seat, a field) on even moves, visible
    move buttons on odd ones, so both ways of playing are exercised."""
    moves = 0
    while moves < max_moves:
        page.wait_for_selector(".status.turn, .result", timeout=30_000)
        if page.locator(".result").count():
            break
        board_targets = page.locator(".board [data-action].clickable")
        buttons = page.locator(".moves button:visible")
        on_board = board_targets.count() and (moves % 2 == 0 or not buttons.count())
        target = board_targets.first if on_board else buttons.first
        before = page.locator("#main").get_attribute("data-moves")
        with page.expect_response(lambda r: r.url.endswith("/move")) as response:
            target.click()
        assert response.value.ok, response.value.text()
        page.wait_for_function("n => document.getElementById('main').dataset.moves !== n", arg=before)
        moves += 1
        if moves == 3:
            page.screenshot(path=shots / f"{game}-playing.png", full_page=True)
    page.screenshot(path=shots / f"{game}-result.png", full_page=True)
    return moves


def test_play_a_whole_card_game_in_the_browser(tmp_path, shots) -> None:
    with running_server(tmp_path / "replays") as url, chromium_page() as (page, errors):
        start_game(page, url, "ultimatum_cards_v2")
        page.screenshot(path=shots / "ultimatum_cards_v2-start.png", full_page=True)
        moves = play_by_clicking(page, shots, "ultimatum_cards_v2")
        result = page.locator(".result")
        assert result.is_visible() and "Game over" in result.inner_text()
        assert moves > 0 and not errors
        page.locator(".result a").click()
        page.wait_for_selector(".replay-bar")
        page.locator(".replay-bar button", has_text="step").last.click()
        assert "move 1 /" in page.locator(".status").inner_text()
        page.screenshot(path=shots / "ultimatum_cards_v2-replay.png", full_page=True)
        page.locator(".view-as select").select_option("0")  # the replay as seat 0 saw it: its hand
        page.wait_for_selector(".board .card")
        page.goto(f"{url}/#/replays")
        page.wait_for_selector("table.replays")
        listing = page.locator("table.replays").inner_text()
        assert "ultimatum_cards_v2" in listing and ("won by" in listing or "draw" in listing)
        page.goto(f"{url}/#/")
        start_game(page, url, "ultimatum_cards_v2")
        play_by_clicking(page, shots, "ultimatum_cards_v2")
        finished = page.evaluate("location.hash")
        page.locator(".result button", has_text="play again").click()
        page.wait_for_function(f"() => location.hash.startsWith('#/game/') && location.hash !== '{finished}'")
        assert not errors


def test_play_a_whole_ultimade_point_in_the_browser(tmp_path, shots) -> None:
    """One point, clicking fields on the pitch: deep endzones (a variant) keep the point short."""
    with running_server(tmp_path / "replays") as url, chromium_page() as (page, errors):
        start_game(page, url, "ultimade_v1", config={"points_to_win": 1, "endzone_depth": 8})
        page.wait_for_selector(".board svg")
        page.screenshot(path=shots / "ultimade_v1-start.png", full_page=True)
        moves = play_by_clicking(page, shots, "ultimade_v1")
        assert "Game over" in page.locator(".result").inner_text()
        score = page.locator(".pitch-info").first.inner_text()
        assert ": 1 B" in score or "A 1 :" in score, score  # somebody scored the point
        assert moves > 5 and not errors


def test_play_a_whole_short_world_wargame_by_clicking_the_map(tmp_path, shots) -> None:
    """Two players, one round: the set-up picks and the attacks are clicks on nations and seas."""
    with running_server(tmp_path / "replays") as url, chromium_page() as (page, errors):
        start_game(page, url, "ultimatum_world_v2", config={"num_players": 2, "max_rounds": 1})
        page.wait_for_selector(".board svg")
        assert page.locator(".board svg circle").count() >= 37 + 9
        page.screenshot(path=shots / "ultimatum_world_v2-start.png", full_page=True)
        moves = play_by_clicking(page, shots, "ultimatum_world_v2", max_moves=400)
        assert "Game over" in page.locator(".result").inner_text()
        assert "round" in page.locator(".pitch-info").first.inner_text()
        assert moves > 20 and not errors
