"""The record of games: one SQLite file (stdlib sqlite3) holding every game played in the browser or the
terminal, finished or not, with its seats, rules, result and replay.

Nothing is lost: a game is a row from its first move (its moves logged as they are made, each write one
transaction), and its end, replay and rating change are one transaction. The file is in WAL mode, so a
process killed mid-write (kill -9) leaves the last committed state, and readers never wait for a writer.
Several processes may share the file (a server and a terminal game, or two servers): every write takes the
write lock at its start (BEGIN IMMEDIATE) and waits up to `BUSY_MS` for another writer, so two writers
take turns and a read-modify-write (a rating) never loses an update. A game whose process died while it
was played is found by the next process that opens the file and recorded as interrupted."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ultimata.agents.base import game_base_name
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.replay import FORMAT, Replay, record
from ultimata.record import rating
from ultimata.record.outcome import ENDINGS, describe, opponent_of, person_seat
from ultimata.record.schema import RecordError, migrate, pack, unpack

BUSY_MS = 10_000
"""How long a write waits for another process's write to finish before it gives up."""
PAGE = 50
MAX_PAGE = 500
LISTED_ENDINGS = ("finished", "resigned", "cut")
"""What the replay listing shows of this program's own games: games with a result (an abandoned game is
on its player's "Your games" page). Imported files are listed whatever their end."""


@dataclass(frozen=True)
class Filters:
    family: str | None = None
    """A game's name without version, e.g. ultimatum_world."""
    opponent: str | None = None
    yours: bool = False
    """Only games with a person's seat, every ending (the "Your games" page); else the replay listing."""


def owner_here() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


ENTRY = ("id, name, game, family, human_seat, opponent, ending, outcome, result, moves, started_at, ended_at, source, "
         "rated")
"""The columns of a game as the listings show it (`_entry`)."""


class GameRecord:
    """One connection shared by the process's threads (under a lock): games are written a move at a time, so
    the writes are short. `path=None` keeps the record in memory (tests, an app given no file)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path is not None else None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            target = str(self.path)
        else:
            target = f"file:record-{uuid.uuid4().hex}?mode=memory&cache=shared"
        try:
            self._conn = sqlite3.connect(target, timeout=BUSY_MS / 1000, isolation_level=None,
                                         check_same_thread=False, uri=self.path is None)
            self._conn.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            if self.path is not None:
                self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = FULL")
            self._conn.execute("PRAGMA foreign_keys = ON")
            migrate(self._conn)
        except sqlite3.Error as err:
            raise RecordError(f"cannot open the game record {self._shown}: {err}") from None
        self._lock = threading.RLock()
        self.recovered = self.recover_interrupted()

    @property
    def _shown(self) -> str:
        return self.path.name if self.path is not None else "(in memory)"

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction that holds the write lock from its start: all of it is stored, or none."""
        with self._lock:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as err:
                raise RecordError(f"the game record {self._shown} is busy or read-only: {err}") from None
            try:
                yield self._conn
                self._conn.execute("COMMIT")
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    # -- a game, from its start to its end ----------------------------------------------------------------
    def start(self, game: str, rules: dict[str, Any], seed: int, players: Sequence[str],
              levels: Sequence[str | None], human: int | None, source: str, name: str | None = None,
              rated: bool = True) -> int:
        """A new game in play; returns its id. `players`: the spec playing each seat ('human' for the person),
        `levels`: each seat's difficulty level where a level chose its bot. `rated`: False for practice, a
        game dealt from a seed the player chose (it moves no rating)."""
        now = time.time()
        name = name or f"{game}-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}-{uuid.uuid4().hex[:6]}.json"
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO games (name, game, family, rules, seed, source, human_seat, opponent, status, moves, "
                "started_at, owner, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'playing', 0, ?, ?, ?)",
                (self._free_name(conn, name), game, game_base_name(game), json.dumps(rules, sort_keys=True), seed,
                 source, human, opponent_of(players, human), now, owner_here(), int(rated)))
            game_id = cursor.lastrowid
            conn.executemany("INSERT INTO seats (game_id, seat, player, level) VALUES (?, ?, ?, ?)",
                             [(game_id, s, p, levels[s] if s < len(levels) else None) for s, p in enumerate(players)])
        return game_id

    def move(self, game_id: int, n: int, action: int) -> None:
        """The game's n-th move (from 1), logged at once."""
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO moves (game_id, n, action) VALUES (?, ?, ?)", (game_id, n, action))
            conn.execute("UPDATE games SET moves = ? WHERE id = ?", (n, game_id))

    def finish(self, game_id: int, replay: Replay, ending: str) -> str:
        """The game's end: its replay, result and the rating change, in one transaction; returns its name.
        A finished game's result is its replay's returns; any other ending keeps the replay as played."""
        if ending not in ENDINGS:
            raise ValueError(f"ending must be one of {', '.join(ENDINGS)}, got {ending!r}")
        with self._write() as conn:
            row = conn.execute("SELECT name, family, human_seat, status, rated FROM games WHERE id = ?",
                               (game_id,)).fetchone()
            if row is None:
                raise RecordError(f"no game {game_id} in the record")
            name, family, human, status, rated = row
            if status == "over":
                return name
            self._close(conn, game_id, family, human, replay, ending, bool(rated))
        return name

    def _close(self, conn: sqlite3.Connection, game_id: int, family: str, human: int | None, replay: Replay,
               ending: str, rated: bool = True) -> None:
        returns = replay.returns if ending == "finished" else None
        told = describe(replay.players, human, ending, returns)
        conn.execute("UPDATE games SET status = 'over', ending = ?, outcome = ?, result = ?, returns = ?, moves = ?, "
                     "ended_at = ?, owner = NULL WHERE id = ?",
                     (ending, told.outcome, told.result, json.dumps(returns) if returns else None,
                      len(replay.actions), time.time(), game_id))
        conn.execute("INSERT OR REPLACE INTO replays (game_id, data) VALUES (?, ?)", (game_id, pack(as_json(replay))))
        conn.execute("DELETE FROM moves WHERE game_id = ?", (game_id,))
        if rated and told.outcome is not None and told.opponent not in (None, "mixed"):
            rating.update(conn, family, told.opponent, human, ending, returns, len(replay.players))

    def add(self, replay: Replay, source: str, name: str, when: float, sha256: str | None = None) -> int:
        """A whole game at once (an imported file): its seats from the replay's players, the person's seat
        where one is named 'human' or 'you'. With `sha256`, the import is remembered in the same transaction."""
        human = person_seat(replay.players)
        ending = "finished" if replay.returns else "unfinished"
        with self._write() as conn:
            cursor = conn.execute(
                "INSERT INTO games (name, game, family, rules, seed, source, human_seat, opponent, status, moves, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'playing', 0, ?)",
                (self._free_name(conn, name), replay.game, game_base_name(replay.game),
                 json.dumps(replay.config, sort_keys=True), replay.seed, source, human,
                 opponent_of(replay.players, human), when))
            game_id = cursor.lastrowid
            conn.executemany("INSERT INTO seats (game_id, seat, player, level) VALUES (?, ?, ?, NULL)",
                             list(((game_id, s, p) for s, p in enumerate(replay.players))))
            self._close(conn, game_id, game_base_name(replay.game), human, replay, ending)
            conn.execute("UPDATE games SET ended_at = ? WHERE id = ?", (when, game_id))
            if sha256 is not None:
                conn.execute("INSERT OR REPLACE INTO imports (sha256, file, game_id, imported_at) VALUES (?, ?, ?, ?)",
                             (sha256, name, game_id, time.time()))
        return game_id

    @staticmethod
    def _free_name(conn: sqlite3.Connection, name: str) -> str:
        """`name`, or `name` with -2, -3 ... before its extension if a game has it already."""
        stem, dot, ext = name.rpartition(".") if name.endswith(".json") else (name, "", "")
        candidate, k = name, 1
        while conn.execute("SELECT 1 FROM games WHERE name = ?", (candidate,)).fetchone():
            k += 1
            candidate = f"{stem}-{k}{dot}{ext}"
        return candidate

    def remember_export(self, sha256: str, file: str, game_id: int) -> None:
        """A game written to the replay folder: its file is this game, not one to import."""
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO imports (sha256, file, game_id, imported_at) VALUES (?, ?, ?, ?)",
                         (sha256, file, game_id, time.time()))

    def imported(self, sha256: str) -> bool:
        return bool(self._read("SELECT 1 FROM imports WHERE sha256 = ?", (sha256,)))

    def recover_interrupted(self) -> int:
        """Games left 'playing' by a process of this machine that is gone: recorded as interrupted, each with
        the replay of its logged moves. Returns how many."""
        host = socket.gethostname()
        rows = self._read("SELECT id, owner FROM games WHERE status = 'playing'")
        found = 0
        for game_id, owner in rows:
            where, _, pid = (owner or "").rpartition(":")
            if where != host or not pid.isdigit() or _alive(int(pid)):
                continue
            self._recover(game_id)
            found += 1
        return found

    def _recover(self, game_id: int) -> None:
        with self._write() as conn:
            row = conn.execute("SELECT game, rules, seed, family, human_seat, status, rated FROM games WHERE id = ?",
                               (game_id,)).fetchone()
            if row is None or row[5] != "playing":
                return
            game, rules, seed, family, human, _, rated = row
            actions = [a for (a,) in conn.execute("SELECT action FROM moves WHERE game_id = ? ORDER BY n", (game_id,))]
            players = [p for (p,) in conn.execute("SELECT player FROM seats WHERE game_id = ? ORDER BY seat",
                                                  (game_id,))]
            try:
                replay = record(seed, game, json.loads(rules), actions).settled()
            except UltimataError:  # the rules changed since: keep the moves, unchecked
                from ultimata.envs.core.registry import game_class

                version = game_class(game).version if game in _games() else 0
                replay = Replay(game=game, version=version, config=json.loads(rules), seed=seed, actions=actions)
            replay.players = players
            self._close(conn, game_id, family, human, replay, "interrupted", bool(rated))

    # -- reading ---------------------------------------------------------------------------------------------
    def listing(self, filters: Filters = Filters(), offset: int = 0, limit: int = PAGE) -> tuple[int, list[dict]]:
        """(how many games match, one page of them, newest first)."""
        where, params = ["status = 'over'"], []
        if filters.yours:
            where.append("human_seat IS NOT NULL")
        else:
            where.append(f"(source = 'import' OR ending IN ({', '.join('?' * len(LISTED_ENDINGS))}))")
            params += LISTED_ENDINGS
        if filters.family:
            where.append("family = ?")
            params.append(filters.family)
        if filters.opponent:
            where.append("opponent = ?")
            params.append(filters.opponent)
        clause = " AND ".join(where)
        with self._lock:
            total = self._conn.execute(f"SELECT COUNT(*) FROM games WHERE {clause}", params).fetchone()[0]
            rows = self._conn.execute(
                f"SELECT {ENTRY} FROM games WHERE {clause} ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?",
                [*params, limit, offset]).fetchall()
            seats = self._seats([r[0] for r in rows])
        return total, [_entry(r, seats.get(r[0], [])) for r in rows]

    def _seats(self, ids: list[int]) -> dict[int, list[tuple[str, str | None]]]:
        if not ids:
            return {}
        out: dict[int, list[tuple[str, str | None]]] = {}
        marks = ", ".join("?" * len(ids))
        for game_id, player, level in self._conn.execute(
                f"SELECT game_id, player, level FROM seats WHERE game_id IN ({marks}) ORDER BY game_id, seat", ids):
            out.setdefault(game_id, []).append((player, level))
        return out

    def choices(self) -> dict[str, list[str]]:
        """The games and opponents the person's record holds, for the page's filters."""
        families = [f for (f,) in self._read("SELECT DISTINCT family FROM games WHERE human_seat IS NOT NULL "
                                             "ORDER BY family")]
        opponents = [o for (o,) in self._read("SELECT DISTINCT opponent FROM games WHERE human_seat IS NOT NULL "
                                              "AND opponent IS NOT NULL ORDER BY opponent")]
        return {"games": families, "opponents": opponents}

    def replay(self, name: str) -> Replay:
        """A recorded game's replay by its name, checked field by field as a file is; KeyError if none."""
        rows = self._read("SELECT r.data FROM games g JOIN replays r ON r.game_id = g.id WHERE g.name = ?", (name,))
        if not rows:
            raise KeyError(name)
        return Replay.from_dict(unpack(rows[0][0]), name)

    def summary(self, name: str) -> dict[str, Any]:
        """One recorded game as the listings show it; KeyError if there is none of that name."""
        with self._lock:
            row = self._conn.execute(f"SELECT {ENTRY} FROM games WHERE name = ?", (name,)).fetchone()
            if row is None:
                raise KeyError(name)
            return _entry(row, self._seats([row[0]]).get(row[0], []))

    def game_id(self, name: str) -> int | None:
        rows = self._read("SELECT id FROM games WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def ratings(self) -> list[dict[str, Any]]:
        """The person against each opponent of each game: both ratings with their uncertainty, and the tally."""
        rows = self._read("SELECT family, opponent, you_mu, you_sigma, bot_mu, bot_sigma, games, wins, draws, losses "
                          "FROM ratings ORDER BY family, opponent")
        keys = ("game", "opponent", "you_mu", "you_sigma", "bot_mu", "bot_sigma", "games", "wins", "draws", "losses")
        return [{k: (round(v, 2) if isinstance(v, float) else v) for k, v in zip(keys, row)} for row in rows]

    def integrity(self) -> str:
        return self._read("PRAGMA integrity_check")[0][0]


def as_json(replay: Replay) -> dict[str, Any]:
    """The replay as its file holds it."""
    from dataclasses import asdict

    return {"format": FORMAT, **asdict(replay)}


def _entry(row: tuple, seats: list[tuple[str, str | None]]) -> dict[str, Any]:
    (game_id, name, game, family, human, opponent, ending, outcome, result, moves, started, ended, source, rated) = row
    return {
        "name": name, "game": game, "family": family, "players": [p for p, _ in seats],
        "levels": [lv for _, lv in seats], "human_seat": human, "opponent": opponent, "ending": ending,
        "outcome": outcome, "result": result, "moves": moves, "source": source, "rated": bool(rated),
        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)),
    }


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _games() -> dict:
    from ultimata.envs.core.registry import GAMES

    return GAMES


