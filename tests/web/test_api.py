"""The HTTP API with FastAPI's test client: whole games, bad input (4xx, nothing changes), hidden
information, checkpoints only from the configured folder, bounded and expiring games."""

import dataclasses
import json
import random
import re
import threading

import pytest

from ultimata.envs import GAMES
from ultimata.envs.core.registry import game_base_name
from ultimata.web.app import create_app

from .client import local_client

CARDS = "ultimatum_cards_v3"
SHORT = {"ultimade_v2": {"points_to_win": 1, "endzone_depth": 8}}
"""Rule variants that keep a whole game short over HTTP."""


@pytest.fixture()
def client(tmp_path):
    return local_client(create_app(checkpoints=tmp_path / "ckpt", replays=tmp_path / "replays"))


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
    frames, moves = replay_frames(client, snap["replay"])
    assert len(frames) == len(moves) == snap["events_total"] + 1 and moves[-1] is None
    assert all(m is not None for m in moves[:-1])
    assert {snap["view"]["kind"]} | {f["kind"] for f in frames} == {game_base_name(game)}, "drawn by the game's name"


def replay_frames(client, name, count=100, perspective=None):
    """Every frame of a replay and the move made from each, page by page."""
    frames, moves, start = [], [], 0
    extra = "" if perspective is None else f"&perspective={perspective}"
    while True:
        res = client.get(f"/api/replays/{name}?start={start}&count={count}{extra}")
        assert res.status_code == 200, res.text
        page = res.json()
        assert page["start"] == start and len(page["frames"]) == len(page["moves"]) <= count
        frames += page["frames"]
        moves += page["moves"]
        start += len(page["frames"])
        if start == page["total"]:
            return frames, moves


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
    assert client.get(f"/api/sessions/{sid}").json() == snap


@pytest.mark.parametrize(
    "body, says",
    [
        ({"action": "seven"}, "action: must be a JSON integer"),
        ({"action": 1, "extra": 2}, "extra: Extra inputs are not permitted"),
        ({}, "action: Field required"),
    ],
)
def test_malformed_moves_are_refused_with_one_readable_line(client, body, says) -> None:
    sid = new_game(client, human_seat=0)["id"]
    res = client.post(f"/api/sessions/{sid}/move", json=body)
    assert res.status_code == 422 and says in res.json()["detail"]


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
    ids = set()
    for _ in range(5):
        game_id = new_game(client)["id"]
        assert client.delete(f"/api/sessions/{game_id}").status_code == 204
        ids.add(game_id)
    assert len(ids) == 5 and all(len(i) >= 20 for i in ids)


def test_live_games_are_bounded_and_idle_games_expire(tmp_path) -> None:
    app = create_app(max_sessions=2, idle_seconds=3600)
    client = local_client(app)
    first = new_game(client)
    new_game(client)
    res = client.post("/api/sessions", json={"game": CARDS})
    assert res.status_code == 429 and "2 game slots" in res.json()["detail"]
    store = app.state.store
    store.limits = dataclasses.replace(store.limits, idle_seconds=0)  # everything is now idle
    new_game(client)
    assert client.get(f"/api/sessions/{first['id']}").status_code == 404


def test_the_page_and_its_scripts_are_served(client) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_the_page_loads_each_registered_games_drawing_by_the_games_own_name(client, monkeypatch) -> None:
    from ultimata.web.page import STATIC, index_html

    assert "/views/" not in (STATIC / "index.html").read_text(), "the game scripts are written, not hand-edited"
    scripts = re.findall(r'<script src="/views/(\w+)\.js"></script>', client.get("/").text)
    assert scripts == list(dict.fromkeys(game_base_name(name) for name in GAMES))
    for name in scripts:
        drawing = client.get(f"/views/{name}.js")
        assert drawing.status_code == 200 and drawing.headers["content-type"].startswith("text/javascript")
        assert f".{name} = {{" in drawing.text, "the drawing registers itself under the game's name"
    monkeypatch.setitem(GAMES, "nim_v1", "ultimata.envs.core")  # a package without a drawing: moves show as a list
    assert re.findall(r'<script src="/views/(\w+)\.js"></script>', index_html()) == scripts


def test_an_unknown_drawing_is_a_404_naming_the_drawings_and_no_path(client) -> None:
    drawings = ", ".join(dict.fromkeys(game_base_name(game) for game in GAMES))
    for name in ("nim", "core", "ultra_war_v5"):
        res = client.get(f"/views/{name}.js")
        assert res.status_code == 404 and res.json()["detail"] == f"no drawing named '{name}'; drawings: {drawings}"
    for path in ("/views/..%2Fenv.py", "/views/../app.js", "/views/ultra_war/env.py"):
        res = client.get(path)
        assert res.status_code == 404 and "raw_env" not in res.text and "/work" not in res.text


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

    game = "ultimade_v2"
    assert pretrained_path(game).exists()
    default = [o["spec"] for o in client.get(f"/api/games/{game}/opponents").json()]
    other = [o["spec"] for o in client.get(f'/api/games/{game}/opponents?config={{"points_to_win": 1}}').json()]
    assert "pretrained" in default and "pretrained" not in other and "heuristic" in other
    bad = client.get(f'/api/games/{game}/opponents?config={{"points_to_win": "many"}}')
    assert bad.status_code == 422 and "points_to_win" in bad.text


def test_a_refused_bot_never_shows_a_server_path(client) -> None:
    res = client.post("/api/sessions", json={"game": "ultimade_v2", "config": {"points_to_win": 1},
                                             "opponents": {"1": "pretrained"}})
    assert res.status_code == 400 and "/" not in res.json()["detail"].replace("n/a", "")


def test_the_favicon_is_served(client) -> None:
    assert client.get("/favicon.ico").status_code == 200


def test_cards_in_hand_carry_their_rules_text(client) -> None:
    snap = new_game(client, human_seat=0, opponents={"1": "random", "2": "random", "3": "random"})
    hand = snap["view"]["hand"]
    assert hand and all(card["rules"] for card in hand)


# -- strict input and body limits ---------------------------------------------------------------------

def human_turn(client, snap):
    while snap["waiting_for"] != "human":
        snap = client.post(f"/api/sessions/{snap['id']}/advance").json()
    return snap


@pytest.mark.parametrize("action", ["2", True, 3.0, [2], None])
def test_a_move_must_be_a_json_integer_and_nothing_else_plays(client, action) -> None:
    snap = human_turn(client, new_game(client, human_seat=0, opponents={"1": "random", "2": "random", "3": "random"}))
    legal = snap["moves"][0]["action"]
    bad = {int: legal, str: str(legal), bool: True, float: float(legal), list: [legal], type(None): None}
    res = client.post(f"/api/sessions/{snap['id']}/move", json={"action": bad[type(action)]})
    assert res.status_code == 422 and "action: must be a JSON integer" in res.json()["detail"]
    assert client.get(f"/api/sessions/{snap['id']}").json() == snap, "a refused move changed the game"


def test_a_body_over_the_limit_is_413(client) -> None:
    sid = new_game(client, human_seat=0)["id"]
    res = client.post(f"/api/sessions/{sid}/move", content=b'{"action": 1' + b" " * 70_000 + b"}",
                      headers={"Content-Type": "application/json"})
    assert res.status_code == 413 and "64 KB" in res.json()["detail"]
    chunked = client.post(f"/api/sessions/{sid}/move", content=iter([b'{"action": "', b"x" * 70_000, b'"}']),
                          headers={"Content-Type": "application/json"})
    assert chunked.status_code == 413


def test_a_declared_large_body_is_refused_without_reading_it() -> None:
    import asyncio

    from ultimata.web.guards import BodyLimit

    calls = {"app": 0, "receive": 0}
    sent = []

    async def app(scope, receive, send):
        calls["app"] += 1

    async def receive():
        calls["receive"] += 1
        return {"type": "http.request", "body": b"x" * 65_536, "more_body": True}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/sessions", "headers": [(b"content-length", b"100000000")]}
    asyncio.run(BodyLimit(app)(scope, receive, send))
    assert sent[0]["status"] == 413 and calls == {"app": 0, "receive": 0}


def test_the_api_has_no_page_that_needs_the_network(client) -> None:
    assert client.get("/api/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert "/api/sessions" in client.get("/api/openapi.json").json()["paths"]


# -- sessions: slots, clients, repeats --------------------------------------------------------------

WATCH_RANDOM = {"human_seat": None, "opponents": {str(i): "random" for i in range(4)}}


def test_a_finished_game_frees_its_slot_at_once_and_stays_readable(tmp_path) -> None:
    app = create_app(replays=tmp_path, max_sessions=1)
    client = local_client(app)
    done = finish(client, new_game(client, **WATCH_RANDOM))
    assert len(app.state.store) == 0
    again = client.get(f"/api/sessions/{done['id']}").json()
    assert again["over"] and again["replay"] == done["replay"] and (tmp_path / done["replay"]).is_file()
    assert client.post(f"/api/sessions/{done['id']}/advance").status_code == 409
    new_game(client)  # the only slot is free


def test_a_burst_of_100_creations_and_finishes_never_locks_anyone_out(tmp_path) -> None:
    """Two games in play at a time, over and over: finished and left games give their slots back."""
    app = create_app(replays=tmp_path, max_sessions=3, max_per_client=2)
    client = local_client(app)
    playing = [new_game(client, **WATCH_RANDOM)]
    finished, left = [], 0
    for n in range(1, 100):
        playing.append(new_game(client, **WATCH_RANDOM))
        oldest = playing.pop(0)
        if n % 5 == 0:
            assert client.delete(f"/api/sessions/{oldest['id']}").status_code == 204
            left += 1
        else:
            finished.append(finish(client, oldest))
    finished.append(finish(client, playing.pop()))
    assert len(app.state.store) == 0 and left + len(finished) == 100
    listed = {r["name"]: r["result"] for r in client.get("/api/replays").json()}
    assert sorted(listed) == sorted(s["replay"] for s in finished)
    assert all(result.startswith(("won by", "draw")) for result in listed.values())


def test_each_client_address_has_its_own_share_of_the_slots() -> None:
    app = create_app(max_sessions=10, max_per_client=2)
    alice, bob = (local_client(app, client=(host, 5000)) for host in ("10.0.0.1", "10.0.0.2"))
    first, _ = new_game(alice), new_game(alice)
    res = alice.post("/api/sessions", json={"game": CARDS})
    assert res.status_code == 429 and "you have 2 games in play" in res.json()["detail"]
    new_game(bob)
    assert bob.delete(f"/api/sessions/{first['id']}").status_code == 204, "ids are the key, not the address"
    new_game(alice)


def test_an_address_lists_its_own_live_games_and_no_one_elses() -> None:
    app = create_app(max_sessions=10, max_per_client=2)
    alice, bob = (local_client(app, client=(host, 5000)) for host in ("10.0.0.1", "10.0.0.2"))
    mine = [new_game(alice)["id"], new_game(alice, human_seat=None)["id"]]
    theirs = new_game(bob)["id"]
    listed = alice.get("/api/sessions").json()
    assert [g["id"] for g in listed] == mine and [g["human"] for g in listed] == [0, None]
    assert all(g["game"] == CARDS for g in listed)
    assert [g["id"] for g in bob.get("/api/sessions").json()] == [theirs]
    assert alice.delete(f"/api/sessions/{mine[0]}").status_code == 204
    assert [g["id"] for g in alice.get("/api/sessions").json()] == mine[1:], "a game left is no longer listed"


def test_the_limit_is_checked_before_any_bot_loads(monkeypatch) -> None:
    import ultimata.agents.specs as specs

    loads = []
    real = specs.load_agent
    monkeypatch.setattr(specs, "load_agent", lambda *a, **k: loads.append(a[0]) or real(*a, **k))
    client = local_client(create_app(max_sessions=1))
    new_game(client)
    assert len(loads) == 3
    for _ in range(5):
        assert client.post("/api/sessions", json={"game": CARDS, "opponents": {"1": "random"}}).status_code == 429
    assert len(loads) == 3, "a refused game loaded bots"


def test_a_repeated_request_id_returns_the_same_game(monkeypatch) -> None:
    import ultimata.agents.specs as specs

    loads = []
    real = specs.load_agent
    monkeypatch.setattr(specs, "load_agent", lambda *a, **k: loads.append(a[0]) or real(*a, **k))
    app = create_app(max_sessions=3)
    client = local_client(app)
    first = new_game(client, request_id="start-1")
    assert new_game(client, request_id="start-1")["id"] == first["id"] and len(loads) == 3
    assert len(app.state.store) == 1
    other = client.post("/api/sessions", json={"game": CARDS, "seed": 2, "request_id": "start-1"})
    assert other.status_code == 409 and "request_id" in other.json()["detail"]
    elsewhere = local_client(app, client=("10.0.0.9", 1))
    assert new_game(elsewhere, request_id="start-1")["id"] != first["id"], "ids are per client"
    long = client.post("/api/sessions", json={"game": CARDS, "request_id": "x" * 65})
    assert long.status_code == 422 and "request_id" in long.json()["detail"]


def test_a_double_submission_while_bots_load_makes_one_game() -> None:
    from ultimata.web.sessions import SessionStore

    store = SessionStore()
    release, builds, results = threading.Event(), [], []

    def slow_bots():
        builds.append(1)
        release.wait()
        return ["random"] * 4, {}

    def submit():
        results.append(store.create(CARDS, {}, None, 1, slow_bots, client="c", request_id="r"))

    first = threading.Thread(target=submit)
    first.start()
    while len(store) == 0 and first.is_alive():  # the first submission holds its slot, loading its bots
        threading.Event().wait(0.01)
    second = threading.Thread(target=submit)
    second.start()
    release.set()
    first.join()
    second.join()
    assert len(builds) == 1 and results[0] is results[1] and len(store) == 1


# -- the event log, difficulty ------------------------------------------------------------------------

def test_the_event_log_keeps_the_whole_game(client) -> None:
    conquest = "conquest_of_the_world_v3"  # hundreds of moves with random bots
    snap = finish(client, new_game(client, conquest, human_seat=None, opponents={str(i): "random" for i in range(3)}))
    assert snap["events_total"] > 30, "the game must outlast the old 30-event window"
    assert [e["n"] for e in snap["events"]] == list(range(1, snap["events_total"] + 1))
    tail = client.get(f"/api/sessions/{snap['id']}?events_from=25").json()
    assert tail["events"] == snap["events"][25:] and tail["events_total"] == snap["events_total"]


def test_ultra_wars_log_tells_moves_in_words_naming_characters_not_slots(client) -> None:
    """The log read the action space's terms ('player_1: select slot 2', 'attack g2 with attack 1',
    'play X (hand card 4)') and never what the moves made happen; the other seat now speaks in the third
    person and names characters, and the rules' events come under the move that caused them."""
    snap = new_game(client, "ultra_war_v5", human_seat=0, opponents={"1": "heuristic"})
    pick, sid = random.Random(0), snap["id"]
    while not snap["over"] and snap["events_total"] < 150:
        if snap["waiting_for"] == "bot":
            snap = client.post(f"/api/sessions/{sid}/advance").json()
        else:
            action = pick.choice(snap["moves"])["action"]
            snap = client.post(f"/api/sessions/{sid}/move", json={"action": action}).json()
    events = client.get(f"/api/sessions/{sid}").json()["events"]
    names = {u["name"] for u in snap["view"]["pawns"] + snap["view"]["off_board"]}
    engine_terms = re.compile(r"slot \d|hand card \d|with attack \d|select|player_\d:")
    assert not [e["move"] for e in events if engine_terms.search(e["move"])]
    theirs = [e["move"] for e in events if e["seat"] == 1]
    assert theirs and all(re.match(r"player_1('s)? ", m) for m in theirs), theirs[:5]
    activations = [m for m in theirs if " activates " in m]
    assert activations and all(m.split(" activates ", 1)[1] in names for m in activations)
    mine = [e["move"] for e in events if e["seat"] == 0 and e["move"].startswith("activate ")]
    assert mine and all(m.removeprefix("activate ") in names for m in mine)
    assert any("takes" in e.get("outcome", "") or "plays" in e.get("outcome", "") for e in events)


def test_every_game_offers_easy_medium_and_hard_with_their_strength(client) -> None:
    from ultimata.web.opponents import BUILTIN

    for game in client.get("/api/games").json():
        levels = game["difficulty"]
        assert [lv["level"] for lv in levels] == ["easy", "medium", "hard"], game["name"]
        assert all(lv["agent"] in BUILTIN and lv["strength"] for lv in levels), game["name"]
        offered = {o["spec"] for o in client.get(f"/api/games/{game['name']}/opponents").json()}
        assert {levels[0]["agent"], levels[1]["agent"]} <= offered, game["name"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[1, 2", "not valid YAML"),
        ("- a list", "must map each game"),
        ("chess: {}", "unknown games ['chess']"),
        ("ultimade: {}", "games without levels"),
    ],
)
def test_a_bad_difficulty_file_is_one_clear_error(text, says) -> None:
    from ultimata.envs.core.errors import ConfigError
    from ultimata.web.difficulty import load_difficulty

    with pytest.raises(ConfigError, match=re.escape(says)):
        load_difficulty(text)


@pytest.mark.parametrize(
    ("level", "says"),
    [
        ({"agent": "/tmp/bot.zip", "strength": "x"}, "easy.agent"),
        ({"agent": "heuristic", "strength": ""}, "easy.strength"),
        ({"agent": "heuristic", "strength": "x", "colour": "red"}, "unknown key 'easy.colour'"),
    ],
)
def test_a_bad_difficulty_level_names_its_key(level, says) -> None:
    import yaml

    from ultimata.envs.core.errors import ConfigError
    from ultimata.web.difficulty import load_difficulty

    good = {base: levels.model_dump() for base, levels in load_difficulty().items()}
    good["ultimade"]["easy"] = level
    with pytest.raises(ConfigError, match=re.escape(says)) as err:
        load_difficulty(yaml.safe_dump(good))
    assert "configs/ultimade.yaml, difficulty" in str(err.value)


def test_serve_with_a_bad_difficulty_file_is_one_error_line(monkeypatch, tmp_path) -> None:
    from typer.testing import CliRunner

    import ultimata.web.app as web_app
    from ultimata.cli import app
    from ultimata.web.difficulty import load_difficulty

    monkeypatch.setattr(web_app, "load_difficulty", lambda: load_difficulty("ultimade: {}"))
    result = CliRunner().invoke(app, ["serve", "--port", "1", "--record", str(tmp_path / "record.db"),
                                      "--replays", str(tmp_path / "replays")])
    assert result.exit_code == 2 and "games without levels" in result.output and "Traceback" not in result.output


# -- replays in pages ---------------------------------------------------------------------------------

def long_replay(folder, seed=1, name="world-long.json"):
    """A whole random game of the world wargame: hundreds of moves, so many pages and kept positions."""
    from ultimata.envs.core.registry import game_class
    from ultimata.envs.core.replay import Replay
    from ultimata.envs.core.rng import Rng

    state = game_class("ultimatum_world_v4").from_config({}).new_initial_state(Rng(seed))
    pick, actions = random.Random(seed), []
    while not state.is_terminal():
        actions.append(pick.choice(state.legal_actions()))
        state.apply(actions[-1])
    Replay.of_game(state, seed, actions, ["random"] * 4).save(folder / name)
    return actions


def test_a_long_replay_comes_in_pages_that_match_the_game(client, tmp_path) -> None:
    from ultimata.envs.core.registry import game_class
    from ultimata.envs.core.rng import Rng
    from ultimata.web.views import seat_view

    actions = long_replay(tmp_path / "replays")
    assert len(actions) > 500
    frames, moves = replay_frames(client, "world-long.json", count=37, perspective=2)
    state = game_class("ultimatum_world_v4").from_config({}).new_initial_state(Rng(1))
    expected_frames, expected_moves = [], []
    for action in [*actions, None]:
        frame = seat_view("ultimatum_world_v4", state, 2)
        expected_frames.append(json.loads(json.dumps(frame)))  # as JSON has it: no tuples
        expected_moves.append(None if action is None else state.narrate(action))
        if action is not None:
            state.apply(action)
    assert frames == expected_frames and moves == expected_moves
    page = client.get("/api/replays/world-long.json?start=700&count=5&perspective=2").json()
    assert page["total"] == len(actions) + 1 and page["result"].startswith(("won by", "draw"))
    assert page["frames"] == expected_frames[700:705] and page["moves"] == expected_moves[700:705]


@pytest.mark.parametrize(("query", "says"), [("start=5000", "start must be a frame 0.."), ("count=501", "count"),
                                             ("count=0", "count"), ("start=-1", "start")])
def test_a_page_outside_the_replay_is_a_422(client, tmp_path, query, says) -> None:
    long_replay(tmp_path / "replays")
    res = client.get(f"/api/replays/world-long.json?{query}")
    assert res.status_code == 422 and says in res.json()["detail"]


def test_an_opened_replay_is_not_read_again_until_its_file_changes(client, tmp_path, monkeypatch) -> None:
    from ultimata.envs.core.replay import Replay

    long_replay(tmp_path / "replays")
    reads = []
    real = Replay.load.__func__
    monkeypatch.setattr(Replay, "load", classmethod(lambda cls, path: reads.append(path) or real(cls, path)))
    for start in (0, 400, 800):
        assert client.get(f"/api/replays/world-long.json?start={start}").status_code == 200
    assert len(reads) == 1
    long_replay(tmp_path / "replays", seed=2)  # another game under the same name: a new file version
    assert client.get("/api/replays/world-long.json").status_code == 200 and len(reads) == 2


def test_every_bot_move_says_why_and_a_hint_answers_for_your_own_turn(client) -> None:
    snap = new_game(client, opponents={"1": "pretrained", "2": "heuristic", "3": "random"})
    for _ in range(12):
        if snap["over"]:
            break
        if snap["waiting_for"] == "human":
            asked = client.post(f"/api/sessions/{snap['id']}/hint", json={"bot": "pretrained"})
            assert asked.status_code == 200, asked.text
            said = asked.json()
            assert said["action"] in [m["action"] for m in snap["moves"]] and "probability" in said["hint"]
            snap = client.post(f"/api/sessions/{snap['id']}/move", json={"action": said["action"]}).json()
        else:
            refused = client.post(f"/api/sessions/{snap['id']}/hint", json={})
            assert refused.status_code == 409 and "your own turn" in refused.json()["detail"]
            snap = client.post(f"/api/sessions/{snap['id']}/advance").json()
    bots = [e for e in snap["events"] if e["who"] != "human"]
    assert bots and all(e.get("why") for e in bots)
    assert any("a scripted rule" in e["why"] for e in bots if e["who"] == "heuristic")
    assert all("not named" in e["why"] or "no other move" in e["why"] for e in bots if e["who"] == "pretrained")
    bad = client.post(f"/api/sessions/{snap['id']}/hint", json={"bot": "nobody"})
    assert bad.status_code == 400
