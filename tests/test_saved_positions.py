"""Saved state dicts stay byte-identical across refactors of how a game declares its fields (issue 43):
the JSON of many random-play positions per game, recorded once in tests/saved_positions.json, must come
out the same, and so must the JSON of each position loaded back and of its clone.

Re-record (only when a game's version changes what it saves): `python -m tests.test_saved_positions`."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.rng import Rng

RECORD = Path(__file__).with_name("saved_positions.json")
SEEDS = range(12)
EVERY = 9
"""A position every this many decisions of each seeded random game (up to MOVES)."""
MOVES = 300


def _digest(d: dict) -> str:
    return hashlib.sha256(json.dumps(d).encode()).hexdigest()[:20]


def positions(name: str) -> Iterator[tuple[str, dict, object]]:
    """(label, state dict, state) of seeded random games, every EVERY decisions and at the end."""
    game = game_class(name).from_config({})
    for seed in SEEDS:
        state = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        while True:
            if state.decisions % EVERY == 0 or state.is_terminal():
                yield f"seed {seed} decision {state.decisions}", state.state_dict(), state
            if state.is_terminal() or state.decisions >= MOVES:
                break
            state.apply(pick.choice(state.legal_actions()))


def record() -> dict[str, dict[str, str]]:
    return {name: {label: _digest(d) for label, d, _ in positions(name)} for name in sorted(GAMES)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_saved_state_dicts_are_byte_identical_to_the_recorded_ones(name: str) -> None:
    recorded = json.loads(RECORD.read_text())[name]
    seen = {}
    for label, d, state in positions(name):
        seen[label] = _digest(d)
        assert seen[label] == recorded.get(label), f"{name} {label}: its state dict changed"
        loaded = state.game.state_from_dict(d)
        assert _digest(loaded.state_dict()) == seen[label], f"{name} {label}: loading it changed it"
        assert _digest(state.clone().state_dict()) == seen[label], f"{name} {label}: its clone saves otherwise"
    assert seen.keys() == recorded.keys(), f"{name}: the random games reached other positions"


if __name__ == "__main__":
    RECORD.write_text(json.dumps(record(), indent=1) + "\n")
