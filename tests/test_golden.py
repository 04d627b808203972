"""Golden playthroughs: a seeded game's actions and final state, replayed. They catch unintended rule
changes. Regenerate one only when a rule changes on purpose (and bump the env version):

    python tests/test_golden.py ultimatum_cards_v3 '{"mode": "match"}'

A bumped version's golden file stays, as the record of its rules: tests/golden/ holds one for every env
version there has been. A retired one replays exactly in the release that has it (`RETIRED` names it;
`pip install ultimata==0.1.0`), and this package refuses it, naming what replaced it.
"""

import json
import random
import sys
from pathlib import Path

import pytest

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.errors import ReplayError
from ultimata.envs.core.registry import RETIRED
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


@pytest.mark.parametrize("name", sorted(RETIRED))
def test_a_retired_versions_golden_playthrough_is_kept_and_refused_naming_its_replacement(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    data = json.loads(path.read_text())
    assert data["game"] == name and len(data["actions"]) > 20 and isinstance(data["final_state"], dict)
    assert data.get("version", data["final_state"].get("version")) == int(name.rpartition("_v")[2])
    replacement, release = RETIRED[name]
    with pytest.raises(ReplayError, match=f"{name} was replaced by {replacement}") as refused:
        Replay.load(path)
    assert (f"pip install ultimata=={release}" if release else "in no release") in str(refused.value)


def test_every_golden_file_is_of_a_registered_or_retired_version() -> None:
    names = {path.stem for path in GOLDEN.glob("*.json")}
    assert names == set(GAMES) | set(RETIRED)


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
