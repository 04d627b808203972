"""Speed of random masked play, as ratios against PettingZoo's connect_four_v3 measured in the same run."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.table import Table

from ultimata.envs.core.registry import GAMES, game_class, make, make_raw
from ultimata.envs.core.rng import Rng

ARRAY_ROWS = 4096
"""Rows of the array backend's CPU random play: past a few thousand a step costs the same per row."""
CUDA_ROWS = 65536

CLOCKS: dict[str, Any] = {"wall": time.perf_counter, "cpu": time.process_time}
"""`wall` is what a user waits; `cpu` is this process's own CPU time, which other jobs on a shared machine
barely move (the rounds still alternate, so both sides of a ratio share the same caches and clock speed)."""


def clock_named(name: str) -> Any:
    if name not in CLOCKS:
        raise ValueError(f"unknown clock {name!r}; allowed: {', '.join(CLOCKS)}")
    return CLOCKS[name]


def check_options(clock: str, games: list[str], train: str | None, device: str | None, steps: int | None) -> None:
    """Refuse `ultimata bench`'s bad options before anything is timed: a clock, a game or a device unknown, or
    a count of steps below 1 (ValueError or UltimataError naming it)."""
    clock_named(clock)
    for name in [*games, *([train] if train else [])]:
        game_class(name)
    if device is not None:
        from ultimata.training.hardware import resolve_device

        resolve_device(device)
    if steps is not None and steps < 1:
        raise ValueError(f"--steps must be at least 1, got {steps}")


def random_play_summary(results: list[BenchResult], steps: int, rounds: int, clock: str) -> dict[str, Any]:
    """`ultimata bench --json`: the settings of the run and every env's figures."""
    return {"steps": steps, "rounds": rounds, "clock": clock, "results": [r.as_dict() for r in results]}


@dataclass
class BenchResult:
    env: str
    aec_steps_per_s: float
    engine_decisions_per_s: float | None
    raw_steps_per_s: float
    aec_ratio: float = 1.0
    raw_ratio: float = 1.0
    game_lengths: list[int] | None = None
    """Decisions per random game, for a sample of games (games must end under random play)."""
    mcts_seconds: float | None = None
    """Seconds per decision of the `mcts` agent at its default budget (with --mcts)."""
    ratio_range: tuple[float, float] | None = None
    """The lowest and highest per-round env() ratio: how far one round could be trusted."""
    batch_decisions_per_s: float | None = None
    """Random play on `envs.batch(name, 64)`: decisions (rows stepped) per second."""
    batch_ratio: float | None = None
    """That rate over connect_four_v3's env() random play in the same rounds."""
    array_decisions_per_s: float | None = None
    """Random play on `envs.batch(name, ARRAY_ROWS, backend="array")` on the CPU, for games with an array engine."""
    array_ratio: float | None = None
    """That rate over connect_four_v3's env() random play in the same rounds."""
    array_cuda_decisions_per_s: float | None = None
    """The same at CUDA_ROWS rows on the GPU (wall clock), where torch sees one."""

    def length_summary(self) -> str:
        if not self.game_lengths:
            return ""
        lengths = np.asarray(self.game_lengths)
        return f"{np.median(lengths):,.0f} ({lengths.min():,}-{lengths.max():,})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "env": self.env,
            "aec_steps_per_s": round(self.aec_steps_per_s),
            "engine_decisions_per_s": self.engine_decisions_per_s and round(self.engine_decisions_per_s),
            "aec_ratio_vs_connect_four": round(self.aec_ratio, 2),
            "raw_steps_per_s": round(self.raw_steps_per_s),
            "aec_ratio_range": self.ratio_range and [round(r, 2) for r in self.ratio_range],
            "raw_ratio_vs_connect_four": round(self.raw_ratio, 2),
            "random_game_decisions": self.game_lengths,
            "mcts_seconds_per_decision": self.mcts_seconds and round(self.mcts_seconds, 3),
            "batch64_decisions_per_s": self.batch_decisions_per_s and round(self.batch_decisions_per_s),
            "batch64_ratio_vs_connect_four": self.batch_ratio and round(self.batch_ratio, 2),
            f"array{ARRAY_ROWS}_decisions_per_s": self.array_decisions_per_s and round(self.array_decisions_per_s),
            f"array{ARRAY_ROWS}_ratio_vs_connect_four": self.array_ratio and round(self.array_ratio, 2),
            f"array{CUDA_ROWS}_cuda_decisions_per_wall_s": self.array_cuda_decisions_per_s
            and round(self.array_cuda_decisions_per_s),
        }


class RandomPlay:
    """Random masked play through the full AEC API (last, step) that can be resumed chunk by chunk, so
    several envs can be timed in alternation. Episodes reset when they end; the dead steps after a game's
    end count as steps."""

    def __init__(self, env: Any, seed: int = 0, clock: str = "wall") -> None:
        self.env, self.seed, self.episode, self.clock = env, seed, 0, clock_named(clock)
        self.pick = random.Random(seed)
        env.reset(seed=seed)

    def seconds_for(self, steps: int) -> float:
        env, pick, clock = self.env, self.pick, self.clock
        start = clock()
        for _ in range(steps):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                if not env.agents or all(env.terminations.get(a) or env.truncations.get(a) for a in env.agents):
                    self.episode += 1
                    env.reset(seed=self.seed + self.episode)
                    continue
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[pick.randrange(len(legal))]))
        return clock() - start


class BatchRandomPlay:
    """Random masked play on `envs.batch(name, games)`, resumable chunk by chunk like RandomPlay; a step is
    one decision (one row), so its rate compares with an AEC env's steps."""

    def __init__(self, name: str, games: int = 64, seed: int = 0, clock: str = "wall") -> None:
        from ultimata.envs.batch import batch

        self.env, self.games, self.clock = batch(name, games, seed=seed), games, clock_named(clock)
        self.rng = np.random.default_rng(seed)
        _, self.mask, _ = self.env.reset()

    def seconds_for(self, steps: int) -> float:
        env, rng, clock = self.env, self.rng, self.clock
        start = clock()
        for _ in range(max(1, steps // self.games)):
            _, self.mask, *_ = env.step((rng.random(self.mask.shape) * self.mask).argmax(axis=1))
        return (clock() - start) * steps / (max(1, steps // self.games) * self.games)


class ArrayRandomPlay:
    """Random masked play on `envs.batch(name, games, backend="array")`, resumable like BatchRandomPlay: the
    actions are drawn on the engine's device, so a step is one batched program and nothing per game. On a GPU
    the wall clock is the one to read (the CPU only waits); the clock is synchronised before it is read."""

    def __init__(self, name: str, games: int = 1024, seed: int = 0, clock: str = "wall", device: str = "cpu") -> None:
        import torch

        from ultimata.envs.batch import batch

        self.torch, self.games, self.clock = torch, games, clock_named(clock)
        self.env = batch(name, games, seed=seed, backend="array", device=device)
        self.generator = torch.Generator(device=device).manual_seed(seed)
        _, self.mask, _ = self.env.reset()

    def _sync(self) -> None:
        if self.env.device.type == "cuda":
            self.torch.cuda.synchronize(self.env.device)

    def seconds_for(self, steps: int) -> float:
        torch, env, clock = self.torch, self.env, self.clock
        calls = max(1, steps // self.games)
        self._sync()
        start = clock()
        for _ in range(calls):
            noise = torch.rand(self.mask.shape, generator=self.generator, device=env.device)
            _, self.mask, *_ = env.step((noise * self.mask).argmax(1))
        self._sync()
        return (clock() - start) * steps / (calls * self.games)


def interleaved_rates(envs: dict[str, Any], steps: int, rounds: int, clock: str = "wall") -> dict[str, list[float]]:
    """Steps/s of each env in each round, the envs taking turns within a round. An env may also be a
    ready player (anything with `seconds_for(steps)`, such as BatchRandomPlay).

    A shared 2-core machine changes speed by tens of percent from one minute to the next; timing every env
    in short alternating chunks puts each ratio's two sides in the same seconds, so the median of the
    per-round ratios is far steadier than one long run per env."""
    players = {name: env if hasattr(env, "seconds_for") else RandomPlay(env, clock=clock)
               for name, env in envs.items()}
    chunk = max(1, steps // rounds)
    rates: dict[str, list[float]] = {name: [] for name in players}
    for _ in range(rounds):
        for name, player in players.items():
            rates[name].append(chunk / player.seconds_for(chunk))
    return rates


def engine_decisions_per_second(name: str, decisions: int, seed: int = 0, clock: str = "wall") -> float:
    """Random play on the rules engine alone: legal_action_mask + apply, no PettingZoo."""
    now = clock_named(clock)
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    state = game.new_initial_state(Rng(seed))
    episode = 0
    start = now()
    for _ in range(decisions):
        if state.is_terminal():
            episode += 1
            state = game.new_initial_state(Rng(seed + episode))
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    return decisions / (now() - start)


def random_game_lengths(name: str, games: int = 20, seed: int = 0) -> list[int]:
    """Decisions until a random game ends (its turn cap included), default rules."""
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    lengths = []
    for g in range(games):
        state = game.new_initial_state(Rng(seed + g))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
        lengths.append(state.decisions)
    return lengths


def mcts_seconds_per_decision(name: str, decisions: int = 20, seed: int = 0) -> float | None:
    """The `mcts` spec's default budget, timed on states from a random game; None if it cannot play."""
    from ultimata.agents.specs import load_agent
    from ultimata.envs.core.errors import ConfigError

    try:
        agent = load_agent("mcts", name, seed=seed)
    except ConfigError:
        return None
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    state, spent, timed = game.new_initial_state(Rng(seed)), 0.0, 0
    while timed < decisions:
        if state.is_terminal():
            state = game.new_initial_state(Rng(seed + timed + 1))
        mask = state.legal_action_mask()
        if mask.sum() > 1:
            start = time.perf_counter()
            agent.act(state.observation(state.current_player), mask, state)
            spent += time.perf_counter() - start
            timed += 1
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
    return spent / decisions


def run(
    steps: int = 20_000, names: list[str] | None = None, mcts: bool = False, rounds: int = 10, clock: str = "wall"
) -> list[BenchResult]:
    """Every env against connect_four_v3, in `rounds` interleaved rounds (median rates and median ratios)."""
    from pettingzoo.classic import connect_four_v3

    clock_named(clock)  # refuse an unknown clock before any timing starts
    names = names or list(GAMES)
    baseline = "connect_four_v3 (baseline)"
    wrapped_envs = {baseline: connect_four_v3.env(), **{n: make(n) for n in names}}
    raw_envs = {baseline: connect_four_v3.raw_env(), **{n: make_raw(n) for n in names}}
    wrapped = interleaved_rates(wrapped_envs, steps, rounds, clock)
    raw = interleaved_rates(raw_envs, steps, rounds, clock)
    batch_players = {n: BatchRandomPlay(n, clock=clock) for n in names}
    batched = interleaved_rates({baseline: connect_four_v3.env(), **batch_players}, steps, rounds, clock)
    arrayed, on_cuda = _array_rates(names, steps, rounds, clock, baseline)

    def median_ratio(rates: dict[str, list[float]], name: str) -> float:
        return float(np.median(np.asarray(rates[name]) / np.asarray(rates[baseline])))

    results = [BenchResult(baseline, float(np.median(wrapped[baseline])), None, float(np.median(raw[baseline])))]
    for name in names:
        results.append(BenchResult(
            name, float(np.median(wrapped[name])), engine_decisions_per_second(name, steps, clock=clock),
            float(np.median(raw[name])), median_ratio(wrapped, name), median_ratio(raw, name),
            random_game_lengths(name), mcts_seconds_per_decision(name) if mcts else None,
            ratio_range=(float(min(np.asarray(wrapped[name]) / np.asarray(wrapped[baseline]))),
                         float(max(np.asarray(wrapped[name]) / np.asarray(wrapped[baseline])))),
            batch_decisions_per_s=float(np.median(batched[name])), batch_ratio=median_ratio(batched, name),
            array_decisions_per_s=float(np.median(arrayed[name])) if name in arrayed else None,
            array_ratio=median_ratio(arrayed, name) if name in arrayed else None,
            array_cuda_decisions_per_s=on_cuda.get(name),
        ))
    return results


def _array_rates(names: list[str], steps: int, rounds: int, clock: str,
                 baseline: str) -> tuple[dict[str, list[float]], dict[str, float]]:
    """The array backend's random play for the games that have an array engine: on the CPU interleaved with
    connect_four (torch on one thread, as the other rows run), and on CUDA by the wall clock where present."""
    import torch
    from pettingzoo.classic import connect_four_v3

    from ultimata.envs.core.array.engine import games_with_array_engines

    with_engine = [n for n in names if n in games_with_array_engines()]
    if not with_engine:
        return {}, {}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        players = {n: ArrayRandomPlay(n, ARRAY_ROWS, clock=clock) for n in with_engine}
        rates = interleaved_rates({baseline: connect_four_v3.env(), **players}, max(steps, ARRAY_ROWS), rounds, clock)
    finally:
        torch.set_num_threads(threads)
    on_cuda = {}
    if torch.cuda.is_available():
        for n in with_engine:
            player = ArrayRandomPlay(n, CUDA_ROWS, clock="wall", device="cuda")
            player.seconds_for(CUDA_ROWS * 3)  # warm-up: kernels, caches
            on_cuda[n] = CUDA_ROWS * 20 / player.seconds_for(CUDA_ROWS * 20)
    return rates, on_cuda


def random_play_table(results: list, steps: int, rounds: int, clock: str, mcts: bool) -> Table:
    """`ultimata bench`'s table: each env's random-play speed and its ratio to connect_four's."""
    title = f"random masked play, {steps} steps each in {rounds} interleaved rounds (medians, {clock} clock)"
    table = Table(title=title)
    columns = ["env", "env() steps/s", "x connect_four", "x range", "raw_env steps/s", "x raw", "engine decisions/s",
               "batch(64) decisions/s", "x batch", "array(4096) decisions/s", "x array", "array CUDA decisions/s",
               "random game decisions: median (min-max)"]
    for column in columns + (["mcts s/decision"] if mcts else []):
        table.add_column(column, justify="right" if column != "env" else "left")
    for r in results:
        engine = "" if r.engine_decisions_per_s is None else f"{r.engine_decisions_per_s:,.0f}"
        table.add_row(
            r.env,
            f"{r.aec_steps_per_s:,.0f}",
            f"{r.aec_ratio:.2f}",
            "" if r.ratio_range is None else f"{r.ratio_range[0]:.2f}-{r.ratio_range[1]:.2f}",
            f"{r.raw_steps_per_s:,.0f}",
            f"{r.raw_ratio:.2f}",
            engine,
            "" if r.batch_decisions_per_s is None else f"{r.batch_decisions_per_s:,.0f}",
            "" if r.batch_ratio is None else f"{r.batch_ratio:.2f}",
            "" if r.array_decisions_per_s is None else f"{r.array_decisions_per_s:,.0f}",
            "" if r.array_ratio is None else f"{r.array_ratio:.2f}",
            "" if r.array_cuda_decisions_per_s is None else f"{r.array_cuda_decisions_per_s:,.0f}",
            r.length_summary(),
            *([f"{r.mcts_seconds:.3f}" if r.mcts_seconds is not None else "n/a"] if mcts else []),
        )
    return table
