"""Mutated state dicts, for the hostile-input suite: each one must be refused with a clear error
(`UltimataError`) or load and play to the end without an exception. Nothing may be accepted and then
crash.

A mutant changes one place of a real mid-game state dict: a number made negative, huge, fractional or
of another type, a flag flipped, an entry dropped or repeated, a key removed or added. Most are
impossible positions (the game must refuse them); some are possible ones (a count still in range),
which must play on like any other.

Run more mutants than CI does with `ULTIMATA_STATE_FUZZ=5000 python -m pytest tests/hostile/test_state_fuzz.py`.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import Rng

Path = tuple[Any, ...]


def places(node: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every node of a JSON-like tree with its path (keys and indices from the root)."""
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from places(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from places(value, (*path, index))


def _replacements(value: Any, pick: random.Random) -> list[Any]:
    """What one node may become: values of its own type out of range, and values of other types."""
    other_types = [None, "x", 1.5, True, [], {}]
    if isinstance(value, bool):
        return [not value, 0, 1, None, "true"]
    if isinstance(value, int):
        return [-1, -5, value + 1, value - 1, value * 7 + 3, 10**12, -(10**12), value + 0.5, float(value),
                str(value), *other_types]
    if isinstance(value, float):
        return [-value - 1.0, float("nan"), float("inf"), 10.0**12, int(value), *other_types]
    if isinstance(value, str):
        return ["", value + "x", "x" * 1000, 5, *other_types]
    if isinstance(value, list):
        changed: list[Any] = [[], None, {}, "list"]
        if value:
            i = pick.randrange(len(value))
            changed += [value[:i] + value[i + 1:], value + [copy.deepcopy(value[i])], value[::-1],
                        [copy.deepcopy(value[0])] * len(value)]
        return changed
    if isinstance(value, dict):
        changed = [None, [], {**value, "unexpected": 1}]
        if value:
            key = pick.choice(list(value))
            changed.append({k: v for k, v in value.items() if k != key})
        return changed
    return other_types


@dataclass
class Mutant:
    path: Path
    before: Any
    after: Any
    data: dict[str, Any]

    def describe(self) -> str:
        where = "".join(f"[{p!r}]" for p in self.path)
        return f"d{where}: {self.before!r:.60} -> {self.after!r:.60}"


def mutants(d: dict[str, Any], count: int, seed: int) -> Iterator[Mutant]:
    """`count` one-place mutants of state dict `d`, chosen at random among its nodes below "state"
    (and its decision count and RNG)."""
    pick = random.Random(seed)
    targets = [(p, v) for p, v in places(d) if p and p[0] in ("state", "decisions", "rng") and p != ("state",)]
    for _ in range(count):
        path, value = pick.choice(targets)
        after = pick.choice(_replacements(value, pick))
        data = copy.deepcopy(d)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = after
        yield Mutant(path, value, after, data)


def mid_game_dicts(game: Game, count: int, seed: int = 0) -> list[dict[str, Any]]:
    """State dicts of `count` seeded random games, each stopped at a random point while still live."""
    pick = random.Random(seed)
    found: list[dict[str, Any]] = []
    for game_seed in range(seed, seed + 50 * count):
        state = game.new_initial_state(Rng(game_seed))
        stop = pick.randrange(0, 400)
        while state.decisions < stop and not state.is_terminal():
            state.apply(pick.choice(state.legal_actions()))
        if not state.is_terminal():
            found.append(state.state_dict())
            if len(found) == count:
                return found
    raise AssertionError(f"fewer than {count} live positions found for {game.name}")


def exercise(state: State, pick: random.Random, limit: int) -> None:
    """Use a state as every caller would: every seat's observation and text, the mask and the words of
    every legal move, saving and cloning, then one random legal move; until the game ends or is cut."""
    players = state.game.num_players
    while not state.is_terminal() and state.decisions < limit:
        for seat in range(players):
            state.observation(seat)
        state.render_text()
        legal = state.legal_actions()
        assert legal, "a live state with nothing legal"
        for action in legal[:20]:
            state.action_to_string(action)
            state.narrate(action)
        state.clone()
        state.state_dict()
        state.apply(pick.choice(legal))
    state.returns()
    state.render_text()
    for seat in range(players):
        state.observation(seat)


@dataclass
class Verdict:
    refused: int = 0
    played: int = 0
    crashed: list[str] | None = None

    def __post_init__(self) -> None:
        self.crashed = self.crashed or []


def fuzz(game: Game, positions: int, per_position: int, seed: int = 0, limit: int | None = None) -> Verdict:
    """Load every mutant: refusals must be UltimataError; accepted ones must play to the end (or to
    `limit` decisions, default the game's max_decisions). Crashes are collected, not raised, so one run
    names them all."""
    verdict = Verdict()
    cap = limit if limit is not None else game.config.max_decisions
    for index, d in enumerate(mid_game_dicts(game, positions, seed)):
        for mutant in mutants(d, per_position, seed * 1000 + index):
            state = game.new_initial_state(Rng(0))
            try:
                state.load_state_dict(mutant.data)
            except UltimataError:
                verdict.refused += 1
                continue
            except Exception as err:  # noqa: BLE001 - a crash while loading is what this looks for
                verdict.crashed.append(f"load raised {type(err).__name__}: {err} at {mutant.describe()}")
                continue
            try:
                exercise(state, random.Random(index), state.decisions + cap)
                verdict.played += 1
            except Exception as err:  # noqa: BLE001 - accepted, then crashed: the bug this looks for
                verdict.crashed.append(f"accepted, then {type(err).__name__}: {err} at {mutant.describe()}")
    return verdict
