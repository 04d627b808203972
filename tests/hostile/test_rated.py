"""Rated games a player cannot work out in advance: the server draws every rated game's seed and shows it
only once the game is over. A seed the client chooses still deals that game, for practice: it is recorded
as unrated and moves no rating. Old record files keep their games, rated as they were."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from tests.web.client import local_client
from ultimata.record import Filters, GameRecord
from ultimata.record.schema import MIGRATIONS, VERSION, Step
from ultimata.web.app import create_app

GAME = "ultimatum_cards_v3"
SMALL = {"num_players": 3}


@pytest.fixture
def client(tmp_path):
    return local_client(create_app(replays=tmp_path / "replays", record=tmp_path / "record.db"))


def _start(client, **body) -> dict:
    made = client.post("/api/sessions", json={"game": GAME, "config": SMALL,
                                              "opponents": {"1": "heuristic", "2": "heuristic"}, **body})
    assert made.status_code == 201, made.text
    return made.json()


def _play_out(client, snap: dict, pick: random.Random) -> dict:
    while not snap["over"]:
        assert snap["seed"] is None, "the seed is hidden while the game runs"
        path = f"/api/sessions/{snap['id']}"
        if snap["waiting_for"] == "bot":
            snap = client.post(path + "/advance").json()
        else:
            snap = client.post(path + "/move", json={"action": pick.choice(snap["moves"])["action"]}).json()
    return snap


def test_a_rated_game_hides_its_seed_until_it_is_over(client):
    snap = _start(client)
    assert snap["rated"] is True and snap["seed"] is None
    shown = client.get(f"/api/sessions/{snap['id']}").json()
    assert shown["seed"] is None and "seed" not in json.dumps(shown["view"])
    over = _play_out(client, shown, random.Random(0))
    assert isinstance(over["seed"], int), "shown once the game is over"
    replay = client.get(f"/api/replays/{over['replay']}/export").json()
    assert replay["seed"] == over["seed"]


def test_two_rated_games_are_dealt_from_seeds_the_server_drew(client):
    seeds = set()
    for _ in range(3):
        snap = _start(client)
        client.post(f"/api/sessions/{snap['id']}/resign")
        seeds.add(client.get(f"/api/replays/{client.get('/api/record').json()['games'][0]['name']}/export")
                  .json()["seed"])
    assert len(seeds) == 3


def test_a_chosen_seed_is_practice_and_moves_no_rating(client):
    snap = _start(client, seed=5)
    assert snap["rated"] is False and snap["seed"] is None  # the client knows it, but nothing echoes it mid-game
    assert client.post(f"/api/sessions/{snap['id']}/resign").status_code == 200
    record = client.get("/api/record").json()
    assert [g["rated"] for g in record["games"]] == [False] and record["games"][0]["outcome"] == "loss"
    assert record["ratings"] == [], "practice moves no rating"
    rated = _start(client)
    assert client.post(f"/api/sessions/{rated['id']}/resign").status_code == 200
    record = client.get("/api/record").json()
    assert [g["rated"] for g in record["games"]] == [True, False]
    [rating] = record["ratings"]
    assert rating["games"] == 1 and rating["losses"] == 1


def test_the_same_seed_deals_the_same_practice_game(client):
    first, second = _start(client, seed=9), _start(client, seed=9)
    assert first["view"] == second["view"]


def test_a_version_2_record_migrates_and_keeps_its_games_rated(tmp_path):
    path = tmp_path / "v2.db"
    with sqlite3.connect(path) as conn:
        for step in MIGRATIONS[:2]:
            step(Step(conn))
        conn.execute("PRAGMA user_version = 2")
    old = GameRecord(path)  # opened by this install: migrated to VERSION at once
    assert VERSION >= 3
    game_id = old.start(GAME, SMALL, 3, ["human", "heuristic", "heuristic"], [None, "easy", "easy"], 0, "web")
    old.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == VERSION
        assert conn.execute("SELECT rated FROM games WHERE id = ?", (game_id,)).fetchone() == (1,)
    # a file of version 2 that already holds a finished, rated game: the migration keeps it counted
    path2 = tmp_path / "v2_with_game.db"
    with sqlite3.connect(path2) as conn:
        for step in MIGRATIONS[:2]:
            step(Step(conn))
        conn.execute("PRAGMA user_version = 2")
        conn.execute("INSERT INTO games (id, name, game, family, rules, seed, source, human_seat, opponent, status, "
                     "ending, outcome, result, moves, started_at, ended_at) VALUES (1, 'g.json', ?, "
                     "'ultimatum_cards', '{}', 1, 'web', 0, 'heuristic', 'over', 'resigned', 'loss', 'lost', 0, 1, 2)",
                     (GAME,))
        conn.executemany("INSERT INTO seats (game_id, seat, player) VALUES (1, ?, ?)",
                         [(0, "human"), (1, "heuristic"), (2, "heuristic")])
    record = GameRecord(path2)
    _, [listed] = record.listing(Filters(yours=True))
    assert listed["rated"] is True and listed["outcome"] == "loss"
