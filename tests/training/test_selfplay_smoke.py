"""Smoke self-play -> checkpoint -> the checkpoint as an opponent in the env, the arena and `play`."""

from __future__ import annotations

import json

import numpy as np
from typer.testing import CliRunner

from ultimata.agents.checkpoint import read_meta
from ultimata.cli import app
from ultimata.training.selfplay_env import SelfPlayEnv

runner = CliRunner()


def test_smoke_run_writes_checkpoints_and_final(tiny_run):
    run_dir, outcome = tiny_run
    assert outcome.steps >= 256 and not outcome.interrupted
    progress = json.loads((run_dir / "progress.json").read_text())
    assert progress["finished"] and len(progress["checkpoints"]) >= 2
    assert len(progress["snapshots"]) == 2  # pool keep = 2
    assert progress["evals"], "evaluation ran during training"
    meta = read_meta(outcome.final)
    assert meta.game == "ultimatum_cards_v3" and meta.steps == outcome.steps
    assert set(meta.rating) == {"random", "heuristic"}
    assert set(outcome.results) == {"random", "heuristic"}
    assert (run_dir / "tb").is_dir()


def test_checkpoint_plays_as_pool_opponent(tiny_run):
    _, outcome = tiny_run
    env = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"snapshots": 1.0}, seed=3)
    env.add_snapshot(str(outcome.final))
    assert env.pool.probabilities() == {str(outcome.final): 1.0}
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        action = rng.choice(np.flatnonzero(env.action_masks()))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            assert set(info["opponents"].values()) == {str(outcome.final)}
            env.reset()


def test_checkpoint_in_arena_json(tiny_run):
    _, outcome = tiny_run
    result = runner.invoke(app, ["arena", "ultimatum_cards_v3", str(outcome.final), "random", "--games", "4",
                                 "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [a["spec"] for a in data["agents"]] == [str(outcome.final), "random"]


def test_scripted_play_game_against_checkpoint(tiny_run, tmp_path):
    _, outcome = tiny_run
    save = tmp_path / "game.json"
    moves = "help\nnonsense\n" + "1\n" * 400  # always the first legal move
    result = runner.invoke(app, ["play", "ultimatum_cards_v3", "--vs", str(outcome.final), "--seat", "2",
                                 "--seed", "5", "--save", str(save), "--record", str(tmp_path / "record.db")],
                           input=moves)
    assert result.exit_code == 0, result.output
    assert "you are player_2" in result.output
    assert "is not a legal move now" in result.output
    assert "final returns" in result.output
    assert "player_0 plays " in result.output  # bots' moves are narrated in the third person
    shown = runner.invoke(app, ["replay", str(save), "--no-pause"])
    assert shown.exit_code == 0 and "final returns" in shown.output
