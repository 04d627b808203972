"""The MaskablePPO model of a run: built from the config, warm-started from a teacher, reloaded from the
newest intact checkpoint, and frozen for the critic's first steps. Every training path uses these.

Resuming unpickles nothing: the model is built from the run's config.yaml and filled with the checkpoint's
weights, optimizer state and counters read as data (training/resume_state.py), from a checkpoint the run
folder's own progress.json names inside the folder given to `--resume` (training/run_dir.py refuses paths
leading out of it). Pool snapshots are opponents: they are loaded as data, like any checkpoint played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from ultimata.agents.checkpoint import check_compatible, load_policy
from ultimata.agents.features import features_policy_kwargs
from ultimata.agents.scripted_agent import has_scripted_bot
from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training.config import TrainConfig, load_train_config
from ultimata.training.resume_state import load_resume_state
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir


def new_model(cfg: TrainConfig, venv: VecEnv, tb: Path | None, game: Game, n_steps: int | None = None,
              device: Any = "cpu") -> MaskablePPO:
    """A fresh MaskablePPO with the config's network (tb: tensorboard folder, None for none; n_steps:
    the rollout length, default sampler.rollout; device: where its weights live)."""
    p = cfg.ppo
    policy_kwargs = {"net_arch": {"pi": list(p.net_arch), "vf": list(p.net_arch)},
                     **features_policy_kwargs(p.features, game, p.conv_channels, p.conv_out_channels, p.conv_scalars)}
    return MaskablePPO(
        "MlpPolicy", venv, learning_rate=p.learning_rate, n_steps=n_steps or cfg.sampler.rollout,
        batch_size=p.batch_size,
        n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda, clip_range=p.clip_range,
        ent_coef=p.ent_coef, vf_coef=p.vf_coef, max_grad_norm=p.max_grad_norm,
        policy_kwargs=policy_kwargs,
        tensorboard_log=str(tb) if tb else None, seed=cfg.seed, device=device, verbose=0,
    )


def set_policy_frozen(policy: Any, frozen: bool) -> None:
    """Freeze (or thaw) every weight the action distribution depends on, shared features included, so
    PPO's updates train the value net alone (`imitation.critic_steps`)."""
    extractor = policy.features_extractor if policy.share_features_extractor else policy.pi_features_extractor
    for module in (extractor, policy.mlp_extractor.policy_net, policy.action_net):
        for parameter in module.parameters():
            parameter.requires_grad_(not frozen)


def load_latest_good(run: RunDir, progress: RunProgress, venv: VecEnv, console: Console,
                     device: Any = "cpu") -> MaskablePPO:
    """The newest checkpoint that verifies and loads. A damaged one (a crash, a full disk) is named
    and skipped, and the run falls back to the one before; the progress record is trimmed to match, and
    pool snapshots that no longer load are left out of it (`keep_intact_snapshots`)."""
    for path in run.remove_temp_files():
        console.print(f"removed {run.rel(path)}, a temporary file left by an interrupted write", soft_wrap=True)
    for index in range(len(progress.checkpoints) - 1, -1, -1):
        rel = progress.checkpoints[index]
        try:
            model, meta = load_resume_state(run.abs(rel), _run_model(run, progress.game, rel, venv, device))
        except (CheckpointError, ConfigError) as err:
            console.print(f"[yellow]warning:[/] {escape(str(err))}; falling back to the previous checkpoint",
                          soft_wrap=True)
            continue
        if index < len(progress.checkpoints) - 1:
            kept = set(progress.checkpoints[: index + 1])
            progress.checkpoints = progress.checkpoints[: index + 1]
            progress.snapshots = [s for s in progress.snapshots if s in kept]
            progress.steps = meta.steps
            progress.finished = False
            console.print(f"[yellow]warning:[/] resuming from {escape(rel)} at {meta.steps:,} samples", soft_wrap=True)
        keep_intact_snapshots(run, progress, game_class(meta.game).from_config(meta.config), console)
        return model
    raise CheckpointError(f"{run.root}: none of its {len(progress.checkpoints)} checkpoints is intact; "
                          "start a fresh run with --out")


def _run_model(run: RunDir, game_name: str, rel: str, venv: VecEnv, device: Any) -> Any:
    """What a resumed model is built by: the run's config.yaml, as a fresh run is, checked against the
    checkpoint's sidecar (game, rules, spaces) before anything is loaded into it."""
    def build(meta: Any, n_steps: int) -> MaskablePPO:
        cfg = load_train_config(game_name, run.config_path)
        game = game_class(cfg.game).from_config(cfg.rules)
        check_compatible(meta, game, rel)
        return new_model(cfg, venv, run.tensorboard, game, n_steps=n_steps, device=device)
    return build


def keep_intact_snapshots(run: RunDir, progress: RunProgress, game: Game, console: Console) -> None:
    """Leave out of the pool each snapshot that no longer loads, with a warning naming it: an older
    checkpoint damaged on disk must not stop a resume whose newest checkpoint is fine."""
    kept = []
    for rel in progress.snapshots:
        try:
            load_policy(run.abs(rel), game)
        except CheckpointError as err:
            console.print(f"[yellow]warning:[/] pool snapshot {escape(rel)} is left out of the pool: "
                          f"{escape(str(err))}", soft_wrap=True)
            continue
        kept.append(rel)
    progress.snapshots = kept


def warm_start(cfg: TrainConfig, model: MaskablePPO, game: Game, console: Console) -> None:
    from rich.progress import Progress

    from ultimata.training.imitation import DaggerPlan, imitate

    im = cfg.imitation
    if im.teacher in ("heuristic", "scripted") and not has_scripted_bot(cfg.game):
        raise ConfigError(f"imitation needs a scripted bot for {cfg.game}; set imitation: null")
    dagger = DaggerPlan(im.dagger_rounds, im.dagger_samples, im.dagger_epochs, tuple(im.dagger_opponents))

    def said(round_: int, agreement: float) -> None:
        console.print(f"DAgger round {round_}/{im.dagger_rounds}: on its own {im.dagger_samples:,} positions the "
                      f"policy made {im.teacher}'s move {agreement:.1%} of the time; refitting")

    with Progress(console=console, transient=True) as bar:
        tasks: dict[int, Any] = {}

        def gathered(round_: int, n: int) -> None:
            if round_ not in tasks:
                tasks[round_] = bar.add_task(
                    f"DAgger round {round_}: {im.teacher} labels the policy's positions" if round_
                    else f"warm start: {im.teacher}'s moves", total=im.dagger_samples if round_ else im.samples)
            bar.update(tasks[round_], completed=n)

        stats = imitate(model.policy, game, im.samples, im.epochs, seed=cfg.seed, lr=im.learning_rate,
                        teacher=im.teacher, progress=gathered, dagger=dagger, on_round=said)
    console.print(f"warm start: {stats['samples']:,} decisions, {stats['accuracy']:.1%} of {im.teacher}'s moves "
                  "matched")
