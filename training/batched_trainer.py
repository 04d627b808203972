"""PPO on the batched self-play sampler.

SB3's `learn()` steps one stream of envs and keeps one learner seat per env; here the samples come
from every seat the learning policy plays (training/sampler.py, which also computes GAE per game and
seat). The update is the masked PPO loss written out in torch (training/ppo_update.py), or with
`ppo.update: sb3` MaskablePPO.train() itself. The model is SB3's MaskablePPO either way, so the
checkpoint saved is the same zip as before, and loads everywhere a checkpoint does.

    loop: rollout = sampler.collect(n)  ->  ppo_update(policy, rollout)  (on the configured device)

The update runs where `device` says (a GPU when there is one); sampling always runs on CPU copies of the
weights: the sampler workers' own, or, in-process, a CPU copy refreshed after every update.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium import spaces
from rich.console import Console
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from stable_baselines3.common import utils as sb3_utils
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata.envs.core.engine import Game
from ultimata.envs.core.registry import game_class
from ultimata.training import sb3_adapter as sb3
from ultimata.training.config import TrainConfig
from ultimata.training.hardware import SamplingPlan, resolve_device, sampling_plan
from ultimata.training.model import load_latest_good, new_model, set_policy_frozen, warm_start
from ultimata.training.ppo_update import UpdateSettings, channels_last, ppo_update
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.run_loop import RunLoop, TrainOutcome
from ultimata.training.sampler import Rollout
from ultimata.training.sampler_workers import (
    Batch,
    InProcessSampler,
    SamplerSpec,
    WorkerSamplers,
    policy_weights,
)


class SpacesEnv(gymnasium.Env):
    """The game's spaces and nothing else: what SB3 needs to build, save and load a MaskablePPO whose
    samples come from elsewhere."""

    def __init__(self, game: Game) -> None:
        low, high = game.observation_bounds
        self.observation_space = spaces.Box(low, high, game.observation_shape, game.observation_dtype)
        self.action_space = spaces.Discrete(game.num_actions)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        return np.zeros(self.observation_space.shape, self.observation_space.dtype), {}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        raise RuntimeError("the batched trainer's model is never stepped; its samples come from the sampler")

    def action_masks(self) -> np.ndarray:
        return np.ones(self.action_space.n, bool)


def rollout_size(cfg: TrainConfig) -> int:
    """Samples per update (sampler.rollout)."""
    return cfg.sampler.rollout


def sampler_specs(cfg: TrainConfig, snapshots: list[str], plan: SamplingPlan) -> list[SamplerSpec]:
    """The game slots split over the workers (one spec in-process when there are none)."""
    parts = max(1, plan.workers)
    slots = list(range(plan.games))
    return [
        SamplerSpec(cfg.game, cfg.rules, cfg.pool.weights, cfg.pool.keep, cfg.pool.deterministic, cfg.seed,
                    cfg.shaping, cfg.pool.learner_seats, cfg.ppo.gamma, cfg.ppo.gae_lambda, slots[i::parts],
                    list(snapshots))
        for i in range(parts)
    ]


def fill_buffer(model: MaskablePPO, rollout: Rollout) -> None:
    """Hand a rollout to MaskablePPO.train(): a buffer of exactly its size, advantages already computed."""
    n = len(rollout)
    buffer = MaskableRolloutBuffer(n, model.observation_space, model.action_space, device=model.device,
                                   gamma=model.gamma, gae_lambda=model.gae_lambda, n_envs=1)
    buffer.observations[:, 0] = rollout.obs
    buffer.actions[:, 0, 0] = rollout.actions
    buffer.rewards[:, 0] = rollout.rewards
    buffer.episode_starts[:, 0] = rollout.episode_starts
    buffer.values[:, 0] = rollout.values
    buffer.log_probs[:, 0] = rollout.log_probs
    buffer.advantages[:, 0] = rollout.advantages
    buffer.returns[:, 0] = rollout.returns
    buffer.action_masks[:, 0] = rollout.masks
    buffer.pos, buffer.full = n, True
    model.rollout_buffer = buffer


def train_batched(cfg: TrainConfig, run_dir: Path, progress: RunProgress, console: Console,
                  show_bar: bool) -> TrainOutcome:
    torch.set_num_threads(cfg.torch_threads)
    device = resolve_device(cfg.device)
    plan = sampling_plan(cfg.sampler.workers, cfg.sampler.games, cfg.torch_threads)
    if plan.warning:
        console.print(f"[yellow]warning:[/] {plan.warning}", soft_wrap=True)
    run = RunDir(run_dir)
    game = game_class(cfg.game).from_config(cfg.rules)
    venv = DummyVecEnv([lambda: SpacesEnv(game)])
    if progress.latest:
        model = load_latest_good(run, progress, venv, console, device=device)
        console.print(f"resuming {cfg.game} from {progress.latest} at {progress.steps:,} steps")
    else:
        model = new_model(cfg, venv, run.tensorboard, game, n_steps=rollout_size(cfg), device=device)
    if cfg.ppo.precision == "bfloat16":
        channels_last(model.policy)
    playing = CpuCopy(model.policy)
    specs = sampler_specs(cfg, [run.abs(rel) for rel in progress.snapshots], plan)
    # workers first: they fork before the warm start's and tensorboard's threads exist
    sampler = InProcessSampler(specs[0], playing.policy) if plan.workers == 0 else \
        WorkerSamplers(specs, playing.policy)
    try:
        if not progress.latest and cfg.imitation is not None:
            warm_start(cfg, model, game, console)
            playing.refresh()
        return _loop(cfg, run, progress, game, model, playing, sampler, plan, console, show_bar)
    finally:
        sampler.close()


class CpuCopy:
    """The learner's weights on the CPU, where games are played: the policy itself when it trains on the
    CPU, a copy refreshed after every update when it trains on a GPU."""

    def __init__(self, policy: Any) -> None:
        self.source = policy
        self.policy = policy if policy.device.type == "cpu" else copy.deepcopy(policy).to("cpu")

    def refresh(self) -> None:
        if self.policy is not self.source:
            self.policy.load_state_dict(self.source.state_dict())


def _loop(cfg: TrainConfig, run: RunDir, progress: RunProgress, game: Game, model: MaskablePPO, playing: CpuCopy,
          sampler: InProcessSampler | WorkerSamplers, plan: SamplingPlan, console: Console,
          show_bar: bool) -> TrainOutcome:
    model.tensorboard_log = str(run.tensorboard)
    sb3.set_total_timesteps(model, cfg.total_timesteps)
    model.set_logger(sb3_utils.configure_logger(0, str(run.tensorboard), "ppo",
                                                reset_num_timesteps=not progress.latest))
    model.set_random_seed(cfg.seed + model.num_timesteps)
    loop = RunLoop(cfg, run, progress, game, console, show_bar, sampler.add_snapshot, model.logger.record)
    critic_until = cfg.imitation.critic_steps if cfg.imitation is not None else 0
    target = rollout_size(cfg)
    pipelined = plan.workers > 0
    worker_cpu, worker_rss = 0.0, 0.0
    with loop.interruptible():
        sampler.request(target, policy_weights(playing.policy) if pipelined else None)
        while model.num_timesteps < cfg.total_timesteps and not loop.stop_requested:
            batch = sampler.receive()
            worker_cpu += batch.cpu_seconds if pipelined else 0.0
            worker_rss = max(worker_rss, batch.peak_rss_mb if pipelined else 0.0)
            more = model.num_timesteps + len(batch.rollout) < cfg.total_timesteps
            if pipelined and more:  # the workers play the next rollout while this one trains
                sampler.request(target, policy_weights(playing.policy))
            model.num_timesteps += len(batch.rollout)
            update(model, batch, cfg, critic_frozen=model.num_timesteps <= critic_until)
            playing.refresh()
            if not pipelined and more:
                sampler.request(target, None)
            loop.after(model, model.num_timesteps)
    return loop.finish(model, model.num_timesteps, worker_cpu, worker_rss)


def update(model: MaskablePPO, batch: Batch, cfg: TrainConfig, critic_frozen: bool) -> None:
    """One PPO update on a rollout, and its episodes in the logs."""
    set_policy_frozen(model.policy, critic_frozen)
    if cfg.ppo.update == "sb3":
        fill_buffer(model, batch.rollout)
        sb3.train(model)
    else:
        p = cfg.ppo
        settings = UpdateSettings(p.n_epochs, p.batch_size, p.clip_range, p.ent_coef, p.vf_coef, p.max_grad_norm,
                                  p.learning_rate, p.precision)
        rng = np.random.default_rng([cfg.seed, model.num_timesteps])
        stats = ppo_update(model.policy, batch.rollout, settings, rng, model.device)
        sb3.record_update(model, stats, p.n_epochs)
    logger = model.logger
    if batch.episodes:
        logger.record("rollout/ep_rew_mean", float(np.mean([e.reward for e in batch.episodes])))
        logger.record("rollout/ep_len_mean", float(np.mean([e.decisions for e in batch.episodes])))
        logger.record("rollout/win_rate", float(np.mean([e.win for e in batch.episodes])))
    logger.record("time/samples_per_decision", len(batch.rollout) / max(1, batch.decisions))
    logger.dump(model.num_timesteps)
