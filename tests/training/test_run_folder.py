"""A new run never goes into a folder that holds other files: nothing of the user's is mixed with or
overwritten by the run's."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from ultimata.cli import app
from ultimata.envs.core.errors import CheckpointError
from ultimata.training.trainer import prepare_run

GAME = "ultimatum_cards_v3"


def test_a_new_run_refuses_a_folder_holding_other_files(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    with pytest.raises(CheckpointError, match="mine already holds notes.txt; a new run needs a new or empty folder"):
        prepare_run(GAME, folder)
    assert sorted(os.listdir(folder)) == ["notes.txt"], "nothing was written"
    result = CliRunner().invoke(app, ["train", GAME, "--out", str(folder), "--steps", "64"])
    assert result.exit_code == 2 and "already holds notes.txt" in result.output and "Traceback" not in result.output
    (tmp_path / "file").write_text("")
    with pytest.raises(CheckpointError, match="file is a file"):
        prepare_run(GAME, tmp_path / "file")
    empty = tmp_path / "empty"
    empty.mkdir()
    prepare_run(GAME, empty)
    assert (empty / "progress.json").exists()
