"""An approximate best response to one frozen agent: the game's own training recipe, with that agent in
every other seat.

NashConv cannot be computed for games this large; the standard stand-in (PSRO and Stratego-scale work
report it) is to train a fresh learner against the frozen agent and measure how far it beats it. The
learner is trained by the ordinary trainer (`prepare_run`, `train`), so the recipe (network, PPO
settings, sampler) is the one the game's bots are trained with; only the opponent pool, the evaluation
and the start change: the pool is the agent alone (no snapshots, no mirror), the learner's seat rotates
every game, the periodic evaluation (the run's learning curve) plays the agent, and the learner starts from
scratch. A warm start from the scripted bot is an option only: a learner that starts as the scripted bot
scores what the scripted bot scores before it learns anything, so its figure measures the bot as much as
the agent (issue 53: 2.15x reported where the scripted bot alone scored 2.28x).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from ultimata.training.config import load_train_config
from ultimata.training.run_loop import TrainOutcome
from ultimata.training.trainer import prepare_run, train

UNLIMITED_STEPS = 10**12
"""total_timesteps of a run bounded by minutes instead: the clock stops it long before."""
CURVE_POINTS = 5
"""Periodic evaluations in a run of known length: its learning curve."""


def best_response_overrides(game: str, agent: str, seed: int, steps: int | None, *,
                            config_path: str | None = None, preset: str | None = None,
                            warm_start: bool = False) -> dict[str, Any]:
    """Config overrides that turn the game's recipe into a best response to `agent`.

    Every pool kind of the recipe gets weight 0 (a config's dicts merge key by key, so a kind left out
    would keep its weight) and the agent weight 1; the final table is cut to one rotation, since the
    exploit tool measures the learner afterwards in an arena of its own. A run bounded by minutes keeps the
    recipe's evaluation cadence. Without `warm_start` the recipe's imitation step is switched off."""
    base = load_train_config(game, config_path, preset)
    weights = {kind: 0.0 for kind in base.pool.weights}
    weights[agent] = 1.0
    overrides: dict[str, Any] = {
        "seed": seed,
        "pool": {"weights": weights, "keep": 1, "learner_seats": None},
        "eval": {"opponents": [agent], "final_games": 1},
    }
    if not warm_start:
        overrides["imitation"] = None
    total = steps if steps is not None else base.total_timesteps
    if total < UNLIMITED_STEPS:  # the learning curve gets CURVE_POINTS evaluations whatever the budget
        overrides["eval"]["every"] = max(1, total // CURVE_POINTS)
    if steps is not None:
        overrides["total_timesteps"] = steps
    return overrides


class _Deadline:
    """Stops a training run after `seconds` of wall clock, as Ctrl-C does: the run loop's own handler gets a
    SIGTERM, finishes the update in hand and saves a checkpoint. The signal is sent only while that handler is
    installed (the warm start before it and the code after it are not interrupted); a signal that arrives
    anyway meets the quiet handler installed here."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.fired = False
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._previous: Any = None

    def _quiet(self, signum: int, frame: Any) -> None:
        pass

    def __enter__(self) -> _Deadline:
        if self.seconds is None:
            return self
        self._previous = signal.signal(signal.SIGTERM, self._quiet)
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def _watch(self) -> None:
        if self._done.wait(self.seconds):
            return
        while not self._done.is_set():
            if signal.getsignal(signal.SIGTERM) not in (self._quiet, signal.SIG_DFL, signal.SIG_IGN, None):
                self.fired = True
                os.kill(os.getpid(), signal.SIGTERM)
                return
            self._done.wait(0.2)

    def __exit__(self, *exc: Any) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
            signal.signal(signal.SIGTERM, self._previous)


def train_best_response(game: str, agent: str, run_dir: Path, *, seed: int, steps: int | None = None,
                        minutes: float | None = None, config_path: str | None = None, preset: str | None = None,
                        console: Console | None = None, show_bar: bool = True,
                        warm_start: bool = False) -> tuple[TrainOutcome, bool, float]:
    """Train one best response; returns the outcome, whether the clock stopped it, and its wall seconds."""
    if minutes is not None and steps is None:
        steps = UNLIMITED_STEPS
    overrides = best_response_overrides(game, agent, seed, steps, config_path=config_path, preset=preset,
                                        warm_start=warm_start)
    cfg, progress = prepare_run(game, run_dir, config_path=config_path, preset=preset, overrides=overrides)
    began = time.perf_counter()
    with _Deadline(None if minutes is None else minutes * 60) as deadline:
        outcome = train(cfg, run_dir, progress, console=console, show_bar=show_bar)
    return outcome, deadline.fired, time.perf_counter() - began
