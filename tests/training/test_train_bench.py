"""`ultimata bench --train` times each training path on a game's config; the CLI refuses nonsense budgets."""

from __future__ import annotations

import json

import yaml
from typer.testing import CliRunner

from tests.training.conftest import tiny_overrides
from ultimata.cli import app


def test_bench_train_times_every_path_on_a_tiny_budget(tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny_overrides(sampler={"games": 4, "rollout": 128})))
    result = CliRunner().invoke(app, ["bench", "--train", "ultimatum_cards_v3", "--steps", "128",
                                      "--config", str(config), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    paths = {row["path"]: row for row in report["paths"]}
    assert {"batched, in-process", "batched, 1 worker"} <= set(paths)
    for row in paths.values():
        assert row["samples"] >= 128 and row["samples_per_cpu_s"] > 0 and row["peak_rss_mb"] > 0
    assert report["connect_four_random_steps_per_cpu_s"] > 0


def test_bench_names_an_unknown_game_in_one_line():
    for args in (["bench", "--game", "chess"], ["bench", "--train", "chess"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2 and "unknown game 'chess'" in result.output
        assert "Traceback" not in result.output


def test_train_refuses_a_budget_of_zero_steps_instead_of_running_the_default(tmp_path):
    result = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--steps", "0", "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "--steps must be a positive number" in result.output
    assert not (tmp_path / "r").exists()



def test_train_prints_each_progress_line_once(tmp_path):
    """Piped output (no live bar) gets one line per 5% with the latest evaluation's rates, and never the
    same evaluation twice."""
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny_overrides(sampler={"games": 4, "workers": 0})))
    result = CliRunner().invoke(app, ["train", "ultimatum_cards_v3", "--config", str(config), "--out",
                                      str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines() if line.strip()]
    assert len(lines) == len(set(lines)), "a line was printed twice"
    rates = [line for line in lines if "vs random" in line]
    assert rates and all("samples (" in line and " left" in line for line in rates), \
        "evaluations show in the progress lines only, beside the samples done and the time left"
    assert (tmp_path / "run" / "curves.png").exists()
