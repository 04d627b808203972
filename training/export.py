"""Make a shippable copy of a checkpoint: optimizer state dropped, so the zip stays small.

    python -m training.export RUN/final.zip agents/pretrained/<game>.zip
"""

from __future__ import annotations

import sys
from pathlib import Path

from agents.checkpoint import load_model, read_meta, save_checkpoint
from envs.core.registry import game_class


def export_checkpoint(src: str | Path, dst: str | Path) -> Path:
    meta = read_meta(src)
    game = game_class(meta.game).from_config(meta.config)
    model, meta = load_model(src, game)
    meta.extra = {k: v for k, v in meta.extra.items() if k != "run"}  # a local path means nothing elsewhere
    return save_checkpoint(model, dst, meta, slim=True)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m training.export SRC.zip DST.zip")
    out = export_checkpoint(sys.argv[1], sys.argv[2])
    print(f"{out}: {out.stat().st_size / 1024:.0f} KiB")
