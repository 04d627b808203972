"""Races against leaving a game: every route that changes a game, sent while the same game is being
closed (DELETE), from threads. Whatever wins, the answer is a 2xx or a 4xx, never a 5xx: a move waiting
for the game's lock finds it over, not half torn down (the KeyError of issue 49)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest

from tests.web.client import local_client
from ultimata.web.app import create_app

GAME = "ultimatum_cards_v3"
ROUNDS = 12
"""Games closed under each route: bounded, so the test's length does not depend on the machine."""
SLOW_BOT = "mcts:sims=8"
"""A bot whose move takes a while, so that other requests wait for the game's lock while it moves."""
MOVERS = 3
CALLS = 40


@pytest.fixture
def app(tmp_path):
    return create_app(replays=tmp_path / "replays", max_sessions=64, max_per_client=64, own_agents=(SLOW_BOT,))


def _race(app: Any, *calls: Any) -> list[int]:
    """`calls` (each given its own client) released together; the status codes they got."""
    barrier = threading.Barrier(len(calls))
    codes: list[int] = []
    errors: list[BaseException] = []

    def run(call: Any) -> None:
        client = local_client(app, raise_server_exceptions=False)
        try:
            barrier.wait(timeout=30)
            codes.extend(call(client))
        except BaseException as err:  # noqa: BLE001 - reported below, with the test's own failure
            errors.append(err)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return codes


def _new_game(app: Any, watch: bool) -> dict[str, Any]:
    client = local_client(app)
    body = {"game": GAME, "human_seat": None if watch else 0,
            "opponents": {str(seat): SLOW_BOT for seat in range(0 if watch else 1, 4)}}
    made = client.post("/api/sessions", json=body)
    assert made.status_code == 201, made.text
    return made.json()


def _moves(path: str, kind: str, started: threading.Event) -> Any:
    """The calls one route makes on game `path`, in a row until the game is gone (at most `CALLS`; a move
    needs the human's turn: the bots are advanced to it first). `started` is set after the first answer."""
    def call(client: Any) -> list[int]:
        codes: list[int] = []
        while len(codes) < CALLS and 404 not in codes:
            if codes:
                started.set()
            if kind == "move":
                shown = client.get(path)
                codes.append(shown.status_code)
                if shown.status_code != 200:
                    break
                snapshot = shown.json()
                if snapshot["waiting_for"] == "bot":
                    codes.append(client.post(path + "/advance").status_code)
                elif snapshot["moves"]:
                    codes.append(client.post(path + "/move", json={"action": snapshot["moves"][0]["action"]})
                                 .status_code)
            elif kind == "advance":
                codes.append(client.post(path + "/advance").status_code)
            elif kind == "resign":
                codes.append(client.post(path + "/resign").status_code)
            else:
                codes.append(client.get(path).status_code)
        return codes
    return call


@pytest.mark.parametrize("kind", ["move", "advance", "resign", "show"])
def test_every_route_against_leaving(app, kind):
    seen: Counter[int] = Counter()
    for _ in range(ROUNDS):
        game = _new_game(app, watch=kind == "advance")
        path = f"/api/sessions/{game['id']}"
        started = threading.Event()

        def leave(client: Any, path: str = path, started: threading.Event = started) -> list[int]:
            started.wait(timeout=30)  # while the movers are at it
            return [client.delete(path).status_code]

        movers = [_moves(path, kind, started)] * MOVERS  # several: one waits for the lock while another moves
        codes = _race(app, *movers, leave)
        seen.update(codes)
    assert not [c for c in seen if c >= 500], seen
    assert set(seen) <= {200, 204, 404, 409, 422}, seen
    assert app.state.store._live == {}, "every game was closed"


def test_starting_games_against_leaving_them(app):
    """Creations with one request id, raced against the DELETE of whatever they made."""
    seen: Counter[int] = Counter()
    for n in range(ROUNDS):
        made: list[str] = []

        def create(client: Any, n: int = n, made: list[str] = made) -> list[int]:
            codes = []
            for _ in range(3):
                answer = client.post("/api/sessions", json={"game": GAME, "request_id": f"r{n}"})
                codes.append(answer.status_code)
                if answer.status_code == 201:
                    made.append(answer.json()["id"])
            return codes

        def leave(client: Any, made: list[str] = made) -> list[int]:
            codes = []
            for _ in range(6):
                for game_id in list(made):
                    codes.append(client.delete(f"/api/sessions/{game_id}").status_code)
            return codes

        seen.update(_race(app, create, leave))
    assert not [c for c in seen if c >= 500], seen


@pytest.mark.parametrize("route", ["bot_move", "human_move", "resign"])
def test_a_move_that_waited_for_the_lock_finds_the_left_game_over(app, route):
    """The race's losing order, played out one step at a time: a route has found the game, then the game
    is closed before the route takes the game's lock. The move is refused as 'over' (a 409), not a
    KeyError on the bots the close let go of."""
    from ultimata.web.sessions import SessionError

    store = app.state.store
    game = _new_game(app, watch=route == "bot_move")
    session = store.get(game["id"])  # what the route holds while it waits for the lock
    store.close(game["id"])
    with session.lock, pytest.raises(SessionError, match="the game is over"):
        if route == "bot_move":
            session.bot_move()
        elif route == "human_move":
            session.human_move(0)
        else:
            store.resign(session)
    assert session.over and session.stopped == "left" and session.agents == {}
