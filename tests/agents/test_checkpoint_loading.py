"""Checkpoints load only for the game, version and rule config they were trained for, and they load as
data: the network is built from the sidecar's description (or, for an old sidecar, from what the weights'
names and shapes show), and nothing in the zip is unpickled."""

from __future__ import annotations

import hashlib
import io
import pickle

import gymnasium as gym
import numpy as np
import pytest
import torch

from tests.agents.checkpoint_files import copy_checkpoint as copy
from tests.agents.checkpoint_files import edit_sidecar, member, replace_members
from ultimata.agents import load_agent
from ultimata.agents.checkpoint import FORMAT, FORMAT_V1, CheckpointMeta, load_policy, read_meta, save_checkpoint
from ultimata.agents.policy_agent import PolicyAgent, action_logits
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.rng import Rng


def cards_game(**config):
    return game_class("ultimatum_cards_v3").from_config(config)


def test_checkpoint_loads_as_an_agent(tiny_checkpoint):
    agent = load_agent(str(tiny_checkpoint), "ultimatum_cards_v3")
    assert isinstance(agent, PolicyAgent) and agent.meta.game == "ultimatum_cards_v3"
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
    with pytest.raises(CheckpointError, match="trained for ultimade_v2, not ultimatum_cards_v3"):
        load_policy(path, cards_game())


@pytest.mark.skipif("ultimade_v2" not in GAMES, reason="ultimade not registered")
def test_a_card_game_checkpoint_is_refused_by_another_game(tiny_checkpoint):
    with pytest.raises(CheckpointError, match="trained for ultimatum_cards_v3, not ultimade_v2"):
        load_agent(str(tiny_checkpoint), "ultimade_v2")


def test_wrong_version_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, version=99)
    with pytest.raises(CheckpointError, match="v99; this install has v3"):
        load_policy(path, cards_game())


def test_other_rule_config_is_refused(tiny_checkpoint):
    with pytest.raises(CheckpointError, match="another rule config.*num_players: checkpoint 4 vs now 3"):
        load_agent(str(tiny_checkpoint), "ultimatum_cards_v3", {"num_players": 3})


def test_corrupt_zip_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    path.write_bytes(path.read_bytes()[:500])
    with pytest.raises(CheckpointError, match="corrupt: its sha256 does not match"):
        load_policy(path, cards_game())
    edit_sidecar(path, sha256=hashlib.sha256(path.read_bytes()).hexdigest())  # the zip's structure gives it away
    with pytest.raises(CheckpointError, match="corrupt: File is not a zip file"):
        load_policy(path, cards_game())
    edit_sidecar(path, sha256="")  # no checksum to compare: refused, not skipped
    with pytest.raises(CheckpointError, match="has no sha256"):
        load_policy(path, cards_game())


def test_corrupt_or_missing_sidecar_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    path.with_suffix(".json").write_text("{not json")
    with pytest.raises(CheckpointError, match="sidecar .* is corrupt"):
        load_policy(path, cards_game())
    path.with_suffix(".json").unlink()
    with pytest.raises(CheckpointError, match="has no sidecar"):
        load_policy(path, cards_game())
    with pytest.raises(CheckpointError, match="does not exist"):
        load_policy(tmp_path / "nothing.zip", cards_game())


def test_unknown_spec_lists_the_allowed_forms():
    with pytest.raises(ConfigError, match="unknown agent spec 'greedy'.*'random'.*'heuristic'.*'pretrained'.*\\.zip"):
        load_agent("greedy", "ultimatum_cards_v3")


def test_stochastic_policy_only_picks_legal_moves(tiny_checkpoint):
    agent = load_agent(str(tiny_checkpoint), "ultimatum_cards_v3", deterministic=False, seed=1)
    mask = np.zeros(cards_game().num_actions, dtype=np.int8)
    mask[[3, 40]] = 1
    picks = {agent.act(np.zeros(cards_game().observation_shape, np.float32), mask) for _ in range(50)}
    assert picks <= {3, 40}


def test_a_later_version_the_sidecar_claims_loads(tiny_checkpoint, tmp_path):
    """A version bump that keeps the spaces and their meaning may keep its bot: the sidecar names the
    trained-for version and claims the new one in `also_fits`."""
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, game="ultimatum_cards_v0", version=0)
    with pytest.raises(CheckpointError, match="trained for ultimatum_cards_v0 .*this install has ultimatum_cards_v3"):
        load_policy(path, cards_game())
    edit_sidecar(path, also_fits=["ultimatum_cards_v3"])
    policy, meta = load_policy(path, cards_game())
    assert meta.also_fits == ["ultimatum_cards_v3"] and policy.action_space.n == cards_game().num_actions


def test_a_claimed_version_accepts_a_new_rule_key_only_at_its_default(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    config = read_meta(path).config
    del config["give_to_self"]  # as if the key came with the new version
    edit_sidecar(path, game="ultimatum_cards_v0", version=0, also_fits=["ultimatum_cards_v3"], config=config)
    load_policy(path, cards_game())
    with pytest.raises(CheckpointError, match="give_to_self: checkpoint"):
        load_policy(path, cards_game(give_to_self=True))


def test_the_sidecar_describes_the_network(tiny_checkpoint):
    side = read_meta(tiny_checkpoint)
    assert side.policy == {
        "net_arch": {"pi": [8], "vf": [8]}, "activation": "Tanh", "features": {"kind": "flat"},
        "share_features_extractor": True, "num_actions": cards_game().num_actions,
        "observation": {"shape": list(cards_game().observation_shape), "dtype": "float32", "low": 0.0, "high": 48.0},
    }


def test_playing_a_checkpoint_unpickles_nothing(tiny_checkpoint, monkeypatch):
    """Every way Python and SB3 unpickle is made to fail: the agent still loads and plays."""
    import cloudpickle
    from sb3_contrib import MaskablePPO

    def refuse(*args, **kwargs):
        raise AssertionError("something was unpickled")

    for module, name in ((pickle, "loads"), (pickle, "load"), (cloudpickle, "loads"), (cloudpickle, "load")):
        monkeypatch.setattr(module, name, refuse)
    monkeypatch.setattr(pickle, "Unpickler", refuse)
    monkeypatch.setattr(MaskablePPO, "load", refuse)
    agent = load_agent(str(tiny_checkpoint), "ultimatum_cards_v3")
    state = cards_game().new_initial_state(Rng(3))
    assert state.legal_action_mask()[agent.act(state.observation(state.current_player), state.legal_action_mask())]


def _sb3_policy(path):
    """The same file as SB3 loads it: a test's own checkpoint, so unpickling it here is safe."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(io.BytesIO(path.read_bytes()), device="cpu").policy


def _same_network(a, b, size: int) -> None:
    observations = np.random.default_rng(0).random((32, size)).astype(np.float32)
    assert np.array_equal(action_logits(a, observations), action_logits(b, observations))


def test_the_data_only_network_computes_what_sb3s_does(tiny_checkpoint):
    policy, _ = load_policy(tiny_checkpoint, cards_game())
    _same_network(policy, _sb3_policy(tiny_checkpoint), cards_game().observation_shape[0])


def test_an_old_sidecar_without_a_description_loads_from_what_the_weights_show(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, drop=("policy",), format=FORMAT_V1)
    assert read_meta(path).policy is None
    old, _ = load_policy(path, cards_game())
    new, _ = load_policy(tiny_checkpoint, cards_game())
    _same_network(old, new, cards_game().observation_shape[0])
    edit_sidecar(path, format=FORMAT)
    with pytest.raises(CheckpointError, match="missing a field: 'policy'"):
        load_policy(path, cards_game())


def _planes_checkpoint(folder, **features):
    """An untrained ultimade conv policy with these PlanesExtractor settings, saved as a checkpoint."""
    from sb3_contrib import MaskablePPO

    from ultimata.agents.features import features_policy_kwargs
    from ultimata.training.trainer import SpacesEnv

    game = game_class("ultimade_v2").from_config({})
    kwargs = features_policy_kwargs("planes", game, features["channels"], features["out_channels"], features["scalars"])
    model = MaskablePPO("MlpPolicy", SpacesEnv(game), policy_kwargs={"net_arch": [4, 4], **kwargs}, device="cpu")
    return save_checkpoint(model, folder / "planes.zip", CheckpointMeta.for_game(game, steps=0)), model.policy


@pytest.mark.parametrize("features", [
    {"channels": [4, 4], "out_channels": 2, "scalars": "broadcast"},
    {"channels": [4], "out_channels": 0, "scalars": "bias"},
    {"channels": [], "out_channels": 3, "scalars": "none"},
])
def test_every_planes_variant_is_described_and_inferred_alike(tmp_path, features):
    path, trained = _planes_checkpoint(tmp_path, **features)
    game = game_class("ultimade_v2").from_config({})
    described = read_meta(path).policy
    assert described["features"] == {"kind": "planes", "planes": list(game.observation_planes), **features}
    edit_sidecar(path, drop=("policy",), format=FORMAT_V1)
    inferred, _ = load_policy(path, game)
    _same_network(inferred, trained, game.observation_shape[0])


def test_weights_that_do_not_fit_the_description_are_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    policy = read_meta(path).policy
    edit_sidecar(path, policy={**policy, "net_arch": {"pi": [16], "vf": [8]}})
    with pytest.raises(CheckpointError, match=r"do not fit the architecture.*policy_net.0.weight is \[8, 563\]"):
        load_policy(path, cards_game())


def test_a_huge_description_is_refused_without_building_it(tiny_checkpoint, tmp_path):
    """Built for real, 32 layers of 65,536 would need 550 GB; the shapes are compared on meta tensors."""
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, policy={**read_meta(path).policy, "net_arch": {"pi": [65_536] * 32, "vf": [65_536] * 32}})
    with pytest.raises(CheckpointError, match="do not fit the architecture"):
        load_policy(path, cards_game())


@pytest.mark.parametrize(("change", "field"), [
    ({"activation": "os.system"}, "activation"),
    ({"net_arch": {"pi": ["8"], "vf": [8]}}, "net_arch.pi.0"),
    ({"features": {"kind": "custom", "class": "evil.Extractor"}}, "features"),
    ({"num_actions": 0}, "num_actions"),
    ({"extractor_class": "evil.Extractor"}, "extractor_class"),
])
def test_a_bad_description_is_refused_naming_the_field(tiny_checkpoint, tmp_path, change, field):
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, policy={**read_meta(path).policy, **change})
    with pytest.raises(CheckpointError, match=f"policy description is invalid \\({field}"):
        load_policy(path, cards_game())


@pytest.mark.parametrize(("change", "field"), [({"steps": "5"}, "steps"), ({"also_fits": 5}, "also_fits"),
                                               ({"config": []}, "config"), ({"num_actions": 7.5}, "num_actions")])
def test_a_sidecar_field_of_the_wrong_type_is_refused_naming_it(tiny_checkpoint, tmp_path, change, field):
    path = copy(tiny_checkpoint, tmp_path)
    edit_sidecar(path, **change)
    with pytest.raises(CheckpointError, match=f"is invalid \\({field}:"):
        load_agent(str(path), "ultimatum_cards_v3")


def test_an_old_sidecar_whose_network_cannot_be_inferred_says_what_to_do(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    weights = torch.load(io.BytesIO(member(path, "policy.pth")), weights_only=True)
    weights["features_extractor.conv.0.weight"] = torch.zeros(4, 4, 3, 3)
    buffer = io.BytesIO()
    torch.save(weights, buffer)
    replace_members(path, {"policy.pth": buffer.getvalue()})
    edit_sidecar(path, drop=("policy",), format=FORMAT_V1)
    with pytest.raises(CheckpointError, match="predates the policy description and has a features extractor, but "
                                              "the game declares no board planes; load it once with SB3 if you trust"):
        load_policy(path, cards_game())


@pytest.mark.parametrize("content", [[1, 2], {"weight": 3}, torch.zeros(3)])
def test_weights_that_are_not_a_state_dict_are_refused(tiny_checkpoint, tmp_path, content):
    path = copy(tiny_checkpoint, tmp_path)
    buffer = io.BytesIO()
    torch.save(content, buffer)
    replace_members(path, {"policy.pth": buffer.getvalue()})
    with pytest.raises(CheckpointError, match="not a state dict of named tensors"):
        load_policy(path, cards_game())


def test_a_zip_without_weights_or_with_an_empty_weights_file_is_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    replace_members(path, {"policy.pth": b""})
    with pytest.raises(CheckpointError, match="policy.pth is not plain weights"):
        load_policy(path, cards_game())
    replace_members(path, {"policy.pth": None})
    with pytest.raises(CheckpointError, match="has no policy.pth: it is not an SB3 policy checkpoint"):
        load_policy(path, cards_game())


def test_integer_weights_are_refused(tiny_checkpoint, tmp_path):
    path = copy(tiny_checkpoint, tmp_path)
    weights = torch.load(io.BytesIO(member(path, "policy.pth")), weights_only=True)
    buffer = io.BytesIO()
    torch.save({k: v.to(torch.int64) for k, v in weights.items()}, buffer)
    replace_members(path, {"policy.pth": buffer.getvalue()})
    with pytest.raises(CheckpointError, match="floating-point"):
        load_policy(path, cards_game())


def test_the_observation_space_is_the_described_one(tiny_checkpoint):
    policy, _ = load_policy(tiny_checkpoint, cards_game())
    low, high = cards_game().observation_bounds
    assert policy.observation_space == gym.spaces.Box(low, high, cards_game().observation_shape, np.float32)


def test_weights_over_the_size_limit_are_refused_before_they_are_read(tiny_checkpoint, monkeypatch):
    import ultimata.agents.policy_net as policy_net

    monkeypatch.setattr(policy_net, "MAX_WEIGHTS_BYTES", 100)
    with pytest.raises(CheckpointError, match=r"policy.pth is [\d,]+ bytes, over the 100 allowed"):
        load_policy(tiny_checkpoint, cards_game())
