"""How fast the record answers with many games: `python -m ultimata.web.record_bench [GAMES]` fills a record in a
temporary folder with GAMES finished games (10,000 by default; five games, three opponents, one small
replay each) and times what the pages ask: a page of Your games with and without filters, a deep page,
the ratings, the replay listing, opening one replay, and opening the file. Figures in BENCHMARKS.md."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from ultimata.record import Filters, GameRecord
from ultimata.record.schema import pack
from ultimata.record.store import as_json

FAMILIES = ["ultimatum_cards", "ultimade", "ultra_war", "conquest_of_the_world", "ultimatum_world"]
OPPONENTS = ["heuristic", "pretrained", "hard"]


def fill(record: GameRecord, games: int) -> None:
    """`games` finished games in one transaction: the listings read rows, not replays, so one short replay
    (a real one, which opens) serves them all."""
    from ultimata.envs.core.registry import game_class
    from ultimata.envs.core.replay import Replay
    from ultimata.envs.core.rng import Rng

    state = game_class("ultimatum_cards_v3").from_config({}).new_initial_state(Rng(1))
    replay = pack(as_json(Replay.of_game(state, 1, [], ["human", "hard", "hard", "hard"])))
    now = time.time()
    with record._write() as conn:
        for k in range(games):
            family, opponent = FAMILIES[k % len(FAMILIES)], OPPONENTS[k % len(OPPONENTS)]
            returns = [1.0, -1 / 3, -1 / 3, -1 / 3] if k % 4 == 0 else [-1 / 3, 1.0, -1 / 3, -1 / 3]
            game_id = conn.execute(
                "INSERT INTO games (name, game, family, rules, seed, source, human_seat, opponent, status, ending, "
                "outcome, result, returns, moves, started_at, ended_at) VALUES (?, ?, ?, '{}', ?, 'web', 0, ?, "
                "'over', 'finished', ?, ?, ?, 40, ?, ?)",
                (f"game-{k:06d}.json", "ultimatum_cards_v3" if k == 0 else f"{family}_v2", family, k, opponent,
                 "win" if k % 4 == 0 else "loss", "won by player_0" if k % 4 == 0 else "won by player_1",
                 json.dumps(returns), now - games + k, now - games + k + 0.5)).lastrowid
            conn.executemany("INSERT INTO seats (game_id, seat, player, level) VALUES (?, ?, ?, ?)",
                             [(game_id, s, "human" if s == 0 else opponent, None if s == 0 else "hard")
                              for s in range(4)])
            conn.execute("INSERT INTO replays (game_id, data) VALUES (?, ?)", (game_id, replay))
        from ultimata.record.rating import rate_all

        rate_all(conn)


def best_of(runs: int, call: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def main(games: int = 10_000) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ultimata.db"
        record = GameRecord(path)
        start = time.perf_counter()
        fill(record, games)
        size = path.stat().st_size / 2**20
        print(f"filled {games:,} games in {time.perf_counter() - start:.1f} s; file {size:.1f} MB")
        checks = {
            "Your games, first page of 50": lambda: record.listing(Filters(yours=True)),
            "Your games, one game": lambda: record.listing(Filters(yours=True, family="ultimade")),
            "Your games, one opponent": lambda: record.listing(Filters(yours=True, opponent="hard")),
            "Your games, both filters": lambda: record.listing(Filters("ultra_war", "hard", yours=True)),
            "Your games, page at offset 5,000": lambda: record.listing(Filters(yours=True), offset=5000),
            "replay listing, first page of 100": lambda: record.listing(Filters(), limit=100),
            "ratings and filter choices": lambda: (record.ratings(), record.choices()),
            "one replay read and checked": lambda: record.replay("game-000000.json").final(),
            "opening the file (migration check, recovery)": lambda: GameRecord(path).close(),
        }
        checks.update(over_http(path))
        for label, call in checks.items():
            print(f"{label}: {best_of(5, call) * 1000:.1f} ms (best of 5)")
        record.close()


def over_http(path: Path) -> dict[str, Callable[[], object]]:
    """The same pages as the browser asks for them, through the app (needs httpx, a dev dependency)."""
    try:
        from fastapi.testclient import TestClient
    except ImportError:
        return {}
    from ultimata.web.app import create_app

    client = TestClient(create_app(record=path), base_url="http://localhost")

    def get(url: str) -> Callable[[], object]:
        return lambda: client.get(url).raise_for_status()

    return {"GET /api/record (Your games, ratings, choices)": get("/api/record?limit=50"),
            "GET /api/record?opponent=hard&offset=3000": get("/api/record?opponent=hard&offset=3000&limit=50"),
            "GET /api/replays (first 100)": get("/api/replays")}


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
