"""League self-play with RLlib PPO (new API stack): build, train, snapshot, checkpoint, resume, export.

Reads like the SB3 trainers: `train_rllib()` sets up (fresh or resumed), then loops `algo.train()`
iterations under the run loop every path shares (training/run_loop.py): checkpoint and evaluation
timing, the progress record, curves.png, and `final.zip` with the same table as the SB3 path.
`LeagueRunLoop` is that loop over an RLlib algorithm: a checkpoint also saves RLlib's own state (to
resume from), the policy is exported as an SB3 checkpoint (to save, evaluate and play against without
Ray), and each checkpoint joins the league as a frozen module. The run folder is the SB3 one plus
`rllib/step_<steps>/`, RLlib's own checkpoints.
"""

from __future__ import annotations

import logging
import os
import shutil
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

from ultimata.agents.checkpoint import CheckpointMeta, load_policy
from ultimata.agents.features import features_policy_kwargs
from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.registry import game_class
from ultimata.training.config import TrainConfig
from ultimata.training.model import keep_intact_snapshots
from ultimata.training.pool import MIRROR, SNAPSHOTS
from ultimata.training.rllib.export import export_weights, module_weights, sb3_model
from ultimata.training.rllib.league import (
    MAIN,
    LeagueMapping,
    add_snapshot,
    drop_snapshot,
    learner_weights,
    push_weights,
)
from ultimata.training.rllib.league_env import LeagueAEC, LeagueEnv
from ultimata.training.rllib.module import MaskedActorCritic
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.run_loop import RunLoop, TrainOutcome

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


def algorithm_config(cfg: TrainConfig, game: Game, num_env_runners: int | None = None) -> PPOConfig:
    """RLlib PPO with the same hyperparameters as the SB3 path (PPO's plain clipped loss: no KL term,
    no value clipping, as SB3's MaskablePPO)."""
    p, r = cfg.ppo, cfg.rllib
    runners = r.num_env_runners if num_env_runners is None else num_env_runners
    return (
        PPOConfig()
        .environment(
            LeagueEnv,
            env_config={"game": cfg.game, "rules": cfg.rules, "pool": cfg.pool.weights, "seed": cfg.seed},
            disable_env_checking=True,
        )
        .multi_agent(policies={MAIN}, policy_mapping_fn=LeagueMapping(), policies_to_train=[MAIN])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MAIN: module_spec(cfg, game)}))
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=r.num_envs_per_env_runner)
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
            train_batch_size_per_learner=r.train_batch_size or cfg.sampler.rollout,
            use_kl_loss=False,
            vf_clip_param=float("inf"),
        )
        .debugging(seed=cfg.seed, log_level="ERROR")
    )


def snapshot_id(steps: int) -> str:
    return f"main_{steps:09d}"


def steps_of(checkpoint: str) -> int:
    """The samples a checkpoint was taken at, from its name (RunDir.checkpoint's `step_<steps>.zip`)."""
    return int(Path(checkpoint).stem.split("_")[-1])


def rllib_dir(run: RunDir, steps: int) -> Path:
    return run.root / "rllib" / f"step_{steps:09d}"


def plays_snapshots(cfg: TrainConfig) -> bool:
    """Whether checkpoints join the league as modules (the pool names snapshots among its kinds)."""
    return SNAPSHOTS in cfg.pool.weights


def save_algorithm(algo: Algorithm, path: Path) -> None:
    """RLlib's checkpoint, atomically: written aside, then renamed."""
    temp = path.with_name(f".tmp-{path.name}")
    shutil.rmtree(temp, ignore_errors=True)
    temp.parent.mkdir(parents=True, exist_ok=True)
    algo.save_to_path(str(temp.resolve()))
    shutil.rmtree(path, ignore_errors=True)
    os.replace(temp, path)


def restore(cfg: TrainConfig, run: RunDir, progress: RunProgress, algo: Algorithm, game: Game,
            console: Console) -> tuple[str, ...]:
    """Re-create the league's modules, then load the newest intact RLlib checkpoint; returns the league.
    Each snapshot starts from its exported checkpoint's weights: RLlib's state is saved before the
    checkpoint it belongs to joins the league, so after a kill it lacks the newest snapshot."""
    league: tuple[str, ...] = ()
    keep_intact_snapshots(run, progress, game, console)
    if plays_snapshots(cfg):
        for rel in progress.snapshots:
            weights = module_weights(load_policy(run.abs(rel), game)[0])
            league = add_snapshot(algo, snapshot_id(steps_of(rel)), weights, league).snapshots
    for index in range(len(progress.checkpoints) - 1, -1, -1):
        steps = steps_of(progress.checkpoints[index])
        path = rllib_dir(run, steps)
        if not path.is_dir():
            console.print(f"[yellow]warning:[/] no RLlib checkpoint {run.rel(path)}; falling back")
            continue
        algo.restore_from_path(str(path.resolve()))
        for module_id in (MAIN, *league):  # runners must play the restored weights, not a stale copy
            push_weights(algo, module_id, learner_weights(algo, module_id))
        progress.checkpoints = progress.checkpoints[: index + 1]
        progress.steps = steps
        return league
    raise CheckpointError(f"{run.root}: no intact RLlib checkpoint to resume from; start a fresh run")


class LeagueRunLoop(RunLoop):
    """The shared run loop over an RLlib algorithm (the `model` its methods are handed)."""

    def __init__(self, cfg: TrainConfig, run: RunDir, record: RunProgress, game: Game, console: Console,
                 algo: Algorithm, league: tuple[str, ...], writer: SummaryWriter) -> None:
        super().__init__(cfg, run, record, game, console, True, self.join_league, self.log_scalar)
        self.algo, self.league, self.writer = algo, league, writer
        self.steps = record.steps

    def write(self, algo: Algorithm, path: Path, meta: CheckpointMeta) -> Path:
        """`main` exported as an SB3 checkpoint: it loads, evaluates and plays without Ray."""
        return export_weights(self.cfg, self.game, learner_weights(algo), path, meta)

    def playing_policy(self, algo: Algorithm) -> Any:
        """`main` as an SB3 policy; its weights are read from the learner, not a lagging runner copy."""
        return sb3_model(self.cfg, self.game, learner_weights(algo)).policy

    def save_checkpoint(self, algo: Algorithm, steps: int) -> Path:
        """RLlib's own state first (what `--resume` loads), then the shared checkpoint and its record;
        the newest KEPT_RLLIB_CHECKPOINTS RLlib states are kept."""
        save_algorithm(algo, rllib_dir(self.run, steps))
        path = super().save_checkpoint(algo, steps)
        for old in sorted((self.run.root / "rllib").glob("step_*"))[:-KEPT_RLLIB_CHECKPOINTS]:
            shutil.rmtree(old, ignore_errors=True)
        return path

    def join_league(self, checkpoint: str) -> None:
        """The pool's snapshot: a frozen copy of `main` joins the league as a module; the oldest beyond
        `keep` leaves (the run loop keeps the record's snapshot list the same way)."""
        module_id = snapshot_id(steps_of(checkpoint))
        if not plays_snapshots(self.cfg) or module_id in self.league:
            return
        self.league = add_snapshot(self.algo, module_id, learner_weights(self.algo), self.league).snapshots
        while len(self.league) > self.cfg.pool.keep:
            self.league = drop_snapshot(self.algo, self.league[0], self.league).snapshots

    def log_scalar(self, key: str, value: float) -> None:
        self.writer.add_scalar(key, value, self.steps)

    def iteration(self, result: dict[str, Any]) -> None:
        """One `algo.train()` result: its samples counted and its losses logged, then whatever is due."""
        self.steps += int(result["env_runners"]["num_env_steps_sampled"])
        returns = result.get("env_runners", {}).get("module_episode_returns_mean", {})
        if MAIN in returns:
            self.log_scalar("rollout/main_episode_return_mean", returns[MAIN])
        for key, value in result.get("learners", {}).get(MAIN, {}).items():
            if key in ("policy_loss", "vf_loss", "entropy", "total_loss") and isinstance(value, (int, float)):
                self.log_scalar(f"train/{key}", value)
        self.log_scalar("league/snapshots", len(self.league))
        self.after(self.algo, self.steps)


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
    run = RunDir(run_dir)
    writer = SummaryWriter(str(run.tensorboard / "rllib"))
    try:
        league: tuple[str, ...] = ()
        if progress.checkpoints:
            league = restore(cfg, run, progress, algo, game, console)
            console.print(f"resuming {cfg.game} from {progress.latest} at {progress.steps:,} samples")
        elif cfg.imitation is not None:
            _warm_start(cfg, game, algo, console)
        return _train(LeagueRunLoop(cfg, run, progress, game, console, algo, league, writer))
    finally:
        writer.close()
        algo.stop()
        if started_ray:
            ray.shutdown()


def _train(loop: LeagueRunLoop) -> TrainOutcome:
    with loop.interruptible():
        while loop.steps < loop.cfg.total_timesteps and not loop.stop_requested:
            loop.iteration(loop.algo.train())
    return loop.finish(loop.algo, loop.steps)  # remote env runners' own CPU is not counted


def _warm_start(cfg: TrainConfig, game: Game, algo: Algorithm, console: Console) -> None:
    """Imitate the scripted bot in an SB3 policy of the same architecture (the SB3 path's warm start),
    then hand its weights to `main`."""
    from ultimata.training.model import warm_start

    model = sb3_model(cfg, game, learner_weights(algo))
    warm_start(cfg, model, game, console)
    push_weights(algo, MAIN, module_weights(model.policy))
