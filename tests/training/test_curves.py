"""Every training run draws its learning curves; `ultimata plot` overlays runs."""

from __future__ import annotations

import json
import shutil

from typer.testing import CliRunner

from ultimata.cli import app
from ultimata.training.curves import eval_series

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_tiny_run_writes_curves_with_time_and_intervals(tiny_run):
    run_dir, _ = tiny_run
    assert (run_dir / "curves.png").read_bytes().startswith(PNG)
    evals = json.loads((run_dir / "progress.json").read_text())["evals"]
    first = evals[0]
    assert first["seconds"] > 0 and first["steps"] > 0
    low, high = first["random_ci95"]
    assert low <= first["random"] <= high
    series = eval_series(evals)
    assert set(series) == {"random", "heuristic"} and len(series["random"]["steps"]) == len(evals)


def test_plot_overlays_two_runs_and_refuses_a_folder_without_evaluations(tiny_run, tmp_path):
    run_dir, _ = tiny_run
    other = tmp_path / "other"
    shutil.copytree(run_dir, other)
    out = tmp_path / "both.png"
    result = CliRunner().invoke(app, ["plot", str(run_dir), str(other), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(PNG)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "progress.json").write_text(json.dumps({"game": "ultimatum_cards_v3"}))
    result = CliRunner().invoke(app, ["plot", str(empty)])
    assert result.exit_code == 2 and "no evaluations yet" in result.output
