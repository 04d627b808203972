"""The training progress says how long is left at the run's own rate, and counts samples (issue 54)."""

from __future__ import annotations

from rich.console import Console

from ultimata.envs.core.registry import game_class
from ultimata.training.config import load_train_config
from ultimata.training.run_dir import Progress, RunDir
from ultimata.training.run_loop import RunLoop, time_left


def test_time_left_reads_as_a_person_says_it():
    assert time_left(None) == "" and time_left(float("nan")) == ""
    assert time_left(42.4) == "about 42 s left"
    assert time_left(250) == "about 4 min 10 s left"
    assert time_left(2 * 3600 + 5 * 60 + 7) == "about 2 h 5 min left"


def test_the_time_left_is_the_remaining_samples_at_the_sessions_own_rate(tmp_path):
    cfg = load_train_config("ultimatum_cards_v3", overrides={"total_timesteps": 10_000})
    game = game_class(cfg.game).from_config(cfg.rules)
    loop = RunLoop(cfg, RunDir(tmp_path), Progress(game=cfg.game, steps=2_000), game, Console(quiet=True), False,
                   lambda path: None, lambda key, value: None)
    began = loop._session[0]
    assert loop.seconds_left(2_000, began + 5) is None  # no samples yet this session: no rate to go by
    assert loop.seconds_left(4_000, began + 10) == 6_000 * 10 / 2_000  # 2,000 samples in 10 s; 6,000 to go
    assert loop.seconds_left(10_000, began + 20) == 0
