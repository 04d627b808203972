"""The record of games (ultimata/record/): migrations from an empty file and from version 1, a process killed
mid-write, two writers on one file, the import of replay files, ratings, and what each listing shows."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ultimata.envs.core.errors import ReplayError
from ultimata.envs.core.replay import Replay
from ultimata.record import Filters, GameRecord, RecordError
from ultimata.record.importer import FolderImport, export
from ultimata.record.schema import V1, VERSION

from .record_games import CARDS, RULES, lost_by, played, won_by

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = ["human", "hard", "hard"]
LEVELS = [None, "hard", "hard"]


def play_out(record: GameRecord, replay: Replay, ending: str = "finished", human: int | None = 0) -> str:
    game_id = record.start(CARDS, RULES, replay.seed, replay.players, LEVELS, human, "web")
    for n, action in enumerate(replay.actions, 1):
        record.move(game_id, n, action)
    return record.finish(game_id, replay, ending)


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_an_empty_file_is_brought_to_the_current_schema_in_wal_mode(tmp_path) -> None:
    path = tmp_path / "runs" / "ultimata.db"
    GameRecord(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {"games", "seats", "replays", "moves", "imports", "ratings"} <= tables(path)
    GameRecord(path).close()  # opening again migrates nothing
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == VERSION


def version_1_file(path: Path) -> list[Replay]:
    """A record as version 1 wrote it: finished browser games with their replays inline, and one left."""
    games = [won_by(0, PEOPLE), lost_by(0, PEOPLE, first_seed=50), played(7, PEOPLE, moves=4)]
    with sqlite3.connect(path) as conn:
        conn.executescript(V1)
        for k, replay in enumerate(games):
            data = {"format": "ultimata-replay/1", **replay.__dict__}
            result = replay.result
            conn.execute("INSERT INTO games (id, name, game, rules, seed, human_seat, result, played_at, replay) "
                         "VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                         (k + 1, f"v1-game-{k}.json", CARDS, json.dumps(RULES), replay.seed, result, 1000.0 + k,
                          json.dumps(data)))
            conn.executemany("INSERT INTO seats (game_id, seat, player) VALUES (?, ?, ?)",
                             [(k + 1, s, p) for s, p in enumerate(replay.players)])
        conn.execute("PRAGMA user_version = 1")
    return games


def test_a_version_1_file_migrates_keeping_every_game_and_rates_them(tmp_path) -> None:
    path = tmp_path / "old.db"
    games = version_1_file(path)
    record = GameRecord(path)
    total, listed = record.listing(Filters(yours=True))
    assert total == 3 and {g["name"] for g in listed} == {"v1-game-0.json", "v1-game-1.json", "v1-game-2.json"}
    by_name = {g["name"]: g for g in listed}
    assert by_name["v1-game-0.json"]["outcome"] == "win" and by_name["v1-game-1.json"]["outcome"] == "loss"
    assert by_name["v1-game-2.json"]["ending"] == "left" and by_name["v1-game-2.json"]["outcome"] is None
    assert by_name["v1-game-0.json"]["opponent"] == "hard"
    for k, replay in enumerate(games):
        assert record.replay(f"v1-game-{k}.json").actions == replay.actions
    [rating] = record.ratings()
    assert (rating["game"], rating["opponent"], rating["games"], rating["wins"], rating["losses"]) == \
        ("ultimatum_cards", "hard", 2, 1, 1)
    assert "replay" not in {row[1] for row in sqlite3.connect(path).execute("PRAGMA table_info(games)")}
    assert record.integrity() == "ok"


def test_a_file_from_a_newer_install_is_refused_and_left_alone(tmp_path) -> None:
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {VERSION + 1}")
    with pytest.raises(RecordError, match=f"schema version {VERSION + 1}, newer"):
        GameRecord(path)


def writer(path: Path, games: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.web.record_writer", str(path), str(games)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)


def test_a_writer_killed_mid_game_leaves_a_consistent_file_with_every_committed_game(tmp_path) -> None:
    path = tmp_path / "killed.db"
    GameRecord(path).close()
    process = writer(path, 10_000)
    committed = [process.stdout.readline().strip() for _ in range(5)]
    time.sleep(0.05)  # into the next game's moves
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    committed += [line.strip() for line in process.stdout.read().splitlines() if line.strip()]
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    record = GameRecord(path)
    total, listed = record.listing(Filters(yours=True), limit=500)
    names = {g["name"]: g for g in listed}
    assert all(names[name]["ending"] == "finished" for name in committed)
    unfinished = [g for g in listed if g["ending"] != "finished"]
    assert len(unfinished) <= 1 and all(g["ending"] == "interrupted" for g in unfinished)
    assert record.recovered == len(unfinished), "the game in play when the writer died is recorded as interrupted"
    for game in unfinished:
        assert record.replay(game["name"]).players == PEOPLE
    assert total == len(committed) + len(unfinished)


def test_two_writers_on_one_file_take_turns_and_lose_no_game_or_rating(tmp_path) -> None:
    path = tmp_path / "shared.db"
    GameRecord(path).close()
    first, second = writer(path, 25), writer(path, 25)
    out = [line for p in (first, second) for line in p.communicate(timeout=300)[0].split()]
    assert first.returncode == second.returncode == 0
    record = GameRecord(path)
    total, _ = record.listing(Filters(yours=True))
    assert total == 50 and len(set(out)) == 50
    [rating] = record.ratings()
    assert rating["games"] == 50 and rating["wins"] == 50, "each rating update read the other writer's last one"
    assert record.integrity() == "ok"


def test_a_win_raises_your_rating_a_loss_lowers_it_and_each_game_narrows_it(tmp_path) -> None:
    record = GameRecord(None)
    play_out(record, won_by(0, PEOPLE))
    [after_win] = record.ratings()
    assert after_win["you_mu"] > 25 > after_win["bot_mu"] and after_win["you_sigma"] < 25 / 3
    play_out(record, lost_by(0, PEOPLE, first_seed=50))
    [after_loss] = record.ratings()
    assert after_loss["you_mu"] < after_win["you_mu"] and after_loss["bot_mu"] > after_win["bot_mu"]
    assert after_loss["you_sigma"] < after_win["you_sigma"]
    assert (after_loss["games"], after_loss["wins"], after_loss["losses"]) == (2, 1, 1)


def test_resigning_is_a_rated_loss_and_leaving_is_kept_unrated(tmp_path) -> None:
    record = GameRecord(None)
    half = played(3, PEOPLE, moves=5)
    play_out(record, half, "resigned")
    play_out(record, played(4, PEOPLE, moves=5), "left")
    total, yours = record.listing(Filters(yours=True))
    assert total == 2
    resigned, left = sorted(yours, key=lambda g: g["ending"], reverse=True)
    assert resigned["outcome"] == "loss" and "player_0 resigned" in resigned["result"]
    assert left["outcome"] is None and left["result"] == "unfinished (you left)"
    [rating] = record.ratings()
    assert rating["games"] == 1 and rating["losses"] == 1 and rating["you_mu"] < 25
    replays_total, replays = record.listing(Filters())
    assert [g["ending"] for g in replays] == ["resigned"], "the replay list shows games with a result"


def test_the_listing_filters_by_game_and_opponent_and_pages(tmp_path) -> None:
    record = GameRecord(None)
    for seed in range(6):
        play_out(record, played(seed, ["human", "hard", "hard"] if seed % 2 else ["human", "random", "random"]))
    assert record.listing(Filters(yours=True, opponent="hard"))[0] == 3
    assert record.listing(Filters(yours=True, family="ultimatum_cards"))[0] == 6
    assert record.listing(Filters(yours=True, family="ultra_war"))[0] == 0
    total, page = record.listing(Filters(yours=True), offset=4, limit=4)
    assert total == 6 and len(page) == 2
    assert record.choices() == {"games": ["ultimatum_cards"], "opponents": ["hard", "random"]}


def good_file(folder: Path, name: str, replay: Replay) -> Path:
    replay.save(folder / name)
    return folder / name


def test_a_folder_of_replays_is_imported_once_and_a_bad_file_is_named_and_skipped(tmp_path) -> None:
    folder = tmp_path / "replays"
    folder.mkdir()
    good_file(folder, "mine.json", won_by(0, ["you", "heuristic", "heuristic"]))
    good_file(folder, "bots.json", played(2, ["random", "heuristic", "pretrained"]))
    (folder / "broken.json").write_text('{"format": "ultimata-replay/1", "game": "chess_v9"}')
    record = GameRecord(tmp_path / "r.db")
    report = FolderImport(record, folder).sync()
    assert sorted(report.imported) == ["bots.json", "mine.json"]
    assert list(report.skipped) == ["broken.json"] and "broken.json" in report.skipped["broken.json"]
    assert FolderImport(record, folder).sync().imported == [], "a second import adds nothing"
    (folder / "copy.json").write_bytes((folder / "mine.json").read_bytes())
    assert FolderImport(record, folder).sync().imported == [], "a renamed copy is the same game"
    total, listed = record.listing(Filters())
    assert total == 2
    [mine] = record.listing(Filters(yours=True))[1]
    assert mine["name"] == "mine.json" and mine["human_seat"] == 0 and mine["outcome"] == "win"
    assert record.ratings()[0]["opponent"] == "heuristic"


def test_a_file_its_moves_refute_is_not_imported(tmp_path) -> None:
    folder = tmp_path / "replays"
    folder.mkdir()
    replay = played(1, PEOPLE)
    replay.final_state["decisions"] += 1
    good_file(folder, "tampered.json", replay)
    sync = FolderImport(GameRecord(None), folder)
    assert "does not end in the stored final state" in sync.sync().skipped["tampered.json"]
    assert sync.problems["tampered.json"]["result"] == "unreadable"


def test_an_exported_game_is_a_replay_file_that_is_not_imported_again(tmp_path) -> None:
    record = GameRecord(None)
    name = play_out(record, won_by(0, PEOPLE))
    path = export(record, name, tmp_path)
    assert Replay.load(path).final().is_terminal()
    assert FolderImport(record, tmp_path).sync().imported == []
    assert record.listing(Filters())[0] == 1
    with pytest.raises(KeyError):
        export(record, "no-such-game.json", tmp_path)


def test_a_recorded_replay_is_checked_as_a_file_is(tmp_path) -> None:
    path = tmp_path / "r.db"
    record = GameRecord(path)
    name = play_out(record, won_by(0, PEOPLE))
    with sqlite3.connect(path) as conn:
        import zlib

        data = json.loads(zlib.decompress(conn.execute("SELECT data FROM replays").fetchone()[0]))
        data["seed"] = -1
        conn.execute("UPDATE replays SET data = ?", (zlib.compress(json.dumps(data).encode()),))
    with pytest.raises(ReplayError, match="field 'seed' must be an integer 0.."):
        record.replay(name)
