"""The record over HTTP: every browser game ends in it (finished, resigned, left, expired, or interrupted when
the server stops), "Your games" filters it and rates you, replays are paged from it and exported as files,
and the API's own page answers."""

from __future__ import annotations

import dataclasses
import random

import pytest

from ultimata.envs.core.replay import Replay
from ultimata.web.app import create_app

from .client import local_client

CARDS = "ultimatum_cards_v3"
SMALL = {"num_players": 3}


@pytest.fixture()
def app(tmp_path):
    return create_app(replays=tmp_path / "replays", record=tmp_path / "runs" / "ultimata.db")


@pytest.fixture()
def client(app):
    return local_client(app)


def new_game(client, bots="random", human=0, seed=None):
    """A game; rated unless `seed` is given (a seed the client chooses makes it practice)."""
    seats = {str(s): bots for s in range(3) if s != human}
    chosen = {} if seed is None else {"seed": seed}
    res = client.post("/api/sessions", json={"game": CARDS, "config": SMALL, "human_seat": human,
                                             "opponents": seats, **chosen})
    assert res.status_code == 201, res.text
    return res.json()


def finish(client, snap, pick=random.Random(0)):
    while not snap["over"]:
        if snap["waiting_for"] == "bot":
            snap = client.post(f"/api/sessions/{snap['id']}/advance").json()
        else:
            snap = client.post(f"/api/sessions/{snap['id']}/move",
                               json={"action": pick.choice(snap["moves"])["action"]}).json()
    return snap


def to_my_turn(client, snap):
    while snap["waiting_for"] == "bot":
        snap = client.post(f"/api/sessions/{snap['id']}/advance").json()
    return snap


def your_games(client, **query):
    res = client.get("/api/record", params=query)
    assert res.status_code == 200, res.text
    return res.json()


def test_a_finished_game_says_who_won_and_is_in_your_games_and_the_replays(client, tmp_path) -> None:
    snap = finish(client, new_game(client))
    result = snap["result"]
    winners = [s for s, r in enumerate(snap["returns"]) if r == max(snap["returns"])]
    assert result["winners"] == winners and result["text"]
    if len(winners) == len(snap["returns"]):  # a rated game's deal is the server's: a draw can happen
        assert result["text"].startswith("a draw")
    else:
        assert result["text"].startswith("you ") and (("win" in result["text"]) == (0 in winners))
    if 0 not in winners:
        assert f"player_{winners[0]} (random)" in result["text"]
    mine = your_games(client)
    assert mine["total"] == 1 and mine["games"][0]["name"] == snap["replay"]
    assert mine["games"][0]["outcome"] in ("win", "loss", "draw") and mine["games"][0]["ending"] == "finished"
    listed = client.get("/api/replays")
    assert listed.headers["X-Total-Count"] == "1" and listed.json()[0]["name"] == snap["replay"]
    assert (tmp_path / "replays" / snap["replay"]).is_file(), "a finished game is also a file to share"


def test_leaving_keeps_the_game_in_your_record_unrated_and_out_of_the_replays(client) -> None:
    snap = to_my_turn(client, new_game(client))
    client.post(f"/api/sessions/{snap['id']}/move", json={"action": snap["moves"][0]["action"]})
    assert client.delete(f"/api/sessions/{snap['id']}").status_code == 204
    [left] = your_games(client)["games"]
    assert left["ending"] == "left" and left["outcome"] is None and left["moves"] >= 1
    assert your_games(client)["ratings"] == []
    assert client.get("/api/replays").json() == []
    frames = client.get(f"/api/replays/{left['name']}").json()
    assert frames["total"] == left["moves"] + 1, "the game so far can still be stepped through"


def test_resigning_ends_the_game_as_a_rated_loss_and_asks_nothing_twice(client) -> None:
    snap = to_my_turn(client, new_game(client, bots="heuristic"))
    res = client.post(f"/api/sessions/{snap['id']}/resign")
    assert res.status_code == 200
    over = res.json()
    assert over["over"] and over["ended"] == "resigned" and over["moves"] == []
    assert over["result"]["text"].startswith("you resigned") and over["result"]["winners"] == [1, 2]
    assert client.post(f"/api/sessions/{snap['id']}/resign").status_code == 409
    assert client.post(f"/api/sessions/{snap['id']}/advance").status_code == 409
    record = your_games(client)
    assert record["games"][0]["outcome"] == "loss"
    [rating] = record["ratings"]
    assert rating["opponent"] == "heuristic" and rating["losses"] == 1 and rating["you_mu"] < rating["bot_mu"]


def test_a_watcher_cannot_resign(client) -> None:
    res = client.post("/api/sessions", json={"game": CARDS, "config": SMALL, "human_seat": None,
                                             "opponents": {str(s): "random" for s in range(3)}})
    game = res.json()["id"]
    refused = client.post(f"/api/sessions/{game}/resign")
    assert refused.status_code == 409 and "leave the game" in refused.json()["detail"]


def test_an_idle_game_expires_into_the_record(app, client) -> None:
    snap = new_game(client)
    store = app.state.store
    store.limits = dataclasses.replace(store.limits, idle_seconds=0)
    assert client.get(f"/api/sessions/{snap['id']}").status_code == 404
    [expired] = your_games(client)["games"]
    assert expired["ending"] == "expired" and expired["result"] == "unfinished (abandoned: idle too long)"


def test_games_in_play_when_the_server_stops_are_recorded_as_interrupted(tmp_path) -> None:
    app = create_app(record=tmp_path / "r.db")
    with local_client(app) as client:
        new_game(client)
    again = local_client(create_app(record=tmp_path / "r.db"))
    [interrupted] = your_games(again)["games"]
    assert interrupted["ending"] == "interrupted"


def test_your_games_filter_by_game_and_opponent_and_come_in_pages(client) -> None:
    for bots in ["random", "heuristic", "random"]:
        finish(client, new_game(client, bots=bots))
    assert your_games(client)["total"] == 3
    assert your_games(client, opponent="random")["total"] == 2
    assert your_games(client, game="ultimatum_cards")["total"] == 3
    assert your_games(client, game="ultra_war")["total"] == 0
    page = your_games(client, offset=2, limit=2)
    assert page["total"] == 3 and len(page["games"]) == 1
    assert your_games(client)["choices"] == {"games": ["ultimatum_cards"], "opponents": ["heuristic", "random"]}
    assert your_games(client)["levels"]["ultimatum_cards"]["heuristic"] == "easy"
    ratings = {r["opponent"]: r for r in your_games(client)["ratings"]}
    assert ratings["random"]["games"] == 2 and ratings["random"]["you_sigma"] < 25 / 3


@pytest.mark.parametrize(("query", "says"), [
    ("game=chess", "game: unknown game 'chess'; use one of"),
    ("limit=0", "limit"),
    ("limit=501", "limit"),
    ("offset=-1", "offset"),
    ("opponent=" + "x" * 201, "opponent"),
])
def test_bad_listing_queries_are_422_naming_the_field(client, query, says) -> None:
    for path in ("/api/record", "/api/replays"):
        if "opponent" in query and path == "/api/replays":
            continue
        res = client.get(f"{path}?{query}")
        assert res.status_code == 422 and says in res.json()["detail"], (path, res.text)


def test_a_replay_says_who_won_and_exports_as_a_file(client, tmp_path) -> None:
    snap = finish(client, new_game(client))
    page = client.get(f"/api/replays/{snap['replay']}").json()
    assert page["verdict"]["winners"] == snap["result"]["winners"] and page["verdict"]["text"] == snap["result"]["text"]
    res = client.get(f"/api/replays/{snap['replay']}/export")
    assert res.status_code == 200 and snap["replay"] in res.headers["content-disposition"]
    replay = Replay.from_dict(res.json(), "exported")
    assert replay.final().is_terminal() and replay.players[0] == "human"
    assert client.get("/api/replays/nothing.json/export").status_code == 404


def test_the_replay_folder_is_imported_at_start_naming_what_it_skips(tmp_path) -> None:
    folder = tmp_path / "replays"
    first = local_client(create_app(replays=folder, record=tmp_path / "a.db"))
    name = finish(first, new_game(first))["replay"]
    (folder / "junk.json").write_text("{}")
    app = create_app(replays=folder, record=tmp_path / "b.db")
    assert app.state.imported.imported == [name] and list(app.state.imported.skipped) == ["junk.json"]
    listed = {g["name"]: g for g in local_client(app).get("/api/replays").json()}
    assert listed[name]["result"].startswith(("won by", "draw")) and listed["junk.json"]["result"] == "unreadable"


def test_two_servers_on_one_record_both_keep_their_games(tmp_path) -> None:
    path = tmp_path / "shared.db"
    one, two = (local_client(create_app(record=path)) for _ in range(2))
    finish(one, new_game(one, seed=1))
    finish(two, new_game(two, seed=2))
    assert your_games(one)["total"] == your_games(two)["total"] == 2


def test_the_api_link_is_a_page_of_the_api_with_no_script(client) -> None:
    res = client.get("/docs")
    assert res.status_code == 200 and "text/html" in res.headers["content-type"]
    assert "/api/sessions/{session_id}/resign" in res.text and "<script" not in res.text
    assert "default-src 'self'" in res.headers["content-security-policy"]
    assert 'href="/docs"' in client.get("/").text
    assert client.get("/api/docs").status_code == 404


def test_the_openapi_schema_lists_the_new_routes(client) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/record", "/api/replays/{name}/export", "/api/sessions/{session_id}/resign"} <= set(paths)


def test_a_game_whose_moves_do_not_replay_from_its_seed_is_still_left_and_recorded(app, client) -> None:
    """A position set by hand (as the game tests do): its moves do not replay from its seed, so its replay
    cannot be cut back to a settled position; leaving it still answers 204 and keeps it."""
    from ultimata.envs.core.registry import game_class
    from ultimata.envs.core.rng import Rng

    snap = to_my_turn(client, new_game(client, seed=1))  # a fixed deal: a rated one is random and may end first
    session = app.state.store.get(snap["id"])
    session.state = game_class(CARDS).from_config(SMALL).new_initial_state(Rng(999))
    session.actions.append(10_000)
    assert client.delete(f"/api/sessions/{snap['id']}").status_code == 204
    [left] = your_games(client)["games"]
    assert left["ending"] == "left"
