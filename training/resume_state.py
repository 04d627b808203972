"""A run's resume state, read as data: handing someone a run folder is as safe as handing them a checkpoint.

What `--resume` needs of a checkpoint is in the zip SB3 writes (`save_resume_state`, agents/checkpoint.py's
`save_checkpoint`), each part in a form that loads without unpickling:

    policy.pth            the weights: a torch file of plain tensors, read with weights_only
    policy.optimizer.pth  the optimizer's state: plain tensors, numbers and lists, read with weights_only
    data                  JSON: the counters (`num_timesteps`, `_n_updates`) read as plain JSON values; its
                          pickled entries (policy class, spaces, schedules) are never read

The model itself is built from the run's own config.yaml (as a fresh run builds it), not from the zip's
pickles, so a crafted file in a run folder is refused with one line, like any checkpoint that is played.
A checkpoint from before this (an old run folder) has the same members, so it resumes the same way.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from ultimata.agents.checkpoint import CheckpointMeta, checked_archive, save_checkpoint, verified_bytes
from ultimata.agents.policy_net import check_tensors, load_tensors, read_weights
from ultimata.envs.core.errors import CheckpointError

OPTIMIZER_MEMBER = "policy.optimizer.pth"
DATA_MEMBER = "data"
MAX_DATA_BYTES = 16 * 1024 * 1024
"""SB3's `data` JSON is a few hundred KB at most (the training envs' last observations)."""
COUNTERS = ("num_timesteps", "_n_updates", "n_steps")


def save_resume_state(path: str | Path, model: Any, meta: CheckpointMeta) -> Path:
    """The learner at `path` as a checkpoint that resumes as data: SB3's zip, whose weights and
    optimizer state are plain-tensor torch files and whose counters are plain JSON."""
    return save_checkpoint(model, path, meta)


def load_resume_state(path: str | Path, build: Callable[[CheckpointMeta, int], Any]) -> tuple[Any, CheckpointMeta]:
    """The model `build(meta, n_steps)` makes (a fresh MaskablePPO from the run's config.yaml, with the
    checkpoint's rollout length), holding the checkpoint's weights, optimizer state and counters, nothing
    unpickled; CheckpointError names what does not fit."""
    data, meta = verified_bytes(path)
    where = f"checkpoint {Path(path).name}"
    weights = read_weights(data, where)
    with checked_archive(data, where) as archive:
        optimizer = load_tensors(_member(archive, OPTIMIZER_MEMBER, where, 512 * 1024 * 1024),
                                 f"{where}: its {OPTIMIZER_MEMBER}")
        counters = _counters(_member(archive, DATA_MEMBER, where, MAX_DATA_BYTES), where)
    model = build(meta, counters["n_steps"])
    policy = model.policy
    expected = {k: tuple(v.shape) for k, v in policy.state_dict().items()}
    if {k: tuple(v.shape) for k, v in weights.items()} != expected:
        raise CheckpointError(f"{where}: its weights do not fit the network the run's config.yaml describes")
    _check_optimizer(optimizer, policy, where)
    try:
        policy.load_state_dict(weights, strict=True)
        policy.optimizer.load_state_dict(optimizer)
    except (RuntimeError, ValueError, KeyError, TypeError) as err:
        raise CheckpointError(f"{where}: its training state does not load ({' '.join(str(err).split())[:200]})"
                              ) from None
    model.num_timesteps = counters["num_timesteps"]
    model._n_updates = counters["_n_updates"]
    return model, meta


def _member(archive: zipfile.ZipFile, name: str, where: str, cap: int) -> bytes:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise CheckpointError(f"{where} has no {name}: it holds no training state to resume from") from None
    if info.file_size > cap:
        raise CheckpointError(f"{where}: its {name} is {info.file_size:,} bytes, over the {cap:,} allowed")
    try:
        return archive.read(info)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError, NotImplementedError) as err:
        raise CheckpointError(f"{where} is corrupt: {err}") from None


def _counters(raw: bytes, where: str) -> dict[str, int]:
    """The counters from SB3's `data` JSON, as plain values; the entries SB3 pickled are not looked at."""
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise CheckpointError(f"{where}: its {DATA_MEMBER} is not JSON") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{where}: its {DATA_MEMBER} is not a JSON object")
    counters = {}
    for key in COUNTERS:
        value = data.get(key)
        if type(value) is not int or not 0 <= value < 2**62 or (key == "n_steps" and value == 0):
            raise CheckpointError(f"{where}: its {DATA_MEMBER} has no counter {key!r} (a whole number >= 0)")
        counters[key] = value
    return counters


def _check_optimizer(state: Any, policy: Any, where: str) -> None:
    """An optimizer state of the policy's own optimizer's shape: one group, one entry per parameter,
    each tensor dense, finite and the shape of its parameter (Adam's moments) or a scalar (its step)."""
    what = f"{where}: its {OPTIMIZER_MEMBER}"
    if not isinstance(state, dict) or set(state) != {"state", "param_groups"} or \
            not isinstance(state["state"], dict) or not isinstance(state["param_groups"], list):
        raise CheckpointError(f"{what} is not an optimizer state (state and param_groups)")
    shapes = [tuple(p.shape) for p in policy.parameters()]
    for index, entry in state["state"].items():
        if type(index) is not int or not 0 <= index < len(shapes) or not isinstance(entry, dict):
            raise CheckpointError(f"{what}: entry {index!r} is not one of the policy's {len(shapes)} parameters")
        tensors = {f"{index}.{k}": v for k, v in entry.items() if isinstance(v, torch.Tensor)}
        if len(tensors) != len(entry):
            raise CheckpointError(f"{what}: entry {index} holds values that are not tensors")
        check_tensors(tensors, what)
        for name, value in tensors.items():
            if value.dim() and tuple(value.shape) != shapes[index]:
                raise CheckpointError(f"{what}: {name} is {list(value.shape)}, its parameter "
                                      f"{list(shapes[index])}")
    for group in state["param_groups"]:
        if not isinstance(group, dict):
            raise CheckpointError(f"{what}: a parameter group is not a mapping")
        for key in ("lr", "eps"):
            value = group.get(key, 0.0)
            if type(value) not in (int, float) or not abs(value) < float("inf"):
                raise CheckpointError(f"{what}: its {key} is not a finite number")
