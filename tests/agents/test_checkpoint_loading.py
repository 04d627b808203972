"""Checkpoints load only for the game, version and rule config they were trained for."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from ultimata.agents import load_agent
from ultimata.agents.checkpoint import load_model, read_meta
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.rng import Rng


def copy(tiny_checkpoint, tmp_path, name="c"):
    dst = tmp_path / f"{name}.zip"
    shutil.copy(tiny_checkpoint, dst)
    shutil.copy(tiny_checkpoint.with_suffix(".json"), dst.with_suffix(".json"))
    return dst


def edit_sidecar(path, **changes):
    side = path.with_suffix(".json")
    data = json.loads(side.read_text())
    data.update(changes)
    side.write_text(json.dumps(data))


def cards_game(**config):
    return game_class("ultimatum_cards_v2").from_config(config)


def test_checkpoint_loads_as_an_agent(tiny_checkpoint):
    agent = load_agent(str(tiny_checkpoint), "ultimatum_cards_v2")
    assert isinstance(agent, PolicyAgent) and agent.meta.game == "ultimatum_cards_v2"
    state = cards_game().new_initial_state(Rng(0))
    agent.reset(state.current_player, seed=0)
    mask = state.legal_action_mask()
    action = agent.act(state.observation(state.current_player), mask)
    assert mask[action] == 1


def test_sidecar_records_what_the_policy_was_trained_for(tiny_checkpoint):
    meta = read_meta(tiny_checkpoint)
    game = cards_game()
    assert (meta.game, meta.version, meta.num_actions) == (game.name, game.version, game.num_actions)
    assert meta.config == game.config.model_dump(mode="json") and len(meta.sha256) == 64


def test_wrong_game_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, game="ultimade_v2")
    with pytest.raises(CheckpointError, match="trained for ultimade_v2, not ultimatum_cards_v2"):
        load_model(path, cards_game())


@pytest.mark.skipif("ultimade_v2" not in GAMES, reason="ultimade not registered")
def test_a_card_game_checkpoint_is_refused_by_another_game(tiny_checkpoint):
    with pytest.raises(CheckpointError, match="trained for ultimatum_cards_v2, not ultimade_v2"):
        load_agent(str(tiny_checkpoint), "ultimade_v2")


def test_wrong_version_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, version=99)
    with pytest.raises(CheckpointError, match="v99; this install has v2"):
        load_model(path, cards_game())


def test_other_rule_config_is_refused(tiny_checkpoint):
    with pytest.raises(CheckpointError, match="another rule config.*num_players: checkpoint 4 vs now 3"):
        load_agent(str(tiny_checkpoint), "ultimatum_cards_v2", {"num_players": 3})


def test_corrupt_zip_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    path.write_bytes(path.read_bytes()[:500])
    with pytest.raises(CheckpointError, match="corrupt: its sha256 does not match"):
        load_model(path, cards_game())
    edit_sidecar(path, sha256="")  # no checksum to compare: the zip's own structure gives it away
    with pytest.raises(CheckpointError, match="corrupt: File is not a zip file"):
        load_model(path, cards_game())


def test_corrupt_or_missing_sidecar_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    path.with_suffix(".json").write_text("{not json")
    with pytest.raises(CheckpointError, match="sidecar .* is corrupt"):
        load_model(path, cards_game())
    path.with_suffix(".json").unlink()
    with pytest.raises(CheckpointError, match="has no sidecar"):
        load_model(path, cards_game())
    with pytest.raises(CheckpointError, match="does not exist"):
        load_model(tmp_path / "nothing.zip", cards_game())


def test_unknown_spec_lists_the_allowed_forms():
    with pytest.raises(ConfigError, match="unknown agent spec 'greedy'.*'random'.*'heuristic'.*'pretrained'.*\\.zip"):
        load_agent("greedy", "ultimatum_cards_v2")


def test_stochastic_policy_only_picks_legal_moves(tiny_checkpoint):
    agent = load_agent(str(tiny_checkpoint), "ultimatum_cards_v2", deterministic=False, seed=1)
    mask = np.zeros(cards_game().num_actions, dtype=np.int8)
    mask[[3, 40]] = 1
    picks = {agent.act(np.zeros(cards_game().observation_shape, np.float32), mask) for _ in range(50)}
    assert picks <= {3, 40}


def test_a_later_version_the_sidecar_claims_loads(tiny_checkpoint, tmp_path):
    """A version bump that keeps the spaces and their meaning may keep its bot: the sidecar names the
    trained-for version and claims the new one in `also_fits`."""
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, game="ultimatum_cards_v0", version=0)
    with pytest.raises(CheckpointError, match="trained for ultimatum_cards_v0 .*this install has ultimatum_cards_v2"):
        load_model(path, cards_game())
    edit_sidecar(path, also_fits=["ultimatum_cards_v2"])
    model, meta = load_model(path, cards_game())
    assert meta.also_fits == ["ultimatum_cards_v2"] and model.action_space.n == cards_game().num_actions


def test_a_claimed_version_accepts_a_new_rule_key_only_at_its_default(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    config = read_meta(path).config
    del config["max_decisions"]  # as if the key came with the new version
    edit_sidecar(path, game="ultimatum_cards_v0", version=0, also_fits=["ultimatum_cards_v2"], config=config)
    load_model(path, cards_game())
    with pytest.raises(CheckpointError, match="max_decisions: checkpoint"):
        load_model(path, cards_game(max_decisions=1234))
