"""Golden playthroughs: a seeded game's actions and final state, replayed. They catch unintended rule
changes. Regenerate one only when a rule changes on purpose (and bump the env version):

    python tests/test_golden.py ultimatum_cards_v2 '{"mode": "match"}'
"""

import json
import random
import sys
from pathlib import Path

import pytest

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.replay import Replay, record
from ultimata.envs.core.rng import Rng

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", list(GAMES))
def test_golden_playthrough_replays_exactly(name: str) -> None:
    replay = Replay.load(GOLDEN / f"{name}.json")
    assert replay.version == game_class(name).version, "env version changed: regenerate the golden file"
    assert len(replay.actions) > 20
    final = replay.final()  # raises if any action is refused or the final state differs
    assert final.state_dict() == replay.final_state


def regenerate(name: str, seed: int = 2026, config: dict | None = None) -> Path:
    game = game_class(name).from_config(config or {})
    state = game.new_initial_state(Rng(seed))
    pick = random.Random(seed)
    actions = []
    while not state.is_terminal() and len(actions) < 600:
        action = pick.choice(state.legal_actions())
        state.apply(action)
        actions.append(action)
    path = GOLDEN / f"{name}.json"
    record(seed, name, config or {}, actions).save(path)
    return path


if __name__ == "__main__":
    print("wrote", regenerate(sys.argv[1], config=json.loads(sys.argv[2]) if len(sys.argv) > 2 else None))
