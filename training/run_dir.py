"""A training run's folder: the resolved config, checkpoints, the progress record, tensorboard logs.

    <run>/config.yaml          the config the run was started with (resume reads it back)
    <run>/progress.json        steps, checkpoint list, pool snapshots, evaluation history; written
                               atomically after each checkpoint, it is the pointer `--resume` follows
    <run>/checkpoints/step_<steps>.zip + .json
    <run>/final.zip + .json    the end of the run
    <run>/tb/                  tensorboard
    <run>/curves.png           win rate against the evaluation opponents over samples and time
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ultimata.envs.core.errors import CheckpointError
from ultimata.envs.core.io import atomic_write_bytes, atomic_write_json


@dataclass
class Progress:
    game: str
    steps: int = 0
    checkpoints: list[str] = field(default_factory=list)
    snapshots: list[str] = field(default_factory=list)
    evals: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    seconds: float = 0.0
    """Wall-clock seconds of training so far, across resumes (the warm start not counted)."""

    @property
    def latest(self) -> str | None:
        return self.checkpoints[-1] if self.checkpoints else None


class RunDir:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @property
    def config_path(self) -> Path:
        return self.root / "config.yaml"

    @property
    def progress_path(self) -> Path:
        return self.root / "progress.json"

    @property
    def tensorboard(self) -> Path:
        return self.root / "tb"

    def checkpoint(self, steps: int) -> Path:
        return self.root / "checkpoints" / f"step_{steps:09d}.zip"

    @property
    def curves(self) -> Path:
        return self.root / "curves.png"

    @property
    def final(self) -> Path:
        return self.root / "final.zip"

    def rel(self, path: str | Path) -> str:
        return str(Path(path).resolve().relative_to(self.root.resolve()))

    def abs(self, rel: str) -> str:
        return str(self.root / rel)

    def write_config(self, data: dict[str, Any]) -> None:
        atomic_write_bytes(self.config_path, yaml.safe_dump(data, sort_keys=False).encode())

    def read_config(self) -> dict[str, Any]:
        if not self.config_path.exists():
            raise CheckpointError(f"{self.root} is not a training run (no config.yaml)")
        return yaml.safe_load(self.config_path.read_text()) or {}

    def save_progress(self, progress: Progress) -> None:
        atomic_write_json(self.progress_path, asdict(progress))

    def remove_temp_files(self) -> list[Path]:
        """Half-written files a killed run left behind (atomic writes name them `.<target>.<random>`)."""
        found = [p for folder in (self.root, self.root / "checkpoints") if folder.is_dir()
                 for p in folder.glob(".*.*.*") if p.is_file() and p.suffixes[0] in (".zip", ".json", ".yaml")]
        for path in found:
            path.unlink(missing_ok=True)
        return found

    def load_progress(self) -> Progress:
        try:
            data = json.loads(self.progress_path.read_text())
            return Progress(**data)
        except FileNotFoundError:
            raise CheckpointError(f"{self.root} has no progress.json: nothing to resume") from None
        except (OSError, json.JSONDecodeError, TypeError) as err:
            raise CheckpointError(f"{self.progress_path} is corrupt: {err}") from None
