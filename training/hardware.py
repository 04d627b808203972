"""What the machine offers a training run: the device the update runs on, and the cores sampling may use.

Cores are the ones this process may run on (`os.sched_getaffinity`: a container or `taskset` may allow
fewer than the machine has), not `os.cpu_count()`. Oversubscribing them costs more than it looks: two
runs at two torch threads each on two cores fell from about 300 to 35 samples per second, so a plan that
asks for more threads than cores is said out loud once.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch

from ultimata.envs.core.errors import ConfigError


def usable_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def resolve_device(name: str) -> torch.device:
    """`auto` -> CUDA when torch sees a GPU, else CPU; `cuda` without one is refused with what to do."""
    if name not in ("auto", "cpu", "cuda"):
        raise ConfigError(f"unknown device {name!r}; allowed: auto, cpu, cuda")
    if name == "cuda" and not torch.cuda.is_available():
        raise ConfigError(f"device cuda was asked for, but torch {torch.__version__} sees no CUDA device on this "
                          "machine (a CPU build of torch, or no GPU); use --device cpu, or auto to take a GPU "
                          "only where there is one")
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


@dataclass(frozen=True)
class SamplingPlan:
    workers: int
    """Sampling processes (0: in the trainer's process)."""
    games: int
    """Games in play, over all workers."""
    warning: str | None = None
    """Set when torch threads times processes is more than the usable cores."""


def sampling_plan(workers: int | str, games: int, torch_threads: int, cores: int | None = None) -> SamplingPlan:
    """The workers and games a config's `sampler` asks for on this machine. `workers: auto` takes one per
    usable core less the learner's torch threads, and reads `games` as games per worker."""
    cores = usable_cores() if cores is None else cores
    if workers == "auto":
        count = max(0, cores - torch_threads)
        workers, games = count, games * max(1, count)
    warning = None
    if torch_threads + int(workers) > cores:  # each worker runs torch on one thread
        warning = (f"this run asks for {torch_threads} torch thread(s) in the trainer and {workers} sampling "
                   f"process(es), more than the {cores} core(s) it may use: they will wait on each other "
                   f"(lower torch_threads, or sampler.workers, or use workers: auto)")
    return SamplingPlan(int(workers), int(games), warning)
