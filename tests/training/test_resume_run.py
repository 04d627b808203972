"""An interrupted run continues with --resume: step count, checkpoints, pool and tensorboard carry on."""

from __future__ import annotations

import json
import os
import signal

import pytest

from tests.training.conftest import tiny_overrides
from ultimata.agents.checkpoint import read_meta
from ultimata.envs.core.errors import CheckpointError
from ultimata.training.run_loop import RunLoop
from ultimata.training.trainer import prepare_run, train


def test_ctrl_c_saves_a_checkpoint_and_resume_finishes_the_run(tmp_path, monkeypatch):
    run_dir = tmp_path / "run"
    overrides = tiny_overrides(total_timesteps=512, eval={"every": 10**6, "games": 4, "final_games": 4})
    cfg, progress = prepare_run("ultimatum_cards_v3", run_dir, overrides=overrides)

    original = RunLoop.save_checkpoint
    pressed = []

    def save_then_interrupt(self, model, steps):
        path = original(self, model, steps)
        if not pressed:
            pressed.append(True)
            os.kill(os.getpid(), signal.SIGINT)  # as if the user pressed Ctrl-C right now
        return path

    monkeypatch.setattr(RunLoop, "save_checkpoint", save_then_interrupt)
    first = train(cfg, run_dir, progress, show_bar=False)
    monkeypatch.setattr(RunLoop, "save_checkpoint", original)
    assert first.interrupted and first.steps < 512
    saved = json.loads((run_dir / "progress.json").read_text())
    assert saved["steps"] == first.steps and not saved["finished"]

    with pytest.raises(CheckpointError, match="--resume"):
        prepare_run("ultimatum_cards_v3", run_dir)  # a fresh start would overwrite the run
    cfg2, progress2 = prepare_run("ultimatum_cards_v3", run_dir, resume=True)
    assert cfg2 == cfg and progress2.steps == first.steps
    second = train(cfg2, run_dir, progress2, show_bar=False)
    assert not second.interrupted and second.steps >= 512
    done = json.loads((run_dir / "progress.json").read_text())
    assert done["finished"] and done["checkpoints"][0] == saved["checkpoints"][0]
    assert read_meta(second.final).steps == second.steps
    assert len(list((run_dir / "tb").iterdir())) == 1, "tensorboard continues the same log"


def test_resume_refuses_a_folder_without_a_run(tmp_path):
    with pytest.raises(CheckpointError, match="not a training run"):
        prepare_run("ultimatum_cards_v3", tmp_path, resume=True)


def _interrupted_run(tmp_path, monkeypatch, checkpoints: int):
    """A run stopped after `checkpoints` checkpoints, as if killed then."""
    run_dir = tmp_path / "run"
    overrides = tiny_overrides(total_timesteps=4096, checkpoint_every=256,
                               eval={"every": 10**6, "games": 4, "final_games": 4})
    cfg, progress = prepare_run("ultimatum_cards_v3", run_dir, overrides=overrides)
    original = RunLoop.save_checkpoint

    def save_then_stop(self, model, steps):
        path = original(self, model, steps)
        if len(self.record.checkpoints) >= checkpoints:
            self.stop_requested = True
        return path

    monkeypatch.setattr(RunLoop, "save_checkpoint", save_then_stop)
    first = train(cfg, run_dir, progress, show_bar=False)
    monkeypatch.setattr(RunLoop, "save_checkpoint", original)
    assert first.interrupted
    return run_dir, json.loads((run_dir / "progress.json").read_text())


def test_resume_skips_a_damaged_latest_checkpoint_and_removes_temp_files(tmp_path, monkeypatch, capsys):
    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=2)
    latest, previous = saved["checkpoints"][-1], saved["checkpoints"][-2]
    damaged = run_dir / latest
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])  # a crash mid-copy
    orphan = run_dir / "checkpoints" / ".step_000000999.zip.abc123"
    orphan.write_bytes(b"half a file")

    cfg, progress = prepare_run("ultimatum_cards_v3", run_dir, resume=True)
    outcome = train(cfg, run_dir, progress, show_bar=False)
    printed = capsys.readouterr().out
    assert latest in printed and "sha256" in printed, "the warning names the bad file and why"
    assert f"resuming from {previous}" in printed
    assert not orphan.exists() and ".step_000000999.zip.abc123" in printed
    assert not outcome.interrupted and outcome.steps >= 4096
    done = json.loads((run_dir / "progress.json").read_text())
    assert done["finished"] and done["checkpoints"][: len(saved["checkpoints"]) - 1] == saved["checkpoints"][:-1]
    assert "samples (" in printed and "left" in printed, "a run without a terminal prints periodic progress lines"


def test_resume_with_no_intact_checkpoint_is_one_clear_error(tmp_path, monkeypatch):
    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=1)
    (run_dir / saved["checkpoints"][0]).write_bytes(b"not a zip")
    cfg, progress = prepare_run("ultimatum_cards_v3", run_dir, resume=True)
    with pytest.raises(CheckpointError, match="none of its 1 checkpoints is intact"):
        train(cfg, run_dir, progress, show_bar=False)


def test_resume_hands_the_saved_pool_to_the_batched_sampler(tmp_path, monkeypatch):
    from ultimata.training import trainer

    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=2)
    seen = []
    original = trainer.sampler_specs

    def recording(cfg, snapshots, plan):
        seen.append(list(snapshots))
        return original(cfg, snapshots, plan)

    monkeypatch.setattr(trainer, "sampler_specs", recording)
    cfg, progress = prepare_run("ultimatum_cards_v3", run_dir, resume=True)
    assert cfg.sampler.kind == "batched"
    outcome = train(cfg, run_dir, progress, show_bar=False)
    assert seen == [[str(run_dir / rel) for rel in saved["snapshots"]]]
    assert outcome.steps >= 4096 and read_meta(outcome.final).steps == outcome.steps
