"""Checkpoint bots a server has loaded, shared between its games: a new game against a checkpoint costs
no load, and a file that was refused is not read again until it changes.

A loaded policy is only read by its games (inference, one position at a time), so every game against the
same file and game shares one copy. At most `size` copies are kept, the least recently used evicted. Both
what loaded and what was refused are remembered by the file's identity (device, inode, size and
modification time of the zip and of its sidecar): a file replaced or edited is judged again."""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from ultimata.agents.checkpoint import CheckpointMeta, check_compatible, load_policy, sidecar_path
from ultimata.envs.core.errors import CheckpointError, UltimataError
from ultimata.envs.core.registry import game_class

Identity = tuple[tuple[int, int, int, int], ...]


def file_identity(path: Path) -> Identity:
    """What tells one version of a checkpoint from another: (device, inode, size, mtime_ns) of the zip and
    of its sidecar; () where either is missing (which loading then refuses with its reason)."""
    try:
        return tuple((s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns) for s in (path.stat(), sidecar_path(path).stat()))
    except OSError:
        return ()


class LoadedCheckpoints:
    """Policies by (checkpoint file, game): at most `size` kept loaded, and every refusal remembered."""

    def __init__(self, size: int = 8, refusals: int = 1024) -> None:
        self.size = size
        self.refusals = refusals
        self.loads = 0
        """How many times a file was actually read and built (what sharing saves shows here)."""
        self._loaded: OrderedDict[tuple[str, str], tuple[Identity, Any, CheckpointMeta]] = OrderedDict()
        self._refused: OrderedDict[tuple[str, str, Identity], str] = OrderedDict()
        self._lock = threading.Lock()

    def policy(self, path: Path, game: str, rules: dict[str, Any] | None = None) -> tuple[Any, CheckpointMeta]:
        """The policy at `path` for `game`, loaded once and shared; CheckpointError (the same one each time,
        without reading the file again) for a file that does not load. `rules`: the game's rule variant,
        checked against the checkpoint's (default: the rules it was trained under)."""
        key = (str(path), game)
        with self._lock:  # one load at a time: two games starting together share the first one's load
            identity = file_identity(path)
            refused = self._refused.get((*key, identity))
            if refused is not None:
                raise CheckpointError(refused)
            hit = self._loaded.get(key)
            if hit is None or hit[0] != identity:
                hit = self._load(path, game, identity)
            self._loaded.move_to_end(key)
        policy, meta = hit[1], hit[2]
        if rules is not None:
            check_compatible(meta, game_class(game).from_config(rules), f"checkpoint {path.name}")
        return policy, meta

    def _load(self, path: Path, game: str, identity: Identity) -> tuple[Identity, Any, CheckpointMeta]:
        from ultimata.agents.checkpoint import read_meta

        key = (str(path), game)
        self._loaded.pop(key, None)
        try:
            meta = read_meta(path)
            policy, meta = load_policy(path, game_class(game).from_config(meta.config))
        except Exception as err:  # a hostile file must cost a refusal, never a server error
            message = str(err) if isinstance(err, UltimataError) else (
                f"checkpoint {path.name} cannot be loaded ({type(err).__name__})")
            self._refused[(*key, identity)] = message
            while len(self._refused) > self.refusals:
                self._refused.popitem(last=False)
            raise CheckpointError(message) from None
        self.loads += 1
        self._loaded[key] = (identity, policy, meta)
        while len(self._loaded) > self.size:
            self._loaded.popitem(last=False)
        return self._loaded[key]

    def __len__(self) -> int:
        return len(self._loaded)
