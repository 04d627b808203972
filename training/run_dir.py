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
        """`rel` inside the run folder; CheckpointError for a path that leads out of it."""
        problem = self.outside(rel)
        if problem:
            raise CheckpointError(f"{self.progress_path}: {rel!r} {problem}")
        return str(self.root / rel)

    def outside(self, rel: str) -> str | None:
        """Why `rel` is not a path inside the run folder (absolute, `..`, a symlink leading out), or None."""
        path = Path(rel)
        if path.is_absolute() or ".." in path.parts or not path.parts:
            return "is not a path inside the run folder (absolute and '..' paths are refused)"
        try:
            (self.root / path).resolve().relative_to(self.root.resolve())
        except ValueError:
            return f"leads out of the run folder through a symlink; only files inside {self.root} are read"
        return None

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
        """The progress record, each field checked: a wrong type or a path leading out of the run folder
        is one CheckpointError naming the field, never a traceback later."""
        try:
            data = json.loads(self.progress_path.read_text())
        except FileNotFoundError:
            raise CheckpointError(f"{self.root} has no progress.json: nothing to resume") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
            raise CheckpointError(f"{self.progress_path} is corrupt: {err}") from None
        if not isinstance(data, dict):
            raise CheckpointError(f"{self.progress_path} is corrupt: it must hold a JSON object")
        unknown = sorted(set(data) - set(PROGRESS_FIELDS))
        if unknown or "game" not in data:
            what = f"unknown field(s) {', '.join(map(repr, unknown))}" if unknown else "no 'game' field"
            raise CheckpointError(f"{self.progress_path} is corrupt: {what}; "
                                  f"its fields are {', '.join(PROGRESS_FIELDS)}")
        for name, value in data.items():
            problem = PROGRESS_FIELDS[name][0](value)
            if problem is None and name in ("checkpoints", "snapshots"):
                problem = next((f"holds {rel!r}, which {why}" for rel in value if (why := self.outside(rel))), None)
            if problem is not None:
                raise CheckpointError(f"{self.progress_path}: field '{name}' {problem} "
                                      f"(it must be {PROGRESS_FIELDS[name][1]})")
        return Progress(**data)


def _is(kind: type | tuple[type, ...], test: Any = None) -> Any:
    """A check for one progress field: None when `value` is a `kind` (not a bool posing as a number)
    passing `test`, else what is wrong."""
    def check(value: Any) -> str | None:
        right = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
        return None if right and (test is None or test(value)) else f"is {value!r:.80}"
    return check


def _list_of(kind: type) -> Any:
    return _is(list, lambda items: all(isinstance(x, kind) and not isinstance(x, bool) for x in items))


PROGRESS_FIELDS: dict[str, tuple[Any, str]] = {
    "game": (_is(str), "an env name"),
    "steps": (_is(int, lambda n: n >= 0), "a whole number of samples, 0 or more"),
    "checkpoints": (_list_of(str), "a list of paths inside the run folder"),
    "snapshots": (_list_of(str), "a list of paths inside the run folder"),
    "evals": (_list_of(dict), "a list of evaluation records (objects)"),
    "finished": (_is(bool), "true or false"),
    "seconds": (_is((int, float), lambda x: x >= 0), "a number of seconds, 0 or more"),
}
"""Each field of progress.json: its check and, for the error, what it must be."""
