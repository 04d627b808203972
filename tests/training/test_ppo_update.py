"""The lean masked PPO update, the device choice and the sampling plan (issue 41)."""

import copy
import io
import zipfile

import numpy as np
import pytest
import torch
from stable_baselines3.common import utils as sb3_utils
from stable_baselines3.common.vec_env import DummyVecEnv
from typer.testing import CliRunner

from ultimata.agents.checkpoint import CheckpointMeta, save_checkpoint
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.cli import app
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training import sb3_adapter as sb3
from ultimata.training.config import load_train_config
from ultimata.training.hardware import resolve_device, sampling_plan
from ultimata.training.model import new_model
from ultimata.training.ppo_update import UpdateSettings, channels_last, ppo_update
from ultimata.training.sampler import Rollout
from ultimata.training.trainer import SpacesEnv

CARDS = "ultimatum_cards_v3"


def _model(game_name: str = CARDS, device: str = "cpu", **ppo):
    cfg = load_train_config(game_name, None, overrides={"ppo": {"net_arch": [32, 32], **ppo}})
    game = game_class(game_name).from_config(cfg.rules)
    model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game, n_steps=512, device=device)
    model.set_logger(sb3_utils.configure_logger(0, None, "test", True))
    sb3.set_total_timesteps(model, 10**6)
    return cfg, game, model


def _rollout(game, n: int = 512, seed: int = 0) -> Rollout:
    rng = np.random.default_rng(seed)
    masks = (rng.random((n, game.num_actions)) < 0.3).astype(np.int8)
    masks[:, 0] = 1
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return Rollout(obs=rng.random((n, *game.observation_shape)).astype(np.float32), masks=masks, actions=actions,
                   values=rng.standard_normal(n).astype(np.float32),
                   log_probs=-rng.random(n).astype(np.float32) * 2,
                   advantages=rng.standard_normal(n).astype(np.float32),
                   returns=rng.standard_normal(n).astype(np.float32), rewards=np.zeros(n, np.float32),
                   episode_starts=np.zeros(n, np.float32))


def _settings(cfg, precision: str = "float32") -> UpdateSettings:
    p = cfg.ppo
    return UpdateSettings(p.n_epochs, p.batch_size, p.clip_range, p.ent_coef, p.vf_coef, p.max_grad_norm,
                          p.learning_rate, precision)


def fill_buffer(model, rollout: Rollout) -> None:
    """A rollout as MaskablePPO.train()'s buffer of exactly its size, advantages already computed: the
    yardstick the update is checked against (the trainer itself no longer calls SB3's train())."""
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

    n = len(rollout)
    buffer = MaskableRolloutBuffer(n, model.observation_space, model.action_space, device=model.device,
                                   gamma=model.gamma, gae_lambda=model.gae_lambda, n_envs=1)
    for name, field in (("observations", "obs"), ("rewards", "rewards"), ("episode_starts", "episode_starts"),
                        ("values", "values"), ("log_probs", "log_probs"), ("advantages", "advantages"),
                        ("returns", "returns"), ("action_masks", "masks")):
        getattr(buffer, name)[:, 0] = getattr(rollout, field)
    buffer.actions[:, 0, 0] = rollout.actions
    buffer.pos, buffer.full = n, True
    model.rollout_buffer = buffer


def test_the_update_is_maskableppo_train_on_the_same_minibatches():
    cfg, game, model = _model()
    rollout = _rollout(game)
    lean = copy.deepcopy(model.policy)
    before = [p.detach().clone() for p in lean.parameters()]
    np.random.seed(0)  # SB3's buffer shuffles with numpy's global generator, once per epoch
    fill_buffer(model, rollout)
    model._total_timesteps = 1
    model._update_current_progress_remaining(0, 1)
    model.train()
    np.random.seed(0)
    stats = ppo_update(lean, rollout, _settings(cfg), np.random)
    for ours, theirs, start in zip(lean.parameters(), model.policy.parameters(), before):
        assert not torch.equal(ours, start)  # the update moved every weight...
        torch.testing.assert_close(ours, theirs, atol=1e-6, rtol=1e-5)  # ...exactly as SB3's did
    logged = model.logger.name_to_value
    for key in ("policy_gradient_loss", "value_loss", "entropy_loss", "clip_fraction"):
        assert stats[key] == pytest.approx(float(logged[f"train/{key}"]), rel=1e-4, abs=1e-6)


def test_the_bfloat16_update_learns_the_same_direction_on_a_conv_net():
    cfg, game, model = _model("ultimade_v2", features="planes", conv_channels=[8], conv_out_channels=2)
    rollout = _rollout(game, 256)
    full, half = copy.deepcopy(model.policy), copy.deepcopy(model.policy)
    channels_last(half)
    ppo_update(full, rollout, _settings(cfg), np.random.default_rng(1))
    stats = ppo_update(half, rollout, _settings(cfg, "bfloat16"), np.random.default_rng(1))
    assert all(np.isfinite(v) for v in stats.values() if isinstance(v, float) and v == v)
    start = list(model.policy.parameters())
    for a, b, s in zip(full.parameters(), half.parameters(), start):
        step_full, step_half = (a - s).flatten(), (b - s).flatten()
        if step_full.norm() > 0:
            assert torch.nn.functional.cosine_similarity(step_full, step_half, dim=0) > 0.9


def test_device_auto_is_the_cpu_here_and_cuda_without_cuda_is_one_clear_error(tmp_path):
    if torch.cuda.is_available():
        assert resolve_device("auto").type == "cuda"
    else:
        assert resolve_device("auto").type == "cpu"
        with pytest.raises(ConfigError, match="no CUDA device"):
            resolve_device("cuda")
        result = CliRunner().invoke(app, ["train", CARDS, "--device", "cuda", "--steps", "64",
                                          "--out", str(tmp_path / "run")])
        assert result.exit_code == 2 and "no CUDA device" in result.output and "Traceback" not in result.output
    with pytest.raises(ConfigError, match="allowed: auto, cpu, cuda"):
        resolve_device("tpu")


def test_a_checkpoint_saved_on_another_device_plays_on_the_cpu(tmp_path, monkeypatch):
    """Weights saved from a GPU carry their device in the file; loading maps them to the CPU."""
    _, game, model = _model()
    tagged = []

    def on_gpu(storage):
        tagged.append(True)
        return "cuda:0"

    monkeypatch.setattr(torch.serialization, "location_tag", on_gpu)
    path = save_checkpoint(model, tmp_path / "gpu.zip", CheckpointMeta.for_game(game, 512))
    monkeypatch.undo()
    assert tagged
    with zipfile.ZipFile(path) as archive, pytest.raises(RuntimeError, match="CUDA"):  # the file says cuda
        torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=True)
    agent = PolicyAgent.from_checkpoint(path, game)
    assert next(agent.policy.parameters()).device.type == "cpu"
    obs = np.zeros(game.observation_shape, np.float32)
    np.testing.assert_allclose(agent.logits(obs), PolicyAgent(model.policy).logits(obs), atol=1e-6)


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_on_a_gpu_a_short_run_trains_there_and_its_checkpoint_plays_on_the_cpu(tmp_path):
    from ultimata.training.trainer import prepare_run, train

    overrides = {"total_timesteps": 4096, "device": "cuda", "imitation": None, "checkpoint_every": 2048,
                 "eval": {"every": 10**9, "games": 1, "final_games": 4}}
    cfg, progress = prepare_run(CARDS, tmp_path / "run", overrides=overrides)
    outcome = train(cfg, tmp_path / "run", progress, show_bar=False)
    agent = PolicyAgent.from_checkpoint(outcome.final, game_class(CARDS).from_config({}))
    assert next(agent.policy.parameters()).device.type == "cpu"


def test_workers_auto_take_the_cores_the_learner_leaves_and_scale_the_games():
    assert sampling_plan("auto", 8, 1, cores=16) == sampling_plan(15, 120, 1, cores=16)
    assert sampling_plan("auto", 8, 1, cores=16).warning is None
    assert sampling_plan("auto", 8, 4, cores=16) == sampling_plan(12, 96, 4, cores=16)  # the learner's 4 threads
    assert sampling_plan("auto", 8, 4, cores=16).warning is None
    assert sampling_plan("auto", 64, 1, cores=1).workers == 0  # one core: sample in the trainer's process
    crowded = sampling_plan(1, 64, 2, cores=2)
    assert crowded.warning and "more than the 2 core(s)" in crowded.warning
    assert sampling_plan(1, 64, 1, cores=2).warning is None
