"""Hostile replay files, through every reader: the Python API (one ReplayError naming the field), the CLI
(exit 2 and one line, no traceback) and the web (the listing still answers and names the bad file; opening
it is a 422; no server path and no 5xx anywhere). The CLI and the web make the same checks."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from ultimata.cli import app as cli
from ultimata.envs.core import safe_json
from ultimata.envs.core.errors import ReplayError
from ultimata.envs.core.replay import Replay, record
from ultimata.envs.core.replay_checks import MAX_NAME
from ultimata.web.app import create_app

from ..web.client import local_client

CARDS = "ultimatum_cards_v3"
MARKUP = "[link=https://evil.example]x[/link]"
"""A player name that Rich would turn into a terminal hyperlink if it were printed as markup."""


def good() -> dict:
    """A short, valid card game as its JSON: a few random legal moves from seed 1."""
    replay = record(1, CARDS, {}, [])
    state, pick = replay.final(), random.Random(1)
    actions = []
    for _ in range(6):
        actions.append(pick.choice(state.legal_actions()))
        state.apply(actions[-1])
    replay = record(1, CARDS, {}, actions)
    replay.players = ["random", MARKUP, "heuristic", "pretrained"]
    return {"format": "ultimata-replay/1", **replay.__dict__}


def text_with(**fields) -> str:
    return json.dumps({**good(), **fields})


def raw_field(key: str, raw: str) -> str:
    """A replay whose `key` holds `raw`, JSON text that json.dumps could not write (huge or deep)."""
    return text_with(**{key: "@@"}).replace('"@@"', raw)


HOSTILE = {
    # name: (file content, what the refusal must say)
    "seed-5000-digits": (raw_field("seed", "9" * 5000), "field 'seed' must be an integer, got a 5000-digit number"),
    "nested-5000-deep": ("[" * 5000 + "]" * 5000, "nested too deeply"),
    "config-300-deep": (raw_field("config", '{"a":' * 300 + "1" + "}" * 300), "field 'config' is nested too deeply"),
    "returns-nan": (raw_field("returns", "[NaN, 1, 0, 0]"), "NaN is not a JSON number"),
    "returns-infinite": (raw_field("returns", "[1e999, 1, 0, 0]"), "too large"),
    "returns-short": (text_with(returns=[1, -1]), "one number per seat (4), got 2"),
    "action-negative": (text_with(actions=[-5000]), "action #0 does not apply: -5000 is outside"),
    "action-huge": (raw_field("actions", "[" + "7" * 5000 + "]"), "action #0 is a 5000-digit number"),
    "action-true": (text_with(actions=[True]), "'actions' must be a list of integers; action #0 is True"),
    "action-float": (text_with(actions=[1.0]), "'actions' must be a list of integers"),
    "players-100000": (text_with(players=["x"] * 100_000), "'players' must be a list of agent names, one per seat; "
                                                           "got 100000 entries"),
    "players-5-of-4": (text_with(players=["a"] * 5), "names 5 players; this game has 4 seats"),
    "player-name-long": (text_with(players=["x" * (MAX_NAME + 1)]), f"1..{MAX_NAME} printable characters"),
    "player-name-escape": (text_with(players=["\x1b]8;;https://evil.example\x07x"]), "printable characters"),
    "player-name-empty": (text_with(players=[""]), "printable characters"),
    "player-not-text": (text_with(players=[{"a": 1}]), "'players' must be a list of agent names"),
    "game-unknown": (text_with(game="chess_v9"), "field 'game': unknown game"),
    "game-not-text": (text_with(game=["x"]), "field 'game' must be a game name"),
    "version-other": (text_with(version=1), "field 'version': the replay is for ultimatum_cards_v3 v1"),
    "version-true": (text_with(version=True), "field 'version' must be an integer"),
    "config-list": (text_with(config=[]), "field 'config' must be a mapping of rules"),
    "config-unknown-key": (text_with(config={"bogus": 1}), "unknown key 'bogus'"),
    "seed-negative": (text_with(seed=-1), "field 'seed' must be an integer 0.."),
    "seed-2-to-the-64": (text_with(seed=2**64), "field 'seed' must be an integer 0.."),
    "seed-float": (text_with(seed=1.5), "field 'seed' must be an integer"),
    "final-state-list": (text_with(final_state=[1]), "'final_state' must be a state"),
    "not-utf8": ("\udcff", "not valid JSON"),
    "empty": ("", "not valid JSON"),
    "top-level-list": ("[]", "is not an ultimata replay"),
    "other-format": (text_with(format="ultimata-replay/9"), "is not an ultimata replay"),
}


def tampered() -> str:
    data = good()
    data["final_state"]["decisions"] += 1
    return json.dumps(data)


REFUSED_ON_REPLAY = {
    # well-formed files that the moves refute: found by replaying, which the CLI and the web both do first
    "action-illegal-now": (text_with(actions=[70]), "replay action #0 does not apply"),
    "final-state-tampered": (tampered(), "does not end in the stored final state"),
}


def write(folder, name: str, content: str):
    path = folder / f"{name}.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    return path


def flat(text: str) -> str:
    """Output as one line: the CLI's console wraps long lines."""
    return " ".join(text.split())


@pytest.fixture()
def folder(tmp_path):
    replays = tmp_path / "private-server-folder" / "replays"
    replays.mkdir(parents=True)
    return replays


@pytest.fixture()
def client(folder):
    return local_client(create_app(replays=folder))


@pytest.mark.parametrize("name", list(HOSTILE))
def test_the_python_api_refuses_a_hostile_replay_naming_what_is_wrong(folder, name) -> None:
    content, says = HOSTILE[name]
    with pytest.raises(ReplayError) as refused:
        Replay.load(write(folder, name, content))
    message = str(refused.value)
    assert says in message and len(message) < 600 and str(folder) not in message


@pytest.mark.parametrize("name", list(HOSTILE))
def test_the_cli_refuses_a_hostile_replay_in_one_line(folder, name) -> None:
    content, says = HOSTILE[name]
    result = CliRunner().invoke(cli, ["replay", str(write(folder, name, content)), "--no-pause"])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert flat(result.output).startswith("error:") and says in flat(result.output)


def test_the_web_lists_every_readable_replay_and_names_each_bad_file(client, folder) -> None:
    write(folder, "a-good-game", json.dumps(good()))
    for name, (content, _) in HOSTILE.items():
        write(folder, name, content)
    res = client.get("/api/replays")
    assert res.status_code == 200
    listed = {r["name"]: r for r in res.json()}
    assert listed["a-good-game.json"]["game"] == CARDS and listed["a-good-game.json"]["moves"] == 6
    for name, (_, says) in HOSTILE.items():
        entry = listed[f"{name}.json"]
        assert entry["result"] == "unreadable" and says in entry["error"] and f"{name}.json" in entry["error"], name
    assert str(folder.parent) not in res.text


@pytest.mark.parametrize("name", list(HOSTILE))
def test_opening_a_hostile_replay_on_the_web_is_a_422_without_a_server_path(client, folder, name) -> None:
    content, says = HOSTILE[name]
    write(folder, name, content)
    res = client.get(f"/api/replays/{name}.json")
    assert res.status_code == 422 and says in res.json()["detail"]
    assert str(folder.parent) not in res.text


def test_a_replay_over_the_size_limit_is_refused_before_it_is_parsed(folder, client, monkeypatch) -> None:
    """The probe's 40 MB `players` list took the CLI over a minute; such a file is not even parsed now."""
    path = folder / "forty-mb.json"
    with path.open("wb") as file:
        file.write(b'{"format": "ultimata-replay/1", "players": [')
        file.truncate(40 * 2**20)
    parsed = []
    monkeypatch.setattr(safe_json, "loads", lambda text: parsed.append(len(text)))
    with pytest.raises(ReplayError, match="over the 8 MB a replay may be"):
        Replay.load(path)
    result = CliRunner().invoke(cli, ["replay", str(path), "--no-pause"])
    assert result.exit_code == 2 and "over the 8 MB" in flat(result.output)
    entry = next(r for r in client.get("/api/replays").json() if r["name"] == "forty-mb.json")
    assert entry["result"] == "unreadable" and "over the 8 MB" in entry["error"]
    assert parsed == []


def test_a_directory_named_like_a_replay_is_listed_as_unreadable(client, folder) -> None:
    (folder / "folder.json").mkdir()
    entry = next(r for r in client.get("/api/replays").json() if r["name"] == "folder.json")
    assert entry["result"] == "unreadable" and "not a file" in entry["error"]
    assert client.get("/api/replays/folder.json").status_code == 422


@pytest.mark.parametrize("name", list(REFUSED_ON_REPLAY))
def test_a_replay_its_moves_refute_is_refused_by_the_cli_as_by_the_web(client, folder, name) -> None:
    content, says = REFUSED_ON_REPLAY[name]
    path = write(folder, name, content)
    with pytest.raises(ReplayError, match=says):
        Replay.load(path).final()
    res = client.get(f"/api/replays/{name}.json")
    assert res.status_code == 422 and says in res.json()["detail"]
    result = CliRunner().invoke(cli, ["replay", str(path), "--no-pause"])
    assert result.exit_code == 2 and says in flat(result.output) and "Traceback" not in result.output
    assert "#1 " not in result.output, "no move of a refused replay is shown"


def test_the_cli_prints_player_names_as_text_not_markup(folder) -> None:
    result = CliRunner().invoke(cli, ["replay", str(write(folder, "names", json.dumps(good()))), "--no-pause"])
    assert result.exit_code == 0, result.output
    assert f"player_1 {MARKUP}" in result.output


def test_a_valid_replay_still_plays_on_every_reader(client, folder) -> None:
    path = write(folder, "fine", json.dumps(good()))
    assert Replay.load(path).final().decisions == 6
    page = client.get("/api/replays/fine.json").json()
    assert page["total"] == 7 and page["players"][1] == MARKUP and all(m for m in page["moves"][:-1])


def test_replays_written_for_long_or_unprintable_names_load_again(tmp_path) -> None:
    """A replay keeps at most MAX_NAME printable characters of each name, so whatever the arena writes (a
    checkpoint's long path as its spec) passes the checks on load."""
    state = record(1, CARDS, {}, []).final()
    long_path = "/runs/" + "deep/" * 100 + "final.zip"
    Replay.of_game(state, 1, [], [long_path, "tab\there", "b", "c"]).save(tmp_path / "r.json")
    players = Replay.load(tmp_path / "r.json").players
    assert len(players[0]) <= MAX_NAME and players[0].endswith("final.zip") and players[1] == "tab?here"
