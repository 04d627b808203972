"""`ultimata bench --train GAME`: learner samples per second of the training paths, back to back on the
game's own config, next to PettingZoo's connect_four_v3 random play measured in the same run.

Each path runs the real trainer (sampling, PPO updates, pool snapshots) on a temporary run folder, with
the warm start and periodic evaluation switched off so that only self-play is timed. CPU time counts
the trainer and its sampler workers, so a path that uses two cores is not flattered by the wall clock.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ultimata.bench import RandomPlay

PATHS: dict[str, dict[str, Any]] = {
    "batched, in-process": {"sampler": {"kind": "batched", "workers": 0}},
    "batched, 1 worker": {"sampler": {"kind": "batched", "workers": 1}},
}
"""The samplers compared on the one trainer: the batched sampler without and with a sampling process (the
default). The retired paths (SB3's learn(), MaskablePPO.train() as the update) keep their figures in
BENCHMARKS.md."""
ARRAY_POOL = {"weights": {"mirror": 0.5, "snapshots": 0.3, "random": 0.2, "heuristic": 0.0}}
ARRAY_PATHS: dict[str, dict[str, Any]] = {
    "array, 1024 games, 2 epochs of 4096": {"sampler": {"kind": "array", "games": 1024, "rollout": 16384},
                                            "ppo": {"n_epochs": 2, "batch_size": 4096}, "pool": ARRAY_POOL},
    "array, 1024 games, 1 epoch of 4096": {"sampler": {"kind": "array", "games": 1024, "rollout": 16384},
                                           "ppo": {"n_epochs": 1, "batch_size": 4096}, "pool": ARRAY_POOL},
}
"""For a game with an array engine: the array sampler, its update tuned for a CPU (fewer, larger
minibatches over a larger rollout), and a pool it can seat on tensors (the scripted bot's share to mirror,
snapshots and random)."""


@dataclass
class TrainBenchRow:
    path: str
    samples: int
    wall_seconds: float
    cpu_seconds: float
    peak_rss_mb: float

    @property
    def per_wall_second(self) -> float:
        return self.samples / self.wall_seconds

    @property
    def per_cpu_second(self) -> float:
        return self.samples / self.cpu_seconds

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "samples_per_wall_s": round(self.per_wall_second),
                "samples_per_cpu_s": round(self.per_cpu_second)}


def bench_overrides(steps: int, extra: dict[str, Any]) -> dict[str, Any]:
    """The config's own recipe, timed on self-play alone: no warm start, no evaluation until the end
    (where one game is played), snapshots every third of the run so the pool holds network opponents."""
    return {"total_timesteps": steps, "imitation": None, "checkpoint_every": max(1, steps // 3),
            "eval": {"every": 10**12, "games": 1, "final_games": 1, "opponents": ["random"]}, **extra}



def measure_path(game: str, steps: int, extra: dict[str, Any], config: str | None = None,
                 device: str | None = None) -> TrainBenchRow:
    from ultimata.training.trainer import prepare_run, train

    overrides = bench_overrides(steps, extra)
    if device is not None:
        overrides["device"] = device
    with tempfile.TemporaryDirectory() as folder:
        run_dir = Path(folder) / "run"
        cfg, progress = prepare_run(game, run_dir, config_path=config, overrides=overrides)
        outcome = train(cfg, run_dir, progress, console=Console(quiet=True), show_bar=False)
    wall = outcome.steps / outcome.steps_per_s if outcome.steps_per_s else float("nan")
    return TrainBenchRow("", outcome.steps, wall, outcome.cpu_seconds, outcome.peak_rss_mb)


def connect_four_cpu_rate(steps: int = 20_000) -> float:
    """PettingZoo's connect_four_v3, random masked play through env(): steps per CPU second."""
    from pettingzoo.classic import connect_four_v3

    return steps / RandomPlay(connect_four_v3.env(), clock="cpu").seconds_for(steps)


def run_train_bench(game: str, steps: int, paths: dict[str, dict[str, Any]] | None = None,
                    config: str | None = None, on_row: Callable[[TrainBenchRow], None] | None = None,
                    device: str | None = None) -> tuple[list[TrainBenchRow], float]:
    """Each path in turn, then connect_four's rate; (rows, connect_four steps per CPU second)."""
    rows = []
    if paths is None:
        from ultimata.envs.core.array.engine import games_with_array_engines

        paths = {**PATHS, **(ARRAY_PATHS if game in games_with_array_engines() else {})}
    for label, extra in paths.items():
        start = time.perf_counter()
        row = measure_path(game, steps, extra, config, device)
        row.path = label
        if row.wall_seconds != row.wall_seconds:  # nan: too short to time
            row.wall_seconds = time.perf_counter() - start
        rows.append(row)
        if on_row is not None:
            on_row(row)
    return rows, connect_four_cpu_rate()


def train_bench_summary(game: str, steps: int, rows: list[TrainBenchRow], connect_four: float) -> dict[str, Any]:
    """`ultimata bench --train --json`: every training path's figures beside connect_four's random play."""
    return {"game": game, "steps": steps, "connect_four_random_steps_per_cpu_s": round(connect_four),
            "paths": [r.as_dict() for r in rows]}


def train_bench_table(game: str, steps: int, rows: list[TrainBenchRow], connect_four: float) -> Table:
    """`ultimata bench --train`'s table: each sampler's learner samples per second, against the first row and
    connect_four's random play."""
    base = rows[0].per_cpu_second
    table = Table(title=f"{game}: learner samples per second, {steps:,} samples per path, self-play only "
                        f"(connect_four_v3 random play: {connect_four:,.0f} steps per CPU second)")
    for column in ("path", "samples/s (wall)", "samples/s (CPU)", "x first path (CPU)", "x connect_four (CPU)",
                   "peak RSS MB"):
        table.add_column(column, justify="left" if column == "path" else "right")
    for r in rows:
        table.add_row(r.path, f"{r.per_wall_second:,.0f}", f"{r.per_cpu_second:,.0f}",
                      f"{r.per_cpu_second / base:.2f}", f"{r.per_cpu_second / connect_four:.2f}",
                      f"{r.peak_rss_mb:,.0f}")
    return table
