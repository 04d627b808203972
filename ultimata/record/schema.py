"""The record's schema, versioned by `PRAGMA user_version`. Each migration takes a file one version up in one
transaction, so a file is always at a version that exists: an interrupted migration rolls back whole.

Version 1 kept a finished browser game per row with its replay inline. Version 2 is the record of every
game, finished or not: where it was played, how it ended, the person's outcome and the bots' level, a
move log while it is played (so a killed process leaves the game so far), replays in their own table
(compressed), the files imported, and the person's rating against each opponent. Version 3 marks each game
rated or not: a game dealt from a seed its player chose is practice (they could work out every hand), and
moves no rating; the games of older files keep counting, as they did."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable

from ultimata.agents.base import game_base_name
from ultimata.envs.core.errors import UltimataError

VERSION = 3


class RecordError(UltimataError):
    """The record cannot be opened or written (a locked or read-only file, a schema from a newer install)."""


V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    seed INTEGER NOT NULL,
    human_seat INTEGER,
    result TEXT NOT NULL,
    played_at REAL NOT NULL,
    replay TEXT NOT NULL
);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""

V2_TABLES = """
CREATE TABLE games_v2 (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,      -- the replay's name on the web, in the CLI and as an exported file
    game TEXT NOT NULL,             -- the env name, e.g. ultimatum_cards_v3
    family TEXT NOT NULL,           -- its name without version: filters and ratings outlive a version bump
    rules TEXT NOT NULL,            -- the rule variant, JSON
    seed INTEGER NOT NULL,
    source TEXT NOT NULL,           -- web, terminal or import
    human_seat INTEGER,             -- NULL: bots only
    opponent TEXT,                  -- the spec every bot seat plays, 'mixed' when they differ, NULL without bots
    status TEXT NOT NULL,           -- playing or over
    ending TEXT,                    -- finished, resigned, left, expired, quit, cut, interrupted
    outcome TEXT,                   -- the person's win, loss or draw; NULL when unrated (unfinished, watched)
    result TEXT,                    -- in words: won by player_2, draw, unfinished ...
    returns TEXT,                   -- JSON list, one number per seat, when the rules ended the game
    moves INTEGER NOT NULL DEFAULT 0,
    started_at REAL NOT NULL,       -- unix seconds
    ended_at REAL,
    owner TEXT                      -- host and process id playing it, while status is playing
);
CREATE TABLE replays (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    data BLOB NOT NULL              -- the replay's JSON (envs/core/replay.py's format), zlib-compressed
);
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
CREATE TABLE imports (
    sha256 TEXT PRIMARY KEY,        -- of the replay's canonical JSON: the same game under any file name
    file TEXT NOT NULL,
    game_id INTEGER REFERENCES games(id) ON DELETE SET NULL,
    imported_at REAL NOT NULL
);
CREATE TABLE ratings (
    family TEXT NOT NULL,
    opponent TEXT NOT NULL,
    you_mu REAL NOT NULL, you_sigma REAL NOT NULL,
    bot_mu REAL NOT NULL, bot_sigma REAL NOT NULL,
    games INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
    PRIMARY KEY (family, opponent)
);
"""

V2_INDEXES = """
CREATE INDEX games_started ON games(started_at);
CREATE INDEX games_family ON games(family, started_at);
CREATE INDEX games_opponent ON games(opponent, started_at);
CREATE INDEX games_playing ON games(status) WHERE status = 'playing';
"""


def pack(replay_json: dict) -> bytes:
    return zlib.compress(json.dumps(replay_json, sort_keys=True, separators=(",", ":")).encode())


def unpack(data: bytes) -> dict:
    return json.loads(zlib.decompress(data))


class Step:
    """The connection as a migration sees it: inside the migration's transaction, and a `script` that runs
    each statement there (sqlite3's own executescript would commit the transaction first)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: tuple = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def script(self, script: str) -> None:
        code = "\n".join(line.split("--", 1)[0] for line in script.splitlines())  # comments may hold a ';'
        for statement in filter(None, (part.strip() for part in code.split(";"))):
            self.conn.execute(statement)


def _to_v1(step: Step) -> None:
    step.script(V1)


def _to_v2(step: Step) -> None:
    """Every v1 game keeps its id and name: its replay moves to its own table, how it ended and the
    person's outcome are read from it, and the ratings are computed from the games in order."""
    from ultimata.record.outcome import describe
    from ultimata.record.rating import rate_all

    step.script(V2_TABLES)
    step.execute("ALTER TABLE seats ADD COLUMN level TEXT")
    rows = step.execute("SELECT id, name, game, rules, seed, human_seat, played_at, replay FROM games "
                        "ORDER BY played_at, id").fetchall()
    for gid, name, game, rules, seed, human, played_at, replay in rows:
        data = json.loads(replay)
        players = [p for (p,) in step.execute("SELECT player FROM seats WHERE game_id = ? ORDER BY seat", (gid,))]
        returns = data.get("returns")
        ending = "finished" if returns else "left"
        told = describe(players, human, ending, returns)
        step.execute(
            "INSERT INTO games_v2 (id, name, game, family, rules, seed, source, human_seat, opponent, status, ending,"
            " outcome, result, returns, moves, started_at, ended_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 'web', ?, ?, 'over', ?, ?, ?, ?, ?, ?, ?)",
            (gid, name, game, game_base_name(game), rules, seed, human, told.opponent, ending, told.outcome,
             told.result, json.dumps(returns) if returns else None, len(data.get("actions", [])), played_at,
             played_at))
        step.execute("INSERT INTO replays (game_id, data) VALUES (?, ?)", (gid, pack(data)))
    step.execute("DROP TABLE games")
    step.execute("ALTER TABLE games_v2 RENAME TO games")
    step.script(V2_INDEXES)
    rate_all(step.conn)


def _to_v3(step: Step) -> None:
    """`rated`: 0 for practice (a seed the player chose); the games already kept stay rated, so the
    ratings an older install showed do not change."""
    step.execute("ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1")


MIGRATIONS: list[Callable[[Step], None]] = [_to_v1, _to_v2, _to_v3]
"""MIGRATIONS[k] takes a file from version k to k + 1."""


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the file to VERSION; returns the version it was at. Runs with foreign keys off (a table
    rebuilt in place would cascade its deletes otherwise), each step in a BEGIN IMMEDIATE transaction that
    re-reads the version, so two processes opening a new file at once migrate it once."""
    start = conn.execute("PRAGMA user_version").fetchone()[0]
    if start > VERSION:
        raise RecordError(f"this game record is schema version {start}, newer than this install's {VERSION}; "
                            "upgrade ultimata to read it")
    if start == VERSION:
        return start
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        while True:
            conn.execute("BEGIN IMMEDIATE")
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version < VERSION:
                    MIGRATIONS[version](Step(conn))
                    conn.execute(f"PRAGMA user_version = {version + 1}")
                    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RecordError(f"migrating the game record to version {version + 1} broke its "
                                            f"references {broken[:3]}; the file is left at version {version}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            if version + 1 >= VERSION:
                break
    finally:
        conn.execute("PRAGMA foreign_keys = ON")
    return start
