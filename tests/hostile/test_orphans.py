"""A training run killed with SIGKILL leaves no sampler worker behind: each worker closes the trainer's
end of its pipe, asks Linux for a parent-death signal, and polls for a vanished parent while it waits.

The run is real (`python -m ultimata train` with two sampler workers), the kill is the one a trainer cannot
catch, and the workers' PIDs are recorded before it: after a few seconds none of them may still run."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")

CONFIG = {
    "total_timesteps": 10_000_000,  # never reached: the run is killed once its workers sample
    "sampler": {"kind": "batched", "rollout": 256, "games": 8, "workers": 2},
    "checkpoint_every": 5_000_000,
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
    "pool": {"weights": {"heuristic": 0.5, "random": 0.5}, "keep": 1},
    "eval": {"every": 5_000_000, "games": 4, "final_games": 4},
    "imitation": None,
}
WAIT_SECONDS = 45
"""The most the test waits for the workers to start, and then for them to end: a bound, not a timing."""


def children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is `pid`."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[1] == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) from /proc/PID/stat, None for a process that is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rpartition(")")[2].split()[:2]
    return state, int(ppid)


def test_a_killed_training_run_leaves_no_worker(tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(CONFIG))
    run = subprocess.Popen(
        [sys.executable, "-m", "ultimata", "train", "ultimatum_cards_v3", "--config", str(config),
         "--out", str(tmp_path / "run")],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
            workers = children(run.pid)
            time.sleep(0.2)
        assert len(workers) >= 2, f"the workers never started (the run exited {run.poll()})"
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        deadline = time.monotonic() + WAIT_SECONDS
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = sorted(pid for pid in workers if alive(pid))
        assert left == [], f"workers {left} outlived their trainer"
    finally:
        for pid in [run.pid, *children(run.pid), *(p for p in workers if alive(p))]:  # this test's own, left
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        run.wait()
        run.stderr.close()
