"""Sampling in processes of their own, so a second core plays games while the first updates the policy.

Each worker runs a `BatchedSampler` over its share of the game slots, with its own copy of the policy
(torch limited to one thread there).
The trainer asks every worker for its share of the next rollout *before* it updates on the current one,
so sampling and learning overlap; the next rollout is then played by the policy of one update before
(its samples carry that policy's log-probabilities, which is what PPO's ratio needs). With `workers: 0`
the sampler runs in the trainer's process and there is no lag.
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import resource
import signal
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ultimata.envs.core.registry import game_class
from ultimata.training.pool import OpponentPool
from ultimata.training.sampler import BatchedSampler, EpisodeStats, Rollout


@dataclass
class SamplerSpec:
    """All a sampler needs, picklable for a worker process."""

    game: str
    rules: dict[str, Any]
    pool_weights: dict[str, float]
    pool_keep: int
    pool_deterministic: bool
    seed: int
    shaping: float
    learner_seats: list[float] | None
    gamma: float
    gae_lambda: float
    slots: list[int]
    snapshots: list[str] = field(default_factory=list)

    def build(self, policy: Any) -> BatchedSampler:
        game = game_class(self.game).from_config(self.rules)
        pool = OpponentPool(game, self.pool_weights, self.pool_keep, self.pool_deterministic)
        for path in self.snapshots:
            pool.add_snapshot(path)
        return BatchedSampler(game, policy, pool, seed=self.seed, shaping=self.shaping,
                              learner_seats=self.learner_seats, gamma=self.gamma, gae_lambda=self.gae_lambda,
                              slots=self.slots)


@dataclass
class Batch:
    """One worker's share of a rollout, with what the logs and the bench want to know."""

    rollout: Rollout
    episodes: list[EpisodeStats]
    decisions: int
    cpu_seconds: float
    peak_rss_mb: float


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class InProcessSampler:
    """The sampler in the trainer's own process: no lag, one core."""

    def __init__(self, spec: SamplerSpec, policy: Any) -> None:
        self.sampler = spec.build(policy)

    def request(self, samples: int, weights: dict[str, Any] | None) -> None:
        self._samples = samples  # the policy object is shared, so the weights are already current

    def receive(self) -> Batch:
        sampler = self.sampler
        start, decisions = time.process_time(), sampler.decisions
        rollout = sampler.collect(self._samples)
        return Batch(rollout, sampler.take_episodes(), sampler.decisions - decisions, time.process_time() - start,
                     peak_rss_mb())

    def add_snapshot(self, path: str) -> None:
        self.sampler.pool.add_snapshot(path)

    def close(self) -> None:
        pass


PARENT_CHECK_SECONDS = 1.0
"""How often a waiting worker looks whether its trainer is still there."""


def die_with_parent(parent_pid: int) -> None:
    """Ask Linux to SIGKILL this process when the trainer dies (prctl PR_SET_PDEATHSIG), so a trainer
    killed with SIGKILL leaves no worker behind even mid-rollout. Elsewhere `_next_message`'s polling
    is what notices; a trainer already gone before the request took effect is noticed here."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the polling below still ends the worker
    if os.getppid() != parent_pid:
        os._exit(0)


PR_SET_PDEATHSIG = 1


def _next_message(conn: Any, parent_pid: int) -> Any:
    """The trainer's next request; EOFError once the trainer is gone (its pipe closed, or the worker
    re-parented: a trainer killed with SIGKILL closes nothing)."""
    while not conn.poll(PARENT_CHECK_SECONDS):
        if os.getppid() != parent_pid:
            raise EOFError("the trainer is gone")
    return conn.recv()


def _worker(conn: Any, spec: SamplerSpec, policy: Any, parent_pid: int, inherited: list[Any]) -> None:
    """One sampler worker. `inherited`: the trainer's ends of the pipes (this worker's and earlier ones'),
    which fork copied here; closed at once, or the worker's own end never sees EOF when the trainer dies."""
    for end in inherited:
        end.close()
    die_with_parent(parent_pid)
    torch.set_num_threads(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the trainer's: it checkpoints, then stops us
    try:
        sampler = spec.build(policy)
        while True:
            message = _next_message(conn, parent_pid)
            if message[0] == "snapshot":
                sampler.pool.add_snapshot(message[1])
                continue
            _, samples, weights = message
            if weights is not None:
                policy.load_state_dict({name: torch.from_numpy(array) for name, array in weights.items()})
            start, decisions = time.process_time(), sampler.decisions
            rollout = sampler.collect(samples)
            conn.send(Batch(rollout, sampler.take_episodes(), sampler.decisions - decisions,
                            time.process_time() - start, peak_rss_mb()))
    except (EOFError, BrokenPipeError, ConnectionResetError):  # the trainer is gone
        return
    except Exception:  # the trainer raises it with the worker's traceback
        conn.send(("error", traceback.format_exc()))


class WorkerSamplers:
    """`len(specs)` worker processes, each with its slots; their shares are joined into one rollout."""

    def __init__(self, specs: list[SamplerSpec], policy: Any) -> None:
        # fork, not spawn: spawn and forkserver re-import the user's main script in every worker, which
        # breaks any script without an `if __name__ == "__main__"` guard. The trainer forks them before it
        # starts threads of its own (tensorboard's writer, the progress bar).
        context = mp.get_context("fork")
        self.conns, self.processes = [], []
        for spec in specs:
            parent, child = context.Pipe()
            inherited = [parent, *self.conns]
            process = context.Process(target=_worker, args=(child, spec, policy, os.getpid(), inherited), daemon=True)
            process.start()
            child.close()
            self.conns.append(parent)
            self.processes.append(process)
        self.shares = [len(s.slots) for s in specs]

    def request(self, samples: int, weights: dict[str, Any] | None) -> None:
        total = sum(self.shares)
        counts = [samples * share // total for share in self.shares]
        counts[0] += samples - sum(counts)
        for conn, count in zip(self.conns, counts):
            conn.send(("collect", count, weights))

    def receive(self) -> Batch:
        batches = []
        for conn in self.conns:
            reply = conn.recv()
            if isinstance(reply, tuple) and reply[0] == "error":
                raise RuntimeError(f"a sampler worker failed:\n{reply[1]}")
            batches.append(reply)
        return Batch(Rollout.concat([b.rollout for b in batches]), [e for b in batches for e in b.episodes],
                     sum(b.decisions for b in batches), sum(b.cpu_seconds for b in batches),
                     sum(b.peak_rss_mb for b in batches))

    def add_snapshot(self, path: str) -> None:
        for conn in self.conns:
            conn.send(("snapshot", path))

    def close(self) -> None:
        """Workers hold nothing worth saving: stop them, even mid-rollout."""
        for process in self.processes:
            process.kill()
            process.join()
        for conn in self.conns:
            conn.close()


def policy_weights(policy: Any) -> dict[str, np.ndarray]:
    """The policy's weights as numpy arrays, a snapshot that travels to the workers as plain bytes. Tensors
    would travel as shared memory handed over by file descriptor (torch registers that with multiprocessing),
    through multiprocessing's resource_sharer, whose listener printed ConnectionResetError tracebacks when 15
    workers started on a 16-core machine; and shared memory is what a container's small /dev/shm lacks."""
    return {name: tensor.detach().to("cpu", torch.float32 if tensor.is_floating_point() else tensor.dtype).numpy()
            for name, tensor in policy.state_dict().items()}
