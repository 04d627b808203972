"""`ppo.features: planes`: the conv extractor's shapes, refusal without planes, and a smoke run whose
checkpoint loads as an agent, plays legal moves and exports slim."""

from __future__ import annotations

import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch

from ultimata.agents.features import PlanesExtractor, features_policy_kwargs
from ultimata.agents.specs import load_agent
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng
from ultimata.training.config import load_train_config
from ultimata.training.trainer import prepare_run, train

TINY_PLANES = {
    "total_timesteps": 128,
    "sampler": {"rollout": 64},
    "checkpoint_every": 64,
    "shaping": 0.0,
    "ppo": {"batch_size": 32, "n_epochs": 1, "net_arch": [8], "features": "planes",
            "conv_channels": [4], "conv_out_channels": 2, "conv_scalars": "bias"},
    "pool": {"weights": {"snapshots": 0.5, "random": 0.5}, "keep": 2},
    "eval": {"every": 10_000, "games": 2, "opponents": ["random"], "final_games": 2},
    "imitation": {"samples": 100, "epochs": 1},
}


def test_extractor_output_shape():
    space = gym.spaces.Box(0.0, 1.0, (3 * 4 * 5 + 6,), np.float32)
    for mode in ("broadcast", "bias", "none"):
        extractor = PlanesExtractor(space, (3, 4, 5), channels=[7, 7], out_channels=2, scalars=mode)
        assert extractor.features_dim == 2 * 4 * 5 + 6
        obs = torch.rand(9, 66)
        out = extractor(obs)
        assert out.shape == (9, 46)
        assert torch.equal(out[:, -6:], obs[:, -6:])  # the scalars are passed through as is


def test_scalar_bias_is_the_broadcast_planes_away_from_the_borders():
    """`bias` claims the broadcast's information but the borders' partial sums: with the broadcast's
    first-layer weights summed over each kernel, the two first layers agree on every interior field."""
    c, h, w, n = 3, 5, 6, 4
    space = gym.spaces.Box(0.0, 1.0, (c * h * w + n,), np.float32)
    torch.manual_seed(0)
    broadcast = PlanesExtractor(space, (c, h, w), channels=[7], out_channels=0, scalars="broadcast")
    bias = PlanesExtractor(space, (c, h, w), channels=[7], out_channels=0, scalars="bias")
    wide, narrow = broadcast.conv[0], bias.conv[0]
    with torch.no_grad():
        narrow.weight.copy_(wide.weight[:, :c])
        narrow.bias.copy_(wide.bias)
        bias.scalar_bias.weight.copy_(wide.weight[:, c:].sum(dim=(2, 3)))
        bias.scalar_bias.bias.zero_()
    obs = torch.rand(8, c * h * w + n)
    boards, scalars = obs[:, : c * h * w].reshape(-1, c, h, w), obs[:, c * h * w :]
    full = wide(torch.cat([boards, scalars[:, :, None, None].expand(-1, -1, h, w)], dim=1))
    cheap = narrow(boards) + bias.scalar_bias(scalars)[:, :, None, None]
    assert torch.allclose(full[:, :, 1:-1, 1:-1], cheap[:, :, 1:-1, 1:-1], atol=1e-5)
    assert not torch.allclose(full[:, :, 0], cheap[:, :, 0], atol=1e-3), "the borders differ"
    assert torch.allclose(bias(obs), torch.cat([torch.relu(cheap).flatten(1), scalars], dim=1), atol=1e-6)


def test_extractor_refuses_an_unknown_scalars_mode():
    space = gym.spaces.Box(0.0, 1.0, (2 * 3 * 3 + 1,), np.float32)
    with pytest.raises(ValueError, match="broadcast, bias, none"):
        PlanesExtractor(space, (2, 3, 3), channels=[5], scalars="film")


def test_extractor_without_reduction_keeps_last_conv_width():
    space = gym.spaces.Box(0.0, 1.0, (2 * 3 * 3 + 1,), np.float32)
    extractor = PlanesExtractor(space, (2, 3, 3), channels=[5], out_channels=0)
    assert extractor(torch.rand(1, 19)).shape == (1, 5 * 9 + 1)


def test_planes_refused_for_a_game_without_planes(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text("ppo: {features: planes}\n")
    with pytest.raises(ConfigError, match="declares none"):
        load_train_config("ultimatum_cards_v3", path)
    game = game_class("ultimatum_cards_v3").from_config({})
    with pytest.raises(ConfigError, match="observation_planes is None"):
        features_policy_kwargs("planes", game, [8], 2)


def test_unknown_features_value_is_refused(tmp_path):
    path = tmp_path / "cfg.yaml"
    path.write_text("ppo: {features: conv}\n")
    with pytest.raises(ConfigError, match="features"):
        load_train_config("ultimade_v2", path)
    path.write_text("ppo: {features: planes, conv_scalars: film}\n")
    with pytest.raises(ConfigError, match="conv_scalars"):
        load_train_config("ultimade_v2", path)


@pytest.fixture(scope="module")
def planes_run(tmp_path_factory: pytest.TempPathFactory):
    run_dir = tmp_path_factory.mktemp("planes_run")
    cfg, progress = prepare_run("ultimade_v2", run_dir, overrides=TINY_PLANES)
    return Path(run_dir), train(cfg, run_dir, progress, show_bar=False)


def _play_legal(spec: str, decisions: int = 60) -> None:
    game = game_class("ultimade_v2").from_config({})
    agent = load_agent(spec, "ultimade_v2", {}, seed=1)
    state = game.new_initial_state(Rng(7))
    agent.reset(0, seed=1)
    for _ in range(decisions):
        if state.is_terminal():
            break
        p = state.current_player
        mask = state.legal_action_mask()
        action = agent.act(state.observation(p), mask, state)
        assert mask[action], f"illegal move {action}"
        state.apply(action)


def test_planes_run_checkpoint_plays_legal_moves(planes_run):
    _, outcome = planes_run
    assert not outcome.interrupted and outcome.steps >= 128
    agent = load_agent(str(outcome.final), "ultimade_v2", {})
    assert isinstance(agent.policy.features_extractor, PlanesExtractor)
    assert agent.policy.features_extractor.scalar_bias is not None, "the config's conv_scalars reached the net"
    _play_legal(str(outcome.final))


def test_planes_run_resumes_and_exports_slim(planes_run, tmp_path):
    from ultimata.training.export import export_checkpoint

    run_dir, outcome = planes_run
    cfg, progress = prepare_run("ultimade_v2", run_dir, resume=True)
    cfg.total_timesteps = outcome.steps + 64
    resumed = train(cfg, run_dir, progress, show_bar=False)
    assert resumed.steps > outcome.steps
    slim = export_checkpoint(resumed.final, tmp_path / "slim.zip")
    assert slim.stat().st_size < resumed.final.stat().st_size
    _play_legal(str(slim))
    with zipfile.ZipFile(slim) as shipped:
        assert all(item.compress_type == zipfile.ZIP_DEFLATED for item in shipped.infolist())
    full, small = load_agent(str(resumed.final), "ultimade_v2", {}), load_agent(str(slim), "ultimade_v2", {})
    assert not any(w.abs().sum() for w in small.policy.value_net.parameters()), "the critic is not shipped"
    game = game_class("ultimade_v2").from_config({})
    state = game.new_initial_state(Rng(5))
    obs = state.observation(state.current_player)
    assert np.allclose(full.logits(obs), small.logits(obs), rtol=0.01, atol=0.05), "the policy is"
