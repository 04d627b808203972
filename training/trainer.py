"""MaskablePPO self-play runs: prepare the run folder, then train on the configured sampler.

`sampler.kind: batched` (the default) is training/batched_trainer.py: many games in one process,
every seat the policy plays a sample. `vec_env` is SB3's own `learn()` over single-seat self-play envs
(training/selfplay_env.py), kept as the yardstick the bench compares against. Both share the run loop
(training/run_loop.py): checkpoints, pool snapshots, evaluation, progress and the final table.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from rich.console import Console
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.registry import game_class
from ultimata.training.config import TrainConfig, load_train_config
from ultimata.training.model import load_latest_good, new_model, set_policy_frozen, warm_start
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.run_loop import RunLoop, TrainOutcome
from ultimata.training.selfplay_env import SelfPlayEnv


def _env_factory(cfg: TrainConfig, index: int) -> Callable[[], SelfPlayEnv]:
    def make() -> SelfPlayEnv:
        torch.set_num_threads(1)  # opponents' forward passes; keep workers from fighting over cores
        return SelfPlayEnv(
            cfg.game, cfg.rules, cfg.pool.weights, cfg.pool.keep, cfg.pool.deterministic,
            seed=cfg.seed, env_index=index, shaping=cfg.shaping, learner_seats=cfg.pool.learner_seats,
        )

    return make


def build_vec_env(cfg: TrainConfig) -> VecEnv:
    """`vec_env.n_envs` self-play envs, in this process (dummy) or one subprocess each (subproc)."""
    factories = [_env_factory(cfg, i) for i in range(cfg.vec_env.n_envs)]
    if cfg.vec_env.kind == "subproc":
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # workers ignore Ctrl-C; we stop them
        try:
            venv: VecEnv = SubprocVecEnv(factories)
        finally:
            signal.signal(signal.SIGINT, previous)
    else:
        venv = DummyVecEnv(factories)
    return VecMonitor(venv)


class _Callback(BaseCallback):
    """The run loop's periodic work inside SB3's `learn()`, and the warm start's critic-only steps."""

    def __init__(self, loop: RunLoop, critic_until: int) -> None:
        super().__init__()
        self.loop = loop
        self.critic_until = critic_until

    def _on_training_start(self) -> None:
        if self.num_timesteps < self.critic_until:
            set_policy_frozen(self.model.policy, True)

    def _on_rollout_end(self) -> None:  # SB3 calls this just before each update
        if self.num_timesteps >= self.critic_until:
            set_policy_frozen(self.model.policy, False)

    def _on_step(self) -> bool:
        self.loop.after(self.model, self.num_timesteps)
        return not self.loop.stop_requested


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
    """Train until `total_timesteps` samples, on the sampler the config names; Ctrl-C checkpoints and stops."""
    console = console or Console()
    if cfg.sampler.kind == "batched":
        from ultimata.training.batched_trainer import train_batched

        return train_batched(cfg, run_dir, progress, console, show_bar)
    return _train_vec_env(cfg, run_dir, progress, console, show_bar)


def _train_vec_env(cfg: TrainConfig, run_dir: Path, progress: RunProgress, console: Console,
                   show_bar: bool) -> TrainOutcome:
    """SB3's own `learn()` over `vec_env.n_envs` single-seat self-play envs (the `vec_env` sampler)."""
    torch.set_num_threads(cfg.torch_threads)
    run = RunDir(run_dir)
    game = game_class(cfg.game).from_config(cfg.rules)
    venv = build_vec_env(cfg)
    torch.set_num_threads(cfg.torch_threads)  # in-process env factories set 1 for opponents; restore it
    try:
        if progress.latest:
            model = load_latest_good(run, progress, venv, console)
            model.tensorboard_log = str(run.tensorboard)
            for rel in progress.snapshots:
                venv.env_method("add_snapshot", run.abs(rel))
            venv.seed(cfg.seed + progress.steps)
            console.print(f"resuming {cfg.game} from {progress.latest} at {progress.steps:,} steps")
        else:
            model = new_model(cfg, venv, run.tensorboard, game)
            venv.seed(cfg.seed)
            if cfg.imitation is not None:
                warm_start(cfg, model, game, console)
        loop = RunLoop(cfg, run, progress, game, console, show_bar, lambda path: venv.env_method("add_snapshot", path),
                       lambda key, value: model.logger.record(key, value))
        callback = _Callback(loop, cfg.imitation.critic_steps if cfg.imitation is not None else 0)
        remaining = cfg.total_timesteps - model.num_timesteps
        with loop.interruptible():
            if remaining > 0:
                model.learn(remaining, callback=callback, reset_num_timesteps=False, tb_log_name="ppo",
                            progress_bar=False)
        return loop.finish(model, model.num_timesteps)  # subproc envs' own CPU is not counted
    finally:
        venv.close()
