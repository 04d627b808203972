"""`ultimata bench` times envs in interleaved rounds; the figures it reports are medians of those rounds."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ultimata.bench import RandomPlay, interleaved_rates, run
from ultimata.cli import app
from ultimata.envs import make


def test_random_play_resumes_where_it_stopped_and_resets_finished_games():
    player = RandomPlay(make("ultimatum_cards_v3"), seed=3)
    player.seconds_for(200)
    first = player.episode
    player.seconds_for(400)
    assert player.episode > first > 0, "random card games end within a few dozen steps and are reset"


def test_every_env_is_timed_once_per_round():
    rates = interleaved_rates({"a": make("ultimatum_cards_v3"), "b": make("ultimade_v2")}, steps=300, rounds=3)
    assert sorted(rates) == ["a", "b"]
    assert all(len(r) == 3 and min(r) > 0 for r in rates.values())


def test_the_reported_ratio_is_a_median_inside_the_range_of_its_rounds():
    baseline, result = run(steps=600, names=["ultimatum_cards_v3"], rounds=3)
    assert baseline.aec_ratio == 1.0 and baseline.ratio_range is None
    low, high = result.ratio_range
    assert low <= result.aec_ratio <= high
    assert result.engine_decisions_per_s > 0 and len(result.game_lengths) == 20


def test_the_cpu_clock_times_the_same_play_and_an_unknown_clock_is_refused_by_name():
    rates = interleaved_rates({"a": make("ultimatum_cards_v3")}, steps=200, rounds=2, clock="cpu")
    assert len(rates["a"]) == 2 and min(rates["a"]) > 0
    with pytest.raises(ValueError, match="unknown clock 'gpu'; allowed: wall, cpu"):
        run(steps=100, names=["ultimatum_cards_v3"], clock="gpu")


def test_the_cli_refuses_an_unknown_clock_with_the_allowed_ones():
    result = CliRunner().invoke(app, ["bench", "--clock", "sundial", "--steps", "10"])
    assert result.exit_code == 2
    assert "unknown clock 'sundial'; allowed: wall, cpu" in result.output
