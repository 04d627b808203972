"""`ultimata train`: the checks on its options, the run folder, fresh or resumed, and the choice of
backend; the CLI parses the options and calls `run_train`.

Every refusal is an UltimataError raised before a run folder is made, which the CLI shows as one line.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.registry import game_class
from ultimata.training.config import ConfigWarning, TrainConfig


class TrainOptionError(UltimataError):
    """Options of `ultimata train` that are out of range or do not go together."""


INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C (or SIGTERM) after its checkpoint."""


@dataclass
class TrainRequest:
    """What `ultimata train` was asked, as given (None: not given)."""

    game: str
    config: str | None = None
    preset: str | None = None
    resume: str | None = None
    out: str | None = None
    steps: int | None = None
    backend: str = "sb3"
    num_env_runners: int | None = None
    address: str | None = None
    device: str | None = None
    seeds: int | None = None


def check(req: TrainRequest) -> None:
    """The options that cannot go together, an unknown game or backend, a missing extra or GPU."""
    if req.steps is not None and req.steps < 1:
        raise TrainOptionError(f"--steps must be a positive number of samples, got {req.steps}")
    if req.resume and (req.config or req.preset or req.out):
        raise TrainOptionError("--resume continues a run with its saved config; drop --config/--preset/--out")
    if req.backend not in ("sb3", "rllib"):
        raise TrainOptionError(f"unknown --backend {req.backend!r}; use sb3 or rllib")
    if req.backend == "sb3" and (req.num_env_runners is not None or req.address):
        raise TrainOptionError("--num-env-runners and --address are rllib options; add --backend rllib")
    if req.backend == "rllib":
        from ultimata.training.rllib import require_ray

        require_ray()
    game_class(req.game)  # an unknown game is named as such, before any preset or config is read
    if req.device is not None:
        from ultimata.training.hardware import resolve_device

        resolve_device(req.device)  # no CUDA for --device cuda: one clear error before any run folder is made
    if req.seeds is not None:
        if not 1 <= req.seeds <= 20:
            raise TrainOptionError(f"--seeds must be 1 to 20, got {req.seeds}")
        if req.resume or req.backend != "sb3":
            raise TrainOptionError("--seeds starts K new runs on the sb3 backend; continue one of them with --resume "
                             "OUT/seed_k, and drop --backend rllib")


def sampler_words(cfg: TrainConfig) -> str:
    """Where the samples come from, in a few words for the run's first line."""
    from ultimata.training.hardware import resolve_device, sampling_plan

    s = cfg.sampler
    device = resolve_device(cfg.device).type
    if s.kind == "array":
        return f"{s.games} games on the array engine, {s.rollout:,} samples per update on {device}"
    plan = sampling_plan(s.workers, s.games, cfg.torch_threads)
    where = "in this process" if plan.workers == 0 else \
        f"in {plan.workers} sampling process{'es' * (plan.workers > 1)}"
    return f"{plan.games} games {where}, {s.rollout:,} samples per update on {device}"


def run_train(req: TrainRequest, console: Console) -> int:
    """Check, then train one run (or `--seeds` runs); the exit status (0, or INTERRUPTED)."""
    check(req)
    run_dir = Path(req.resume or req.out or Path("runs") / req.game / datetime.now().strftime("%Y%m%d-%H%M%S"))
    if req.seeds is not None:
        return train_seeds(req, run_dir, console)
    return train_one(req, run_dir, console)


def train_one(req: TrainRequest, run_dir: Path, console: Console) -> int:
    from ultimata.report import training_table
    from ultimata.training.trainer import prepare_run, train

    overrides = {k: v for k, v in (("total_timesteps", req.steps), ("device", req.device)) if v is not None} or None
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", ConfigWarning)
        cfg, progress = prepare_run(req.game, run_dir, config_path=req.config, preset=req.preset,
                                    resume=bool(req.resume), overrides=overrides)
    for warning in said:
        console.print(f"[yellow]warning:[/] {escape(str(warning.message))}", soft_wrap=True)
    if req.steps is not None and req.resume:
        cfg.total_timesteps = req.steps
    if req.device is not None and req.resume:
        cfg.device = req.device
    if progress.finished and progress.steps >= cfg.total_timesteps:
        console.print(f"{run_dir} already finished at {progress.steps:,} samples; give --steps to train longer")
        return 0
    if req.backend == "rllib":
        from ultimata.training.rllib.trainer import train_rllib

        runners = cfg.rllib.num_env_runners if req.num_env_runners is None else req.num_env_runners
        console.print(f"training {req.game} for {cfg.total_timesteps:,} samples on RLlib: {runners} env runners, "
                      f"league {cfg.pool.weights}; run folder {run_dir}")
        outcome = train_rllib(cfg, run_dir, progress, console=console, num_env_runners=req.num_env_runners,
                              address=req.address)
    else:
        console.print(f"training {req.game} for {cfg.total_timesteps:,} samples: {sampler_words(cfg)}, "
                      f"pool {cfg.pool.weights}; run folder {run_dir}")
        outcome = train(cfg, run_dir, progress, console=console)
    if outcome.interrupted:
        again = "" if req.backend == "sb3" else " --backend rllib"
        console.print(f"interrupted at {outcome.steps:,} samples; checkpoint saved. Continue with:\n"
                      f"  ultimata train {req.game} --resume {run_dir}{again}")
        return INTERRUPTED
    console.print(f"{outcome.steps:,} samples at {outcome.steps_per_s:,.0f} samples/s; checkpoint {outcome.final}")
    console.print(training_table(req.game, outcome.results, "trained policy"))
    console.print(f"play against it:  ultimata play {req.game} --vs {outcome.final}")
    console.print(f"rate it:          ultimata arena {req.game} {outcome.final} heuristic --games 400")
    return 0


def train_seeds(req: TrainRequest, out: Path, console: Console) -> int:
    """`--seeds K`: K runs with seeds 0 to K-1 in OUT/seed_k, and the spread of their final tables."""
    from ultimata.envs.core.io import atomic_write_json
    from ultimata.train_seeds import seed_run, spread_table, summary
    from ultimata.training.trainer import prepare_run, train

    given: dict[str, Any] = {"total_timesteps": req.steps, "device": req.device}
    runs = []
    for k in range(req.seeds or 0):
        overrides = {"seed": k, **{key: value for key, value in given.items() if value is not None}}
        cfg, progress = prepare_run(req.game, out / f"seed_{k}", config_path=req.config, preset=req.preset,
                                    overrides=overrides)
        console.print(f"seed {k + 1} of {req.seeds}: training {req.game} for {cfg.total_timesteps:,} samples: "
                      f"{sampler_words(cfg)}; run folder {out / f'seed_{k}'}")
        outcome = train(cfg, out / f"seed_{k}", progress, console=console)
        if outcome.interrupted:
            console.print(f"interrupted at {outcome.steps:,} samples of seed {k}; continue it with:\n"
                          f"  ultimata train {req.game} --resume {out / f'seed_{k}'}")
            return INTERRUPTED
        runs.append(seed_run(k, outcome))
    recipe = {"config": req.config, "preset": req.preset, "steps": cfg.total_timesteps}
    data = summary(req.game, recipe, runs)
    atomic_write_json(out / "seeds.json", data)
    console.print(spread_table(data))
    console.print(f"summary in {out / 'seeds.json'}")
    return 0
