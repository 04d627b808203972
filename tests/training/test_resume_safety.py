"""A resume never strands a run: a damaged older pool snapshot is left out with a warning, a progress.json
of the wrong shape is one error naming the field, and its paths stay inside the run folder."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.training.test_resume_run import _interrupted_run
from ultimata.cli import app
from ultimata.envs.core.errors import CheckpointError
from ultimata.training.trainer import prepare_run, train

GAME = "ultimatum_cards_v3"


def test_a_damaged_older_snapshot_is_left_out_and_the_run_goes_on(tmp_path, monkeypatch, capsys):
    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=2)
    older = saved["snapshots"][0]
    assert older != saved["checkpoints"][-1] and len(saved["snapshots"]) == 2
    (run_dir / older).write_bytes(b"damaged on disk")
    cfg, progress = prepare_run(GAME, run_dir, resume=True)
    cfg.pool.weights = {"snapshots": 1.0}  # every opponent seat would draw the damaged snapshot half the time
    outcome = train(cfg, run_dir, progress, show_bar=False)
    printed = capsys.readouterr().out
    assert f"pool snapshot {older} is left out of the pool" in printed and "sha256" in printed
    assert not outcome.interrupted and outcome.steps >= 4096
    done = json.loads((run_dir / "progress.json").read_text())
    assert done["finished"] and older not in done["snapshots"]


def _progress(run_dir, **changes) -> None:
    path = run_dir / "progress.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **changes}))


@pytest.fixture()
def stopped_run(tmp_path, monkeypatch):
    return _interrupted_run(tmp_path, monkeypatch, checkpoints=1)[0]


@pytest.mark.parametrize(("change", "says"), [
    ({"steps": "4096"}, "field 'steps' is '4096' (it must be a whole number of samples, 0 or more)"),
    ({"steps": -1}, "field 'steps' is -1"),
    ({"checkpoints": "checkpoints/step_000000256.zip"}, "field 'checkpoints' is 'checkpoints"),
    ({"snapshots": [3]}, "field 'snapshots' is [3]"),
    ({"finished": "no"}, "field 'finished' is 'no' (it must be true or false)"),
    ({"evals": {"steps": 1}}, "field 'evals'"),
    ({"seconds": None}, "field 'seconds' is None"),
    ({"game": 7}, "field 'game' is 7"),
    ({"checkpoints": ["../elsewhere/step_000000256.zip"]}, "holds '../elsewhere/step_000000256.zip', which is not a "
                                                            "path inside the run folder"),
    ({"snapshots": ["/etc/passwd"]}, "holds '/etc/passwd', which is not a path inside"),
    ({"extra": 1}, "unknown field(s) 'extra'"),
])
def test_a_progress_record_of_the_wrong_shape_is_one_error_naming_the_field(stopped_run, change, says):
    _progress(stopped_run, **change)
    with pytest.raises(CheckpointError) as refused:
        prepare_run(GAME, stopped_run, resume=True)
    assert says in str(refused.value)
    result = CliRunner().invoke(app, ["train", GAME, "--resume", str(stopped_run)])
    assert result.exit_code == 2 and "Traceback" not in result.output and "progress.json" in result.output


def test_a_path_through_a_symlink_out_of_the_run_folder_is_refused(stopped_run, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (stopped_run / "elsewhere").symlink_to(outside, target_is_directory=True)
    _progress(stopped_run, snapshots=["elsewhere/step_000000256.zip"])
    with pytest.raises(CheckpointError, match="holds 'elsewhere/step_000000256.zip', which leads out of the run "
                                              "folder through a symlink"):
        prepare_run(GAME, stopped_run, resume=True)
    _progress(stopped_run, snapshots=[])
    (stopped_run / "inside").symlink_to(stopped_run / "checkpoints", target_is_directory=True)
    _progress(stopped_run, snapshots=["inside/step_000000256.zip"])
    assert prepare_run(GAME, stopped_run, resume=True)[1].snapshots == ["inside/step_000000256.zip"]
