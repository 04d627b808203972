"""Self-play PPO, read top to bottom: prepare or resume the run -> build the policy and the sampler ->
loop (collect -> update -> evaluate, checkpoint, log) -> finish.

    cfg, progress = prepare_run(game, run_dir)          # a fresh run folder, or a resumed one
    outcome = train(cfg, run_dir, progress)             # the loop below

The samples come from every seat the learning policy plays: `sampler.kind: batched` (the default) plays
Python engines, in this process or in worker processes (training/sampler.py, training/sampler_workers.py);
`array` plays a game's array engine, every seat a batched forward pass on tensors (training/array_sampler.py).
Either hands back a `Batch` whose rollout already has its GAE. The update is the masked PPO loss in torch
(training/ppo_update.py). The model is SB3's MaskablePPO, kept as the container of the weights and the
optimizer, so a checkpoint is the same zip as ever and loads everywhere one does; SB3's own `learn()` and
`train()` are not used. The checkpoints, the pool's snapshots, evaluation and the progress display are
training/run_loop.py's, which the RLlib backend shares.

The update runs where `device` says; the batched sampler plays on CPU copies of the weights (`CpuCopy`),
the array sampler on the update's own device.
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
from stable_baselines3.common import utils as sb3_utils
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.registry import game_class
from ultimata.training import sb3_adapter as sb3
from ultimata.training.config import TrainConfig, load_train_config
from ultimata.training.hardware import SamplingPlan, resolve_device, sampling_plan
from ultimata.training.model import load_latest_good, new_model, set_policy_frozen, warm_start
from ultimata.training.ppo_update import UpdateSettings, channels_last, ppo_update
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.run_loop import RunLoop, TrainOutcome
from ultimata.training.sampler_workers import Batch, InProcessSampler, SamplerSpec, WorkerSamplers, policy_weights


def prepare_run(game_name: str, run_dir: Path, *, config_path: str | None = None, preset: str | None = None,
                resume: bool = False, overrides: dict[str, Any] | None = None) -> tuple[TrainConfig, RunProgress]:
    """A fresh run writes its resolved config; a resumed one reads it back with its progress."""
    run = RunDir(run_dir)
    if resume:
        if not run.config_path.exists():
            raise CheckpointError(f"{run_dir} is not a training run (no config.yaml)")
        cfg = load_train_config(game_name, run.config_path)
        progress = run.load_progress()
        if progress.game != game_name:
            raise CheckpointError(f"{run_dir} is a {progress.game} run, not {game_name}")
        return cfg, progress
    if run.progress_path.exists():
        raise CheckpointError(f"{run_dir} already holds a run; continue it with --resume {run_dir}")
    if run_dir.exists() and (not run_dir.is_dir() or any(run_dir.iterdir())):
        held = "is a file" if not run_dir.is_dir() else "already holds " + ", ".join(sorted(
            p.name for p in run_dir.iterdir())[:5])
        raise CheckpointError(f"{run_dir} {held}; a new run needs a new or empty folder (--out), so that no file "
                              "of yours is mixed with or overwritten by the run's")
    cfg = load_train_config(game_name, config_path, preset, overrides)
    run.write_config(cfg.model_dump(mode="json"))
    progress = RunProgress(game=game_name)
    run.save_progress(progress)
    return cfg, progress


def train(cfg: TrainConfig, run_dir: Path, progress: RunProgress, *, console: Console | None = None,
          show_bar: bool = True) -> TrainOutcome:
    """Train until `total_timesteps` samples; Ctrl-C and SIGTERM checkpoint and stop."""
    console = console or Console()
    torch.set_num_threads(cfg.torch_threads)
    device = resolve_device(cfg.device)
    run = RunDir(run_dir)
    game = game_class(cfg.game).from_config(cfg.rules)

    # the policy: a fresh network, or the newest intact checkpoint of the run
    venv = DummyVecEnv([lambda: SpacesEnv(game)])
    if progress.latest:
        model = load_latest_good(run, progress, venv, console, device=device)
        console.print(f"resuming {cfg.game} from {progress.latest} at {progress.steps:,} samples")
    else:
        model = new_model(cfg, venv, run.tensorboard, game, device=device)
    if cfg.ppo.precision == "bfloat16":
        channels_last(model.policy)

    # the sampler: workers first, since they fork before the warm start's and tensorboard's threads exist
    sampler, playing, plan = build_sampler(cfg, game, model, [run.abs(rel) for rel in progress.snapshots], console)
    try:
        if not progress.latest and cfg.imitation is not None:
            warm_start(cfg, model, game, console)
            playing.refresh()
        model.tensorboard_log = str(run.tensorboard)
        sb3.set_total_timesteps(model, cfg.total_timesteps)
        model.set_logger(sb3_utils.configure_logger(0, str(run.tensorboard), "ppo",
                                                    reset_num_timesteps=not progress.latest))
        model.set_random_seed(cfg.seed + model.num_timesteps)
        loop = RunLoop(cfg, run, progress, game, console, show_bar, sampler.add_snapshot, model.logger.record)
        critic_until = cfg.imitation.critic_steps if cfg.imitation is not None else 0
        target = cfg.sampler.rollout
        pipelined = plan.workers > 0  # the workers play the next rollout while this one trains
        worker_cpu, worker_rss = 0.0, 0.0

        # the loop: collect -> update -> evaluate, checkpoint, log
        with loop.interruptible():
            sampler.request(target, policy_weights(playing.policy) if pipelined else None)
            while model.num_timesteps < cfg.total_timesteps and not loop.stop_requested:
                batch = sampler.receive()
                worker_cpu += batch.cpu_seconds if pipelined else 0.0
                worker_rss = max(worker_rss, batch.peak_rss_mb if pipelined else 0.0)
                more = model.num_timesteps + len(batch.rollout) < cfg.total_timesteps
                if pipelined and more:
                    sampler.request(target, policy_weights(playing.policy))
                model.num_timesteps += len(batch.rollout)
                update(model, batch, cfg, critic_frozen=model.num_timesteps <= critic_until)
                playing.refresh()
                if not pipelined and more:
                    sampler.request(target, None)
                loop.after(model, model.num_timesteps)

        # finish: the last checkpoint, and unless stopped the final evaluation and final.zip
        return loop.finish(model, model.num_timesteps, worker_cpu, worker_rss)
    finally:
        sampler.close()


def build_sampler(cfg: TrainConfig, game: Game, model: MaskablePPO, snapshots: list[str],
                  console: Console) -> tuple[Any, CpuCopy, SamplingPlan]:
    """The configured sampler, the copy of the weights it plays with, and how the work is split."""
    if cfg.sampler.kind == "array":
        from ultimata.training.array_sampler import ArraySampler

        sampler = ArraySampler(cfg, game, model.policy, snapshots)
        return sampler, CpuCopy(model.policy, keep_device=True), SamplingPlan(0, cfg.sampler.games)
    plan = sampling_plan(cfg.sampler.workers, cfg.sampler.games, cfg.torch_threads)
    if plan.warning:
        console.print(f"[yellow]warning:[/] {plan.warning}", soft_wrap=True)
    playing = CpuCopy(model.policy)
    specs = sampler_specs(cfg, snapshots, plan)
    sampler = InProcessSampler(specs[0], playing.policy) if plan.workers == 0 else \
        WorkerSamplers(specs, playing.policy)
    return sampler, playing, plan


def update(model: MaskablePPO, batch: Batch, cfg: TrainConfig, critic_frozen: bool) -> None:
    """One PPO update on a rollout, and its episodes in the logs."""
    set_policy_frozen(model.policy, critic_frozen)
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


class CpuCopy:
    """The learner's weights where games are played: the policy itself when it trains on the CPU (or when
    the sampler plays on the update's device, `keep_device`), else a CPU copy refreshed after every update."""

    def __init__(self, policy: Any, keep_device: bool = False) -> None:
        self.source = policy
        same = keep_device or policy.device.type == "cpu"
        self.policy = policy if same else copy.deepcopy(policy).to("cpu")

    def refresh(self) -> None:
        if self.policy is not self.source:
            self.policy.load_state_dict(self.source.state_dict())


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
        raise RuntimeError("the trainer's model is never stepped; its samples come from the sampler")

    def action_masks(self) -> np.ndarray:
        return np.ones(self.action_space.n, bool)
