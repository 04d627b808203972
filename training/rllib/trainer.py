"""League self-play with RLlib PPO (new API stack): build, train, snapshot, checkpoint, resume, export.

Reads like the SB3 trainer: `train_rllib()` sets up (fresh or resumed), then loops `algo.train()`
iterations; every `checkpoint_every` env steps it saves an RLlib checkpoint (to resume from), exports
`main` as an ultimata checkpoint (to play against) and adds that as a frozen league snapshot; every
`eval.every` steps the exported policy meets random and the scripted bot in the arena. The run ends
with `final.zip` + sidecar and the same table as the SB3 path. The run folder is the SB3 one plus
`rllib/step_<steps>/`, RLlib's own checkpoints.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any

import ray
import torch
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from rich.console import Console
from torch.utils.tensorboard import SummaryWriter

from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.registry import game_class
from ultimata.training.config import TrainConfig
from ultimata.training.evaluate import evaluate_policy
from ultimata.training.features import features_policy_kwargs
from ultimata.training.pool import MIRROR
from ultimata.training.rllib.export import export_weights, module_weights, sb3_model
from ultimata.training.rllib.league import (
    MAIN,
    LeagueMapping,
    add_snapshot,
    drop_snapshot,
    learner_weights,
    push_weights,
)
from ultimata.training.rllib.league_env import LEAGUE, LeagueAEC, LeagueEnv
from ultimata.training.rllib.module import MaskedActorCritic
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.run_loop import TrainOutcome, eval_opponents, interruptible, progress_bar, rating_summary

KEPT_RLLIB_CHECKPOINTS = 2


def module_spec(cfg: TrainConfig, game: Game) -> RLModuleSpec:
    """`main`'s module: the SB3 policy's architecture (net_arch, flat or planes features)."""
    p = cfg.ppo
    spaces = LeagueAEC(cfg.game, cfg.rules)
    return RLModuleSpec(
        module_class=MaskedActorCritic,
        observation_space=spaces.observation_space(MAIN),
        action_space=spaces.action_space(MAIN),
        model_config={
            "net_arch": list(p.net_arch),
            **features_policy_kwargs(p.features, game, p.conv_channels, p.conv_out_channels, p.conv_scalars),
        },
    )


def league_pool(weights: dict[str, float]) -> dict[str, float]:
    """The pool as the league env reads it: `mirror` seats (the batched sampler's) become league seats."""
    pool = {k: v for k, v in weights.items() if k != MIRROR}
    if weights.get(MIRROR, 0) > 0:
        pool[LEAGUE] = pool.get(LEAGUE, 0.0) + weights[MIRROR]
    return pool


def algorithm_config(cfg: TrainConfig, game: Game, num_env_runners: int | None = None) -> PPOConfig:
    """RLlib PPO with the same hyperparameters as the SB3 path (PPO's plain clipped loss: no KL term,
    no value clipping, as SB3's MaskablePPO)."""
    p, r = cfg.ppo, cfg.rllib
    runners = r.num_env_runners if num_env_runners is None else num_env_runners
    pool = league_pool(cfg.pool.weights)
    return (
        PPOConfig()
        .environment(
            LeagueEnv,
            env_config={"game": cfg.game, "rules": cfg.rules, "pool": pool, "seed": cfg.seed},
            disable_env_checking=True,
        )
        .multi_agent(policies={MAIN}, policy_mapping_fn=LeagueMapping(), policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MAIN: module_spec(cfg, game)}))
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=r.num_envs_per_env_runner or cfg.n_envs)
        .learners(num_learners=0)
        .training(
            lr=p.learning_rate,
            gamma=p.gamma,
            lambda_=p.gae_lambda,
            clip_param=p.clip_range,
            entropy_coeff=p.ent_coef,
            vf_loss_coeff=p.vf_coef,
            grad_clip=p.max_grad_norm,
            grad_clip_by="global_norm",
            num_epochs=p.n_epochs,
            minibatch_size=p.batch_size,
            train_batch_size_per_learner=r.train_batch_size or p.n_steps * cfg.n_envs,
            use_kl_loss=False,
            vf_clip_param=float("inf"),
        )
        .debugging(seed=cfg.seed, log_level="ERROR")
    )


def snapshot_id(steps: int) -> str:
    return f"main_{steps:09d}"


class _Run:
    """One RLlib run: the algorithm, its league and the run folder's bookkeeping."""

    def __init__(
        self, cfg: TrainConfig, run: RunDir, progress: RunProgress, game: Game, algo: Algorithm, console: Console
    ) -> None:
        self.cfg, self.run, self.progress, self.game, self.algo, self.console = cfg, run, progress, game, algo, console
        self.league: tuple[str, ...] = ()
        self.writer = SummaryWriter(str(run.tensorboard / "rllib"))
        self.rates = ""
        self.stop_requested = False

    def rllib_dir(self, steps: int) -> Path:
        return self.run.root / "rllib" / f"step_{steps:09d}"

    def restore(self) -> None:
        """Re-create the league's modules, then load the newest intact RLlib checkpoint."""
        ids = [snapshot_id(self._steps_of(rel)) for rel in self.progress.snapshots]
        for module_id in ids:
            self.league = add_snapshot(self.algo, module_id, learner_weights(self.algo), self.league).snapshots
        for index in range(len(self.progress.checkpoints) - 1, -1, -1):
            steps = self._steps_of(self.progress.checkpoints[index])
            path = self.rllib_dir(steps)
            if not path.is_dir():
                self.console.print(f"[yellow]warning:[/] no RLlib checkpoint {self.run.rel(path)}; falling back")
                continue
            self.algo.restore_from_path(str(path.resolve()))
            for module_id in (MAIN, *self.league):  # runners must play the restored weights, not a stale copy
                push_weights(self.algo, module_id, learner_weights(self.algo, module_id))
            self.progress.checkpoints = self.progress.checkpoints[: index + 1]
            self.progress.steps = steps
            return
        raise CheckpointError(f"{self.run.root}: no intact RLlib checkpoint to resume from; start a fresh run")

    def _steps_of(self, rel: str) -> int:
        return int(Path(rel).stem.split("_")[-1])

    def checkpoint(self) -> Path:
        """RLlib checkpoint (atomic: written aside, then renamed), exported policy, league snapshot."""
        steps = self.progress.steps
        final_dir = self.rllib_dir(steps)
        temp = final_dir.with_name(f".tmp-{final_dir.name}")
        shutil.rmtree(temp, ignore_errors=True)
        temp.parent.mkdir(parents=True, exist_ok=True)
        self.algo.save_to_path(str(temp.resolve()))
        shutil.rmtree(final_dir, ignore_errors=True)
        os.replace(temp, final_dir)
        weights = learner_weights(self.algo)
        path = export_weights(self.cfg, self.game, weights, self.run.checkpoint(steps), steps)
        rel = self.run.rel(path)
        if rel not in self.progress.checkpoints:
            self.progress.checkpoints.append(rel)
        if LEAGUE in self.cfg.pool.weights and snapshot_id(steps) not in self.league:
            self.league = add_snapshot(self.algo, snapshot_id(steps), weights, self.league).snapshots
            self.progress.snapshots.append(rel)
            while len(self.league) > self.cfg.pool.keep:
                self.league = drop_snapshot(self.algo, self.league[0], self.league).snapshots
                self.progress.snapshots.pop(0)
        self.run.save_progress(self.progress)
        for old in sorted((self.run.root / "rllib").glob("step_*"))[:-KEPT_RLLIB_CHECKPOINTS]:
            shutil.rmtree(old, ignore_errors=True)
        return path

    def evaluate(self, games: int, seed: int) -> dict[str, Any]:
        model = sb3_model(self.cfg, self.game, learner_weights(self.algo))
        return evaluate_policy(model.policy, self.game, eval_opponents(self.cfg), games, seed=seed)

    def log(self, result: dict[str, Any], steps_per_s: float) -> None:
        steps = self.progress.steps
        self.writer.add_scalar("time/env_steps_per_s", steps_per_s, steps)
        returns = result.get("env_runners", {}).get("module_episode_returns_mean", {})
        if MAIN in returns:
            self.writer.add_scalar("rollout/main_episode_return_mean", returns[MAIN], steps)
        for key, value in result.get("learners", {}).get(MAIN, {}).items():
            if key in ("policy_loss", "vf_loss", "entropy", "total_loss") and isinstance(value, (int, float)):
                self.writer.add_scalar(f"train/{key}", value, steps)
        self.writer.add_scalar("league/snapshots", len(self.league), steps)


def sb3_only_settings(cfg: TrainConfig) -> list[str]:
    """Settings in the config that this backend does not apply, each said plainly (a shipped config may
    set them for the default backend, so they are named rather than refused)."""
    said = []
    if cfg.imitation is not None and cfg.imitation.critic_steps:
        said.append(f"imitation.critic_steps ({cfg.imitation.critic_steps:,}) is applied by the sb3 backend only; "
                    "here the policy learns from the first update")
    if cfg.pool.weights.get(MIRROR, 0) > 0:
        said.append(f"pool.weights.mirror ({cfg.pool.weights[MIRROR]}) is the sb3 batched sampler's; here those "
                    "seats are league seats (main until the first snapshot, then the snapshots)")
    if cfg.pool.learner_seats is not None:
        said.append(f"pool.learner_seats ({cfg.pool.learner_seats}) is applied by the sb3 backend only; here the "
                    "learner holds every seat equally often")
    return said


def train_rllib(
    cfg: TrainConfig,
    run_dir: Path,
    progress: RunProgress,
    *,
    console: Console | None = None,
    num_env_runners: int | None = None,
    address: str | None = None,
) -> TrainOutcome:
    """Train `cfg.game` with RLlib until `total_timesteps` env steps; Ctrl-C checkpoints and stops."""
    console = console or Console()
    for notice in sb3_only_settings(cfg):
        console.print(f"[yellow]note:[/] {notice}", soft_wrap=True)
    torch.set_num_threads(cfg.torch_threads)
    game = game_class(cfg.game).from_config(cfg.rules)
    for name in ("ray", "ray.rllib", "ray.tune"):  # RLlib's start-up notices, not the user's business
        logging.getLogger(name).setLevel(logging.ERROR)
    started_ray = not ray.is_initialized()
    if started_ray:
        address = address or cfg.rllib.address
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        else:  # a private instance: "local" never attaches to a cluster that happens to run here
            runners = cfg.rllib.num_env_runners if num_env_runners is None else num_env_runners
            ray.init(
                address="local",
                num_cpus=max(2, runners + 1),
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
    algo = algorithm_config(cfg, game, num_env_runners).build_algo()
    state = _Run(cfg, RunDir(run_dir), progress, game, algo, console)
    try:
        if progress.checkpoints:
            state.restore()
            console.print(f"resuming {cfg.game} from {progress.latest} at {progress.steps:,} steps")
        elif cfg.imitation is not None:
            _warm_start(state)
        return _loop(state)
    finally:
        state.writer.close()
        algo.stop()
        if started_ray:
            ray.shutdown()


def _loop(state: _Run) -> TrainOutcome:
    cfg, progress, console = state.cfg, state.progress, state.console
    next_checkpoint = (progress.steps // cfg.checkpoint_every + 1) * cfg.checkpoint_every
    next_eval = (progress.steps // cfg.eval.every + 1) * cfg.eval.every
    bar = progress_bar(console) if console.is_terminal else None
    task = (
        bar.add_task("training (rllib)", total=cfg.total_timesteps, completed=progress.steps, sps="", rates="")
        if bar
        else None
    )
    start_steps, start = progress.steps, time.perf_counter()
    sps = 0.0
    with interruptible(bar, state):
        while progress.steps < cfg.total_timesteps and not state.stop_requested:
            tick = time.perf_counter()
            result = state.algo.train()
            sampled = int(result["env_runners"]["num_env_steps_sampled"])
            progress.steps += sampled
            sps = sampled / max(time.perf_counter() - tick, 1e-9)
            state.log(result, sps)
            if progress.steps >= next_checkpoint:
                state.checkpoint()
                next_checkpoint = (progress.steps // cfg.checkpoint_every + 1) * cfg.checkpoint_every
            if progress.steps >= next_eval:
                _evaluate(state)
                next_eval = (progress.steps // cfg.eval.every + 1) * cfg.eval.every
            if bar is not None:
                bar.update(task, completed=progress.steps, sps=f"{sps:,.0f} steps/s", rates=state.rates)
            else:
                console.print(
                    f"{progress.steps:,}/{cfg.total_timesteps:,} steps, {sps:,.0f} steps/s"
                    + (f", {state.rates}" if state.rates else ""),
                    highlight=False,
                    soft_wrap=True,
                )
    elapsed = time.perf_counter() - start
    overall = (progress.steps - start_steps) / elapsed if elapsed > 0 else 0.0
    state.checkpoint()
    if state.stop_requested:
        return TrainOutcome(
            state.run.root, state.run.abs(progress.latest), progress.steps, overall, {}, interrupted=True
        )
    with console.status("final evaluation against random and the scripted bot..."):
        results = state.evaluate(cfg.eval.final_games, cfg.seed + 9_000_000)
    final = export_weights(
        cfg,
        state.game,
        learner_weights(state.algo),
        state.run.final,
        progress.steps,
        rating={spec: rating_summary(r) for spec, r in results.items()},
        run=str(state.run.root),
        steps_per_s=round(overall),
    )
    progress.finished = True
    state.run.save_progress(progress)
    return TrainOutcome(state.run.root, final, progress.steps, overall, results)


def _evaluate(state: _Run) -> None:
    results = state.evaluate(state.cfg.eval.games, state.cfg.seed + 7_000_000)
    entry: dict[str, Any] = {"steps": state.progress.steps}
    for spec, result in results.items():
        entry[spec] = round(result.agents[0].win_rate, 4)
        state.writer.add_scalar(f"eval/win_rate_vs_{spec}", entry[spec], state.progress.steps)
    state.progress.evals.append(entry)
    state.rates = "  ".join(f"vs {k} {v:.0%}" for k, v in entry.items() if k != "steps")


def _warm_start(state: _Run) -> None:
    """Imitate the scripted bot in an SB3 policy of the same architecture (the SB3 path's warm start),
    then hand its weights to `main`."""
    from ultimata.training.model import warm_start

    model = sb3_model(state.cfg, state.game, learner_weights(state.algo))
    warm_start(state.cfg, model, state.game, state.console)
    push_weights(state.algo, MAIN, module_weights(model))
