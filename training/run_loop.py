"""What every training path does around its updates: checkpoints that join the opponent pool, periodic
evaluation, progress on screen, and the final checkpoint with its rating table.

The batched trainer calls `RunLoop.after` once per update; the SB3 `learn()` path calls it from a
callback after every env step; the RLlib backend once per `algo.train()` iteration, through a subclass
that saves and evaluates its own kind of model (training/rllib/trainer.py). All write the same run
folder (training/run_dir.py), so `--resume`, the pool and the reports do not care which path trained a run.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ultimata.agents.checkpoint import CheckpointMeta, save_checkpoint
from ultimata.agents.scripted_agent import has_scripted_bot
from ultimata.envs.core.engine import Game
from ultimata.training.arena import ArenaResult
from ultimata.training.config import TrainConfig
from ultimata.training.curves import plot_progress
from ultimata.training.evaluate import evaluate_policy
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.sampler_workers import peak_rss_mb


@dataclass
class TrainOutcome:
    run_dir: Path
    final: Path
    steps: int
    steps_per_s: float
    results: dict[str, ArenaResult]
    interrupted: bool = False
    cpu_seconds: float = 0.0
    """CPU time of the training loop (final evaluation excluded), sampler workers included."""
    peak_rss_mb: float = 0.0
    """Peak resident memory of the trainer plus its sampler workers."""


def eval_opponents(cfg: TrainConfig) -> list[str]:
    """The configured evaluation opponents, minus `heuristic` for a game without a scripted bot."""
    return [o for o in cfg.eval.opponents if o != "heuristic" or has_scripted_bot(cfg.game)]


def progress_bar(console: Console) -> Progress:
    """The bar, the samples done of the total, the run's own rate, the time left at that rate, the latest
    evaluation's rates and the time so far."""
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), TaskProgressColumn(),
        TextColumn("{task.completed:,}/{task.total:,} samples"), TextColumn("{task.fields[sps]}"),
        TextColumn("{task.fields[left]}"), TextColumn("{task.fields[rates]}"), TimeElapsedColumn(),
        console=console, transient=False,
    )


def time_left(seconds: float | None) -> str:
    """'about 4 min 10 s left', or '' while there is no rate to go by."""
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return ""
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    said = f"{hours} h {minutes} min" if hours else f"{minutes} min {secs} s" if minutes else f"{secs} s"
    return f"about {said} left"


def rating_summary(result: ArenaResult) -> dict[str, Any]:
    me = result.agents[0]
    return {"games": result.games, "win_rate": round(me.win_rate, 4), "ci95": [round(x, 4) for x in me.ci95],
            "x_fair_share": round(me.x_fair, 3), "mean_reward": round(me.mean_reward, 4)}


class RunLoop:
    """Checkpoint and evaluation timing, the progress record and display, and the end of a run.

    `add_snapshot(path)` hands each new checkpoint to the opponent pool; `log(key, value)` writes a
    scalar to the run's tensorboard log. `model` is whatever the trainer learns with: an SB3 model here;
    a backend with another kind overrides `write` and `playing_policy`."""

    def __init__(self, cfg: TrainConfig, run: RunDir, record: RunProgress, game: Game, console: Console,
                 show_bar: bool, add_snapshot: Callable[[str], None], log: Callable[[str, float], None]) -> None:
        self.cfg, self.run, self.record, self.game = cfg, run, record, game
        self.console = console
        bar = self.bar = progress_bar(console) if show_bar and console.is_terminal else None
        self.add_snapshot, self.log = add_snapshot, log
        record.finished = record.finished and record.steps >= cfg.total_timesteps  # a finished run trained longer
        self.task = bar.add_task("training", total=cfg.total_timesteps, completed=record.steps,
                                 sps="", left="", rates="") if bar else None
        self.next_checkpoint = (record.steps // cfg.checkpoint_every + 1) * cfg.checkpoint_every
        self.next_eval = (record.steps // cfg.eval.every + 1) * cfg.eval.every
        self.report_every = max(1, cfg.total_timesteps // 20)
        self.next_report = (record.steps // self.report_every + 1) * self.report_every
        self.stop_requested = False
        now = time.perf_counter()
        self._started = now - record.seconds
        self._clock = (now, record.steps)
        self._session = (now, time.process_time(), record.steps)
        """Where this session's speed and CPU are measured from (the warm start, made before, excluded)."""
        self.steps_per_s = 0.0
        self.rates = ""

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """Ctrl-C and SIGTERM set `stop_requested` instead of killing the run (the trainer then calls
        `finish`, which saves a checkpoint); the progress bar shows meanwhile. Both handlers are restored
        afterwards."""

        def stop(signum: int, frame: Any) -> None:
            self.stop_requested = True

        previous = signal.signal(signal.SIGINT, stop), signal.signal(signal.SIGTERM, stop)
        if self.bar is not None:
            self.bar.start()
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous[0])
            signal.signal(signal.SIGTERM, previous[1])
            if self.bar is not None:
                self.bar.stop()

    def after(self, model: Any, steps: int) -> None:
        """Called as training advances to `steps` samples: whatever is due now."""
        now = time.perf_counter()
        if now - self._clock[0] >= 2.0:
            self.steps_per_s = (steps - self._clock[1]) / (now - self._clock[0])
            self._clock = (now, steps)
            self.log("time/env_steps_per_s", self.steps_per_s)
        left = time_left(self.seconds_left(steps, now))
        if steps >= self.next_checkpoint:
            self.save_checkpoint(model, steps)
            self.next_checkpoint = (steps // self.cfg.checkpoint_every + 1) * self.cfg.checkpoint_every
        if steps >= self.next_eval:
            self.evaluate(self.playing_policy(model), steps)
            self.next_eval = (steps // self.cfg.eval.every + 1) * self.cfg.eval.every
        if self.bar is not None:
            self.bar.update(self.task, completed=steps, sps=f"{self.steps_per_s:,.0f} samples/s", left=left,
                            rates=self.rates)
        elif steps >= self.next_report:  # no live bar (piped, CI): a plain line every 5% so logs show progress
            self.next_report = (steps // self.report_every + 1) * self.report_every
            total = self.cfg.total_timesteps
            self.console.print(f"{steps:,}/{total:,} samples ({min(steps / total, 1.0):.0%}), {self.steps_per_s:,.0f} "
                               "samples/s" + (f", {left}" if left else "") + (f", {self.rates}" if self.rates else ""),
                               highlight=False, soft_wrap=True)

    def seconds_left(self, steps: int, now: float) -> float | None:
        """The time to the total at this session's own rate so far (its samples over its wall time: the
        warm start excluded, evaluations and checkpoints included, as they will recur); None before the
        first samples."""
        began, _, first_steps = self._session
        done, elapsed = steps - first_steps, now - began
        if done <= 0 or elapsed <= 0:
            return None
        return max(0, self.cfg.total_timesteps - steps) * elapsed / done

    def write(self, model: Any, path: Path, meta: CheckpointMeta) -> Path:
        """The learner as an ultimata checkpoint (.zip + sidecar) at `path`."""
        return save_checkpoint(model, path, meta)

    def playing_policy(self, model: Any) -> Any:
        """The learner's policy as the arena plays it."""
        return model.policy

    def save_checkpoint(self, model: Any, steps: int) -> Path:
        """Write the checkpoint, add it to the pool, then record it (the resume pointer)."""
        path = self.write(model, self.run.checkpoint(steps), CheckpointMeta.for_game(self.game, steps))
        self.add_snapshot(str(path))
        rel = self.run.rel(path)
        record = self.record
        record.steps = steps
        record.seconds = round(time.perf_counter() - self._started, 1)
        if rel not in record.checkpoints:
            record.checkpoints.append(rel)
            record.snapshots = (record.snapshots + [rel])[-self.cfg.pool.keep :]
        self.run.save_progress(record)
        return path

    def evaluate(self, policy: Any, steps: int) -> None:
        """Win rates against the evaluation opponents, into the record, tensorboard and the display (a
        line only when there is no live bar: the periodic progress line carries the rates otherwise)."""
        results = evaluate_policy(policy, self.game, eval_opponents(self.cfg), self.cfg.eval.games,
                                  seed=self.cfg.seed + 7_000_000)
        entry: dict[str, Any] = {"steps": steps, "seconds": round(time.perf_counter() - self._started, 1)}
        for spec, result in results.items():
            me = result.agents[0]
            entry[spec] = round(me.win_rate, 4)
            entry[f"{spec}_ci95"] = [round(x, 4) for x in me.ci95]
            self.log(f"eval/win_rate_vs_{spec}", me.win_rate)
        self.record.evals.append(entry)
        self.rates = "  ".join(f"vs {spec} {r.agents[0].win_rate:.0%}" for spec, r in results.items())
        plot_progress([(self.run.root.name, self.record)], self.run.curves)

    def finish(self, model: Any, steps: int, worker_cpu_seconds: float = 0.0,
               worker_peak_rss_mb: float = 0.0) -> TrainOutcome:
        """The session's speed and CPU (this process's, plus the workers' it is told of), the last
        checkpoint; unless stopped, the final evaluation and `final.zip` with its ratings."""
        began, cpu_began, first_steps = self._session
        elapsed = time.perf_counter() - began
        steps_per_s = (steps - first_steps) / elapsed if elapsed > 0 else 0.0
        cost = {"cpu_seconds": time.process_time() - cpu_began + worker_cpu_seconds,
                "peak_rss_mb": peak_rss_mb() + worker_peak_rss_mb}
        self.save_checkpoint(model, steps)
        if self.stop_requested:
            return TrainOutcome(self.run.root, Path(self.run.abs(self.record.latest)), steps, steps_per_s, {},
                                interrupted=True, **cost)
        cfg = self.cfg
        with self.console.status("final evaluation against random and the scripted bot..."):
            results = evaluate_policy(self.playing_policy(model), self.game, eval_opponents(cfg),
                                      cfg.eval.final_games, seed=cfg.seed + 9_000_000)
        meta = CheckpointMeta.for_game(self.game, steps, run=str(self.run.root), steps_per_s=round(steps_per_s))
        meta.rating = {spec: rating_summary(r) for spec, r in results.items()}
        final = self.write(model, self.run.final, meta)
        self.record.finished = True
        self.run.save_progress(self.record)
        return TrainOutcome(self.run.root, final, steps, steps_per_s, results, **cost)
