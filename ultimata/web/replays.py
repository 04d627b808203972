"""Saved games for the browser, from one folder only: a listing, and a game in pages of frames.

A replay is replayed once when first opened, keeping a copy of the position every `STRIDE` moves; a page
starts from the nearest copy. So a 2,000-move game costs one page's views per request, not the whole
game's, and the few most recently opened files stay ready (until their file changes)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import ReplayError, UltimataError
from ultimata.envs.core.replay import Replay
from ultimata.web.views import seat_view

PAGE = 100
"""Frames in a page when the request does not say."""
MAX_PAGE = 500
STRIDE = 64
OPEN_FILES = 8


@dataclass
class _Opened:
    stamp: tuple[int, int, int]
    replay: Replay
    kept: list[State]
    """kept[k]: the position before move k * STRIDE."""

    @property
    def total(self) -> int:
        """Frames: the position before each move, and the end."""
        return len(self.replay.actions) + 1


class ReplayLibrary:
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._opened: OrderedDict[str, _Opened] = OrderedDict()
        self._summaries: dict[str, tuple[tuple[int, int, int], dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def names(self) -> list[str]:
        """Newest name first (names start with the game and the date)."""
        if self.folder is None or not self.folder.is_dir():
            return []
        return sorted((p.name for p in self.folder.glob("*.json")), reverse=True)

    def listing(self) -> list[dict[str, Any]]:
        """What a person picks a replay by: game, players, result, date (read once per file version). A file
        that cannot be read is listed as `unreadable`, with the reason (`error`, naming the file, not its folder)."""
        names = self.names()
        out = [self._summary(name) for name in names]
        with self._lock:
            for gone in set(self._summaries) - set(names):
                del self._summaries[gone]
        return out

    def _summary(self, name: str) -> dict[str, Any]:
        path = self.folder / name
        stamp = _stamp(path)
        with self._lock:
            known = self._summaries.get(name)
        if known and known[0] == stamp:
            return known[1]
        date = time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp[1] / 1e9)) if stamp[1] else None
        try:
            replay = Replay.load(path)
            summary = {"name": name, "game": replay.game, "players": replay.players, "result": replay.result,
                       "moves": len(replay.actions), "date": date}
        except UltimataError as err:  # one bad file is named as such; it never breaks the listing
            summary = {"name": name, "game": None, "players": [], "result": "unreadable", "moves": None, "date": date,
                       "error": str(err)}
        with self._lock:
            self._summaries[name] = (stamp, summary)
        return summary

    def page(self, name: str, start: int = 0, count: int = PAGE, perspective: int | None = None) -> dict[str, Any]:
        """Frames start..start+count-1 of a replay as `perspective` saw them (None: the public table), each
        with the move made from it (`moves`, None at the end). KeyError: no such file; ReplayError: a bad
        file, or a page or seat outside the game."""
        opened = self._open(name)
        replay, total = opened.replay, opened.total
        seats = opened.kept[0].game.num_players
        if perspective is not None and not 0 <= perspective < seats:
            raise ReplayError(f"perspective must be a seat 0..{seats - 1}, or omitted for the public view")
        if not 0 <= start < total:
            raise ReplayError(f"start must be a frame 0..{total - 1} of this {total}-frame replay")
        end = min(total, start + count)
        state = opened.kept[start // STRIDE].clone()
        for action in replay.actions[start // STRIDE * STRIDE:start]:
            state.apply(action)
        frames, moves = [], []
        for i in range(start, end):
            frames.append(seat_view(replay.game, state, perspective))
            action = replay.actions[i] if i < len(replay.actions) else None
            moves.append(None if action is None else state.narrate(action))
            if action is not None and i + 1 < end:
                state.apply(action)
        return {"name": name, "game": replay.game, "players": replay.players, "total": total, "start": start,
                "frames": frames, "moves": moves, "result": replay.result, "returns": replay.returns}

    def _open(self, name: str) -> _Opened:
        if name not in self.names():
            raise KeyError(name)
        path = self.folder / name
        stamp = _stamp(path)
        with self._lock:
            opened = self._opened.get(name)
            if opened is not None and opened.stamp == stamp:
                self._opened.move_to_end(name)
                return opened
        replay = Replay.load(path)
        kept = []
        for step, (state, _) in enumerate(replay.states()):  # checks every move and the stored end
            if step % STRIDE == 0:
                kept.append(state.clone())
        opened = _Opened(stamp, replay, kept)
        with self._lock:
            self._opened[name] = opened
            self._opened.move_to_end(name)
            while len(self._opened) > OPEN_FILES:
                self._opened.popitem(last=False)
        return opened


def _stamp(path: Path) -> tuple[int, int, int]:
    """A file version: (inode, modification time, size), zeros if it is gone. Saves replace the file
    (a new inode), so two saves within the clock's tick still differ."""
    try:
        info = path.stat()
    except OSError:
        return (0, 0, 0)
    return (info.st_ino, info.st_mtime_ns, info.st_size)
