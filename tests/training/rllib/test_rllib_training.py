"""The RLlib backend end to end: masks never broken, snapshots play their own weights, exports match,
and a tiny run trains, resumes, and leaves a checkpoint the arena loads without Ray."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys

import numpy as np
import pytest
import torch
import yaml
from ray.rllib.core.columns import Columns
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical
from rich.console import Console
from typer.testing import CliRunner

from tests.training.rllib.conftest import TINY_RLLIB
from ultimata.agents.checkpoint import CheckpointMeta
from ultimata.agents.policy_agent import PolicyAgent
from ultimata.cli import app
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.registry import GAMES, game_class
from ultimata.training.config import load_train_config
from ultimata.training.rllib import league_env
from ultimata.training.rllib import trainer as rllib_trainer
from ultimata.training.rllib.export import export_weights
from ultimata.training.rllib.league import MAIN, add_snapshot, learner_weights
from ultimata.training.rllib.league_env import LeagueAEC, league_pool
from ultimata.training.rllib.trainer import (
    algorithm_config,
    module_spec,
    restore,
    rllib_dir,
    save_algorithm,
    sb3_only_settings,
)
from ultimata.training.run_dir import Progress as RunProgress
from ultimata.training.run_dir import RunDir
from ultimata.training.trainer import prepare_run


def _cfg(game: str = "ultimatum_cards_v3", **extra):
    return load_train_config(game, overrides={**TINY_RLLIB, **extra})


def _observations(game: str, count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(observations, masks) met in random masked play."""
    aec = LeagueAEC(game, pool={"snapshots": 1.0})
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    aec.reset(seed=seed)
    while len(obs) < count:
        role = aec.agent_selection
        if aec.terminations[role] or aec.truncations[role]:
            aec.reset(seed=int(rng.integers(1 << 30)))
            continue
        ob = aec.observe(role)
        obs.append(ob["observations"])
        masks.append(ob["action_mask"])
        aec.step(int(rng.choice(np.flatnonzero(ob["action_mask"]))))
    return np.array(obs), np.array(masks)


def test_the_module_never_samples_a_masked_action():
    cfg = _cfg()
    module = module_spec(cfg, game_class(cfg.game).from_config(cfg.rules)).build()
    obs, masks = _observations(cfg.game, 200)
    batch = {Columns.OBS: {"observations": torch.as_tensor(obs), "action_mask": torch.as_tensor(masks)}}
    with torch.no_grad():
        for forward in (module.forward_exploration, module.forward_inference):
            dist = TorchCategorical(logits=forward(batch)[Columns.ACTION_DIST_INPUTS])
            for _ in range(50):
                actions = dist.sample().numpy()
                assert masks[np.arange(len(actions)), actions].all()


def test_training_only_ever_sends_legal_actions(ray_session, monkeypatch):
    cfg = _cfg()
    sent: list[bool] = []
    original = LeagueAEC._league_move

    def checked(self, action):
        mask = self.tables.states[0].legal_action_mask()
        sent.append(bool(mask[int(action)]))
        return original(self, action)

    monkeypatch.setattr(league_env.LeagueAEC, "_league_move", checked)
    algo = algorithm_config(cfg, game_class(cfg.game).from_config(cfg.rules), num_env_runners=0).build_algo()
    try:
        algo.train()
    finally:
        algo.stop()
    assert len(sent) >= 512 and all(sent)


def test_a_new_snapshot_plays_with_the_weights_it_was_given(ray_session):
    cfg = _cfg()
    algo = algorithm_config(cfg, game_class(cfg.game).from_config(cfg.rules), num_env_runners=1).build_algo()
    try:
        algo.train()
        weights = {k: np.asarray(v) + 0.5 for k, v in learner_weights(algo).items()}  # unlike any module's
        add_snapshot(algo, "main_000000001", weights, ())
        remote = algo.env_runner_group.foreach_env_runner(
            lambda runner: runner.module["main_000000001"].get_state(), local_env_runner=False
        )
        assert len(remote) == 1
        for key, value in weights.items():
            np.testing.assert_allclose(np.asarray(remote[0][key]), value, rtol=0, atol=1e-6)
        np.testing.assert_allclose(
            np.asarray(learner_weights(algo, "main_000000001")["action_net.weight"]),
            weights["action_net.weight"],
            atol=1e-6,
        )
        algo.train()  # the snapshot is frozen: training main leaves it as given
        after = learner_weights(algo, "main_000000001")
        np.testing.assert_allclose(np.asarray(after["action_net.weight"]), weights["action_net.weight"], atol=1e-6)
        assert not np.allclose(
            np.asarray(learner_weights(algo, MAIN)["action_net.weight"]), weights["action_net.weight"]
        )
    finally:
        algo.stop()


@pytest.mark.parametrize(
    "game, extra",
    [
        ("ultimatum_cards_v3", {}),
        (
            "ultimade_v2",
            {
                "ppo": {
                    "features": "planes",
                    "conv_channels": [8],
                    "conv_out_channels": 2,
                    "net_arch": [],
                    "batch_size": 256,
                }
            },
        ),
    ],
)
def test_the_exported_policy_computes_the_modules_logits(tmp_path, game, extra):
    cfg = _cfg(game, **extra)
    game_obj = game_class(game).from_config(cfg.rules)
    module = module_spec(cfg, game_obj).build()
    meta = CheckpointMeta.for_game(game_obj, 7)
    path = export_weights(cfg, game_obj, module.get_state(), tmp_path / "exported.zip", meta)
    agent = PolicyAgent.from_checkpoint(path, game_obj)
    obs, _ = _observations(game, 40, seed=2)
    with torch.no_grad():
        expected = module.raw_logits(torch.as_tensor(obs)).numpy()
    got = np.array([agent.logits(o) for o in obs])
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert json.loads(path.with_suffix(".json").read_text())["extra"]["backend"] == "rllib"


def test_a_tiny_run_survives_ctrl_c_resumes_and_its_policy_plays_in_the_arena(ray_session, tmp_path, monkeypatch):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(TINY_RLLIB))
    run = tmp_path / "run"
    runner = CliRunner()
    original = rllib_trainer.LeagueRunLoop.save_checkpoint
    pressed = []

    def checkpoint_then_ctrl_c(self, algo, steps):
        path = original(self, algo, steps)
        if not pressed:
            pressed.append(True)
            os.kill(os.getpid(), signal.SIGINT)  # as if the user pressed Ctrl-C right after the first checkpoint
        return path

    monkeypatch.setattr(rllib_trainer.LeagueRunLoop, "save_checkpoint", checkpoint_then_ctrl_c)
    args = ["train", "ultimatum_cards_v3", "--backend", "rllib"]
    stopped = runner.invoke(app, [*args, "--config", str(config), "--out", str(run)])
    monkeypatch.setattr(rllib_trainer.LeagueRunLoop, "save_checkpoint", original)
    assert stopped.exit_code == 130, stopped.output
    assert "--resume" in stopped.output and "--backend rllib" in stopped.output
    interrupted = json.loads((run / "progress.json").read_text())
    assert not interrupted["finished"] and 0 < interrupted["steps"] < 1024

    first = runner.invoke(app, [*args, "--resume", str(run)])
    assert first.exit_code == 0, first.output
    assert "resuming ultimatum_cards_v3" in first.output
    progress = json.loads((run / "progress.json").read_text())
    assert progress["finished"] and progress["steps"] >= 1024 and len(progress["checkpoints"]) == 2
    assert progress["checkpoints"][0] == interrupted["checkpoints"][0]
    assert len(progress["snapshots"]) == 1  # keep: 1
    assert (run / "final.zip").exists() and list((run / "rllib").glob("step_*"))
    assert list((run / "tb").rglob("events.out.tfevents.*"))

    again = runner.invoke(
        app, ["train", "ultimatum_cards_v3", "--backend", "rllib", "--resume", str(run), "--steps", "1536"]
    )
    assert again.exit_code == 0, again.output
    resumed = json.loads((run / "progress.json").read_text())
    assert resumed["steps"] >= 1536 and resumed["checkpoints"][:2] == progress["checkpoints"]

    # the exported policy is an ordinary ultimata checkpoint: the arena loads it in a process without Ray
    code = (
        "import sys, builtins\n"
        "real = builtins.__import__\n"
        "def no_ray(name, *a, **k):\n"
        "    if name == 'ray' or name.startswith('ray.'): raise ImportError('ray is not installed')\n"
        "    return real(name, *a, **k)\n"
        "builtins.__import__ = no_ray\n"
        "from ultimata.cli import app\n"
        f"app(['arena', 'ultimatum_cards_v3', {str(run / 'final.zip')!r}, 'heuristic', '--games', '8', '--json'])\n"
    )
    arena = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert arena.returncode == 0, arena.stderr
    assert json.loads(arena.stdout)["games"] == 8


def _artifacts(run, outcome) -> dict:
    """What a finished run leaves, in terms that do not depend on the backend or the step counts."""
    progress = json.loads((run / "progress.json").read_text())
    final = json.loads((run / "final.json").read_text())
    return {
        "top": sorted(p.name for p in run.iterdir() if p.name != "rllib"),  # rllib/: RLlib's own resume state
        "progress": sorted(progress),
        "eval_keys": [sorted(entry) for entry in progress["evals"][:1]],
        "checkpoints_on_disk": all((run / rel).exists() and (run / rel).with_suffix(".json").exists()
                                   for rel in progress["checkpoints"]),
        "snapshots_are_checkpoints": bool(progress["snapshots"]) and set(progress["snapshots"]) <= set(
            progress["checkpoints"]),
        "finished": progress["finished"],
        "curves": (run / "curves.png").read_bytes()[:8],
        "rating": {spec: sorted(r) for spec, r in final["rating"].items()},
        "final_extra": sorted(k for k in final["extra"] if k != "backend"),
        "tensorboard": bool(list((run / "tb").rglob("events.out.tfevents.*"))),
        "outcome": (outcome.final == run / "final.zip", sorted(outcome.results), outcome.cpu_seconds > 0,
                    outcome.peak_rss_mb > 0, outcome.interrupted),
    }


def test_an_rllib_run_leaves_the_run_folder_an_sb3_run_does(ray_session, tiny_run, tmp_path):
    run = tmp_path / "run"
    cfg, progress = prepare_run("ultimatum_cards_v3", run, overrides={**TINY_RLLIB, "total_timesteps": 512})
    outcome = rllib_trainer.train_rllib(cfg, run, progress, console=Console(file=io.StringIO()))
    sb3_run, sb3_outcome = tiny_run
    assert _artifacts(run, outcome) == _artifacts(sb3_run, sb3_outcome)
    assert json.loads((run / "final.json").read_text())["extra"]["backend"] == "rllib"


def test_resume_after_a_kill_gives_the_newest_snapshot_its_own_weights(ray_session, tmp_path):
    """A run killed just after a checkpoint: RLlib's state was saved before that checkpoint joined the
    league, so the snapshot's weights are only in its exported checkpoint."""
    cfg = _cfg()
    game = game_class(cfg.game).from_config(cfg.rules)
    run = RunDir(tmp_path)
    algo = algorithm_config(cfg, game, num_env_runners=0).build_algo()
    try:
        snapshot = {k: torch.as_tensor(np.asarray(v)) + 0.5 for k, v in learner_weights(algo).items()}
        export_weights(cfg, game, snapshot, run.checkpoint(512), CheckpointMeta.for_game(game, 512))
        save_algorithm(algo, rllib_dir(run, 512))
    finally:
        algo.stop()
    rel = run.rel(run.checkpoint(512))
    progress = RunProgress(game=cfg.game, steps=512, checkpoints=[rel], snapshots=[rel])
    algo = algorithm_config(cfg, game, num_env_runners=0).build_algo()
    try:
        league = restore(cfg, run, progress, algo, game, Console())
        assert league == ("main_000000512",)
        got = learner_weights(algo, "main_000000512")
        for key, value in snapshot.items():
            np.testing.assert_allclose(np.asarray(got[key]), value.numpy(), atol=1e-6)
    finally:
        algo.stop()


def test_rllib_settings_are_checked_like_the_rest_of_the_config():
    with pytest.raises(ConfigError, match="num_env_runners"):
        load_train_config("ultimatum_cards_v3", overrides={"rllib": {"num_env_runner": 2}})
    with pytest.raises(ConfigError, match="num_env_runners"):
        load_train_config("ultimatum_cards_v3", overrides={"rllib": {"num_env_runners": -1}})


def test_rllib_options_without_the_rllib_backend_are_refused():
    result = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--num-env-runners", "2"])
    assert result.exit_code == 2 and "--backend rllib" in result.output
    result = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--backend", "tune"])
    assert result.exit_code == 2 and "sb3 or rllib" in result.output


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_registered_game_trains_an_iteration_with_its_own_network(ray_session, game):
    cfg = load_train_config(
        game,
        overrides={
            "sampler": {"rollout": 128},
            "rllib": {"train_batch_size": 128, "num_envs_per_env_runner": 2},
            "ppo": {"batch_size": 64, "n_epochs": 1},
        },
    )
    game_obj = game_class(game).from_config(cfg.rules)
    algo = algorithm_config(cfg, game_obj, num_env_runners=0).build_algo()
    try:
        before = {k: np.asarray(v).copy() for k, v in learner_weights(algo).items()}
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled"] >= 128
        after = learner_weights(algo)
        assert any(not np.allclose(before[k], np.asarray(after[k])) for k in before)
    finally:
        algo.stop()


def test_settings_only_the_sb3_backend_applies_are_named():
    plain = load_train_config("ultimatum_cards_v3", overrides={"pool": {"weights": {"mirror": 0}}})
    assert sb3_only_settings(plain) == []
    mirrored = load_train_config("ultimatum_cards_v3", overrides={"pool": {"weights": {"mirror": 0.5}}})
    assert sb3_only_settings(mirrored) == ["pool.weights.mirror (0.5) is the sb3 batched sampler's; here those seats "
                                           "are league seats (main until the first snapshot, then the snapshots)"]
    assert league_pool({"mirror": 0.5, "snapshots": 0.2, "random": 0.3}) == {"mirror": 0.7, "random": 0.3}
    notices = sb3_only_settings(load_train_config("ultra_war_v5"))  # its config sets imitation.critic_steps
    assert len(notices) == 1 and "imitation.critic_steps (40,000)" in notices[0]
    seats = load_train_config("ultimade_v2", overrides={"pool": {"learner_seats": [2, 1]}})
    assert sb3_only_settings(seats) == ["pool.learner_seats ([2.0, 1.0]) is applied by the sb3 backend only; here "
                                        "the learner holds every seat equally often"]
