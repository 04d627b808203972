"""MaskablePPO self-play runs: build the vector env, train, checkpoint, evaluate, resume.

Reads top to bottom: `train()` sets up (fresh or resumed), `_Callback` does the periodic work inside
SB3's loop (checkpoint -> pool snapshot -> progress record, evaluation, progress bar), and the end of
`train()` saves the final checkpoint and measures it against random and the scripted bot.
"""

from __future__ import annotations

import io
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor

from ultimata.agents.checkpoint import CheckpointMeta, save_checkpoint, verified_bytes
from ultimata.agents.scripted_agent import has_scripted_bot
from ultimata.envs.core.engine import Game
from ultimata.envs.core.errors import CheckpointError, ConfigError
from ultimata.envs.core.registry import game_class
from ultimata.training.arena import ArenaResult
from ultimata.training.config import TrainConfig, load_train_config
from ultimata.training.evaluate import evaluate_policy
from ultimata.training.features import features_policy_kwargs
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.selfplay_env import SelfPlayEnv


@dataclass
class TrainOutcome:
    run_dir: Path
    final: Path
    steps: int
    steps_per_s: float
    results: dict[str, ArenaResult]
    interrupted: bool = False


def _env_factory(cfg: TrainConfig, index: int) -> Callable[[], SelfPlayEnv]:
    def make() -> SelfPlayEnv:
        torch.set_num_threads(1)  # opponents' forward passes; keep workers from fighting over cores
        return SelfPlayEnv(
            cfg.game, cfg.rules, cfg.pool.weights, cfg.pool.keep, cfg.pool.deterministic,
            seed=cfg.seed, env_index=index, shaping=cfg.shaping, learner_seats=cfg.pool.learner_seats,
        )

    return make


def build_vec_env(cfg: TrainConfig) -> VecEnv:
    """`n_envs` self-play envs, in this process (dummy) or one subprocess each (subproc)."""
    factories = [_env_factory(cfg, i) for i in range(cfg.n_envs)]
    if cfg.vec_env == "subproc":
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # workers ignore Ctrl-C; we stop them
        try:
            venv: VecEnv = SubprocVecEnv(factories)
        finally:
            signal.signal(signal.SIGINT, previous)
    else:
        venv = DummyVecEnv(factories)
    return VecMonitor(venv)


def new_model(cfg: TrainConfig, venv: VecEnv, tb: Path | None, game: Game) -> MaskablePPO:
    """A fresh MaskablePPO with the config's network (tb: tensorboard folder, None for none)."""
    p = cfg.ppo
    policy_kwargs = {"net_arch": {"pi": list(p.net_arch), "vf": list(p.net_arch)},
                     **features_policy_kwargs(p.features, game, p.conv_channels, p.conv_out_channels, p.conv_scalars)}
    return MaskablePPO(
        "MlpPolicy", venv, learning_rate=p.learning_rate, n_steps=p.n_steps, batch_size=p.batch_size,
        n_epochs=p.n_epochs, gamma=p.gamma, gae_lambda=p.gae_lambda, clip_range=p.clip_range,
        ent_coef=p.ent_coef, vf_coef=p.vf_coef, max_grad_norm=p.max_grad_norm,
        policy_kwargs=policy_kwargs,
        tensorboard_log=str(tb) if tb else None, seed=cfg.seed, device="cpu", verbose=0,
    )


def eval_opponents(cfg: TrainConfig) -> list[str]:
    """The configured evaluation opponents, minus `heuristic` for a game without a scripted bot."""
    return [o for o in cfg.eval.opponents if o != "heuristic" or has_scripted_bot(cfg.game)]


class _Callback(BaseCallback):
    """Checkpoints, pool snapshots, evaluations and the progress bar, inside SB3's training loop."""

    def __init__(self, cfg: TrainConfig, run: RunDir, progress: RunProgress, game: Game,
                 bar: Progress | None, console: Console) -> None:
        super().__init__()
        self.cfg, self.run, self.record, self.game = cfg, run, progress, game
        self.bar, self.console = bar, console
        self.task = bar.add_task("training", total=cfg.total_timesteps, completed=progress.steps,
                                 sps="", rates="") if bar else None
        self.next_checkpoint = (progress.steps // cfg.checkpoint_every + 1) * cfg.checkpoint_every
        self.next_eval = (progress.steps // cfg.eval.every + 1) * cfg.eval.every
        self.report_every = max(1, cfg.total_timesteps // 20)
        self.next_report = (progress.steps // self.report_every + 1) * self.report_every
        self.stop_requested = False
        self._clock = (time.perf_counter(), progress.steps)
        self.steps_per_s = 0.0
        self.rates = ""
        self.critic_until = cfg.imitation.critic_steps if cfg.imitation is not None else 0

    def _on_training_start(self) -> None:
        if self.num_timesteps < self.critic_until:
            set_policy_frozen(self.model.policy, True)

    def _on_rollout_end(self) -> None:  # SB3 calls this just before each update
        if self.num_timesteps >= self.critic_until:
            set_policy_frozen(self.model.policy, False)

    def _on_step(self) -> bool:
        steps = self.num_timesteps
        now = time.perf_counter()
        if now - self._clock[0] >= 2.0:
            self.steps_per_s = (steps - self._clock[1]) / (now - self._clock[0])
            self._clock = (now, steps)
            self.logger.record("time/env_steps_per_s", self.steps_per_s)
        if steps >= self.next_checkpoint:
            self.save_checkpoint()
            self.next_checkpoint += self.cfg.checkpoint_every
        if steps >= self.next_eval:
            self.evaluate()
            self.next_eval += self.cfg.eval.every
        if self.bar is not None:
            self.bar.update(self.task, completed=steps, sps=f"{self.steps_per_s:,.0f} steps/s", rates=self.rates)
        elif steps >= self.next_report:  # no live bar (piped, CI): a plain line every 5% so logs show progress
            self.next_report += self.report_every
            total = self.cfg.total_timesteps
            self.console.print(f"{steps:,}/{total:,} steps ({steps / total:.0%}), {self.steps_per_s:,.0f} steps/s"
                               + (f", {self.rates}" if self.rates else ""), highlight=False, soft_wrap=True)
        return not self.stop_requested

    def save_checkpoint(self) -> Path:
        """Write the checkpoint, add it to every env's pool, then record it (the resume pointer)."""
        steps = self.num_timesteps
        path = save_checkpoint(self.model, self.run.checkpoint(steps), CheckpointMeta.for_game(self.game, steps))
        self.training_env.env_method("add_snapshot", str(path))
        rel = self.run.rel(path)
        record = self.record
        record.steps = steps
        if rel not in record.checkpoints:
            record.checkpoints.append(rel)
            record.snapshots = (record.snapshots + [rel])[-self.cfg.pool.keep :]
        self.run.save_progress(record)
        return path

    def evaluate(self) -> None:
        results = evaluate_policy(self.model.policy, self.game, eval_opponents(self.cfg), self.cfg.eval.games,
                                  seed=self.cfg.seed + 7_000_000)
        entry: dict[str, Any] = {"steps": self.num_timesteps}
        for spec, result in results.items():
            rate = result.agents[0].win_rate
            entry[spec] = round(rate, 4)
            self.logger.record(f"eval/win_rate_vs_{spec}", rate)
        self.record.evals.append(entry)
        self.rates = "  ".join(f"vs {k} {v:.0%}" for k, v in entry.items() if k != "steps")
        if self.bar is None:
            self.console.log(f"{self.num_timesteps:,} steps, {self.steps_per_s:,.0f} steps/s, {self.rates}")


def set_policy_frozen(policy: Any, frozen: bool) -> None:
    """Freeze (or thaw) every weight the action distribution depends on, shared features included, so
    PPO's updates train the value net alone (`imitation.critic_steps`)."""
    extractor = policy.features_extractor if policy.share_features_extractor else policy.pi_features_extractor
    for module in (extractor, policy.mlp_extractor.policy_net, policy.action_net):
        for parameter in module.parameters():
            parameter.requires_grad_(not frozen)


@contextmanager
def interruptible(bar: Progress | None, flag: Any) -> Iterator[None]:
    """Ctrl-C and SIGTERM set `flag.stop_requested` instead of killing the run (the loop then saves a
    checkpoint and stops); the progress bar shows meanwhile. Both handlers are restored afterwards."""

    def stop(signum: int, frame: Any) -> None:
        flag.stop_requested = True

    previous = signal.signal(signal.SIGINT, stop), signal.signal(signal.SIGTERM, stop)
    if bar is not None:
        bar.start()
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
        if bar is not None:
            bar.stop()


def progress_bar(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed:,}/{task.total:,}"),
        TextColumn("{task.fields[sps]}"), TextColumn("{task.fields[rates]}"), TimeElapsedColumn(),
        TimeRemainingColumn(), console=console, transient=False,
    )


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
    cfg = load_train_config(game_name, config_path, preset, overrides)
    run.write_config(cfg.model_dump(mode="json"))
    progress = RunProgress(game=game_name)
    run.save_progress(progress)
    return cfg, progress


def train(cfg: TrainConfig, run_dir: Path, progress: RunProgress, *, console: Console | None = None,
          show_bar: bool = True) -> TrainOutcome:
    console = console or Console()
    torch.set_num_threads(cfg.torch_threads)
    run = RunDir(run_dir)
    game = game_class(cfg.game).from_config(cfg.rules)
    venv = build_vec_env(cfg)
    torch.set_num_threads(cfg.torch_threads)  # in-process env factories set 1 for opponents; restore it
    try:
        if progress.latest:
            model = _load_latest_good(run, progress, venv, console)
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
        bar = progress_bar(console) if show_bar and console.is_terminal else None
        callback = _Callback(cfg, run, progress, game, bar, console)
        remaining = cfg.total_timesteps - model.num_timesteps
        progress.finished = progress.finished and remaining <= 0
        start_steps, start = model.num_timesteps, time.perf_counter()

        with interruptible(bar, callback):
            if remaining > 0:
                model.learn(remaining, callback=callback, reset_num_timesteps=False, tb_log_name="ppo",
                            progress_bar=False)
        elapsed = time.perf_counter() - start
        sps = (model.num_timesteps - start_steps) / elapsed if elapsed > 0 else 0.0
        if callback.stop_requested:
            callback.save_checkpoint()
            return TrainOutcome(run.root, run.abs(progress.latest), model.num_timesteps, sps, {}, interrupted=True)
        callback.save_checkpoint()
        with console.status("final evaluation against random and the scripted bot..."):
            results = evaluate_policy(model.policy, game, eval_opponents(cfg), cfg.eval.final_games,
                                      seed=cfg.seed + 9_000_000)
        meta = CheckpointMeta.for_game(game, model.num_timesteps, run=str(run.root), steps_per_s=round(sps))
        meta.rating = {spec: rating_summary(r) for spec, r in results.items()}
        final = save_checkpoint(model, run.final, meta)
        progress.finished = True
        run.save_progress(progress)
        return TrainOutcome(run.root, final, model.num_timesteps, sps, results)
    finally:
        venv.close()


def _load_latest_good(run: RunDir, progress: RunProgress, venv: VecEnv, console: Console) -> MaskablePPO:
    """The newest checkpoint that verifies and loads. A damaged one (a crash, a full disk) is named
    and skipped, and the run falls back to the one before; the progress record is trimmed to match."""
    for path in run.remove_temp_files():
        console.print(f"removed {run.rel(path)}, a temporary file left by an interrupted write", soft_wrap=True)
    for index in range(len(progress.checkpoints) - 1, -1, -1):
        rel = progress.checkpoints[index]
        try:
            data, meta = verified_bytes(run.abs(rel))
            model = MaskablePPO.load(io.BytesIO(data), env=venv, device="cpu")
        except CheckpointError as err:
            console.print(f"[yellow]warning:[/] {err}; falling back to the previous checkpoint", soft_wrap=True)
            continue
        except Exception as err:  # SB3 raises many kinds on a damaged zip
            console.print(f"[yellow]warning:[/] checkpoint {rel} does not load ({err}); falling back", soft_wrap=True)
            continue
        if index < len(progress.checkpoints) - 1:
            kept = set(progress.checkpoints[: index + 1])
            progress.checkpoints = progress.checkpoints[: index + 1]
            progress.snapshots = [s for s in progress.snapshots if s in kept]
            progress.steps = meta.steps
            progress.finished = False
            console.print(f"[yellow]warning:[/] resuming from {rel} at {meta.steps:,} steps", soft_wrap=True)
        return model
    raise CheckpointError(f"{run.root}: none of its {len(progress.checkpoints)} checkpoints is intact; "
                          "start a fresh run with --out")


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


def rating_summary(result: ArenaResult) -> dict[str, Any]:
    me = result.agents[0]
    return {"games": result.games, "win_rate": round(me.win_rate, 4), "ci95": [round(x, 4) for x in me.ci95],
            "x_fair_share": round(me.x_fair, 3), "mean_reward": round(me.mean_reward, 4)}
