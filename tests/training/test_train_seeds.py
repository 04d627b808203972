"""`ultimata train GAME --seeds K`: K runs of one recipe and the spread of their final tables (issue 44)."""

from __future__ import annotations

import json

import yaml
from typer.testing import CliRunner

from ultimata.cli import app

TINY = {"total_timesteps": 512, "checkpoint_every": 512, "imitation": None,
        "sampler": {"kind": "batched", "rollout": 512, "games": 4, "workers": 0},
        "ppo": {"batch_size": 256, "n_epochs": 1, "net_arch": [8]},
        "eval": {"every": 512, "games": 4, "final_games": 4}}


def test_seeds_train_apart_and_the_spread_is_over_their_final_tables(tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(TINY))
    out = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--config", str(config), "--seeds", "2",
                                   "--out", str(tmp_path / "runs")])
    assert out.exit_code == 0, out.output
    data = json.loads((tmp_path / "runs" / "seeds.json").read_text())
    assert [run["seed"] for run in data["runs"]] == [0, 1] and data["seeds"] == 2
    for k in (0, 1):
        assert yaml.safe_load((tmp_path / "runs" / f"seed_{k}" / "config.yaml").read_text())["seed"] == k
    fairs = [run["results"]["random"]["x_fair_share"] for run in data["runs"]]
    assert data["spread"]["random"]["x_fair"] == round(sum(fairs) / 2, 3)
    assert "the final tables over 2 training seeds" in out.output


def test_seeds_refuse_what_they_cannot_do(tmp_path):
    runner = CliRunner()
    for args, said in ((["--seeds", "0"], "--seeds must be 1 to 20"),
                       (["--seeds", "2", "--backend", "rllib"], "--seeds starts K new runs on the sb3 backend")):
        out = runner.invoke(app, ["train", "ultimatum_cards_v3", "--out", str(tmp_path / "x"), *args])
        assert out.exit_code == 2 and said in out.output, out.output
