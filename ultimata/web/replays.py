"""Saved games for the browser, from the record (ultimata/record/): a listing, and a game in pages of frames.
The replay folder's JSON files are imported into the record as they appear (once each); a file that
cannot be imported is listed as unreadable, with the reason.

A replay is replayed once when first opened, keeping a copy of the position every `STRIDE` moves; a page
starts from the nearest copy. So a 2,000-move game costs one page's views per request, not the whole
game's, and the few most recently opened games stay ready (a recorded game never changes)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ultimata.envs.core.engine import State
from ultimata.envs.core.errors import ReplayError
from ultimata.envs.core.replay import Replay
from ultimata.record import Filters, GameRecord
from ultimata.record.importer import FolderImport, ImportReport
from ultimata.record.outcome import person_seat
from ultimata.web.verdict import verdict
from ultimata.web.views import seat_view

PAGE = 100
"""Frames in a page when the request does not say."""
MAX_PAGE = 500
STRIDE = 64
OPEN_FILES = 8


LISTED = 100
"""Games in a listing when the request does not say."""


@dataclass
class _Opened:
    replay: Replay
    kept: list[State]
    """kept[k]: the position before move k * STRIDE."""
    verdict: dict[str, Any]
    ending: str | None

    @property
    def total(self) -> int:
        """Frames: the position before each move, and the end."""
        return len(self.replay.actions) + 1


class ReplayLibrary:
    def __init__(self, record: GameRecord, folder: Path | None) -> None:
        self.record = record
        self.files = FolderImport(record, folder)
        self._opened: OrderedDict[str, _Opened] = OrderedDict()
        self._lock = threading.Lock()
        self._syncing = threading.Lock()

    def sync(self, quiet: bool = False) -> ImportReport:
        """Import the folder's new or changed files (one at a time: two requests never import one file twice)."""
        with self._syncing:
            return self.files.sync(quiet)

    def listing(self, family: str | None = None, offset: int = 0, limit: int = LISTED) -> tuple[int, list[dict]]:
        """(how many games, one page of them): newest first, with what a person picks a replay by: game,
        players, result, moves, date. The first page also names each file that could not be imported
        (`result: unreadable`, and the reason in `error`, naming the file, not its folder)."""
        self.sync()
        total, games = self.record.listing(Filters(family=family), offset, limit)
        if offset == 0 and family is None:
            games += [self.files.problems[name] for name in sorted(self.files.problems)]
        return total, games

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
                "frames": frames, "moves": moves, "result": replay.result, "returns": replay.returns,
                "ending": opened.ending, "verdict": opened.verdict}

    def _open(self, name: str) -> _Opened:
        self.sync()
        if name in self.files.problems:
            raise ReplayError(self.files.problems[name]["error"])
        with self._lock:
            opened = self._opened.get(name)
            if opened is not None:
                self._opened.move_to_end(name)
                return opened
        replay = self.record.replay(name)  # KeyError: no such game
        ending = self.record.summary(name)["ending"]
        kept, state = [], None
        for step, (state, _) in enumerate(replay.states()):  # checks every move and the stored end
            if step % STRIDE == 0:
                kept.append(state.clone())
        said = verdict(replay.players, person_seat(replay.players), replay.returns, ending,
                       seat_view(replay.game, state, None) if state is not None else None)
        opened = _Opened(replay, kept, said, ending)
        with self._lock:
            self._opened[name] = opened
            self._opened.move_to_end(name)
            while len(self._opened) > OPEN_FILES:
                self._opened.popitem(last=False)
        return opened

    def exported(self, name: str) -> dict[str, Any]:
        """The game as a replay file holds it, checked as an opened one is (KeyError, ReplayError)."""
        from ultimata.record.store import as_json

        return as_json(self._open(name).replay)
