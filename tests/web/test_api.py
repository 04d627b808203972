"""The HTTP API with FastAPI's test client: whole games, bad input (4xx, nothing changes), hidden
information, checkpoints only from the configured folder, bounded and expiring games."""

import random

import pytest
from fastapi.testclient import TestClient

from ultimata.envs import GAMES
from ultimata.web.app import create_app

CARDS = "ultimatum_cards_v2"
SHORT = {"ultimade_v1": {"points_to_win": 1, "endzone_depth": 8}}
"""Rule variants that keep a whole game short over HTTP."""


@pytest.fixture()
def client(tmp_path):
    return TestClient(create_app(checkpoints=tmp_path / "ckpt", replays=tmp_path / "replays"))


def new_game(client, game=CARDS, **body):
    res = client.post("/api/sessions", json={"game": game, "seed": 1, **body})
    assert res.status_code == 201, res.text
    return res.json()


def finish(client, snap, pick=random.Random(0)):
    sid = snap["id"]
    while not snap["over"]:
        if snap["waiting_for"] == "bot":
            snap = client.post(f"/api/sessions/{sid}/advance").json()
        else:
            action = pick.choice(snap["moves"])["action"]
            snap = client.post(f"/api/sessions/{sid}/move", json={"action": action}).json()
    return snap


def test_catalogue_lists_every_game_with_its_rule_variants(client) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == set(GAMES)
    assert "num_players" in games[CARDS]["config_schema"]["properties"]
    specs = [o["spec"] for o in client.get(f"/api/games/{CARDS}/opponents").json()]
    assert specs[:3] == ["random", "heuristic", "mcts"], "search is offered where it cannot peek"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_against_bots_ends_with_a_result_and_a_saved_replay(client, game) -> None:
    snap = finish(client, new_game(client, game, human_seat=0, opponents={"1": "random"}, config=SHORT.get(game, {})))
    assert snap["over"] and snap["returns"] is not None and abs(sum(snap["returns"])) < 1e-9
    listed = {r["name"]: r for r in client.get("/api/replays").json()}
    assert listed[snap["replay"]]["game"] == game and listed[snap["replay"]]["result"].startswith(("won by", "draw"))
    replay = client.get(f"/api/replays/{snap['replay']}").json()
    assert len(replay["frames"]) == len(replay["moves"]) and replay["moves"][-1] is None


def test_watching_bots_needs_no_human(client) -> None:
    snap = finish(client, new_game(client, human_seat=None, opponents={str(i): "random" for i in range(4)}))
    assert snap["over"] and snap["human"] is None and "human" not in snap["seats"]


def test_an_illegal_move_is_a_422_naming_the_legal_moves_and_changes_nothing(client) -> None:
    snap = new_game(client, human_seat=0, opponents={"1": "random", "2": "random", "3": "random"})
    sid = snap["id"]
    while snap["waiting_for"] != "human":
        snap = client.post(f"/api/sessions/{sid}/advance").json()
    legal = {m["action"] for m in snap["moves"]}
    illegal = next(a for a in range(200) if a not in legal)
    res = client.post(f"/api/sessions/{sid}/move", json={"action": illegal})
    assert res.status_code == 422 and "legal actions" in res.json()["detail"]
    assert client.get(f"/api/sessions/{sid}").json() == snap | {"replay": None}


@pytest.mark.parametrize(
    "body, status",
    [
        ({"action": "seven"}, 422),
        ({"action": 1, "extra": 2}, 422),
        ({}, 422),
    ],
)
def test_malformed_moves_are_refused(client, body, status) -> None:
    sid = new_game(client, human_seat=0)["id"]
    assert client.post(f"/api/sessions/{sid}/move", json=body).status_code == status


def test_moving_out_of_turn_and_advancing_on_your_turn_are_409(client) -> None:
    snap = new_game(client, human_seat=0, opponents={"1": "random", "2": "random", "3": "random"})
    sid = snap["id"]
    while snap["waiting_for"] != "human":
        snap = client.post(f"/api/sessions/{sid}/advance").json()
    assert client.post(f"/api/sessions/{sid}/advance").status_code == 409
    snap = client.post(f"/api/sessions/{sid}/move", json={"action": snap["moves"][0]["action"]}).json()
    if snap["waiting_for"] == "bot":
        assert client.post(f"/api/sessions/{sid}/move", json={"action": 0}).status_code == 409


def test_the_browser_never_receives_other_hands_or_the_deck(client) -> None:
    snap = new_game(client, human_seat=2)
    text = str(snap)
    assert "pile" in snap["view"] and isinstance(snap["view"]["pile"], int)
    assert "hands" not in text and "rng" not in text
    assert len(snap["view"]["hand"]) > 0  # my own hand, and only mine: no per-seat hands anywhere
    assert all(set(p) == {"seat", "chips", "cards", "score", "dealer"} for p in snap["view"]["players"])
    assert client.get(f"/api/sessions/{snap['id']}?perspective=1").status_code == 403


def test_opponents_outside_the_list_and_path_traversal_are_refused(client, tmp_path) -> None:
    (tmp_path / "secret.zip").write_bytes(b"not a checkpoint")
    for spec in ["../secret.zip", "/etc/passwd", "checkpoint:../secret.zip", str(tmp_path / "secret.zip")]:
        res = client.post("/api/sessions", json={"game": CARDS, "opponents": {"1": spec}})
        assert res.status_code == 400 and "allowed" in res.json()["detail"], spec
    for name in ["../secret.zip", "..%2Fsecret.zip", "%2Fetc%2Fpasswd"]:
        assert client.get(f"/api/replays/{name}").status_code == 404


def test_bad_game_config_and_seats_are_4xx_with_a_message(client) -> None:
    assert client.post("/api/sessions", json={"game": "chess_v9"}).status_code == 404
    res = client.post("/api/sessions", json={"game": CARDS, "config": {"bogus": 1}})
    assert res.status_code == 400 and "bogus" in res.json()["detail"]
    assert client.post("/api/sessions", json={"game": CARDS, "human_seat": 9}).status_code == 400
    assert client.get("/api/sessions/not-a-game").status_code == 404


def test_game_ids_are_unguessable(client) -> None:
    ids = {new_game(client)["id"] for _ in range(5)}
    assert len(ids) == 5 and all(len(i) >= 20 for i in ids)


def test_live_games_are_bounded_and_idle_games_expire(tmp_path) -> None:
    app = create_app(max_sessions=2, idle_seconds=3600)
    client = TestClient(app)
    first = new_game(client)
    new_game(client)
    assert client.post("/api/sessions", json={"game": CARDS}).status_code == 429
    app.state.store.idle_seconds = 0  # everything is now idle
    new_game(client)
    assert client.get(f"/api/sessions/{first['id']}").status_code == 404


def test_the_page_and_its_scripts_are_served(client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_a_negative_seed_is_a_422_naming_the_field(client) -> None:
    res = client.post("/api/sessions", json={"game": CARDS, "seed": -1})
    assert res.status_code == 422 and "seed" in res.text


@pytest.mark.parametrize("perspective", [4, 9, -1])
def test_a_perspective_outside_the_seats_is_a_422_and_no_bot_moves(client, perspective) -> None:
    snap = new_game(client, human_seat=None, opponents={str(i): "random" for i in range(4)})
    sid = snap["id"]
    before = client.get(f"/api/sessions/{sid}").json()
    for res in (client.get(f"/api/sessions/{sid}?perspective={perspective}"),
                client.post(f"/api/sessions/{sid}/advance?perspective={perspective}")):
        assert res.status_code == 422 and "seat 0..3" in res.text
        assert set(res.json()) == {"detail"}, "a refusal carries no view of any seat"
    assert client.get(f"/api/sessions/{sid}").json() == before, "a refused request changed the game"


def test_a_replay_perspective_outside_the_seats_is_a_422(client) -> None:
    finish(client, new_game(client, human_seat=None, opponents={str(i): "random" for i in range(4)}))
    name = client.get("/api/replays").json()[0]["name"]
    assert client.get(f"/api/replays/{name}?perspective=7").status_code == 422
    assert client.get(f"/api/replays/{name}?perspective=1").status_code == 200


def test_the_shipped_bot_is_offered_only_for_the_rules_it_was_trained_under(client) -> None:
    from ultimata.agents.specs import pretrained_path

    game = "ultimade_v1"
    assert pretrained_path(game).exists()
    default = [o["spec"] for o in client.get(f"/api/games/{game}/opponents").json()]
    other = [o["spec"] for o in client.get(f'/api/games/{game}/opponents?config={{"points_to_win": 1}}').json()]
    assert "pretrained" in default and "pretrained" not in other and "heuristic" in other
    bad = client.get(f'/api/games/{game}/opponents?config={{"points_to_win": "many"}}')
    assert bad.status_code == 422 and "points_to_win" in bad.text


def test_a_refused_bot_never_shows_a_server_path(client) -> None:
    res = client.post("/api/sessions", json={"game": "ultimade_v1", "config": {"points_to_win": 1},
                                             "opponents": {"1": "pretrained"}})
    assert res.status_code == 400 and "/" not in res.json()["detail"].replace("n/a", "")


def test_the_favicon_is_served(client) -> None:
    assert client.get("/favicon.ico").status_code == 200


def test_cards_in_hand_carry_their_rules_text(client) -> None:
    snap = new_game(client, human_seat=0, opponents={"1": "random", "2": "random", "3": "random"})
    hand = snap["view"]["hand"]
    assert hand and all(card["rules"] for card in hand)
