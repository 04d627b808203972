"""The bots a browser may choose: the built-in specs, the operator's own agents (`serve --agent SPEC`),
and the checkpoints of one configured folder. Never a path or code named by the request, never an upload:
a browser that could name a module to import could run anything on the server."""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

from ultimata.agents.base import Agent
from ultimata.envs.core.errors import ConfigError, UltimataError
from ultimata.envs.core.registry import GAMES, game_class
from ultimata.inference import one_thread_per_forward
from ultimata.web.loaded_bots import Identity, LoadedCheckpoints, file_identity

BUILTIN = ("random", "heuristic", "mcts", "pretrained", "hard")
"""`hard` is each game's strongest quick agent (the `hard` key of configs/<game>.yaml), offered where it loads."""
CHECKPOINT = "checkpoint:"
log = logging.getLogger("ultimata.web")


class UnknownOpponent(UltimataError):
    pass


class Opponents:
    def __init__(self, checkpoints: Path | None, own: tuple[str, ...] = ()) -> None:
        self.checkpoints = checkpoints
        self.own = tuple(own)
        """Agent specs the operator chose to offer (`package.module:Name`, `file.py:Name`, with options)."""
        self.skipped: dict[str, dict[str, str]] = {}
        """Game -> checkpoint file name -> why it is not offered (a corrupt or refused file), no paths."""
        self.loaded = LoadedCheckpoints()
        """The checkpoints' policies, one copy per file and game shared by every game that plays it."""
        self._verdicts: OrderedDict[tuple[str, str, Identity], str | None] = OrderedDict()
        self._lock = threading.Lock()

    def offered(self, game: str, rules: dict[str, Any]) -> list[dict[str, str]]:
        """The built-in bots and the operator's agents that can play these rules, then this game's
        checkpoints in the folder."""
        specs = [*BUILTIN, *self.own]
        out = [{"spec": s, "label": s} for s in specs if _plays(s, game, json.dumps(rules, sort_keys=True))]
        out += [{"spec": CHECKPOINT + name, "label": f"checkpoint {name}"} for name in self._checkpoints_for(game)]
        return out

    def check(self, spec: str, game: str) -> None:
        """Refuse what is not on the list, without loading anything: a built-in name or a listed checkpoint."""
        listed = spec.startswith(CHECKPOINT) and spec.removeprefix(CHECKPOINT) in self._checkpoints_for(game)
        if spec in BUILTIN or spec in self.own or listed:
            return
        allowed = [*BUILTIN, *self.own, *(CHECKPOINT + n for n in self._checkpoints_for(game))]
        raise UnknownOpponent(f"unknown opponent {spec!r}; allowed: {', '.join(allowed)}")

    def load(self, spec: str, game: str, rules: dict[str, Any], seed: int | None = None) -> Agent:
        """A checked spec as an agent (UltimataError if it cannot play these rules)."""
        from ultimata.agents.specs import load_agent

        self.check(spec, game)
        if spec.startswith(CHECKPOINT) and self.checkpoints is not None:
            from ultimata.agents.policy_agent import PolicyAgent

            policy, meta = self.loaded.policy(self.checkpoints / spec.removeprefix(CHECKPOINT), game, rules)
            agent: Agent = PolicyAgent(policy, seed=seed, spec=spec, meta=meta)  # shares the loaded copy
        else:
            agent = load_agent(spec, game, rules, seed=seed)
        one_thread_per_forward()  # a bot answers one position at a time (ultimata/inference.py)
        return agent

    def _checkpoints_for(self, game: str) -> list[str]:
        """Checkpoint files in the configured folder (never elsewhere) trained for `game` that load: each
        is verified as it would be played (sidecar, sha256, weights read as data) before it is offered, and
        one that fails is left out with a warning naming its file."""
        if self.checkpoints is None or not self.checkpoints.is_dir():
            return []
        names = []
        for path in sorted(self.checkpoints.glob("*.zip")):
            problem = self._problem(path, game)
            if problem is None:
                names.append(path.name)
            elif problem:  # "" is a checkpoint for another game: not this list's, and not an error
                skipped = self.skipped.setdefault(game, {})
                if skipped.get(path.name) != problem:
                    log.warning("checkpoint %s is not offered: %s", path.name, problem)
                skipped[path.name] = problem
        return names

    def _problem(self, path: Path, game: str) -> str | None:
        """Why the checkpoint at `path` cannot play `game` as trained: None if it loads, "" if it is another
        game's, else the reason with the folder left out. Remembered by the file's identity (its and its
        sidecar's inode, size and modification time), so a listing reads no file it has judged before."""
        from ultimata.agents.checkpoint import read_meta

        key = (str(path), game, file_identity(path))
        with self._lock:
            if key in self._verdicts:
                self._verdicts.move_to_end(key)
                return self._verdicts[key]
        try:
            meta = read_meta(path)
            problem: str | None = ""
            if game in (meta.game, *meta.also_fits):
                self.loaded.policy(path, game)
                problem = None
        except UltimataError as err:
            problem = str(err).replace(str(path.parent) + os.sep, "")
        with self._lock:
            self._verdicts[key] = problem
            while len(self._verdicts) > MAX_VERDICTS:
                self._verdicts.popitem(last=False)
        return problem


def check_own_agent(spec: str) -> None:
    """`serve --agent`: the operator's own agent, which must load for at least one registered game; a built-in
    name or an agent that plays nothing is refused before the server starts, not silently left out."""
    from ultimata.agents.custom import is_custom_spec
    from ultimata.agents.specs import load_agent

    if not is_custom_spec(spec):
        raise ConfigError(f"--agent takes your own agent (package.module:Name or path/file.py:Name), not {spec!r}; "
                          "the built-in bots are offered already")
    errors = []
    for game in GAMES:
        try:
            load_agent(spec, game)
            return
        except UltimataError as err:
            errors.append(f"{game}: {err}")
    raise ConfigError(f"--agent {spec} plays none of the games: {errors[-1]}")


MAX_VERDICTS = 4096
"""Checkpoint files (each version of each, per game) whose verdict a server remembers."""


@lru_cache(maxsize=256)
def _plays(spec: str, game: str, rules_json: str) -> bool:
    """Whether a bot can play `game` under these rules (cached: it may read a checkpoint or import code)."""
    from ultimata.agents.checkpoint import check_compatible, read_meta
    from ultimata.agents.mcts import check_searchable
    from ultimata.agents.specs import load_agent, pretrained_path

    rules = json.loads(rules_json)
    try:
        if spec == "mcts":
            check_searchable(game_class(game).from_config(rules))
        elif spec == "pretrained":
            path = pretrained_path(game)
            if not path.exists():
                return False
            check_compatible(read_meta(path), game_class(game).from_config(rules), "the shipped bot")
        elif spec == "hard":
            load_agent(spec, game, rules)  # defined by data per game: it plays these rules if it loads
        elif spec not in BUILTIN:  # the operator's own agent: it plays these rules if it loads for them
            load_agent(spec, game, rules)
    except UltimataError:
        return False
    return True
