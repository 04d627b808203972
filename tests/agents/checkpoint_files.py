"""Checkpoint files altered on purpose: copied, their sidecar edited, a zip member replaced (the sidecar's
sha256 then made to match, as whoever crafts a file would)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any


def copy_checkpoint(src: Path, folder: Path, name: str = "c") -> Path:
    dst = folder / f"{name}.zip"
    shutil.copy(src, dst)
    shutil.copy(src.with_suffix(".json"), dst.with_suffix(".json"))
    return dst


def edit_sidecar(path: Path, drop: tuple[str, ...] = (), **changes: Any) -> None:
    side = path.with_suffix(".json")
    data = json.loads(side.read_text())
    data.update(changes)
    for key in drop:
        data.pop(key, None)
    side.write_text(json.dumps(data))


def replace_members(path: Path, members: dict[str, bytes | None]) -> None:
    """Rewrite the zip with `members` in place of (or added to) its own, None removing one, and the
    sidecar's sha256 to fit."""
    out = io.BytesIO()
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            if item.filename not in members:
                dst.writestr(item.filename, src.read(item))
        for name, data in members.items():
            if data is not None:
                dst.writestr(name, data)
    path.write_bytes(out.getvalue())
    edit_sidecar(path, sha256=hashlib.sha256(out.getvalue()).hexdigest())


def member(path: Path, name: str) -> bytes:
    with zipfile.ZipFile(path) as archive:
        return archive.read(name)
