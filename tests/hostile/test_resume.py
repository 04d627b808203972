"""A run folder handed over by someone else: `--resume` reads its checkpoints as data. A crafted `data`
pickle is never unpickled (the run goes on from the weights, optimizer state and counters), and a
crafted optimizer state or counter is refused with one line, the run falling back or stopping cleanly."""

from __future__ import annotations

import io
import json

import torch
from typer.testing import CliRunner

from tests.agents.checkpoint_files import member, replace_members
from tests.hostile.test_checkpoints import Payload, _hostile_data, _torch_bytes
from tests.training.test_resume_run import _interrupted_run
from ultimata.cli import app
from ultimata.training.resume_state import load_resume_state
from ultimata.training.trainer import prepare_run, train

GAME = "ultimatum_cards_v3"


def test_a_crafted_data_pickle_in_a_run_folder_is_never_run(tmp_path, monkeypatch, capsys):
    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=1)
    latest = run_dir / saved["checkpoints"][-1]
    marker = tmp_path / "unpickled"
    replace_members(latest, {"data": _hostile_data(member(latest, "data"), marker)})
    steps = json.loads(member(latest, "data"))["num_timesteps"]
    cfg, progress = prepare_run(GAME, run_dir, resume=True)
    outcome = train(cfg, run_dir, progress, show_bar=False)
    assert not marker.exists(), "the payload ran"
    assert not outcome.interrupted and outcome.steps >= 4096 > steps
    assert "falling back" not in capsys.readouterr().out, "the genuine weights and counters were resumed"


def test_the_resumed_model_holds_the_checkpoints_training_state(tmp_path, monkeypatch):
    from ultimata.training.model import _run_model

    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=1)
    latest = run_dir / saved["checkpoints"][-1]
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ultimata.envs import game_class
    from ultimata.training.run_dir import RunDir
    from ultimata.training.trainer import SpacesEnv

    venv = DummyVecEnv([lambda: SpacesEnv(game_class(GAME).from_config({}))])
    model, meta = load_resume_state(latest, _run_model(RunDir(run_dir), GAME, saved["checkpoints"][-1], venv, "cpu"))
    weights = torch.load(io.BytesIO(member(latest, "policy.pth")), weights_only=True)
    optimizer = torch.load(io.BytesIO(member(latest, "policy.optimizer.pth")), weights_only=True)
    assert all(torch.equal(model.policy.state_dict()[k], v) for k, v in weights.items())
    state = model.policy.optimizer.state_dict()["state"]
    assert all(torch.equal(state[i]["exp_avg"], optimizer["state"][i]["exp_avg"]) for i in optimizer["state"])
    assert model.num_timesteps == json.loads(member(latest, "data"))["num_timesteps"] == meta.steps


def test_a_crafted_optimizer_state_is_refused_in_one_line(tmp_path, monkeypatch):
    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=1)
    latest = run_dir / saved["checkpoints"][-1]
    marker = tmp_path / "unpickled"
    replace_members(latest, {"policy.optimizer.pth": _torch_bytes({"state": {0: Payload(marker)}})})
    result = CliRunner().invoke(app, ["train", GAME, "--resume", str(run_dir)])
    assert not marker.exists(), "the payload ran"
    assert result.exit_code == 2 and "Traceback" not in result.output and "weights_only" not in result.output
    assert "policy.optimizer.pth is not plain weights, refused unread" in result.output
    assert "none of its 1 checkpoints is intact" in result.output


def test_nan_moments_and_a_forged_counter_are_refused(tmp_path, monkeypatch, capsys):
    run_dir, saved = _interrupted_run(tmp_path, monkeypatch, checkpoints=1)
    latest = run_dir / saved["checkpoints"][-1]
    optimizer = torch.load(io.BytesIO(member(latest, "policy.optimizer.pth")), weights_only=True)
    optimizer["state"][0]["exp_avg"] = torch.full_like(optimizer["state"][0]["exp_avg"], float("nan"))
    replace_members(latest, {"policy.optimizer.pth": _torch_bytes(optimizer)})
    result = CliRunner().invoke(app, ["train", GAME, "--resume", str(run_dir)])
    assert result.exit_code == 2 and "holds NaN or infinite values" in result.output, result.output
    data = json.loads(member(latest, "data"))
    data["num_timesteps"] = "4096; import os"
    replace_members(latest, {"data": json.dumps(data).encode(),
                             "policy.optimizer.pth": _torch_bytes({"state": {}, "param_groups": []})})
    result = CliRunner().invoke(app, ["train", GAME, "--resume", str(run_dir)])
    assert result.exit_code == 2 and "has no counter 'num_timesteps'" in result.output, result.output
