"""Replay files in and out of the record: the JSON files of a folder are imported once each, and a game is
exported as such a file for sharing. Both check a replay as `ultimata replay` does (envs/core/replay.py):
its fields, then every move and the stored end by replaying it.

A file is known by the SHA-256 of its replay's canonical JSON, so importing a folder again, or a file
renamed, adds nothing; a file this program exported is known from the moment it is written."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.replay import Replay
from ultimata.record.store import GameRecord, RecordError, as_json

log = logging.getLogger(__name__)


def fingerprint(replay: Replay) -> str:
    return hashlib.sha256(json.dumps(as_json(replay), sort_keys=True, separators=(",", ":")).encode()).hexdigest()


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    """File name -> why it was not imported (the replay check's own message, naming the file)."""


class FolderImport:
    """A folder's replay files, imported as they appear. A file is read again only when it changes (its
    inode, time or size), so a listing that syncs first costs one stat a file."""

    def __init__(self, record: GameRecord, folder: Path | None) -> None:
        self.record = record
        self.folder = folder
        self._stamps: dict[str, tuple[int, int, int]] = {}
        self.problems: dict[str, dict[str, Any]] = {}
        """File name -> its listing entry as an unreadable replay, with the reason (`error`)."""

    def sync(self, quiet: bool = False) -> ImportReport:
        """Import what is new; each file skipped is logged unless `quiet` (the caller reports them)."""
        report = ImportReport()
        if self.folder is None or not self.folder.is_dir():
            return report
        names = sorted(p.name for p in self.folder.glob("*.json"))
        for gone in set(self._stamps) - set(names):
            self._stamps.pop(gone)
            self.problems.pop(gone, None)
        for name in names:
            path = self.folder / name
            stamp = _stamp(path)
            if self._stamps.get(name) == stamp:
                continue
            self._stamps[name] = stamp
            self.problems.pop(name, None)
            try:
                if import_file(self.record, path):
                    report.imported.append(name)
            except UltimataError as err:  # RecordError included: tried again when the file changes
                report.skipped[name] = str(err)
                date = time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp[1] / 1e9)) if stamp[1] else None
                self.problems[name] = {"name": name, "game": None, "players": [], "result": "unreadable",
                                       "moves": None, "date": date, "error": str(err)}
        for name, why in report.skipped.items() if not quiet else ():
            log.warning("replay %s not imported: %s", name, why)
        return report


def import_file(record: GameRecord, path: Path) -> bool:
    """Import one replay file unless the record has it; True if it was added. ReplayError names what is wrong."""
    replay = Replay.load(path)
    sha = fingerprint(replay)
    if record.imported(sha):
        return False
    replay.final()  # every move and the stored end, before the record takes it
    try:
        when = path.stat().st_mtime
    except OSError:
        when = time.time()
    record.add(replay, "import", path.name, when, sha)
    return True


def export(record: GameRecord, name: str, folder: Path, replay: Replay | None = None) -> Path:
    """Write a recorded game (`replay`, or the record's own) to `folder` as `name`, checked as an import is.
    The record learns the file first, so the folder's next sync does not import the game a second time."""
    replay = replay or record.replay(name)
    Replay.from_dict(as_json(replay), name).final()
    game_id = record.game_id(name)
    if game_id is None:
        raise RecordError(f"no game named {name} in the record")
    record.remember_export(fingerprint(replay), name, game_id)
    path = folder / name
    replay.save(path)
    return path


def _stamp(path: Path) -> tuple[int, int, int]:
    try:
        info = path.stat()
    except OSError:
        return (0, 0, 0)
    return (info.st_ino, info.st_mtime_ns, info.st_size)
