"""Bad command-line input is one clear line and exit code 2, never a traceback or a nan."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ultimata.arena import spec_entries
from ultimata.cli import app
from ultimata.training.arena import run_arena


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["arena", "ultimade_v2", "random", "--seed", "-1"], "--seed"),
        (["arena", "ultimade_v2", "random", "--games", "0"], "--games"),
        (["play", "ultimade_v2", "--seed", "-1"], "--seed"),
        (["train", "nosuchgame_v0", "--preset", "quick"], "unknown game 'nosuchgame_v0'"),
    ],
)
def test_bad_arguments_are_one_clear_error(args, says):
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert says in result.output and "Traceback" not in result.output


def test_replay_viewer_outside_the_seats_names_the_range(tmp_path):
    game, entries = spec_entries(["random"], "ultimatum_cards_v3")
    run_arena(game, entries, 1, replay_dir=tmp_path)
    replay = next(tmp_path.glob("*.json"))
    result = CliRunner().invoke(app, ["replay", str(replay), "--viewer", "7", "--no-pause"])
    assert result.exit_code == 2 and "seat 0..3" in result.output and "Traceback" not in result.output


def test_piped_tables_are_not_cut_at_80_columns(tmp_path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "ultimata", "arena", "ultimatum_cards_v3", "heuristic", "random",
                          "--games", "4"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "openskill μ±σ" in out.stdout and "…" not in out.stdout


@pytest.mark.parametrize("command", [[], ["bench"], ["train"], ["arena"], ["play"], ["replay"], ["serve"]])
def test_help_shows_flags_without_a_value(command):
    """A flag takes no value, so its help line names no type: `--json`, not `--json <bool>`."""
    result = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0 and "--help" in result.output
    assert "<bool>" not in result.output
    assert "<str>" in result.output or not command, "options that take a value still show their type"
