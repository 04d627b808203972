"""Every place the batched trainer touches SB3's MaskablePPO beyond its public API, in one module.

The trainer samples and updates on its own but keeps SB3's model object, so a checkpoint is the same
MaskablePPO zip SB3 users load, and `--resume` keeps working. SB3 has no public way to advance a model
whose timesteps move outside `learn()`, so two of its private fields are set here: `_total_timesteps`
(saved in the zip, read by SB3's schedules) and `_n_updates` (saved in the zip and logged as
train/n_updates, as `learn()` keeps them).
"""

from __future__ import annotations

from typing import Any


def set_total_timesteps(model: Any, total: int) -> None:
    model._total_timesteps = total


def record_update(model: Any, stats: dict[str, float], epochs: int) -> None:
    """What `MaskablePPO.train()` would have logged and counted for an update made elsewhere."""
    model._n_updates += epochs
    for key, value in stats.items():
        model.logger.record(f"train/{key}", value)
    model.logger.record("train/n_updates", model._n_updates, exclude="tensorboard")
